// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// localSSDOf is the pool's "ephemeral/raw block" Local SSD counts, "-"
// for a mode GKE does not report.
func localSSDOf(np *container.NodePool) string {
	eph, raw := "-", "-"
	if c := np.Config.EphemeralStorageLocalSsdConfig; c != nil {
		eph = fmt.Sprint(c.LocalSsdCount)
	}
	if c := np.Config.LocalNvmeSsdBlockConfig; c != nil {
		raw = fmt.Sprint(c.LocalSsdCount)
	}
	return eph + "/" + raw
}

// TestAccFallbackNodePools_localSSD: Local SSDs for ephemeral storage are
// sent on create, reported back with GKE's node label in
// accelerator_labels, imported as they are; switching the tier to raw
// block devices re-creates its pool (nodePools.update has no Local SSD
// field) and drops the label; every step plans nothing after its apply.
func TestAccFallbackNodePools_localSSD(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "counts pool creates to show that a change of mode re-creates the pool")
	_, gpuZone := zones(tg)
	name := acctest.RandomName("ssd")
	render := func(setting string) string {
		return config(tg, name, "", gpuTier(name, gpuZone, "g2-standard-8", setting))
	}
	const label = "cloud.google.com/gke-ephemeral-storage-local-ssd"
	creates := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{{
			Config: render(line("ephemeral_storage_local_ssd_count", "1")),
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: name, check: reports("ephemeral", func(np *container.NodePool) bool { return localSSDOf(np) == "1/-" })},
				statecheck.ExpectKnownValue(address, tierPath(0, "ephemeral_storage_local_ssd_count"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(address, tierPath(0, "local_nvme_ssd_block_count"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tierPath(0, "accelerator_labels").AtMapKey(label), knownvalue.StringExact("true")),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}, {
			ResourceName:            address,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateId:           tg.Cluster + "/nodePools/" + name,
			ImportStateVerifyIgnore: []string{"timeouts", "pools"},
		}, {
			PreConfig: creates.Snapshot,
			Config:    render(line("local_nvme_ssd_block_count", "1")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: name, check: reports("raw block", func(np *container.NodePool) bool { return localSSDOf(np) == "-/1" })},
				poolsCreated(creates, true, "the Local SSD mode"),
				statecheck.ExpectKnownValue(address, tierPath(0, "local_nvme_ssd_block_count"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(address, tierPath(0, "accelerator_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"cloud.google.com/gke-accelerator": knownvalue.StringExact("nvidia-l4"),
				})),
			},
		}},
	})
}

// TestAccFallbackNodePools_localSSDRejected: Local SSD settings GKE or
// Compute Engine refuse are errors at plan time, offline, naming the value
// and what is valid.
func TestAccFallbackNodePools_localSSDRejected(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	gpu := func(machine, extra string) string {
		return `{ name = "g", machine_type = "` + machine + `", node_locations = ["us-central1-a"], ` + extra + ` }`
	}
	cases := []struct {
		name, tier string
		want       []string
	}{
		{"both modes", gpu("g2-standard-8", "ephemeral_storage_local_ssd_count = 1, local_nvme_ssd_block_count = 1"),
			[]string{"Two Local SSD Modes", "not both"}},
		{"machine type without Local SSD", gpu("e2-standard-8", "ephemeral_storage_local_ssd_count = 1"),
			[]string{"Machine Type Without Local SSD", "e2-standard-8 cannot have Local SSDs", "E2 machine types"}},
		{"more than a VM can have", gpu("g2-standard-8", "local_nvme_ssd_block_count = 33"),
			[]string{"local_nvme_ssd_block_count", "between 0 and 32", "33"}},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      offlineConfig(resourceHCL(cluster, "c", "", c.tier)),
			PlanOnly:    true,
			ExpectError: phrases(c.want...),
		})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories, Steps: steps})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_provisioning: a flex-start GPU tier with a run
// duration and a queued TPU tier are created as GKE documents them (no
// reservation, autoscaling from zero), read back the same way on import,
// plan nothing after apply, tolerate GKE's queued taint, and a change of
// the provisioning model re-creates only that tier's pool.
func TestAccFallbackNodePools_provisioning(t *testing.T) {
	tg := newTarget(t)
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("prov")
	gpuName, tpuName := prefix+"-flex", prefix+"-queued"
	render := func(run string) string {
		return config(tg, prefix, "",
			gpuTier(gpuName, gpuZone, "g2-standard-4", line("min_node_count", "0"), line("max_node_count", "2"),
				line("flex_start", "true"), line("max_run_duration", run)),
			tpuTier(tpuName, tpuZone, "v6e-1", line("min_node_count", "0"), line("max_node_count", "1"),
				line("queued_provisioning", "true"), line("auto_repair", "false")))
	}
	flex := func(run string) func(*container.NodePool) error {
		return reports("flex_start", func(np *container.NodePool) bool {
			ra := np.Config.ReservationAffinity
			return np.Config.FlexStart && np.Config.MaxRunDuration == run && ra != nil && ra.ConsumeReservationType == "NO_RESERVATION" &&
				(np.QueuedProvisioning == nil || !np.QueuedProvisioning.Enabled)
		})
	}
	queued := reports("queued_provisioning", func(np *container.NodePool) bool {
		ra := np.Config.ReservationAffinity
		return np.QueuedProvisioning != nil && np.QueuedProvisioning.Enabled && !np.Config.FlexStart &&
			ra != nil && ra.ConsumeReservationType == "NO_RESERVATION"
	})
	creates := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, gpuName, tpuName),
		Steps: []resource.TestStep{{
			Config: render(`"24h"`),
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: gpuName, check: flex("86400s")},
				poolCheck{tg: tg, name: tpuName, check: queued},
				statecheck.ExpectKnownValue(address, tierPath(0, "max_run_duration"), knownvalue.StringExact("24h")),
				statecheck.ExpectKnownValue(address, tierPath(0, "queued_provisioning"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tierPath(0, "reservation_affinity"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tierPath(1, "queued_provisioning"), knownvalue.Bool(true)),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckTypeSetElemNestedAttrs(address, "tiers.1.tolerations.*", map[string]string{
					"key": "cloud.google.com/gke-queued", "operator": "Equal", "value": "true", "effect": "NoSchedule"}),
				resource.TestCheckTypeSetElemNestedAttrs(address, "tolerations.*", map[string]string{
					"key": "cloud.google.com/gke-queued", "operator": "Equal", "value": "true", "effect": "NoSchedule"}),
			),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}, {
			ResourceName:            address,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateId:           tg.Cluster + "/nodePools/" + gpuName + "," + tpuName,
			ImportStateVerifyIgnore: []string{"timeouts", "pools"},
		}, {
			PreConfig: creates.Snapshot,
			Config:    render(`"12h"`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: gpuName, check: flex("43200s")},
				poolsCreated(creates, true, "max_run_duration"),
			},
		}},
	})
}

// TestAccFallbackNodePools_provisioningRejected: each flex-start or queued
// provisioning configuration GKE refuses is an error at plan time, offline,
// naming the attribute, the value and what is valid.
func TestAccFallbackNodePools_provisioningRejected(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	gpu := func(extra string) string {
		return `{ name = "g", machine_type = "g2-standard-4", node_locations = ["us-central1-a"], ` + extra + ` }`
	}
	scaled := "min_node_count = 0, max_node_count = 2, "
	cases := []struct {
		name, tier string
		want       string
	}{
		{"flex and spot", gpu(scaled + "flex_start = true, spot = true"), "Flex-start Excludes Spot"},
		{"queued fixed size", gpu("node_count = 1, queued_provisioning = true"), "Queued provisioning Needs Autoscaling From Zero"},
		{"flex from one", gpu("min_node_count = 1, max_node_count = 2, flex_start = true"), "Flex-start Needs Autoscaling From Zero"},
		{"queued reservation", "  tiers {\n    name = \"g\"\n    machine_type = \"g2-standard-4\"\n    node_locations = [\"us-central1-a\"]\n" +
			"    min_node_count = 0\n    max_node_count = 2\n    queued_provisioning = true\n" +
			"    reservation_affinity {\n      consume_reservation_type = \"ANY_RESERVATION\"\n    }\n  }", "Queued provisioning Consumes No Reservation"},
		{"run too long", gpu(scaled + `flex_start = true, max_run_duration = "192h"`), "Max Run Duration Too Long"},
		{"run form", gpu(scaled + `flex_start = true, max_run_duration = "a week"`), "Invalid Duration"},
		{"flex on v4", `{ name = "t", accelerator_type = "v4-8", node_locations = ["us-central2-b"], ` + scaled + `flex_start = true }`,
			"Flex-Start Not Offered for This Generation"},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      offlineConfig(resourceHCL(cluster, "c", "", c.tier)),
			PlanOnly:    true,
			ExpectError: phrases(c.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

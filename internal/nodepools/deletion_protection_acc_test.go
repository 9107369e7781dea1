// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccFallbackNodePools_deletionProtection: while deletion_protection
// is true, a plan that removes a tier, one that re-creates a pool, and
// terraform destroy are refused at plan, each naming the pool and the fix,
// and no pool is deleted; a tier that replaces another still goes through.
// Turning it off changes only the state, after which destroy works; an
// import reads it as false.
func TestAccFallbackNodePools_deletionProtection(t *testing.T) {
	tg := newTarget(t)
	_, gpuZone := zones(tg)
	name := acctest.RandomName("dp")
	a, b, c := gpuTier(name+"-a", gpuZone, "g2-standard-4"), gpuTier(name+"-b", gpuZone, "g2-standard-4"),
		gpuTier(name+"-c", gpuZone, "g2-standard-4", line("replaces", `"`+name+`-b"`))
	protect := func(on bool) string {
		if on {
			return "  deletion_protection = true\n"
		}
		return "  deletion_protection = false\n"
	}
	deletes := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name+"-a", name+"-c"),
		Steps: []resource.TestStep{{
			PreConfig: deletes.Snapshot,
			Config:    config(tg, name, protect(true), a, b),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
			},
		}, {
			// Tier b removed.
			Config:      config(tg, name, protect(true), a),
			ExpectError: regexp.MustCompile(`(?s)Deletion Protection Is On.*nodePools/` + name + `-b \(1 node\): deleted: its tier\s+was removed or renamed.*deletion_protection = false and apply first`),
		}, {
			// Tier b re-created (another machine type), even with the
			// protection turned off in the same plan.
			Config:      config(tg, name, protect(false), a, gpuTier(name+"-b", gpuZone, "g2-standard-8")),
			ExpectError: regexp.MustCompile(`(?s)Deletion Protection Is On.*nodePools/` + name + `-b \(1 node\): re-created`),
		}, {
			Config:      config(tg, name, protect(true), a, b),
			Destroy:     true,
			ExpectError: regexp.MustCompile(`(?s)Deletion Protection Is On.*Destroying this resource deletes node pools\s+"` + name + `-a",\s+"` + name + `-b"`),
		}, {
			// c replaces b: b is deleted once c runs.
			Config: config(tg, name, protect(true), a, c),
			ConfigStateChecks: []statecheck.StateCheck{
				// b's, and none of the refused plans deleted anything.
				deletes.Exactly(map[string]int64{emulator.MethodNodePoolsDelete: 1}),
				expectPools{tg: tg, prefix: name, names: []string{name + "-a", name + "-c"}},
			},
		}, {
			Config: config(tg, name, protect(false), a, c),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(false)),
			}},
		}, {
			ResourceName:      address,
			ImportState:       true,
			ImportStateVerify: true,
			ImportStateId:     tg.Cluster + "/nodePools/" + name + "-a," + name + "-c",
			// replaces is configuration only; GKE knows nothing of it.
			ImportStateVerifyIgnore: []string{"timeouts", "pools", "tiers.1.replaces"},
		}},
	})
}

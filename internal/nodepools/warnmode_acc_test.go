// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccFallbackNodePools_warnModeMultiHostTwoZones: with validation =
// "warn", a multi-host TPU slice in two zones, which the catalog rejects (a
// multi-host slice needs exactly one zone), is sent to GKE as written; when
// GKE accepts it (here, an emulator whose second zone also offers v6e), the
// apply records it without "invalid result object", and the next plan is
// empty.
func TestAccFallbackNodePools_warnModeMultiHostTwoZones(t *testing.T) {
	tg := newTarget(t, func(sc *emulator.Scenario) {
		b := slices.IndexFunc(sc.Zones, func(z emulator.Zone) bool { return z.Name == "us-central1-b" })
		c := slices.IndexFunc(sc.Zones, func(z emulator.Zone) bool { return z.Name == "us-central1-c" })
		sc.Zones[c].TPUAcceleratorTypes = append(sc.Zones[c].TPUAcceleratorTypes, sc.Zones[b].TPUAcceleratorTypes...)
		sc.Zones[c].MachineTypes = append(sc.Zones[c].MachineTypes, sc.Zones[b].MachineTypes...)
	})
	tg.RequireEmulatorFor(t, "creates a node-pool shape that GKE refuses but the emulator creates in warn mode")
	name := "tf-acc-warn-multi"
	slice := tier{name: name, attrs: line("accelerator_type", `"v6e-16"`) +
		line("node_locations", fmt.Sprintf("[%q, %q]", "us-central1-b", "us-central1-c"))}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{
			{
				// What the catalog rejects.
				Config:      config(tg, "warn-multi", "", slice),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Error: .*node_locations`),
			},
			{
				Config: config(tg, "warn-multi", "  validation = \"warn\"\n", slice),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

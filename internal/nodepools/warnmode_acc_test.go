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

// TestAccFallbackNodePools_warnModeCreatesAsWritten: with validation =
// "warn", tiers the catalog rejects are sent to GKE as written; when GKE
// accepts them, the apply records them without "invalid result object" or a
// tainted resource, and the next plan is empty. The cases: a slice size
// that does not exist and a GPU type that does not match the machine type;
// a multi-host TPU slice in two zones (a multi-host slice needs exactly one
// zone), here with an emulator whose second zone also offers v6e.
func TestAccFallbackNodePools_warnModeCreatesAsWritten(t *testing.T) {
	t.Run("catalog rejects", func(t *testing.T) {
		tg := newTarget(t)
		tg.RequireEmulatorFor(t, "creates a node-pool shape that GKE refuses but the emulator creates in warn mode")
		tpuZone, gpuZone := zones(tg)
		tiers := []tier{tpuTier("tf-acc-warn-tpu", tpuZone, "v6e-3"),
			{name: "tf-acc-warn-gpu", attrs: line("machine_type", `"g2-standard-4"`) + line("gpu_type", `"nvidia-tesla-t4"`) +
				line("gpu_count", "1") + line("node_locations", fmt.Sprintf("[%q]", gpuZone))}}
		createdAsWritten(t, tg, "warn", tiers, `(?s)Error: .*v6e-3`)
	})
	t.Run("multi-host in two zones", func(t *testing.T) {
		tg := newTarget(t, func(sc *emulator.Scenario) {
			b := slices.IndexFunc(sc.Zones, func(z emulator.Zone) bool { return z.Name == "us-central1-b" })
			c := slices.IndexFunc(sc.Zones, func(z emulator.Zone) bool { return z.Name == "us-central1-c" })
			sc.Zones[c].TPUAcceleratorTypes = append(sc.Zones[c].TPUAcceleratorTypes, sc.Zones[b].TPUAcceleratorTypes...)
			sc.Zones[c].MachineTypes = append(sc.Zones[c].MachineTypes, sc.Zones[b].MachineTypes...)
		})
		tg.RequireEmulatorFor(t, "creates a node-pool shape that GKE refuses but the emulator creates in warn mode")
		slice := tier{name: "tf-acc-warn-multi", attrs: line("accelerator_type", `"v6e-16"`) +
			line("node_locations", fmt.Sprintf("[%q, %q]", "us-central1-b", "us-central1-c"))}
		createdAsWritten(t, tg, "warn-multi", []tier{slice}, `(?s)Error: .*node_locations`)
	})
}

// createdAsWritten plans tiers without validation = "warn" (an error
// matching strictError), then applies them with it and expects an empty
// plan after.
func createdAsWritten(t *testing.T, tg *acctest.Target, class string, tiers []tier, strictError string) {
	t.Helper()
	names := make([]string, len(tiers))
	for i, tr := range tiers {
		names[i] = tr.name
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, names...),
		Steps: []resource.TestStep{
			{
				Config:      config(tg, class, "", tiers...),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(strictError),
			},
			{
				Config: config(tg, class, "  validation = \"warn\"\n", tiers...),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

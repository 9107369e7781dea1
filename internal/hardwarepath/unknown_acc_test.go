// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath_test

import (
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// everyArgument sets every argument of accel_hardware_path, the candidate
// blocks included, to a valid value. TestAccHardwarePath_unknownAtPlan
// fails for an argument missing here.
func everyArgument() map[string]any {
	n1 := func(machine string) map[string]any {
		return map[string]any{"machine_type": machine, "gpu_type": "nvidia-tesla-t4", "gpu_count": 1}
	}
	return map[string]any{
		"start":               "tpu",
		"zones":               []any{"us-central1-b", "us-central1-a"},
		"runs_on_other":       true,
		"conversion_feasible": false,
		"tpu":                 []any{map[string]any{"accelerator_type": "v6e-4"}},
		"gpu":                 []any{map[string]any{"machine_type": "a2-ultragpu-1g"}, n1("n1-standard-8")},
		"smaller_gpu":         []any{n1("n1-standard-4")},
	}
}

// TestAccHardwarePath_unknownAtPlan makes each argument of
// accel_hardware_path (from the schema, so that new arguments are covered)
// unknown until apply in turn, with every other argument set and with only
// the required ones: each read succeeds once the value is known, without
// false errors at plan time, and the plan has no warning that only the
// unknown values cause.
func TestAccHardwarePath_unknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.DataSource, "accel_hardware_path")
	minimal := map[string]any{"start": "gpu", "zones": []any{"us-central1-a"},
		"gpu": []any{map[string]any{"machine_type": "g2-standard-4"}}}
	cases, missing := acctest.UnknownCases(attrs, everyArgument(), minimal, nil)
	acctest.RequireValues(t, missing)
	acctest.ApplyUnknownCases(t, tg, acctest.DataSource, "accel_hardware_path", cases)
	acctest.CheckNoUnknownOnlyWarnings(t, tg, acctest.DataSource, "accel_hardware_path", cases)
}

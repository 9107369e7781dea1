// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion_test

import (
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccRuntimeVersion_unknownAtPlan makes each argument of
// accel_runtime_version (from the schema, so that new arguments are
// covered) unknown until apply in turn, with every other argument set and
// with only the accelerator type set: each read succeeds once the value is
// known, without false errors at plan time, and the plan has no warning that
// only the unknown values cause (acctest.CheckNoUnknownOnlyWarnings).
func TestAccRuntimeVersion_unknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.DataSource, "accel_runtime_version")
	every := map[string]any{
		"accelerator_type":  "v5litepod-4",
		"framework":         "tensorflow",
		"framework_version": "2.18.0",
		"zone":              tg.Zone,
		"runtime_version":   "tpu-vm-tf-2.18.0-pjrt",
		"validation":        "strict",
	}
	cases, missing := acctest.UnknownCases(attrs, every, map[string]any{"accelerator_type": "v5litepod-4", "framework": "tensorflow"}, nil)
	acctest.RequireValues(t, missing)
	acctest.ApplyUnknownCases(t, tg, acctest.DataSource, "accel_runtime_version", cases)
	acctest.CheckNoUnknownOnlyWarnings(t, tg, acctest.DataSource, "accel_runtime_version", cases)
}

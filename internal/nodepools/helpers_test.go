// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

func gpuSpecs(t *testing.T, names ...string) []tierSpec {
	t.Helper()
	var out []tierSpec
	for _, n := range names {
		s, fs := derive(catalog.Default(), tierInput{Name: n, MachineType: "g2-standard-4", GPUType: "nvidia-l4",
			Locations: []string{"us-central1-a"}, AutoRepair: true, AutoUpgrade: true}, "cc", "")
		if fs.HasErrors() {
			t.Fatal(fs)
		}
		out = append(out, s)
	}
	return out
}

// checked is a diagnostics sink that fails t if it holds an error when the
// test ends.
func checked(t *testing.T) *diag.Diagnostics {
	t.Helper()
	d := &diag.Diagnostics{}
	t.Cleanup(func() {
		if d.HasError() {
			t.Errorf("diagnostics: %v", *d)
		}
	})
	return d
}

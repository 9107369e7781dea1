// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"slices"
	"testing"
)

// TestShapeChanges: the re-creation warning names each setting that
// changed, with its old and new value, and nothing else.
func TestShapeChanges(t *testing.T) {
	t.Parallel()
	was := tierSpec{MachineType: "g2-standard-8", GPUType: "nvidia-l4", GPUCount: 1, Locations: []string{"us-central1-a"}}
	if got := shapeChanges(was, was); len(got) != 0 || !sameShape(was, was) {
		t.Errorf("no change: %q", got)
	}
	want := was
	want.MachineType, want.Locations, want.Spot = "g2-standard-16", []string{"us-central1-b"}, true
	got := shapeChanges(was, want)
	if !slices.Equal(got, []string{`machine_type "g2-standard-8" → "g2-standard-16"`,
		`node_locations ["us-central1-a"] → ["us-central1-b"]`, "spot false → true"}) || sameShape(was, want) {
		t.Errorf("changes %q", got)
	}
	tpu := tierSpec{TPU: true, AcceleratorType: "v6e-4", MachineType: "ct6e-standard-4t", Locations: []string{"us-central1-b"}}
	if got := shapeChanges(was, tpu); len(got) == 0 || got[0] != "a GPU tier becomes a TPU tier" {
		t.Errorf("family change: %q", got)
	}
	// Locations in another order are the same zones.
	two, reordered := was, was
	two.Locations, reordered.Locations = []string{"us-central1-a", "us-central1-c"}, []string{"us-central1-c", "us-central1-a"}
	if !sameShape(two, reordered) {
		t.Error("reordered locations")
	}
}

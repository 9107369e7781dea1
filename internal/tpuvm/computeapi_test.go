// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// TestCatalogShapes: the shapes handed to gcp.InstanceNodes are the
// catalog's: the machine type and default image of a single-host TPU7x
// slice, back from the machine type, and the catalog's refusal (naming the
// type) for what Compute Engine does not create as one instance.
func TestCatalogShapes(t *testing.T) {
	t.Parallel()
	s := catalogShapes{catalog.Default()}
	ce, fs := catalog.Default().ComputeEngineTPU("tpu7x-8")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	mt, image, err := s.InstanceShape("tpu7x-8")
	if err != nil || mt != ce.MachineType || image != ce.DefaultImage {
		t.Errorf("InstanceShape(tpu7x-8) = %q %q %v, want %q %q", mt, image, err, ce.MachineType, ce.DefaultImage)
	}
	if acc, ok := s.AcceleratorTypeOf(mt); !ok || acc != "tpu7x-8" {
		t.Errorf("AcceleratorTypeOf(%q) = %q %v", mt, acc, ok)
	}
	for _, acc := range []string{"v5litepod-4", "v6e-16", "no-such-type"} {
		if _, _, err := s.InstanceShape(acc); err == nil || !strings.Contains(err.Error(), acc) {
			t.Errorf("%s: want an error naming it, got %v", acc, err)
		}
	}
	if got := s.RegionOf("us-central1-c"); got != "us-central1" {
		t.Errorf("RegionOf = %q", got)
	}
}

func TestVMIDs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		id       string
		instance bool
		api      string
	}{
		{"projects/p/locations/z/nodes/n", false, apiCloudTPU},
		{"projects/p/zones/z/instances/n", true, apiComputeEngine},
	} {
		p, z, n, instance, err := parseVMID(tt.id)
		if err != nil || p != "p" || z != "z" || n != "n" || instance != tt.instance {
			t.Errorf("parseVMID(%q) = %q %q %q %v %v", tt.id, p, z, n, instance, err)
		}
		if got := vmID(p, z, n, instance); got != tt.id {
			t.Errorf("vmID = %q, want %q", got, tt.id)
		}
		if got := apiOfID(tt.id); got != tt.api {
			t.Errorf("apiOfID(%q) = %q, want %q", tt.id, got, tt.api)
		}
		if got := zoneOf(tt.id); got != "z" {
			t.Errorf("zoneOf(%q) = %q", tt.id, got)
		}
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAcceleratorShapes(t *testing.T) {
	t.Parallel()
	tests := []Accelerator{
		{Type: "v2-8", Generation: "v2", TensorCores: 8, Chips: 4, Hosts: 1, ChipsPerHost: 4, Topology: "2x2",
			TPUAPISupported: true, TPUAPIType: "V2"},
		{Type: "v3-8", Generation: "v3", TensorCores: 8, Chips: 4, Hosts: 1, ChipsPerHost: 4, Topology: "2x2",
			TPUAPISupported: true, TPUAPIType: "V3", GKEMachineType: "ct3-hightpu-4t", GKEAccelerator: "tpu-v3-device", GKENodeCount: 1},
		{Type: "v3-32", Generation: "v3", TensorCores: 32, Chips: 16, Hosts: 4, ChipsPerHost: 4, Topology: "4x4", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V3", GKEMachineType: "ct3p-hightpu-4t", GKEAccelerator: "tpu-v3-slice", GKENodeCount: 4},
		{Type: "v4-8", Generation: "v4", TensorCores: 8, Chips: 4, Hosts: 1, ChipsPerHost: 4, Topology: "2x2x1",
			TPUAPISupported: true, TPUAPIType: "V4", GKEMachineType: "ct4p-hightpu-4t", GKEAccelerator: "tpu-v4-podslice", GKENodeCount: 1},
		{Type: "v4-16", Generation: "v4", TensorCores: 16, Chips: 8, Hosts: 2, ChipsPerHost: 4, Topology: "2x2x2", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V4", GKEMachineType: "ct4p-hightpu-4t", GKEAccelerator: "tpu-v4-podslice", GKENodeCount: 2},
		{Type: "v4-384", Generation: "v4", TensorCores: 384, Chips: 192, Hosts: 48, ChipsPerHost: 4, Topology: "4x4x12", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V4", GKEMachineType: "ct4p-hightpu-4t", GKEAccelerator: "tpu-v4-podslice", GKENodeCount: 48},
		{Type: "v5litepod-1", Generation: "v5e", TensorCores: 1, Chips: 1, Hosts: 1, ChipsPerHost: 1, Topology: "1x1",
			TPUAPISupported: true, TPUAPIType: "V5LITE_POD", GKEMachineType: "ct5lp-hightpu-1t", GKEAccelerator: "tpu-v5-lite-podslice", GKENodeCount: 1},
		{Type: "v5litepod-8", Generation: "v5e", TensorCores: 8, Chips: 8, Hosts: 1, ChipsPerHost: 8, Topology: "2x4",
			TPUAPISupported: true, TPUAPIType: "V5LITE_POD", GKEMachineType: "ct5lp-hightpu-8t", GKEAccelerator: "tpu-v5-lite-podslice", GKENodeCount: 1},
		{Type: "v5litepod-16", Generation: "v5e", TensorCores: 16, Chips: 16, Hosts: 4, ChipsPerHost: 4, Topology: "4x4", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V5LITE_POD", GKEMachineType: "ct5lp-hightpu-4t", GKEAccelerator: "tpu-v5-lite-podslice", GKENodeCount: 4},
		{Type: "v5p-32", Generation: "v5p", TensorCores: 32, Chips: 16, Hosts: 4, ChipsPerHost: 4, Topology: "2x2x4", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V5P", GKEMachineType: "ct5p-hightpu-4t", GKEAccelerator: "tpu-v5p-slice", GKENodeCount: 4},
		{Type: "v5p-12288", Generation: "v5p", TensorCores: 12288, Chips: 6144, Hosts: 1536, ChipsPerHost: 4, Topology: "16x16x24", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V5P", GKEMachineType: "ct5p-hightpu-4t", GKEAccelerator: "tpu-v5p-slice", GKENodeCount: 1536},
		{Type: "v6e-4", Generation: "v6e", TensorCores: 4, Chips: 4, Hosts: 1, ChipsPerHost: 4, Topology: "2x2",
			TPUAPISupported: true, TPUAPIType: "V6E", GKEMachineType: "ct6e-standard-4t", GKEAccelerator: "tpu-v6e-slice", GKENodeCount: 1},
		{Type: "v6e-256", Generation: "v6e", TensorCores: 256, Chips: 256, Hosts: 64, ChipsPerHost: 4, Topology: "16x16", MultiHost: true,
			TPUAPISupported: true, TPUAPIType: "V6E", GKEMachineType: "ct6e-standard-4t", GKEAccelerator: "tpu-v6e-slice", GKENodeCount: 64},
		{Type: "tpu7x-8", Generation: "tpu7x", TensorCores: 8, Chips: 4, Hosts: 1, ChipsPerHost: 4, Topology: "2x2x1",
			GKEMachineType: "tpu7x-standard-4t", GKEAccelerator: "tpu7x", GKENodeCount: 1},
		{Type: "tpu7x-128", Generation: "tpu7x", TensorCores: 128, Chips: 64, Hosts: 16, ChipsPerHost: 4, Topology: "4x4x4", MultiHost: true,
			GKEMachineType: "tpu7x-standard-4t", GKEAccelerator: "tpu7x", GKENodeCount: 16},
	}
	c := Default()
	for _, want := range tests {
		t.Run(want.Type, func(t *testing.T) {
			t.Parallel()
			got, fs := c.Accelerator(want.Type)
			mustNoFindings(t, want.Type, fs)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Accelerator(%q) (-want +got):\n%s", want.Type, d)
			}
		})
	}
}

func TestAcceleratorFindings(t *testing.T) {
	t.Parallel()
	const typeForm = `use <generation>-<size> with a generation prefix of v2, v3, v4, v5litepod, v5p, v6e or tpu7x, such as "v6e-8" or "v5litepod-4"`
	tests := []struct {
		name  string
		input string
		want  Findings
	}{
		{"bad size", "v6e-3", Findings{errAt(AttrAcceleratorType, "v6e-3", "Invalid TPU Accelerator Type",
			`"v6e-3" is not a v6e size; valid: v6e-1, v6e-4, v6e-8, v6e-16, v6e-32, v6e-64, v6e-128, v6e-256.`,
			srcV6E, "v6e-4", "v6e-1", "v6e-8")}},
		{"size zero", "v2-0", Findings{errAt(AttrAcceleratorType, "v2-0", "Invalid TPU Accelerator Type",
			`"v2-0" is not a v2 size; valid: v2-8, v2-32, v2-128, v2-256, v2-512.`,
			srcTypesTopo, "v2-8", "v2-32", "v2-128")}},
		{"wrong case", "V6E-4", Findings{errAt(AttrAcceleratorType, "V6E-4", "Invalid TPU Accelerator Type",
			`"V6E-4" is not a TPU accelerator type (names are lower case, without spaces); did you mean "v6e-4"?`,
			srcV6E, "v6e-4")}},
		{"surrounding space", " v5p-8", Findings{errAt(AttrAcceleratorType, " v5p-8", "Invalid TPU Accelerator Type",
			`" v5p-8" is not a TPU accelerator type (names are lower case, without spaces); did you mean "v5p-8"?`,
			"https://docs.cloud.google.com/tpu/docs/v5p.md.txt", "v5p-8")}},
		{"typo", "v6e4", Findings{errAt(AttrAcceleratorType, "v6e4", "Invalid TPU Accelerator Type",
			`"v6e4" is not a TPU accelerator type; `+typeForm+`; did you mean "v6e-4"?`,
			srcTypesTopo, "v6e-4", "v6e-1", "v6e-8")}},
		{"v5e alias", "v5e-4", Findings{errAt(AttrAcceleratorType, "v5e-4", "Invalid TPU Accelerator Type",
			`"v5e-4" is not a Cloud TPU API accelerator type: v5e types are named v5litepod-<chips>; did you mean "v5litepod-4"?`,
			srcV5E, "v5litepod-4")}},
		{"v5e alias bad size", "v5e-3", Findings{errAt(AttrAcceleratorType, "v5e-3", "Invalid TPU Accelerator Type",
			`"v5e-3" is not a Cloud TPU API accelerator type: v5e types are named v5litepod-<chips>; did you mean "v5litepod-4"?`,
			srcV5E, "v5litepod-4", "v5litepod-1", "v5litepod-8")}},
		{"v7x alias", "v7x-8", Findings{errAt(AttrAcceleratorType, "v7x-8", "Invalid TPU Accelerator Type",
			`"v7x-8" is not a Cloud TPU API accelerator type: tpu7x types are named tpu7x-<TensorCores>; did you mean "tpu7x-8"?`,
			srcTPU7xNew, "tpu7x-8")}},
		{"unknown generation", "v9-8", Findings{errAt(AttrAcceleratorType, "v9-8", "Invalid TPU Accelerator Type",
			`"v9-8" is not a TPU accelerator type; `+typeForm+`; did you mean "v2-8"?`,
			srcTypesTopo, "v2-8", "v3-8", "v4-8")}},
		{"nonsense", "banana", Findings{errAt(AttrAcceleratorType, "banana", "Invalid TPU Accelerator Type",
			`"banana" is not a TPU accelerator type; `+typeForm+`.`, srcTypesTopo)}},
		{"missing", "", Findings{errAt(AttrAcceleratorType, "", "Missing TPU Accelerator Type",
			`No TPU accelerator type is set; use <generation>-<size> such as "v6e-8" or "v5litepod-4".`, srcTypesTopo)}},
		{"cube rule not whole cubes", "v5p-100", Findings{errAt(AttrAcceleratorType, "v5p-100", "Invalid TPU Accelerator Type",
			`"v5p-100" is not a v5p size; valid: v5p-8, v5p-16, v5p-32, v5p-64, v5p-128, v5p-256, v5p-512, v5p-1024, v5p-2048, v5p-4096, v5p-8192, v5p-12288, or any whole number of 4x4x4 cubes (a multiple of v5p-128) up to v5p-12288.`,
			srcV5PTraining, "v5p-128", "v5p-64", "v5p-32")}},
		{"beyond the pod", "v4-16384", Findings{errAt(AttrAcceleratorType, "v4-16384", "Invalid TPU Accelerator Type",
			`"v4-16384" is not a v4 size; valid: v4-8, v4-16, v4-32, v4-64, v4-128, v4-256, v4-512, v4-1024, v4-2048, v4-4096, v4-8192, or any whole number of 4x4x4 cubes (a multiple of v4-128) up to v4-8192.`,
			srcXPK, "v4-8192", "v4-4096", "v4-2048")}},
		{"above the largest v5p slice", "v5p-16384", Findings{errAt(AttrAcceleratorType, "v5p-16384", "Invalid TPU Accelerator Type",
			`"v5p-16384" is not a v5p size; valid: v5p-8, v5p-16, v5p-32, v5p-64, v5p-128, v5p-256, v5p-512, v5p-1024, v5p-2048, v5p-4096, v5p-8192, v5p-12288, or any whole number of 4x4x4 cubes (a multiple of v5p-128) up to v5p-12288.`,
			srcV5PTraining, "v5p-12288", "v5p-8192", "v5p-4096")}},
		// GKE's own TPU table lists tpu7x-standard-1t (1x1x1): no warning.
		{"shape from GKE's table", "tpu7x-2", nil},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, got := c.Accelerator(tt.input)
			if d := diffFindings(tt.want, got); d != "" {
				t.Errorf("Accelerator(%q) findings (-want +got):\n%s", tt.input, d)
			}
		})
	}
}

func TestCubeTopologyIsMostCubic(t *testing.T) {
	t.Parallel()
	tests := map[int]string{1: "4x4x4", 2: "4x4x8", 3: "4x4x12", 6: "4x8x12", 8: "8x8x8", 96: "16x16x24", 128: "16x16x32", 7: "4x4x28"}
	for k, want := range tests {
		if got := formatTopology(cubeTopology(k, 4)); got != want {
			t.Errorf("cubeTopology(%d) = %s, want %s", k, got, want)
		}
	}
}

func TestGKELayouts(t *testing.T) {
	t.Parallel()
	c := Default()
	tests := map[string][]GKELayout{
		"v6e-8":       {{MachineType: "ct6e-standard-8t", Nodes: 1}, {MachineType: "ct6e-standard-4t", Nodes: 2}},
		"v5litepod-1": {{MachineType: "ct5lp-hightpu-1t", Nodes: 1}},
		"v5p-16":      {{MachineType: "ct5p-hightpu-4t", Nodes: 2}},
		"tpu7x-2":     {{MachineType: "tpu7x-standard-1t", Nodes: 1}},
		// ct3p-hightpu-4t has no single-host topology: v3-8 is the device.
		"v3-8":   {{MachineType: "ct3-hightpu-4t", Nodes: 1}},
		"v3-128": {{MachineType: "ct3p-hightpu-4t", Nodes: 16}},
		"v2-8":   nil,
		"v6e-3":  nil,
	}
	for at, want := range tests {
		if d := cmp.Diff(want, c.GKELayouts(at)); d != "" {
			t.Errorf("GKELayouts(%q) (-want +got):\n%s", at, d)
		}
	}
}

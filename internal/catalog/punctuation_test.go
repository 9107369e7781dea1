// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"regexp"
	"testing"
)

// doubledPunctuation matches two sentence marks in a row (".." but not
// "...", ".:", ".;", ",.", ". ." and the like) outside quoted values.
var doubledPunctuation = regexp.MustCompile(`(?:^|[^.])[.;:,!?]\s*[.;:,]|\.\.(?:[^.]|$)`)

// TestFindingPunctuation runs a spread of bad and borderline inputs through
// every check and rejects findings whose text doubles punctuation, such as
// a sentence's period followed by the one a caller appends.
func TestFindingPunctuation(t *testing.T) {
	t.Parallel()
	c := Default()
	var all Findings
	accs := []string{"", "v6e-3", "V6E-4", "v6e 4", "v5e-4", "v5litepod-3", "tpu7x-8", "tpu7x-16", "v4-8", "v4-6", "v5p-12", "v2-8", "v3-2048", "x-1", "v6e-4096", "tpu-v6e-slice"}
	fws := []string{"", "jax", "pytorch", "tensorflow", "vllm", "pytorh", "TensorFlow"}
	rts := []string{"", "tpu-ubuntu2204-base", "v2-alpha-tpuv6e", "tpu-vm-tf-2.18.0-pjrt", "tpu-vm-tf-2.18.0-pod-pjrt", "tpu-vm-tf-9.9.9", "nope", "v2-alpha-tpu7-ubuntu2404"}
	zones := [][]string{nil, {"us-central1-b"}, {"us-central1"}, {"mars-1a"}, {"us-east5-a", "europe-west4-a"}}
	for _, a := range accs {
		_, fs := c.Accelerator(a)
		all = append(all, fs...)
		_, fs = c.TPUAPIType(a)
		all = append(all, fs...)
		_, fs = c.TPUNodePool(TPUPoolQuery{AcceleratorType: a, NodeCount: 3, MinNodeCount: 3, MaxNodeCount: 9, NodeLocations: []string{"us-central1-a", "us-central1-b"}, GKEVersion: "1.20.0-gke.1"})
		all = append(all, fs...)
		for _, fw := range fws {
			for _, rt := range rts {
				for _, z := range zones {
					all = append(all, c.ResolveRuntime(RuntimeQuery{AcceleratorType: a, Framework: fw, RuntimeVersion: rt, Zones: z, ForTPUAPI: true, FrameworkVersion: "1.0"}).Findings...)
				}
			}
		}
	}
	for _, m := range []string{"", "ct6e-standard-4t", "ct6e-standard-3t", "ct5lp-hightpu-4t", "tpu7x-standard-4t"} {
		for _, topo := range []string{"", "2x2", "4x4", "2x2x2", "3x3", "8x8x8"} {
			_, fs := c.TPUNodePool(TPUPoolQuery{MachineType: m, Topology: topo, NodeCount: 5})
			all = append(all, fs...)
		}
	}
	for _, m := range []string{"", "g2-standard-4", "g2-standard-5", "a2-ultragpu-1g", "a2-highgpu-2g", "n1-standard-8", "e2-medium"} {
		for _, g := range []string{"", "nvidia-l4", "nvidia-tesla-a100", "nvidia-tesla-t4", "nvidia-h100"} {
			_, fs := c.GPUNodePool(GPUPoolQuery{MachineType: m, GPUType: g, GPUCount: 4, DriverVersion: "latest", NodeLocations: []string{"us-central1"}})
			all = append(all, fs...)
		}
	}
	for _, q := range []PoolSettingsQuery{
		{DiskSizeGB: 5, DiskType: "pd-fast", ImageType: "ubuntu", MaxPodsPerNode: 1000, LocationPolicy: "ANY_ZONE", ResourceLabels: map[string]string{"Bad": "x", "accel-managed": "y"}, ReservedLabelKeys: []string{"accel-managed"}},
		{GPUType: "nvidia-l4", GPUPartitionSize: "1g.5gb", GPUSharingStrategy: "time", MaxSharedClientsPerGPU: 100},
		{GPUType: "nvidia-tesla-a100", GPUPartitionSize: "9g.99gb", GPUSharingStrategy: "MPS", MaxSharedClientsPerGPU: 0},
		{TPU: true, GPUSharingStrategy: "TIME_SHARING", MaxSharedClientsPerGPU: 2, ImageStreaming: true},
	} {
		all = append(all, c.PoolSettings(q)...)
	}
	all = append(all, c.AutoscalingBounds(5, 2)...)
	all = append(all, c.ComputeClassVersion("1.2")...)
	all = append(all, c.ZoneNames([]string{"US-CENTRAL1-A", "us-central1"}, AttrZones)...)
	if len(all) < 100 {
		t.Fatalf("only %d findings: the inputs no longer exercise the checks", len(all))
	}
	for _, f := range all {
		for _, text := range []string{f.Summary, f.Detail} {
			if m := doubledPunctuation.FindString(text); m != "" {
				t.Errorf("%s (%s %q): doubled punctuation %q in %q", f.Summary, f.Attribute, f.Value, m, text)
			}
		}
	}
}

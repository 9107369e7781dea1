// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidConfigurationsHaveNoFindings checks a valid configuration of every
// generation and framework. Documented exceptions (not listed here): TPU7x
// through the Cloud TPU API (an error by design), v3 slices larger than v3-8
// (their only zone is on an older docs page: a warning) and unverified or
// experimental combinations (warnings, tested in the findings tables).
func TestValidConfigurationsHaveNoFindings(t *testing.T) {
	t.Parallel()
	runtimes := []RuntimeQuery{
		{AcceleratorType: "v2-8", Framework: "jax", Zones: []string{"us-central1-b", "us-central1-c"}, ForTPUAPI: true},
		{AcceleratorType: "v2-32", Framework: "tensorflow", FrameworkVersion: "2.14.1", RuntimeVersion: "tpu-vm-tf-2.14.1-pod", Zones: []string{"us-central1-a"}, ForTPUAPI: true},
		{AcceleratorType: "v2-512", Framework: "pytorch", Zones: []string{"europe-west4-a"}, ForTPUAPI: true},
		{AcceleratorType: "v3-8", Framework: "pytorch", FrameworkVersion: "2.8.0", Zones: []string{"us-central1-a"}, ForTPUAPI: true},
		{AcceleratorType: "v3-32", Framework: "tensorflow", ForTPUAPI: true},
		{AcceleratorType: "v4-8", Framework: "jax", FrameworkVersion: "0.4.37", RuntimeVersion: "tpu-ubuntu2204-base", Zones: []string{"us-central2-b"}, ForTPUAPI: true},
		{AcceleratorType: "v4-16", Framework: "tensorflow", FrameworkVersion: "2.10.0", RuntimeVersion: "tpu-vm-tf-2.10.0-pod-v4", ForTPUAPI: true},
		{AcceleratorType: "v4-32", Framework: "tensorflow", RuntimeVersion: "tpu-vm-tf-2.16.1-pod-se", ForTPUAPI: true},
		{AcceleratorType: "v5litepod-4", Framework: "jax", Zones: []string{"us-central1-a", "us-west4-a", "us-east5-b"}, ForTPUAPI: true},
		{AcceleratorType: "v5litepod-8", Framework: "vllm", Zones: []string{"us-south1-a"}, ForTPUAPI: true},
		{AcceleratorType: "v5litepod-16", Framework: "tensorflow", FrameworkVersion: "2.15.0", ForTPUAPI: true},
		{AcceleratorType: "v5p-8", Framework: "pytorch", RuntimeVersion: "v2-alpha-tpuv5", Zones: []string{"us-east5-a"}, ForTPUAPI: true},
		{AcceleratorType: "v5p-128", Framework: "jax", Zones: []string{"us-central1-a"}, ForTPUAPI: true},
		{AcceleratorType: "v6e-1", Framework: "vllm", Zones: []string{"us-east5-b", "us-central1-ai1"}, ForTPUAPI: true},
		{AcceleratorType: "v6e-8", Framework: "jax", FrameworkVersion: "0.6.0", Zones: []string{"europe-west4-a"}, ForTPUAPI: true},
		{AcceleratorType: "v6e-16", Framework: "tensorflow", RuntimeVersion: "tpu-vm-tf-2.16.1-pod-pjrt", ForTPUAPI: true},
		{AcceleratorType: "v6e-4", Framework: "pytorch", FrameworkVersion: "2.8.0", ForTPUAPI: true},
		{AcceleratorType: "tpu7x-8", Framework: "jax", Zones: []string{"us-central1-c"}},
		{AcceleratorType: "tpu7x-8", Framework: "pytorch", FrameworkVersion: "2.9.0", Zones: []string{"us-central1-ai1a"}},
		{AcceleratorType: "tpu7x-8", Framework: "vllm"},
		{AcceleratorType: "tpu7x-8", Framework: "jax", Zones: []string{"us-central1-c"}, ForComputeEngine: true},
		{AcceleratorType: "v6e-8", Framework: "vllm", RuntimeVersion: "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e", ForComputeEngine: true},
		{AcceleratorType: "v5p-8", Framework: "pytorch", FrameworkVersion: "2.8.0", ForComputeEngine: true},
	}
	c := Default()
	for _, q := range runtimes {
		r := c.ResolveRuntime(q)
		mustNoFindings(t, q.AcceleratorType+" "+q.Framework, r.Findings)
		if r.RuntimeVersion == "" {
			t.Errorf("%s %s: no runtime version", q.AcceleratorType, q.Framework)
		}
	}
	pools := []TPUPoolQuery{
		{AcceleratorType: "v4-8", NodeLocations: []string{"us-central2-b"}},
		{MachineType: "ct4p-hightpu-4t", Topology: "2x2x2", NodeCount: 2},
		{AcceleratorType: "v5litepod-1", NodeLocations: []string{"us-central1-a"}, MinNodeCount: 1, MaxNodeCount: 3},
		{MachineType: "ct5lp-hightpu-4t", Topology: "2x2"},
		{MachineType: "ct5lp-hightpu-8t", Topology: "2x4"},
		{AcceleratorType: "v5litepod-256", MaxNodeCount: 64},
		{AcceleratorType: "v5p-8", NodeLocations: []string{"us-east5-a"}},
		{MachineType: "ct5p-hightpu-4t", Topology: "4x4x4", NodeCount: 16},
		{AcceleratorType: "v6e-1", NodeLocations: []string{"us-central1-b"}, GKEVersion: "1.31.4-gke.1256000", MinNodeCount: 1, MaxNodeCount: 2},
		{MachineType: "ct6e-standard-4t", Topology: "2x4", NodeCount: 2, GKEVersion: "1.32"},
		{AcceleratorType: "v6e-32", MinNodeCount: 8, MaxNodeCount: 8, GKEVersion: "latest"},
		{AcceleratorType: "tpu7x-8", NodeLocations: []string{"us-central1-c"}, GKEVersion: "1.34.1-gke.3084001"},
		{MachineType: "tpu7x-standard-4t", Topology: "4x4x4", NodeCount: 16, GKEVersion: "1.35"},
	}
	for _, q := range pools {
		shape, fs := c.TPUNodePool(q)
		mustNoFindings(t, q.AcceleratorType+q.MachineType+" "+q.Topology, fs)
		if shape.MachineType == "" || shape.NodeCount == 0 {
			t.Errorf("%+v: incomplete shape %+v", q, shape)
		}
	}
	gpus := []GPUPoolQuery{
		{MachineType: "g2-standard-4"},
		{MachineType: "a2-ultragpu-8g", GPUType: "nvidia-a100-80gb", GPUCount: 8, DriverVersion: "GPU_DRIVER_VERSION_UNSPECIFIED"},
		{MachineType: "a4x-highgpu-4g", DriverVersion: "INSTALLATION_DISABLED"},
		{MachineType: "n1-standard-4", GPUType: "nvidia-tesla-v100", GPUCount: 4, NodeLocations: []string{"us-central1-f"}},
	}
	for _, q := range gpus {
		_, fs := c.GPUNodePool(q)
		mustNoFindings(t, q.MachineType, fs)
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want Mode
	}{{"", ModeStrict}, {"strict", ModeStrict}, {"warn", ModeWarn}} {
		got, err := ParseMode(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if tt.in != "" && got.String() != tt.in {
			t.Errorf("Mode(%d).String() = %q, want %q", got, got.String(), tt.in)
		}
	}
	for _, bad := range []string{"Warn", "off", "strict "} {
		if _, err := ParseMode(bad); !errors.Is(err, ErrUnknownMode) {
			t.Errorf("ParseMode(%q) error = %v, want ErrUnknownMode", bad, err)
		}
	}

	c := Default()
	_, fs := c.TPUNodePool(TPUPoolQuery{AcceleratorType: "v6e-16", NodeCount: 3, MaxNodeCount: 8})
	if !fs.HasErrors() || len(fs.Errors()) != 1 || len(fs.Warnings()) != 1 {
		t.Fatalf("want one error and one warning, got %v", fs)
	}
	downgraded := fs.WithMode(ModeWarn)
	if downgraded.HasErrors() || len(downgraded) != len(fs) {
		t.Errorf("WithMode(ModeWarn) = %v, want only warnings", downgraded)
	}
	want := make(Findings, len(fs))
	copy(want, fs)
	for i := range want {
		want[i].Severity = SeverityWarning
	}
	if d := cmp.Diff(want, downgraded); d != "" {
		t.Errorf("WithMode(ModeWarn) changed more than severity (-want +got):\n%s", d)
	}
	if !fs.HasErrors() {
		t.Error("WithMode modified its receiver")
	}
	if d := cmp.Diff(fs, fs.WithMode(ModeStrict)); d != "" {
		t.Errorf("WithMode(ModeStrict) changed findings:\n%s", d)
	}
	if Findings(nil).WithMode(ModeWarn) != nil {
		t.Error("WithMode on nil findings is not nil")
	}
}

func TestFindingString(t *testing.T) {
	t.Parallel()
	f := atIndex(rule(errAt(AttrZones, "x", "Invalid Zone", "Bad.", "")), 2)
	if got, want := f.String(), "error: zones[2]: Invalid Zone: Bad."; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	w := warnAt(AttrRuntimeVersion, "x", "Deprecated Runtime Version", "Old.", "")
	if got, want := w.String(), "warning: runtime_version: Deprecated Runtime Version: Old."; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := Severity(7).String(); got != "Severity(7)" {
		t.Errorf("Severity(7).String() = %q", got)
	}
}

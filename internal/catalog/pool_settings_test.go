// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"maps"
	"slices"
	"testing"
)

// TestPoolSettings: each rule gives its finding (summary, attribute,
// value, severity) and nothing else; valid settings give none.
func TestPoolSettings(t *testing.T) {
	t.Parallel()
	c := Default()
	type want struct {
		attr, value, summary string
		sev                  Severity
	}
	cases := []struct {
		name string
		q    PoolSettingsQuery
		want []want
	}{
		{"valid", PoolSettingsQuery{GPUType: "nvidia-tesla-a100", DiskSizeGB: 10, DiskType: "pd-ssd", ImageType: "cos_containerd",
			ImageStreaming: true, MaxPodsPerNode: 256, LocationPolicy: "ANY", Autoscaling: true,
			ResourceLabels: map[string]string{"team": "ml-serving_1"}, ReservedLabelKeys: []string{"accel-managed"},
			GPUPartitionSize: "1g.5gb", GPUSharingStrategy: GPUSharingTimeSharing, MaxSharedClientsPerGPU: 48}, nil},
		{"disk", PoolSettingsQuery{DiskSizeGB: 9}, []want{{AttrDiskSizeGB, "9", "Boot Disk Too Small", SeverityError}}},
		{"unknown disk type", PoolSettingsQuery{DiskType: "pd-ssdd"}, []want{{AttrDiskType, "pd-ssdd", "Unknown Boot Disk Type", SeverityWarning}}},
		{"windows image", PoolSettingsQuery{ImageType: "WINDOWS_LTSC_CONTAINERD"},
			[]want{{AttrImageType, "WINDOWS_LTSC_CONTAINERD", "Unknown Node Image Type", SeverityWarning}}},
		{"streaming on ubuntu", PoolSettingsQuery{ImageType: "UBUNTU_CONTAINERD", ImageStreaming: true},
			[]want{{AttrImageStreaming, "true", "Image Streaming Needs Container-Optimized OS", SeverityError}}},
		{"pods", PoolSettingsQuery{MaxPodsPerNode: 7}, []want{{AttrMaxPodsPerNode, "7", "Max Pods per Node Out of Range", SeverityError}}},
		{"location policy", PoolSettingsQuery{LocationPolicy: "ANY"}, []want{{AttrLocationPolicy, "ANY", "Location Policy Without Autoscaling", SeverityError}}},
		{"reserved label", PoolSettingsQuery{ResourceLabels: map[string]string{"accel-managed": "x"}, ReservedLabelKeys: []string{"accel-managed"}},
			[]want{{AttrResourceLabels, "accel-managed", "Resource Label Set by the Provider", SeverityError}}},
		{"label value", PoolSettingsQuery{ResourceLabels: map[string]string{"team": "ML"}}, []want{{AttrResourceLabels, "ML", "Invalid Resource Label Value", SeverityError}}},
		{"partition on L4", PoolSettingsQuery{GPUType: "nvidia-l4", GPUPartitionSize: "1g.5gb"},
			[]want{{AttrGPUPartitionSize, "1g.5gb", "GPU Does Not Support Partitions", SeverityError}}},
		{"H100 size", PoolSettingsQuery{GPUType: "nvidia-h100-80gb", GPUPartitionSize: "1g.5gb"},
			[]want{{AttrGPUPartitionSize, "1g.5gb", "Unsupported GPU Partition Size", SeverityError}}},
		// GKE's GPU table lists the sizes of H200, B200, GB200, H100 Mega and G4.
		{"H200 size", PoolSettingsQuery{GPUType: "nvidia-h200-141gb", GPUPartitionSize: "1g.18gb"}, nil},
		{"H200 A100 size", PoolSettingsQuery{GPUType: "nvidia-h200-141gb", GPUPartitionSize: "1g.10gb"},
			[]want{{AttrGPUPartitionSize, "1g.10gb", "Unsupported GPU Partition Size", SeverityError}}},
		{"B200 size", PoolSettingsQuery{GPUType: "nvidia-b200", GPUPartitionSize: "7g.180gb"}, nil},
		{"GB200 size", PoolSettingsQuery{GPUType: "nvidia-gb200", GPUPartitionSize: "3g.93gb"}, nil},
		{"H100 Mega size", PoolSettingsQuery{GPUType: "nvidia-h100-mega-80gb", GPUPartitionSize: "1g.20gb"}, nil},
		{"G4 sizes", PoolSettingsQuery{GPUType: "nvidia-rtx-pro-6000", GPUPartitionSize: "2g.48gb"}, nil},
		{"clients", PoolSettingsQuery{GPUType: "nvidia-l4", GPUSharingStrategy: GPUSharingMPS, MaxSharedClientsPerGPU: 49},
			[]want{{AttrGPUSharingConfig, "49", "Too Many Shared Clients per GPU", SeverityError}}},
		{"TPU", PoolSettingsQuery{TPU: true, GPUSharingStrategy: GPUSharingMPS, MaxSharedClientsPerGPU: 2},
			[]want{{AttrGPUSharingConfig, "MPS", "GPU Sharing on a TPU Tier", SeverityError}}},
		{"surge and unavailable 0", PoolSettingsQuery{MaxSurge: ptr(int64(0)), MaxUnavailable: ptr(int64(0))},
			[]want{{AttrMaxSurge, "0", "Upgrade Without Parallelism", SeverityError}}},
		{"surge 0, unavailable left to GKE (0)", PoolSettingsQuery{MaxSurge: ptr(int64(0))},
			[]want{{AttrMaxSurge, "0", "Upgrade Without Parallelism", SeverityError}}},
		{"unavailable 0, surge left to GKE (1)", PoolSettingsQuery{MaxUnavailable: ptr(int64(0))}, nil},
		{"surge 0 unavailable 1", PoolSettingsQuery{MaxSurge: ptr(int64(0)), MaxUnavailable: ptr(int64(1))}, nil},
		{"surge on a multi-host slice", PoolSettingsQuery{TPU: true, Hosts: 4, MaxSurge: ptr(int64(1))},
			[]want{{AttrMaxSurge, "1", "Surge on a Multi-Host TPU Slice", SeverityWarning}}},
		{"surge on a single-host slice", PoolSettingsQuery{TPU: true, Hosts: 1, MaxSurge: ptr(int64(1))}, nil},
		{"no surge on a multi-host slice", PoolSettingsQuery{TPU: true, Hosts: 4, MaxSurge: ptr(int64(0)), MaxUnavailable: ptr(int64(4))}, nil},
	}
	for _, tc := range cases {
		var got []want
		for _, f := range c.PoolSettings(tc.q) {
			got = append(got, want{f.Attribute, f.Value, f.Summary, f.Severity})
			if f.Source == "" || f.Detail == "" {
				t.Errorf("%s: finding %q has no source or detail", tc.name, f.Summary)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestGPUSharingLabels: the node labels GKE documents for each strategy.
func TestGPUSharingLabels(t *testing.T) {
	t.Parallel()
	got := Default().GPUSharingLabels("1g.5gb", GPUSharingTimeSharing, 3)
	want := map[string]string{LabelGPUPartitionSize: "1g.5gb", LabelGPUSharingStrategy: "time-sharing", LabelMaxSharedClientsPerGPU: "3"}
	if !maps.Equal(got, want) {
		t.Errorf("time-sharing: got %v, want %v", got, want)
	}
	if got := Default().GPUSharingLabels("", GPUSharingMPS, 2)[LabelGPUSharingStrategy]; got != "mps" {
		t.Errorf("MPS strategy label = %q, want mps", got)
	}
	if got := Default().GPUSharingLabels("", "", 0); len(got) != 0 {
		t.Errorf("no sharing: got %v, want none", got)
	}
}

func ptr[T any](v T) *T { return &v }

// TestAutoscalingTotals: total limits come in pairs, in order, and never
// with the per-zone limits or a fixed size.
func TestAutoscalingTotals(t *testing.T) {
	t.Parallel()
	c := Default()
	type want struct{ attr, value, summary string }
	cases := []struct {
		name           string
		lo, hi         *int64
		perZone, fixed bool
		want           []want
	}{
		{"none", nil, nil, true, true, nil},
		{"valid", ptr(int64(0)), ptr(int64(4)), false, false, nil},
		{"with per-zone", ptr(int64(0)), ptr(int64(4)), true, false, []want{{AttrTotalMinNodeCount, "0", "Per-Zone and Total Autoscaling Limits"}}},
		{"with node_count", nil, ptr(int64(4)), false, true, []want{{AttrTotalMaxNodeCount, "4", "Total Autoscaling Limits With a Fixed Size"}}},
		{"max alone", nil, ptr(int64(4)), false, false, []want{{AttrTotalMaxNodeCount, "4", "Total Autoscaling Limits Need Both"}}},
		{"out of order", ptr(int64(5)), ptr(int64(4)), false, false, []want{{AttrTotalMaxNodeCount, "4", "Autoscaling Bounds Out of Order"}}},
	}
	for _, tc := range cases {
		var got []want
		for _, f := range c.AutoscalingTotals(tc.lo, tc.hi, tc.perZone, tc.fixed) {
			got = append(got, want{f.Attribute, f.Value, f.Summary})
			if f.Source == "" || f.Severity != SeverityError {
				t.Errorf("%s: finding %q has no source or is not an error", tc.name, f.Summary)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBootDiskType: boot disk types per machine family: an error where a
// docs page states the family's types (A4, A4X, G4, A3 Ultra; pd-standard
// on G2), a warning where only GKE's machine table does (TPU families), and
// each family's default for a Compute Engine TPU VM.
func TestBootDiskType(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, tt := range []struct {
		machine, disk string
		want          string // "", "error" or "warning"
	}{
		{"a4-highgpu-8g", "pd-balanced", "error"},
		{"a4x-highgpu-4g", "pd-ssd", "error"},
		{"g4-standard-48", "hyperdisk-balanced", ""},
		{"a3-ultragpu-8g", "pd-balanced", "error"},
		{"a3-highgpu-8g", "pd-balanced", ""},
		{"a3-highgpu-8g", "pd-standard", "warning"},
		{"g2-standard-8", "pd-standard", "error"},
		{"g2-standard-8", "pd-balanced", ""},
		{"ct6e-standard-4t", "pd-balanced", "warning"},
		{"tpu7x-standard-4t", "hyperdisk-balanced", ""},
		{"ct5lp-hightpu-4t", "pd-standard", "warning"},
		{"ct5p-hightpu-4t", "hyperdisk-balanced", "warning"},
		{"n1-standard-8", "pd-standard", ""},
		{"e2-standard-4", "pd-extreme", ""}, // no family: GKE decides
		{"ct6e-standard-4t", "", ""},
	} {
		fs := c.BootDiskType(AttrDiskType, tt.machine, tt.disk)
		got := ""
		if len(fs) == 1 {
			got = fs[0].Severity.String()
		}
		if got != tt.want || len(fs) > 1 {
			t.Errorf("%s with %q: %v, want %q", tt.machine, tt.disk, fs, tt.want)
		}
	}
	for machine, want := range map[string]string{"ct6e-standard-4t": "hyperdisk-balanced", "tpu7x-standard-4t": "hyperdisk-balanced",
		"ct5p-hightpu-4t": "pd-balanced", "e2-standard-4": ""} {
		if got := c.BootDiskDefault(machine); got != want {
			t.Errorf("BootDiskDefault(%q) = %q, want %q", machine, got, want)
		}
	}
}

// TestFlexStartMachine: GKE's machine table marks A3 Edge as not offered
// for flex-start: a warning, on flex_start.
func TestFlexStartMachine(t *testing.T) {
	t.Parallel()
	c := Default()
	fs := c.PoolProvisioning(PoolProvisioningQuery{FlexStart: true, MachineType: "a3-edgegpu-8g", Autoscaling: true})
	if len(fs) != 1 || fs[0].Severity != SeverityWarning || fs[0].Summary != "Flex-Start Not Offered for Machine Type" {
		t.Errorf("A3 Edge flex-start: %v, want one warning", fs)
	}
	if fs := c.PoolProvisioning(PoolProvisioningQuery{FlexStart: true, MachineType: "a3-highgpu-8g", Autoscaling: true}); len(fs) != 0 {
		t.Errorf("A3 High flex-start: %v, want nothing", fs)
	}
}

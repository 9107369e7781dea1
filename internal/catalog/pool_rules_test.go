// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import "testing"

func TestAutoscalingBounds(t *testing.T) {
	t.Parallel()
	c := Default()
	if fs := c.AutoscalingBounds(1, 1); len(fs) != 0 {
		t.Errorf("equal bounds: %v", fs)
	}
	want := Findings{{Attribute: AttrMaxNodeCount, Index: -1, Value: "1", Summary: "Autoscaling Bounds Out of Order",
		Detail: "max_node_count 1 is below min_node_count 3.", Severity: SeverityError, Basis: BasisRule,
		Source: "https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools#NodePoolAutoscaling"}}
	if diff := diffFindings(want, c.AutoscalingBounds(3, 1)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPoolMetadata(t *testing.T) {
	t.Parallel()
	c := Default()
	const (
		srcBinding = "https://gke-ai-labs.dev/docs/tutorials/gpu-tpu/fungibility-recipes/"
		srcTaints  = "https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/1047080375afbb44da4b596be314634e7486af4a/modules/compute/gke-node-pool/main.tf"
		srcK8s     = "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/"
	)
	tests := map[string]struct {
		labels map[string]string
		taints []PoolTaint
		want   Findings
	}{
		"own labels and taints": {
			labels: map[string]string{"team": "ml"},
			taints: []PoolTaint{{Key: "dedicated", Value: "serving", Effect: "NO_SCHEDULE"}, {Key: "dedicated", Value: "x", Effect: "NO_EXECUTE"}},
		},
		"the ComputeClass label": {
			labels: map[string]string{LabelComputeClass: "x"},
			want: Findings{{Attribute: AttrLabels, Index: -1, Value: LabelComputeClass, Summary: "Label Set by the Provider",
				Detail:   `The provider sets "cloud.google.com/compute-class" to compute_class on every tier; remove it from labels.`,
				Severity: SeverityError, Basis: BasisLimit, Source: srcBinding}},
		},
		"an accelerator taint and a duplicate": {
			taints: []PoolTaint{{Key: "a", Effect: "NO_SCHEDULE"}, {Key: TaintGPU, Value: "present", Effect: "NO_SCHEDULE"}, {Key: "a", Value: "b", Effect: "NO_SCHEDULE"}},
			want: Findings{
				{Attribute: AttrTaints, Index: 1, Value: TaintGPU, Summary: "Taint Set by the Provider",
					Detail: `The provider sets the "nvidia.com/gpu" taint itself (see node_taints); remove it from taints.`, Severity: SeverityError, Basis: BasisLimit, Source: srcTaints},
				{Attribute: AttrTaints, Index: 2, Value: "a", Summary: "Duplicate Taint",
					Detail: `The taint key "a" with effect NO_SCHEDULE is listed twice; Kubernetes keeps one taint per key and effect.`, Severity: SeverityError, Basis: BasisRule, Source: srcK8s},
			},
		},
	}
	for name, tt := range tests {
		if diff := diffFindings(tt.want, c.PoolMetadata(tt.labels, tt.taints)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestDataDiskZones(t *testing.T) {
	t.Parallel()
	c := Default()
	disks := []string{"projects/p/zones/us-east5-a/disks/d", "projects/p/regions/us-east5/disks/r", "", "projects/p/zones//disks/x"}
	if fs := c.DataDisks("v5p", disks, []string{"us-east5-a"}); len(fs) != 0 {
		t.Errorf("disk in the only zone: %v", fs)
	}
	want := Findings{{Attribute: AttrDataDisks, Index: 0, Value: disks[0], Summary: "Data Disk in Another Zone",
		Detail: `Disk "projects/p/zones/us-east5-a/disks/d" is in zone us-east5-a, and a zonal disk can only be attached to a TPU VM ` +
			`in its own zone, but zones also lists us-east5-b. Set zones = ["us-east5-a"], or use a disk in each zone.`,
		Severity: SeverityError, Source: "https://cloud.google.com/tpu/docs/setup-persistent-disk"}}
	if diff := diffFindings(want, c.DataDisks("v5p", disks, []string{"us-east5-a", "us-east5-b"})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDataDisksPerGeneration: Cloud TPU's durable storage page limits a
// v6e VM to 32 disks and the older generations to 128, the boot disk
// included; a generation the page does not list is not limited.
func TestDataDisksPerGeneration(t *testing.T) {
	t.Parallel()
	c := Default()
	disks := func(n int) []string { return make([]string, n) }
	for _, tt := range []struct {
		gen   string
		n     int
		error bool
	}{
		{"v6e", 31, false}, {"v6e", 32, true}, {"v5p", 127, false}, {"v5p", 128, true},
		{"v5e", 128, true}, {"v4", 127, false}, {"v2", 128, true}, {"tpu7x", 200, false}, {"", 500, false},
	} {
		fs := c.DataDisks(tt.gen, disks(tt.n), nil)
		if fs.HasErrors() != tt.error {
			t.Errorf("%s with %d data disks: findings %v, want an error: %v", tt.gen, tt.n, fs, tt.error)
		}
		if tt.error && (fs[0].Summary != "Too Many Data Disks" || fs[0].Index != -1) {
			t.Errorf("%s: %v", tt.gen, fs)
		}
	}
}

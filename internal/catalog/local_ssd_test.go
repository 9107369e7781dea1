// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"testing"
)

const (
	srcLocalSSDGKE     = "https://cloud.google.com/kubernetes-engine/docs/concepts/local-ssd"
	srcLocalSSDGKEHow  = "https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/local-ssd"
	srcLocalSSDCE      = "https://cloud.google.com/compute/docs/disks/local-ssd"
	srcLocalSSDCEAdd   = "https://cloud.google.com/compute/docs/disks/add-local-ssd"
	srcLocalSSDExclude = "https://github.com/terraform-google-modules/terraform-google-kubernetes-engine/pull/902"
)

// TestLocalSSD: each documented rule gives its whole finding, and what
// Google accepts gives none.
func TestLocalSSD(t *testing.T) {
	t.Parallel()
	c := Default()
	n := func(v int64) *int64 { return &v }
	maxDecision := c.data.PoolSettings.LocalSSD.MaxCountDecision
	cases := []struct {
		name string
		q    LocalSSDQuery
		want Findings
	}{
		{"none", LocalSSDQuery{MachineType: "e2-standard-4"}, nil},
		{"n1 ephemeral", LocalSSDQuery{MachineType: "n1-standard-8", Ephemeral: n(2), GKEVersion: "1.25.3-gke.1800"}, nil},
		{"raw block on a2", LocalSSDQuery{MachineType: "a2-highgpu-1g", RawBlock: n(1)}, nil},
		{"lssd uses all", LocalSSDQuery{MachineType: "c3-standard-8-lssd", Ephemeral: n(0)}, nil},
		{"a3 uses all", LocalSSDQuery{MachineType: "a3-highgpu-8g", RawBlock: n(0)}, nil},
		{"nolssd unchecked", LocalSSDQuery{MachineType: "a4x-highgpu-4g-nolssd", Ephemeral: n(4)}, nil},
		{"tpu unchecked", LocalSSDQuery{MachineType: "ct6e-standard-4t", TPU: true, Ephemeral: n(1)}, nil},
		{"unknown machine", LocalSSDQuery{MachineType: "g2-standard-4", Ephemeral: n(1)}, nil},
		{"both modes", LocalSSDQuery{MachineType: "n1-standard-8", Ephemeral: n(1), RawBlock: n(1)}, Findings{
			rule(errAt(AttrLocalNVMeSSDBlockCount, "1", "Two Local SSD Modes",
				"A node pool uses its Local SSDs either for ephemeral storage (ephemeral_storage_local_ssd_count) or as raw block devices (local_nvme_ssd_block_count), not both. "+
					c.data.PoolSettings.LocalSSD.ExclusiveDecision+" Remove one of them.", srcLocalSSDExclude))}},
		{"too many", LocalSSDQuery{MachineType: "n1-standard-8", RawBlock: n(33)}, Findings{
			errAt(AttrLocalNVMeSSDBlockCount, "33", "Local SSD Count Out of Range",
				"local_nvme_ssd_block_count 33 is outside 0 to 32, the most Local SSDs a VM can have. "+maxDecision, srcLocalSSDCE)}},
		{"e2", LocalSSDQuery{MachineType: "e2-standard-8", Ephemeral: n(1)}, Findings{
			errAt(AttrEphemeralStorageLocalSSDCount, "1", "Machine Type Without Local SSD",
				"e2-standard-8 cannot have Local SSDs: E2 machine types do not support Local SSD. Use another machine type (such as n1-standard-4 or a GPU machine type), or remove ephemeral_storage_local_ssd_count.", srcLocalSSDGKEHow)}},
		{"e2 zero is none", LocalSSDQuery{MachineType: "e2-medium", Ephemeral: n(0)}, nil},
		{"fixed count", LocalSSDQuery{MachineType: "a3-highgpu-8g", Ephemeral: n(16)}, Findings{
			warnAt(AttrEphemeralStorageLocalSSDCount, "16", "Machine Type With Built-in Local SSDs",
				"a3-highgpu-8g: every A3 machine type comes with a fixed number of Local SSDs, and a count of 0 uses all of them. "+c.data.PoolSettings.LocalSSD.FixedDecision,
				srcLocalSSDCEAdd, "0")}},
		{"old gke", LocalSSDQuery{MachineType: "n1-standard-8", Ephemeral: n(1), GKEVersion: "1.25.3-gke.1700"}, Findings{
			errAt(AttrGKEVersion, "1.25.3-gke.1700", "GKE Version Too Old for NVMe Local SSDs",
				"GKE 1.25.3-gke.1700 is older than 1.25.3-gke.1800, the first version whose node pools use Local SSDs over NVMe for ephemeral storage or raw block devices; upgrade the cluster.",
				srcLocalSSDGKE, "1.25.3-gke.1800")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := diffFindings(tc.want, c.LocalSSD(tc.q)); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

// TestLocalSSDFixedSeries: every series Compute Engine's page says comes
// with Local SSDs on every machine type ("Z4D, Z4M, Z3, A5X, A4X Max, A4X,
// A4, A3, and A2 Ultra") gets the built-in-count warning, not silence. The
// names are the series' prefixes with a shape; only z4m-highmem-192-cd is
// a documented name (the Z4M page), the rule matches by prefix.
func TestLocalSSDFixedSeries(t *testing.T) {
	t.Parallel()
	c := Default()
	n := int64(2)
	for _, m := range []string{"z4d-highmem-48-highlssd", "z4m-highmem-192-cd", "z3-highmem-88-highlssd", "a5x-highgpu-4g",
		"a4x-maxgpu-4g-metal", "a4x-highgpu-4g", "a4-highgpu-8g", "a3-megagpu-8g", "a2-ultragpu-1g"} {
		fs := c.LocalSSD(LocalSSDQuery{MachineType: m, Ephemeral: &n})
		if len(fs) != 1 || fs[0].Summary != "Machine Type With Built-in Local SSDs" || fs[0].Severity != SeverityWarning || fs[0].Source != srcLocalSSDCEAdd {
			t.Errorf("%s: want the built-in Local SSD warning, got %v", m, fs)
		}
	}
}

// TestLocalSSDLabels: the ephemeral-storage label is the data's, and only
// for ephemeral storage.
func TestLocalSSDLabels(t *testing.T) {
	t.Parallel()
	c := Default()
	if c.data.PoolSettings.LocalSSD.NodeLabel != LabelEphemeralStorageLocalSSD {
		t.Errorf("node label %q, constant %q", c.data.PoolSettings.LocalSSD.NodeLabel, LabelEphemeralStorageLocalSSD)
	}
	zero := int64(0)
	if got := c.LocalSSDLabels(&zero); got[LabelEphemeralStorageLocalSSD] != "true" || len(got) != 1 {
		t.Errorf("LocalSSDLabels(0) = %v", got)
	}
	if got := c.LocalSSDLabels(nil); got != nil {
		t.Errorf("LocalSSDLabels(nil) = %v", got)
	}
}

// TestOlderGKE: only a parseable version below the minimum is older.
func TestOlderGKE(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		want    bool
	}{
		{"1.25.3-gke.1700", true}, {"1.25.3-gke.1800", false}, {"1.24", true}, {"1.26", false},
		{"", false}, {"latest", false}, {"-", false},
	} {
		if got := olderGKE(tc.version, "1.25.3-gke.1800"); got != tc.want {
			t.Errorf("olderGKE(%q) = %t, want %t", tc.version, got, tc.want)
		}
	}
}

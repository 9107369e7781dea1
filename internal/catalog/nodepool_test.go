// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTPUNodePoolShapes(t *testing.T) {
	t.Parallel()
	c := Default()
	acc := func(s string) Accelerator {
		a, fs := c.Accelerator(s)
		if len(fs) > 0 {
			t.Fatalf("Accelerator(%q): %v", s, fs)
		}
		return a
	}
	labels := func(accel, topo string) map[string]string {
		return map[string]string{LabelTPUAccelerator: accel, LabelTPUTopology: topo}
	}
	tests := []struct {
		name string
		q    TPUPoolQuery
		want TPUPoolShape
	}{
		{"v6e single VM of 8 chips by default", TPUPoolQuery{AcceleratorType: "v6e-8"}, TPUPoolShape{
			Accelerator: acc("v6e-8"), MachineType: "ct6e-standard-8t", Topology: "2x4", NodeCount: 1,
			NodeLabels: labels("tpu-v6e-slice", "2x4"), ChipsPerNode: 8}},
		{"v6e 2x4 as two 4-chip nodes", TPUPoolQuery{MachineType: "ct6e-standard-4t", Topology: "2x4", NodeCount: 2}, TPUPoolShape{
			Accelerator: acc("v6e-8"), MachineType: "ct6e-standard-4t", Topology: "2x4", NodeCount: 2, MultiHost: true,
			PlacementPolicy: PlacementCompact, PlacementTPUTopology: "2x4", NodeLabels: labels("tpu-v6e-slice", "2x4"), ChipsPerNode: 4}},
		{"v5e 2x4 as two 4-chip nodes", TPUPoolQuery{AcceleratorType: "v5litepod-8", MachineType: "ct5lp-hightpu-4t"}, TPUPoolShape{
			Accelerator: acc("v5litepod-8"), MachineType: "ct5lp-hightpu-4t", Topology: "2x4", NodeCount: 2, MultiHost: true,
			PlacementPolicy: PlacementCompact, PlacementTPUTopology: "2x4", NodeLabels: labels("tpu-v5-lite-podslice", "2x4"), ChipsPerNode: 4}},
		{"v6e multi-host", TPUPoolQuery{AcceleratorType: "v6e-16", NodeCount: 4, MinNodeCount: 4, MaxNodeCount: 4,
			NodeLocations: []string{"us-east5-b"}, GKEVersion: "1.32.1-gke.1000"}, TPUPoolShape{
			Accelerator: acc("v6e-16"), MachineType: "ct6e-standard-4t", Topology: "4x4", NodeCount: 4, MultiHost: true,
			PlacementPolicy: PlacementCompact, PlacementTPUTopology: "4x4", NodeLabels: labels("tpu-v6e-slice", "4x4"), ChipsPerNode: 4}},
		{"v4 single host from the machine type", TPUPoolQuery{MachineType: "ct4p-hightpu-4t"}, TPUPoolShape{
			Accelerator: acc("v4-8"), MachineType: "ct4p-hightpu-4t", Topology: "2x2x1", NodeCount: 1,
			NodeLabels: labels("tpu-v4-podslice", "2x2x1"), ChipsPerNode: 4}},
		{"v4 2x2x2 on two nodes", TPUPoolQuery{MachineType: "ct4p-hightpu-4t", Topology: "2x2x2"}, TPUPoolShape{
			Accelerator: acc("v4-16"), MachineType: "ct4p-hightpu-4t", Topology: "2x2x2", NodeCount: 2, MultiHost: true,
			PlacementPolicy: PlacementCompact, PlacementTPUTopology: "2x2x2", NodeLabels: labels("tpu-v4-podslice", "2x2x2"), ChipsPerNode: 4}},
		{"v5p whole cubes beyond the listed sizes", TPUPoolQuery{MachineType: "ct5p-hightpu-4t", Topology: "4x4x12"}, TPUPoolShape{
			Accelerator: func() Accelerator { a := acc("v5p-384"); a.Topology = "4x4x12"; return a }(),
			MachineType: "ct5p-hightpu-4t", Topology: "4x4x12", NodeCount: 48, MultiHost: true,
			PlacementPolicy: PlacementCompact, PlacementTPUTopology: "4x4x12", NodeLabels: labels("tpu-v5p-slice", "4x4x12"), ChipsPerNode: 4}},
		{"TPU7x multi-host uses a workload policy", TPUPoolQuery{AcceleratorType: "tpu7x-64", GKEVersion: "1.34.0-gke.2201000"}, TPUPoolShape{
			Accelerator: acc("tpu7x-64"), MachineType: "tpu7x-standard-4t", Topology: "2x4x4", NodeCount: 8, MultiHost: true,
			WorkloadPolicy: true, NodeLabels: labels("tpu7x", "2x4x4"), ChipsPerNode: 4}},
		{"unverified machine type without a documented shape", TPUPoolQuery{MachineType: "ct5p-hightpu-1t"}, TPUPoolShape{
			MachineType: "ct5p-hightpu-1t", NodeCount: 1, NodeLabels: map[string]string{LabelTPUAccelerator: "tpu-v5p-slice"}, ChipsPerNode: 1}},
		{"TPU7x single host", TPUPoolQuery{AcceleratorType: "tpu7x-8", NodeLocations: []string{"us-central1-c"}}, TPUPoolShape{
			Accelerator: acc("tpu7x-8"), MachineType: "tpu7x-standard-4t", Topology: "2x2x1", NodeCount: 1,
			NodeLabels: labels("tpu7x", "2x2x1"), ChipsPerNode: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, fs := c.TPUNodePool(tt.q)
			if tt.q.MachineType == "ct5p-hightpu-1t" {
				fs = fs.Errors() // the unverified machine type warning is tested in TestTPUNodePoolFindings
			}
			mustNoFindings(t, tt.name, fs)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("TPUNodePool(%+v) (-want +got):\n%s", tt.q, d)
			}
		})
	}
}

func TestTPUNodePoolFindings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		q    TPUPoolQuery
		want Findings
	}{
		{"8-chip machine type for a 4-chip topology",
			TPUPoolQuery{MachineType: "ct6e-standard-8t", Topology: "2x2"},
			Findings{errAt(AttrMachineType, "ct6e-standard-8t", "Machine Type Does Not Match Topology",
				`"ct6e-standard-8t" has 8 chips per node, more than topology "2x2" (4 chips); use "ct6e-standard-4t".`, srcV6E, "ct6e-standard-4t")}},
		{"single-host machine type for a multi-host topology",
			TPUPoolQuery{MachineType: "ct5lp-hightpu-8t", Topology: "4x4"},
			Findings{errAt(AttrMachineType, "ct5lp-hightpu-8t", "Machine Type Does Not Match Topology",
				`"ct5lp-hightpu-8t" is single-host only (8 chips per node), and topology "4x4" has 16 chips; use "ct5lp-hightpu-4t" (4 nodes).`, srcV5E, "ct5lp-hightpu-4t")}},
		{"machine type of another generation",
			TPUPoolQuery{AcceleratorType: "v6e-8", MachineType: "ct5lp-hightpu-8t"},
			Findings{errAt(AttrMachineType, "ct5lp-hightpu-8t", "Machine Type Does Not Match Accelerator Type",
				`"ct5lp-hightpu-8t" is a v5e machine type, but "v6e-8" is v6e; use "ct6e-standard-1t", "ct6e-standard-4t" or "ct6e-standard-8t".`,
				srcV5E, "ct6e-standard-1t", "ct6e-standard-4t", "ct6e-standard-8t")}},
		{"machine type typo",
			TPUPoolQuery{MachineType: "ct6e-standard-4"},
			Findings{errAt(AttrMachineType, "ct6e-standard-4", "Invalid GKE TPU Machine Type",
				`"ct6e-standard-4" is not a GKE TPU machine type; did you mean "ct6e-standard-4t"?`, srcGKETPUs,
				"ct6e-standard-4t", "ct6e-standard-1t", "ct6e-standard-8t")}},
		{"unverified machine type",
			TPUPoolQuery{MachineType: "ct5p-hightpu-2t"},
			Findings{warnAt(AttrMachineType, "ct5p-hightpu-2t", "Unverified TPU Machine Type",
				`"ct5p-hightpu-2t" is not confirmed by Google docs. Only cluster-toolkit lists this machine type; it is accepted with a warning.`, srcCTTPU)}},
		{"topology does not match the accelerator type",
			TPUPoolQuery{AcceleratorType: "v6e-8", Topology: "2x2"},
			Findings{errAt(AttrTopology, "2x2", "Topology Does Not Match Accelerator Type",
				`Topology "2x2" has 4 chips, but "v6e-8" has 8; use "2x4".`, srcV6E, "2x4")}},
		{"2D topology in the wrong order",
			TPUPoolQuery{AcceleratorType: "v6e-8", Topology: "4x2"},
			Findings{errAt(AttrTopology, "4x2", "Invalid TPU Topology",
				`"4x2" is not a v6e topology; valid: 1x1, 2x2, 2x4, 4x4, 4x8, 8x8, 8x16, 16x16; did you mean "2x4"?`, srcV6E, "2x4")}},
		{"2D topology for a 3D generation",
			TPUPoolQuery{MachineType: "ct5p-hightpu-4t", Topology: "2x2"},
			Findings{errAt(AttrTopology, "2x2", "Invalid TPU Topology",
				`"2x2" is not a v5p topology: v5p topologies are 3D (AxBxC); did you mean "2x2x1"?`, srcV5PTraining, "2x2x1")}},
		{"topology with a capital X",
			TPUPoolQuery{MachineType: "ct4p-hightpu-4t", Topology: "2X2X2"},
			Findings{errAt(AttrTopology, "2X2X2", "Invalid TPU Topology",
				`"2X2X2" is not a topology; v4 topologies look like "2x2x1"; did you mean "2x2x2"?`, srcXPK, "2x2x2")}},
		{"3D dimension neither small nor a multiple of 4",
			TPUPoolQuery{MachineType: "ct4p-hightpu-4t", Topology: "4x4x6"},
			Findings{errAt(AttrTopology, "4x4x6", "Invalid TPU Topology",
				`"4x4x6" is not a valid v4 topology: each dimension must be at most 4 or a multiple of 4.`, srcXPK)}},
		{"3D shape neither small nor whole cubes",
			TPUPoolQuery{MachineType: "ct5p-hightpu-4t", Topology: "2x4x8"},
			Findings{errAt(AttrTopology, "2x4x8", "Invalid TPU Topology",
				`"2x4x8" is not a valid v5p topology: shapes other than 2x2x1, 2x2x2, 2x2x4, 2x4x4 must be whole 4x4x4 cubes (every dimension a multiple of 4); did you mean "4x4x4"?`, srcV5PTraining, "4x4x4")}},
		{"3D shape beyond the pod",
			TPUPoolQuery{MachineType: "ct4p-hightpu-4t", Topology: "16x16x20"},
			Findings{errAt(AttrTopology, "16x16x20", "Invalid TPU Topology",
				`"16x16x20" is not a valid v4 topology: 80 cubes of 4x4x4 exceed the v4 maximum of 64.`, srcXPK)}},
		{"3D topology in another order",
			TPUPoolQuery{MachineType: "ct4p-hightpu-4t", Topology: "2x1x2"},
			Findings{warnAt(AttrTopology, "2x1x2", "Unsorted TPU Topology",
				`"2x1x2" orders the dimensions differently from the documented form "2x2x1"; use "2x2x1".`, srcXPK, "2x2x1")}},
		{"node count is not the slice's host count",
			TPUPoolQuery{AcceleratorType: "v5p-32", NodeCount: 3},
			Findings{errAt(AttrNodeCount, "3", "Node Count Does Not Match Slice",
				`node_count 3 does not fit: a multi-host v5p pool with topology 2x2x4 on ct5p-hightpu-4t is one slice of exactly 4 nodes; set node_count to 4.`, srcGKETPUs, "4")}},
		{"autoscaling bounds that do not hold whole slices",
			TPUPoolQuery{AcceleratorType: "v6e-16", MinNodeCount: 2, MaxNodeCount: 6},
			Findings{
				errAt(AttrMinNodeCount, "2", "Autoscaling Bounds Do Not Hold Whole Slices",
					`GKE scales a multi-host TPU pool a whole slice (4 nodes of ct6e-standard-4t for 4x4) at a time, so min_node_count 2 is not a multiple of 4; use 0 or 4.`, srcGKETPUs, "4"),
				errAt(AttrMaxNodeCount, "6", "Autoscaling Bounds Do Not Hold Whole Slices",
					`GKE scales a multi-host TPU pool a whole slice (4 nodes of ct6e-standard-4t for 4x4) at a time, so max_node_count 6 is not a multiple of 4; use 0 or 4.`, srcGKETPUs, "4", "8"),
			}},
		{"multi-host slice in two zones",
			TPUPoolQuery{AcceleratorType: "v6e-16", NodeLocations: []string{"us-east5-a", "us-east5-b"}},
			Findings{func() Finding {
				f := errAt(AttrNodeLocations, "us-east5-b", "Multi-Host Slice Needs One Zone",
					`A multi-host TPU slice (4x4, 4 nodes of ct6e-standard-4t) is placed compactly in one zone; set node_locations to exactly one zone, and add a node pool per extra zone.`, srcGKETPUs, "us-east5-a")
				f.Index = 1
				return f
			}()}},
		{"autoscaling above one slice",
			TPUPoolQuery{AcceleratorType: "v6e-16", MaxNodeCount: 8},
			Findings{warnAt(AttrMaxNodeCount, "8", "Autoscaling Bound Above One Slice",
				`A multi-host TPU node pool holds one slice of 4 nodes, so max_node_count 8 cannot be reached; use 4 and add a node pool per extra slice.`, srcGKETPUs, "4")}},
		{"GKE version below the v6e minimum",
			TPUPoolQuery{AcceleratorType: "v6e-4", GKEVersion: "1.30.5-gke.1014001"},
			Findings{errAt(AttrGKEVersion, "1.30.5-gke.1014001", "GKE Version Too Old for TPU Generation",
				`GKE 1.30.5-gke.1014001 is older than 1.31.2-gke.1115000, the first version with TPU v6e (Trillium) node pools; upgrade the cluster. The Ray guide cites the GKE TPU page for 1.31.2-gke.1115000; the ai-on-gke recipe asks for 1.31.4-gke.1256000. Below 1.31.2-gke.1115000 is an error (both agree), between the two a warning.`,
				srcRay, "1.31.2-gke.1115000")}},
		{"GKE version between the two v6e floors",
			TPUPoolQuery{AcceleratorType: "v6e-4", GKEVersion: "1.31.3-gke.1000"},
			Findings{warnAt(AttrGKEVersion, "1.31.3-gke.1000", "GKE Version Below Recommended for TPU Generation",
				`GKE 1.31.3-gke.1000 is older than 1.31.4-gke.1256000, which some guides require for TPU v6e (Trillium). The Ray guide cites the GKE TPU page for 1.31.2-gke.1115000; the ai-on-gke recipe asks for 1.31.4-gke.1256000. Below 1.31.2-gke.1115000 is an error (both agree), between the two a warning.`,
				srcRay, "1.31.4-gke.1256000")}},
		{"GKE minor version below the TPU7x minimum",
			TPUPoolQuery{AcceleratorType: "tpu7x-8", GKEVersion: "1.33"},
			Findings{errAt(AttrGKEVersion, "1.33", "GKE Version Too Old for TPU Generation",
				`GKE 1.33 is older than 1.34.0-gke.2201000, the first version with TPU7x (Ironwood) node pools; upgrade the cluster. Standard clusters need 1.34.0-gke.2201000 (Autopilot 1.34.1-gke.3084001); node pools are checked against the Standard floor.`,
				srcIronwood, "1.34.0-gke.2201000")}},
		{"unrecognized GKE version",
			TPUPoolQuery{AcceleratorType: "tpu7x-8", GKEVersion: "v1.34"},
			Findings{warnAt(AttrGKEVersion, "v1.34", "Unrecognized GKE Version",
				`"v1.34" is not a GKE version such as "1.31.2-gke.1115000", so the tpu7x minimum (1.34.0-gke.2201000) is not checked.`, srcIronwood)}},
		{"node location without the generation",
			TPUPoolQuery{AcceleratorType: "v4-8", NodeLocations: []string{"us-central2-b", "us-central1-a"}},
			Findings{atIndex(warnAt(AttrNodeLocations, "us-central1-a", "Region Not Listed for TPU Generation on GKE",
				`GKE's TPU availability lists v4 in us-central2, not in region us-central1. Zones of those regions that offer it: us-central2-b. Availability changes; with the Compute Engine API reachable at plan time, the provider checks the zone's live machine types.`, srcPlanTPUs, "us-central2-b"), 1)}},
		{"generation without GKE machine types",
			TPUPoolQuery{AcceleratorType: "v2-8"},
			Findings{errAt(AttrAcceleratorType, "v2-8", "TPU Generation Not Offered in GKE",
				`v2 has no GKE TPU machine types; GKE offers v3, v4, v5e, v5p, v6e and tpu7x.`, srcGKETPUs)}},
		{"TPU machine type suggestion keeps the chips",
			TPUPoolQuery{MachineType: "ct6e-standrd-8t"},
			Findings{errAt(AttrMachineType, "ct6e-standrd-8t", "Invalid GKE TPU Machine Type",
				`"ct6e-standrd-8t" is not a GKE TPU machine type; did you mean "ct6e-standard-8t"?`, srcGKETPUs, "ct6e-standard-8t")}},
		{"nothing set",
			TPUPoolQuery{},
			Findings{rule(errAt(AttrAcceleratorType, "", "Missing TPU Shape",
				`Set accelerator_type (e.g. "v6e-16") or machine_type (e.g. "ct6e-standard-4t") to describe the TPU node pool.`, srcGKETPUs))}},
		{"invalid accelerator type",
			TPUPoolQuery{AcceleratorType: "v6e-3"},
			Findings{errAt(AttrAcceleratorType, "v6e-3", "Invalid TPU Accelerator Type",
				`"v6e-3" is not a v6e size; valid: v6e-1, v6e-4, v6e-8, v6e-16, v6e-32, v6e-64, v6e-128, v6e-256.`, srcV6E, "v6e-4", "v6e-1", "v6e-8")}},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, got := c.TPUNodePool(tt.q)
			if d := diffFindings(tt.want, got); d != "" {
				t.Errorf("TPUNodePool(%+v) findings (-want +got):\n%s", tt.q, d)
			}
		})
	}
}

// knownGPUs is the catalog's GPU type list as findings quote it.
const knownGPUs = "nvidia-l4, nvidia-tesla-a100, nvidia-a100-80gb, nvidia-h100-80gb, nvidia-h100-mega-80gb, nvidia-h200-141gb, nvidia-b200, nvidia-gb200, nvidia-gb300, nvidia-rtx-pro-6000, nvidia-tesla-t4, nvidia-tesla-v100, nvidia-tesla-p100, nvidia-tesla-p4"

func TestGPUNodePool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		q         GPUPoolQuery
		wantShape GPUPoolShape
		want      Findings
	}{
		{"derive type and count", GPUPoolQuery{MachineType: "g2-standard-24"},
			GPUPoolShape{MachineType: "g2-standard-24", GPUType: "nvidia-l4", GPUCount: 2,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-l4"}}, nil},
		{"explicit matching type, count and driver", GPUPoolQuery{MachineType: "a3-highgpu-8g", GPUType: "nvidia-h100-80gb", GPUCount: 8,
			DriverVersion: "LATEST", NodeLocations: []string{"us-central1-a"}},
			GPUPoolShape{MachineType: "a3-highgpu-8g", GPUType: "nvidia-h100-80gb", GPUCount: 8, DriverVersion: "LATEST",
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-h100-80gb"}}, nil},
		{"attached T4", GPUPoolQuery{MachineType: "n1-standard-8", GPUType: "nvidia-tesla-t4", GPUCount: 1, DriverVersion: "DEFAULT"},
			GPUPoolShape{MachineType: "n1-standard-8", GPUType: "nvidia-tesla-t4", GPUCount: 1, DriverVersion: "DEFAULT",
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-t4"}}, nil},
		{"TPU topology on a GPU pool", GPUPoolQuery{MachineType: "g2-standard-24", Topology: "2x2"},
			GPUPoolShape{MachineType: "g2-standard-24", GPUType: "nvidia-l4", GPUCount: 2,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-l4"}},
			Findings{rule(errAt(AttrTopology, "2x2", "Topology Set on a GPU Tier",
				"topology describes TPU slices; remove it from the GPU tier, or set accelerator_type to make the tier a TPU tier.",
				Default().Source("gke_tpu")))}},
		{"GPU type and count that do not match the machine type",
			GPUPoolQuery{MachineType: "a2-highgpu-2g", GPUType: "nvidia-l4", GPUCount: 4},
			GPUPoolShape{MachineType: "a2-highgpu-2g", GPUType: "nvidia-tesla-a100", GPUCount: 2,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-a100"}},
			Findings{
				errAt(AttrGPUType, "nvidia-l4", "GPU Type Does Not Match Machine Type",
					`"a2-highgpu-2g" comes with nvidia-tesla-a100, not nvidia-l4; remove gpu_type or set it to "nvidia-tesla-a100". For nvidia-l4 use "g2-standard-48".`,
					srcCTGPU, "nvidia-tesla-a100"),
				errAt(AttrGPUCount, "4", "GPU Count Does Not Match Machine Type",
					`"a2-highgpu-2g" has 2 built-in GPUs, not 4; remove gpu_count or set it to 2. For 4 nvidia-tesla-a100 GPUs use "a2-highgpu-4g".`,
					srcCTGPU, "2"),
			}},
		{"label that sources disagree on",
			GPUPoolQuery{MachineType: "a2-ultragpu-1g", GPUType: "nvidia-tesla-a100"},
			GPUPoolShape{MachineType: "a2-ultragpu-1g", GPUType: "nvidia-a100-80gb", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-a100-80gb"}},
			Findings{warnAt(AttrGPUType, "nvidia-tesla-a100", "Conflicting GPU Type Label",
				`gpu_type "nvidia-tesla-a100": "a2-ultragpu-1g" comes with nvidia-a100-80gb; sources disagree on the label, and "nvidia-tesla-a100" is sent as written. cluster-toolkit's machine_mappings.json labels a2-ultragpu as nvidia-tesla-a100; gpu-definition and the toolkit docs say nvidia-a100-80gb, which the catalog uses (nvidia-tesla-a100 here gets a warning).`,
				srcCTGPU, "nvidia-a100-80gb")}},
		{"built-in GPU on N1, no count, driver in lower case",
			GPUPoolQuery{MachineType: "n1-standard-8", GPUType: "nvidia-l4", DriverVersion: "latest"},
			GPUPoolShape{MachineType: "n1-standard-8", GPUType: "nvidia-l4", DriverVersion: "latest",
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-l4"}},
			Findings{
				errAt(AttrGPUType, "nvidia-l4", "GPU Type Not Attachable",
					`nvidia-l4 is built into other machine types (such as "g2-standard-4", "g2-standard-8" or "g2-standard-12") and cannot be attached to n1 machine types; use one of those machine types, or attach "nvidia-tesla-t4", "nvidia-tesla-p4", "nvidia-tesla-p100" or "nvidia-tesla-v100".`,
					srcCTGPU, "nvidia-tesla-t4", "nvidia-tesla-p4", "nvidia-tesla-p100", "nvidia-tesla-v100"),
				rule(errAt(AttrGPUCount, "", "Missing GPU Count",
					`"n1-standard-8" has no built-in GPUs; set gpu_count to 1, 2, 4 or 8.`, srcComputeGPUs, "1", "2", "4", "8")),
				errAt(AttrGPUDriverVersion, "latest", "Invalid GPU Driver Version",
					`"latest" is not a GKE GPU driver version; use "GPU_DRIVER_VERSION_UNSPECIFIED", "INSTALLATION_DISABLED", "DEFAULT" or "LATEST"; did you mean "LATEST"?`,
					srcNodeConfig, "LATEST"),
			}},
		{"N1 with 3 T4s",
			GPUPoolQuery{MachineType: "n1-standard-16", GPUType: "nvidia-tesla-t4", GPUCount: 3},
			GPUPoolShape{MachineType: "n1-standard-16", GPUType: "nvidia-tesla-t4", GPUCount: 3,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-t4"}},
			Findings{errAt(AttrGPUCount, "3", "Invalid GPU Count",
				`Compute Engine attaches nvidia-tesla-t4 to n1 VMs 1, 2 or 4 at a time, not 3. Compute Engine's N1 table lists T4, P4 and P100 with 1, 2 or 4 GPUs per VM; another count is refused.`,
				srcComputeGPUs, "2", "4", "1")}},
		{"N1 without GPU type, unusual count",
			GPUPoolQuery{MachineType: "n1-highmem-16", GPUCount: 3},
			GPUPoolShape{MachineType: "n1-highmem-16", GPUCount: 3},
			Findings{
				rule(errAt(AttrGPUType, "", "Missing GPU Type",
					`"n1-highmem-16" has no built-in GPUs; set gpu_type to "nvidia-tesla-t4", "nvidia-tesla-p4", "nvidia-tesla-p100" or "nvidia-tesla-v100".`, srcComputeGPUs,
					"nvidia-tesla-t4", "nvidia-tesla-p4", "nvidia-tesla-p100", "nvidia-tesla-v100")),
				warnAt(AttrGPUCount, "3", "Unverified GPU Count",
					`3 is not a GPU count the catalog knows for n1 machine types (1, 2, 4 or 8). Compute Engine's N1 table lists T4, P4 and P100 with 1, 2 or 4 GPUs per VM; another count is refused. Compute Engine's N1 table lists V100 with 1, 2, 4 or 8 GPUs per VM; another count is refused.`,
					srcComputeGPUs, "2", "4", "1"),
			}},
		{"N1 with P100",
			GPUPoolQuery{MachineType: "n1-standard-16", GPUType: "nvidia-tesla-p100", GPUCount: 4},
			GPUPoolShape{MachineType: "n1-standard-16", GPUType: "nvidia-tesla-p100", GPUCount: 4,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-p100"}},
			nil},
		{"N1 with P4",
			GPUPoolQuery{MachineType: "n1-standard-4", GPUType: "nvidia-tesla-p4", GPUCount: 1},
			GPUPoolShape{MachineType: "n1-standard-4", GPUType: "nvidia-tesla-p4", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-p4"}},
			nil},
		{"N1 with eight V100s",
			GPUPoolQuery{MachineType: "n1-standard-64", GPUType: "nvidia-tesla-v100", GPUCount: 8},
			GPUPoolShape{MachineType: "n1-standard-64", GPUType: "nvidia-tesla-v100", GPUCount: 8,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-v100"}},
			nil},
		{"A100 model name suggests the A100 types",
			GPUPoolQuery{MachineType: "a2-highgpu-1g", GPUType: "nvidia-a100"},
			GPUPoolShape{MachineType: "a2-highgpu-1g", GPUType: "nvidia-tesla-a100", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-tesla-a100"}},
			Findings{errAt(AttrGPUType, "nvidia-a100", "Unknown GPU Type",
				`"nvidia-a100" is not a GKE GPU type; known: `+knownGPUs+`; did you mean "nvidia-tesla-a100"?`,
				srcCTGPU, "nvidia-tesla-a100", "nvidia-a100-80gb")}},
		{"unknown GPU type",
			GPUPoolQuery{MachineType: "g2-standard-4", GPUType: "nvidia-l40"},
			GPUPoolShape{MachineType: "g2-standard-4", GPUType: "nvidia-l4", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-l4"}},
			Findings{errAt(AttrGPUType, "nvidia-l40", "Unknown GPU Type",
				`"nvidia-l40" is not a GKE GPU type; known: `+knownGPUs+`; did you mean "nvidia-l4"?`,
				srcCTGPU, "nvidia-l4", "nvidia-b200")}},
		{"not a GPU machine type",
			GPUPoolQuery{MachineType: "G2-STANDARD-4"},
			GPUPoolShape{},
			Findings{errAt(AttrMachineType, "G2-STANDARD-4", "Invalid GPU Machine Type",
				`"G2-STANDARD-4" is not a GPU machine type the catalog knows; use a machine type with built-in GPUs (g2, g4, a2, a3, a4, a4x) or an N1 machine type with attached GPUs; did you mean "g2-standard-4"?`,
				srcCTGPU, "g2-standard-4")}},
		// GKE's machine tables take gpu_count 1 on the fractional G4 shapes.
		{"fractional G4 shape", GPUPoolQuery{MachineType: "g4-standard-12"},
			GPUPoolShape{MachineType: "g4-standard-12", GPUType: "nvidia-rtx-pro-6000", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-rtx-pro-6000"}}, nil},
		{"malformed node location", GPUPoolQuery{MachineType: "g2-standard-8", NodeLocations: []string{"us-central1-a", "us-central1"}},
			GPUPoolShape{MachineType: "g2-standard-8", GPUType: "nvidia-l4", GPUCount: 1,
				NodeLabels: map[string]string{LabelGPUAccelerator: "nvidia-l4"}},
			Findings{atIndex(rule(errAt(AttrNodeLocations, "us-central1", "Invalid Zone",
				// A GPU tier's zones are Compute Engine's, not the TPU zones page's.
				`"us-central1" is a region, not a zone; use a zone such as "us-central1-a".`, "https://cloud.google.com/compute/docs/regions-zones")), 1)}},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			shape, got := c.GPUNodePool(tt.q)
			if d := diffFindings(tt.want, got); d != "" {
				t.Errorf("GPUNodePool(%+v) findings (-want +got):\n%s", tt.q, d)
			}
			if d := cmp.Diff(tt.wantShape, shape); d != "" {
				t.Errorf("GPUNodePool(%+v) shape (-want +got):\n%s", tt.q, d)
			}
		})
	}
}

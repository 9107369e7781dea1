// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// tpuFamily is one TPU generation: how the Cloud TPU API names its
// accelerator types and slices, and the Compute Engine machine types (those
// GKE node pools and Compute Engine instances use) of its VMs.
type tpuFamily struct {
	configType    string // AcceleratorConfig.Type
	coresPerChip  int    // the N in "v4-N" counts TensorCores for these
	dims          int    // topology dimensions
	chipsPerHost  int    // chips per TPU VM (worker) in multi-host slices
	singleHostMax int    // largest slice served by one VM
	// machinePrefixes name the generation's machine types, such as
	// "ct6e-" for ct6e-standard-4t; v2 has none.
	machinePrefixes []string
	// bootDisksRefused are the boot disk types its machine types do not
	// take.
	bootDisksRefused []string
	// workloadPolicySlices: multi-host slices of its machine types are
	// placed by a workload policy (placementPolicy.policyName), not by
	// placementPolicy.tpuTopology.
	workloadPolicySlices bool
}

// tpuFamilies are the TPU generations, by the Cloud TPU API's accelerator
// type prefix. Sources:
//   - TensorCores per chip, chips per host and topologies: the TPU
//     generation pages (https://cloud.google.com/tpu/docs/v2 … /v6e,
//     /tpu7x). TPU7X is not a value of the v2 API's AcceleratorConfig.Type
//     enum (the API does not support TPU7x,
//     https://cloud.google.com/tpu/docs/runtimes); the emulator uses "TPU7X"
//     only when a scenario offers tpu7x types.
//   - Machine types: the generation pages, v3 on GKE
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus) and
//     https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/tpu-definition/main.tf.
//   - Boot disks: https://cloud.google.com/compute/docs/tpus/tpu-machines, the
//     disk table: TPU7x and v6e take Hyperdisk only, v5p no Standard
//     Persistent Disk nor Hyperdisk Balanced.
//   - Workload policies: GKE's "About Ironwood (TPU7x) in GKE"
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood):
//     multi-host TPU7x slices are placed by a workload policy, which
//     "replaces the --tpu-topology flag used by other TPU versions".
var tpuFamilies = map[string]tpuFamily{
	"v2": {configType: "V2", coresPerChip: 2, dims: 2, chipsPerHost: 4, singleHostMax: 4},
	"v3": {configType: "V3", coresPerChip: 2, dims: 2, chipsPerHost: 4, singleHostMax: 4,
		machinePrefixes: []string{"ct3-", "ct3p-"}},
	"v4": {configType: "V4", coresPerChip: 2, dims: 3, chipsPerHost: 4, singleHostMax: 4,
		machinePrefixes: []string{"ct4p-"}},
	"v5litepod": {configType: "V5LITE_POD", coresPerChip: 1, dims: 2, chipsPerHost: 4, singleHostMax: 8,
		machinePrefixes: []string{"ct5lp-"}},
	"v5p": {configType: "V5P", coresPerChip: 2, dims: 3, chipsPerHost: 4, singleHostMax: 4,
		machinePrefixes: []string{"ct5p-"}, bootDisksRefused: []string{"pd-standard", "hyperdisk-balanced"}},
	"v6e": {configType: "V6E", coresPerChip: 1, dims: 2, chipsPerHost: 4, singleHostMax: 8,
		machinePrefixes: []string{"ct6e-"}, bootDisksRefused: []string{"pd-standard", "pd-balanced", "pd-ssd"}},
	"tpu7x": {configType: "TPU7X", coresPerChip: 2, dims: 3, chipsPerHost: 4, singleHostMax: 4,
		machinePrefixes: []string{"tpu7x-"}, bootDisksRefused: []string{"pd-standard", "pd-balanced", "pd-ssd"},
		workloadPolicySlices: true},
}

// tpuMachineSeries are the name prefixes of Compute Engine's TPU machine
// series: ct<generation> (Cloud TPU) and tpu7x. A machine type of those
// series that no family of tpuFamilies lists is still a TPU machine type,
// of a 3D topology.
var tpuMachineSeries = []string{"ct", "tpu7"}

func isTPUMachine(mt string) bool {
	return slices.ContainsFunc(tpuMachineSeries, func(p string) bool { return strings.HasPrefix(mt, p) })
}

// tpuMachineFamily is the family of TPU machine type mt, if tpuFamilies
// lists it.
func tpuMachineFamily(mt string) (tpuFamily, bool) {
	for _, f := range tpuFamilies {
		if slices.ContainsFunc(f.machinePrefixes, func(p string) bool { return strings.HasPrefix(mt, p) }) {
			return f, true
		}
	}
	return tpuFamily{}, false
}

// chipsRE reads the chips per VM of a TPU machine type, such as the 4 of
// ct6e-standard-4t.
var chipsRE = regexp.MustCompile(`-(\d+)t$`)

// tpuMachine returns the chips per VM and topology dimensions of a TPU
// machine type.
func tpuMachine(mt string) (chips, dims int, ok bool) {
	m := chipsRE.FindStringSubmatch(mt)
	if m == nil {
		return 0, 0, false
	}
	chips, err := strconv.Atoi(m[1])
	if err != nil || chips <= 0 {
		return 0, 0, false
	}
	dims = 3
	if f, ok := tpuMachineFamily(mt); ok {
		dims = f.dims
	}
	return chips, dims, true
}

// tpuWorkloadPolicySlices reports whether the multi-host slices of machine
// type mt are placed by a workload policy.
func tpuWorkloadPolicySlices(mt string) bool {
	f, ok := tpuMachineFamily(mt)
	return ok && f.workloadPolicySlices
}

// defaultAcceleratorType is the type of a node created without one: the
// API's default (magic-modules tpuv2/Vm.yaml: accelerator_type defaults to
// v2-8).
const defaultAcceleratorType = "v2-8"

// Fields Nodes.Patch may change. Source: the updateMask parameter of
// projects.locations.nodes.patch in the TPU v2 discovery document ("Supported
// fields: [description, tags, labels, metadata,
// network_config.enable_external_ips]"). The sources disagree on data_disks:
// that list leaves it out, but the service accepts it (gcloud compute tpus
// tpu-vm attach-disk and detach-disk, and tpu-vm update --attach-disk, send
// updateMask=dataDisks: https://cloud.google.com/sdk/gcloud/reference/compute/tpus/tpu-vm/update),
// so the emulator accepts it too.
var tpuPatchable = []string{"description", "tags", "labels", "metadata", "network_config.enable_external_ips", "data_disks"}

// Runtime versions offered in every TPU zone of Default. Source: Cloud TPU
// runtimes, https://cloud.google.com/tpu/docs/runtimes (base images, TF names
// and the legacy images) and https://cloud.google.com/tpu/docs/supported-versions.
var defaultRuntimeVersions = []string{
	"tpu-ubuntu2204-base",
	"v2-alpha-tpuv5-lite",
	// Not on the runtimes page; Google's sample behind the tpu_vm_create
	// snippet creates v5litepod-4 with it
	// (https://github.com/GoogleCloudPlatform/python-docs-samples/blob/0ef3b45edce3b65e02853105f72107588df8d7a4/tpu/create_tpu.py).
	"v2-tpuv5-litepod",
	"v2-alpha-tpuv5",
	"v2-alpha-tpuv6e",
	"tpu-vm-tf-2.18.0-pjrt",
	"tpu-vm-tf-2.18.0-pod-pjrt",
	"tpu-vm-tf-2.17.1-pjrt",
	"tpu-vm-tf-2.17.1-pod-pjrt",
	"tpu-vm-tf-2.16.1-pjrt",
	"tpu-vm-tf-2.16.1-pod-pjrt",
	"tpu-vm-tf-2.16.1-se",
	"tpu-vm-tf-2.16.1-pod-se",
	"tpu-vm-tf-2.15.1-pjrt",
	"tpu-vm-tf-2.15.1-pod-pjrt",
	"tpu-vm-tf-2.14.1",
	"tpu-vm-tf-2.14.1-pod",
	"tpu-vm-tf-2.10.0-v4",
	"tpu-vm-tf-2.10.0-pod-v4",
	"tpu-vm-base",
	"tpu-vm-v4-base",
	"tpu-vm-pt-2.0",
	"tpu-vm-v4-pt-2.0",
}

// TPU accelerator types per generation, as documented on the generation pages
// (https://cloud.google.com/tpu/docs/v2, /v3, /v4, /v5e, /v5p, /v6e).
var (
	typesV2  = []string{"v2-8", "v2-32", "v2-128", "v2-256", "v2-512"}
	typesV3  = []string{"v3-8", "v3-32", "v3-64", "v3-128", "v3-256", "v3-512", "v3-1024", "v3-2048"}
	typesV4  = []string{"v4-8", "v4-16", "v4-32", "v4-64", "v4-128", "v4-256", "v4-512", "v4-1024", "v4-2048", "v4-4096"}
	typesV5e = []string{"v5litepod-1", "v5litepod-4", "v5litepod-8", "v5litepod-16", "v5litepod-32", "v5litepod-64", "v5litepod-128", "v5litepod-256"}
	typesV5p = []string{"v5p-8", "v5p-16", "v5p-32", "v5p-64", "v5p-128", "v5p-256", "v5p-512", "v5p-1024", "v5p-2048", "v5p-4096", "v5p-8192", "v5p-12288"}
	typesV6e = []string{"v6e-1", "v6e-4", "v6e-8", "v6e-16", "v6e-32", "v6e-64", "v6e-128", "v6e-256"}
)

// TPU machine types per generation that Default offers, from the sources of
// tpuFamilies and
// https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/tpu-definition/main.tf.
var (
	// v3 on GKE: https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus.
	machinesV3  = []string{"ct3-hightpu-4t", "ct3p-hightpu-4t"}
	machinesV4  = []string{"ct4p-hightpu-4t"}
	machinesV5e = []string{"ct5lp-hightpu-1t", "ct5lp-hightpu-4t", "ct5lp-hightpu-8t"}
	machinesV5p = []string{"ct5p-hightpu-4t"}
	machinesV6e = []string{"ct6e-standard-1t", "ct6e-standard-4t", "ct6e-standard-8t"}
	machines7x  = []string{"tpu7x-standard-4t"}
)

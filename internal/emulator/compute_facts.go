// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GPU machine types and accelerator types. Assumption: the per-zone GPU lists
// in Default are illustrative, not copied from the Compute Engine GPU regions
// page; the machine-type-to-GPU pairs follow
// https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/gpu-definition/main.tf.
var (
	gpusL4    = []string{"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-24", "g2-standard-32", "g2-standard-48", "g2-standard-96", "nvidia-l4"}
	gpusA100  = []string{"a2-highgpu-1g", "a2-highgpu-2g", "a2-highgpu-4g", "a2-highgpu-8g", "a2-megagpu-16g", "nvidia-tesla-a100"}
	gpusA100u = []string{"a2-ultragpu-1g", "a2-ultragpu-2g", "a2-ultragpu-4g", "a2-ultragpu-8g", "nvidia-a100-80gb"}
	gpusH100  = []string{"a3-highgpu-1g", "a3-highgpu-2g", "a3-highgpu-4g", "a3-highgpu-8g", "a3-megagpu-8g", "nvidia-h100-80gb", "nvidia-h100-mega-80gb"}
	gpusT4    = []string{"nvidia-tesla-t4"}
	// N1 attachables besides T4: https://cloud.google.com/compute/docs/gpus.
	gpusN1 = []string{"nvidia-tesla-p4", "nvidia-tesla-p100", "nvidia-tesla-v100"}
)

// Machine types outside the accelerator families exist in every zone (the
// general-purpose families); these are the ones zones list.
var generalMachineTypes = []string{"e2-standard-2", "e2-standard-4", "e2-standard-8",
	"n1-standard-1", "n1-standard-2", "n1-standard-4", "n1-standard-8", "n1-standard-16", "n1-standard-32", "n1-standard-64", "n1-standard-96"}

// gpuMachineFamily is a family of Compute Engine machine types with GPUs
// built in: the machine types named prefix…, each with GPUs of type gpu.
type gpuMachineFamily struct {
	prefix string // such as "a3-highgpu-"
	gpu    string // the accelerator type
	// counts are the GPU counts of the family's machine types, for a family
	// whose names do not end in their count; nil when they do ("-<n>g", as
	// in a3-highgpu-8g, and "-<n>g-nolssd").
	counts map[string]int
}

// gpuMachineFamilies are Compute Engine's accelerator-optimized GPU machine
// families, whose series (the name's part up to the first "-": A2, A3, A4,
// A4X, G2, G4) are the GPU machine series. Sources: the machine series
// A4X, A4, A3, A2, G4 and G2 of
// https://cloud.google.com/compute/docs/accelerator-optimized-machines and
// their GPU models and counts on https://cloud.google.com/compute/docs/gpus:
// A2 highgpu and megagpu carry A100 40GB, A2 ultragpu A100 80GB, A3 highgpu
// and edgegpu H100, A3 megagpu H100 Mega, A3 ultragpu H200, A4 B200, A4X
// GB200 Superchips (nvidia-gb200), G2 L4 and G4 RTX PRO 6000. The G4 GPU's
// API name, nvidia-rtx-pro-6000, and the counts of g4-standard-48, -96,
// -192 and -384 (1, 2, 4 and 8) are those of GKE's machine type table
// (withGpuOverride(NvidiaRTXPro6000, n)), in
// https://github.com/GoogleCloudPlatform/cluster-autoscaler/blob/master/pkg/cloudprovider/gke/machinetypes/deprecated_machine_types_config.go.
var gpuMachineFamilies = []gpuMachineFamily{
	{prefix: "a2-highgpu-", gpu: "nvidia-tesla-a100"},
	{prefix: "a2-megagpu-", gpu: "nvidia-tesla-a100"},
	{prefix: "a2-ultragpu-", gpu: "nvidia-a100-80gb"},
	{prefix: "a3-highgpu-", gpu: "nvidia-h100-80gb"},
	{prefix: "a3-edgegpu-", gpu: "nvidia-h100-80gb"},
	{prefix: "a3-megagpu-", gpu: "nvidia-h100-mega-80gb"},
	{prefix: "a3-ultragpu-", gpu: "nvidia-h200-141gb"},
	{prefix: "a4-highgpu-", gpu: "nvidia-b200"},
	{prefix: "a4x-highgpu-", gpu: "nvidia-gb200"},
	// https://cloud.google.com/compute/docs/gpus#l4-gpus
	{prefix: "g2-standard-", gpu: "nvidia-l4", counts: map[string]int{"g2-standard-4": 1, "g2-standard-8": 1, "g2-standard-12": 1,
		"g2-standard-16": 1, "g2-standard-24": 2, "g2-standard-32": 1, "g2-standard-48": 4, "g2-standard-96": 8}},
	{prefix: "g4-standard-", gpu: "nvidia-rtx-pro-6000", counts: map[string]int{"g4-standard-48": 1, "g4-standard-96": 2,
		"g4-standard-192": 4, "g4-standard-384": 8}},
}

// machineSeries is the series part of a machine type's name, such as "a3-"
// of a3-highgpu-8g.
func machineSeries(mt string) string {
	series, _, ok := strings.Cut(mt, "-")
	if !ok {
		return ""
	}
	return series + "-"
}

// isGPUMachine reports whether mt is of a GPU machine series.
func isGPUMachine(mt string) bool {
	series := machineSeries(mt)
	return series != "" && slices.ContainsFunc(gpuMachineFamilies, func(f gpuMachineFamily) bool { return machineSeries(f.prefix) == series })
}

// isGPUAcceleratorType reports whether name is a GPU accelerator type, such
// as nvidia-tesla-t4 (https://cloud.google.com/compute/docs/gpus).
func isGPUAcceleratorType(name string) bool { return strings.HasPrefix(name, "nvidia-") }

// builtinGPUs is the GPU type and count built into a machine type
// (gpuMachineFamilies), or "" and 0.
func builtinGPUs(machine string) (string, int) {
	for _, f := range gpuMachineFamilies {
		rest, ok := strings.CutPrefix(machine, f.prefix)
		switch {
		case !ok:
			continue
		case f.counts != nil:
			if n, ok := f.counts[machine]; ok {
				return f.gpu, n
			}
			return "", 0
		}
		size, _, _ := strings.Cut(rest, "-")
		if n, err := strconv.Atoi(strings.TrimSuffix(size, "g")); err == nil && strings.HasSuffix(size, "g") {
			return f.gpu, n
		}
	}
	return "", 0
}

// n1GPUCounts are the GPU counts Compute Engine attaches to an N1 VM, per
// GPU type (https://cloud.google.com/compute/docs/gpus, the N1 table: T4,
// P4 and P100 in 1, 2 or 4; V100 in 1, 2, 4 or 8).
var n1GPUCounts = map[string][]int64{
	"nvidia-tesla-t4":   {1, 2, 4},
	"nvidia-tesla-p4":   {1, 2, 4},
	"nvidia-tesla-p100": {1, 2, 4},
	"nvidia-tesla-v100": {1, 2, 4, 8},
}

// attachedGPUProblem says why count GPUs of gpuType cannot be attached to
// machineType, "" when they can or the emulator has no rule for the pair.
// Assumption: the wording of the answer.
func attachedGPUProblem(machineType, gpuType string, count int64) string {
	counts, ok := n1GPUCounts[gpuType]
	if !ok || !strings.HasPrefix(machineType, "n1-") || slices.Contains(counts, count) {
		return ""
	}
	return fmt.Sprintf("Accelerator count %d of type %s is not supported on N1 machine types; supported counts: %v.", count, gpuType, counts)
}

// defaultBootDiskType is the boot disk of an instance that names no disk
// type (instances.insert initializeParams.diskType: "If not specified, the
// default is pd-standard").
const defaultBootDiskType = "pd-standard"

// bootDiskProblem says why a boot disk of diskType (a full or partial URL,
// "" for the default) cannot boot machineType, "" when it can: the boot
// disks a TPU machine type's family refuses (tpuFamilies). Assumption:
// the wording, "<type> disk type cannot be used by <machine type> machine
// type", as Compute Engine's answers are quoted in user reports.
func bootDiskProblem(machineType, diskType string) string {
	t := defaultBootDiskType
	if diskType != "" {
		t = diskType[strings.LastIndex(diskType, "/")+1:]
	}
	if f, ok := tpuMachineFamily(machineType); ok && slices.Contains(f.bootDisksRefused, t) {
		return fmt.Sprintf("%s disk type cannot be used by %s machine type.", t, machineType)
	}
	return ""
}

// defaultImages are the images of Default. The families are the ones
// Google's TPU guides create TPU VM instances from
// (ubuntu-os-accelerator-images: ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e,
// https://cloud.google.com/compute/docs/tpus/create-tpu-vm-instance; and
// ubuntu-accel-2404-amd64-tpu-tpu7x for TPU7x) and the general Ubuntu LTS
// family. Assumption: the image names (a family plus a date) are
// illustrative.
var defaultImages = []Image{
	{Project: "ubuntu-os-accelerator-images", Name: "ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e-v20250923", Family: "ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e"},
	{Project: "ubuntu-os-accelerator-images", Name: "ubuntu-accel-2404-amd64-tpu-tpu7x-v20250923", Family: "ubuntu-accel-2404-amd64-tpu-tpu7x"},
	{Project: "ubuntu-os-cloud", Name: "ubuntu-2204-jammy-v20250923", Family: "ubuntu-2204-lts"},
}

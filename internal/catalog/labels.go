// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// Node label keys, taint keys and values, and extended resource names GKE
// uses for accelerators. The catalog data lists each with its source; a test
// keeps these constants and the data in sync.
const (
	// LabelTPUAccelerator is the GKE accelerator label of TPU slice nodes (e.g. tpu-v6e-slice).
	LabelTPUAccelerator = "cloud.google.com/gke-tpu-accelerator"
	// LabelTPUTopology is the slice topology label of TPU nodes (e.g. 2x2).
	LabelTPUTopology = "cloud.google.com/gke-tpu-topology"
	// LabelGPUAccelerator is the GPU type label of GPU nodes (e.g. nvidia-l4).
	LabelGPUAccelerator = "cloud.google.com/gke-accelerator"
	// LabelMachineType is the Compute Engine machine type label of nodes.
	LabelMachineType = "cloud.google.com/gce-machine-type"
	// LabelComputeClass binds nodes (label and taint) and pods (nodeSelector) to a ComputeClass.
	LabelComputeClass = "cloud.google.com/compute-class"
	// LabelDefaultComputeClass is the namespace label naming the default ComputeClass.
	LabelDefaultComputeClass = "cloud.google.com/default-compute-class"
	// LabelSpot marks Spot nodes.
	LabelSpot = "cloud.google.com/gke-spot"

	// TaintTPU is the taint key GKE puts on TPU slice nodes.
	TaintTPU = "google.com/tpu"
	// TaintGPU is the taint key GKE puts on GPU nodes.
	TaintGPU = "nvidia.com/gpu"
	// TaintComputeClass is the taint key binding a manual node pool to a ComputeClass.
	TaintComputeClass = LabelComputeClass
	// TaintSpot is the taint key of Spot nodes in a ComputeClass tier.
	TaintSpot = LabelSpot
	// TaintValuePresent is the value of the TPU and GPU taints.
	TaintValuePresent = "present"
	// TaintEffectNoSchedule is the effect of every accelerator taint.
	TaintEffectNoSchedule = "NoSchedule"

	// ResourceTPU is the extended resource pods request for TPU chips.
	ResourceTPU = "google.com/tpu"
	// ResourceGPU is the extended resource pods request for GPUs.
	ResourceGPU = "nvidia.com/gpu"
)

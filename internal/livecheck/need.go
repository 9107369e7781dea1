// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import "github.com/accel-dev/terraform-provider-accel/internal/catalog"

// Need is what one node of a GKE node pool asks of the live APIs: the
// machine type or attached GPU type its zones must offer, and the quota it
// counts against.
type Need struct {
	// MachineType is an accelerator machine type (TPU, or GPU with built-in
	// GPUs) the zones must offer; "" for N1 with attached GPUs.
	MachineType string
	// GPUType is the attached GPU type the zones must offer (N1); "" else.
	GPUType string
	// Accelerator names the quota: the GPU type or the TPU generation.
	Accelerator string
	// PerNode is the GPUs or TPU chips one node takes.
	PerNode int64
	// Hosts is the nodes of one multi-host TPU slice, which GKE adds all
	// at once; 1 otherwise.
	Hosts int64
}

// Unit is the quota one scale-up takes: a node, or a whole multi-host slice.
func (n Need) Unit() int64 { return max(n.PerNode, 1) * max(n.Hosts, 1) }

// TPUNeed is the need of a TPU node pool of a machine type and topology.
func TPUNeed(cat *catalog.Catalog, machineType, topology string) Need {
	s, _ := cat.TPUNodePool(catalog.TPUPoolQuery{MachineType: machineType, Topology: topology})
	return Need{MachineType: machineType, Accelerator: s.Accelerator.Generation, PerNode: int64(s.ChipsPerNode), Hosts: max(int64(s.NodeCount), 1)}
}

// GPUNeed is the need of a GPU node pool: a machine type with built-in
// GPUs, or a general machine type with attached GPUs.
func GPUNeed(cat *catalog.Catalog, machineType, gpuType string, gpuCount int64) Need {
	if cat.IsGPUMachineType(machineType) {
		s, _ := cat.GPUNodePool(catalog.GPUPoolQuery{MachineType: machineType})
		return Need{MachineType: machineType, Accelerator: s.GPUType, PerNode: int64(s.GPUCount), Hosts: 1}
	}
	return Need{GPUType: gpuType, Accelerator: gpuType, PerNode: gpuCount, Hosts: 1}
}

// Pool is the PoolQuery of the need in zones.
func (n Need) Pool(project, region string, zones []string) PoolQuery {
	return PoolQuery{Project: project, MachineType: n.MachineType, GPUType: n.GPUType, Zones: zones, Region: region}
}

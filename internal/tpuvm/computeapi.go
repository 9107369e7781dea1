// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"errors"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// The values of the api attribute.
const (
	apiCloudTPU      = catalog.APICloudTPU
	apiComputeEngine = catalog.APIComputeEngine
)

// vmID is the id of a TPU VM: a Cloud TPU node id, or a Compute Engine
// instance id when instance is set.
func vmID(project, zone, name string, instance bool) string {
	if instance {
		return gcp.InstanceID(project, zone, name)
	}
	return gcp.NodeID(project, zone, name)
}

// parseVMID splits a node id or an instance id; instance tells which.
func parseVMID(id string) (project, zone, name string, instance bool, err error) {
	return gcp.ParseNodeOrInstanceID(id)
}

// isInstanceID reports whether id names a Compute Engine instance.
func isInstanceID(id string) bool {
	_, _, _, instance, err := parseVMID(id)
	return err == nil && instance
}

// apiOfID is the api attribute of the VM id names.
func apiOfID(id string) string {
	if isInstanceID(id) {
		return apiComputeEngine
	}
	return apiCloudTPU
}

var _ nodeAPI = (*gcp.InstanceNodes)(nil)

// catalogShapes answers gcp.InstanceNodes from the catalog.
type catalogShapes struct{ cat *catalog.Catalog }

func (s catalogShapes) InstanceShape(acceleratorType string) (string, string, error) {
	ce, fs := s.cat.ComputeEngineTPU(acceleratorType)
	if fs.HasErrors() {
		return "", "", errors.New(fs.Errors()[0].Detail)
	}
	return ce.MachineType, ce.DefaultImage, nil
}

func (s catalogShapes) AcceleratorTypeOf(machineType string) (string, bool) {
	return s.cat.AcceleratorTypeOfMachineType(machineType)
}

func (s catalogShapes) RegionOf(zone string) string { return catalog.RegionOf(zone) }

func (s catalogShapes) BootDiskType(machineType string) string {
	return s.cat.BootDiskDefault(machineType)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	compute "google.golang.org/api/compute/v1"
	tpu "google.golang.org/api/tpu/v2"
)

// TypeTPUVMCompute names the reconciliation of accel_tpu_vm instances
// created through Compute Engine (api = "compute_engine"): by instance.
const TypeTPUVMCompute = "accel_tpu_vm/compute_engine"

// ReconcileComputeTPUVMs compares the accel_tpu_vm instances in state with
// the Compute Engine instances whose name starts with prefix; a TPU node of
// that prefix is an orphan too (no VM of these resources is a node).
func ReconcileComputeTPUVMs(s *State, instances []*compute.Instance, nodes []*tpu.Node, prefix string) Report {
	return ReconcileTPUVMs(s, append(InstanceIDs(instances), NodeIDs(nodes)...), prefix)
}

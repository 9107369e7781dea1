// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TypeTPUVMQueued names the reconciliation of accel_tpu_vm instances
// created through queued resources: by queued resource, not by node (a
// request still waiting has no node, and a multislice has several).
const TypeTPUVMQueued = "accel_tpu_vm/queued"

// ReconcileQueuedTPUVMs compares the queued resources recorded by
// accel_tpu_vm instances in state with the emulator's queued resources
// whose name (the last segment) starts with prefix; a TPU node of that
// prefix that belongs to no queued resource is an orphan too.
func ReconcileQueuedTPUVMs(s *State, qrs []emulator.QueuedResourceInfo, nodes []string, prefix string) Report {
	var inState []string
	for _, res := range s.Resources() {
		if res.Type != TypeTPUVM {
			continue
		}
		if qr, _ := res.Values["queued_resource"].(string); qr != "" {
			inState = append(inState, qr)
		}
	}
	var inAPI []string
	owned := map[string]bool{}
	for _, qr := range qrs {
		if strings.HasPrefix(qr.Name[strings.LastIndex(qr.Name, "/")+1:], prefix) {
			inAPI = append(inAPI, qr.Name)
		}
		for _, n := range qr.Nodes {
			owned[n] = true
		}
	}
	r := compare(inState, inAPI)
	for _, n := range nodes {
		if strings.HasPrefix(n[strings.LastIndex(n, "/")+1:], prefix) && !owned[n] {
			r.Orphans = append(r.Orphans, n)
		}
	}
	return r
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

func TestReconcileQueuedTPUVMs(t *testing.T) {
	t.Parallel()
	const qr = "projects/p/locations/us-central1-a/queuedResources/x-vm"
	vm := `{"values":{"root_module":{"resources":[{"address":"accel_tpu_vm.a","mode":"managed","type":"accel_tpu_vm","values":{"queued_resource":"` + qr + `"}}]}}}`
	empty := `{"format_version":"1.0"}`
	slice0, slice1 := node+"-0", node+"-1"
	for _, tc := range []struct {
		name  string
		state string
		qrs   []emulator.QueuedResourceInfo
		nodes []string
		want  Report
	}{
		{"waiting request recorded", vm, []emulator.QueuedResourceInfo{{Name: qr, State: "WAITING_FOR_RESOURCES"}}, nil, Report{Managed: 1}},
		{"multislice recorded", vm, []emulator.QueuedResourceInfo{{Name: qr, Nodes: []string{slice0, slice1}}}, []string{slice0, slice1}, Report{Managed: 1}},
		{"request not recorded", empty, []emulator.QueuedResourceInfo{{Name: qr}}, nil, Report{Orphans: []string{qr}}},
		{"request gone", vm, nil, nil, Report{Ghosts: []string{qr}}},
		{"node outside any request", empty, nil, []string{node}, Report{Orphans: []string{node}}},
		{"other prefix", empty, []emulator.QueuedResourceInfo{{Name: "projects/p/locations/z/queuedResources/other"}}, nil, Report{}},
	} {
		got := ReconcileQueuedTPUVMs(state(t, tc.state), tc.qrs, tc.nodes, "x-")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

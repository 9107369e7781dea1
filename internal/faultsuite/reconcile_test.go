// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

func state(t *testing.T, js string) *State {
	t.Helper()
	var s State
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

const node = "projects/p/locations/us-central1-a/nodes/x-vm"

func TestReconcileTPUVMs(t *testing.T) {
	t.Parallel()
	vm := func(id string) string {
		return `{"address":"accel_tpu_vm.a","mode":"managed","type":"accel_tpu_vm","values":{"id":"` + id + `"}}`
	}
	tests := []struct {
		name  string
		state string
		nodes []string
		want  Report
	}{
		{
			name:  "match",
			state: `{"values":{"root_module":{"resources":[` + vm(node) + `]}}}`,
			nodes: []string{node, "projects/p/locations/us-central1-a/nodes/other"},
			want:  Report{Managed: 1},
		},
		{
			name:  "orphan",
			state: `{"format_version":"1.0"}`,
			nodes: []string{node},
			want:  Report{Orphans: []string{node}},
		},
		{
			name:  "ghost",
			state: `{"values":{"root_module":{"resources":[` + vm(node) + `]}}}`,
			want:  Report{Ghosts: []string{node}},
		},
		{
			name:  "same name in two zones",
			state: `{"values":{"root_module":{"resources":[` + vm(node) + `]}}}`,
			nodes: []string{node, "projects/p/locations/us-south1-a/nodes/x-vm"},
			want: Report{
				Managed:    1,
				Orphans:    []string{"projects/p/locations/us-south1-a/nodes/x-vm"},
				Duplicates: []string{"x-vm (exists as " + node + " and projects/p/locations/us-south1-a/nodes/x-vm)"},
			},
		},
		{
			name: "recorded twice, in a child module",
			state: `{"values":{"root_module":{"resources":[` + vm(node) + `],
				"child_modules":[{"resources":[` + vm(node) + `]}]}}}`,
			nodes: []string{node},
			want:  Report{Managed: 1, Duplicates: []string{node + " (in state 2 times)"}},
		},
		{
			name:  "data sources are ignored",
			state: `{"values":{"root_module":{"resources":[{"mode":"data","type":"accel_tpu_vm","values":{"id":"` + node + `"}}]}}}`,
			want:  Report{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var nodes []*tpu.Node
			for _, n := range tt.nodes {
				nodes = append(nodes, &tpu.Node{Name: n})
			}
			got := ReconcileTPUVMs(state(t, tt.state), NodeIDs(nodes), "x-")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			if got.Clean() != (len(tt.want.Orphans)+len(tt.want.Ghosts)+len(tt.want.Duplicates) == 0) {
				t.Errorf("Clean() = %v for %s", got.Clean(), got)
			}
		})
	}
}

func TestReconcileNodePools(t *testing.T) {
	t.Parallel()
	const cluster = "projects/p/locations/us-central1/clusters/c"
	pools := func(names ...string) []emulator.NodePoolInfo {
		var out []emulator.NodePoolInfo
		for _, n := range names {
			out = append(out, emulator.NodePoolInfo{Name: cluster + "/nodePools/" + n, NodePool: &container.NodePool{Name: n}})
		}
		return out
	}
	res := `{"values":{"root_module":{"resources":[{"mode":"managed","type":"accel_fallback_nodepools","values":{
		"cluster":"` + cluster + `","tiers":[{"name":"x-0","status":"RUNNING"},{"name":"x-1","status":"MISSING"}]}}]}}}`
	tests := []struct {
		name  string
		pools []emulator.NodePoolInfo
		want  Report
	}{
		{name: "missing tier is not in state", pools: pools("x-0", "default-pool"), want: Report{Managed: 1}},
		{name: "missing tier exists after all", pools: pools("x-0", "x-1"), want: Report{Managed: 1, Orphans: []string{cluster + "/nodePools/x-1"}}},
		{name: "recorded pool is gone", pools: nil, want: Report{Ghosts: []string{cluster + "/nodePools/x-0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ReconcileNodePools(state(t, res), tt.pools, "x-")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReconcileComputeTPUVMs(t *testing.T) {
	t.Parallel()
	const inst = "projects/p/zones/us-central1-c/instances/x-vm"
	recorded := `{"values":{"root_module":{"resources":[{"address":"accel_tpu_vm.a","mode":"managed","type":"accel_tpu_vm","values":{"id":"` + inst + `"}}]}}}`
	empty := `{"format_version":"1.0"}`
	instances := func(ids ...string) []*compute.Instance {
		var out []*compute.Instance
		for _, id := range ids {
			out = append(out, &compute.Instance{Name: id[strings.LastIndex(id, "/")+1:], SelfLink: "https://compute.example/compute/v1/" + id})
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		state     string
		instances []*compute.Instance
		nodes     []*tpu.Node
		want      Report
	}{
		{"instance recorded", recorded, instances(inst, "projects/p/zones/us-central1-c/instances/other"), nil, Report{Managed: 1}},
		{"instance not recorded", empty, instances(inst), nil, Report{Orphans: []string{inst}}},
		{"instance gone", recorded, nil, nil, Report{Ghosts: []string{inst}}},
		{"node of the prefix", recorded, instances(inst), []*tpu.Node{{Name: node}}, Report{Managed: 1, Orphans: []string{node},
			Duplicates: []string{"x-vm (exists as " + inst + " and " + node + ")"}}},
	} {
		got := ReconcileComputeTPUVMs(state(t, tc.state), tc.instances, tc.nodes, "x-")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

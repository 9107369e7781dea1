// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	"fmt"
	"slices"
	"strings"

	compute "google.golang.org/api/compute/v1"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// Resource types the suite reconciles.
const (
	TypeTPUVM     = "accel_tpu_vm"
	TypeNodePools = "accel_fallback_nodepools"
)

// statusMissing is the status accel_fallback_nodepools records for a tier
// whose pool does not exist (it is created again by the next apply).
const statusMissing = "MISSING"

// Report is the outcome of comparing Terraform's state with the API.
type Report struct {
	// Orphans exist in the API but in no state resource: no apply or destroy
	// will ever manage them.
	Orphans []string
	// Ghosts are recorded in state but do not exist in the API.
	Ghosts []string
	// Duplicates are names that exist more than once: one TPU VM name in two
	// zones, or one object recorded by two state resources.
	Duplicates []string
	// Managed is the number of API objects state and API agree on.
	Managed int
}

// Clean reports whether state and API agree exactly.
func (r Report) Clean() bool {
	return len(r.Orphans) == 0 && len(r.Ghosts) == 0 && len(r.Duplicates) == 0
}

func (r Report) String() string {
	return fmt.Sprintf("managed=%d orphans=%d ghosts=%d duplicates=%d %s",
		r.Managed, len(r.Orphans), len(r.Ghosts), len(r.Duplicates), r.detail())
}

func (r Report) detail() string {
	var parts []string
	if len(r.Orphans) > 0 {
		parts = append(parts, "orphans: "+strings.Join(r.Orphans, ", "))
	}
	if len(r.Ghosts) > 0 {
		parts = append(parts, "ghosts: "+strings.Join(r.Ghosts, ", "))
	}
	if len(r.Duplicates) > 0 {
		parts = append(parts, "duplicates: "+strings.Join(r.Duplicates, ", "))
	}
	if len(parts) == 0 {
		return "(state matches the API)"
	}
	return "(" + strings.Join(parts, "; ") + ")"
}

// compare builds a report from the names in state (with repetitions) and the
// names in the API.
func compare(inState, inAPI []string) Report {
	var r Report
	count := map[string]int{}
	for _, n := range inState {
		count[n]++
	}
	api := map[string]bool{}
	for _, n := range inAPI {
		api[n] = true
	}
	for n, c := range count {
		if c > 1 {
			r.Duplicates = append(r.Duplicates, n+" (in state "+fmt.Sprint(c)+" times)")
		}
		if !api[n] {
			r.Ghosts = append(r.Ghosts, n)
		}
	}
	for n := range api {
		if count[n] == 0 {
			r.Orphans = append(r.Orphans, n)
		} else {
			r.Managed++
		}
	}
	slices.Sort(r.Orphans)
	slices.Sort(r.Ghosts)
	slices.Sort(r.Duplicates)
	return r
}

// ReconcileTPUVMs compares the accel_tpu_vm instances in state with the
// TPU VMs in the API whose name (the last segment) starts with prefix: ids
// are the names of TPU nodes (projects/P/locations/Z/nodes/N) or the ids of
// Compute Engine instances (projects/P/zones/Z/instances/N, see
// InstanceIDs), the forms accel_tpu_vm records as its id.
func ReconcileTPUVMs(s *State, ids []string, prefix string) Report {
	var inState []string
	for _, res := range s.Resources() {
		if res.Type != TypeTPUVM {
			continue
		}
		if id, _ := res.Values["id"].(string); id != "" {
			inState = append(inState, id)
		}
	}
	var inAPI []string
	zonesOf := map[string][]string{}
	for _, id := range ids {
		short := id[strings.LastIndex(id, "/")+1:]
		if !strings.HasPrefix(short, prefix) {
			continue
		}
		inAPI = append(inAPI, id)
		zonesOf[short] = append(zonesOf[short], id)
	}
	r := compare(inState, inAPI)
	for short, names := range zonesOf {
		if len(names) > 1 {
			r.Duplicates = append(r.Duplicates, short+" (exists as "+strings.Join(names, " and ")+")")
		}
	}
	slices.Sort(r.Duplicates)
	return r
}

// NodeIDs are the names of nodes, the ids accel_tpu_vm records for VMs
// created through the Cloud TPU API.
func NodeIDs(nodes []*tpu.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Name
	}
	return out
}

// InstanceIDs are the ids accel_tpu_vm records for VMs created through
// Compute Engine: each instance's selfLink from "projects/" on.
func InstanceIDs(instances []*compute.Instance) []string {
	out := make([]string, len(instances))
	for i, in := range instances {
		out[i] = in.SelfLink[strings.Index(in.SelfLink, "projects/"):]
	}
	return out
}

// ReconcileNodePools compares the pools recorded by accel_fallback_nodepools
// instances in state (tiers whose status is not MISSING) with the emulator's
// node pools whose name (the last segment) starts with prefix.
func ReconcileNodePools(s *State, pools []emulator.NodePoolInfo, prefix string) Report {
	var inState []string
	for _, res := range s.Resources() {
		if res.Type != TypeNodePools {
			continue
		}
		cluster, _ := res.Values["cluster"].(string)
		tiers, _ := res.Values["tiers"].([]any)
		for _, t := range tiers {
			tier, _ := t.(map[string]any)
			name, _ := tier["name"].(string)
			status, _ := tier["status"].(string)
			if name == "" || status == statusMissing {
				continue
			}
			inState = append(inState, cluster+"/nodePools/"+name)
		}
	}
	var inAPI []string
	for _, p := range pools {
		short := p.Name[strings.LastIndex(p.Name, "/")+1:]
		if strings.HasPrefix(short, prefix) {
			inAPI = append(inAPI, p.Name)
		}
	}
	return compare(inState, inAPI)
}

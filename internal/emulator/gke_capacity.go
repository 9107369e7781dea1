// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"sort"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

func hasGPUs(cfg *container.NodeConfig) bool {
	if isGPUMachine(cfg.MachineType) {
		return true
	}
	for _, a := range cfg.Accelerators {
		if a != nil && a.AcceleratorCount > 0 {
			return true
		}
	}
	return false
}

// capKeys are the capacity keys one node of the pool uses in zone z: the
// capacity type, and the machine type when that differs.
func (p *gkePool) capKeys(z string) []string {
	keys := []string{capKey(z, p.capType)}
	if p.capMachine != "" && p.capMachine != p.capType {
		keys = append(keys, capKey(z, p.capMachine))
	}
	return keys
}

// setCapTypes sets the capacity keys of a pool from its node config.
func (p *gkePool) setCapTypes() {
	p.capType, p.capMachine = capacityType(p.np.Config), p.np.Config.MachineType
}

// poolAvailable is how many more nodes of the pool fit in zone z: the
// smallest room left under its capacity keys, -1 when none is limited.
func (s *Server) poolAvailable(p *gkePool, z string) int {
	avail := -1
	for _, k := range p.capKeys(z) {
		if a := s.available(k); a >= 0 && (avail < 0 || a < avail) {
			avail = a
		}
	}
	return avail
}

func (s *Server) reservePool(p *gkePool, z string, n int) {
	for _, k := range p.capKeys(z) {
		s.reserve(k, n)
	}
}

func (s *Server) releasePool(p *gkePool, z string, n int) {
	for _, k := range p.capKeys(z) {
		s.release(k, n)
	}
}

// capacityType is what a pool's nodes consume: the attached GPU type, or the
// machine type.
func capacityType(cfg *container.NodeConfig) string {
	for _, a := range cfg.Accelerators {
		if a != nil && a.AcceleratorType != "" && a.AcceleratorCount > 0 {
			return a.AcceleratorType
		}
	}
	return cfg.MachineType
}

// capacityPlan is the outcome of placing nodes, decided when the operation
// starts: per zone, how many nodes the pool will have, and the zones that
// fell short.
type capacityPlan struct {
	nodes    map[string]int
	short    []string
	want     int // nodes asked for in total
	got      int // nodes placed in total
	grown    map[string]int
	zonesAvl []string
}

// planNodes reserves capacity for want nodes per zone. Multi-host TPU pools
// are all-or-nothing.
func (s *Server) planNodes(c *gkeCluster, p *gkePool, want map[string]int) capacityPlan {
	plan := capacityPlan{nodes: map[string]int{}, grown: map[string]int{}}
	zones := make([]string, 0, len(want))
	for z := range want {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	for _, z := range zones {
		cur := p.nodes[z]
		n := want[z]
		plan.want += n
		got := n
		if n > cur {
			if avail := s.poolAvailable(p, z); avail >= 0 && avail < n-cur {
				got = cur + avail
				plan.short = append(plan.short, z)
			}
		}
		plan.nodes[z] = got
		plan.got += got
	}
	if len(plan.short) > 0 && p.hosts > 1 {
		for _, z := range zones {
			plan.nodes[z] = min(p.nodes[z], plan.nodes[z])
		}
		plan.got = 0
	}
	for _, z := range zones {
		if g := plan.nodes[z] - p.nodes[z]; g > 0 {
			s.reservePool(p, z, g)
			plan.grown[z] = g
		}
	}
	if len(plan.short) > 0 {
		need := 0
		for _, z := range plan.short {
			need = max(need, want[z]-p.nodes[z])
		}
		plan.zonesAvl = s.zonesAvailable(c, p, need, plan.short)
	}
	return plan
}

// releasePlan gives back what planNodes reserved.
func (s *Server) releasePlan(p *gkePool, plan capacityPlan) {
	for z, g := range plan.grown {
		s.releasePool(p, z, g)
	}
}

// zonesAvailable lists the zones of the cluster's region that offer the
// pool's type and still have room for need nodes, except the short zones.
func (s *Server) zonesAvailable(c *gkeCluster, p *gkePool, need int, short []string) []string {
	region := regionOf(c.location)
	accel := isTPUMachine(p.np.Config.MachineType) || hasGPUs(p.np.Config)
	var out []string
	for _, z := range s.sc.Zones {
		if regionOf(z.Name) != region || contains(short, z.Name) {
			continue
		}
		if accel && !contains(z.MachineTypes, p.capType) && !contains(z.MachineTypes, p.np.Config.MachineType) {
			continue
		}
		if avail := s.poolAvailable(p, z.Name); avail < 0 || avail >= need {
			out = append(out, z.Name)
		}
	}
	return out
}

// applyPlan sets the node counts a finished operation achieved, and on a
// shortfall reports GKE's stockout: the operation ends DONE with error code 8
// and a statusMessage in the form GKE uses ("Google Compute Engine: Not all
// instances running in IGM … [GCE_STOCKOUT] … does not have enough resources
// available to fulfill the request"), with an ErrorInfo carrying
// ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS and the zones that still have
// room. Assumption: Compute Engine's own ErrorInfo uses reason
// "resource_availability" and metadata key "zonesAvailable"; the emulator
// sends the reason named above with both "zones_available" and
// "zonesAvailable" keys.
func (s *Server) applyPlan(c *gkeCluster, p *gkePool, plan capacityPlan, op *operation, now time.Time) {
	for z, n := range p.nodes {
		if plan.nodes[z] < n {
			s.releasePool(p, z, n-plan.nodes[z])
		}
	}
	p.nodes = plan.nodes
	np := p.np
	if len(plan.short) == 0 {
		if np.Status != poolRunning {
			s.logPool(c, np.Name, PoolRunning, now)
		}
		p.base, np.Status, np.StatusMessage, np.Conditions = poolRunning, poolRunning, "", nil
		return
	}
	var errs []string
	for _, z := range plan.short {
		errs = append(errs, fmt.Sprintf("[GCE_STOCKOUT]: Instance 'gke-%s-%s-%08x-%04x' creation failed: The zone 'projects/%s/zones/%s' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.",
			c.c.Name, np.Name, s.rand.Uint32(), s.rand.Uint32()%0x10000, c.project, z))
	}
	avail := strings.Join(plan.zonesAvl, ",")
	msg := fmt.Sprintf("Google Compute Engine: Not all instances running in IGM after %s. Expected %d, running %d, transitioning %d. Current errors: %s (ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS; zones with capacity: %s)",
		now.Sub(op.created).Round(time.Millisecond), plan.want, plan.got, plan.want-plan.got, strings.Join(errs, " "), orNone(avail))
	op.err = &rpcStatus{
		Code:    rpcCodes[statusResourceExhausted].rpc,
		Message: msg,
		Details: []any{errorInfo("ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS", "compute.googleapis.com", map[string]string{
			"zones_available": avail,
			"zonesAvailable":  avail,
			"zone":            strings.Join(plan.short, ","),
			"vmType":          np.Config.MachineType,
		})},
	}
	op.statusMessage = msg
	p.base = poolError
	if plan.got > 0 {
		p.base = poolRunningWithError
	}
	np.Status, np.StatusMessage = p.base, msg
	np.Conditions = []*container.StatusCondition{{Code: "GCE_STOCKOUT", CanonicalCode: statusResourceExhausted, Message: msg}}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

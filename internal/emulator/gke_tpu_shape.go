// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"slices"
	"strings"

	container "google.golang.org/api/container/v1"
)

// poolTopology checks a new pool's placement policy and returns the TPU
// slice topology it asks for: placementPolicy.tpuTopology, or, when
// placementPolicy.policyName is set, the acceleratorTopology of the
// workload policy it names ("" for another policy: workloadTopology). A
// machine type whose multi-host slices are
// placed by workload policies (tpuWorkloadPolicySlices) takes no
// multi-host tpuTopology.
func (s *Server) poolTopology(c *gkeCluster, np *container.NodePool) (string, *apiError) {
	pp := np.PlacementPolicy
	if pp == nil {
		return "", nil
	}
	if pp.Type != "" && pp.Type != "TYPE_UNSPECIFIED" && pp.Type != "COMPACT" {
		return "", s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.type\": %q. Supported values: COMPACT.", pp.Type)
	}
	if pp.PolicyName != "" {
		return s.workloadTopology(c, np, pp)
	}
	topology, mt := pp.TpuTopology, np.Config.MachineType
	if topology == "" || !tpuWorkloadPolicySlices(mt) {
		return topology, nil
	}
	if perVM, _, ok := tpuMachine(mt); ok {
		if dims, ok := parseTopology(topology); ok && product(dims) > perVM {
			return "", s.gkeInvalid("Multi-host TPU7x node pools (topology %s on %s) need a workload policy: set placement_policy.policy_name "+
				"to a HIGH_THROUGHPUT workload policy with accelerator_topology %s, not placement_policy.tpu_topology.",
				topology, mt, topology)
		}
	}
	return topology, nil
}

// checkTPUShape applies the TPU slice rules of
// https://cloud.google.com/kubernetes-engine/docs/concepts/tpus and the
// v6e/v5e tables of https://cloud.google.com/tpu/docs/v6e and /v5e: the
// topology has the generation's dimensions; its chips are a multiple of the
// machine type's chips per VM; only 4-chip machine types form multi-host
// slices; a multi-host pool lives in one zone and has exactly chips/chips-
// per-VM nodes; its autoscaling limits are whole slices. Messages follow
// GKE's "Maximum node count 0 is not a valid size of TPU pod slice with
// topology 2x2x2"; the others are assumptions.
func (s *Server) checkTPUShape(np *container.NodePool, topology string) (int, *apiError) {
	mt := np.Config.MachineType
	if !isTPUMachine(mt) {
		if topology != "" {
			return 0, s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.tpu_topology\": %q. TPU topology can only be set for TPU machine types, not %q.", topology, mt)
		}
		return 0, nil
	}
	perVM, wantDims, ok := tpuMachine(mt)
	if !ok || topology == "" {
		// Single-host pools may leave the topology out; TPU7x multi-host
		// pools use a workload policy (placementPolicy.policyName) instead.
		return 0, nil
	}
	dims, ok := parseTopology(topology)
	if !ok || len(dims) != wantDims {
		return 0, s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.tpu_topology\": %q. Machine type %q needs a %dD topology such as %s.",
			topology, mt, wantDims, canonicalTopology(perVM, wantDims))
	}
	chips := product(dims)
	if !validSliceShape(topology, dims) || chips < perVM || chips%perVM != 0 || (chips > perVM && perVM != 4) {
		return 0, s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.tpu_topology\": %q is not a valid TPU slice topology for machine type %q.", topology, mt)
	}
	hosts := chips / perVM
	if hosts == 1 {
		return 0, nil
	}
	if err := s.checkMultiHostPool(np, topology, hosts); err != nil {
		return 0, err
	}
	return hosts, nil
}

// validSliceShape reports whether a topology of dims is a slice shape: a 2D
// one is the canonical one of its chips; a 3D one is ordered, with every
// dimension above 4 a multiple of 4.
func validSliceShape(topology string, dims []int) bool {
	if len(dims) == 2 {
		return topology == canonicalTopology(product(dims), 2)
	}
	if dims[0] > dims[1] || dims[1] > dims[2] {
		return false
	}
	return !slices.ContainsFunc(dims, func(d int) bool { return d > 4 && d%4 != 0 })
}

// checkMultiHostPool checks a pool of hosts VMs per slice: one zone, a
// node count of one slice (or 0 when autoscaled) and autoscaling limits of
// whole slices.
func (s *Server) checkMultiHostPool(np *container.NodePool, topology string, hosts int) *apiError {
	mt := np.Config.MachineType
	if len(np.Locations) != 1 {
		return s.gkeInvalid("Multi-host TPU node pools (topology %s on %s) must be in exactly one zone; got %d: %s.",
			topology, mt, len(np.Locations), strings.Join(np.Locations, ","))
	}
	as := np.Autoscaling
	autoscaled := as != nil && as.Enabled
	if np.InitialNodeCount != int64(hosts) && (!autoscaled || np.InitialNodeCount != 0) {
		return s.gkeInvalid("Initial node count %d is not a valid size of TPU pod slice with topology %s; a slice of %s needs %d nodes.",
			np.InitialNodeCount, topology, mt, hosts)
	}
	if !autoscaled {
		return nil
	}
	if as.MaxNodeCount <= 0 || as.MaxNodeCount%int64(hosts) != 0 {
		return s.gkeInvalid("Maximum node count %d is not a valid size of TPU pod slice with topology %s", as.MaxNodeCount, topology)
	}
	if as.MinNodeCount%int64(hosts) != 0 {
		return s.gkeInvalid("Minimum node count %d is not a valid size of TPU pod slice with topology %s", as.MinNodeCount, topology)
	}
	return nil
}

// workloadTopology resolves the placement policy a node pool names
// (placementPolicy.policyName: a policy's name, in the cluster's project and
// region, or its URL) and returns the slice topology it places: its
// acceleratorTopology. Refused, with GKE's INVALID_ARGUMENT: a policy that
// does not exist, one of another region, one that is no workload policy or
// not HIGH_THROUGHPUT (the type GKE "About Ironwood (TPU7x) in GKE" says
// TPU7x supports), a workload policy on a machine type that is not TPU7x,
// one without an acceleratorTopology, and a pool that sets a tpuTopology
// too. Assumption: the wording of GKE's messages.
func (s *Server) workloadTopology(c *gkeCluster, np *container.NodePool, pp *container.PlacementPolicy) (string, *apiError) {
	region := regionOf(c.location)
	key := policyKey(c.project, region, pp.PolicyName)
	if strings.Contains(pp.PolicyName, "/") {
		key = resourcePath(c.project, pp.PolicyName)
	}
	gp, ok := s.compute.policies[key]
	if !ok {
		return "", s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.policy_name\": %q. The resource policy %s was not found.", pp.PolicyName, key)
	}
	if gp.region != region {
		return "", s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.policy_name\": %q. The resource policy must be in the cluster's region %s, not %s.",
			pp.PolicyName, region, gp.region)
	}
	w := gp.policy.WorkloadPolicy
	mt := np.Config.MachineType
	if w == nil || !tpuWorkloadPolicySlices(mt) {
		// Other generations and GPU pools may name a compact placement
		// policy; the emulator serves workload policies only.
		return "", nil
	}
	switch {
	case pp.TpuTopology != "":
		return "", s.gkeInvalid("placement_policy.tpu_topology and placement_policy.policy_name cannot both be set: the workload policy %s sets the topology.", pp.PolicyName)
	case w.Type != "HIGH_THROUGHPUT":
		return "", s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.policy_name\": %q. TPU7x node pools need a HIGH_THROUGHPUT workload policy, not %s.", pp.PolicyName, w.Type)
	case w.AcceleratorTopology == "":
		return "", s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.policy_name\": %q. The workload policy sets no accelerator_topology.", pp.PolicyName)
	}
	return w.AcceleratorTopology, nil
}

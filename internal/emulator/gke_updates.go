// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"slices"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

// poolUpdate is what an update-like operation does when it finishes, and
// what it gives back when the pool disappears first.
type poolUpdate struct {
	apply func(op *operation, now time.Time)
	abort func()
}

// startPoolUpdate is the common part of the update-like operations: admit,
// RECONCILING while it runs, apply and restore the status at the end.
// prepare runs once the operation is admitted; failure is the injected
// operation failure, if any.
func (s *Server) startPoolUpdate(q *gkeRequest, c *gkeCluster, p *gkePool, method, opType string, d time.Duration,
	prepare func(failure *rpcStatus) poolUpdate,
) (any, *apiError) {
	if err := s.admit(c, p.np.Name, opType); err != nil {
		return nil, err
	}
	p.np.Status = poolReconciling
	setEtag(p.np)
	op := s.newPoolOperation(q, c, method, opType, p.np.Name, d)
	failure := s.takeOpFailure(method)
	u := prepare(failure)
	op.finish = func(op *operation, now time.Time) {
		if c.pools[p.np.Name] != p {
			if u.abort != nil {
				u.abort()
			}
			op.err = &rpcStatus{Code: rpcCodes[statusNotFound].rpc, Message: "Not found: " + c.key + "/nodePools/" + p.np.Name + "."}
			return
		}
		p.np.Status = p.base
		if failure != nil {
			op.err, op.statusMessage = failure, failure.Message
		} else if u.apply != nil {
			u.apply(op, now)
		}
		setEtag(p.np)
	}
	return s.gkeOpJSON(op), nil
}

func (s *Server) gkePoolsUpdate(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError) {
	var in container.UpdateNodePoolRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if in.Etag != "" && in.Etag != p.np.Etag {
		return nil, newError(statusAborted, "Node pool %q etag %q does not match the current etag %q.", p.np.Name, in.Etag, p.np.Etag).
			with(requestInfo(s.requestID()))
	}
	cfg := *p.np.Config
	if in.MachineType != "" {
		cfg.MachineType = in.MachineType
	}
	if in.Accelerators != nil {
		cfg.Accelerators = in.Accelerators
	}
	locations := p.np.Locations
	if len(in.Locations) > 0 {
		locations = in.Locations
		if p.hosts > 1 && len(locations) != 1 {
			return nil, s.gkeInvalid("Multi-host TPU node pools must be in exactly one zone; got %d: %s.", len(locations), strings.Join(locations, ","))
		}
	}
	if err := s.checkLocations(c, locations, &cfg); err != nil {
		return nil, err
	}
	if err := s.checkNodeSettings(&container.NodeConfig{DiskSizeGb: in.DiskSizeGb, WorkloadMetadataConfig: in.WorkloadMetadataConfig,
		ResourceManagerTags: in.ResourceManagerTags, KubeletConfig: in.KubeletConfig, LinuxNodeConfig: in.LinuxNodeConfig,
		ContainerdConfig: in.ContainerdConfig}, nil); err != nil {
		return nil, err
	}
	if err := s.checkUpgradeSettings(in.UpgradeSettings); err != nil {
		return nil, err
	}
	version := p.np.Version
	if in.NodeVersion != "" {
		v, err := s.resolveVersion(c, in.NodeVersion)
		if err != nil {
			return nil, err
		}
		version = v
	}
	if err := s.checkVersion(c, version, cfg.MachineType); err != nil {
		return nil, err
	}
	return s.startPoolUpdate(q, c, p, MethodNodePoolsUpdate, opUpdateNodePool, s.sc.Durations.PoolUpdate, func(*rpcStatus) poolUpdate {
		return poolUpdate{apply: func(*operation, time.Time) { s.applyUpdate(c, p, &in, &cfg, version, locations) }}
	})
}

// applyUpdate applies an UpdateNodePoolRequest's fields. Fields left out of
// the request are left alone.
func (s *Server) applyUpdate(c *gkeCluster, p *gkePool, in *container.UpdateNodePoolRequest, cfg *container.NodeConfig, version string, locations []string) {
	np := p.np
	nc := np.Config
	np.Version = version
	nc.MachineType = cfg.MachineType
	nc.Accelerators = cfg.Accelerators
	if in.ImageType != "" {
		nc.ImageType = in.ImageType
	}
	if in.DiskSizeGb != 0 {
		nc.DiskSizeGb = in.DiskSizeGb
	}
	if in.DiskType != "" {
		nc.DiskType = in.DiskType
	}
	if in.Labels != nil {
		nc.Labels = in.Labels.Labels
	}
	if in.ResourceLabels != nil {
		nc.ResourceLabels = in.ResourceLabels.Labels
	}
	if in.Taints != nil {
		nc.Taints = in.Taints.Taints
	}
	if in.Tags != nil {
		nc.Tags = in.Tags.Tags
	}
	if in.KubeletConfig != nil {
		nc.KubeletConfig = in.KubeletConfig
	}
	if in.LinuxNodeConfig != nil {
		nc.LinuxNodeConfig = in.LinuxNodeConfig
	}
	if in.WorkloadMetadataConfig != nil {
		nc.WorkloadMetadataConfig = in.WorkloadMetadataConfig
	}
	if in.GcfsConfig != nil {
		nc.GcfsConfig = in.GcfsConfig
	}
	if in.UpgradeSettings != nil {
		np.UpgradeSettings = in.UpgradeSettings
	}
	if in.Gvnic != nil {
		nc.Gvnic = in.Gvnic
	}
	if in.FastSocket != nil {
		nc.FastSocket = in.FastSocket
	}
	if in.ContainerdConfig != nil {
		nc.ContainerdConfig = in.ContainerdConfig
	}
	if in.ConfidentialNodes != nil {
		nc.ConfidentialNodes = in.ConfidentialNodes
	}
	if in.ResourceManagerTags != nil {
		nc.ResourceManagerTags = in.ResourceManagerTags
	}
	if in.NodeNetworkConfig != nil {
		if np.NetworkConfig == nil {
			np.NetworkConfig = &container.NodeNetworkConfig{}
		}
		// Of a pool's network configuration, an update changes whether
		// its nodes are private.
		np.NetworkConfig.EnablePrivateNodes = in.NodeNetworkConfig.EnablePrivateNodes
	}
	// The running nodes move to the new capacity keys (machine or GPU type)
	// and zones. Assumption: this is not capacity-checked; every new zone
	// gets the per-zone node count.
	for z, n := range p.nodes {
		s.releasePool(p, z, n)
	}
	p.setCapTypes()
	if !slices.Equal(locations, np.Locations) {
		count := 0
		for _, n := range p.nodes {
			count = max(count, n)
		}
		p.nodes = map[string]int{}
		for _, z := range locations {
			p.nodes[z] = count
		}
		np.Locations = slices.Clone(locations)
	}
	for z, n := range p.nodes {
		s.reservePool(p, z, n)
	}
	// Refresh derived fields; GKE re-adds what it adds by itself.
	s.poolDefaults(c, np)
}

func (s *Server) gkePoolsSetSize(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError) {
	var in container.SetNodePoolSizeRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if in.NodeCount < 0 {
		return nil, s.gkeInvalid("Invalid value for field \"node_count\": %d. Must be non-negative.", in.NodeCount)
	}
	if p.hosts > 1 && in.NodeCount != 0 && in.NodeCount != int64(p.hosts) {
		return nil, s.gkeInvalid("Node count %d is not a valid size of TPU pod slice with topology %s", in.NodeCount, p.np.PlacementPolicy.TpuTopology)
	}
	return s.startPoolUpdate(q, c, p, MethodNodePoolsSetSize, opSetSize, s.sc.Durations.PoolSetSize, func(failure *rpcStatus) poolUpdate {
		if failure != nil {
			return poolUpdate{}
		}
		want := map[string]int{}
		for _, z := range p.np.Locations {
			want[z] = int(in.NodeCount)
		}
		plan := s.planNodes(c, p, want)
		return poolUpdate{
			apply: func(op *operation, now time.Time) { s.applyPlan(c, p, plan, op, now) },
			abort: func() { s.releasePlan(p, plan) },
		}
	})
}

func (s *Server) gkePoolsSetAutoscaling(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError) {
	var in container.SetNodePoolAutoscalingRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if in.Autoscaling == nil {
		return nil, s.gkeInvalid("Invalid value for field \"autoscaling\": must be set.")
	}
	if msg := checkAutoscaling(in.Autoscaling); msg != "" {
		return nil, s.gkeInvalid("%s", msg)
	}
	if err := s.checkLocationPolicy(in.Autoscaling); err != nil {
		return nil, err
	}
	if as := in.Autoscaling; p.hosts > 1 && as.Enabled && (as.MaxNodeCount <= 0 || as.MaxNodeCount%int64(p.hosts) != 0) {
		return nil, s.gkeInvalid("Maximum node count %d is not a valid size of TPU pod slice with topology %s", as.MaxNodeCount, p.np.PlacementPolicy.TpuTopology)
	}
	return s.startPoolUpdate(q, c, p, MethodNodePoolsSetAutoscaling, opSetAutoscaling, s.sc.Durations.PoolSetAutoscaling, func(*rpcStatus) poolUpdate {
		return poolUpdate{apply: func(*operation, time.Time) {
			if in.Autoscaling.Enabled {
				p.np.Autoscaling = in.Autoscaling
			} else {
				p.np.Autoscaling = nil
			}
		}}
	})
}

func (s *Server) gkePoolsSetManagement(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError) {
	var in container.SetNodePoolManagementRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if in.Management == nil {
		return nil, s.gkeInvalid("Invalid value for field \"management\": must be set.")
	}
	return s.startPoolUpdate(q, c, p, MethodNodePoolsSetManagement, opSetManagement, s.sc.Durations.PoolSetManagement, func(*rpcStatus) poolUpdate {
		return poolUpdate{apply: func(*operation, time.Time) { p.np.Management = in.Management }}
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

func (s *Server) gkePoolsList(q *gkeRequest, cluster string) (any, *apiError) {
	c, err := s.getCluster(q.project, q.location, cluster)
	if err != nil {
		return nil, err
	}
	out := &container.ListNodePoolsResponse{NodePools: []*container.NodePool{}}
	for _, name := range c.order {
		out.NodePools = append(out.NodePools, c.pools[name].np)
	}
	return out, nil
}

// poolDefaults fills what GKE fills when a create request leaves it out
// (gkePoolDefaults).
func (s *Server) poolDefaults(c *gkeCluster, np *container.NodePool) {
	if np.Config == nil {
		np.Config = &container.NodeConfig{}
	}
	cfg := np.Config
	if cfg.MachineType == "" {
		cfg.MachineType = gkePoolDefaults.machineType
	}
	if cfg.DiskSizeGb == 0 {
		cfg.DiskSizeGb = gkePoolDefaults.diskSizeGB
	}
	if cfg.DiskType == "" {
		cfg.DiskType = gkePoolDefaults.diskType
	}
	if cfg.ImageType == "" {
		cfg.ImageType = gkePoolDefaults.imageType
	}
	if cfg.ServiceAccount == "" {
		cfg.ServiceAccount = gkePoolDefaults.serviceAccount
	}
	if len(cfg.OauthScopes) == 0 {
		cfg.OauthScopes = slices.Clone(gkePoolDefaults.oauthScopes)
	}
	if cfg.Metadata == nil {
		cfg.Metadata = map[string]string{}
	}
	if _, ok := cfg.Metadata["disable-legacy-endpoints"]; !ok {
		cfg.Metadata["disable-legacy-endpoints"] = "true"
	}
	if len(np.Locations) == 0 {
		np.Locations = slices.Clone(c.c.Locations)
	}
	// NodeNetworkConfig.createPodRange is input only: GKE creates the range
	// (named and sized by podRange and podIpv4CidrBlock, with defaults) and
	// reports it. Assumption: the default name and a /N netmask's block.
	if nc := np.NetworkConfig; nc != nil && nc.CreatePodRange {
		nc.CreatePodRange = false
		if nc.PodRange == "" {
			nc.PodRange = "gke-" + np.Name + "-pods"
		}
		switch {
		case nc.PodIpv4CidrBlock == "":
			nc.PodIpv4CidrBlock = "10.96.0.0/18"
		case strings.HasPrefix(nc.PodIpv4CidrBlock, "/"):
			nc.PodIpv4CidrBlock = "10.96.0.0" + nc.PodIpv4CidrBlock
		}
	}
	if np.Version == "" {
		np.Version = c.c.CurrentNodeVersion
	}
	if np.Management == nil {
		np.Management = &container.NodeManagement{AutoRepair: true, AutoUpgrade: true}
	}
	if np.UpgradeSettings == nil {
		np.UpgradeSettings = &container.UpgradeSettings{MaxSurge: 1, Strategy: "SURGE"}
	}
	if np.Config != nil && np.Config.ShieldedInstanceConfig == nil {
		np.Config.ShieldedInstanceConfig = defaultShieldedInstanceConfig()
	}
	if np.MaxPodsConstraint == nil {
		np.MaxPodsConstraint = &container.MaxPodsConstraint{MaxPodsPerNode: gkePoolDefaults.maxPodsPerNode}
	}
	if np.PodIpv4CidrSize == 0 {
		np.PodIpv4CidrSize = gkePoolDefaults.podIPv4CIDRSize
	}
	np.SelfLink = s.url + "/v1/" + c.key + "/nodePools/" + np.Name
	np.InstanceGroupUrls = nil
	for _, z := range np.Locations {
		np.InstanceGroupUrls = append(np.InstanceGroupUrls, s.igmURL(c.project, z, igmName(c, np)))
	}
	s.addProvisioningAdditions(np)
	s.applyAdditions(np.Config)
}

// applyAdditions adds what GKE adds to a node config by itself, unless the
// scenario switches it off:
//   - TPU pools get the taint google.com/tpu=present:NO_SCHEDULE. Source:
//     "TPU slice nodes are given a taint, google.com/tpu=present:NoSchedule"
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/tpus).
//     Assumption: the API reports it in config.taints.
//   - GPU pools get nvidia.com/gpu=present:NO_SCHEDULE. Source: GKE taints
//     GPU nodes with nvidia.com/gpu (https://cloud.google.com/kubernetes-engine/docs/how-to/gpus).
//     Assumption: reported in config.taints, with value "present".
//   - resourceLabels["goog-gke-node-pool-provisioning-model"] = "on-demand",
//     or "spot" for Spot and preemptible nodes. Source: the label shows up on
//     GKE node VMs and node pools in public Terraform state and configs, which
//     ignore_changes it because GKE injects it.
func (s *Server) applyAdditions(cfg *container.NodeConfig) {
	add := s.sc.GKEAdditions
	if isTPUMachine(cfg.MachineType) && !add.SkipTPUTaint {
		ensureTaint(cfg, "google.com/tpu")
	}
	if hasGPUs(cfg) && !add.SkipGPUTaint {
		ensureTaint(cfg, "nvidia.com/gpu")
	}
	// GKE Sandbox: GKE labels and taints the nodes so that only pods of
	// the gvisor RuntimeClass run there
	// (https://cloud.google.com/kubernetes-engine/docs/concepts/sandbox-pods).
	if sc := cfg.SandboxConfig; sc != nil && sc.Type == "GVISOR" {
		if cfg.Labels == nil {
			cfg.Labels = map[string]string{}
		}
		cfg.Labels["sandbox.gke.io/runtime"] = "gvisor"
		if !slices.ContainsFunc(cfg.Taints, func(t *container.NodeTaint) bool { return t != nil && t.Key == "sandbox.gke.io/runtime" }) {
			cfg.Taints = append(cfg.Taints, &container.NodeTaint{Key: "sandbox.gke.io/runtime", Value: "gvisor", Effect: "NO_SCHEDULE"})
		}
	}
	if !add.SkipProvisioningModelLabel {
		const key = provisioningModelLabel
		if cfg.ResourceLabels == nil {
			cfg.ResourceLabels = map[string]string{}
		}
		if _, ok := cfg.ResourceLabels[key]; !ok {
			model := "on-demand"
			if cfg.Spot || cfg.Preemptible {
				model = "spot"
			}
			cfg.ResourceLabels[key] = model
		}
	}
}

func ensureTaint(cfg *container.NodeConfig, key string) {
	for _, t := range cfg.Taints {
		if t != nil && t.Key == key {
			return
		}
	}
	cfg.Taints = append(cfg.Taints, &container.NodeTaint{Key: key, Value: "present", Effect: "NO_SCHEDULE"})
}

func (s *Server) gkePoolsCreate(q *gkeRequest, cluster string) (any, *apiError) {
	var in container.CreateNodePoolRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if in.NodePool == nil {
		return nil, s.gkeInvalid("Invalid value for field \"node_pool\": must be set.")
	}
	np := copyPool(in.NodePool)
	if !poolNameRE.MatchString(np.Name) {
		// GKE's own wording.
		return nil, s.gkeInvalid("Invalid value for field \"node_pool.name\": %q. Must be a match of regex '"+gkeNamePattern+"' "+gkeNameRule+".", np.Name)
	}
	c, err := s.getCluster(q.project, q.location, cluster)
	if err != nil {
		return nil, err
	}
	if c.c.Autopilot != nil && c.c.Autopilot.Enabled {
		// GKE Autopilot overview: GKE creates and manages an Autopilot
		// cluster's nodes; there are no node pools to create.
		return nil, s.gkeInvalid("Creating node pools is not supported on Autopilot clusters: GKE creates and manages the nodes of %s.", c.key)
	}
	name := c.key + "/nodePools/" + np.Name
	if _, dup := c.pools[np.Name]; dup {
		return nil, newError(statusAlreadyExists, "Already exists: %s.", name).with(requestInfo(s.requestID()))
	}
	// Output-only fields are ignored, as the API does.
	np.Status, np.StatusMessage, np.Conditions, np.Etag, np.SelfLink, np.InstanceGroupUrls = "", "", nil, "", "", nil
	if np.Version != "" {
		v, err := s.resolveVersion(c, np.Version)
		if err != nil {
			return nil, err
		}
		np.Version = v
	}
	s.poolDefaults(c, np)
	hosts, err := s.validatePool(c, np)
	if err != nil {
		return nil, err
	}
	if err := s.admit(c, np.Name, opCreateNodePool); err != nil {
		return nil, err
	}
	p := &gkePool{np: np, nodes: map[string]int{}, hosts: hosts}
	p.setCapTypes()
	np.Status = poolProvisioning
	setEtag(np)
	c.pools[np.Name] = p
	c.order = append(c.order, np.Name)

	op := s.newPoolOperation(q, c, MethodNodePoolsCreate, opCreateNodePool, np.Name, s.sc.Durations.PoolCreate)
	failure := s.takeOpFailure(MethodNodePoolsCreate)
	want := map[string]int{}
	for _, z := range np.Locations {
		want[z] = int(np.InitialNodeCount)
	}
	var plan capacityPlan
	if failure == nil {
		plan = s.planNodes(c, p, want)
	}
	op.finish = func(op *operation, now time.Time) {
		if c.pools[np.Name] != p {
			s.releasePlan(p, plan)
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "The node pool was deleted while it was being created."}
			return
		}
		if failure != nil {
			p.base, np.Status = poolError, poolError
			np.StatusMessage = failure.Message
			op.err, op.statusMessage = failure, failure.Message
			setEtag(np)
			return
		}
		s.applyPlan(c, p, plan, op, now)
		setEtag(np)
	}
	s.logPool(c, np.Name, PoolProvisioning, s.clock.Now())
	return s.gkeOpJSON(op), nil
}

func (s *Server) gkePoolsDelete(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError) {
	if err := s.admit(c, p.np.Name, opDeleteNodePool); err != nil {
		return nil, err
	}
	p.np.Status = poolStopping
	setEtag(p.np)
	s.logPool(c, p.np.Name, PoolStopping, s.clock.Now())
	op := s.newPoolOperation(q, c, MethodNodePoolsDelete, opDeleteNodePool, p.np.Name, s.sc.Durations.PoolDelete)
	failure := s.takeOpFailure(MethodNodePoolsDelete)
	op.finish = func(op *operation, now time.Time) {
		if c.pools[p.np.Name] != p {
			return // already gone (deleted out of band)
		}
		if failure != nil {
			p.np.Status = p.base
			op.err, op.statusMessage = failure, failure.Message
			setEtag(p.np)
			s.logPool(c, p.np.Name, p.base, now)
			return
		}
		s.removePool(c, p)
		s.logPool(c, p.np.Name, PoolDeleted, now)
	}
	return s.gkeOpJSON(op), nil
}

func (s *Server) logPool(c *gkeCluster, pool, status string, at time.Time) {
	s.gke.poolEvents = append(s.gke.poolEvents, PoolEvent{Pool: c.key + "/nodePools/" + pool, Status: status, At: at})
}

// removePool deletes a pool and gives its capacity back.
func (s *Server) removePool(c *gkeCluster, p *gkePool) {
	for z, n := range p.nodes {
		s.releasePool(p, z, n)
	}
	delete(c.pools, p.np.Name)
	c.order = slices.DeleteFunc(c.order, func(n string) bool { return n == p.np.Name })
}

// copyPool deep-copies a node pool.
func copyPool(np *container.NodePool) *container.NodePool {
	return deepCopy(np, &container.NodePool{Name: np.Name})
}

// setEtag recomputes a pool's etag from its content.
func setEtag(np *container.NodePool) {
	np.Etag = ""
	b, _ := json.Marshal(np)
	h := fnv.New64a()
	_, _ = h.Write(b)
	np.Etag = fmt.Sprintf("%016x", h.Sum64())
}

// GKEAdditions switches off what GKE adds to a node pool's config by itself.
// The zero value keeps every addition on, as GKE does.
type GKEAdditions struct {
	// SkipGPUTaint stops adding nvidia.com/gpu=present:NO_SCHEDULE to GPU pools.
	SkipGPUTaint bool `json:"skipGpuTaint,omitempty"`
	// SkipTPUTaint stops adding google.com/tpu=present:NO_SCHEDULE to TPU pools.
	SkipTPUTaint bool `json:"skipTpuTaint,omitempty"`
	// SkipProvisioningModelLabel stops adding the resource label
	// goog-gke-node-pool-provisioning-model.
	SkipProvisioningModelLabel bool `json:"skipProvisioningModelLabel,omitempty"`
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"slices"
	"sort"
	"time"

	container "google.golang.org/api/container/v1"
)

// Cluster operation types of the GKE v1 Operation.Type enum
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.operations#Type).
const (
	opCreateCluster = "CREATE_CLUSTER"
	opDeleteCluster = "DELETE_CLUSTER"
	// Cluster.Status values while those run
	// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters#Status).
	clusterProvisioning = "PROVISIONING"
	clusterStopping     = "STOPPING"
)

// gkeClustersCreate serves projects.locations.clusters.create: the request
// body is a CreateClusterRequest, the answer a CREATE_CLUSTER operation, and
// the cluster is PROVISIONING until the operation is done. Node pools come
// from cluster.nodePools, or a "default-pool" from initialNodeCount and
// nodeConfig. Locations default to the location itself for a zonal cluster
// and to up to three zones of the region for a regional one; the version
// defaults to the newest version of the scenario's clusters.
func (s *Server) gkeClustersCreate(q *gkeRequest) (any, *apiError) {
	var in container.CreateClusterRequest
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	cl := in.Cluster
	if cl == nil {
		return nil, s.gkeInvalid("Invalid value for field \"cluster\": must be set.")
	}
	if !poolNameRE.MatchString(cl.Name) {
		return nil, s.gkeInvalid("Invalid value for field \"cluster.name\": %q. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)' (only alphanumerics and '-' allowed, must start with a letter and end with an alphanumeric, and must be no longer than 40 characters).", cl.Name)
	}
	s.ensureProject(q.project)
	key := "projects/" + q.project + "/locations/" + q.location + "/clusters/" + cl.Name
	if _, ok := s.clusters[key]; ok {
		return nil, newError(statusAlreadyExists, "Already exists: %s.", key).with(requestInfo(s.requestID()))
	}
	zones := s.zonesOf(q.location)
	if len(zones) == 0 {
		return nil, s.gkeInvalid("Location %q is not a region or zone of this emulator's scenario.", q.location)
	}
	seed := ClusterSeed{Project: q.project, Location: q.location, Name: cl.Name, Version: cl.InitialClusterVersion, Locations: cl.Locations}
	switch seed.Version {
	case "", "-", "latest":
		seed.Version = s.newestClusterVersion()
	}
	if !validVersion(seed.Version) {
		return nil, s.gkeInvalid("Invalid value for field \"cluster.initial_cluster_version\": %q. Use a version such as 1.33.5-gke.1000000, \"latest\" or leave it out.", cl.InitialClusterVersion)
	}
	if len(seed.Locations) == 0 {
		seed.Locations = zones[:min(3, len(zones))]
	}
	for _, l := range seed.Locations {
		if !slices.Contains(zones, l) {
			return nil, s.gkeInvalid("Invalid value for field \"cluster.locations\": %q is not a zone of %s; use %v.", l, q.location, zones)
		}
	}
	seed.Autopilot = cl.Autopilot != nil && cl.Autopilot.Enabled
	if seed.Autopilot && (len(cl.NodePools) > 0 || cl.InitialNodeCount > 0 || cl.Autoscaling != nil && cl.Autoscaling.EnableNodeAutoprovisioning) {
		return nil, s.gkeInvalid("Invalid value for field \"cluster\": an Autopilot cluster takes no node pools, initial node count or node auto-provisioning settings; GKE manages its nodes.")
	}
	if problem := autoscalingProblem(cl.Autoscaling); problem != "" {
		return nil, s.gkeInvalid("%s", problem)
	}
	if !seed.Autopilot {
		seed.Autoscaling = cl.Autoscaling
	}
	seed.NodePools = cl.NodePools
	if len(seed.NodePools) == 0 && cl.InitialNodeCount > 0 {
		seed.NodePools = []*container.NodePool{{Name: "default-pool", InitialNodeCount: cl.InitialNodeCount, Config: cl.NodeConfig}}
	}
	for _, np := range seed.NodePools {
		if np == nil || !poolNameRE.MatchString(np.Name) {
			return nil, s.gkeInvalid("Invalid value for field \"cluster.node_pools.name\": every node pool needs a name of lowercase letters, digits and '-'.")
		}
		if len(np.Locations) == 0 {
			np.Locations = slices.Clone(seed.Locations)
		}
	}
	s.seedCluster(q.project, seed)
	c := s.clusters[key]
	c.c.CreateTime = rfc3339(q.now)
	op := s.newOperation(apiContainer, MethodClustersCreate, q.project, q.location, s.sc.Durations.ClusterCreate, q.now)
	op.opType = opCreateCluster
	op.clusterKey = key
	op.targetLink = s.url + "/v1/" + key
	return s.gkeOpJSON(op), nil
}

// gkeClustersDelete serves projects.locations.clusters.delete: a
// DELETE_CLUSTER operation during which the cluster is STOPPING; when it is
// done the cluster and its node pools are gone and their capacity is free.
func (s *Server) gkeClustersDelete(q *gkeRequest, name string) (any, *apiError) {
	c, err := s.getCluster(q.project, q.location, name)
	if err != nil {
		return nil, err
	}
	if running := s.runningOps(c.key); len(running) > 0 {
		return nil, incompatible(running[0])
	}
	op := s.newOperation(apiContainer, MethodClustersDelete, q.project, q.location, s.sc.Durations.ClusterDelete, q.now)
	op.opType = opDeleteCluster
	op.clusterKey = c.key
	op.targetLink = s.url + "/v1/" + c.key
	op.finish = func(*operation, time.Time) {
		if s.clusters[c.key] != c {
			return
		}
		for _, p := range c.pools {
			s.removePool(c, p)
		}
		delete(s.clusters, c.key)
	}
	return s.gkeOpJSON(op), nil
}

// clusterStatus is the Cluster.status shown while op runs on the cluster.
func clusterStatus(op *operation) string {
	switch {
	case op == nil:
		return poolRunning
	case op.opType == opCreateCluster:
		return clusterProvisioning
	case op.opType == opDeleteCluster:
		return clusterStopping
	}
	return poolReconciling
}

// zonesOf lists the scenario's zones in a region, or the zone itself.
func (s *Server) zonesOf(location string) []string {
	var out []string
	for _, z := range s.sc.Zones {
		if z.Name == location || regionOf(z.Name) == location {
			out = append(out, z.Name)
		}
	}
	sort.Strings(out)
	return out
}

// newestClusterVersion is the newest control plane version of the
// scenario's clusters, the version a create without one gets.
func (s *Server) newestClusterVersion() string {
	newest := ""
	for _, c := range s.sc.Clusters {
		if newest == "" || compareVersions(c.Version, newest) > 0 {
			newest = c.Version
		}
	}
	return newest
}

// AddCluster adds a GKE cluster of one project at once, out of band, as if it
// had been created outside this emulator. The seed takes the scenario's
// cluster form, with a project.
func (s *Server) AddCluster(seed ClusterSeed) error {
	if seed.Project == "" || seed.Project == "*" {
		return fmt.Errorf("AddCluster: cluster %q needs a project", seed.Name)
	}
	if err := (&Scenario{Clusters: []ClusterSeed{seed}}).validateClusters(); err != nil {
		return fmt.Errorf("AddCluster: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
	s.ensureProject(seed.Project)
	key := "projects/" + seed.Project + "/locations/" + seed.Location + "/clusters/" + seed.Name
	if _, ok := s.clusters[key]; ok {
		return fmt.Errorf("AddCluster: %s already exists", key)
	}
	s.seedCluster(seed.Project, seed)
	return nil
}

// clusterAutoscaling is Cluster.autoscaling of a new cluster: the seed's,
// copied; an Autopilot cluster reports node auto-provisioning on with the
// optimize-utilization profile, as GKE manages its nodes.
func clusterAutoscaling(seed ClusterSeed) *container.ClusterAutoscaling {
	if seed.Autopilot {
		return &container.ClusterAutoscaling{EnableNodeAutoprovisioning: true, AutoscalingProfile: "OPTIMIZE_UTILIZATION"}
	}
	if seed.Autoscaling == nil {
		return &container.ClusterAutoscaling{}
	}
	a := *seed.Autoscaling
	a.ResourceLimits = make([]*container.ResourceLimit, 0, len(seed.Autoscaling.ResourceLimits))
	for _, l := range seed.Autoscaling.ResourceLimits {
		if l != nil {
			c := *l
			a.ResourceLimits = append(a.ResourceLimits, &c)
		}
	}
	a.AutoprovisioningLocations = slices.Clone(a.AutoprovisioningLocations)
	return &a
}

// autoscalingProblem checks Cluster.autoscaling as GKE's node
// auto-provisioning page states it: enabling it takes CPU and memory
// limits, and every limit names a resource type with a maximum no lower
// than its minimum. It returns what is wrong, "" when nothing is.
func autoscalingProblem(a *container.ClusterAutoscaling) string {
	if a == nil {
		return ""
	}
	seen := map[string]bool{}
	for _, l := range a.ResourceLimits {
		if l == nil || l.ResourceType == "" {
			return "Invalid value for field \"cluster.autoscaling.resource_limits.resource_type\": every resource limit needs a resource type (cpu, memory, or an accelerator type such as nvidia-l4)."
		}
		if l.Maximum < l.Minimum || l.Minimum < 0 {
			return fmt.Sprintf("Invalid value for field \"cluster.autoscaling.resource_limits\": the limit of %q has maximum %d below minimum %d.", l.ResourceType, l.Maximum, l.Minimum)
		}
		seen[l.ResourceType] = true
	}
	if a.EnableNodeAutoprovisioning && (!seen["cpu"] || !seen["memory"]) {
		return "Invalid value for field \"cluster.autoscaling.resource_limits\": node auto-provisioning needs cpu and memory limits."
	}
	return ""
}

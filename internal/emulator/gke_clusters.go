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
		return nil, s.gkeInvalid("Invalid value for field \"cluster.name\": %q. Must be a match of regex '"+gkeNamePattern+"' "+gkeNameRule+".", cl.Name)
	}
	s.ensureProject(q.project)
	key := "projects/" + q.project + "/locations/" + q.location + "/clusters/" + cl.Name
	if _, ok := s.gke.clusters[key]; ok {
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
	c := s.gke.clusters[key]
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
		if s.gke.clusters[c.key] != c {
			return
		}
		for _, p := range c.pools {
			s.removePool(c, p)
		}
		delete(s.gke.clusters, c.key)
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

// renderCluster returns the cluster as the API shows it.
func (s *Server) renderCluster(c *gkeCluster) *container.Cluster {
	out := *c.c
	out.Status = clusterStatus(s.clusterLevelOp(c.key))
	out.NodePools = nil
	for _, name := range c.order {
		out.NodePools = append(out.NodePools, c.pools[name].np)
	}
	return &out
}

func (s *Server) gkeClustersList(q *gkeRequest) (any, *apiError) {
	s.ensureProject(q.project)
	var keys []string
	for k, c := range s.gke.clusters {
		if c.project == q.project && (q.location == "-" || c.location == q.location) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := &container.ListClustersResponse{Clusters: []*container.Cluster{}}
	for _, k := range keys {
		out.Clusters = append(out.Clusters, s.renderCluster(s.gke.clusters[k]))
	}
	return out, nil
}

func (s *Server) gkeClustersGet(q *gkeRequest, name string) (any, *apiError) {
	c, err := s.getCluster(q.project, q.location, name)
	if err != nil {
		return nil, err
	}
	return s.renderCluster(c), nil
}

// ClusterSeed is a GKE cluster that exists from the start.
type ClusterSeed struct {
	// Project of the cluster; empty or "*" seeds it in every project.
	Project string `json:"project,omitempty"`
	// Location is a region (regional cluster) or a zone (zonal cluster).
	Location string `json:"location"`
	// Name of the cluster.
	Name string `json:"name"`
	// Version is the control plane version, such as "1.33.5-gke.1000000".
	Version string `json:"version"`
	// NodeVersion is the default node version; empty means Version.
	NodeVersion string `json:"nodeVersion,omitempty"`
	// Locations are the zones of the cluster's nodes.
	Locations []string `json:"locations"`
	// NodePools that exist from the start, such as a default pool.
	NodePools []*container.NodePool `json:"nodePools,omitempty"`
	// Autopilot makes it an Autopilot cluster (Cluster.autopilot.enabled):
	// GKE manages its nodes, and nodePools.create is refused.
	Autopilot bool `json:"autopilot,omitempty"`
	// Autoscaling is the cluster's Cluster.autoscaling: node
	// auto-provisioning and its resource limits (Standard clusters).
	Autoscaling *container.ClusterAutoscaling `json:"autoscaling,omitempty"`
}

// validateClusters checks the seeded clusters of a scenario.
func (sc *Scenario) validateClusters() error {
	seen := map[string]bool{}
	for _, c := range sc.Clusters {
		if c.Name == "" || c.Location == "" || c.Version == "" {
			return fmt.Errorf("cluster %q needs a name, a location and a version", c.Name)
		}
		if !validVersion(c.Version) {
			return fmt.Errorf("cluster %s: version %q is not of the form 1.33.5-gke.1000000", c.Name, c.Version)
		}
		if c.NodeVersion != "" && !validVersion(c.NodeVersion) {
			return fmt.Errorf("cluster %s: node version %q is not of the form 1.33.5-gke.1000000", c.Name, c.NodeVersion)
		}
		key := c.Project + "/" + c.Location + "/" + c.Name
		if seen[key] {
			return fmt.Errorf("cluster %s in %s listed twice", c.Name, c.Location)
		}
		seen[key] = true
		if len(c.Locations) == 0 {
			return fmt.Errorf("cluster %s has no node locations", c.Name)
		}
		for _, l := range c.Locations {
			if regionOf(l) != regionOf(c.Location) {
				return fmt.Errorf("cluster %s: node location %s is outside %s", c.Name, l, regionOf(c.Location))
			}
		}
		for _, np := range c.NodePools {
			if np == nil || !poolNameRE.MatchString(np.Name) {
				return fmt.Errorf("cluster %s: seeded node pool without a valid name", c.Name)
			}
		}
		if c.Autopilot && (len(c.NodePools) > 0 || c.Autoscaling != nil) {
			return fmt.Errorf("cluster %s: an Autopilot cluster takes no node pools or autoscaling settings", c.Name)
		}
		if problem := autoscalingProblem(c.Autoscaling); problem != "" {
			return fmt.Errorf("cluster %s: %s", c.Name, problem)
		}
	}
	return nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

// NodePoolInfo is a snapshot of one GKE node pool for assertions.
type NodePoolInfo struct {
	// Name is the full resource name,
	// projects/P/locations/L/clusters/C/nodePools/NP.
	Name     string              `json:"name"`
	NodePool *container.NodePool `json:"nodePool"`
	// NodesPerZone is the number of running nodes per zone.
	NodesPerZone map[string]int `json:"nodesPerZone"`
}

// NodePools returns copies of every node pool of every materialized
// cluster (a project's seeded clusters appear once the project is used),
// sorted by name.
func (s *Server) NodePools() []NodePoolInfo {
	defer s.settled()()
	var out []NodePoolInfo
	for key, c := range s.gke.clusters {
		for _, name := range c.order {
			p := c.pools[name]
			nodes := map[string]int{}
			for z, n := range p.nodes {
				nodes[z] = n
			}
			out = append(out, NodePoolInfo{Name: key + "/nodePools/" + name, NodePool: copyPool(p.np), NodesPerZone: nodes})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DeleteNodePool removes a GKE node pool at once, out of band. name is
// projects/P/locations/L/clusters/C/nodePools/NP.
func (s *Server) DeleteNodePool(name string) error {
	segs := strings.Split(name, "/")
	if len(segs) != 8 || segs[0] != "projects" || segs[2] != "locations" || segs[4] != "clusters" || segs[6] != "nodePools" {
		return fmt.Errorf("DeleteNodePool: %q is not projects/P/locations/L/clusters/C/nodePools/NP", name)
	}
	defer s.settled()()
	c, aerr := s.getCluster(segs[1], segs[3], segs[5])
	if aerr != nil {
		return fmt.Errorf("DeleteNodePool: %w", aerr)
	}
	p, ok := c.pools[segs[7]]
	if !ok {
		return fmt.Errorf("DeleteNodePool: no node pool %s", name)
	}
	s.removePool(c, p)
	return nil
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
	defer s.settled()()
	s.ensureProject(seed.Project)
	key := "projects/" + seed.Project + "/locations/" + seed.Location + "/clusters/" + seed.Name
	if _, ok := s.gke.clusters[key]; ok {
		return fmt.Errorf("AddCluster: %s already exists", key)
	}
	s.seedCluster(seed.Project, seed)
	return nil
}

// The events of PoolEvent: a pool's statuses (the container v1 NodePool
// status values) and its deletion.
const (
	PoolProvisioning = poolProvisioning
	PoolRunning      = poolRunning
	PoolStopping     = poolStopping
	PoolDeleted      = "DELETED"
)

// PoolEvent is one change of a node pool's life, at the emulator's time:
// created (PROVISIONING), serving (RUNNING), being deleted (STOPPING),
// deleted (DELETED), or back to its status after a failed delete.
type PoolEvent struct {
	// Pool is projects/P/locations/L/clusters/C/nodePools/N.
	Pool   string
	Status string
	At     time.Time
}

// PoolEvents returns the node pool events so far, in the order of their
// times (operations finish when a call observes them, so the log is sorted
// by time, not by when an event was noticed): what a test reads to check
// that, at every moment, a pool of a class was serving.
func (s *Server) PoolEvents() []PoolEvent {
	defer s.settled()()
	out := slices.Clone(s.gke.poolEvents)
	slices.SortStableFunc(out, func(a, b PoolEvent) int { return a.At.Compare(b.At) })
	return out
}

// gkeAdminVerbs are the admin API's GKE endpoints (adminVerbs).
var gkeAdminVerbs = []adminVerb{
	{verb: "node-pools", serve: func(s *Server, _ *adminCall) (any, error) { return s.NodePools(), nil }},
	{post: true, verb: "hold-cluster", usage: `{"project":"p","location":"us-central1","cluster":"serving","duration":"30s"} (or "untilMethod":"container.operations.get","untilCalls":1: until 1 more such call)`,
		serve: adminJSONVerb((*Server).adminHoldCluster)},
	{post: true, verb: "add-cluster", usage: `{"project":"p","location":"us-central1","name":"c","version":"1.33.5-gke.1000000","locations":["us-central1-a"]} (the scenario's cluster form)`,
		serve: adminJSONVerb(func(s *Server, seed *ClusterSeed) (any, error) { return adminOK(s.AddCluster(*seed)) })},
	{post: true, verb: "delete-node-pool", usage: `{"name":"projects/p/locations/us-central1/clusters/serving/nodePools/np"}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.DeleteNodePool(a.Name) })},
}

// adminHoldCluster starts a hold for a duration, or until a number of calls
// were counted, and answers its operation.
func (s *Server) adminHoldCluster(a *adminRequest) (any, error) {
	var id string
	var err error
	if a.UntilCalls > 0 || a.UntilMethod != "" {
		id, err = s.HoldClusterUntilCalls(a.Project, a.Location, a.Cluster, a.UntilMethod, a.UntilCalls)
	} else {
		d, perr := time.ParseDuration(a.Duration)
		if perr != nil {
			return nil, fmt.Errorf("hold-cluster duration: %w", perr)
		}
		id, err = s.HoldCluster(a.Project, a.Location, a.Cluster, d)
	}
	if err != nil {
		return nil, err
	}
	return map[string]string{"operation": id}, nil
}

type snapshotCluster struct {
	Project  string             `json:"project"`
	Location string             `json:"location"`
	Cluster  *container.Cluster `json:"cluster"`
	Pools    []snapshotPool     `json:"pools"`
}

type snapshotPool struct {
	Pool    *container.NodePool `json:"pool"`
	Nodes   map[string]int      `json:"nodes"`
	CapType string              `json:"capType"`
	Hosts   int                 `json:"hosts"`
	Base    string              `json:"base"`
}

// gkeSnapshot is the GKE part of a snapshot: the clusters with their
// pools, sorted by selfLink.
func (s *Server) gkeSnapshot() []snapshotCluster {
	var out []snapshotCluster
	for _, c := range s.gke.clusters {
		sc := snapshotCluster{Project: c.project, Location: c.location, Cluster: c.c}
		for _, name := range c.order {
			p := c.pools[name]
			sc.Pools = append(sc.Pools, snapshotPool{Pool: p.np, Nodes: p.nodes, CapType: p.capType, Hosts: p.hosts, Base: p.base})
		}
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Cluster.SelfLink < out[j].Cluster.SelfLink })
	return out
}

// loadGKESnapshot restores the clusters of a snapshot, settling the pools
// caught mid-operation (see LoadSnapshot).
func (s *Server) loadGKESnapshot(clusters []snapshotCluster) {
	for _, sc := range clusters {
		if sc.Cluster == nil {
			continue
		}
		s.gke.materialized[sc.Project] = true
		key := "projects/" + sc.Project + "/locations/" + sc.Location + "/clusters/" + sc.Cluster.Name
		c := &gkeCluster{key: key, project: sc.Project, location: sc.Location, c: sc.Cluster, pools: map[string]*gkePool{}}
		for _, sp := range sc.Pools {
			if sp.Pool == nil || sp.Pool.Status == poolStopping {
				continue
			}
			p := s.loadSnapshotPool(sp)
			c.pools[p.np.Name] = p
			c.order = append(c.order, p.np.Name)
		}
		s.gke.clusters[key] = c
	}
}

// loadSnapshotPool restores one pool: a PROVISIONING pool gets its
// initial nodes, a RECONCILING one its status outside operations.
func (s *Server) loadSnapshotPool(sp snapshotPool) *gkePool {
	p := &gkePool{np: sp.Pool, nodes: sp.Nodes, capType: sp.CapType, hosts: sp.Hosts, base: sp.Base}
	if p.np.Config != nil {
		p.capMachine = p.np.Config.MachineType
	}
	if p.nodes == nil {
		p.nodes = map[string]int{}
	}
	if p.np.Status == poolProvisioning {
		for _, z := range p.np.Locations {
			p.nodes[z] = int(p.np.InitialNodeCount)
		}
		p.base = poolRunning
	}
	if p.base == "" {
		p.base = poolRunning
	}
	p.np.Status = p.base
	for z, n := range p.nodes {
		s.reservePool(p, z, n)
	}
	setEtag(p.np)
	return p
}

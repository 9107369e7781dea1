// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	container "google.golang.org/api/container/v1"
)

// GKE node-pool statuses and operation values, from the container v1 REST
// reference (NodePool.Status, Operation.Status, Operation.OperationType).
const (
	poolProvisioning     = "PROVISIONING"
	poolRunning          = "RUNNING"
	poolRunningWithError = "RUNNING_WITH_ERROR"
	poolReconciling      = "RECONCILING"
	poolStopping         = "STOPPING"
	poolError            = "ERROR"

	opRunning = "RUNNING"
	opDone    = "DONE"

	opCreateNodePool = "CREATE_NODE_POOL"
	opDeleteNodePool = "DELETE_NODE_POOL"
	opUpdateNodePool = "UPDATE_NODE_POOL"
	opSetSize        = "SET_NODE_POOL_SIZE"
	opSetManagement  = "SET_NODE_POOL_MANAGEMENT"
	// The v1 OperationType enum has no autoscaling value; autoscaling
	// changes are cluster updates (ClusterUpdate.desiredNodePoolAutoscaling).
	// Assumption: setAutoscaling reports UPDATE_CLUSTER.
	opSetAutoscaling = "UPDATE_CLUSTER"
)

// gkeCluster is a seeded cluster with its node pools.
type gkeCluster struct {
	key      string // projects/p/locations/l/clusters/c
	project  string
	location string
	c        *container.Cluster // without NodePools and Status
	pools    map[string]*gkePool
	order    []string
}

// gkePool is a node pool and the emulator's bookkeeping for it.
type gkePool struct {
	np *container.NodePool
	// nodes holds the running node count per zone; those nodes hold capacity.
	nodes map[string]int
	// capType is the capacity type: the machine type or the GPU type.
	capType string
	// capMachine is the machine type, also counted against capacity when
	// capType is a GPU type, so that a stockout set by machine type applies
	// to machine types with built-in GPUs (g2-standard-8, a3-highgpu-8g).
	capMachine string
	// hosts is the VM count of one multi-host TPU slice; 0 otherwise.
	hosts int
	// base is the status outside operations.
	base string
}

// gkeRequest carries one parsed GKE API request.
type gkeRequest struct {
	*request
	project  string
	location string // a region or zone; the zone of the projects/*/zones/* form
}

// gkeNotFound is GKE's 404, as in "Not found: projects/x/locations/l/clusters/c.".
func (s *Server) gkeNotFound(name string) *apiError {
	return newError(statusNotFound, "Not found: %s.", name).with(requestInfo(s.requestID()))
}

func (s *Server) gkeInvalid(format string, args ...any) *apiError {
	return newError(statusInvalidArgument, format, args...).with(requestInfo(s.requestID()))
}

// ensureProject creates the seeded clusters of a project on first use.
func (s *Server) ensureProject(project string) {
	if s.gke.materialized[project] {
		return
	}
	s.gke.materialized[project] = true
	for _, seed := range s.sc.Clusters {
		if seed.Project != "" && seed.Project != "*" && seed.Project != project {
			continue
		}
		s.seedCluster(project, seed)
	}
}

func (s *Server) seedCluster(project string, seed ClusterSeed) {
	key := "projects/" + project + "/locations/" + seed.Location + "/clusters/" + seed.Name
	nodeVersion := seed.NodeVersion
	if nodeVersion == "" {
		nodeVersion = seed.Version
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	sum := h.Sum64()
	c := &gkeCluster{
		key:      key,
		project:  project,
		location: seed.Location,
		pools:    map[string]*gkePool{},
		c: &container.Cluster{
			Name:                  seed.Name,
			Location:              seed.Location,
			Zone:                  seed.Location,
			Locations:             slices.Clone(seed.Locations),
			CurrentMasterVersion:  seed.Version,
			CurrentNodeVersion:    nodeVersion,
			InitialClusterVersion: seed.Version,
			CreateTime:            rfc3339(s.clock.Now().Add(-30 * 24 * time.Hour)),
			Endpoint:              fmt.Sprintf("34.%d.%d.%d", 100+sum%100, sum>>8%250, sum>>16%250+2),
			Id:                    fmt.Sprintf("%016x%016x", sum, sum^0x9e3779b97f4a7c15),
			Network:               "default",
			Subnetwork:            "default",
			ClusterIpv4Cidr:       "10.52.0.0/14",
			ServicesIpv4Cidr:      "34.118.224.0/20",
			ReleaseChannel:        &container.ReleaseChannel{Channel: "REGULAR"},
			SelfLink:              s.url + "/v1/" + key,
			Autopilot:             &container.Autopilot{Enabled: seed.Autopilot},
			Autoscaling:           clusterAutoscaling(seed),
		},
	}
	s.gke.clusters[key] = c
	for _, seedPool := range seed.NodePools {
		np := copyPool(seedPool)
		s.poolDefaults(c, np)
		np.Status = poolRunning
		p := &gkePool{np: np, nodes: map[string]int{}, base: poolRunning}
		p.setCapTypes()
		for _, z := range np.Locations {
			p.nodes[z] = int(np.InitialNodeCount)
			s.reservePool(p, z, p.nodes[z])
		}
		setEtag(np)
		c.pools[np.Name] = p
		c.order = append(c.order, np.Name)
	}
}

// getCluster finds a cluster. Zonal-form requests name the zone as location.
func (s *Server) getCluster(project, location, name string) (*gkeCluster, *apiError) {
	s.ensureProject(project)
	key := "projects/" + project + "/locations/" + location + "/clusters/" + name
	c, ok := s.gke.clusters[key]
	if !ok {
		return nil, s.gkeNotFound(key)
	}
	return c, nil
}

func (s *Server) lookupPool(q *gkeRequest, cluster, pool string) (*gkeCluster, *gkePool, *apiError) {
	c, err := s.getCluster(q.project, q.location, cluster)
	if err != nil {
		return nil, nil, err
	}
	p, ok := c.pools[pool]
	if !ok {
		return nil, nil, s.gkeNotFound(c.key + "/nodePools/" + pool)
	}
	return c, p, nil
}

// gkeState is the GKE API's part of the server's state.
type gkeState struct {
	clusters map[string]*gkeCluster
	// materialized are the projects whose seeded clusters exist.
	materialized map[string]bool
	// poolEvents logs node pool status changes (PoolEvents).
	poolEvents []PoolEvent
}

func newGKEState() gkeState {
	return gkeState{clusters: map[string]*gkeCluster{}, materialized: map[string]bool{}}
}

// GKE API method names, used by the fault controls and the counters.
const (
	MethodClustersList            = "container.clusters.list"
	MethodClustersGet             = "container.clusters.get"
	MethodClustersCreate          = "container.clusters.create"
	MethodClustersDelete          = "container.clusters.delete"
	MethodNodePoolsCreate         = "container.nodePools.create"
	MethodNodePoolsList           = "container.nodePools.list"
	MethodNodePoolsGet            = "container.nodePools.get"
	MethodNodePoolsUpdate         = "container.nodePools.update"
	MethodNodePoolsDelete         = "container.nodePools.delete"
	MethodNodePoolsSetSize        = "container.nodePools.setSize"
	MethodNodePoolsSetAutoscaling = "container.nodePools.setAutoscaling"
	MethodNodePoolsSetManagement  = "container.nodePools.setManagement"
	MethodContainerOperationsList = "container.operations.list"
	MethodContainerOperationsGet  = "container.operations.get"
	methodHoldCluster             = "admin.holdCluster"
)

// gkeMethods are the GKE methods (methodNames).
var gkeMethods = []string{
	MethodClustersList, MethodClustersGet, MethodClustersCreate, MethodClustersDelete,
	MethodNodePoolsCreate, MethodNodePoolsList, MethodNodePoolsGet, MethodNodePoolsUpdate,
	MethodNodePoolsDelete, MethodNodePoolsSetSize, MethodNodePoolsSetAutoscaling,
	MethodNodePoolsSetManagement,
	MethodContainerOperationsList, MethodContainerOperationsGet,
}

// gkeOperationMethods are the GKE methods that start an operation
// (operationMethods) and take injected operation failures; the
// operations of clusters.create and clusters.delete take none.
var gkeOperationMethods = []string{
	MethodNodePoolsCreate, MethodNodePoolsUpdate, MethodNodePoolsDelete, MethodNodePoolsSetSize,
	MethodNodePoolsSetAutoscaling, MethodNodePoolsSetManagement,
}

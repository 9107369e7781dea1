// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
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

// poolNameRE is GKE's node-pool name rule, quoted in its own 400 answer.
var poolNameRE = regexp.MustCompile(`^(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)$`)

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

// routeContainer maps a /v1/ path to its method and handler. Both the
// projects/*/locations/* and the deprecated projects/*/zones/* forms are
// accepted.
func (s *Server) routeContainer(r *http.Request, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) < 5 || segs[0] != "projects" || (segs[2] != "locations" && segs[2] != "zones") {
		return "", "", nil
	}
	project := segs[1]
	gr := func(req *request) *gkeRequest {
		return &gkeRequest{request: req, project: project, location: segs[3]}
	}
	m := r.Method
	h := func(method string, f func(q *gkeRequest) (any, *apiError)) (string, string, handler) {
		return method, project, func(req *request) (any, *apiError) { return f(gr(req)) }
	}
	switch {
	case len(segs) == 5 && segs[4] == "clusters" && m == http.MethodGet:
		return h(MethodClustersList, s.gkeClustersList)
	case len(segs) == 5 && segs[4] == "clusters" && m == http.MethodPost:
		return h(MethodClustersCreate, s.gkeClustersCreate)
	case len(segs) == 5 && segs[4] == "operations" && m == http.MethodGet:
		return h(MethodContainerOperationsList, s.gkeOperationsList)
	case len(segs) == 6 && segs[4] == "operations" && m == http.MethodGet && !strings.Contains(segs[5], ":"):
		return h(MethodContainerOperationsGet, func(q *gkeRequest) (any, *apiError) { return s.gkeOperationsGet(q, segs[5]) })
	case len(segs) < 6 || segs[4] != "clusters" || strings.Contains(segs[5], ":"):
		return "", "", nil
	}
	cluster := segs[5]
	switch {
	case len(segs) == 6 && m == http.MethodGet:
		return h(MethodClustersGet, func(q *gkeRequest) (any, *apiError) { return s.gkeClustersGet(q, cluster) })
	case len(segs) == 6 && m == http.MethodDelete:
		return h(MethodClustersDelete, func(q *gkeRequest) (any, *apiError) { return s.gkeClustersDelete(q, cluster) })
	case len(segs) == 7 && segs[6] == "nodePools" && m == http.MethodGet:
		return h(MethodNodePoolsList, func(q *gkeRequest) (any, *apiError) { return s.gkePoolsList(q, cluster) })
	case len(segs) == 7 && segs[6] == "nodePools" && m == http.MethodPost:
		return h(MethodNodePoolsCreate, func(q *gkeRequest) (any, *apiError) { return s.gkePoolsCreate(q, cluster) })
	case len(segs) < 8 || segs[6] != "nodePools":
		return "", "", nil
	}
	pool, verb, _ := strings.Cut(segs[7], ":")
	if len(segs) == 9 && verb == "" && m == http.MethodPost {
		// zonal form: .../nodePools/{pool}/setSize, /autoscaling, /setManagement, /update
		verb = map[string]string{"setSize": "setSize", "autoscaling": "setAutoscaling", "setManagement": "setManagement", "update": "update"}[segs[8]]
		if verb == "" {
			return "", "", nil
		}
	} else if len(segs) != 8 {
		return "", "", nil
	}
	poolOp := func(method string, f func(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError)) (string, string, handler) {
		return h(method, func(q *gkeRequest) (any, *apiError) {
			c, p, err := s.lookupPool(q, cluster, pool)
			if err != nil {
				return nil, err
			}
			return f(q, c, p)
		})
	}
	switch {
	case verb == "" && m == http.MethodGet:
		return poolOp(MethodNodePoolsGet, func(_ *gkeRequest, _ *gkeCluster, p *gkePool) (any, *apiError) { return p.np, nil })
	case verb == "" && m == http.MethodPut, verb == "update" && m == http.MethodPost:
		return poolOp(MethodNodePoolsUpdate, s.gkePoolsUpdate)
	case verb == "" && m == http.MethodDelete:
		return poolOp(MethodNodePoolsDelete, s.gkePoolsDelete)
	case verb == "setSize" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetSize, s.gkePoolsSetSize)
	case verb == "setAutoscaling" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetAutoscaling, s.gkePoolsSetAutoscaling)
	case verb == "setManagement" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetManagement, s.gkePoolsSetManagement)
	}
	return "", "", nil
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
	if s.materialized[project] {
		return
	}
	s.materialized[project] = true
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
	s.clusters[key] = c
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
	c, ok := s.clusters[key]
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
	for k, c := range s.clusters {
		if c.project == q.project && (q.location == "-" || c.location == q.location) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := &container.ListClustersResponse{Clusters: []*container.Cluster{}}
	for _, k := range keys {
		out.Clusters = append(out.Clusters, s.renderCluster(s.clusters[k]))
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

// Machine-type families. TPU: ct3, ct3p, ct4p, ct5lp, ct5p, ct6e, tpu7x; GPU: a2, a3,
// a4, a4x, g2, g4 (cluster-toolkit's tpu-definition and gpu-definition
// modules, https://github.com/GoogleCloudPlatform/cluster-toolkit).
func isTPUMachine(mt string) bool {
	return strings.HasPrefix(mt, "ct") || strings.HasPrefix(mt, "tpu7")
}

func isGPUMachine(mt string) bool {
	for _, p := range []string{"a2-", "a3-", "a4-", "a4x-", "g2-", "g4-"} {
		if strings.HasPrefix(mt, p) {
			return true
		}
	}
	return false
}

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

var chipsRE = regexp.MustCompile(`-(\d+)t$`)

// tpuMachine returns the chips per VM and topology dimensions of a TPU
// machine type: 2D for v3 (ct3, ct3p), v5e (ct5lp) and v6e (ct6e), 3D for v4, v5p and TPU7x.
func tpuMachine(mt string) (chips, dims int, ok bool) {
	m := chipsRE.FindStringSubmatch(mt)
	if m == nil {
		return 0, 0, false
	}
	chips, err := strconv.Atoi(m[1])
	if err != nil || chips <= 0 {
		return 0, 0, false
	}
	dims = 3
	if strings.HasPrefix(mt, "ct5lp-") || strings.HasPrefix(mt, "ct6e-") || strings.HasPrefix(mt, "ct3") {
		dims = 2
	}
	return chips, dims, true
}

// capacityType is what a pool's nodes consume: the attached GPU type, or the
// machine type.
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

func capacityType(cfg *container.NodeConfig) string {
	for _, a := range cfg.Accelerators {
		if a != nil && a.AcceleratorType != "" && a.AcceleratorCount > 0 {
			return a.AcceleratorType
		}
	}
	return cfg.MachineType
}

// poolDefaults fills what GKE fills when a create request leaves it out.
// Defaults follow `gcloud container node-pools create`
// (https://cloud.google.com/sdk/gcloud/reference/container/node-pools/create):
// e2-medium, 100 GB pd-balanced, COS_CONTAINERD, the default service account
// and scopes, auto-repair and auto-upgrade on, surge upgrades 1/0, 110 pods
// per node.
func (s *Server) poolDefaults(c *gkeCluster, np *container.NodePool) {
	if np.Config == nil {
		np.Config = &container.NodeConfig{}
	}
	cfg := np.Config
	if cfg.MachineType == "" {
		cfg.MachineType = "e2-medium"
	}
	if cfg.DiskSizeGb == 0 {
		cfg.DiskSizeGb = 100
	}
	if cfg.DiskType == "" {
		cfg.DiskType = "pd-balanced"
	}
	if cfg.ImageType == "" {
		cfg.ImageType = "COS_CONTAINERD"
	}
	if cfg.ServiceAccount == "" {
		cfg.ServiceAccount = "default"
	}
	if len(cfg.OauthScopes) == 0 {
		cfg.OauthScopes = []string{
			"https://www.googleapis.com/auth/devstorage.read_only",
			"https://www.googleapis.com/auth/logging.write",
			"https://www.googleapis.com/auth/monitoring",
			"https://www.googleapis.com/auth/service.management.readonly",
			"https://www.googleapis.com/auth/servicecontrol",
			"https://www.googleapis.com/auth/trace.append",
		}
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
		np.MaxPodsConstraint = &container.MaxPodsConstraint{MaxPodsPerNode: 110}
	}
	if np.PodIpv4CidrSize == 0 {
		np.PodIpv4CidrSize = 24
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
		const key = "goog-gke-node-pool-provisioning-model"
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

// validatePool checks a new node pool like GKE does, modestly, and returns
// the VM count of one TPU slice (>1 for multi-host pools, else 0).
func (s *Server) validatePool(c *gkeCluster, np *container.NodePool) (int, *apiError) {
	if np.InitialNodeCount < 0 {
		return 0, s.gkeInvalid("Invalid value for field \"node_pool.initial_node_count\": %d. Must be non-negative.", np.InitialNodeCount)
	}
	if msg := checkAutoscaling(np.Autoscaling); msg != "" {
		return 0, s.gkeInvalid("%s", msg)
	}
	if err := s.checkLocationPolicy(np.Autoscaling); err != nil {
		return 0, err
	}
	if err := s.checkUpgradeSettings(np.UpgradeSettings); err != nil {
		return 0, err
	}
	if err := s.checkNodeSettings(np.Config, np.MaxPodsConstraint); err != nil {
		return 0, err
	}
	for _, a := range np.Config.Accelerators {
		if a == nil {
			continue
		}
		if why := attachedGPUProblem(np.Config.MachineType, a.AcceleratorType, a.AcceleratorCount); why != "" {
			return 0, s.gkeInvalid("%s", why)
		}
	}
	if err := s.checkNetworkConfig(np.NetworkConfig); err != nil {
		return 0, err
	}
	if err := s.checkProvisioning(np); err != nil {
		return 0, err
	}
	pp := np.PlacementPolicy
	topology, byPolicy := "", false
	if pp != nil {
		if pp.Type != "" && pp.Type != "TYPE_UNSPECIFIED" && pp.Type != "COMPACT" {
			return 0, s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.type\": %q. Supported values: COMPACT.", pp.Type)
		}
		topology = pp.TpuTopology
		if pp.PolicyName != "" {
			t, err := s.workloadTopology(c, np, pp)
			if err != nil {
				return 0, err
			}
			topology, byPolicy = t, t != ""
		}
	}
	if strings.HasPrefix(np.Config.MachineType, "tpu7") && topology != "" && !byPolicy {
		// GKE "About Ironwood (TPU7x) in GKE": multi-host TPU7x slices
		// are placed by a workload policy, which "replaces the
		// --tpu-topology flag used by other TPU versions".
		if perVM, _, ok := tpuMachine(np.Config.MachineType); ok {
			if dims, ok := parseTopology(topology); ok && product(dims) > perVM {
				return 0, s.gkeInvalid("Multi-host TPU7x node pools (topology %s on %s) need a workload policy: set placement_policy.policy_name "+
					"to a HIGH_THROUGHPUT workload policy with accelerator_topology %s, not placement_policy.tpu_topology.",
					topology, np.Config.MachineType, topology)
			}
		}
	}
	hosts, err := s.checkTPUShape(np, topology)
	if err != nil {
		return 0, err
	}
	if err := s.checkLocations(c, np.Locations, np.Config); err != nil {
		return 0, err
	}
	if err := s.checkVersion(c, np.Version, np.Config.MachineType); err != nil {
		return 0, err
	}
	if err := s.checkLocalSSD(np.Config, cmp.Or(np.Version, c.c.CurrentMasterVersion)); err != nil {
		return 0, err
	}
	return hosts, nil
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
	var validShape bool
	if wantDims == 2 {
		validShape = topology == canonicalTopology(chips, 2)
	} else {
		validShape = dims[0] <= dims[1] && dims[1] <= dims[2]
		for _, d := range dims {
			if d > 4 && d%4 != 0 {
				validShape = false
			}
		}
	}
	if !validShape || chips < perVM || chips%perVM != 0 || (chips > perVM && perVM != 4) {
		return 0, s.gkeInvalid("Invalid value for field \"node_pool.placement_policy.tpu_topology\": %q is not a valid TPU slice topology for machine type %q.", topology, mt)
	}
	hosts := chips / perVM
	if hosts == 1 {
		return 0, nil
	}
	if len(np.Locations) != 1 {
		return 0, s.gkeInvalid("Multi-host TPU node pools (topology %s on %s) must be in exactly one zone; got %d: %s.",
			topology, mt, len(np.Locations), strings.Join(np.Locations, ","))
	}
	as := np.Autoscaling
	autoscaled := as != nil && as.Enabled
	if np.InitialNodeCount != int64(hosts) && (!autoscaled || np.InitialNodeCount != 0) {
		return 0, s.gkeInvalid("Initial node count %d is not a valid size of TPU pod slice with topology %s; a slice of %s needs %d nodes.",
			np.InitialNodeCount, topology, mt, hosts)
	}
	if autoscaled {
		if as.MaxNodeCount <= 0 || as.MaxNodeCount%int64(hosts) != 0 {
			return 0, s.gkeInvalid("Maximum node count %d is not a valid size of TPU pod slice with topology %s", as.MaxNodeCount, topology)
		}
		if as.MinNodeCount%int64(hosts) != 0 {
			return 0, s.gkeInvalid("Minimum node count %d is not a valid size of TPU pod slice with topology %s", as.MinNodeCount, topology)
		}
	}
	return hosts, nil
}

// checkLocations checks node zones are in the cluster's region and offer the
// accelerator machine type and GPU types.
func (s *Server) checkLocations(c *gkeCluster, locations []string, cfg *container.NodeConfig) *apiError {
	region := regionOf(c.location)
	for _, z := range locations {
		if regionOf(z) != region || z == region {
			return s.gkeInvalid("Invalid value for field \"node_pool.locations\": zone %q is not in the cluster's region %q.", z, region)
		}
		zone := s.zone(z)
		mt := cfg.MachineType
		if (isTPUMachine(mt) || isGPUMachine(mt)) && (zone == nil || !contains(zone.MachineTypes, mt)) {
			// GKE's answer for a machine type a zone does not have.
			return s.gkeInvalid("Invalid machine type %q in zone %q: GCE_NOT_FOUND", mt, z)
		}
		for _, a := range cfg.Accelerators {
			if a == nil || a.AcceleratorType == "" {
				continue
			}
			if zone == nil || !contains(zone.MachineTypes, a.AcceleratorType) {
				// Compute Engine's answer for an accelerator type a zone lacks.
				return s.gkeInvalid("The resource 'projects/%s/zones/%s/acceleratorTypes/%s' was not found", c.project, z, a.AcceleratorType)
			}
		}
	}
	return nil
}

// resolveVersion resolves a node version alias as nodePools.create and
// update take them ("latest" and "-" are the control plane's version;
// "1.X" and "1.X.Y" the newest version they name), from the versions the
// emulator knows: the control plane's and the cluster's node version.
// Assumption: GKE's wording for an alias that names no version.
func (s *Server) resolveVersion(c *gkeCluster, v string) (string, *apiError) {
	switch {
	case v == "-" || v == "latest":
		return c.c.CurrentMasterVersion, nil
	case validVersion(v):
		return v, nil
	}
	for _, known := range []string{c.c.CurrentMasterVersion, c.c.CurrentNodeVersion} {
		if strings.HasPrefix(known, v+".") || strings.HasPrefix(known, v+"-") {
			return known, nil
		}
	}
	return "", s.gkeInvalid("No valid versions with the prefix %q found.", v)
}

// checkVersion checks a node version against the control plane and the
// scenario's minimum versions per machine type.
func (s *Server) checkVersion(c *gkeCluster, version, machineType string) *apiError {
	if !validVersion(version) {
		return s.gkeInvalid("Invalid value for field \"node_pool.version\": %q. Versions look like 1.33.5-gke.1000000.", version)
	}
	if compareVersions(version, c.c.CurrentMasterVersion) > 0 {
		return s.gkeInvalid("Node version %q must not be newer than the cluster control plane version %q.", version, c.c.CurrentMasterVersion)
	}
	var prefixes []string
	for p := range s.sc.MinNodeVersions {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	for _, p := range prefixes {
		minVersion := s.sc.MinNodeVersions[p]
		if strings.HasPrefix(machineType, p) && compareVersions(version, minVersion) < 0 {
			// Assumption: wording of GKE's minimum-version refusal.
			return s.gkeInvalid("Machine type %q requires GKE version %s or later; node version is %s.", machineType, minVersion, version)
		}
	}
	return nil
}

// checkAutoscaling returns GKE's complaint about autoscaling limits, or "".
func checkAutoscaling(as *container.NodePoolAutoscaling) string {
	if as == nil || !as.Enabled {
		return ""
	}
	if as.MinNodeCount < 0 || as.TotalMinNodeCount < 0 {
		return "Invalid value for field \"node_pool.autoscaling.min_node_count\": must be non-negative."
	}
	perZone := as.MaxNodeCount > 0 || as.MinNodeCount > 0
	total := as.TotalMaxNodeCount > 0 || as.TotalMinNodeCount > 0
	if perZone && total {
		return "Autoscaling limits must be either per zone (min/max_node_count) or total (total_min/total_max_node_count), not both."
	}
	if total {
		if as.TotalMaxNodeCount < as.TotalMinNodeCount {
			return fmt.Sprintf("Invalid value for field \"node_pool.autoscaling.total_max_node_count\": %d. Must be at least total_min_node_count (%d).", as.TotalMaxNodeCount, as.TotalMinNodeCount)
		}
		return ""
	}
	if as.MaxNodeCount < as.MinNodeCount || as.MaxNodeCount == 0 {
		return fmt.Sprintf("Invalid value for field \"node_pool.autoscaling.max_node_count\": %d. Must be positive and at least min_node_count (%d).", as.MaxNodeCount, as.MinNodeCount)
	}
	return ""
}

// clusterLevelOp returns the running cluster-level operation, if any.
func (s *Server) clusterLevelOp(key string) *operation {
	for _, op := range s.runningOps(key) {
		if op.pool == "" {
			return op
		}
	}
	return nil
}

// incompatible is GKE's refusal while another operation holds the cluster
// or the pool. Message and reason as seen from GKE (FAILED_PRECONDITION,
// "Cluster is running incompatible operation operation-….",
// CLUSTER_ALREADY_HAS_OPERATION).
func incompatible(op *operation) *apiError {
	return newError(statusFailedPrecondition, "Cluster is running incompatible operation %s.", op.id).
		with(errorInfo("CLUSTER_ALREADY_HAS_OPERATION", "container.googleapis.com", nil))
}

// admit applies the concurrency rules before a node-pool operation starts:
// one cluster-level operation at a time; one operation per node pool;
// with SerializePoolCreates, CREATE_NODE_POOL excludes every other node-pool
// operation; and the per-cluster concurrent operations quota, answered like
// GKE with 429 "Too many operations: cluster "c" hits the concurrent
// operations quota 5, please try again later." (terraform-provider-google
// issue 15205).
func (s *Server) admit(c *gkeCluster, pool, opType string) *apiError {
	running := s.runningOps(c.key)
	for _, op := range running {
		if op.pool == "" || op.pool == pool {
			return incompatible(op)
		}
	}
	if s.sc.SerializePoolCreates {
		for _, op := range running {
			if opType == opCreateNodePool || op.opType == opCreateNodePool {
				return incompatible(op)
			}
		}
	}
	if quota := s.sc.MaxConcurrentOperationsPerCluster; quota > 0 && len(running) >= quota {
		return newError(statusResourceExhausted,
			"Too many operations: cluster %q hits the concurrent operations quota %d, please try again later.", c.c.Name, quota).
			with(requestInfo(s.requestID()))
	}
	return nil
}

// newPoolOperation starts a GKE operation on a node pool.
func (s *Server) newPoolOperation(q *gkeRequest, c *gkeCluster, method, opType, pool string, d time.Duration) *operation {
	op := s.newOperation(apiContainer, method, q.project, c.location, d, q.now)
	op.opType = opType
	op.clusterKey = c.key
	op.pool = pool
	op.targetLink = s.url + "/v1/" + c.key + "/nodePools/" + pool
	return op
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
		return nil, s.gkeInvalid("Invalid value for field \"node_pool.name\": %q. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)' (only alphanumerics and '-' allowed, must start with a letter and end with an alphanumeric, and must be no longer than 40 characters).", np.Name)
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

func (s *Server) logPool(c *gkeCluster, pool, status string, at time.Time) {
	s.poolEvents = append(s.poolEvents, PoolEvent{Pool: c.key + "/nodePools/" + pool, Status: status, At: at})
}

// PoolEvents returns the node pool events so far, in the order of their
// times (operations finish when a call observes them, so the log is sorted
// by time, not by when an event was noticed): what a test reads to check
// that, at every moment, a pool of a class was serving.
func (s *Server) PoolEvents() []PoolEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
	out := slices.Clone(s.poolEvents)
	slices.SortStableFunc(out, func(a, b PoolEvent) int { return a.At.Compare(b.At) })
	return out
}

// removePool deletes a pool and gives its capacity back.
func (s *Server) removePool(c *gkeCluster, p *gkePool) {
	for z, n := range p.nodes {
		s.releasePool(p, z, n)
	}
	delete(c.pools, p.np.Name)
	c.order = slices.DeleteFunc(c.order, func(n string) bool { return n == p.np.Name })
}

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

func (s *Server) gkeOperationsList(q *gkeRequest) (any, *apiError) {
	out := &container.ListOperationsResponse{Operations: []*container.Operation{}}
	for _, op := range s.ops {
		if op.api == apiContainer && op.project == q.project && (q.location == "-" || op.location == q.location) {
			out.Operations = append(out.Operations, s.gkeOpJSON(op))
		}
	}
	return out, nil
}

func (s *Server) gkeOperationsGet(q *gkeRequest, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiContainer || op.project != q.project || op.location != q.location {
		return nil, s.gkeNotFound("projects/" + q.project + "/locations/" + q.location + "/operations/" + id)
	}
	return s.gkeOpJSON(op), nil
}

// gkeOpJSON renders a GKE operation. Its name is the bare id
// ("operation-…"); selfLink uses the project number, as GKE's does.
func (s *Server) gkeOpJSON(op *operation) *container.Operation {
	out := &container.Operation{
		Name:          op.id,
		OperationType: op.opType,
		Status:        opRunning,
		SelfLink:      s.url + "/v1/projects/" + projectNumber(op.project) + "/locations/" + op.location + "/operations/" + op.id,
		TargetLink:    op.targetLink,
		Location:      op.location,
		Zone:          op.location,
		StartTime:     rfc3339(op.created),
	}
	if !op.done {
		return out
	}
	out.Status = opDone
	out.EndTime = rfc3339(op.ended)
	out.StatusMessage = op.statusMessage
	if op.err != nil {
		out.Error = &container.Status{Code: int64(op.err.Code), Message: op.err.Message, Details: rawDetails(op.err.Details)}
	}
	return out
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

var versionRE = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)-gke\.(\d+)$`)

func validVersion(v string) bool { return versionRE.MatchString(v) }

// compareVersions orders GKE versions like 1.33.5-gke.1000000.
func compareVersions(a, b string) int {
	pa, pb := versionRE.FindStringSubmatch(a), versionRE.FindStringSubmatch(b)
	if pa == nil || pb == nil {
		return strings.Compare(a, b)
	}
	for i := 1; i <= 4; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

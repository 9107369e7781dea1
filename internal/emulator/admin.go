// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
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

// Nodes returns copies of every Cloud TPU node, sorted by name.
func (s *Server) Nodes() []*tpu.Node {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
	out := make([]*tpu.Node, 0, len(s.nodes))
	for _, n := range s.nodes {
		out = append(out, copyNode(n.node))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NodePools returns copies of every node pool of every materialized
// cluster (a project's seeded clusters appear once the project is used),
// sorted by name.
func (s *Server) NodePools() []NodePoolInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
	var out []NodePoolInfo
	for key, c := range s.clusters {
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

// DeleteNode removes a Cloud TPU node at once, out of band, as if someone
// deleted it behind the client's back. name is the full resource name.
func (s *Server) DeleteNode(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
	tn, ok := s.nodes[name]
	if !ok {
		return fmt.Errorf("DeleteNode: no node %s", name)
	}
	s.releaseNode(tn)
	delete(s.nodes, name)
	return nil
}

// DeleteNodePool removes a GKE node pool at once, out of band. name is
// projects/P/locations/L/clusters/C/nodePools/NP.
func (s *Server) DeleteNodePool(name string) error {
	segs := strings.Split(name, "/")
	if len(segs) != 8 || segs[0] != "projects" || segs[2] != "locations" || segs[4] != "clusters" || segs[6] != "nodePools" {
		return fmt.Errorf("DeleteNodePool: %q is not projects/P/locations/L/clusters/C/nodePools/NP", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.clock.Now())
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

// snapshot is the file form of the emulator's state.
type snapshot struct {
	Scenario *Scenario         `json:"scenario"`
	Nodes    []snapshotNode    `json:"nodes"`
	Clusters []snapshotCluster `json:"clusters"`
}

type snapshotNode struct {
	Project string    `json:"project"`
	Zone    string    `json:"zone"`
	Workers int       `json:"workers"`
	Node    *tpu.Node `json:"node"`
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

// Snapshot writes the current settings, capacity limits, TPU nodes and GKE
// clusters to a JSON file. Operations are not saved.
func (s *Server) Snapshot(path string) error {
	b, err := s.snapshotJSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}

// snapshotJSON is the snapshot Snapshot writes.
func (s *Server) snapshotJSON() ([]byte, error) {
	s.mu.Lock()
	s.settle(s.clock.Now())
	snap := snapshot{Scenario: s.scenarioLocked()}
	for _, tn := range s.nodes {
		snap.Nodes = append(snap.Nodes, snapshotNode{Project: tn.project, Zone: tn.zone, Workers: tn.workers, Node: copyNode(tn.node)})
	}
	for _, c := range s.clusters {
		sc := snapshotCluster{Project: c.project, Location: c.location, Cluster: c.c}
		for _, name := range c.order {
			p := c.pools[name]
			sc.Pools = append(sc.Pools, snapshotPool{Pool: p.np, Nodes: p.nodes, CapType: p.capType, Hosts: p.hosts, Base: p.base})
		}
		snap.Clusters = append(snap.Clusters, sc)
	}
	sort.Slice(snap.Nodes, func(i, j int) bool { return snap.Nodes[i].Node.Name < snap.Nodes[j].Node.Name })
	sort.Slice(snap.Clusters, func(i, j int) bool { return snap.Clusters[i].Cluster.SelfLink < snap.Clusters[j].Cluster.SelfLink })
	b, err := json.MarshalIndent(snap, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return b, nil
}

// LoadSnapshot replaces the emulator's state with a file written by
// Snapshot. The snapshot's scenario becomes the one Reset returns to.
// Resources caught mid-operation are settled: CREATING and STARTING nodes
// become READY, STOPPING ones STOPPED and DELETING ones are dropped;
// PROVISIONING and RECONCILING pools become RUNNING and STOPPING ones are
// dropped.
func (s *Server) LoadSnapshot(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("load snapshot: %w", err)
	}
	return s.loadSnapshotJSON(b, path)
}

// loadSnapshotJSON is LoadSnapshot of the file path's contents b.
func (s *Server) loadSnapshotJSON(b []byte, path string) error {
	var snap snapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&snap); err != nil {
		return fmt.Errorf("load snapshot %s: %w", path, err)
	}
	if snap.Scenario == nil {
		return fmt.Errorf("load snapshot %s: no scenario", path)
	}
	if err := snap.Scenario.Validate(); err != nil {
		return fmt.Errorf("load snapshot %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initial = snap.Scenario.clone()
	s.resetLocked()
	for _, sn := range snap.Nodes {
		if sn.Node == nil || sn.Node.State == stateDeleting {
			continue
		}
		tn := &tpuNode{node: sn.Node, project: sn.Project, zone: sn.Zone, workers: max(1, sn.Workers)}
		switch sn.Node.State {
		case stateCreating, stateStarting:
			tn.node.State, tn.node.Health = stateReady, healthHealthy
			s.assignEndpoints(tn)
		case stateStopping:
			tn.node.State, tn.node.Health = stateStopped, ""
		}
		if tn.node.State != stateStopped {
			tn.capKey = capKey(tn.zone, tn.node.AcceleratorType)
			s.reserve(tn.capKey, 1)
		}
		s.nodes[tn.node.Name] = tn
	}
	for _, sc := range snap.Clusters {
		if sc.Cluster == nil {
			continue
		}
		s.materialized[sc.Project] = true
		key := "projects/" + sc.Project + "/locations/" + sc.Location + "/clusters/" + sc.Cluster.Name
		c := &gkeCluster{key: key, project: sc.Project, location: sc.Location, c: sc.Cluster, pools: map[string]*gkePool{}}
		for _, sp := range sc.Pools {
			if sp.Pool == nil || sp.Pool.Status == poolStopping {
				continue
			}
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
			c.pools[p.np.Name] = p
			c.order = append(c.order, p.np.Name)
		}
		s.clusters[key] = c
	}
	return nil
}

// scenarioLocked is the current scenario including the capacity limits.
func (s *Server) scenarioLocked() *Scenario {
	sc := s.sc.clone()
	sc.Capacity = nil
	keys := make([]string, 0, len(s.capLimit))
	for k := range s.capLimit {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		zone, typ, _ := strings.Cut(k, "/")
		sc.Capacity = append(sc.Capacity, Capacity{Zone: zone, Type: typ, Count: s.capLimit[k]})
	}
	return sc
}

// The admin API: the Go controls as JSON over HTTP, for the command-line
// emulator. Every POST takes a JSON object and answers {"ok":true} or a
// result; failures answer 400 {"error":"..."}.
var adminHelp = []string{
	"GET  /admin/methods",
	"GET  /admin/counters",
	"GET  /admin/scenario",
	"GET  /admin/nodes",
	"GET  /admin/node-pools",
	"GET  /admin/queued-resources",
	"GET  /admin/instances",
	"GET  /admin/resource-policies",
	"GET  /admin/instance?name=projects/p/zones/us-central1-c/instances/n",
	"POST /admin/reset                {}",
	"POST /admin/capacity             {\"zone\":\"us-central1-a\",\"type\":\"v5litepod-4\",\"count\":0} (type: a TPU accelerator type or a machine type; with \"untilMethod\":\"tpu.queuedResources.get\",\"untilCalls\":3: set once 3 more such calls were counted)",
	"POST /admin/fail-next            {\"method\":\"tpu.nodes.create\",\"n\":1,\"httpCode\":503}",
	"POST /admin/answer-html          {\"method\":\"container.nodePools.list\",\"n\":3,\"httpCode\":502}",
	"POST /admin/fail-next-operations {\"method\":\"tpu.nodes.create\",\"n\":1,\"code\":13}",
	"POST /admin/rate-limit           {\"method\":\"tpu.nodes.get\",\"every\":3}",
	"POST /admin/hang                 {\"method\":\"container.nodePools.create\",\"hang\":true} (or \"untilMethod\":\"container.nodePools.create\",\"untilCalls\":4: until 4 more such calls)",
	"POST /admin/quota                {\"region\":\"us-central1\",\"metric\":\"NVIDIA_L4_GPUS\",\"limit\":8,\"usage\":8} (what regions.get reports; \"project\" limits it to one project)",
	"POST /admin/reservation          {\"zone\":\"us-central1-b\",\"name\":\"serving-l4\",\"machineType\":\"g2-standard-8\",\"count\":2,\"inUseCount\":2,\"specificReservationRequired\":true}",
	"POST /admin/durations            {\"tpuCreate\":\"2s\",\"poolCreate\":\"5s\"}",
	"POST /admin/settings             {\"serializePoolCreates\":true,\"maxConcurrentOperationsPerCluster\":5,\"gkeAdditions\":{\"skipGpuTaint\":true}}",
	"POST /admin/hold-cluster         {\"project\":\"p\",\"location\":\"us-central1\",\"cluster\":\"serving\",\"duration\":\"30s\"} (or \"untilMethod\":\"container.operations.get\",\"untilCalls\":1: until 1 more such call)",
	"POST /admin/delete-node          {\"name\":\"projects/p/locations/us-central1-a/nodes/n\"}",
	"POST /admin/preempt-node         {\"name\":\"projects/p/locations/us-central1-a/nodes/n\"} (Spot and preemptible nodes)",
	"POST /admin/add-cluster          {\"project\":\"p\",\"location\":\"us-central1\",\"name\":\"c\",\"version\":\"1.33.5-gke.1000000\",\"locations\":[\"us-central1-a\"]} (the scenario's cluster form)",
	"POST /admin/preempt-instance     {\"name\":\"projects/p/zones/us-central1-c/instances/n\"} (Spot and preemptible instances)",
	"POST /admin/instance-status      {\"name\":\"projects/p/zones/us-central1-c/instances/n\",\"status\":\"TERMINATED\"}",
	"POST /admin/image                {\"project\":\"p\",\"name\":\"my-image\",\"family\":\"my-family\"}",
	"POST /admin/delete-node-pool     {\"name\":\"projects/p/locations/us-central1/clusters/serving/nodePools/np\"}",
	"POST /admin/snapshot             {\"name\":\"state.json\"} (a file of the -snapshot-dir directory)",
	"POST /admin/load-snapshot        {\"name\":\"state.json\"} (a file of the -snapshot-dir directory)",
}

type adminRequest struct {
	Method   string `json:"method"`
	N        int    `json:"n"`
	HTTPCode int    `json:"httpCode"`
	Code     int    `json:"code"`
	Every    int    `json:"every"`
	Hang     bool   `json:"hang"`
	// UntilMethod and UntilCalls end a hang or a hold once that many more
	// calls of UntilMethod were counted.
	UntilMethod string `json:"untilMethod"`
	UntilCalls  int    `json:"untilCalls"`
	Zone        string `json:"zone"`
	Type        string `json:"type"`
	Count       *int   `json:"count"`
	Project     string `json:"project"`
	Location    string `json:"location"`
	Cluster     string `json:"cluster"`
	Duration    string `json:"duration"`
	Name        string `json:"name"`
	Status      string `json:"status"`
}

type adminSettings struct {
	SerializePoolCreates              *bool         `json:"serializePoolCreates"`
	MaxConcurrentOperationsPerCluster *int          `json:"maxConcurrentOperationsPerCluster"`
	GKEAdditions                      *GKEAdditions `json:"gkeAdditions"`
}

var okResult = map[string]bool{"ok": true}

// adminSnapshot writes or reads the snapshot file name in the snapshot
// directory (Options.SnapshotDir), and nowhere else: os.Root refuses a
// name that leaves it, by "..", an absolute path or a symbolic link.
func (s *Server) adminSnapshot(verb, name string) error {
	if s.snapDir == "" {
		return errors.New(verb + " is off: start the emulator with a snapshot directory (accel-emulator -snapshot-dir DIR)")
	}
	if name == "" {
		return errors.New(verb + " needs name, a file name in the snapshot directory")
	}
	root, err := os.OpenRoot(s.snapDir)
	if err != nil {
		return fmt.Errorf("%s: the snapshot directory: %w", verb, err)
	}
	defer func() { _ = root.Close() }()
	if verb == "snapshot" {
		b, err := s.snapshotJSON()
		if err != nil {
			return err
		}
		if err := root.WriteFile(name, b, 0o600); err != nil {
			return fmt.Errorf("snapshot %q: not a file name in the snapshot directory, or not writable", name)
		}
		return nil
	}
	b, err := root.ReadFile(name)
	if err != nil {
		return fmt.Errorf("load-snapshot %q: not a readable file of the snapshot directory", name)
	}
	return s.loadSnapshotJSON(b, name)
}

// adminCallerError refuses an admin request that a web page could have
// sent: one whose Host is not the emulator's own address (DNS rebinding)
// or that carries an Origin other than the emulator's (a page of another
// site). curl and the Go clients send neither.
func (s *Server) adminCallerError(r *http.Request) error {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	own := false
	for _, h := range []string{s.ln.Addr().String(), "127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port} {
		own = own || strings.EqualFold(r.Host, h)
	}
	if !own {
		return fmt.Errorf("refused: Host %q is not this emulator's address (%s)", r.Host, s.ln.Addr())
	}
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) {
		return fmt.Errorf("refused: a request from the web page of %q", o)
	}
	return nil
}

func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	if err := s.adminCallerError(r); err != nil {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": err.Error()})
		return
	}
	verb := strings.TrimPrefix(r.URL.Path, "/admin/")
	res, err := s.admin(r, verb)
	if errors.Is(err, errNoAdminVerb) {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": err.Error(), "endpoints": adminHelp})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

var errNoAdminVerb = errors.New("no such admin endpoint")

func (s *Server) admin(r *http.Request, verb string) (any, error) {
	if r.Method == http.MethodGet {
		switch verb {
		case "", "help":
			return adminHelp, nil
		case "methods":
			return Methods(), nil
		case "counters":
			return s.Counters(), nil
		case "scenario":
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.scenarioLocked(), nil
		case "nodes":
			return s.Nodes(), nil
		case "node-pools":
			return s.NodePools(), nil
		case "queued-resources":
			return s.QueuedResources(), nil
		case "instances":
			return s.Instances(), nil
		case "resource-policies":
			return s.ResourcePolicies(), nil
		case "instance":
			return s.Instance(r.URL.Query().Get("name"))
		}
		return nil, errNoAdminVerb
	}
	if r.Method != http.MethodPost {
		return nil, errNoAdminVerb
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if out, ok, err := s.adminCapacityEvidence(verb, body); ok {
		return out, err
	}
	switch verb {
	case "durations":
		d := s.Durations()
		if err := json.Unmarshal(body, &d); err != nil {
			return nil, err
		}
		s.SetDurations(d)
		return d, nil
	case "settings":
		var st adminSettings
		if err := strictJSON(body, &st); err != nil {
			return nil, err
		}
		if st.SerializePoolCreates != nil {
			s.SetSerializePoolCreates(*st.SerializePoolCreates)
		}
		if st.MaxConcurrentOperationsPerCluster != nil {
			s.SetMaxConcurrentOperations(*st.MaxConcurrentOperationsPerCluster)
		}
		if st.GKEAdditions != nil {
			s.SetGKEAdditions(*st.GKEAdditions)
		}
		return okResult, nil
	case "image":
		var img Image
		if err := strictJSON(body, &img); err != nil {
			return nil, err
		}
		if img.Project == "" || img.Name == "" {
			return nil, errors.New("image needs project and name")
		}
		s.SetImage(img)
		return okResult, nil
	case "add-cluster":
		var seed ClusterSeed
		if err := strictJSON(body, &seed); err != nil {
			return nil, err
		}
		if err := s.AddCluster(seed); err != nil {
			return nil, err
		}
		return okResult, nil
	}
	var a adminRequest
	if err := strictJSON(body, &a); err != nil {
		return nil, err
	}
	switch verb {
	case "reset":
		s.Reset()
	case "capacity":
		if a.Zone == "" || a.Type == "" || a.Count == nil {
			return nil, errors.New("capacity needs zone, type and count")
		}
		if a.UntilMethod != "" || a.UntilCalls > 0 {
			err = s.SetCapacityAfterCalls(a.Zone, a.Type, *a.Count, a.UntilMethod, a.UntilCalls)
			break
		}
		s.SetCapacity(a.Zone, a.Type, *a.Count)
	case "fail-next":
		err = s.FailNext(a.Method, a.N, a.HTTPCode)
	case "answer-html":
		err = s.AnswerHTML(a.Method, a.N, a.HTTPCode)
	case "fail-next-operations":
		err = s.FailNextOperations(a.Method, a.N, a.Code)
	case "rate-limit":
		err = s.SetRateLimit(a.Method, a.Every)
	case "hang":
		if a.UntilCalls > 0 || a.UntilMethod != "" {
			err = s.HangOperationsUntilCalls(a.Method, a.UntilMethod, a.UntilCalls)
		} else {
			err = s.HangOperations(a.Method, a.Hang)
		}
	case "hold-cluster":
		var id string
		var herr error
		switch {
		case a.UntilCalls > 0 || a.UntilMethod != "":
			id, herr = s.HoldClusterUntilCalls(a.Project, a.Location, a.Cluster, a.UntilMethod, a.UntilCalls)
		default:
			d, perr := time.ParseDuration(a.Duration)
			if perr != nil {
				return nil, fmt.Errorf("hold-cluster duration: %w", perr)
			}
			id, herr = s.HoldCluster(a.Project, a.Location, a.Cluster, d)
		}
		if herr != nil {
			return nil, herr
		}
		return map[string]string{"operation": id}, nil
	case "delete-node":
		err = s.DeleteNode(a.Name)
	case "preempt-node":
		err = s.PreemptNode(a.Name)
	case "preempt-instance":
		err = s.PreemptInstance(a.Name)
	case "instance-status":
		err = s.SetInstanceStatus(a.Name, a.Status)
	case "delete-node-pool":
		err = s.DeleteNodePool(a.Name)
	case "snapshot", "load-snapshot":
		err = s.adminSnapshot(verb, a.Name)
	default:
		return nil, errNoAdminVerb
	}
	if err != nil {
		return nil, err
	}
	return okResult, nil
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("admin request: %w", err)
	}
	return nil
}

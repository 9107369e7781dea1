// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	tpu "google.golang.org/api/tpu/v2"
)

// admin calls the admin API and decodes the JSON answer into out.
func admin(t *testing.T, e *env, method, path, body string, wantCode int, out any) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL()+"/admin/"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantCode {
		t.Fatalf("%s /admin/%s = %d %s, want %d", method, path, resp.StatusCode, b, wantCode)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s /admin/%s: %v in %s", method, path, err, b)
		}
	}
}

// TestAdminUntilCalls: hold-cluster and hang take a number of calls of a
// method, instead of a duration, to end.
func TestAdminUntilCalls(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	var hold map[string]string
	admin(t, e, "POST", "hold-cluster", `{"project":"accel-sandbox","location":"us-central1","cluster":"serving","untilMethod":"container.nodePools.list","untilCalls":1}`, 200, &hold)
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.List(serving).Do(); err != nil {
		t.Fatal(err)
	}
	if op := e.gkeOp(t, "us-central1", hold["operation"]); op.Status != "DONE" {
		t.Errorf("hold-cluster until a list, after the list: %s", op.Status)
	}
	admin(t, e, "POST", "hang", `{"method":"container.nodePools.create","untilMethod":"container.nodePools.list","untilCalls":1}`, 200, nil)
	hung, err := e.createPool(serving, gpuPool("y"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour)
	if op := e.gkeOp(t, "us-central1", hung.Name); op.Status != "RUNNING" {
		t.Errorf("create hung until a list, before the list: %s", op.Status)
	}
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.List(serving).Do(); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour)
	if op := e.gkeOp(t, "us-central1", hung.Name); op.Status != "DONE" {
		t.Errorf("create hung until a list, after the list: %s", op.Status)
	}
}

func TestAdminAPI(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-b")
	createNode := func(id string) (*tpu.Operation, error) {
		return e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId(id).Do()
	}

	// capacity → stockout
	admin(t, e, "POST", "capacity", `{"zone":"us-central1-b","type":"v6e-1","count":0}`, 200, nil)
	op, err := createNode("a")
	if err != nil {
		t.Fatal(err)
	}
	if op, _ = e.tpu.Projects.Locations.Operations.Get(op.Name).Do(); op.Error == nil || op.Error.Code != 8 {
		t.Errorf("create after admin capacity 0 = %+v", op.Error)
	}
	var sc Scenario
	admin(t, e, "GET", "scenario", "", 200, &sc)
	if diff := cmp.Diff([]Capacity{{Zone: "us-central1-b", Type: "v6e-1", Count: 0}}, sc.Capacity); diff != "" {
		t.Errorf("scenario capacity (-want +got):\n%s", diff)
	}
	admin(t, e, "POST", "capacity", `{"zone":"us-central1-b","type":"v6e-1","count":-1}`, 200, nil)

	// fail-next
	admin(t, e, "POST", "fail-next", `{"method":"tpu.nodes.create","n":1,"httpCode":503}`, 200, nil)
	_, err = createNode("b")
	checkErr(t, err, wantErr{503, statusUnavailable, "", "currently unavailable"})
	if _, err := createNode("b"); err != nil {
		t.Errorf("second create: %v", err)
	}

	// fail-next-operations, rate-limit, hang
	admin(t, e, "POST", "fail-next-operations", `{"method":"tpu.nodes.delete","n":1,"code":13}`, 200, nil)
	dop, err := e.tpu.Projects.Locations.Nodes.Delete(parent + "/nodes/b").Do()
	if err != nil {
		t.Fatal(err)
	}
	if dop, _ = e.tpu.Projects.Locations.Operations.Get(dop.Name).Do(); dop.Error == nil || dop.Error.Code != 13 {
		t.Errorf("delete op after fail-next-operations = %+v", dop.Error)
	}
	if n, _ := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/b").Do(); n == nil || n.State != stateReady {
		t.Errorf("node after a failed delete = %+v", n)
	}
	admin(t, e, "POST", "rate-limit", `{"method":"tpu.nodes.list","every":1}`, 200, nil)
	_, err = e.tpu.Projects.Locations.Nodes.List(parent).Do()
	checkErr(t, err, wantErr{429, statusResourceExhausted, "RATE_LIMIT_EXCEEDED", "Quota exceeded"})
	admin(t, e, "POST", "rate-limit", `{"method":"tpu.nodes.list","every":0}`, 200, nil)
	admin(t, e, "POST", "latency", `{"ms":100}`, 200, nil)
	admin(t, e, "POST", "latency", `{"method":"tpu.nodes.get","ms":250}`, 200, nil)
	var lat map[string]int64
	admin(t, e, "GET", "latency", "", 200, &lat)
	if want := map[string]int64{"": 100, "tpu.nodes.get": 250}; !maps.Equal(lat, want) {
		t.Errorf("GET /admin/latency = %v, want %v", lat, want)
	}
	admin(t, e, "POST", "latency", `{"method":"tpu.nodes.nope","ms":1}`, 400, nil)
	admin(t, e, "POST", "latency", `{"ms":0}`, 200, nil)
	admin(t, e, "POST", "latency", `{"method":"tpu.nodes.get","ms":0}`, 200, nil)
	admin(t, e, "POST", "hang", `{"method":"tpu.nodes.create","hang":true}`, 200, nil)
	hop, err := createNode("c")
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour)
	if hop, _ = e.tpu.Projects.Locations.Operations.Get(hop.Name).Do(); hop.Done {
		t.Error("operation finished while hung")
	}
	admin(t, e, "POST", "hang", `{"method":"tpu.nodes.create","hang":false}`, 200, nil)
	if hop, _ = e.tpu.Projects.Locations.Operations.Get(hop.Name).Do(); !hop.Done {
		t.Error("operation still hung after release (zero duration)")
	}

	// durations and settings
	var d Durations
	admin(t, e, "POST", "durations", `{"poolCreate":"2s"}`, 200, &d)
	if d.PoolCreate != 2*time.Second || d.TPUCreate != 0 {
		t.Errorf("durations after a partial update = %+v", d)
	}
	admin(t, e, "POST", "settings", `{"serializePoolCreates":true,"maxConcurrentOperationsPerCluster":3,"gkeAdditions":{"skipGpuTaint":true}}`, 200, nil)
	if sc := e.srv.Scenario(); !sc.SerializePoolCreates || sc.MaxConcurrentOperationsPerCluster != 3 || !sc.GKEAdditions.SkipGPUTaint {
		t.Errorf("settings not applied: %+v", sc)
	}

	// hold-cluster
	var hold map[string]string
	admin(t, e, "POST", "hold-cluster", `{"project":"accel-sandbox","location":"us-central1","cluster":"serving","duration":"1m"}`, 200, &hold)
	if !gkeOpName.MatchString(hold["operation"]) {
		t.Errorf("hold-cluster answer = %v", hold)
	}
	_, err = e.createPool(serving, gpuPool("x"))
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION", hold["operation"]})
	e.clock.Advance(time.Minute)
	if _, err := e.createPool(serving, gpuPool("x")); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2 * time.Second)
	// snapshots and out-of-band deletes
	var nodes []*tpu.Node
	admin(t, e, "GET", "nodes", "", 200, &nodes)
	if len(nodes) != 2 {
		t.Errorf("admin nodes = %d, want 2", len(nodes))
	}
	var pools []NodePoolInfo
	admin(t, e, "GET", "node-pools", "", 200, &pools)
	if len(pools) != 2 || pools[1].NodePool.Name != "x" || len(pools[1].NodePool.Config.Taints) != 0 {
		t.Errorf("admin node-pools = %+v", pools)
	}
	admin(t, e, "POST", "delete-node", `{"name":"`+parent+`/nodes/b"}`, 200, nil)
	admin(t, e, "POST", "delete-node-pool", `{"name":"`+serving+`/nodePools/x"}`, 200, nil)
	if len(e.srv.Nodes()) != 1 || len(e.srv.NodePools()) != 1 {
		t.Errorf("after out-of-band deletes: %d nodes, %d pools", len(e.srv.Nodes()), len(e.srv.NodePools()))
	}

	// counters, methods, reset
	var counters map[string]int64
	admin(t, e, "GET", "counters", "", 200, &counters)
	if counters[MethodTPUNodesCreate] != 4 || counters[MethodNodePoolsCreate] != 2 {
		t.Errorf("counters = %v", counters)
	}
	var methods []string
	admin(t, e, "GET", "methods", "", 200, &methods)
	if diff := cmp.Diff(Methods(), methods); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
	admin(t, e, "POST", "reset", "", 200, nil)
	counters = nil // json.Unmarshal merges into an existing map
	admin(t, e, "GET", "counters", "", 200, &counters)
	if len(counters) != 0 || len(e.srv.Nodes()) != 0 {
		t.Errorf("after reset: counters %v nodes %d", counters, len(e.srv.Nodes()))
	}

	// errors
	var errOut map[string]any
	admin(t, e, "POST", "fail-next", `{"method":"nope","n":1,"httpCode":500}`, 400, &errOut)
	if msg, ok := errOut["error"].(string); !ok || !strings.Contains(msg, "unknown method") {
		t.Errorf("bad method answer = %v", errOut)
	}
	admin(t, e, "POST", "capacity", `{"zone":"z"}`, 400, nil)
	admin(t, e, "POST", "fail-next", `{"methd":"x"}`, 400, nil)
	admin(t, e, "POST", "hold-cluster", `{"duration":"soon"}`, 400, nil)
	admin(t, e, "POST", "durations", `{"tpuCreate":"-1s"}`, 400, nil)
	admin(t, e, "GET", "no-such-thing", "", 404, nil)
	var help []string
	admin(t, e, "GET", "help", "", 200, &help)
	if len(help) != len(adminHelp) {
		t.Errorf("help = %v", help)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	parent := zoneParent("us-central1-b")
	for _, id := range []string{"ready", "creating"} {
		if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId(id).Do(); err != nil {
			t.Fatal(err)
		}
		if id == "ready" {
			e.tick()
		}
	}
	if _, err := e.createPool(serving, gpuPool("l4")); err != nil {
		t.Fatal(err)
	}
	e.srv.SetCapacity("us-central1-b", "v6e-4", 2)
	path := filepath.Join(t.TempDir(), "state.json")
	if err := e.srv.Snapshot(path); err != nil {
		t.Fatal(err)
	}

	f := start(t, nil)
	if err := f.srv.LoadSnapshot(path); err != nil {
		t.Fatal(err)
	}
	got := f.srv.Nodes()
	if len(got) != 2 || got[0].State != stateReady || got[1].State != stateReady || len(got[0].NetworkEndpoints) != 1 {
		t.Errorf("restored nodes = %+v", got)
	}
	np, err := f.gke.Projects.Locations.Clusters.NodePools.Get(serving + "/nodePools/l4").Do()
	if err != nil || np.Status != "RUNNING" {
		t.Errorf("restored pool = %+v, %v", np, err)
	}
	// Capacity is restored with usage: both v6e-4 slots are taken.
	op, err := f.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("third").Do()
	if err != nil {
		t.Fatal(err)
	}
	f.tick()
	if op, _ = f.tpu.Projects.Locations.Operations.Get(op.Name).Do(); op.Error == nil || op.Error.Code != 8 {
		t.Errorf("create beyond restored capacity = %+v", op.Error)
	}
	if err := f.srv.LoadSnapshot(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("loading a missing snapshot succeeded")
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/googleapis/gax-go/v2/apierror"
	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
)

func TestFailNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method string
		n      int
		code   int
		status string
		msg    string
		call   func(e *env) error
	}{
		{MethodTPUNodesCreate, 1, 503, statusUnavailable, "The service is currently unavailable.", func(e *env) error {
			_, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do()
			return err
		}},
		{MethodTPUOperationsGet, 2, 500, statusInternal, "Internal error encountered.", func(e *env) error {
			_, err := e.tpu.Projects.Locations.Operations.List(zoneParent("us-central1-b")).Do()
			if err != nil {
				return err
			}
			_, err = e.tpu.Projects.Locations.Operations.Get(zoneParent("us-central1-b") + "/operations/operation-0-00000000").Do()
			var aerr *apierror.APIError
			if errors.As(err, &aerr) && aerr.HTTPCode() == 404 {
				return nil // the call got through; the operation just does not exist
			}
			return err
		}},
		{MethodNodePoolsCreate, 1, 409, statusAborted, "The operation was aborted.", func(e *env) error {
			_, err := e.createPool(serving, gpuPool("x"))
			return err
		}},
		{MethodClustersGet, 3, 502, statusUnavailable, "The service is currently unavailable.", func(e *env) error {
			_, err := e.gke.Projects.Locations.Clusters.Get(serving).Do()
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			t.Parallel()
			e := start(t, instant())
			if err := e.srv.FailNext(tt.method, tt.n, tt.code); err != nil {
				t.Fatal(err)
			}
			for i := range tt.n {
				err := tt.call(e)
				if err == nil {
					t.Fatalf("call %d succeeded, want injected %d", i+1, tt.code)
				}
				checkErr(t, err, wantErr{tt.code, tt.status, "", tt.msg})
			}
			if err := tt.call(e); err != nil {
				t.Errorf("call after the injected failures: %v", err)
			}
			if got := e.srv.Counters()[tt.method]; got != int64(tt.n+1) {
				t.Errorf("counter %s = %d, want %d", tt.method, got, tt.n+1)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	if _, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do(); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.SetRateLimit(MethodTPUNodesGet, 3); err != nil {
		t.Fatal(err)
	}
	var failed []int
	for i := 1; i <= 6; i++ {
		_, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent("us-central1-b") + "/nodes/n").Do()
		if err == nil {
			continue
		}
		failed = append(failed, i)
		checkErr(t, err, wantErr{429, statusResourceExhausted, "RATE_LIMIT_EXCEEDED", "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute' of service 'tpu.googleapis.com'"})
		var aerr *apierror.APIError
		if errors.As(err, &aerr) && aerr.Metadata()["service"] != "tpu.googleapis.com" {
			t.Errorf("ErrorInfo metadata = %v", aerr.Metadata())
		}
	}
	if diff := cmp.Diff([]int{3, 6}, failed); diff != "" {
		t.Errorf("rate-limited calls (-want +got):\n%s", diff)
	}
	if err := e.srv.SetRateLimit(MethodNodePoolsCreate, 1); err != nil {
		t.Fatal(err)
	}
	_, err := e.createPool(serving, gpuPool("x"))
	checkErr(t, err, wantErr{429, statusResourceExhausted, "RATE_LIMIT_EXCEEDED", "'Write requests' and limit 'Write requests per minute' of service 'container.googleapis.com'"})
	if err := e.srv.SetRateLimit(MethodNodePoolsCreate, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.createPool(serving, gpuPool("x")); err != nil {
		t.Errorf("after turning the limit off: %v", err)
	}
}

func TestFailNextOperations(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	if err := e.srv.FailNextOperations(MethodTPUNodesCreate, 1, 13); err != nil {
		t.Fatal(err)
	}
	op, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do()
	if err != nil {
		t.Fatal(err)
	}
	op, err = e.tpu.Projects.Locations.Operations.Get(op.Name).Do()
	if err != nil || op.Error == nil || op.Error.Code != 13 || op.Error.Message != "Internal error encountered." {
		t.Fatalf("op = %+v, %v; want code 13", op, err)
	}
	if len(e.srv.Nodes()) != 0 {
		t.Errorf("a failed create left a node behind")
	}

	if err := e.srv.FailNextOperations(MethodNodePoolsCreate, 1, 14); err != nil {
		t.Fatal(err)
	}
	gop, err := e.createPool(serving, gpuPool("x"))
	if err != nil {
		t.Fatal(err)
	}
	if gop = e.gkeOp(t, "us-central1", gop.Name); gop.Error == nil || gop.Error.Code != 14 || gop.StatusMessage == "" {
		t.Errorf("pool op = %+v", gop)
	}
	if np := e.pool(t, serving, "x"); np.Status != "ERROR" {
		t.Errorf("pool status = %s, want ERROR", np.Status)
	}
}

func TestHangOperations(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	if err := e.srv.HangOperations(MethodTPUNodesCreate, true); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.HangOperations(MethodNodePoolsCreate, true); err != nil {
		t.Fatal(err)
	}
	op, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do()
	if err != nil {
		t.Fatal(err)
	}
	gop, err := e.createPool(serving, gpuPool("x"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(24 * time.Hour)
	if op, _ = e.tpu.Projects.Locations.Operations.Get(op.Name).Do(); op.Done {
		t.Error("hung TPU operation finished")
	}
	if g := e.gkeOp(t, "us-central1", gop.Name); g.Status != "RUNNING" {
		t.Errorf("hung GKE operation status = %s", g.Status)
	}
	if n := e.srv.Nodes(); len(n) != 1 || n[0].State != stateCreating {
		t.Errorf("node under a hung create = %+v", n)
	}
	// Releasing lets the operations run their duration from now.
	if err := e.srv.HangOperations(MethodTPUNodesCreate, false); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.HangOperations(MethodNodePoolsCreate, false); err != nil {
		t.Fatal(err)
	}
	e.tick()
	if op, _ = e.tpu.Projects.Locations.Operations.Get(op.Name).Do(); !op.Done || op.Error != nil {
		t.Errorf("released TPU operation = %+v", op)
	}
	if g := e.gkeOp(t, "us-central1", gop.Name); g.Status != "DONE" {
		t.Errorf("released GKE operation status = %s", g.Status)
	}
}

func TestAnswerHTML(t *testing.T) {
	t.Parallel()
	for _, code := range []int{200, 502} {
		e := start(t, instant())
		if err := e.srv.AnswerHTML(MethodNodePoolsList, 2, code); err != nil {
			t.Fatal(err)
		}
		get := func() (int, string, string) {
			t.Helper()
			resp, err := http.Get(e.srv.ContainerEndpoint() + "v1/" + serving + "/nodePools")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
		}
		for i := range 2 {
			status, ct, body := get()
			if status != code || !strings.HasPrefix(ct, "text/html") || !strings.HasPrefix(body, "<!DOCTYPE html>") {
				t.Errorf("code %d, call %d: got %d %q %.20q, want %d and an HTML page", code, i+1, status, ct, body, code)
			}
		}
		if status, ct, _ := get(); status != 200 || !strings.HasPrefix(ct, "application/json") {
			t.Errorf("code %d: the call after the pages got %d %q, want the API's JSON", code, status, ct)
		}
		if got := e.srv.Counters()[MethodNodePoolsList]; got != 3 {
			t.Errorf("code %d: counter = %d, want 3", code, got)
		}
	}
}

func TestFaultArguments(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	tests := []struct {
		name string
		err  error
	}{
		{"FailNext unknown method", e.srv.FailNext("tpu.nodes.explode", 1, 500)},
		{"FailNext non-error code", e.srv.FailNext(MethodTPUNodesGet, 1, 200)},
		{"FailNext negative n", e.srv.FailNext(MethodTPUNodesGet, -1, 500)},
		{"FailNextOperations on a read", e.srv.FailNextOperations(MethodTPUNodesGet, 1, 13)},
		{"FailNextOperations code 0", e.srv.FailNextOperations(MethodTPUNodesCreate, 1, 0)},
		{"SetRateLimit negative", e.srv.SetRateLimit(MethodTPUNodesGet, -2)},
		{"AnswerHTML unknown method", e.srv.AnswerHTML("tpu.nodes.explode", 1, 200)},
		{"AnswerHTML informational code", e.srv.AnswerHTML(MethodTPUNodesGet, 1, 101)},
		{"HangOperations on a read", e.srv.HangOperations(MethodNodePoolsList, true)},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	if !strings.Contains(e.srv.FailNext("nope", 1, 500).Error(), "Methods()") {
		t.Error("unknown-method error does not point at Methods()")
	}
	if len(Methods()) != len(methodNames) || !strings.HasPrefix(Methods()[0], "tpu.") {
		t.Errorf("Methods() = %v", Methods())
	}
}

func TestCountersResetAndOutOfBand(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-b")
	if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/n").Do(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.createPool(serving, gpuPool("x")); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{MethodTPUNodesCreate: 1, MethodTPUNodesGet: 2, MethodNodePoolsCreate: 1}
	if diff := cmp.Diff(want, e.srv.Counters()); diff != "" {
		t.Errorf("counters (-want +got):\n%s", diff)
	}

	// Out of band: the resources disappear behind the client's back.
	if err := e.srv.DeleteNode(parent + "/nodes/n"); err != nil {
		t.Fatal(err)
	}
	_, err := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/n").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "was not found"})
	if err := e.srv.DeleteNode(parent + "/nodes/n"); err == nil {
		t.Error("deleting a missing node out of band succeeded")
	}
	if err := e.srv.DeleteNodePool(serving + "/nodePools/x"); err != nil {
		t.Fatal(err)
	}
	_, err = e.gke.Projects.Locations.Clusters.NodePools.Get(serving + "/nodePools/x").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "Not found"})
	for _, bad := range []string{serving + "/nodePools/x", "serving/x", "projects/p/locations/l/clusters/nope/nodePools/x"} {
		if err := e.srv.DeleteNodePool(bad); err == nil {
			t.Errorf("DeleteNodePool(%q) succeeded", bad)
		}
	}

	e.srv.SetCapacity("us-central1-b", "v6e-1", 0)
	e.srv.SetSerializePoolCreates(true)
	e.srv.Reset()
	if c := e.srv.Counters(); len(c) != 0 {
		t.Errorf("counters after Reset = %v", c)
	}
	if sc := e.srv.Scenario(); len(sc.Capacity) != 0 || sc.SerializePoolCreates {
		t.Errorf("settings after Reset: capacity %v serialize %v", sc.Capacity, sc.SerializePoolCreates)
	}
	if pools := e.srv.NodePools(); len(pools) != 0 {
		t.Errorf("pools after Reset = %d (clusters are seeded again on first use)", len(pools))
	}
	op, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("n").Do()
	if err != nil {
		t.Fatal(err)
	}
	if op, _ = e.tpu.Projects.Locations.Operations.Get(op.Name).Do(); op.Error != nil {
		t.Errorf("create after Reset: %+v", op.Error)
	}
}

func TestProjectRestriction(t *testing.T) {
	t.Parallel()
	sc := Default()
	sc.Projects = []string{project}
	e := start(t, sc)
	if _, err := e.gke.Projects.Locations.Clusters.Get(serving).Do(); err != nil {
		t.Fatalf("allowed project: %v", err)
	}
	_, err := e.tpu.Projects.Locations.Nodes.List("projects/other/locations/us-central1-a").Do()
	checkErr(t, err, wantErr{403, statusPermissionDenied, "CONSUMER_INVALID", "Permission denied on resource project other."})
	_, err = e.gke.Projects.Locations.Clusters.Get("projects/other/locations/us-central1/clusters/serving").Do()
	checkErr(t, err, wantErr{403, statusPermissionDenied, "CONSUMER_INVALID", "Permission denied on resource project other."})
}

// TestHangOperationsUntilCalls: operations started by the method hang,
// however much time passes, until the emulator has counted the given number
// of calls; the call that reaches the count releases them and is not held.
func TestHangOperationsUntilCalls(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	if err := e.srv.HangOperationsUntilCalls(MethodNodePoolsCreate, MethodNodePoolsCreate, 3); err != nil {
		t.Fatal(err)
	}
	var ops []*container.Operation
	for _, name := range []string{"a", "b"} {
		op, err := e.createPool(serving, gpuPool(name))
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
		e.clock.Advance(24 * time.Hour)
	}
	for _, op := range ops {
		if g := e.gkeOp(t, "us-central1", op.Name); g.Status != "RUNNING" {
			t.Errorf("%s before the third create: %s, want RUNNING", op.Name, g.Status)
		}
	}
	third, err := e.createPool(serving, gpuPool("c"))
	if err != nil {
		t.Fatal(err)
	}
	e.tick()
	for _, op := range append(ops, third) {
		if g := e.gkeOp(t, "us-central1", op.Name); g.Status != "DONE" {
			t.Errorf("%s one duration after the third create: %s, want DONE", op.Name, g.Status)
		}
	}
	// The hold is over: the next create is not held.
	fourth, err := e.createPool(serving, gpuPool("d"))
	if err != nil {
		t.Fatal(err)
	}
	e.tick()
	if g := e.gkeOp(t, "us-central1", fourth.Name); g.Status != "DONE" {
		t.Errorf("create after the hold: %s, want DONE", g.Status)
	}
	for _, bad := range []struct{ method, calls string }{{MethodNodePoolsList, MethodNodePoolsCreate}, {MethodNodePoolsCreate, "nope"}} {
		if err := e.srv.HangOperationsUntilCalls(bad.method, bad.calls, 1); err == nil {
			t.Errorf("HangOperationsUntilCalls(%s, %s) accepted", bad.method, bad.calls)
		}
	}
	if err := e.srv.HangOperationsUntilCalls(MethodNodePoolsCreate, MethodNodePoolsCreate, 0); err == nil {
		t.Error("a hang until 0 calls was accepted")
	}
}

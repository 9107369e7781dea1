// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/api/googleapi"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// fakeAPI is an in-memory Cloud TPU API with scripted failures per zone.
type fakeAPI struct {
	mu    sync.Mutex
	nodes map[string]*tpu.Node
	calls []string

	// createErr fails nodes.create in a zone synchronously.
	createErr map[string]error
	// lostAnswer makes nodes.create in a zone create the node and answer
	// ALREADY_EXISTS, as a retried call whose first answer was lost sees.
	lostAnswer map[string]bool
	// opErr fails the create operation in a zone.
	opErr map[string]error
	// leaveFailed keeps a FAILED node behind when the create operation fails.
	leaveFailed map[string]bool
	// deleteErr fails every nodes.delete.
	deleteErr error
	// hang makes the create operation wait until ctx ends.
	hang bool
	// onCreate runs after a create request is accepted.
	onCreate func()
	// getErrAfterCreate, once a create was accepted, fails every get.
	getErrAfterCreate error
	created           bool
	// settleAfter is how many gets a CREATING node needs to become READY.
	settleAfter int
	gets        map[string]int
}

func newFakeAPI() *fakeAPI {
	return &fakeAPI{
		nodes: map[string]*tpu.Node{}, createErr: map[string]error{}, opErr: map[string]error{},
		leaveFailed: map[string]bool{}, gets: map[string]int{}, lostAnswer: map[string]bool{},
	}
}

func notFound() error { return &googleapi.Error{Code: http.StatusNotFound, Message: "not found"} }

func stockout(zonesAvailable string) error {
	e := &gcp.OperationError{Operation: "op", Code: 8, Status: "RESOURCE_EXHAUSTED", Message: "There is no more capacity in the zone"}
	if zonesAvailable != "" {
		e.Metadata = map[string]string{"zones_available": zonesAvailable}
	}
	return e
}

func (f *fakeAPI) record(call string) {
	f.calls = append(f.calls, call)
}

func (f *fakeAPI) Get(_ context.Context, name string) (*tpu.Node, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("get " + zoneOf(name))
	if f.created && f.getErrAfterCreate != nil {
		return nil, f.getErrAfterCreate
	}
	n, ok := f.nodes[name]
	if !ok {
		return nil, notFound()
	}
	f.gets[name]++
	if n.State == "CREATING" && f.settleAfter > 0 && f.gets[name] >= f.settleAfter {
		n.State = "READY"
	}
	c := *n
	return &c, nil
}

func (f *fakeAPI) Create(_ context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error) {
	f.mu.Lock()
	zone := parent[strings.LastIndex(parent, "/")+1:]
	f.record("create " + zone)
	if err := f.createErr[zone]; err != nil {
		f.mu.Unlock()
		return nil, err
	}
	n := *node
	n.Name = parent + "/nodes/" + nodeID
	n.State = "CREATING"
	f.nodes[n.Name] = &n
	f.created = true
	if f.lostAnswer[zone] {
		f.mu.Unlock()
		return nil, &googleapi.Error{Code: http.StatusConflict, Message: "already exists"}
	}
	onCreate := f.onCreate
	f.mu.Unlock()
	if onCreate != nil {
		onCreate()
	}
	return &tpu.Operation{Name: "create " + n.Name}, nil
}

func (f *fakeAPI) ListNamed(_ context.Context, project, name string) ([]*tpu.Node, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*tpu.Node
	for id, n := range f.nodes {
		if p, _, nm, err := gcp.ParseNodeID(id); err == nil && p == project && nm == name {
			c := *n
			out = append(out, &c)
		}
	}
	return out, nil
}

func (f *fakeAPI) Patch(context.Context, string, string, *tpu.Node) (*tpu.Operation, error) {
	return nil, errors.New("not used")
}

func (f *fakeAPI) Delete(_ context.Context, name string) (*tpu.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("delete " + zoneOf(name))
	if f.deleteErr != nil {
		return nil, f.deleteErr
	}
	if _, ok := f.nodes[name]; !ok {
		return nil, notFound()
	}
	return &tpu.Operation{Name: "delete " + name}, nil
}

func (f *fakeAPI) Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	verb, name, _ := strings.Cut(op.Name, " ")
	if verb == "create" && f.hang {
		<-ctx.Done()
		return op, fmt.Errorf("waiting: %w", ctx.Err())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	zone := zoneOf(name)
	f.record("wait " + verb + " " + zone)
	if verb == "delete" {
		delete(f.nodes, name)
		return &tpu.Operation{Name: op.Name, Done: true}, nil
	}
	if err := f.opErr[zone]; err != nil {
		if f.leaveFailed[zone] {
			f.nodes[name].State = "FAILED"
		} else {
			delete(f.nodes, name)
		}
		return op, err
	}
	f.nodes[name].State = "READY"
	return &tpu.Operation{Name: op.Name, Done: true}, nil
}

// ReadNamed is ListNamed: the fake has no list to share.
func (f *fakeAPI) ReadNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	return f.ListNamed(ctx, project, name)
}

// Read is Get: the fake has no list to share.
func (f *fakeAPI) Read(ctx context.Context, name string) (*tpu.Node, error) { return f.Get(ctx, name) }

// Poller reads again at once: a node settles after settleAfter reads, not
// after some time.
func (f *fakeAPI) Poller() *gcp.Poller {
	return gcp.NewPoller(gcp.Polling{}, func(ctx context.Context, _ time.Duration) error { return ctx.Err() })
}

func (f *fakeAPI) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for name, n := range f.nodes {
		out = append(out, name+" "+n.State)
	}
	slices.Sort(out)
	return out
}

func testSpec(zones ...string) createSpec {
	return createSpec{
		project: "p", name: "vm", zones: zones,
		node: &tpu.Node{
			AcceleratorType: "v6e-8", RuntimeVersion: "v2-alpha-tpuv6e",
			Labels: map[string]string{ownerLabelKey: testOwner},
		},
	}
}

// testOwner and otherOwner are owner ids of this and another resource instance.
const testOwner, otherOwner = "00000000000000000001", "00000000000000000002"

func attemptResults(as []attempt) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.zone + ": " + a.result.String()
	}
	return out
}

func TestCreateNode(t *testing.T) {
	t.Parallel()
	otherInstances := func(zone, state string) *tpu.Node {
		return &tpu.Node{
			Name: gcp.NodeID("p", zone, "vm"), State: state, AcceleratorType: "v6e-8", RuntimeVersion: "v2-alpha-tpuv6e",
			Labels: map[string]string{ownerLabelKey: otherOwner},
		}
	}
	tests := map[string]struct {
		setup         func(f *fakeAPI)
		zones         []string
		wantNode      string // "" when no node is returned
		wantElsewhere []string
		wantErr       string // substring; "" for success
		wantAttempts  []string
		wantLeft      []string
		wantCalls     []string // nil: not checked
	}{
		"first zone has capacity": {
			zones:        []string{"a", "b"},
			wantNode:     "projects/p/locations/a/nodes/vm",
			wantAttempts: []string{"a: created"},
			wantLeft:     []string{"projects/p/locations/a/nodes/vm READY"},
			wantCalls:    []string{"get a", "get b", "create a", "wait create a", "get a"},
		},
		"stockout leaves a failed node, which is deleted before the next zone": {
			setup: func(f *fakeAPI) {
				f.opErr["a"] = stockout("")
				f.leaveFailed["a"] = true
			},
			zones:        []string{"a", "b"},
			wantNode:     "projects/p/locations/b/nodes/vm",
			wantAttempts: []string{"a: no capacity", "b: created"},
			wantLeft:     []string{"projects/p/locations/b/nodes/vm READY"},
			wantCalls: []string{"get a", "get b", "create a", "wait create a",
				"get a", "delete a", "wait delete a", "create b", "wait create b", "get b"},
		},
		"synchronous stockout moves on": {
			setup: func(f *fakeAPI) {
				f.createErr["a"] = &googleapi.Error{Code: http.StatusTooManyRequests,
					Body: `{"error":{"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ZONE_RESOURCE_POOL_EXHAUSTED"}]}}`}
			},
			zones:        []string{"a", "b"},
			wantNode:     "projects/p/locations/b/nodes/vm",
			wantAttempts: []string{"a: no capacity", "b: created"},
			wantLeft:     []string{"projects/p/locations/b/nodes/vm READY"},
		},
		"zonesAvailable hint skips zones it leaves out": {
			setup:        func(f *fakeAPI) { f.opErr["a"] = stockout("c, x") },
			zones:        []string{"a", "b", "c"},
			wantNode:     "projects/p/locations/c/nodes/vm",
			wantAttempts: []string{"a: no capacity", "b: skipped", "c: created"},
			wantLeft:     []string{"projects/p/locations/c/nodes/vm READY"},
		},
		"every zone stocked out leaves nothing": {
			setup: func(f *fakeAPI) {
				for _, z := range []string{"a", "b", "c"} {
					f.opErr[z] = stockout("")
					f.leaveFailed[z] = true
				}
			},
			zones:        []string{"a", "b", "c"},
			wantErr:      "no zone could create the TPU VM",
			wantAttempts: []string{"a: no capacity", "b: no capacity", "c: no capacity"},
		},
		"a failed node that cannot be deleted is returned, to be tainted": {
			setup: func(f *fakeAPI) {
				f.opErr["a"] = stockout("")
				f.leaveFailed["a"] = true
				f.deleteErr = &googleapi.Error{Code: http.StatusForbidden, Message: "denied"}
			},
			zones:        []string{"a", "b"},
			wantNode:     "projects/p/locations/a/nodes/vm",
			wantErr:      "deleting the failed TPU VM it left failed",
			wantAttempts: []string{"a: no capacity"},
			wantLeft:     []string{"projects/p/locations/a/nodes/vm FAILED"},
		},
		"an invalid request stops the fallback": {
			setup: func(f *fakeAPI) {
				f.createErr["a"] = &googleapi.Error{Code: http.StatusBadRequest, Message: "bad runtime"}
			},
			zones:        []string{"a", "b"},
			wantErr:      "bad runtime",
			wantAttempts: []string{"a: failed"},
		},
		"another instance's node in a failed state is an error, and is left alone": {
			setup:        func(f *fakeAPI) { f.nodes[gcp.NodeID("p", "a", "vm")] = otherInstances("a", "PREEMPTED") },
			zones:        []string{"a"},
			wantErr:      `carries the label accel-managed = "` + otherOwner + `"`,
			wantAttempts: []string{},
			wantLeft:     []string{"projects/p/locations/a/nodes/vm PREEMPTED"},
			wantCalls:    []string{"get a"},
		},
		"another instance's node (another state, or an apply killed before it recorded it) is an error": {
			setup:        func(f *fakeAPI) { f.nodes[gcp.NodeID("p", "b", "vm")] = otherInstances("b", "CREATING") },
			zones:        []string{"a", "b"},
			wantErr:      "the owner id of another resource instance",
			wantAttempts: []string{},
			wantLeft:     []string{"projects/p/locations/b/nodes/vm CREATING"},
			wantCalls:    []string{"get a", "get b"},
		},
		"a VM of the same name outside zones is reported and left alone": {
			setup:         func(f *fakeAPI) { f.nodes[gcp.NodeID("p", "c", "vm")] = otherInstances("c", "READY") },
			zones:         []string{"a", "b"},
			wantNode:      "projects/p/locations/a/nodes/vm",
			wantAttempts:  []string{"a: created"},
			wantLeft:      []string{"projects/p/locations/a/nodes/vm READY", "projects/p/locations/c/nodes/vm READY"},
			wantElsewhere: []string{"projects/p/locations/c/nodes/vm"},
		},
		"a create whose answer was lost is kept once ready": {
			setup: func(f *fakeAPI) {
				f.lostAnswer["a"] = true
				f.settleAfter = 3
			},
			zones:        []string{"a", "b"},
			wantNode:     "projects/p/locations/a/nodes/vm",
			wantAttempts: []string{"a: created"},
			wantLeft:     []string{"projects/p/locations/a/nodes/vm READY"},
		},
		"a node of the same name created after the check is never adopted": {
			setup: func(f *fakeAPI) {
				f.onCreate = func() {}
				f.createErr["a"] = &googleapi.Error{Code: http.StatusConflict, Message: "already exists"}
			},
			zones:        []string{"a", "b"},
			wantErr:      "was created while this apply ran",
			wantAttempts: []string{"a: failed"},
		},
		"a foreign node of the same name is an error": {
			setup: func(f *fakeAPI) {
				f.nodes[gcp.NodeID("p", "b", "vm")] = &tpu.Node{Name: gcp.NodeID("p", "b", "vm"), State: "READY"}
			},
			zones:        []string{"a", "b"},
			wantErr:      "has no accel-managed label",
			wantAttempts: []string{},
			wantLeft:     []string{"projects/p/locations/b/nodes/vm READY"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFakeAPI()
			if tc.setup != nil {
				tc.setup(f)
			}
			out := createNode(context.Background(), f, testSpec(tc.zones...))
			gotNode := ""
			if out.node != nil {
				gotNode = out.node.Name
			}
			if gotNode != tc.wantNode {
				t.Errorf("node = %q, want %q", gotNode, tc.wantNode)
			}
			switch {
			case tc.wantErr == "" && out.err != nil:
				t.Errorf("err = %v, want none", out.err)
			case tc.wantErr != "" && (out.err == nil || !strings.Contains(out.err.Error(), tc.wantErr)):
				t.Errorf("err = %v, want one containing %q", out.err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.wantAttempts, attemptResults(out.attempts)); diff != "" {
				t.Errorf("attempts (-want +got):\n%s", diff)
			}
			var elsewhere []string
			for _, n := range out.elsewhere {
				elsewhere = append(elsewhere, n.Name)
			}
			if diff := cmp.Diff(tc.wantElsewhere, elsewhere); diff != "" {
				t.Errorf("VMs reported elsewhere (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantLeft, f.names()); diff != "" {
				t.Errorf("nodes left (-want +got):\n%s", diff)
			}
			if tc.wantCalls != nil {
				if diff := cmp.Diff(tc.wantCalls, f.calls); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestCreateNodeInterrupted covers an apply interrupted after the create
// request was accepted: the node is returned as it is, without error, so
// that it is recorded in the state.
func TestCreateNodeInterrupted(t *testing.T) {
	t.Parallel()
	f := newFakeAPI()
	f.hang = true
	ctx, cancel := context.WithCancel(context.Background())
	f.onCreate = cancel
	out := createNode(ctx, f, testSpec("a", "b"))
	if out.err != nil {
		t.Fatalf("err = %v, want none", out.err)
	}
	if !out.interrupted {
		t.Error("interrupted = false, want true")
	}
	if out.node == nil || out.node.Name != "projects/p/locations/a/nodes/vm" || out.node.State != "CREATING" {
		t.Errorf("node = %+v, want projects/p/locations/a/nodes/vm in CREATING", out.node)
	}
	if diff := cmp.Diff([]string{"projects/p/locations/a/nodes/vm CREATING"}, f.names()); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

// TestCreateNodeDeadline covers the create timeout: the node is returned
// with an error, so that Terraform records it as tainted.
func TestCreateNodeDeadline(t *testing.T) {
	t.Parallel()
	f := newFakeAPI()
	f.hang = true
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	out := createNode(ctx, f, testSpec("a", "b"))
	if out.err == nil || !errors.Is(out.err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline error", out.err)
	}
	if out.interrupted {
		t.Error("interrupted = true, want false")
	}
	if out.node == nil || out.node.State != "CREATING" {
		t.Errorf("node = %+v, want the CREATING node, to be recorded as tainted", out.node)
	}
	if slices.Contains(f.calls, "create b") {
		t.Error("zone b was tried after the deadline")
	}
}

// TestCreateNodeUnreadable covers a create cut short (interrupted, or at the
// create timeout) while every read of the VM fails: the VM may exist, so it
// is recorded by its id and its owner id rather than orphaned; a deadline is
// still an error, naming the failed read.
func TestCreateNodeUnreadable(t *testing.T) {
	t.Parallel()
	unavailable := &googleapi.Error{Code: http.StatusServiceUnavailable, Message: "The service is currently unavailable."}
	for _, interrupt := range []bool{true, false} {
		t.Run(fmt.Sprintf("interrupted=%v", interrupt), func(t *testing.T) {
			t.Parallel()
			f := newFakeAPI()
			f.hang = true
			f.getErrAfterCreate = unavailable
			var ctx context.Context
			var cancel context.CancelFunc
			if interrupt {
				ctx, cancel = context.WithCancel(context.Background())
				f.onCreate = cancel
			} else {
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			defer cancel()
			out := createNode(ctx, f, testSpec("a", "b"))
			if out.node == nil || out.node.Name != "projects/p/locations/a/nodes/vm" {
				t.Fatalf("node = %+v, want projects/p/locations/a/nodes/vm recorded by its id", out.node)
			}
			if out.node.Labels[ownerLabelKey] != testOwner {
				t.Errorf("labels = %v, want the owner id %s, by which the next refresh knows the VM as this resource's", out.node.Labels, testOwner)
			}
			if out.interrupted != interrupt {
				t.Errorf("interrupted = %v, want %v", out.interrupted, interrupt)
			}
			switch {
			case interrupt && out.err != nil:
				t.Errorf("err = %v, want none after an interrupt", out.err)
			case !interrupt && (!errors.Is(out.err, context.DeadlineExceeded) || !strings.Contains(fmt.Sprint(out.err), "currently unavailable")):
				t.Errorf("err = %v, want the deadline and the failed read", out.err)
			}
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
)

var timeZero = time.Unix(0, 0)

// reply is one canned answer of the fake operations endpoint.
type reply struct {
	status int
	body   string
}

// opServer answers GET path with replies in turn, repeating the last one.
type opServer struct {
	t       *testing.T
	path    string
	replies []reply

	mu    sync.Mutex
	polls int
}

func (s *opServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != s.path {
		s.t.Errorf("unexpected request %s %s, want GET %s", r.Method, r.URL.Path, s.path)
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	rep := s.replies[min(s.polls, len(s.replies)-1)]
	s.polls++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	if _, err := fmt.Fprint(w, rep.body); err != nil {
		s.t.Errorf("writing the fake answer: %v", err)
	}
}

func (s *opServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polls
}

// testPolling grows 100ms → 150 → 225 → 300 (capped).
var testPolling = Polling{Initial: 100 * time.Millisecond, Max: 300 * time.Millisecond, Multiplier: 1.5}

// newWaitClients returns clients for srv whose waits are recorded, not slept.
func newWaitClients(t *testing.T, srv *httptest.Server) (*Clients, *[]time.Duration) {
	t.Helper()
	c := NewClients(Config{TPUEndpoint: srv.URL, ContainerEndpoint: srv.URL, Polling: testPolling})
	c.poller.jitter = func(d time.Duration) time.Duration { return d }
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.poller.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return c, waits
}

const (
	tpuOpName    = "projects/p/locations/us-east5-a/operations/operation-1"
	tpuOpPath    = "/v2/" + tpuOpName
	tpuRunning   = `{"name":"` + tpuOpName + `","metadata":{"@type":"type.googleapis.com/google.cloud.tpu.v2.OperationMetadata","verb":"create"},"done":false}`
	tpuDone      = `{"name":"` + tpuOpName + `","done":true,"response":{"@type":"type.googleapis.com/google.cloud.tpu.v2.Node","name":"projects/p/locations/us-east5-a/nodes/n","state":"READY"}}`
	tpuStockout  = `{"name":"` + tpuOpName + `","done":true,"error":{"code":8,"message":"There is no more capacity in the zone \"us-east5-a\"; you can try in another zone where Cloud TPU Nodes are offered (see https://cloud.google.com/tpu/docs/regions) [EID: 0x1]","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"STOCKOUT","domain":"tpu.googleapis.com","metadata":{"zones_available":"us-east5-b"}}]}}`
	gkeOpPath    = "/v1/projects/p/locations/us-east5/operations/operation-123"
	gkeRunning   = `{"name":"operation-123","zone":"us-east5","operationType":"CREATE_NODE_POOL","status":"RUNNING","selfLink":"https://container.googleapis.com/v1/projects/1/locations/us-east5/operations/operation-123"}`
	gkeDone      = `{"name":"operation-123","zone":"us-east5","operationType":"CREATE_NODE_POOL","status":"DONE"}`
	gkeDoneError = `{"name":"operation-123","operationType":"CREATE_NODE_POOL","status":"DONE","error":{"code":9,"message":"Cluster is running incompatible operation operation-99."}}`
	gkeDoneOld   = `{"name":"operation-123","operationType":"CREATE_NODE_POOL","status":"DONE","statusMessage":"Try a different location, or try again later: Google Compute Engine does not have enough resources available to fulfill request: us-east5-a.","nodepoolConditions":[{"code":"GCE_STOCKOUT","message":"Google Compute Engine does not have enough resources available","canonicalCode":"RESOURCE_EXHAUSTED"}]}`
)

func TestWaitTPUOperation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		replies   []reply
		wantPolls int
		wantErr   *OperationError
		wantClass Class
	}{
		{
			name:      "done after several polls",
			replies:   []reply{{200, tpuRunning}, {200, tpuRunning}, {200, tpuRunning}, {200, tpuRunning}, {200, tpuDone}},
			wantPolls: 5,
		},
		{
			name:      "transient errors while polling are retried",
			replies:   []reply{{503, body503}, {429, body429Rate}, {200, tpuRunning}, {500, body500}, {200, tpuDone}},
			wantPolls: 5,
		},
		{
			name:      "brief not found is retried",
			replies:   []reply{{404, body404}, {200, tpuDone}},
			wantPolls: 2,
		},
		{
			name:      "operation error",
			replies:   []reply{{200, tpuRunning}, {200, tpuStockout}},
			wantPolls: 2,
			wantErr: &OperationError{
				Operation: tpuOpName, Code: 8, Status: "RESOURCE_EXHAUSTED",
				Message:  `There is no more capacity in the zone "us-east5-a"; you can try in another zone where Cloud TPU Nodes are offered (see https://cloud.google.com/tpu/docs/regions) [EID: 0x1]`,
				Reasons:  []string{"STOCKOUT"},
				Metadata: map[string]string{"zones_available": "us-east5-b"},
			},
			wantClass: ClassCapacity,
		},
		{
			name:      "permission error stops polling",
			replies:   []reply{{200, tpuRunning}, {403, body403}, {200, tpuDone}},
			wantPolls: 2,
			wantClass: ClassPermission,
		},
		{
			name:      "persistent not found stops polling",
			replies:   []reply{{404, body404}},
			wantPolls: maxOperationNotFound + 1,
			wantClass: ClassNotFound,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := &opServer{t: t, path: tpuOpPath, replies: tt.replies}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			c, waits := newWaitClients(t, srv)

			op, err := c.WaitTPUOperation(t.Context(), &tpu.Operation{Name: tpuOpName})
			if got := fake.count(); got != tt.wantPolls {
				t.Errorf("polls = %d, want %d", got, tt.wantPolls)
			}
			if len(*waits) != tt.wantPolls {
				t.Errorf("waits = %d, want one per poll (%d)", len(*waits), tt.wantPolls)
			}
			switch {
			case tt.wantErr != nil:
				var oe *OperationError
				if !errors.As(err, &oe) {
					t.Fatalf("want *OperationError, got %T %v", err, err)
				}
				if diff := cmp.Diff(tt.wantErr, oe); diff != "" {
					t.Errorf("OperationError (-want +got):\n%s", diff)
				}
				if op == nil || !op.Done {
					t.Errorf("want the finished operation returned, got %+v", op)
				}
			case tt.wantClass != ClassUnknown:
				if err == nil {
					t.Fatal("want an error")
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if !op.Done || len(op.Response) == 0 {
					t.Errorf("want the done operation with its response, got %+v", op)
				}
			}
			if got := Classify(err); err != nil && got != tt.wantClass {
				t.Errorf("Classify = %v, want %v", got, tt.wantClass)
			}
		})
	}
}

func TestWaitPollingIntervalsGrow(t *testing.T) {
	t.Parallel()
	replies := []reply{{200, tpuRunning}, {200, tpuRunning}, {200, tpuRunning}, {200, tpuRunning}, {200, tpuRunning}, {200, tpuDone}}
	fake := &opServer{t: t, path: tpuOpPath, replies: replies}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c, waits := newWaitClients(t, srv)
	if _, err := c.WaitTPUOperation(t.Context(), &tpu.Operation{Name: tpuOpName}); err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	want := []time.Duration{100 * ms, 150 * ms, 225 * ms, 300 * ms, 300 * ms, 300 * ms}
	if diff := cmp.Diff(want, *waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestWaitAlreadyDoneDoesNotPoll(t *testing.T) {
	t.Parallel()
	fake := &opServer{t: t, path: tpuOpPath, replies: []reply{{200, tpuDone}}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c, _ := newWaitClients(t, srv)
	op, err := c.WaitTPUOperation(t.Context(), &tpu.Operation{Name: tpuOpName, Done: true})
	if err != nil || !op.Done {
		t.Fatalf("got %+v, %v", op, err)
	}
	gop, err := c.WaitContainerOperation(t.Context(), "p", "us-east5", &container.Operation{Name: "operation-123", Status: "DONE"})
	if err != nil || gop.Status != "DONE" {
		t.Fatalf("got %+v, %v", gop, err)
	}
	if fake.count() != 0 {
		t.Errorf("polls = %d, want 0", fake.count())
	}
	if _, err := c.WaitTPUOperation(t.Context(), nil); err == nil {
		t.Error("nil operation: want an error")
	}
	if _, err := c.WaitTPUOperation(t.Context(), &tpu.Operation{}); err == nil {
		t.Error("operation without a name: want an error")
	}
}

func TestWaitContainerOperation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		replies   []reply
		wantPolls int
		wantErr   *OperationError
		wantClass Class
	}{
		{
			name:      "done after several polls",
			replies:   []reply{{200, gkeRunning}, {200, gkeRunning}, {503, body503}, {200, gkeDone}},
			wantPolls: 4,
		},
		{
			name:      "error field",
			replies:   []reply{{200, gkeRunning}, {200, gkeDoneError}},
			wantPolls: 2,
			wantErr: &OperationError{
				Operation: "projects/p/locations/us-east5/operations/operation-123", Code: 9, Status: "FAILED_PRECONDITION",
				Message: "Cluster is running incompatible operation operation-99.",
			},
			wantClass: ClassConflict,
		},
		{
			name:      "status message only (older GKE)",
			replies:   []reply{{200, gkeDoneOld}},
			wantPolls: 1,
			wantErr: &OperationError{
				Operation: "projects/p/locations/us-east5/operations/operation-123", Code: 2, Status: "UNKNOWN",
				Message: "Try a different location, or try again later: Google Compute Engine does not have enough resources available to fulfill request: us-east5-a.",
				Reasons: []string{"GCE_STOCKOUT"},
			},
			wantClass: ClassCapacity,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := &opServer{t: t, path: gkeOpPath, replies: tt.replies}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			c, _ := newWaitClients(t, srv)
			op, err := c.WaitContainerOperation(t.Context(), "p", "us-east5", &container.Operation{Name: "operation-123", Status: "PENDING"})
			if got := fake.count(); got != tt.wantPolls {
				t.Errorf("polls = %d, want %d", got, tt.wantPolls)
			}
			if op == nil || op.Status != "DONE" {
				t.Fatalf("want the DONE operation, got %+v", op)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var oe *OperationError
			if !errors.As(err, &oe) {
				t.Fatalf("want *OperationError, got %T %v", err, err)
			}
			if diff := cmp.Diff(tt.wantErr, oe); diff != "" {
				t.Errorf("OperationError (-want +got):\n%s", diff)
			}
			if got := Classify(err); got != tt.wantClass {
				t.Errorf("Classify = %v, want %v", got, tt.wantClass)
			}
		})
	}
}

func TestWaitDeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		replies []reply
	}{
		{"running", []reply{{200, tpuRunning}}},
		{"unavailable", []reply{{503, body503}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := &opServer{t: t, path: tpuOpPath, replies: tt.replies}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			c := NewClients(Config{TPUEndpoint: srv.URL, Polling: Polling{Initial: time.Millisecond, Max: 2 * time.Millisecond, Multiplier: 2}})
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			op, err := c.WaitTPUOperation(ctx, &tpu.Operation{Name: tpuOpName})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("want a deadline error, got %v", err)
			}
			if Classify(err) != ClassDeadline {
				t.Errorf("Classify = %v, want deadline", Classify(err))
			}
			if op == nil || op.Done || op.Name != tpuOpName {
				t.Errorf("want the last unfinished operation, got %+v", op)
			}
		})
	}
}

func TestPollJitter(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{0, 1, 2, 3 * time.Millisecond, 10 * time.Second} {
		lo := d / 2
		if d <= 1 {
			lo = d
		}
		for range 1000 {
			if got := pollJitter(d); got < lo || got > d {
				t.Fatalf("pollJitter(%v) = %v, want within [%v, %v]", d, got, lo, d)
			}
		}
	}
	// The jitter really spreads the waits.
	seen := map[time.Duration]bool{}
	for range 100 {
		seen[pollJitter(time.Second)] = true
	}
	if len(seen) < 50 {
		t.Errorf("pollJitter(1s) gave only %d distinct waits in 100 draws", len(seen))
	}
}

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
)

// fakeGKE answers GKE calls by method and path with canned answers, and
// counts them.
type fakeGKE struct {
	t       *testing.T
	answers map[string]reply // "GET /v1/..." -> answer

	mu    sync.Mutex
	calls map[string]int
}

func (f *fakeGKE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + r.URL.Path
	f.mu.Lock()
	f.calls[key]++
	f.mu.Unlock()
	rep, ok := f.answers[key]
	if !ok {
		f.t.Errorf("unexpected call %s", key)
		rep = reply{http.StatusNotImplemented, `{"error":{"code":501,"message":"not scripted"}}`}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	if _, err := fmt.Fprint(w, rep.body); err != nil {
		f.t.Errorf("writing the fake answer: %v", err)
	}
}

func (f *fakeGKE) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[key]
}

const (
	testCluster   = "projects/p/locations/us-central1/clusters/c"
	gkeOpsPath    = "/v1/projects/p/locations/us-central1/operations"
	gkePoolsPath  = "/v1/" + testCluster + "/nodePools"
	unavailable   = `{"error":{"code":503,"message":"try again","status":"UNAVAILABLE"}}`
	poolNotFound  = `{"error":{"code":404,"message":"pool not found","status":"NOT_FOUND"}}`
	targetCluster = "https://container.googleapis.com/v1/" + testCluster
)

// newNodePools returns the node-pools client of testCluster on f, whose
// waits and retries are recorded, not slept.
func newNodePools(t *testing.T, f *fakeGKE) (*NodePools, *[]time.Duration) {
	t.Helper()
	f.t, f.calls = t, map[string]int{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := NewClients(Config{ContainerEndpoint: srv.URL, Polling: testPolling})
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.poller = NewPoller(testPolling, func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	})
	p, err := c.NodePools(t.Context(), testCluster)
	if err != nil {
		t.Fatal(err)
	}
	return p, waits
}

// TestBlockingOperation: of the running operations of the location, only
// those on the cluster count; one on the cluster itself blocks first, then
// one on the same pool, then the oldest.
func TestBlockingOperation(t *testing.T) {
	t.Parallel()
	op := func(name, status, target, start string) string {
		return fmt.Sprintf(`{"name":%q,"status":%q,"targetLink":%q,"startTime":%q}`, name, status, target, start)
	}
	tests := map[string]struct {
		ops  []string
		want string // "" for none
	}{
		"none":                         {want: ""},
		"finished and foreign ignored": {ops: []string{op("done", "DONE", targetCluster, "1"), op("other", "RUNNING", "https://x/v1/projects/p/locations/us-central1/clusters/other", "1")}},
		"the oldest pool operation":    {ops: []string{op("b", "RUNNING", targetCluster+"/nodePools/b", "2"), op("a", "RUNNING", targetCluster+"/nodePools/a", "1")}, want: "a"},
		"the same pool before older":   {ops: []string{op("a", "RUNNING", targetCluster+"/nodePools/a", "1"), op("mine", "RUNNING", targetCluster+"/nodePools/mine", "2")}, want: "mine"},
		"the cluster itself first":     {ops: []string{op("mine", "RUNNING", targetCluster+"/nodePools/mine", "1"), op("upgrade", "RUNNING", targetCluster, "3")}, want: "upgrade"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := `{"operations":[`
			for i, o := range tt.ops {
				if i > 0 {
					body += ","
				}
				body += o
			}
			body += `]}`
			p, _ := newNodePools(t, &fakeGKE{answers: map[string]reply{"GET " + gkeOpsPath: {200, body}}})
			got := ""
			if b := p.blockingOperation(t.Context(), "mine"); b != nil {
				got = b.Name
			}
			if got != tt.want {
				t.Errorf("blocking operation = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNodePoolsLookupsAreBounded: lookups that have a fallback give up
// after LookupAttempts calls; List goes on.
func TestNodePoolsLookupsAreBounded(t *testing.T) {
	t.Parallel()
	f := &fakeGKE{answers: map[string]reply{
		"GET " + gkePoolsPath: {503, unavailable},
		"GET " + gkeOpsPath:   {503, unavailable},
	}}
	p, waits := newNodePools(t, f)
	if _, err := p.ListBounded(t.Context()); Classify(err) != ClassTransient {
		t.Errorf("ListBounded error = %v, want the 503", err)
	}
	if p.blockingOperation(t.Context(), "x") != nil {
		t.Error("a blocking operation was found although the list failed")
	}
	if got := f.count("GET " + gkePoolsPath); got != LookupAttempts {
		t.Errorf("%d pool list calls, want %d", got, LookupAttempts)
	}
	if got := f.count("GET " + gkeOpsPath); got != LookupAttempts {
		t.Errorf("%d operation list calls, want %d", got, LookupAttempts)
	}
	if len(*waits) != 2*(LookupAttempts-1) {
		t.Errorf("waits = %v, want one backoff between the calls of each lookup", *waits)
	}
}

// TestNodePoolsMissing: a pool that does not exist is nil without error,
// and deleting it succeeds without waiting; a cluster that does not exist
// is ErrClusterNotFound.
func TestNodePoolsMissing(t *testing.T) {
	t.Parallel()
	f := &fakeGKE{answers: map[string]reply{
		"GET " + gkePoolsPath + "/gone":    {404, poolNotFound},
		"DELETE " + gkePoolsPath + "/gone": {404, poolNotFound},
		"GET " + gkePoolsPath:              {404, poolNotFound},
	}}
	p, waits := newNodePools(t, f)
	np, err := p.Get(t.Context(), "gone")
	if np != nil || err != nil {
		t.Errorf("Get = %v, %v; want nil, nil", np, err)
	}
	if err := p.Delete(t.Context(), "gone"); err != nil {
		t.Errorf("Delete = %v, want nil", err)
	}
	if _, err := p.List(t.Context()); !errors.Is(err, ErrClusterNotFound) {
		t.Errorf("List error = %v, want ErrClusterNotFound", err)
	}
	if diff := cmp.Diff([]time.Duration{}, *waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// TestRunStartsJobsInOrder: Run starts a job once the one before it was
// accepted, and returns each job's error in order.
func TestRunStartsJobsInOrder(t *testing.T) {
	t.Parallel()
	p, _ := newNodePools(t, &fakeGKE{answers: map[string]reply{}})
	var mu sync.Mutex
	var started []string
	jobs := make([]PoolJob, 4)
	for i := range jobs {
		name := fmt.Sprintf("pool-%d", i)
		jobs[i] = PoolJob{Pool: name, Run: func(ctx context.Context) error {
			mu.Lock()
			started = append(started, name)
			mu.Unlock()
			MarkAccepted(ctx)
			if i == 2 {
				return fmt.Errorf("job %d failed", i)
			}
			return nil
		}}
	}
	errs := p.Run(t.Context(), jobs)
	if diff := cmp.Diff([]string{"pool-0", "pool-1", "pool-2", "pool-3"}, started); diff != "" {
		t.Errorf("start order (-want +got):\n%s", diff)
	}
	for i, err := range errs {
		if (err != nil) != (i == 2) {
			t.Errorf("job %d: error %v", i, err)
		}
	}
}

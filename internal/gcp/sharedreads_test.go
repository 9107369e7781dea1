// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"sync"
	"testing"

	"google.golang.org/api/container/v1"
)

// TestGetClusterIsShared: callers of one Clients share one read of a
// cluster, concurrent ones too, until the clients start a write; an error
// is shared as well.
func TestGetClusterIsShared(t *testing.T) {
	t.Parallel()
	clusterPath := "GET /v1/" + testCluster
	f := &fakeGKE{answers: map[string]reply{
		clusterPath:                        {200, `{"name":"c","currentMasterVersion":"1.33.5-gke.1000000"}`},
		"DELETE " + gkePoolsPath + "/gone": {404, poolNotFound},
	}}
	p, _ := newNodePools(t, f)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c, err := p.GetCluster(t.Context())
			if err != nil || c.CurrentMasterVersion != "1.33.5-gke.1000000" {
				t.Errorf("GetCluster = %v, %v", c, err)
			}
		})
	}
	wg.Wait()
	if n := f.count(clusterPath); n != 1 {
		t.Fatalf("8 reads made %d calls, want 1", n)
	}
	// Another NodePools of the same clients shares it too.
	other, err := p.c.NodePools(t.Context(), testCluster)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.GetCluster(t.Context()); err != nil || f.count(clusterPath) != 1 {
		t.Fatalf("a second NodePools read again (%d calls, %v)", f.count(clusterPath), err)
	}
	// A write drops the answer, even one GKE refuses.
	if err := p.Delete(t.Context(), "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.GetCluster(t.Context()); err != nil || f.count(clusterPath) != 2 {
		t.Fatalf("the read after a write made %d calls in all (%v), want 2", f.count(clusterPath), err)
	}
	// An error is shared: one call for both reads.
	g := &fakeGKE{answers: map[string]reply{clusterPath: {503, unavailable}}}
	q, _ := newNodePools(t, g)
	for range 2 {
		if _, err := q.GetCluster(t.Context()); Classify(err) != ClassTransient {
			t.Fatalf("GetCluster error = %v, want the 503", err)
		}
	}
	if n := g.count(clusterPath); n != 1 {
		t.Errorf("two failed reads made %d calls, want 1", n)
	}
}

// TestClusterReadsDropAnswersReadDuringAWrite: a read in flight when a
// write starts is answered to its callers but not kept; a caller whose
// context ends stops waiting without ending the read for the others.
func TestClusterReadsDropAnswersReadDuringAWrite(t *testing.T) {
	t.Parallel()
	var r sharedReads[*container.Cluster]
	release := make(chan struct{})
	calls := 0
	read := func() (*container.Cluster, error) {
		calls++
		<-release
		return &container.Cluster{Name: "c"}, nil
	}
	first := r.get("c", read)
	if again := r.get("c", read); again != first {
		t.Fatal("a second caller started its own read")
	}
	r.written()
	close(release)
	<-first.done
	if first.val == nil || first.val.Name != "c" {
		t.Fatalf("the read in flight answered %v, %v", first.val, first.err)
	}
	next := r.get("c", func() (*container.Cluster, error) { calls++; return &container.Cluster{Name: "new"}, nil })
	<-next.done
	if next == first || next.val.Name != "new" || calls != 2 {
		t.Fatalf("after the write: %v (%d reads), want a new read", next.val, calls)
	}

	// A caller that gives up.
	f := &fakeGKE{answers: map[string]reply{"GET /v1/" + testCluster: {200, `{"name":"c"}`}}}
	p, _ := newNodePools(t, f)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.GetCluster(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("GetCluster with an ended context = %v, want context.Canceled", err)
	}
	if c, err := p.GetCluster(t.Context()); err != nil || c.Name != "c" {
		t.Errorf("GetCluster after another caller gave up = %v, %v", c, err)
	}
}

// TestNodePoolsReadIsShared: the refreshes of every resource on a cluster
// share one nodePools.list until these clients write; each caller gets a
// map of its own; a cluster that is gone is ErrClusterNotFound, as List
// reports it, for every caller from one call.
func TestNodePoolsReadIsShared(t *testing.T) {
	t.Parallel()
	listPath := "GET " + gkePoolsPath
	f := &fakeGKE{answers: map[string]reply{
		listPath:                           {200, `{"nodePools":[{"name":"a"},{"name":"b"}]}`},
		"DELETE " + gkePoolsPath + "/gone": {404, poolNotFound},
	}}
	p, _ := newNodePools(t, f)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			pools, err := p.Read(t.Context())
			if err != nil || len(pools) != 2 || pools["a"] == nil {
				t.Errorf("Read = %v, %v", pools, err)
			}
			delete(pools, "a") // the caller's own map
		})
	}
	wg.Wait()
	if n := f.count(listPath); n != 1 {
		t.Fatalf("8 refreshes made %d list calls, want 1", n)
	}
	if err := p.Delete(t.Context(), "gone"); err != nil {
		t.Fatal(err)
	}
	if pools, err := p.Read(t.Context()); err != nil || len(pools) != 2 || f.count(listPath) != 2 {
		t.Fatalf("the refresh after a write: %v, %v, %d list calls in all, want a new list", pools, err, f.count(listPath))
	}

	g := &fakeGKE{answers: map[string]reply{listPath: {404, `{"error":{"code":404,"message":"cluster not found","status":"NOT_FOUND"}}`}}}
	q, _ := newNodePools(t, g)
	for range 2 {
		if _, err := q.Read(t.Context()); !errors.Is(err, ErrClusterNotFound) {
			t.Fatalf("Read of a cluster that is gone = %v, want ErrClusterNotFound", err)
		}
	}
	if n := g.count(listPath); n != 1 {
		t.Errorf("%d list calls, want one shared by both refreshes", n)
	}
}

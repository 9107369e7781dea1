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
	var r clusterReads
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
	if first.cluster == nil || first.cluster.Name != "c" {
		t.Fatalf("the read in flight answered %v, %v", first.cluster, first.err)
	}
	next := r.get("c", func() (*container.Cluster, error) { calls++; return &container.Cluster{Name: "new"}, nil })
	<-next.done
	if next == first || next.cluster.Name != "new" || calls != 2 {
		t.Fatalf("after the write: %v (%d reads), want a new read", next.cluster, calls)
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

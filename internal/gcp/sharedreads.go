// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"sync"

	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
)

// sharedReads shares reads among every resource and data source one Clients
// serves: one provider instance, which Terraform configures once per plan or
// apply. A read is keyed by what it reads (a cluster, the nodes of a zone);
// the first caller starts it and every other caller gets its answer.
//
// A plan of N resources on one cluster would otherwise read the cluster N
// times, each answer listing every node pool of the cluster (the N
// resources' own among them); a refresh of N TPU VMs in Z zones would make N
// reads instead of Z lists. It stays correct because every answer is dropped
// as soon as these clients start a write (see Clients.written): a read still
// in flight then is answered to its callers and never to a later one. Writes
// made by anyone else are no more visible to a shared answer than to N
// answers read one after the other during the plan.
type sharedReads[V any] struct {
	mu sync.Mutex
	by map[string]*sharedRead[V]
}

// sharedRead is one read, shared by every caller that asked for it.
type sharedRead[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// get returns the shared read of key, starting it with read when there is
// none since the last write. read runs on its own goroutine, with a context
// of its own: a caller that gives up does not end it for the others.
func (r *sharedReads[V]) get(key string, read func() (V, error)) *sharedRead[V] {
	r.mu.Lock()
	defer r.mu.Unlock()
	if sr, ok := r.by[key]; ok {
		return sr
	}
	sr := &sharedRead[V]{done: make(chan struct{})}
	if r.by == nil {
		r.by = map[string]*sharedRead[V]{}
	}
	r.by[key] = sr
	go func() {
		sr.val, sr.err = read()
		close(sr.done)
	}()
	return sr
}

// wait returns the read's answer, or ctx's error if ctx ends first.
func (sr *sharedRead[V]) wait(ctx context.Context) (V, error) {
	select {
	case <-sr.done:
		return sr.val, sr.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// written drops every shared answer, those still being read included.
func (r *sharedReads[V]) written() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.by)
}

// reads are the kinds of reads one Clients shares.
type reads struct {
	// clusters are plan-time reads of GKE clusters, by cluster id.
	clusters sharedReads[*container.Cluster]
	// pools are refresh-time lists of a cluster's node pools, by cluster id.
	pools sharedReads[map[string]*container.NodePool]
	// tpuNodes are refresh-time lists of the Cloud TPU nodes of a zone, by
	// parent (projects/P/locations/Z), each node by its name.
	tpuNodes sharedReads[map[string]*tpu.Node]
	// instances are refresh-time lists of the Compute Engine instances of a
	// zone, by project and zone, each instance by its name.
	instances sharedReads[map[string]*compute.Instance]
}

// written drops every shared answer: these clients are starting a write, and
// any of them may read what it changes.
func (c *Clients) written() {
	c.reads.clusters.written()
	c.reads.pools.written()
	c.reads.tpuNodes.written()
	c.reads.instances.written()
}

// sharedCluster waits for the shared read of p's cluster, or for ctx.
// The read itself is bounded by ClusterReadTimeout, not by ctx.
func (p *NodePools) sharedCluster(ctx context.Context) (*container.Cluster, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.c.reads.clusters.get(p.cluster, func() (*container.Cluster, error) {
		rctx, cancel := Detach(ctx, ClusterReadTimeout)
		defer cancel()
		return p.svc.Projects.Locations.Clusters.Get(p.cluster).Context(rctx).Do()
	}).wait(ctx)
}

// sharedList is the shared part of a refresh read: the items of a list of
// key by name, listed with list when there is none since the last write and
// bounded by SharedListTimeout, waited for until ctx ends. ok is false when
// the list failed or ctx ended: the caller then reads on its own, so that a
// list that a role may not make, or an API that cannot answer it, costs one
// call and never a wrong answer.
func sharedList[V any](ctx context.Context, r *sharedReads[map[string]V], key string,
	list func(ctx context.Context) ([]V, error), name func(V) string) (byName map[string]V, ok bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	sr := r.get(key, func() (map[string]V, error) {
		lctx, cancel := Detach(ctx, SharedListTimeout)
		defer cancel()
		items, err := list(lctx)
		byName := make(map[string]V, len(items))
		for _, item := range items {
			byName[name(item)] = item
		}
		return byName, err
	})
	byName, err := sr.wait(ctx)
	return byName, err == nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"sync"

	"google.golang.org/api/container/v1"
)

// clusterReads shares the plan-time reads of GKE clusters among every
// resource and data source one Clients serves: one provider instance, which
// Terraform configures once per plan or apply.
//
// A plan of N resources on one cluster would otherwise read the cluster N
// times, and each answer lists every node pool of the cluster (the N
// resources' own among them): N calls and N² pools decoded. With the read
// shared, the first caller reads and every other caller gets that answer.
// It stays correct because the answer is dropped as soon as these clients
// start a write (a node-pool create, update or delete: see
// NodePools.mutate): a read still in flight then is answered to its callers
// and never to a later one. Writes made by anyone else are no more visible to
// a shared answer than to N answers read one after the other during the plan.
type clusterReads struct {
	mu sync.Mutex
	by map[string]*clusterRead
}

// clusterRead is one read, shared by every caller that asked for it.
type clusterRead struct {
	done    chan struct{}
	cluster *container.Cluster
	err     error
}

// get returns the shared read of cluster, starting it with read when there
// is none since the last write.
func (r *clusterReads) get(cluster string, read func() (*container.Cluster, error)) *clusterRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cr, ok := r.by[cluster]; ok {
		return cr
	}
	cr := &clusterRead{done: make(chan struct{})}
	if r.by == nil {
		r.by = map[string]*clusterRead{}
	}
	r.by[cluster] = cr
	go func() {
		cr.cluster, cr.err = read()
		close(cr.done)
	}()
	return cr
}

// written drops every shared answer, those still being read included:
// these clients are starting a write.
func (r *clusterReads) written() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.by)
}

// sharedCluster waits for the shared read of p's cluster, or for ctx.
// The read itself is bounded by ClusterReadTimeout, not by ctx, so that a
// caller that gives up does not end it for the others.
func (p *NodePools) sharedCluster(ctx context.Context) (*container.Cluster, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cr := p.c.clusters.get(p.cluster, func() (*container.Cluster, error) {
		rctx, cancel := Detach(ctx, ClusterReadTimeout)
		defer cancel()
		return p.svc.Projects.Locations.Clusters.Get(p.cluster).Context(rctx).Do()
	})
	select {
	case <-cr.done:
		return cr.cluster, cr.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

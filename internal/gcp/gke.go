// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	container "google.golang.org/api/container/v1"
)

// OperationsPerCluster is how many node-pool operations the clients start at
// once on one cluster: GKE's documented per-cluster quota of concurrent
// operations is 5 (answered with 429 "hits the concurrent operations quota",
// terraform-provider-google issue 15205). After the first refusal for the
// quota or for another node pool's operation (GKE serializing node-pool
// operations), the cluster is served one operation at a time, in the order
// of the jobs given to [NodePools.Run].
const OperationsPerCluster = 5

// LookupAttempts bounds the calls of a lookup that has a fallback: the list
// of running operations a refused call looks for its blocker in, and
// [NodePools.ListBounded]. When GKE cannot answer, the caller goes on
// without the answer rather than wait for it.
const LookupAttempts = 2

// ErrClusterNotFound means the cluster itself is gone.
var ErrClusterNotFound = errors.New("cluster not found")

// NodePools calls GKE's node pools of one cluster. Every call is retried
// with the clients' backoff; a call GKE refuses because another operation
// runs on the cluster waits for that operation, then is tried again (see
// [NodePools.Create]); operations are started through the clients'
// per-cluster limiter by [NodePools.Run], and each is polled once however
// many callers wait for it.
type NodePools struct {
	c        *Clients
	svc      *container.Service
	cluster  string // projects/P/locations/L/clusters/C
	project  string
	location string
	name     string // C

	watchMu sync.Mutex
	watches map[string]*operationWatch // by operation id
	polls   *PollGroup                 // links the waits of these operations
}

// NodePools returns the node-pools client of cluster
// (projects/P/locations/L/clusters/C), building the GKE client on first use.
// Operations waited for through one NodePools share a PollGroup: get one per
// apply.
func (c *Clients) NodePools(ctx context.Context, cluster string) (*NodePools, error) {
	project, location, name, err := ParseClusterID(cluster)
	if err != nil {
		return nil, err
	}
	svc, err := c.Container(ctx)
	if err != nil {
		return nil, err
	}
	return &NodePools{
		c: c, svc: svc, cluster: cluster, project: project, location: location, name: name,
		watches: map[string]*operationWatch{}, polls: NewPollGroup(),
	}, nil
}

// Cluster returns the cluster id, projects/P/locations/L/clusters/C.
func (p *NodePools) Cluster() string { return p.cluster }

// PoolName returns the full name of a pool of the cluster.
func (p *NodePools) PoolName(pool string) string { return p.cluster + "/nodePools/" + pool }

// Poller is the schedule for reading a pool that is changing state (see [WaitFor]).
func (p *NodePools) Poller() *Poller { return p.c.poller }

// GetCluster reads the cluster, with its node pools and control plane
// version, in one call: a plan-time read, bounded by ctx and by
// ClusterReadTimeout. The answer is shared by every caller of these clients
// until they start a write (see sharedReads): callers must not change it.
func (p *NodePools) GetCluster(ctx context.Context) (*container.Cluster, error) {
	return p.sharedCluster(ctx)
}

// Get reads one pool; a nil pool and nil error mean it does not exist.
func (p *NodePools) Get(ctx context.Context, pool string) (*container.NodePool, error) {
	np, err := retryValue(ctx, p.c, "nodePools.get", func(ctx context.Context) (*container.NodePool, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.Get(p.PoolName(pool)).Context(ctx).Do()
	})
	if Classify(err) == ClassNotFound {
		return nil, nil
	}
	return np, err
}

// List reads every pool of the cluster, by name, retrying until ctx ends.
// ErrClusterNotFound is returned when the cluster does not exist.
func (p *NodePools) List(ctx context.Context) (map[string]*container.NodePool, error) {
	return p.list(ctx, 0)
}

// Read is List for a refresh: the one List of the cluster that these
// clients share among every resource they refresh on it until their next
// write (see sharedReads), with List's retries and its errors. It runs on
// its own context, so that a caller that gives up does not end it for the
// others. The map is the caller's; the pools in it are shared and must not
// change.
func (p *NodePools) Read(ctx context.Context) (map[string]*container.NodePool, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pools, err := p.c.reads.pools.get(p.cluster, func() (map[string]*container.NodePool, error) {
		return p.List(context.WithoutCancel(ctx))
	}).wait(ctx)
	if err != nil {
		return nil, err
	}
	return maps.Clone(pools), nil
}

// ListBounded is List with at most LookupAttempts calls, for a check that
// must not use up an apply's time when GKE cannot list.
func (p *NodePools) ListBounded(ctx context.Context) (map[string]*container.NodePool, error) {
	return p.list(ctx, LookupAttempts)
}

func (p *NodePools) list(ctx context.Context, maxAttempts int) (map[string]*container.NodePool, error) {
	var resp *container.ListNodePoolsResponse
	err := p.c.withRetry(ctx, "nodePools.list", maxAttempts, nil, func(ctx context.Context) error {
		var err error
		resp, err = p.svc.Projects.Locations.Clusters.NodePools.List(p.cluster).Context(ctx).Do()
		return err
	})
	if err != nil {
		if Classify(err) == ClassNotFound {
			return nil, fmt.Errorf("%w: %w", ErrClusterNotFound, err)
		}
		return nil, err
	}
	out := make(map[string]*container.NodePool, len(resp.NodePools))
	for _, np := range resp.NodePools {
		if np != nil {
			out[np.Name] = np
		}
	}
	return out, nil
}

// Create creates np and waits for GKE to finish. A refusal because the pool
// exists is returned as GKE's answer (ClassAlreadyExists), before any wait.
func (p *NodePools) Create(ctx context.Context, np *container.NodePool) error {
	return p.mutate(ctx, "create", np.Name, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.Create(p.cluster,
			&container.CreateNodePoolRequest{NodePool: np}).Context(ctx).Do()
	})
}

// Delete deletes one pool and waits; a pool that does not exist is deleted.
func (p *NodePools) Delete(ctx context.Context, pool string) error {
	err := p.mutate(ctx, "delete", pool, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.Delete(p.PoolName(pool)).Context(ctx).Do()
	})
	if Classify(err) == ClassNotFound {
		return nil
	}
	return err
}

// Update changes a pool's labels and taints, and waits.
func (p *NodePools) Update(ctx context.Context, pool string, req *container.UpdateNodePoolRequest) error {
	return p.mutate(ctx, "update", pool, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.Update(p.PoolName(pool), req).Context(ctx).Do()
	})
}

// SetSize sets a pool's node count, and waits.
func (p *NodePools) SetSize(ctx context.Context, pool string, req *container.SetNodePoolSizeRequest) error {
	return p.mutate(ctx, "setSize", pool, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.SetSize(p.PoolName(pool), req).Context(ctx).Do()
	})
}

// SetAutoscaling sets a pool's autoscaling, and waits.
func (p *NodePools) SetAutoscaling(ctx context.Context, pool string, req *container.SetNodePoolAutoscalingRequest) error {
	return p.mutate(ctx, "setAutoscaling", pool, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.SetAutoscaling(p.PoolName(pool), req).Context(ctx).Do()
	})
}

// SetManagement sets a pool's auto-repair and auto-upgrade, and waits.
func (p *NodePools) SetManagement(ctx context.Context, pool string, req *container.SetNodePoolManagementRequest) error {
	return p.mutate(ctx, "setManagement", pool, func(ctx context.Context) (*container.Operation, error) {
		return p.svc.Projects.Locations.Clusters.NodePools.SetManagement(p.PoolName(pool), req).Context(ctx).Do()
	})
}

// mutate starts one operation on pool with call, then waits for it.
func (p *NodePools) mutate(ctx context.Context, what, pool string, start func(ctx context.Context) (*container.Operation, error)) error {
	// The cluster changes from the call on: answers read before it, or
	// while it runs, are not shared after it.
	p.c.written()
	defer p.c.written()
	var op *container.Operation
	err := p.call(ctx, what, pool, func(ctx context.Context) error {
		var err error
		op, err = start(ctx)
		return err
	})
	if err != nil {
		return err
	}
	return p.wait(ctx, op)
}

// call runs one mutating API call with retries on conflicts, rate limits and
// transient errors. When GKE refuses the call because another operation
// runs on the cluster (FAILED_PRECONDITION), call finds that operation and
// waits for it, then tries again at once; when no such operation can be
// found, and for rate limits and transient errors, it backs off instead. A
// refusal for another pool's operation (GKE serializing node-pool
// operations), for the quota, or for an operation it cannot find switches
// the cluster to one operation at a time; an operation on the cluster itself
// (such as a control plane upgrade) or on the same pool does not.
func (p *NodePools) call(ctx context.Context, what, pool string, fn func(context.Context) error) error {
	attempts := 0
	waited := map[string]bool{}
	err := p.c.withRetry(ctx, what, 0, func(err error, class Class, attempt int, wait time.Duration) {
		if class == ClassConflict || class == ClassRateLimited {
			p.c.limiter.SetLimit(p.cluster, 1)
		}
		p.c.log.InfoContext(ctx, "GKE refused a node pool operation for now; retrying after a backoff",
			"cluster", p.cluster, "node_pool", pool, "call", what, "attempt", attempt,
			"class", class.String(), "wait", wait.String(), "error", err.Error())
	}, func(ctx context.Context) error {
		for {
			attempts++
			err := fn(ctx)
			if Classify(err) != ClassConflict {
				return err
			}
			blocker := p.blockingOperation(ctx, pool)
			if blocker == nil || waited[blocker.Name] {
				return err // nothing new to wait for: back off
			}
			waited[blocker.Name] = true
			if target := poolOfLink(blocker.TargetLink); target != "" && target != pool {
				p.c.limiter.SetLimit(p.cluster, 1)
			}
			p.c.log.InfoContext(ctx, "GKE refused a node pool operation while another operation runs; waiting for it",
				"cluster", p.cluster, "node_pool", pool, "call", what, "attempt", attempts,
				"blocking_operation", blocker.OperationType+" "+blocker.Name, "error", err.Error())
			if werr := p.wait(ctx, blocker); werr != nil {
				var failed *OperationError
				if !errors.As(werr, &failed) {
					// Polling the blocking operation failed; its own failure
					// would have been fine (it is over either way).
					p.c.log.DebugContext(ctx, "waiting for the blocking operation failed; backing off instead", "error", werr.Error())
					return err
				}
			}
		}
	})
	if err != nil && attempts > 1 {
		return &retriedError{attempts: attempts, err: err}
	}
	if err == nil {
		MarkAccepted(ctx)
	}
	return err
}

// retriedError marks an error returned after more than one attempt.
type retriedError struct {
	attempts int
	err      error
}

func (e *retriedError) Error() string {
	return fmt.Sprintf("%v (after %d attempts)", e.err, e.attempts)
}
func (e *retriedError) Unwrap() error { return e.err }

// runningOperations lists the unfinished GKE operations on the cluster: the
// operations of its location (GKE's list has no filter) whose target is the
// cluster or one of its node pools. It makes at most LookupAttempts calls:
// callers fall back on backing off.
func (p *NodePools) runningOperations(ctx context.Context) ([]*container.Operation, error) {
	parent := "projects/" + p.project + "/locations/" + p.location
	var resp *container.ListOperationsResponse
	err := p.c.withRetry(ctx, "operations.list", LookupAttempts, nil, func(ctx context.Context) error {
		var err error
		resp, err = p.svc.Projects.Locations.Operations.List(parent).Context(ctx).Do()
		return err
	})
	if err != nil {
		p.c.log.DebugContext(ctx, "listing GKE operations failed", "cluster", p.cluster, "error", err.Error())
		return nil, err
	}
	var out []*container.Operation
	for _, op := range resp.Operations {
		if op == nil || op.Status == operationDone || op.Name == "" {
			continue
		}
		if c, ok := clusterOfLink(op.TargetLink); ok && c == p.name {
			out = append(out, op)
		}
	}
	return out, nil
}

// clusterOfLink returns the cluster a GKE target link names
// (".../clusters/C" or ".../clusters/C/nodePools/P").
func clusterOfLink(link string) (string, bool) {
	_, rest, ok := strings.Cut(link, "/clusters/")
	if !ok {
		return "", false
	}
	cluster, _, _ := strings.Cut(rest, "/")
	return cluster, cluster != ""
}

// poolOfLink returns the node pool a GKE target link names, "" for the
// cluster itself.
func poolOfLink(link string) string {
	_, pool, ok := strings.Cut(link, "/nodePools/")
	if !ok {
		return ""
	}
	pool, _, _ = strings.Cut(pool, "/")
	return pool
}

// blockingOperation returns the running operation most likely to block an
// operation on pool: one on the cluster itself, else one on the same pool,
// else the oldest. It returns nil when there is none or listing fails (the
// caller backs off then); the refusal's message names the operation too,
// but messages are not parsed.
func (p *NodePools) blockingOperation(ctx context.Context, pool string) *container.Operation {
	ops, err := p.runningOperations(ctx)
	if err != nil {
		return nil
	}
	rank := func(op *container.Operation) int {
		switch poolOfLink(op.TargetLink) {
		case "":
			return 0
		case pool:
			return 1
		}
		return 2
	}
	var best *container.Operation
	for _, op := range ops {
		if best == nil || rank(op) < rank(best) || (rank(op) == rank(best) && op.StartTime < best.StartTime) {
			best = op
		}
	}
	return best
}

// WaitPoolOperation waits for the operation running on pool, if any (one
// started by an apply that did not finish). The operation's own failure is
// not an error: it shows in the pool's status.
func (p *NodePools) WaitPoolOperation(ctx context.Context, pool string) error {
	// When the operations cannot be listed (a failure runningOperations
	// logs), there is none to wait for: the caller polls the pool instead.
	ops, _ := p.runningOperations(ctx)
	for _, op := range ops {
		if poolOfLink(op.TargetLink) == pool {
			if err := p.wait(ctx, op); err != nil && ctx.Err() != nil {
				return err
			}
			return nil
		}
	}
	return nil
}

// operationWatch is one poller of a GKE operation, shared by every caller
// that waits for it.
type operationWatch struct {
	done chan struct{}
	err  error
}

// wait waits for a GKE operation with WaitContainerOperation. A caller that
// waits for an operation another caller already polls (the job that
// started it, or another job it blocks) shares that poller, so each
// operation is polled once and every waiter learns its end at once.
// Operations started together on a cluster tend to end together: when one
// ends, the waiters of the others poll at once (a PollGroup).
func (p *NodePools) wait(ctx context.Context, op *container.Operation) error {
	if op == nil {
		return errors.New("waiting for a GKE operation: no operation")
	}
	key := op.Name[strings.LastIndex(op.Name, "/")+1:]
	p.watchMu.Lock()
	w, polled := p.watches[key]
	if !polled {
		w = &operationWatch{done: make(chan struct{})}
		p.watches[key] = w
	}
	p.watchMu.Unlock()
	if polled {
		select {
		case <-w.done:
			return w.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	_, w.err = p.c.WaitContainerOperation(WithPollGroup(ctx, p.polls), p.project, p.location, op)
	close(w.done)
	return w.err
}

// PoolJob is one unit of work on one pool, run by [NodePools.Run] while it
// holds a slot of the cluster's limiter.
type PoolJob struct {
	Pool string
	Run  func(ctx context.Context) error
}

// acceptedKey carries, in a job's context, the function that tells Run that
// GKE accepted the job's first call.
type acceptedKey struct{}

// MarkAccepted tells [NodePools.Run] that GKE accepted the first operation
// of the job whose context ctx is, so that the next job may start. Every
// successful mutating call of NodePools marks it; a job that finds its work
// under way without a call (a pool it adopts) marks it itself.
func MarkAccepted(ctx context.Context) {
	if f, ok := ctx.Value(acceptedKey{}).(func()); ok {
		f()
	}
}

// Run runs jobs on the cluster, at most the limiter's number at once. A job
// starts once the one before it has had its first operation accepted (or
// has ended), so operations start in the order of jobs: when GKE runs one
// operation at a time, the first refusal lowers the limit to one and the
// remaining jobs then run one after another, in that order. It returns each
// job's error.
func (p *NodePools) Run(ctx context.Context, jobs []PoolJob) []error {
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		release, err := p.c.limiter.Acquire(ctx, p.cluster)
		if err != nil {
			errs[i] = fmt.Errorf("waiting for a free operation slot on the cluster: %w", err)
			continue
		}
		accepted := make(chan struct{})
		var once sync.Once
		signal := func() { once.Do(func() { close(accepted) }) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer release()
			defer signal()
			p.c.log.DebugContext(ctx, "node pool operation started", "cluster", p.cluster, "node_pool", j.Pool)
			errs[i] = j.Run(context.WithValue(ctx, acceptedKey{}, signal))
		}()
		select {
		case <-accepted:
		case <-ctx.Done():
		}
	}
	wg.Wait()
	return errs
}

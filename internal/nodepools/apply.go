// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// poolConcurrency is how many node-pool operations the provider starts at
// once on one cluster: GKE's documented per-cluster quota of concurrent
// operations is 5 (answered with 429 "hits the concurrent operations quota",
// terraform-provider-google issue 15205). After the first refusal for a
// conflicting operation or the quota, the cluster is served one operation at
// a time, in tier order.
const poolConcurrency = 5

// clusterLimiter bounds concurrent node-pool operations per cluster across
// every accel_fallback_nodepools resource served by this provider process,
// keyed by API endpoint and cluster id.
var clusterLimiter = gcp.NewLimiter(poolConcurrency)

// Node pool statuses (NodePool.Status in the GKE v1 REST reference), plus
// statusMissing for a pool recorded in state that no longer exists.
const (
	statusProvisioning     = "PROVISIONING"
	statusRunning          = "RUNNING"
	statusRunningWithError = "RUNNING_WITH_ERROR"
	statusReconciling      = "RECONCILING"
	statusError            = "ERROR"
	statusMissing          = "MISSING"
)

// poolOps runs node-pool operations on one cluster.
type poolOps struct {
	clients  *gcp.Clients
	svc      *container.Service
	cluster  string // projects/P/locations/L/clusters/C
	project  string
	location string
	limiter  *gcp.Limiter
	key      string
	backoff  gcp.Backoff
	poll     gcp.Polling
	sleep    func(context.Context, time.Duration) error
}

// newPoolOps prepares operations on cluster through clients, bounded by limiter.
func newPoolOps(ctx context.Context, clients *gcp.Clients, limiter *gcp.Limiter, cluster string) (*poolOps, error) {
	project, location, _, err := gcp.ParseClusterID(cluster)
	if err != nil {
		return nil, err
	}
	svc, err := clients.Container(ctx)
	if err != nil {
		return nil, err
	}
	cfg := clients.Config()
	poll := cfg.Polling
	if poll.Max <= 0 {
		poll = gcp.DefaultPolling()
	}
	if poll.Initial <= 0 {
		poll.Initial = gcp.DefaultPolling().Initial
	}
	return &poolOps{
		clients:  clients,
		svc:      svc,
		cluster:  cluster,
		project:  project,
		location: location,
		limiter:  limiter,
		key:      cfg.ContainerEndpoint + "|" + cluster,
		backoff:  backoffFor(poll),
		poll:     poll,
		sleep:    sleepContext,
	}, nil
}

// backoffFor scales the retry backoff to the polling cap: with the default
// 10 s cap it is gcp.DefaultBackoff (1 s growing to 30 s); a short
// poll_interval (the local emulator) retries as quickly as it polls.
func backoffFor(p gcp.Polling) gcp.Backoff {
	return gcp.Backoff{Initial: max(p.Max/10, time.Millisecond), Max: 3 * p.Max, Multiplier: 2}
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (o *poolOps) poolName(pool string) string { return o.cluster + poolsSegment + pool }

// call runs one mutating API call with retries on conflicts, rate limits and
// transient errors. On the first conflict or quota refusal the cluster is
// switched to one operation at a time, and the operations that block the
// call are named in the log.
func (o *poolOps) call(ctx context.Context, what, pool string, fn func(context.Context) error) error {
	attempts := 0
	err := gcp.Retry(ctx, o.backoff, func(err error, class gcp.Class, attempt int, wait time.Duration) {
		if class == gcp.ClassConflict || class == gcp.ClassRateLimited {
			o.limiter.SetLimit(o.key, 1)
		}
		fields := map[string]any{
			"cluster": o.cluster, "node_pool": pool, "call": what, "attempt": attempt,
			"class": class.String(), "wait": wait.String(), "error": err.Error(),
		}
		if class == gcp.ClassConflict && attempt == 1 {
			fields["blocking_operations"] = o.blockingOperations(ctx)
		}
		tflog.Info(ctx, "GKE refused a node pool operation for now; retrying", fields)
	}, func(ctx context.Context) error {
		attempts++
		return fn(ctx)
	})
	if err != nil && attempts > 1 {
		return &retriedError{attempts: attempts, err: err}
	}
	if err == nil {
		markAccepted(ctx)
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

// blockingOperations lists the operations running on the cluster, as
// "TYPE name" strings, for the log. Errors are logged, not returned.
func (o *poolOps) blockingOperations(ctx context.Context) []string {
	parent := "projects/" + o.project + "/locations/" + o.location
	resp, err := o.svc.Projects.Locations.Operations.List(parent).Context(ctx).Do()
	if err != nil {
		tflog.Debug(ctx, "listing GKE operations failed", map[string]any{"error": err.Error()})
		return nil
	}
	_, _, cluster, _ := gcp.ParseClusterID(o.cluster)
	var out []string
	for _, op := range resp.Operations {
		if op == nil || op.Status == "DONE" {
			continue
		}
		if !strings.Contains(op.TargetLink, "/clusters/"+cluster) && op.TargetLink != "" {
			continue
		}
		out = append(out, op.OperationType+" "+op.Name)
	}
	return out
}

// wait waits for a GKE operation started on the cluster.
func (o *poolOps) wait(ctx context.Context, op *container.Operation) error {
	_, err := o.clients.WaitContainerOperation(ctx, o.project, o.location, op)
	return err
}

// get reads one pool; a nil pool and nil error mean it does not exist.
func (o *poolOps) get(ctx context.Context, pool string) (*container.NodePool, error) {
	var np *container.NodePool
	err := gcp.Retry(ctx, o.backoff, nil, func(ctx context.Context) error {
		var err error
		np, err = o.svc.Projects.Locations.Clusters.NodePools.Get(o.poolName(pool)).Context(ctx).Do()
		return err
	})
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil, nil
	}
	return np, err
}

// list reads every pool of the cluster, by name. errClusterNotFound is
// returned when the cluster does not exist.
func (o *poolOps) list(ctx context.Context) (map[string]*container.NodePool, error) {
	var resp *container.ListNodePoolsResponse
	err := gcp.Retry(ctx, o.backoff, nil, func(ctx context.Context) error {
		var err error
		resp, err = o.svc.Projects.Locations.Clusters.NodePools.List(o.cluster).Context(ctx).Do()
		return err
	})
	if err != nil {
		if gcp.Classify(err) == gcp.ClassNotFound {
			return nil, fmt.Errorf("%w: %w", errClusterNotFound, err)
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

// errClusterNotFound means the cluster itself is gone.
var errClusterNotFound = errors.New("cluster not found")

// clusterVersion reads the cluster's control plane version.
func (o *poolOps) clusterVersion(ctx context.Context) (string, error) {
	c, err := o.svc.Projects.Locations.Clusters.Get(o.cluster).Context(ctx).Do()
	if err != nil {
		return "", err
	}
	return c.CurrentMasterVersion, nil
}

// errPoolExists means a create found a pool of that name that this resource
// did not create.
var errPoolExists = errors.New("a node pool of this name already exists in the cluster")

// create creates one pool and waits for GKE to finish. A pool left in
// ERROR after a stockout exists, and its creation still fails: the caller
// reads the pools afterwards to record what exists.
func (o *poolOps) create(ctx context.Context, np *container.NodePool) error {
	var op *container.Operation
	attempt := 0
	err := o.call(ctx, "create", np.Name, func(ctx context.Context) error {
		attempt++
		var err error
		op, err = o.svc.Projects.Locations.Clusters.NodePools.Create(o.cluster,
			&container.CreateNodePoolRequest{NodePool: np}).Context(ctx).Do()
		if err != nil && attempt > 1 && gcp.Classify(err) == gcp.ClassAlreadyExists {
			// An earlier attempt created it after all (for example the answer
			// was lost): adopt it.
			op = nil
			return nil
		}
		return err
	})
	switch {
	case err != nil && gcp.Classify(err) == gcp.ClassAlreadyExists:
		return fmt.Errorf("%w: %w", errPoolExists, err)
	case err != nil:
		return err
	case op == nil:
		return o.awaitResting(ctx, np.Name)
	}
	return o.wait(ctx, op)
}

// awaitResting polls a pool until it leaves PROVISIONING and RECONCILING.
func (o *poolOps) awaitResting(ctx context.Context, pool string) error {
	wait := o.poll.Initial
	for {
		np, err := o.get(ctx, pool)
		if err != nil {
			return err
		}
		if np == nil || (np.Status != statusProvisioning && np.Status != statusReconciling) {
			return nil
		}
		if err := o.sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(time.Duration(float64(wait)*1.5), o.poll.Max)
	}
}

// delete deletes one pool and waits; a pool that does not exist is deleted.
func (o *poolOps) delete(ctx context.Context, pool string) error {
	var op *container.Operation
	err := o.call(ctx, "delete", pool, func(ctx context.Context) error {
		var err error
		op, err = o.svc.Projects.Locations.Clusters.NodePools.Delete(o.poolName(pool)).Context(ctx).Do()
		if gcp.Classify(err) == gcp.ClassNotFound {
			op = nil
			return nil
		}
		return err
	})
	if err != nil || op == nil {
		return err
	}
	if err := o.wait(ctx, op); err != nil && gcp.Classify(err) != gcp.ClassNotFound {
		return err
	}
	return nil
}

// mutate starts one update-like operation on a pool and waits for it.
func (o *poolOps) mutate(ctx context.Context, what, pool string, start func(ctx context.Context, name string) (*container.Operation, error)) error {
	var op *container.Operation
	err := o.call(ctx, what, pool, func(ctx context.Context) error {
		var err error
		op, err = start(ctx, o.poolName(pool))
		return err
	})
	if err != nil {
		return err
	}
	return o.wait(ctx, op)
}

// job is one unit of work on one pool, run while it holds a limiter slot.
type job struct {
	pool string
	run  func(ctx context.Context) error
}

// acceptedKey carries, in a job's context, the function that tells the
// dispatcher GKE accepted the job's first call.
type acceptedKey struct{}

// markAccepted tells the dispatcher that GKE accepted the job's first
// operation, so the next job may start.
func markAccepted(ctx context.Context) {
	if f, ok := ctx.Value(acceptedKey{}).(func()); ok {
		f()
	}
}

// runJobs runs jobs on the cluster, at most the limiter's number at once. A
// job starts once the one before it has had its first operation accepted
// (or has ended), so operations start in the order of jobs: when GKE runs
// one operation at a time, the first refusal lowers the limit to one and
// the remaining jobs then run one after another, in that order. It returns
// each job's error.
func (o *poolOps) runJobs(ctx context.Context, jobs []job) []error {
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		release, err := o.limiter.Acquire(ctx, o.key)
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
			tflog.Debug(ctx, "node pool operation started", map[string]any{"cluster": o.cluster, "node_pool": j.pool})
			errs[i] = j.run(context.WithValue(ctx, acceptedKey{}, signal))
		}()
		select {
		case <-accepted:
		case <-ctx.Done():
		}
	}
	wg.Wait()
	return errs
}

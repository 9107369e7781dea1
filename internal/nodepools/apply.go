// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"
	rpccode "google.golang.org/genproto/googleapis/rpc/code"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// poolConcurrency is how many node-pool operations the provider starts at
// once on one cluster: GKE's documented per-cluster quota of concurrent
// operations is 5 (answered with 429 "hits the concurrent operations quota",
// terraform-provider-google issue 15205). After the first refusal for the
// quota or for another node pool's operation (GKE serializing node-pool
// operations), the cluster is served one operation at a time, in tier order.
const poolConcurrency = 5

// clusterLimiter bounds concurrent node-pool operations per cluster across
// every accel_fallback_nodepools resource served by this provider process,
// keyed by API endpoint and cluster id.
var clusterLimiter = gcp.NewLimiter(poolConcurrency)

// Node pool statuses (NodePool.Status in the GKE v1 REST reference), plus
// statusMissing for a pool recorded in state that no longer exists and
// statusUnknown for one an apply could not read back.
const (
	statusProvisioning     = "PROVISIONING"
	statusRunning          = "RUNNING"
	statusRunningWithError = "RUNNING_WITH_ERROR"
	statusReconciling      = "RECONCILING"
	statusError            = "ERROR"
	statusStopping         = "STOPPING"
	statusMissing          = "MISSING"
	statusUnknown          = "UNKNOWN"
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

	// owner decides which existing pools are this resource's to adopt,
	// change or delete.
	owner poolOwner

	watchMu sync.Mutex
	watches map[string]*operationWatch // by operation id
	polls   *gcp.PollGroup             // links the waits of this apply's operations
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
		polls:    gcp.NewPollGroup(),
		watches:  map[string]*operationWatch{},
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
// transient errors. When GKE refuses the call because another operation
// runs on the cluster (FAILED_PRECONDITION), call finds that operation and
// waits for it, then tries again at once; when no such operation can be
// found, and for rate limits and transient errors, it backs off instead. A
// refusal for another pool's operation (GKE serializing node-pool
// operations), for the quota, or for an operation it cannot find switches
// the cluster to one operation at a time; an operation on the cluster itself
// (such as a control plane upgrade) or on the same pool does not.
func (o *poolOps) call(ctx context.Context, what, pool string, fn func(context.Context) error) error {
	attempts := 0
	waited := map[string]bool{}
	err := gcp.Retry(ctx, o.backoff, func(err error, class gcp.Class, attempt int, wait time.Duration) {
		if class == gcp.ClassConflict || class == gcp.ClassRateLimited {
			o.limiter.SetLimit(o.key, 1)
		}
		tflog.Info(ctx, "GKE refused a node pool operation for now; retrying after a backoff", map[string]any{
			"cluster": o.cluster, "node_pool": pool, "call": what, "attempt": attempt,
			"class": class.String(), "wait": wait.String(), "error": err.Error(),
		})
	}, func(ctx context.Context) error {
		for {
			attempts++
			err := fn(ctx)
			if gcp.Classify(err) != gcp.ClassConflict {
				return err
			}
			blocker := o.blockingOperation(ctx, pool)
			if blocker == nil || waited[blocker.Name] {
				return err // nothing new to wait for: back off
			}
			waited[blocker.Name] = true
			if target := poolOfLink(blocker.TargetLink); target != "" && target != pool {
				o.limiter.SetLimit(o.key, 1)
			}
			tflog.Info(ctx, "GKE refused a node pool operation while another operation runs; waiting for it", map[string]any{
				"cluster": o.cluster, "node_pool": pool, "call": what, "attempt": attempts,
				"blocking_operation": blocker.OperationType + " " + blocker.Name, "error": err.Error(),
			})
			if werr := o.waitOperation(ctx, blocker); werr != nil {
				var failed *gcp.OperationError
				if !errors.As(werr, &failed) {
					// Polling the blocking operation failed; its own failure
					// would have been fine (it is over either way).
					tflog.Debug(ctx, "waiting for the blocking operation failed; backing off instead", map[string]any{"error": werr.Error()})
					return err
				}
			}
		}
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

// operationLookupAttempts bounds the calls of one lookup of the running
// operations: when GKE cannot list them, the caller backs off and tries its
// own call again rather than wait for the list.
const operationLookupAttempts = 2

// runningOperations lists the unfinished GKE operations on the cluster: the
// operations of its location (GKE's list has no filter) whose target is the
// cluster or one of its node pools.
func (o *poolOps) runningOperations(ctx context.Context) ([]*container.Operation, error) {
	parent := "projects/" + o.project + "/locations/" + o.location
	var resp *container.ListOperationsResponse
	b := o.backoff
	b.MaxAttempts = operationLookupAttempts // callers fall back on backing off
	err := gcp.Retry(ctx, b, nil, func(ctx context.Context) error {
		var err error
		resp, err = o.svc.Projects.Locations.Operations.List(parent).Context(ctx).Do()
		return err
	})
	if err != nil {
		return nil, err
	}
	_, _, cluster, _ := gcp.ParseClusterID(o.cluster)
	var out []*container.Operation
	for _, op := range resp.Operations {
		if op == nil || op.Status == operationDone || op.Name == "" {
			continue
		}
		if c, ok := clusterOfLink(op.TargetLink); ok && c == cluster {
			out = append(out, op)
		}
	}
	return out, nil
}

// operationDone is the Status of a finished GKE operation.
const operationDone = "DONE"

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
func (o *poolOps) blockingOperation(ctx context.Context, pool string) *container.Operation {
	ops, err := o.runningOperations(ctx)
	if err != nil {
		tflog.Debug(ctx, "listing GKE operations failed", map[string]any{"cluster": o.cluster, "error": err.Error()})
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

// poolOperation returns the running operation on pool, or nil.
func (o *poolOps) poolOperation(ctx context.Context, pool string) *container.Operation {
	ops, err := o.runningOperations(ctx)
	if err != nil {
		tflog.Debug(ctx, "listing GKE operations failed", map[string]any{"cluster": o.cluster, "error": err.Error()})
		return nil
	}
	for _, op := range ops {
		if poolOfLink(op.TargetLink) == pool {
			return op
		}
	}
	return nil
}

// wait waits for a GKE operation started on the cluster.
func (o *poolOps) wait(ctx context.Context, op *container.Operation) error {
	return o.waitOperation(ctx, op)
}

// operationWatch is one poller of a GKE operation, shared by every job of
// the apply that waits for it.
type operationWatch struct {
	done chan struct{}
	err  error
}

// waitOperation waits for a GKE operation with WaitContainerOperation. A
// job that waits for an operation another job already polls (the job that
// started it, or another job it blocks) shares that poller, so each
// operation is polled once and every waiter learns its end at once.
func (o *poolOps) waitOperation(ctx context.Context, op *container.Operation) error {
	if op == nil {
		return errors.New("waiting for a GKE operation: no operation")
	}
	key := op.Name[strings.LastIndex(op.Name, "/")+1:]
	o.watchMu.Lock()
	w, polled := o.watches[key]
	if !polled {
		w = &operationWatch{done: make(chan struct{})}
		o.watches[key] = w
	}
	o.watchMu.Unlock()
	if polled {
		select {
		case <-w.done:
			return w.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// Operations started together on a cluster tend to end together: when
	// one ends, the waiters of the others poll at once.
	_, w.err = o.clients.WaitContainerOperation(gcp.WithPollGroup(ctx, o.polls), o.project, o.location, op)
	close(w.done)
	return w.err
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
	return o.listWithin(ctx, 0)
}

// listWithin is list with at most maxAttempts calls (0: until ctx ends),
// for a check that must not use up the apply's time when GKE cannot list.
func (o *poolOps) listWithin(ctx context.Context, maxAttempts int) (map[string]*container.NodePool, error) {
	var resp *container.ListNodePoolsResponse
	b := o.backoff
	b.MaxAttempts = maxAttempts
	err := gcp.Retry(ctx, b, nil, func(ctx context.Context) error {
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

// getCluster reads the cluster, with its node pools and control plane version.
func (o *poolOps) getCluster(ctx context.Context) (*container.Cluster, error) {
	return o.svc.Projects.Locations.Clusters.Get(o.cluster).Context(ctx).Do()
}

// poolExistsError means a create found a pool of that name that it may not
// adopt.
type poolExistsError struct {
	reason string // why the pool is not adopted
	err    error  // GKE's ALREADY_EXISTS answer
}

func (e *poolExistsError) Error() string {
	return fmt.Sprintf("a node pool of this name already exists and %s (%v)", e.reason, e.err)
}

func (e *poolExistsError) Unwrap() error { return e.err }

// maxCreateRounds bounds how often create starts over when the pool it
// found is deleted meanwhile.
const maxCreateRounds = 3

// create creates the pool of want and waits for GKE to finish. A pool left
// in ERROR after a stockout exists, and its creation still fails: the
// caller reads the pools afterwards to record what exists.
//
// When a pool of that name exists already (an apply of this resource that
// was killed after its create request, or a create whose answer was lost),
// it is adopted if this resource instance created it for this tier (see
// adoptionMismatch): create
// waits for it to finish what it is doing, brings its size, labels, taints
// and management to want, and reports adopted. Any other pool is an error.
func (o *poolOps) create(ctx context.Context, want tierSpec) (adopted bool, err error) {
	np := want.nodePool()
	np.Config.ResourceLabels = map[string]string{ownership.LabelKey: o.owner.id}
	for round := 1; ; round++ {
		var op *container.Operation
		err := o.call(ctx, "create", np.Name, func(ctx context.Context) error {
			var err error
			op, err = o.svc.Projects.Locations.Clusters.NodePools.Create(o.cluster,
				&container.CreateNodePoolRequest{NodePool: np}).Context(ctx).Do()
			return err
		})
		if gcp.Classify(err) != gcp.ClassAlreadyExists {
			if err != nil {
				return false, err
			}
			return false, o.wait(ctx, op)
		}
		existing, gerr := o.get(ctx, np.Name)
		if gerr != nil {
			return false, fmt.Errorf("%w; reading the existing pool failed: %w", err, gerr)
		}
		if existing != nil {
			if reason := adoptionMismatch(existing, want, o.owner.id); reason != "" {
				return false, &poolExistsError{reason: reason, err: err}
			}
			tflog.Info(ctx, "found a node pool this resource created in an apply that did not finish; adopting it",
				map[string]any{"cluster": o.cluster, "node_pool": np.Name, "status": existing.Status})
			markAccepted(ctx)
			existing, gerr = o.awaitResting(ctx, existing)
			if gerr != nil {
				return false, fmt.Errorf("waiting for the existing node pool %s: %w", o.poolName(np.Name), gerr)
			}
		}
		if existing == nil {
			if round < maxCreateRounds {
				continue // deleted meanwhile: create it
			}
			return false, fmt.Errorf("node pool %s kept disappearing while it was being created: %w", o.poolName(np.Name), err)
		}
		return true, o.finishAdoption(ctx, existing, want)
	}
}

// awaitResting waits until a pool is neither being created, changed nor
// deleted: it waits for the pool's running operation, then polls the pool.
// It returns the pool, or nil once it is gone.
func (o *poolOps) awaitResting(ctx context.Context, np *container.NodePool) (*container.NodePool, error) {
	busy := func(np *container.NodePool) bool {
		return np != nil && (np.Status == statusProvisioning || np.Status == statusReconciling || np.Status == statusStopping)
	}
	if !busy(np) {
		return np, nil
	}
	if op := o.poolOperation(ctx, np.Name); op != nil {
		// The operation's own failure shows in the pool's status.
		if err := o.waitOperation(ctx, op); err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	wait := o.poll.Initial
	for {
		cur, err := o.get(ctx, np.Name)
		if err != nil || !busy(cur) {
			return cur, err
		}
		if err := o.sleep(ctx, wait); err != nil {
			return nil, err
		}
		wait = min(time.Duration(float64(wait)*1.5), o.poll.Max)
	}
}

// finishAdoption brings an adopted pool at rest to want. A pool GKE left in
// ERROR or RUNNING_WITH_ERROR fails like the create that left it.
func (o *poolOps) finishAdoption(ctx context.Context, np *container.NodePool, want tierSpec) error {
	if np.Status == statusError || np.Status == statusRunningWithError {
		return fmt.Errorf("node pool %s, left by an earlier apply, is %s: %w", o.poolName(np.Name), np.Status, poolStatusError(np))
	}
	return o.update(ctx, adoptedSpec(np, want), want)
}

// poolStatusError describes why GKE left a pool in error, classified like
// the operation that did (its conditions carry codes such as GCE_STOCKOUT).
func poolStatusError(np *container.NodePool) *gcp.OperationError {
	oe := &gcp.OperationError{Message: np.StatusMessage}
	for _, c := range np.Conditions {
		if c == nil {
			continue
		}
		if c.Code != "" && c.Code != "UNKNOWN" && !slices.Contains(oe.Reasons, c.Code) {
			oe.Reasons = append(oe.Reasons, c.Code)
		}
		if oe.Status == "" && c.CanonicalCode != "" {
			oe.Status = c.CanonicalCode
		}
		if oe.Message == "" {
			oe.Message = c.Message
		}
	}
	if oe.Status == "" {
		oe.Status = rpccode.Code_UNKNOWN.String()
	}
	oe.Code = int(rpccode.Code_value[oe.Status])
	return oe
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

// takenNames returns, in tier order, the names of tiers whose pool exists
// already, before a resource's first create (a pool a new resource instance
// finds cannot be its own), each with who created it (ownership.Describe).
// When the pools cannot be read it returns none, and each create still
// refuses a pool that is not its own.
func (o *poolOps) takenNames(ctx context.Context, tiers []tierModel) (names, why []string) {
	pools, err := o.listWithin(ctx, operationLookupAttempts)
	if err != nil {
		tflog.Debug(ctx, "listing node pools before creating them failed", map[string]any{"cluster": o.cluster, "error": err.Error()})
		return nil, nil
	}
	for _, t := range tiers {
		if np := pools[t.Name.ValueString()]; np != nil {
			names = append(names, np.Name)
			why = append(why, ownership.Describe(resourceLabels(np)))
		}
	}
	return names, why
}

// deleteResult is what deleteOwned did, by index of the names it was given.
type deleteResult struct {
	notOwned map[int]string // pools left alone, with why (ownership.Describe)
	errs     map[int]error  // pools whose deletion failed
}

// deleteOwned deletes the named pools that are this resource's (o.owner),
// at most the limiter's number at once, and waits. The pools are read once
// first: a pool that does not exist is deleted, and a pool of one of the
// names that someone else created is left alone. err is set, and nothing
// deleted, when the pools cannot be read.
func (o *poolOps) deleteOwned(ctx context.Context, names []string) (deleteResult, error) {
	res := deleteResult{notOwned: map[int]string{}, errs: map[int]error{}}
	pools, err := o.list(ctx)
	if errors.Is(err, errClusterNotFound) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	var jobs []job
	var index []int
	for i, name := range names {
		np := pools[name]
		switch {
		case np == nil:
			continue
		case !o.owner.owns(np):
			res.notOwned[i] = ownership.Describe(resourceLabels(np))
			continue
		}
		jobs = append(jobs, job{pool: name, run: func(ctx context.Context) error { return o.delete(ctx, name) }})
		index = append(index, i)
	}
	for j, err := range o.runJobs(ctx, jobs) {
		if err != nil && !errors.Is(err, errClusterNotFound) && gcp.Classify(err) != gcp.ClassNotFound {
			res.errs[index[j]] = err
		}
	}
	return res, nil
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

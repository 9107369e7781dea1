// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"
	rpccode "google.golang.org/genproto/googleapis/rpc/code"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

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

// poolAPI is the part of the GKE API the resource uses, for one cluster:
// *gcp.NodePools, or a fake in tests. Every call retries, waits for an
// operation that blocks it, and waits for the operation it starts.
type poolAPI interface {
	Cluster() string
	PoolName(pool string) string
	GetCluster(ctx context.Context) (*container.Cluster, error)
	// Get returns nil without error when the pool does not exist.
	Get(ctx context.Context, pool string) (*container.NodePool, error)
	// List returns gcp.ErrClusterNotFound when the cluster does not exist;
	// ListBounded is List with a bounded number of calls.
	List(ctx context.Context) (map[string]*container.NodePool, error)
	ListBounded(ctx context.Context) (map[string]*container.NodePool, error)
	// Read is List for a refresh, whose answer may be shared with the
	// refresh of other resources on the cluster.
	Read(ctx context.Context) (map[string]*container.NodePool, error)
	Create(ctx context.Context, np *container.NodePool) error
	// Delete succeeds when the pool does not exist.
	Delete(ctx context.Context, pool string) error
	Update(ctx context.Context, pool string, req *container.UpdateNodePoolRequest) error
	SetSize(ctx context.Context, pool string, req *container.SetNodePoolSizeRequest) error
	SetAutoscaling(ctx context.Context, pool string, req *container.SetNodePoolAutoscalingRequest) error
	SetManagement(ctx context.Context, pool string, req *container.SetNodePoolManagementRequest) error
	// WaitPoolOperation waits for the operation running on pool, if any.
	WaitPoolOperation(ctx context.Context, pool string) error
	// Run runs jobs, at most the cluster's limit at once, in order.
	Run(ctx context.Context, jobs []gcp.PoolJob) []error
	// Poller paces the reads of a pool that is changing state.
	Poller() *gcp.Poller
}

var _ poolAPI = (*gcp.NodePools)(nil)

// poolOps runs this resource's node-pool steps on one cluster.
type poolOps struct {
	api poolAPI
	// cat is the catalog that fills the defaults GKE needs sent.
	cat *catalog.Catalog
	// policies is the Compute Engine access for workload policies, built
	// by newPolicies on first use (workload_policy.go).
	policies    policyAPI
	newPolicies func(ctx context.Context) (policyAPI, error)
	// owner decides which existing pools are this resource's to adopt,
	// change or delete.
	owner poolOwner
	// evidence is what the plan being applied said of each pool, which the
	// delete gate requires (gate.go).
	evidence planEvidence
}

// newPoolOps prepares operations on cluster through clients.
func newPoolOps(ctx context.Context, cat *catalog.Catalog, clients *gcp.Clients, cluster string) (*poolOps, error) {
	api, err := clients.NodePools(ctx, cluster)
	if err != nil {
		return nil, err
	}
	return poolOpsOf(api, cat, clients), nil
}

// poolOpsOf is the node-pool operations over api, creating workload
// policies with clients.
func poolOpsOf(api poolAPI, cat *catalog.Catalog, clients *gcp.Clients) *poolOps {
	return &poolOps{api: api, cat: cat,
		newPolicies: func(ctx context.Context) (policyAPI, error) { return clients.ResourcePolicies(ctx) }}
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
	np := want.nodePool(o.cat)
	if np.Config.ResourceLabels == nil {
		np.Config.ResourceLabels = map[string]string{}
	}
	np.Config.ResourceLabels[ownership.LabelKey] = o.owner.id
	for round := 1; ; round++ {
		err := o.api.Create(ctx, np)
		if gcp.Classify(err) != gcp.ClassAlreadyExists {
			return false, err
		}
		existing, gerr := o.api.Get(ctx, np.Name)
		if gerr != nil {
			return false, fmt.Errorf("%w; reading the existing pool failed: %w", err, gerr)
		}
		if existing != nil {
			if reason := adoptionMismatch(o.cat, existing, want, o.owner.id); reason != "" {
				return false, &poolExistsError{reason: reason, err: err}
			}
			tflog.Info(ctx, "found a node pool this resource created in an apply that did not finish; adopting it",
				map[string]any{"cluster": o.api.Cluster(), "node_pool": np.Name, "status": existing.Status})
			gcp.MarkAccepted(ctx)
			existing, gerr = o.awaitResting(ctx, existing)
			if gerr != nil {
				return false, fmt.Errorf("waiting for the existing node pool %s: %w", o.api.PoolName(np.Name), gerr)
			}
		}
		if existing == nil {
			if round < maxCreateRounds {
				continue // deleted meanwhile: create it
			}
			return false, fmt.Errorf("node pool %s kept disappearing while it was being created: %w", o.api.PoolName(np.Name), err)
		}
		return true, o.finishAdoption(ctx, existing, want)
	}
}

// restlessStates are the pool statuses of a pool being created, changed or
// deleted.
var restlessStates = []string{statusProvisioning, statusReconciling, statusStopping}

// awaitResting waits until a pool is neither being created, changed nor
// deleted: it waits for the pool's running operation, then polls the pool.
// It returns the pool, or nil once it is gone.
func (o *poolOps) awaitResting(ctx context.Context, np *container.NodePool) (*container.NodePool, error) {
	if np == nil || !slices.Contains(restlessStates, np.Status) {
		return np, nil
	}
	if err := o.api.WaitPoolOperation(ctx, np.Name); err != nil {
		return nil, err
	}
	name := np.Name
	return gcp.WaitFor(ctx, o.api.Poller(), gcp.StateWait[*container.NodePool]{
		What:    "node pool " + o.api.PoolName(name),
		Pending: restlessStates,
		Refresh: func(ctx context.Context) (*container.NodePool, string, error) {
			cur, err := o.api.Get(ctx, name)
			if err != nil || cur == nil {
				return nil, statusMissing, err
			}
			return cur, cur.Status, nil
		},
	}, nil, "")
}

// finishAdoption brings an adopted pool at rest to want. A pool GKE left in
// ERROR or RUNNING_WITH_ERROR fails like the create that left it.
func (o *poolOps) finishAdoption(ctx context.Context, np *container.NodePool, want tierSpec) error {
	if np.Status == statusError || np.Status == statusRunningWithError {
		return fmt.Errorf("node pool %s, left by an earlier apply, is %s: %w", o.api.PoolName(np.Name), np.Status, poolStatusError(np))
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

// takenNames returns, in tier order, the names of tiers whose pool exists
// already, before a resource's first create (a pool a new resource instance
// finds cannot be its own), each with who created it (ownership.Describe).
// When the pools cannot be read it returns none, and each create still
// refuses a pool that is not its own.
func (o *poolOps) takenNames(ctx context.Context, tiers []tierModel) (names, why []string) {
	pools, err := o.api.ListBounded(ctx)
	if err != nil {
		tflog.Debug(ctx, "listing node pools before creating them failed", map[string]any{"cluster": o.api.Cluster(), "error": err.Error()})
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
//
// specs, by tier name, are the tiers' specs in state: after its pool, the
// workload policy the resource created for a tier is deleted (workload_policy.go).
func (o *poolOps) deleteOwned(ctx context.Context, names []string, specs map[string]tierSpec) (deleteResult, error) {
	res := deleteResult{notOwned: map[int]string{}, errs: map[int]error{}}
	pools, err := o.api.List(ctx)
	if errors.Is(err, gcp.ErrClusterNotFound) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	var jobs []gcp.PoolJob
	var index []int
	for i, name := range names {
		np := pools[name]
		spec := specs[name]
		switch {
		case np == nil && spec.WorkloadPolicy == "":
			continue
		case np != nil && !o.owner.owns(np):
			res.notOwned[i] = ownership.Describe(resourceLabels(np))
			continue
		}
		jobs = append(jobs, gcp.PoolJob{Pool: name, Run: func(ctx context.Context) error {
			if np != nil {
				if err := o.deletePool(ctx, deletion{cause: causeDestroyed, pool: name}); err != nil {
					return err
				}
			}
			return o.deleteOwnPolicy(ctx, spec)
		}})
		index = append(index, i)
	}
	for j, err := range o.api.Run(ctx, jobs) {
		if err != nil && !errors.Is(err, gcp.ErrClusterNotFound) && gcp.Classify(err) != gcp.ClassNotFound {
			res.errs[index[j]] = err
		}
	}
	return res, nil
}

// update makes the in-place changes from was to want, one operation at a
// time (GKE runs one operation per pool).
func (o *poolOps) update(ctx context.Context, was, want tierSpec) error {
	if !sizeEqual(was, want) || !autoscalingSettingsEqual(was.Settings, want.Settings) {
		if want.Autoscaling || was.Autoscaling {
			as := want.autoscaling()
			if as.Enabled && want.Settings.LocationPolicy == "" && was.Settings.LocationPolicy != "" {
				as.LocationPolicy = was.Settings.LocationPolicy // kept as it is
			}
			req := &container.SetNodePoolAutoscalingRequest{Autoscaling: as}
			if err := o.api.SetAutoscaling(ctx, want.Name, req); err != nil {
				return err
			}
		}
		if !want.Autoscaling && (was.Autoscaling || was.NodeCount != want.NodeCount) {
			req := &container.SetNodePoolSizeRequest{NodeCount: want.NodeCount, ForceSendFields: []string{"NodeCount"}}
			if err := o.api.SetSize(ctx, want.Name, req); err != nil {
				return err
			}
		}
	}
	if !metadataEqual(was, want) {
		np := want.nodePool(o.cat)
		req := &container.UpdateNodePoolRequest{
			Labels: &container.NodeLabels{Labels: np.Config.Labels, ForceSendFields: []string{"Labels"}},
			Taints: &container.NodeTaints{Taints: np.Config.Taints, ForceSendFields: []string{"Taints"}},
		}
		if err := o.api.Update(ctx, want.Name, req); err != nil {
			return err
		}
	}
	if !nodeSettingsEqual(was.Settings, want.Settings) {
		if err := o.api.Update(ctx, want.Name, want.Settings.updateRequest(o.cat, was.Settings, o.owner.id)); err != nil {
			return err
		}
	}
	if !managementEqual(was, want) {
		req := &container.SetNodePoolManagementRequest{Management: want.nodePool(o.cat).Management}
		if err := o.api.SetManagement(ctx, want.Name, req); err != nil {
			return err
		}
	}
	return nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// action is what an apply does to one pool.
type action int

const (
	actionNone    action = iota
	actionCreate         // the tier is new, or its pool went missing
	actionReplace        // delete, then create (a field GKE cannot change)
	actionUpdate         // in-place calls for size, labels, taints, management
	actionDelete         // the tier was removed
)

// step is the plan for one pool.
type step struct {
	action action
	want   tierSpec // the planned spec (not for actionDelete)
	was    tierSpec // the spec in state (not for actionCreate)
	// oldRemains is set by a replacement whose delete did not finish.
	oldRemains bool
	// adopted is set when the create found the pool, left by an apply that
	// did not record it, and adopted it.
	adopted bool
	// refused is set, before anything runs, when the pool the step would
	// change or delete is not this resource's (see guard).
	refused error
	// replacement is, for the delete of a removed tier, the planned tier
	// that replaces it (its replaces attribute): the delete waits for that
	// tier's pool to run (gate.go).
	replacement string
}

// planSteps compares planned specs with the specs in state, by tier name.
// Removals come first (they free capacity and quota), then the tiers in
// priority order.
func planSteps(want []tierSpec, state map[string]tierModel, stateSpecs map[string]tierSpec, stateOrder []string) []*step {
	var steps []*step
	planned := map[string]bool{}
	for _, s := range want {
		planned[s.Name] = true
	}
	for _, name := range stateOrder {
		if !planned[name] {
			steps = append(steps, &step{action: actionDelete, was: stateSpecs[name]})
		}
	}
	for _, s := range want {
		old, ok := state[s.Name]
		was := stateSpecs[s.Name]
		steps = append(steps, &step{want: s, was: was, action: tierAction(ok, old.Status.ValueString(), was, s)})
	}
	return steps
}

// tierAction is the one decision of what an apply does to a tier's pool,
// made by the plan (ModifyPlan) and the apply (planSteps) alike: recorded
// says whether the state records the tier, status is its recorded status,
// was its spec in state and want its planned spec. A pool recorded as
// missing is created again; a pool in ERROR (such as one GKE could not
// provision for lack of capacity) and a change GKE cannot make in place
// (sameShape) re-create it; size, labels, taints and management are updated
// in place.
func tierAction(recorded bool, status string, was, want tierSpec) action {
	switch {
	case !recorded || status == statusMissing:
		return actionCreate
	case status == statusError || !sameShape(was, want):
		return actionReplace
	case !sizeEqual(was, want) || !metadataEqual(was, want) || !managementEqual(was, want) ||
		!nodeSettingsEqual(was.Settings, want.Settings) || !autoscalingSettingsEqual(was.Settings, want.Settings):
		return actionUpdate
	}
	return actionNone
}

// run performs a step on the cluster.
func (o *poolOps) run(ctx context.Context, st *step) error {
	switch st.action {
	case actionDelete:
		d := deletion{cause: causeRemoved, pool: st.was.Name}
		if st.replacement != "" {
			d = deletion{cause: causeReplaced, pool: st.was.Name, replacement: st.replacement}
		}
		if err := o.deletePool(ctx, d); err != nil {
			return err
		}
		return o.deleteOwnPolicy(ctx, st.was)
	case actionCreate:
		return o.createPlaced(ctx, st)
	case actionReplace:
		tflog.Info(ctx, "re-creating node pool for a change GKE cannot make in place", map[string]any{"cluster": o.api.Cluster(), "node_pool": st.want.Name})
		if err := o.deletePool(ctx, deletion{cause: causeRecreated, pool: st.was.Name}); err != nil {
			st.oldRemains = true
			return err
		}
		if st.was.WorkloadPolicy != st.want.WorkloadPolicy || st.was.Topology != st.want.Topology || st.was.OwnPolicy != st.want.OwnPolicy {
			if err := o.deleteOwnPolicy(ctx, st.was); err != nil {
				return err
			}
		}
		return o.createPlaced(ctx, st)
	case actionUpdate:
		return o.update(ctx, st.was, st.want)
	}
	return nil
}

// createPlaced creates the pool of st.want, after the workload policy that
// places it (workload_policy.go). A policy this call created whose pool
// GKE then refused is deleted again, so that nothing is left that no state
// records: when no pool of the name exists, or one exists that is not this
// resource's (a 409 for someone else's pool) and is not placed by it. One
// whose pool exists (in ERROR after a stockout) stays with it.
func (o *poolOps) createPlaced(ctx context.Context, st *step) error {
	created, err := o.ensurePolicy(ctx, st.want)
	if err != nil {
		return err
	}
	st.adopted, err = o.create(ctx, st.want)
	if err == nil || !created {
		return err
	}
	rctx, cancel := gcp.AfterDeadline(ctx)
	defer cancel()
	np, gerr := o.api.Get(rctx, st.want.Name)
	foreign := np != nil && !o.owner.owns(np) && (np.PlacementPolicy == nil || np.PlacementPolicy.PolicyName != st.want.WorkloadPolicy)
	if gerr == nil && (np == nil || foreign) {
		if derr := o.deleteOwnPolicy(rctx, st.want); derr != nil {
			return fmt.Errorf("%w; deleting its workload policy %s failed (the next apply uses it): %w", err, st.want.WorkloadPolicy, derr)
		}
	}
	return err
}

// applyTiers brings the cluster's pools to the plan: it runs every step, then
// reads the pools once and records every tier whose pool exists, whatever
// failed (recordPlanned, recordRemoved).
//
// It returns the tiers to record, whether any pool exists, the pools this
// apply created (re-created ones included) and the tiers it kept as planned.
func (r *fallbackNodePoolsResource) applyTiers(ctx context.Context, ops *poolOps, plan resourceModel, stateTiers []tierModel, diags *diag.Diagnostics) (out []tierModel, anyPool bool, created, kept map[string]bool) {
	run := &applyRun{
		ops: ops, cat: r.catalog, class: plan.ComputeClass.ValueString(), onStockout: plan.OnStockout.ValueString(), diags: diags,
		state: map[string]tierModel{}, adopted: map[string]bool{}, creates: map[string]bool{}, untouched: map[string]bool{},
		created: map[string]bool{}, kept: map[string]bool{},
	}
	planTiers := tiersOf(ctx, plan.Tiers, diags)
	ev := evidenceOf(poolEntries(ctx, plan.Pools, diags), !plan.Pools.IsUnknown() && !plan.Pools.IsNull())
	// The caller set protected from the state (an update); the plan's
	// value counts too.
	ev.protected = ops.evidence.protected || plan.DeletionProtection.ValueBool()
	ops.evidence = ev
	steps := run.steps(ctx, planTiers, stateTiers)
	ops.guard(ctx, steps)
	run.failed = ops.execute(ctx, steps, replacedBy(planTiers, run.state))
	run.interrupted = errors.Is(ctx.Err(), context.Canceled)
	run.outcomes(steps)
	run.readBack(ctx, steps)
	run.last = len(planTiers) - 1
	for i, t := range planTiers {
		run.recordPlanned(ctx, i, t)
	}
	for _, name := range run.stateOrder {
		run.recordRemoved(ctx, name)
	}
	run.checkAsPlanned(planTiers)
	return run.out, run.anyPool, run.created, run.kept
}

// checkAsPlanned makes sure that an apply whose tiers differ from the plan's
// fails: Terraform accepts a state other than the plan only from an apply
// that reports an error, and reports any other as a bug in the provider.
// Every path that keeps or drops a tier reports why; this is the net under
// them.
func (a *applyRun) checkAsPlanned(planTiers []tierModel) {
	if a.diags.HasError() {
		return
	}
	var planned, recorded []string
	for _, t := range planTiers {
		planned = append(planned, t.Name.ValueString())
	}
	for _, t := range a.out {
		recorded = append(recorded, t.Name.ValueString())
	}
	if !slices.Equal(planned, recorded) {
		a.diags.AddAttributeError(path.Root("tiers"), "Node Pools Differ From the Plan",
			fmt.Sprintf("The apply records the tiers %q, but the plan had %q; the state records what exists. Run terraform plan "+
				"to see what remains to do.", recorded, planned))
	}
}

// applyRun is one apply of the resource: what it planned, what failed, the
// pools it read back and the tiers it records.
type applyRun struct {
	ops              *poolOps
	cat              *catalog.Catalog
	class            string
	onStockout       string
	diags            *diag.Diagnostics
	state            map[string]tierModel // the tiers recorded in state, by name
	stateOrder       []string
	failed           map[string]error // by tier name; "-name" for a removed tier's delete
	interrupted      bool
	adopted, creates map[string]bool
	// untouched are the tiers the apply does not touch: recorded as
	// planned, since the plan showed their values known and the next
	// refresh reads them again.
	untouched map[string]bool
	// pools are the cluster's pools read after the steps, nil when the
	// read failed (readErr).
	pools   map[string]*container.NodePool
	readErr error
	last    int // the index of the last planned tier
	// want are the planned specs, by tier name.
	want map[string]tierSpec

	out           []tierModel
	anyPool       bool
	created, kept map[string]bool
}

// steps derives the planned specs and the specs in state, and plans the
// steps between them.
func (a *applyRun) steps(ctx context.Context, planTiers, stateTiers []tierModel) []*step {
	want := make([]tierSpec, len(planTiers))
	a.want = map[string]tierSpec{}
	defer func() {
		for _, s := range want {
			a.want[s.Name] = s
		}
	}()
	for i, t := range planTiers {
		s, fs := derive(a.cat, inputOf(ctx, t, a.diags), a.class, "")
		if fs.HasErrors() {
			// ModifyPlan leaves such tiers unknown and ValidateConfig
			// reported them; with validation = "warn" they are attempted.
			tflog.Warn(ctx, "tier has catalog findings; creating it as planned", map[string]any{"tier": s.Name, "findings": fmt.Sprint(fs)})
		}
		want[i] = s
	}
	stateSpecs := map[string]tierSpec{}
	for _, t := range stateTiers {
		name := t.Name.ValueString()
		a.state[name] = t
		stateSpecs[name] = specOfState(ctx, a.cat, t, a.diags)
		a.stateOrder = append(a.stateOrder, name)
	}
	steps := planSteps(want, a.state, stateSpecs, a.stateOrder)
	for _, st := range steps {
		// A pool in ERROR the plan kept as it is (stockout_retry = "hold"):
		// its pools entry keeps its creation time. The apply does what the
		// plan said.
		if recreated, planned := a.ops.evidence.planned[st.want.Name]; st.action == actionReplace && planned && !recreated &&
			a.state[st.want.Name].Status.ValueString() == statusError && sameShape(st.was, st.want) {
			st.action = actionNone
		}
	}
	return steps
}

// outcomes notes, per tier, what its step was and whether it adopted a pool.
func (a *applyRun) outcomes(steps []*step) {
	for _, st := range steps {
		if _, recorded := a.state[st.want.Name]; st.action == actionNone && recorded {
			a.untouched[st.want.Name] = true
		}
		if st.adopted {
			a.adopted[st.want.Name] = true
		}
		if st.action == actionCreate || st.action == actionReplace {
			a.creates[st.want.Name] = true
		}
	}
}

// readBack reads the cluster's pools once, after the steps, even past the
// apply's deadline (gcp.AfterDeadline).
func (a *applyRun) readBack(ctx context.Context, steps []*step) {
	rctx, cancel := gcp.AfterDeadline(ctx)
	defer cancel()
	list := a.ops.api.List
	if a.interrupted {
		// Terraform asked to stop: a bounded read, not gcp.FinalReadTimeout
		// of retries while GKE answers 429 or 503. A pool it cannot read is
		// recorded unread (recordPlanned), and the next refresh reads it.
		list = a.ops.api.ListBounded
	}
	a.pools, a.readErr = list(rctx)
	if a.readErr != nil {
		reportReadBackError(a.diags, a.ops.api.Cluster(), anyAccepted(steps, a.failed), a.interrupted, a.readErr)
		// Without the pools, keep what state knew and what the plan asked for.
		a.pools = nil
	}
}

// record adds a tier to what the apply records; exists is set when its
// pool exists (or may).
func (a *applyRun) record(t tierModel, exists bool) {
	a.out = append(a.out, t)
	a.anyPool = a.anyPool || exists
}

// recordPlanned records planned tier i, t, from its pool as read back, and
// reports what failed.
func (a *applyRun) recordPlanned(ctx context.Context, i int, t tierModel) {
	name := t.Name.ValueString()
	base := path.Root("tiers").AtListIndex(i)
	err := a.failed[name]
	report := func(err error) {
		reportTierError(a.diags, base, a.ops.api.PoolName(name), a.onStockout, i == a.last, a.interrupted, err)
	}
	prior := t
	if old, ok := a.state[name]; ok && err != nil && gcp.Classify(err) != gcp.ClassCapacity {
		prior = old // a failed change: keep the old settings, so the next plan retries it
	}
	if s := a.want[name]; prior.Topology.IsUnknown() && s.TPU && s.Topology != "" {
		// Planned unknown (a tier applied with validation = "warn"): the
		// topology sent, which GKE does not report for a pool placed by a
		// workload policy.
		prior.Topology = types.StringValue(s.Topology)
	}
	np := a.pools[name]
	switch {
	case a.untouched[name] && err == nil && (np == nil || a.ops.owner.owns(np)) && tfmodel.WhollyKnown(tierList(ctx, []tierModel{t}, a.diags)):
		a.record(t, true)
		a.kept[name] = true
		return
	case a.pools == nil:
		if old, ok := a.state[name]; ok {
			a.record(old, true)
		} else if !isForeign(err) {
			// Its create may have started: recorded unread, so that
			// nothing GKE created is lost; the next refresh reads it.
			a.record(unreadTier(t), true)
		}
		if err != nil && !sameCause(a.readErr, err) {
			report(err)
		}
		return
	case isForeign(err) || (np != nil && !a.ops.owner.owns(np)):
		// Someone else's pool: never recorded, so no later plan acts on it.
		if err == nil {
			err = &notOwnedError{reason: ownership.Describe(resourceLabels(np))}
		}
		report(err)
		return
	case np == nil:
		a.record(missingTier(prior), false)
	default:
		a.record(flattenPool(ctx, a.cat, prior, np, a.class, false, a.diags), true)
		a.created[name] = a.creates[name]
	}
	if a.adopted[name] {
		a.diags.AddAttributeWarning(base, "Existing Node Pool Adopted", adoptedDetail(a.ops.api.PoolName(name), a.ops.owner.id, a.class))
	}
	if err != nil {
		report(err)
	}
}

// recordRemoved records the pool of the removed tier name that is still
// there after its delete failed or was held back, and reports why.
func (a *applyRun) recordRemoved(ctx context.Context, name string) {
	err := a.failed["-"+name]
	if err == nil {
		return
	}
	np := a.pools[name]
	pool := a.ops.api.PoolName(name)
	var kept *keptForReplacementError
	var policy *policyDeleteError
	switch {
	case errors.As(err, &policy) && np == nil:
		// The pool is gone; its workload policy is not. The tier stays in
		// the state, MISSING, so that something still owns the policy: the
		// next apply deletes it again.
		a.diags.AddAttributeError(path.Root("tiers"), "Error Deleting Workload Policy", fmt.Sprintf("Tier %q was removed: %s.", name, policy))
		a.record(missingTier(a.state[name]), false)
		return
	case errors.As(err, &kept) && np != nil:
		a.diags.AddAttributeError(path.Root("tiers"), "Node Pool Kept Until Its Replacement Runs",
			fmt.Sprintf("Tier %q was removed, but its node pool %s was kept: tier %q replaces it, and its pool is not running "+
				"(%v). Nothing serves less than before; the old pool stays in state, and the next apply creates the new pool "+
				"again and deletes the old one once it runs.", name, pool, kept.replacement, kept.cause))
		a.record(flattenPool(ctx, a.cat, a.state[name], np, a.class, false, a.diags), true)
		return
	case errors.As(err, &kept):
		return // its pool is gone already: nothing to keep
	case isForeign(err) || (np != nil && !a.ops.owner.owns(np)):
		a.diags.AddAttributeWarning(path.Root("tiers"), "Node Pool Not Deleted",
			fmt.Sprintf("Tier %q was removed. Node pool %s was not deleted: it %s. It is dropped from the state and left as it is.",
				name, pool, notOwnedReason(err, np)))
		return
	case a.interrupted:
		// An error, not a warning: the state then differs from the plan
		// (the removed tier stays), which Terraform accepts only from an
		// apply that failed.
		a.diags.AddAttributeError(path.Root("tiers"), "Node Pool Deletion Interrupted",
			fmt.Sprintf("Terraform was interrupted before node pool %s of the removed tier %q was deleted. It stays in state; the next apply deletes it.",
				pool, name))
	default:
		a.diags.AddAttributeError(path.Root("tiers"), "Error Deleting Node Pool",
			fmt.Sprintf("Tier %q was removed, but its node pool %s could not be deleted: %s\n\nIt stays in state; the next apply deletes it again.",
				name, pool, err))
	}
	if np != nil {
		a.record(flattenPool(ctx, a.cat, a.state[name], np, a.class, false, a.diags), true)
	}
}

// guard refuses, before anything runs, every step that would delete,
// re-create or change a pool this resource does not own: one that carries
// another instance's owner id or none, whatever the state says (the pool
// this resource created was deleted, and someone else created one of the
// same name). Without the pools (the list fails), no such step runs. Creates
// need no guard: a create never replaces a pool, and adopts only its own.
func (o *poolOps) guard(ctx context.Context, steps []*step) {
	var pools map[string]*container.NodePool
	var listErr error
	listed := false
	for _, st := range steps {
		if st.action != actionDelete && st.action != actionReplace && st.action != actionUpdate {
			continue
		}
		if !listed {
			pools, listErr = o.api.ListBounded(ctx)
			listed = true
		}
		name := st.was.Name
		switch np := pools[name]; {
		case listErr != nil:
			st.refused = fmt.Errorf("could not check that the pool is this resource's before changing it: %w", listErr)
		case np != nil && !o.owner.owns(np):
			st.refused = &notOwnedError{reason: ownership.Describe(resourceLabels(np))}
		}
	}
}

// notOwnedError means a pool recorded in state is no longer this
// resource's: it was deleted and a pool of the same name created by
// someone else.
type notOwnedError struct {
	reason string // ownership.Describe of its labels
}

func (e *notOwnedError) Error() string {
	return "the node pool of this name " + e.reason
}

// isForeign reports whether err says a pool is someone else's.
func isForeign(err error) bool {
	var exists *poolExistsError
	var notOwned *notOwnedError
	return errors.As(err, &exists) || errors.As(err, &notOwned)
}

// notOwnedReason says why a pool is not this resource's, from a step's
// error or from the pool's labels.
func notOwnedReason(err error, np *container.NodePool) string {
	var notOwned *notOwnedError
	if errors.As(err, &notOwned) {
		return notOwned.reason
	}
	return ownership.Describe(resourceLabels(np))
}

// execute runs the steps on the cluster, at most the limiter's number at
// once and in the order given, and returns the error of each failed step by
// pool name (removals keyed "-" + name). The deletion of a removed tier
// that a planned tier replaces (after: old name → new name) runs after the
// other steps, and only when the new tier's pool runs (the gate, gate.go),
// so that one of the two pools serves at every moment; otherwise it fails
// with keptForReplacementError.
func (o *poolOps) execute(ctx context.Context, steps []*step, after map[string]string) map[string]error {
	var first, deferred []*step
	for _, st := range steps {
		if st.action == actionDelete && after[st.was.Name] != "" {
			st.replacement = after[st.was.Name]
			deferred = append(deferred, st)
		} else {
			first = append(first, st)
		}
	}
	failed := o.runSteps(ctx, first)
	var ready []*step
	for _, st := range deferred {
		// The replacement's step failed: kept at once. Otherwise the gate
		// reads the replacement's pool before the delete (mayDelete).
		if err := cmp.Or(failed[st.replacement], ctx.Err()); err != nil {
			failed["-"+st.was.Name] = &keptForReplacementError{replacement: st.replacement, cause: err}
			continue
		}
		ready = append(ready, st)
	}
	maps.Copy(failed, o.runSteps(ctx, ready))
	return failed
}

// keptForReplacementError is why the pool of a removed tier was not
// deleted: the tier that replaces it (its replaces attribute) has no pool
// running.
type keptForReplacementError struct {
	replacement string
	cause       error
}

func (e *keptForReplacementError) Error() string {
	return fmt.Sprintf("kept: the pool of tier %q, which replaces it, is not running (%v)", e.replacement, e.cause)
}

// replacedBy maps the name of each removed tier that a planned tier
// replaces (its replaces attribute) to that tier's name: the removed
// tier's pool is deleted only after the new one runs (execute).
func replacedBy(planTiers []tierModel, state map[string]tierModel) map[string]string {
	planned := map[string]bool{}
	for _, t := range planTiers {
		planned[t.Name.ValueString()] = true
	}
	out := map[string]string{}
	for _, t := range planTiers {
		old := t.Replaces.ValueString()
		if _, recorded := state[old]; recorded && old != "" && !planned[old] {
			out[old] = t.Name.ValueString()
		}
	}
	return out
}

// runSteps runs steps on the cluster, at most the limiter's number at once
// and in the order given, and returns the error of each failed step (see
// execute).
func (o *poolOps) runSteps(ctx context.Context, steps []*step) map[string]error {
	var jobs []gcp.PoolJob
	var jobSteps []*step
	failed := map[string]error{}
	for _, st := range steps {
		if st.action == actionNone {
			continue
		}
		name := st.want.Name
		if st.action == actionDelete {
			name = st.was.Name
		}
		if st.refused != nil {
			key := name
			if st.action == actionDelete {
				key = "-" + name
			}
			failed[key] = st.refused
			continue
		}
		jobs = append(jobs, gcp.PoolJob{Pool: name, Run: func(ctx context.Context) error { return o.run(ctx, st) }})
		jobSteps = append(jobSteps, st)
	}
	tflog.Info(ctx, "applying node pool changes", map[string]any{"cluster": o.api.Cluster(), "operations": len(jobs)})
	for i, err := range o.api.Run(ctx, jobs) {
		if err == nil {
			continue
		}
		if st := jobSteps[i]; st.action == actionDelete {
			failed["-"+st.was.Name] = err
		} else {
			failed[st.want.Name] = err
		}
	}
	return failed
}

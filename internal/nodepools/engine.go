// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

func timeoutsAttrTypes(context.Context) map[string]attr.Type {
	return map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}
}

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
		st := &step{want: s, was: was}
		switch {
		case !ok || old.Status.ValueString() == statusMissing:
			st.action = actionCreate
		case !sameShape(was, s):
			st.action = actionReplace
		case !sizeEqual(was, s) || !metadataEqual(was, s) || !managementEqual(was, s):
			st.action = actionUpdate
		default:
			st.action = actionNone
		}
		steps = append(steps, st)
	}
	return steps
}

// run performs a step on the cluster.
func (o *poolOps) run(ctx context.Context, st *step) error {
	switch st.action {
	case actionDelete:
		return o.delete(ctx, st.was.Name)
	case actionCreate:
		var err error
		st.adopted, err = o.create(ctx, st.want)
		return err
	case actionReplace:
		tflog.Info(ctx, "re-creating node pool for a change GKE cannot make in place", map[string]any{"cluster": o.cluster, "node_pool": st.want.Name})
		if err := o.delete(ctx, st.was.Name); err != nil {
			st.oldRemains = true
			return err
		}
		var err error
		st.adopted, err = o.create(ctx, st.want)
		return err
	case actionUpdate:
		return o.update(ctx, st.was, st.want)
	}
	return nil
}

// update makes the in-place changes from was to want, one operation at a
// time (GKE runs one operation per pool).
func (o *poolOps) update(ctx context.Context, was, want tierSpec) error {
	pools := o.svc.Projects.Locations.Clusters.NodePools
	if !sizeEqual(was, want) {
		if want.Autoscaling || was.Autoscaling {
			req := &container.SetNodePoolAutoscalingRequest{Autoscaling: want.autoscaling()}
			if err := o.mutate(ctx, "setAutoscaling", want.Name, func(ctx context.Context, name string) (*container.Operation, error) {
				return pools.SetAutoscaling(name, req).Context(ctx).Do()
			}); err != nil {
				return err
			}
		}
		if !want.Autoscaling && (was.Autoscaling || was.NodeCount != want.NodeCount) {
			req := &container.SetNodePoolSizeRequest{NodeCount: want.NodeCount, ForceSendFields: []string{"NodeCount"}}
			if err := o.mutate(ctx, "setSize", want.Name, func(ctx context.Context, name string) (*container.Operation, error) {
				return pools.SetSize(name, req).Context(ctx).Do()
			}); err != nil {
				return err
			}
		}
	}
	if !metadataEqual(was, want) {
		np := want.nodePool()
		req := &container.UpdateNodePoolRequest{
			Labels: &container.NodeLabels{Labels: np.Config.Labels, ForceSendFields: []string{"Labels"}},
			Taints: &container.NodeTaints{Taints: np.Config.Taints, ForceSendFields: []string{"Taints"}},
		}
		if err := o.mutate(ctx, "update", want.Name, func(ctx context.Context, name string) (*container.Operation, error) {
			return pools.Update(name, req).Context(ctx).Do()
		}); err != nil {
			return err
		}
	}
	if !managementEqual(was, want) {
		req := &container.SetNodePoolManagementRequest{Management: want.nodePool().Management}
		if err := o.mutate(ctx, "setManagement", want.Name, func(ctx context.Context, name string) (*container.Operation, error) {
			return pools.SetManagement(name, req).Context(ctx).Do()
		}); err != nil {
			return err
		}
	}
	return nil
}

// apply brings the cluster's pools to the plan: it runs every step, then
// reads the pools once and records every tier whose pool exists, whatever
// failed. It returns the tiers for state and whether any pool exists.
func (r *fallbackNodePoolsResource) apply(ctx context.Context, ops *poolOps, plan resourceModel, stateTiers []tierModel, diags *diag.Diagnostics) ([]tierModel, bool) {
	cat := catalog.Default()
	class := plan.ComputeClass.ValueString()
	planTiers := tiersOf(ctx, plan.Tiers)
	want := make([]tierSpec, len(planTiers))
	for i, t := range planTiers {
		s, fs := derive(cat, inputOf(ctx, t), class, "")
		if fs.HasErrors() {
			// ModifyPlan leaves such tiers unknown and ValidateConfig
			// reported them; with validation = "warn" they are attempted.
			tflog.Warn(ctx, "tier has catalog findings; creating it as planned", map[string]any{"tier": s.Name, "findings": fmt.Sprint(fs)})
		}
		want[i] = s
	}
	state := map[string]tierModel{}
	stateSpecs := map[string]tierSpec{}
	var stateOrder []string
	for _, t := range stateTiers {
		name := t.Name.ValueString()
		state[name] = t
		stateSpecs[name] = specOfState(ctx, t)
		stateOrder = append(stateOrder, name)
	}
	steps := planSteps(want, state, stateSpecs, stateOrder)

	failed := ops.execute(ctx, steps)
	adopted := map[string]bool{}
	for _, st := range steps {
		if st.adopted {
			adopted[st.want.Name] = true
		}
	}

	rctx, cancel := gcp.AfterDeadline(ctx)
	defer cancel()
	pools, err := ops.list(rctx)
	if err != nil {
		reportReadBackError(diags, ops.cluster, anyAccepted(steps, failed), err)
		// Without the pools, keep what state knew and what the plan asked for.
		pools = nil
	}
	onStockout := plan.OnStockout.ValueString()
	var out []tierModel
	anyPool := false
	for i, t := range planTiers {
		name := t.Name.ValueString()
		base := path.Root("tiers").AtListIndex(i)
		err := failed[name]
		prior := t
		if old, ok := state[name]; ok && err != nil && gcp.Classify(err) != gcp.ClassCapacity {
			prior = old // a failed change: keep the old settings, so the next plan retries it
		}
		np := pools[name]
		var refused *poolExistsError
		if errors.As(err, &refused) {
			np = nil // someone else's pool: never recorded, so never deleted by this resource
		}
		switch {
		case pools == nil:
			if old, ok := state[name]; ok {
				out = append(out, old)
				anyPool = true
			}
			continue
		case np == nil:
			out = append(out, missingTier(prior))
		default:
			anyPool = true
			out = append(out, flattenPool(ctx, cat, prior, np, class, false))
		}
		if adopted[name] {
			diags.AddAttributeWarning(base, "Existing Node Pool Adopted",
				fmt.Sprintf("Node pool %s was created by an earlier apply that did not finish (it carries the resource label %s=%s and "+
					"the label %s=%s, and its machine type, accelerators and zones match the tier), so it was adopted instead of "+
					"created again.", ops.poolName(name), ownerLabelKey, ownerLabelValue, catalog.LabelComputeClass, class))
		}
		if err != nil {
			reportTierError(diags, base, ops.poolName(name), onStockout, err)
		}
	}
	for _, name := range stateOrder {
		err := failed["-"+name]
		if err == nil {
			continue
		}
		diags.AddAttributeError(path.Root("tiers"), "Error Deleting Node Pool",
			fmt.Sprintf("Tier %q was removed, but its node pool %s could not be deleted: %s\n\nIt stays in state; the next apply deletes it again.",
				name, ops.poolName(name), err))
		if np := pools[name]; np != nil {
			anyPool = true
			out = append(out, flattenPool(ctx, cat, state[name], np, class, false))
		}
	}
	return out, anyPool
}

// execute runs the steps on the cluster, at most the limiter's number at
// once and in the order given, and returns the error of each failed step by
// pool name (removals keyed "-" + name).
func (o *poolOps) execute(ctx context.Context, steps []*step) map[string]error {
	var jobs []job
	var jobSteps []*step
	for _, st := range steps {
		if st.action == actionNone {
			continue
		}
		name := st.want.Name
		if st.action == actionDelete {
			name = st.was.Name
		}
		jobs = append(jobs, job{pool: name, run: func(ctx context.Context) error { return o.run(ctx, st) }})
		jobSteps = append(jobSteps, st)
	}
	tflog.Info(ctx, "applying node pool changes", map[string]any{"cluster": o.cluster, "operations": len(jobs)})
	failed := map[string]error{}
	for i, err := range o.runJobs(ctx, jobs) {
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

// reportTierError turns one tier's failure into a diagnostic on its path.
func reportTierError(diags *diag.Diagnostics, base path.Path, pool, onStockout string, err error) {
	var exists *poolExistsError
	switch {
	case gcp.Classify(err) == gcp.ClassCapacity:
		if onStockout == onStockoutContinue {
			diags.AddAttributeWarning(base, "Node Pool Out of Capacity", stockoutDetail(pool, onStockout, err))
			return
		}
		diags.AddAttributeError(base, "Node Pool Out of Capacity", stockoutDetail(pool, onStockout, err))
	case errors.As(err, &exists):
		diags.AddAttributeError(base.AtName("name"), "Node Pool Already Exists",
			fmt.Sprintf("Node pool %s already exists and %s, so it is not adopted: %s\n\nRename the tier, delete the pool, "+
				"or import the existing pools with the identifier %q.", pool, exists.reason, exists.err, pool))
	case gcp.Classify(err) == gcp.ClassDeadline:
		diags.AddAttributeError(base, "Timeout Waiting for Node Pool",
			fmt.Sprintf("Node pool %s did not finish in time: %s\n\nRaise timeouts, then apply again; the pool is recorded as GKE reports it.", pool, err))
	default:
		diags.AddAttributeError(base, "Error Applying Node Pool",
			fmt.Sprintf("Node pool %s could not be created or updated: %s\n\nWhat exists is recorded in state; fix the cause and apply again.", pool, err))
	}
}

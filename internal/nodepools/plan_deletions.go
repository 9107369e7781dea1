// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// What a plan deletes, said once per resource: every pool the apply deletes
// or re-creates, by pool name, with its nodes and why. One warning, whose
// summary names the pools: Terraform folds warnings of one summary into
// "(and one more similar warning elsewhere)", which would hide all but the
// first. The apply deletes nothing the plan did not name (gate.go).

// plannedDeletion is one pool a plan deletes or re-creates.
type plannedDeletion struct {
	pool  string // the tier's name, which is the pool's
	nodes string // nodesOf the tier in state
	why   string
	// replaced is set for a pool deleted only once the pool of the tier
	// that replaces it runs.
	replaced bool
}

// nodesOf says how many nodes the recorded tier t has, as far as the state
// knows: a fixed size across its zones, or its autoscaling bounds.
func nodesOf(t tierModel) string {
	zones := max(1, len(tfmodel.KnownStrings(t.NodeLocations)))
	switch {
	case t.Status.ValueString() == statusMissing:
		return "no nodes: the pool is missing"
	case t.Status.ValueString() == statusError:
		return "in ERROR"
	case !t.NodeCount.IsNull() && !t.NodeCount.IsUnknown():
		n := t.NodeCount.ValueInt64() * int64(zones)
		if n == 1 {
			return "1 node"
		}
		return fmt.Sprintf("%d nodes", n)
	case !t.MinNodeCount.IsNull() && !t.MaxNodeCount.IsNull():
		return fmt.Sprintf("autoscaled, %d to %d nodes in each of %d zone(s)", t.MinNodeCount.ValueInt64(), t.MaxNodeCount.ValueInt64(), zones)
	}
	return "an unknown number of nodes"
}

// planRemovals adds the pools of the tiers in state that no configured
// tier names (removed or renamed) to the plan's deletions, checks that each
// replaces names a tier of the state, and reports the deletions.
func (p *planning) planRemovals(ctx context.Context, diags *diag.Diagnostics) {
	if p.state == nil || !p.sameCluster() {
		p.deletionsWarning(diags)
		return
	}
	configured := map[string]bool{}
	replacedBy := map[string]string{}
	newTiers := map[string]int{}
	for i, e := range p.cfgElems {
		obj, ok := e.(types.Object)
		if !ok || obj.IsUnknown() {
			p.deletionsWarning(diags)
			return // a tier of unknown name: the removals are known once it is
		}
		name, _ := obj.Attributes()["name"].(types.String)
		repl, _ := obj.Attributes()["replaces"].(types.String)
		if name.IsUnknown() || repl.IsUnknown() {
			p.deletionsWarning(diags)
			return
		}
		configured[name.ValueString()] = true
		if _, recorded := p.prior[name.ValueString()]; !recorded {
			newTiers[name.ValueString()] = i
		}
		if !repl.IsNull() && repl.ValueString() != "" {
			replacedBy[repl.ValueString()] = name.ValueString()
		}
	}
	var removed []string
	for _, t := range tiersOf(ctx, p.state.Tiers, diags) {
		name := t.Name.ValueString()
		if configured[name] {
			continue
		}
		removed = append(removed, name)
		d := plannedDeletion{pool: name, nodes: nodesOf(t), why: "deleted: its tier was removed or renamed"}
		if by := replacedBy[name]; by != "" {
			d.why, d.replaced = fmt.Sprintf("deleted once the pool of tier %q, which replaces it, is RUNNING; kept otherwise", by), true
		}
		p.deletions = append(p.deletions, d)
	}
	p.checkReplaces(replacedBy, newTiers, removed, diags)
	p.checkClassRename(replacedBy, diags)
	p.deletionsWarning(diags)
}

// checkClassRename refuses a new compute_class in the plan that replaces a
// tier: the old pool, kept until its replacement runs (for as long as a
// stockout lasts), would keep the old class's label and taint, which the
// pods the outputs describe (the new class's node selector) do not fit.
func (p *planning) checkClassRename(replacedBy map[string]string, diags *diag.Diagnostics) {
	if p.plan.ComputeClass.IsUnknown() || p.state.ComputeClass.Equal(p.plan.ComputeClass) {
		return
	}
	for old, by := range replacedBy {
		if _, recorded := p.prior[old]; !recorded {
			continue
		}
		diags.AddAttributeError(path.Root("compute_class"), "ComputeClass Renamed While a Tier Is Replaced",
			fmt.Sprintf("compute_class changes from %q to %q in the plan in which tier %q replaces tier %q. The old pool is kept "+
				"until the new one runs, with the old class's label and taint, which pods of the new class (the node_selector "+
				"and tolerations outputs) do not fit: while it is kept, nothing they can use would serve. Rename the class in an "+
				"apply of its own, before or after the replacement.", p.state.ComputeClass.ValueString(), p.plan.ComputeClass.ValueString(), by, old))
		return
	}
}

// checkReplaces refuses a replaces that names no tier of the state while
// the plan removes tiers: a misspelt name would turn a change without a gap
// into a rename that deletes the old pool first. A replaces left in the
// configuration after its swap is done removes nothing and is fine.
func (p *planning) checkReplaces(replacedBy map[string]string, newTiers map[string]int, removed []string, diags *diag.Diagnostics) {
	if len(removed) == 0 {
		return
	}
	for old, by := range replacedBy {
		i, isNew := newTiers[by]
		if _, recorded := p.prior[old]; recorded || !isNew {
			continue
		}
		diags.AddAttributeError(path.Root("tiers").AtListIndex(i).AtName("replaces"), "Replaced Tier Not Found",
			fmt.Sprintf("replaces = %q names no tier of this resource's state, and this plan removes %s. Without a match the old "+
				"pool would be deleted before the new one runs. Set replaces to the name of the tier this one replaces: one of %s.",
				old, quoteList(removed), quoteList(removed)))
	}
}

// protected reports whether deletion_protection holds for a plan of m
// from state: true in the state, or in the plan.
func protected(plan resourceModel, state *resourceModel) bool {
	return plan.DeletionProtection.ValueBool() || (state != nil && state.DeletionProtection.ValueBool())
}

// checkProtection refuses, under deletion_protection, a plan that deletes
// a pool without a running replacement: a removed tier, a re-created pool,
// another cluster.
func (p *planning) checkProtection(diags *diag.Diagnostics) {
	if p.state == nil || !protected(p.plan, p.state) {
		return
	}
	if !p.sameCluster() {
		diags.AddAttributeError(path.Root("deletion_protection"), "Deletion Protection Is On",
			fmt.Sprintf("Changing cluster from %s to %s deletes every node pool of this resource, and deletion_protection is "+
				"true. Set deletion_protection = false and apply first.", p.state.Cluster.ValueString(), p.plan.Cluster.ValueString()))
		return
	}
	var lines []string
	for _, d := range p.deletions {
		if !d.replaced {
			lines = append(lines, fmt.Sprintf("  - %s%s%s (%s): %s", p.plan.Cluster.ValueString(), poolsSegment, d.pool, d.nodes, d.why))
		}
	}
	if len(lines) == 0 {
		return
	}
	diags.AddAttributeError(path.Root("deletion_protection"), "Deletion Protection Is On",
		fmt.Sprintf("This plan deletes node pools with no running replacement, and deletion_protection is true:\n%s\n\n"+
			"To change a pool with no gap, rename its tier and set replaces to the old name. To delete the pools, set "+
			"deletion_protection = false and apply first.", strings.Join(lines, "\n")))
}

// destroyProtected refuses terraform destroy of a state whose
// deletion_protection is true.
func destroyProtected(ctx context.Context, state resourceModel, diags *diag.Diagnostics) {
	if !state.DeletionProtection.ValueBool() {
		return
	}
	var names []string
	for _, t := range tiersOf(ctx, state.Tiers, diags) {
		names = append(names, t.Name.ValueString())
	}
	diags.AddAttributeError(path.Root("deletion_protection"), "Deletion Protection Is On",
		fmt.Sprintf("Destroying this resource deletes node pools %s of %s, and deletion_protection is true. Set "+
			"deletion_protection = false and apply, then destroy.", quoteList(names), state.Cluster.ValueString()))
}

// deletionsWarning reports the plan's deletions in one warning.
func (p *planning) deletionsWarning(diags *diag.Diagnostics) {
	if len(p.deletions) == 0 {
		return
	}
	names := make([]string, len(p.deletions))
	lines := make([]string, len(p.deletions))
	for i, d := range p.deletions {
		names[i] = d.pool
		lines[i] = fmt.Sprintf("  - %s%s%s (%s): %s", p.plan.Cluster.ValueString(), poolsSegment, d.pool, d.nodes, d.why)
	}
	summary := "Node Pool Will Be Deleted: " + names[0]
	if len(names) > 1 {
		summary = "Node Pools Will Be Deleted: " + strings.Join(names, ", ")
	}
	diags.AddAttributeWarning(path.Root("tiers"), summary,
		fmt.Sprintf("This plan deletes these node pools of the resource, or deletes and creates them again:\n%s\n\n"+
			"Every other pool is kept. To change a serving pool with no gap, rename its tier and set replaces to the old name: "+
			"the old pool is deleted only once the new one is RUNNING.", strings.Join(lines, "\n")))
}

// quoteList quotes names and joins them with commas.
func quoteList(names []string) string {
	q := slices.Clone(names)
	for i, n := range q {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

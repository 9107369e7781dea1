// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

func (r *fallbackNodePoolsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer syncIdentity(ctx, &resp.State, &req.State, resp.Identity, &resp.Diagnostics)
	var state resourceModel
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.DeletionProtection.IsNull() {
		// Imported, or recorded by a version without the argument.
		state.DeletionProtection = types.BoolValue(false)
	}
	ops := r.ops(ctx, state.Cluster.ValueString(), &resp.Diagnostics)
	if ops == nil {
		return
	}
	pools, err := ops.api.Read(ctx)
	if errors.Is(err, gcp.ErrClusterNotFound) {
		tflog.Warn(ctx, "GKE cluster no longer exists; removing accel_fallback_nodepools from state", map[string]any{"cluster": state.Cluster.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), gcp.Summary(err, "Error Reading Node Pools"),
			fmt.Sprintf("Could not list the node pools of %s: %s", state.Cluster.ValueString(), err))
		return
	}
	importing, diags := tfmodel.Imported(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if importing {
		resp.Diagnostics.Append(tfmodel.ClearImported(ctx, resp.Private)...)
	}
	tiers := tiersOf(ctx, state.Tiers, &resp.Diagnostics)
	if importing {
		setImportedDefaults(&state, tiers, pools)
		// Only the pools the import names: another pool's workload policy
		// is none of this resource's business, and may not be readable.
		named := map[string]*container.NodePool{}
		for _, t := range tiers {
			if np := pools[t.Name.ValueString()]; np != nil {
				named[np.Name] = np
			}
		}
		if err := ops.topologiesOfPolicies(ctx, named); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("tiers"), "Error Reading Workload Policies",
				fmt.Sprintf("Could not read the workload policy of a multi-host TPU7x pool of %s, whose slice topology it holds: %s",
					state.Cluster.ValueString(), err))
			return
		}
		maps.Copy(pools, named)
	}
	owner, ok := r.readOwner(ctx, &state, tiers, pools, req.Private, resp)
	if !ok {
		return
	}
	recorded := identities(ctx, req.Private, &resp.Diagnostics)
	pools = untrusted(state.Cluster.ValueString(), tiers, pools, recorded, &resp.Diagnostics)
	tiers, found := r.readTiers(ctx, &state, tiers, pools, owner, importing, recorded, &resp.Diagnostics)
	if found == 0 && !importing && ops.ownPoliciesRemain(ctx, r.catalog, tiers, &resp.Diagnostics) {
		// Every pool is gone, but a workload policy this resource created
		// is still there: the resource stays, its tiers MISSING, so that the
		// next apply creates the pools again with it, or a destroy deletes it.
		found = len(tiers)
	}
	if found == 0 {
		tflog.Warn(ctx, "none of the node pools exists any more; removing accel_fallback_nodepools from state",
			map[string]any{"cluster": state.Cluster.ValueString(), "id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if importing && found < len(tiers) {
		importMissing(state.Cluster.ValueString(), tiers, &resp.Diagnostics)
		return
	}
	r.setCapacity(ctx, state.Cluster.ValueString(), tiers, nil, &resp.Diagnostics)
	recordIdentities(ctx, resp.Private, recorded, tiers, false, &resp.Diagnostics)
	state.Tiers = tierList(ctx, tiers, &resp.Diagnostics)
	state.Pools = recordedPools(tiers, nil, poolEntries(ctx, state.Pools, &resp.Diagnostics), nil, &resp.Diagnostics)
	r.setOutputs(ctx, &state, tiers, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &state)...)
}

// readOwner settles who owns the pools while refreshing state: the owner id
// and imported pools recorded in state, or, on import (and for a state
// written before owner ids existed), the owner the named pools' labels show
// (see importedOwner), which is then recorded.
func (r *fallbackNodePoolsResource) readOwner(ctx context.Context, state *resourceModel, tiers []tierModel, pools map[string]*container.NodePool,
	private privateState, resp *resource.ReadResponse) (poolOwner, bool) {
	if !state.OwnerID.IsNull() && state.OwnerID.ValueString() != "" {
		w := ownerOf(ctx, state.OwnerID.ValueString(), private, &resp.Diagnostics)
		return w, !resp.Diagnostics.HasError()
	}
	names := make([]string, len(tiers))
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
	}
	w, err := importedOwner(names, pools)
	if err != nil {
		resp.Diagnostics.AddError("Node Pools of Two Owners", err.Error())
		return w, false
	}
	state.OwnerID = types.StringValue(w.id)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImportedPools, w.importedJSON())...)
	return w, !resp.Diagnostics.HasError()
}

// sortedNames returns the names of pools in order.
func sortedNames(pools map[string]*container.NodePool) []string {
	out := make([]string, 0, len(pools))
	for name := range pools {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// importedClass is the ComputeClass of imported pools: the value of their
// compute-class label (the first tier that has one).
func importedClass(tiers []tierModel, pools map[string]*container.NodePool) string {
	for _, t := range tiers {
		if np := pools[t.Name.ValueString()]; np != nil && np.Config != nil {
			if v := np.Config.Labels[catalog.LabelComputeClass]; v != "" {
				return v
			}
		}
	}
	return ""
}

// readTiers reads each tier of the state from its pool: a tier whose pool
// is gone is recorded missing, one whose pool someone else now owns leaves
// the state; and records the pools this resource created that no tier
// names. It returns the tiers and how many of them have a pool.
func (r *fallbackNodePoolsResource) readTiers(ctx context.Context, state *resourceModel, tiers []tierModel, pools map[string]*container.NodePool,
	owner poolOwner, importing bool, recorded map[string]nodeIdentity, diags *diag.Diagnostics) ([]tierModel, int) {
	class := state.ComputeClass.ValueString()
	cat := r.catalog
	found := 0
	kept := tiers[:0]
	named := map[string]bool{}
	for _, t := range tiers {
		name := t.Name.ValueString()
		named[name] = true
		np := pools[name]
		switch {
		case np == nil:
			kept = append(kept, missingTier(t))
		case !owner.owns(np):
			// Ours was deleted and someone else created a pool of the
			// same name: it is not this resource's, so it leaves the state
			// (the next plan shows the tier as a pool to create, and the
			// apply refuses to touch the foreign pool).
			diags.AddAttributeWarning(path.Root("tiers"), "Node Pool Replaced Outside Terraform",
				fmt.Sprintf("Node pool %s of tier %q is no longer the pool this resource created: the pool of that name %s. "+
					"It is dropped from the state and never changed or deleted by this resource.",
					state.Cluster.ValueString()+poolsSegment+name, name, ownership.Describe(resourceLabels(np))))
		default:
			found++
			kept = append(kept, flattenPool(ctx, cat, t, np, class, importing, diags))
		}
	}
	tiers = kept
	// Pools this very resource created that no tier in the state names:
	// an apply that was killed after GKE accepted their create, before it
	// could record them (and the configuration may have changed since).
	// They are recorded, so the next plan shows what happens to them.
	for _, name := range sortedNames(pools) {
		np := pools[name]
		if named[name] || importing || owner.id == "" || !ownership.Owns(owner.id, resourceLabels(np)) {
			continue
		}
		if !plausiblyOurs(np, recorded) {
			diags.AddAttributeWarning(path.Root("tiers"), "Node Pool With This Resource's Owner Id Not Adopted",
				fmt.Sprintf("Node pool %s carries this resource's owner id, but runs as service account %q with OAuth scopes %v, "+
					"which no pool of this resource has: the label alone does not make a pool this resource's (anyone who may "+
					"create pools can write it). It is left as it is and never changed or deleted by this resource.",
					state.Cluster.ValueString()+poolsSegment+name, identityOfPool(np).ServiceAccount, identityOfPool(np).OAuthScopes))
			continue
		}
		t := nullTier()
		t.Name = types.StringValue(name)
		tiers = append(tiers, flattenPool(ctx, cat, t, np, class, true, diags))
		found++
		diags.AddAttributeWarning(path.Root("tiers"), "Node Pool Left by an Interrupted Apply Found",
			fmt.Sprintf("Node pool %s carries this resource's owner id but no tier in the state names it: an apply was stopped "+
				"after GKE accepted its creation. It is recorded now; the plan shows what the configuration does with it "+
				"(kept, changed or deleted).", state.Cluster.ValueString()+poolsSegment+name))
	}
	return tiers, found
}

// importMissing reports the tiers an import names whose pools do not exist.
func importMissing(cluster string, tiers []tierModel, diags *diag.Diagnostics) {
	var missing, existing []string
	for _, t := range tiers {
		if t.Status.ValueString() == statusMissing {
			missing = append(missing, t.Name.ValueString())
		} else {
			existing = append(existing, t.Name.ValueString())
		}
	}
	detail := fmt.Sprintf("The cluster %s has no node pool named %s.", cluster, strings.Join(missing, ", "))
	if len(existing) > 0 {
		detail += fmt.Sprintf(" Import only the pools that exist, with the identifier %q; an apply then creates the others.",
			resourceID(cluster, existing))
	}
	diags.AddError("Node Pool Not Found", detail)
}

// untrusted returns pools without those of tiers whose service account or
// scopes are not what this resource recorded when it created or adopted
// them (trust.go): GKE cannot change them in place, so the pool was created
// again by someone else, whatever its labels say. Such a tier's pool is then
// missing to readTiers, never this resource's to change or delete; changes
// GKE can make in place are reported.
func untrusted(cluster string, tiers []tierModel, pools map[string]*container.NodePool, recorded map[string]nodeIdentity,
	diags *diag.Diagnostics) map[string]*container.NodePool {
	for _, t := range tiers {
		name := t.Name.ValueString()
		np, was := pools[name], recorded[name]
		if np == nil || was.ServiceAccount == "" {
			continue
		}
		now := identityOfPool(np)
		if diff := was.recreated(now); len(diff) > 0 {
			diags.AddAttributeWarning(path.Root("tiers"), "Node Pool Replaced Outside Terraform",
				fmt.Sprintf("Node pool %s of tier %q now has %s: GKE cannot change these on a pool, so it is not the pool this "+
					"resource created, whatever its labels say. It is treated as missing and never changed or deleted by this "+
					"resource; the next apply refuses to create the tier over it. Delete or rename it, then apply.",
					cluster+poolsSegment+name, name, strings.Join(diff, " and ")))
			pools = maps.Clone(pools)
			delete(pools, name)
			continue
		}
		if diff := was.changed(now); len(diff) > 0 {
			diags.AddAttributeWarning(path.Root("tiers"), "Node Settings Changed Outside Terraform",
				fmt.Sprintf("Node pool %s of tier %q now has %s, which this resource did not set. Set the tier's "+
					"workload_metadata_mode or image_type to have the next apply set them back.",
					cluster+poolsSegment+name, name, strings.Join(diff, " and ")))
		}
	}
	return pools
}

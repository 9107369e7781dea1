// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package nodepools implements accel_fallback_nodepools: ordered TPU-first,
// GPU-fallback GKE node pools with explicit accelerator and ComputeClass
// taints and labels, the ComputeClass manifest that orders them, and the
// scheduling settings a workload needs to run on any of them.
//
// Files by role. The resource's life: resource.go (the type, Configure,
// Create, Update, Delete), validate.go (ValidateConfig), plan.go
// (ModifyPlan: newPlanning, then planTier per tier, then finish), read.go
// (Read), import.go (ImportState and import ids), list.go (terraform query).
// What a tier is: model.go and schema.go (the model and the schema), derive.go
// (a tier's inputs to its spec, through the catalog), spec.go (the spec and
// the GKE node pool it sends), flatten.go (a GKE node pool back to a tier).
// One file per group of tier attributes, each with its schema, model,
// conversion and checks: settings.go, provisioning.go, localssd.go,
// labels.go, capacity_attr.go (the live quota and reservation evidence of
// the `capacity` attribute). Talking to GKE: poolops.go (the operations on
// one pool: create or adopt, update, delete), apply.go (applyTiers: the
// steps an apply runs and their order), readback.go (what a pool shows
// after an apply), live.go (the plan-time checks against the cluster and
// Compute Engine). Around them: owner.go and pools.go (who created which
// pool, and when), identity.go, manifest.go (the ComputeClass),
// diagnostics.go (the details of errors and warnings the others add),
// validators.go.
package nodepools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var (
	_ resource.Resource                   = &fallbackNodePoolsResource{}
	_ resource.ResourceWithConfigure      = &fallbackNodePoolsResource{}
	_ resource.ResourceWithValidateConfig = &fallbackNodePoolsResource{}
	_ resource.ResourceWithModifyPlan     = &fallbackNodePoolsResource{}
	_ resource.ResourceWithImportState    = &fallbackNodePoolsResource{}
)

// NewResource returns the accel_fallback_nodepools resource. modes carries
// the provider-level validation mode.
func NewResource(cat *catalog.Catalog, modes *validation.Modes) resource.Resource {
	return &fallbackNodePoolsResource{catalog: cat, modes: modes}
}

type fallbackNodePoolsResource struct {
	// catalog is the compatibility catalog the checks use.
	catalog *catalog.Catalog
	modes   *validation.Modes
	data    *providerdata.Data
	// newAPI builds the GKE API access for one cluster; replaced in tests.
	newAPI func(ctx context.Context, cluster string) (poolAPI, error)
}

type (
	resourceSchemaRequest  = resource.SchemaRequest
	resourceSchemaResponse = resource.SchemaResponse
)

func (r *fallbackNodePoolsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fallback_nodepools"
	resp.ResourceBehavior.MutableIdentity = true // see identityModel
}

func (r *fallbackNodePoolsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	d := providerdata.From(req.ProviderData, &resp.Diagnostics)
	if d == nil {
		return
	}
	r.data = d
	if r.newAPI == nil {
		r.newAPI = func(ctx context.Context, cluster string) (poolAPI, error) { return d.Clients.NodePools(ctx, cluster) }
	}
}

// setOutputs sets id, the ComputeClass manifest, and the resource-level
// node selector and tolerations from the tiers.
func (r *fallbackNodePoolsResource) setOutputs(ctx context.Context, m *resourceModel, tiers []tierModel, diags *diag.Diagnostics) {
	names := make([]string, len(tiers))
	var tols []podspec.Toleration
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
		tols = podspec.Union(tols, tolerationsOfModel(ctx, t, diags))
	}
	class := m.ComputeClass.ValueString()
	// The id lists the pools in name order, so that reordering tiers (a
	// change of priority only) keeps it; an import id may list them in any
	// order (its order is the tiers' order).
	m.ID = types.StringValue(resourceID(m.Cluster.ValueString(), slices.Sorted(slices.Values(names))))
	priorities := make([]computeclass.Priority, len(names))
	for i, n := range names {
		priorities[i] = computeclass.Priority{NodePools: []string{n}}
	}
	m.ComputeClassManifest = types.StringValue(computeclass.Class{
		Name:              class,
		Priorities:        priorities,
		WhenUnsatisfiable: m.WhenUnsatisfiable.ValueString(),
		ActiveMigration:   m.ActiveMigration.ValueBool(),
	}.YAML())
	m.NodeSelector = tfmodel.StringMap(map[string]string{catalog.LabelComputeClass: class})
	m.Tolerations = podspec.List(tols)
}

func tolerationsOfModel(ctx context.Context, t tierModel, diags *diag.Diagnostics) []podspec.Toleration {
	if t.Tolerations.IsNull() || t.Tolerations.IsUnknown() {
		return nil
	}
	var ms []tolerationModel
	diags.Append(tfmodel.ElementsAs(ctx, t.Tolerations, &ms)...)
	out := make([]podspec.Toleration, 0, len(ms))
	for _, m := range ms {
		out = append(out, podspec.Toleration{Key: m.Key.ValueString(), Operator: m.Operator.ValueString(), Value: m.Value.ValueString(), Effect: m.Effect.ValueString()})
	}
	return out
}

// ops returns the node-pool operations on cluster, or adds a diagnostic on
// the cluster argument.
func (r *fallbackNodePoolsResource) ops(ctx context.Context, cluster string, diags *diag.Diagnostics) *poolOps {
	if r.clients(diags) == nil {
		return nil
	}
	api, err := r.newAPI(ctx, cluster)
	if err != nil {
		diags.AddAttributeError(path.Root("cluster"), "Cannot Reach the GKE API", clientErrorDetail(cluster, err))
		return nil
	}
	return poolOpsOf(api, r.catalog, r.data.Clients)
}

func (r *fallbackNodePoolsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer syncIdentity(ctx, &resp.State, nil, resp.Identity, &resp.Diagnostics)
	var plan resourceModel
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	r.checkAtApply(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ops := r.ops(ctx, plan.Cluster.ValueString(), &resp.Diagnostics)
	if ops == nil {
		return
	}
	ops.owner = poolOwner{id: ownership.NewID()}
	plan.OwnerID = types.StringValue(ops.owner.id)
	if taken, why := ops.takenNames(ctx, tiersOf(ctx, plan.Tiers, &resp.Diagnostics)); len(taken) > 0 {
		lines := make([]string, len(taken))
		for i := range taken {
			lines[i] = fmt.Sprintf("  - %s %s", taken[i], why[i])
		}
		resp.Diagnostics.AddAttributeError(path.Root("tiers"), "Node Pools Already Exist",
			fmt.Sprintf("The cluster %s already has node pools named like tiers of this resource:\n%s\n\nNothing was created: this "+
				"resource never adopts, changes or deletes a pool it did not create. If these pools were left by an apply of this "+
				"configuration that was killed before it could record them, import them (terraform import with the id %q, or an "+
				"import block), then apply again to create the other tiers; otherwise rename the tiers. "+handOver,
				plan.Cluster.ValueString(), strings.Join(lines, "\n"), resourceID(plan.Cluster.ValueString(), taken)))
		return
	}
	tiers, exists, created, _ := r.applyTiers(ctx, ops, plan, nil, &resp.Diagnostics)
	if !exists {
		// Nothing exists: no state.
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError("Node Pool Creation Interrupted",
				"Terraform was interrupted before GKE accepted any node pool of this resource; nothing was created.")
		}
		return
	}
	r.setCapacity(ctx, plan.Cluster.ValueString(), tiers, nil, &resp.Diagnostics)
	recordIdentities(ctx, resp.Private, nil, tiers, true, &resp.Diagnostics)
	plan.Tiers = tierList(ctx, tiers, &resp.Diagnostics)
	plan.Pools = recordedPools(tiers, nil, nil, created, &resp.Diagnostics)
	r.setOutputs(ctx, &plan, tiers, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &plan)...)
}

func (r *fallbackNodePoolsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer syncIdentity(ctx, &resp.State, nil, resp.Identity, &resp.Diagnostics)
	var plan, state resourceModel
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	r.checkAtApply(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ops := r.ops(ctx, plan.Cluster.ValueString(), &resp.Diagnostics)
	if ops == nil {
		return
	}
	ops.owner = ownerOf(ctx, state.OwnerID.ValueString(), req.Private, &resp.Diagnostics)
	plan.OwnerID = state.OwnerID
	ops.evidence.protected = state.DeletionProtection.ValueBool()
	if resp.Diagnostics.HasError() {
		return
	}
	tiers, _, created, kept := r.applyTiers(ctx, ops, plan, tiersOf(ctx, state.Tiers, &resp.Diagnostics), &resp.Diagnostics)
	if len(tiers) == 0 {
		// No tier is left to record (each pool was refused as someone
		// else's): no state without pools, which no refresh could read.
		// Terraform keeps the prior state on an error, and the next refresh
		// drops what is no longer this resource's.
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError("No Node Pool Left", "None of the node pools of this resource exists any more; nothing was changed.")
		}
		resp.State.RemoveResource(ctx)
		return
	}
	r.setCapacity(ctx, plan.Cluster.ValueString(), tiers, kept, &resp.Diagnostics)
	recordIdentities(ctx, resp.Private, identities(ctx, req.Private, &resp.Diagnostics), tiers, true, &resp.Diagnostics)
	plan.Tiers = tierList(ctx, tiers, &resp.Diagnostics)
	plan.Pools = recordedPools(tiers, poolEntries(ctx, plan.Pools, &resp.Diagnostics),
		poolEntries(ctx, state.Pools, &resp.Diagnostics), created, &resp.Diagnostics)
	r.setOutputs(ctx, &plan, tiers, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &plan)...)
}

func (r *fallbackNodePoolsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state resourceModel
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ops := r.ops(ctx, state.Cluster.ValueString(), &resp.Diagnostics)
	if ops == nil {
		return
	}
	ops.owner = ownerOf(ctx, state.OwnerID.ValueString(), req.Private, &resp.Diagnostics)
	ops.evidence = destroyEvidence()
	ops.evidence.protected = state.DeletionProtection.ValueBool()
	destroyProtected(ctx, state, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	tiers := tiersOf(ctx, state.Tiers, &resp.Diagnostics)
	names := make([]string, len(tiers))
	specs := map[string]tierSpec{}
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
		specs[names[i]] = specOfState(ctx, r.catalog, t, &resp.Diagnostics)
	}
	res, err := ops.deleteOwned(ctx, names, specs)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Error Deleting Node Pools",
			fmt.Sprintf("Could not list the node pools of %s to delete this resource's pools: %s\n\nNothing was deleted; run terraform destroy again.",
				state.Cluster.ValueString(), err))
		return
	}
	for i, name := range names {
		if why, ok := res.notOwned[i]; ok {
			resp.Diagnostics.AddAttributeWarning(path.Root("tiers").AtListIndex(i), "Node Pool Not Deleted",
				fmt.Sprintf("Node pool %s was not deleted: it %s. It is left as it is.", ops.api.PoolName(name), why))
		}
		var policy *policyDeleteError
		if err := res.errs[i]; errors.As(err, &policy) {
			resp.Diagnostics.AddAttributeError(path.Root("tiers").AtListIndex(i), "Error Deleting Workload Policy",
				fmt.Sprintf("%s. Run terraform destroy again once nothing uses it.", policy))
		} else if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("tiers").AtListIndex(i), "Error Deleting Node Pool",
				fmt.Sprintf("Could not delete node pool %s: %s\n\nRun terraform destroy again; pools that are already gone are skipped.",
					ops.api.PoolName(name), err))
		}
	}
}

// clients returns the provider's clients, or adds a diagnostic.
func (r *fallbackNodePoolsResource) clients(diags *diag.Diagnostics) *gcp.Clients {
	if r.data == nil {
		diags.AddError("Provider Not Configured",
			"The accel provider was not configured before accel_fallback_nodepools was used. Please report this issue to the provider developers.")
		return nil
	}
	return r.data.Clients
}

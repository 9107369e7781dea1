// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package nodepools implements accel_fallback_nodepools: ordered TPU-first,
// GPU-fallback GKE node pools with explicit accelerator and ComputeClass
// taints and labels, the ComputeClass manifest that orders them, and the
// scheduling settings a workload needs to run on any of them.
package nodepools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var (
	_ resource.Resource                   = &fallbackNodePoolsResource{}
	_ resource.ResourceWithConfigure      = &fallbackNodePoolsResource{}
	_ resource.ResourceWithValidateConfig = &fallbackNodePoolsResource{}
	_ resource.ResourceWithModifyPlan     = &fallbackNodePoolsResource{}
	_ resource.ResourceWithImportState    = &fallbackNodePoolsResource{}
)

// clusterReadTimeout bounds the optional plan-time read of the cluster version.
const clusterReadTimeout = 15 * time.Second

// NewResource returns the accel_fallback_nodepools resource. modes carries
// the provider-level validation mode.
func NewResource(modes *validation.Modes) resource.Resource {
	return &fallbackNodePoolsResource{modes: modes, limiter: clusterLimiter}
}

type fallbackNodePoolsResource struct {
	modes   *validation.Modes
	data    *providerdata.Data
	limiter *gcp.Limiter
}

type (
	resourceSchemaRequest  = resource.SchemaRequest
	resourceSchemaResponse = resource.SchemaResponse
)

func (r *fallbackNodePoolsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fallback_nodepools"
}

func (r *fallbackNodePoolsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if d := providerdata.From(req.ProviderData, &resp.Diagnostics); d != nil {
		r.data = d
	}
}

// ValidateConfig checks every tier whose settings are known against the
// catalog, plus the rules of the resource itself (tier names, TPU or GPU).
func (r *fallbackNodePoolsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg resourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Tiers.IsNull() || cfg.Tiers.IsUnknown() {
		return
	}
	cat := catalog.Default()
	mode := r.modes.For(cfg.Validation)
	seen := map[string]int{}
	for i, elem := range cfg.Tiers.Elements() {
		base := path.Root("tiers").AtListIndex(i)
		obj, ok := elem.(types.Object)
		if !ok || obj.IsUnknown() || obj.IsNull() {
			continue
		}
		var t tierModel
		if diags := obj.As(ctx, &t, objectAsOptions); diags.HasError() {
			continue
		}
		if !t.Name.IsUnknown() && !t.Name.IsNull() {
			name := t.Name.ValueString()
			if first, dup := seen[name]; dup {
				resp.Diagnostics.AddAttributeError(base.AtName("name"), "Duplicate Tier Name",
					fmt.Sprintf("Tiers %d and %d are both named %q; each tier is a GKE node pool and needs its own name.", first, i, name))
			} else {
				seen[name] = i
			}
		}
		in := inputOf(ctx, t)
		if !in.known {
			continue
		}
		_, fs := derive(cat, in, "", "")
		// Errors only: ModifyPlan reports every finding (validation package doc).
		appendTierFindings(&resp.Diagnostics, i, in.Name, fs, mode, true)
	}
}

// tierFindingAttribute maps the attribute a finding about a tier names to
// the tier attribute that holds the offending value, and says whether the
// finding's list index still applies. It is the one place where the
// catalog's attribute names meet this schema: the catalog calls a pool's
// zones node_locations (or zones, as for TPU VMs), and names the cluster's
// GKE version, which is no tier setting; the TPU generation that needs a
// newer GKE is. Any other name that is not a tier attribute lands on the
// tier's name.
func tierFindingAttribute(attr string) (string, bool) {
	switch attr {
	case catalog.AttrZones:
		return catalog.AttrNodeLocations, true
	case catalog.AttrGKEVersion:
		return catalog.AttrAcceleratorType, false
	}
	if _, ok := tierAttributes()[attr]; ok {
		return attr, true
	}
	return "name", false
}

// tierAttributes is the set of a tier's attribute names.
var tierAttributes = sync.OnceValue(func() map[string]struct{} {
	out := map[string]struct{}{}
	for name := range tierNestedObject(catalog.Default()).Attributes {
		out[name] = struct{}{}
	}
	return out
})

// appendTierFindings reports findings about tier i, named name, on the
// tier's attribute paths under mode: only the errors (ValidateConfig) or
// every finding (ModifyPlan). Terraform shows a diagnostic on a nested
// attribute at the resource block, so the detail names the tier and the
// attribute too.
func appendTierFindings(diags *diag.Diagnostics, i int, name string, fs catalog.Findings, mode catalog.Mode, errorsOnly bool) {
	out := make(catalog.Findings, 0, len(fs))
	for _, f := range fs {
		attr, keepIndex := tierFindingAttribute(f.Attribute)
		if !keepIndex {
			f.Index = -1
		}
		f.Attribute = attr
		where := attr
		if f.Index >= 0 {
			where += fmt.Sprintf("[%d]", f.Index)
		}
		f.Detail = fmt.Sprintf("Tier %q, %s: %s", name, where, f.Detail)
		out = append(out, f)
	}
	base := path.Root("tiers").AtListIndex(i)
	if errorsOnly {
		validation.AppendErrors(diags, base, out, mode)
		return
	}
	validation.Append(diags, base, out, mode)
}

// ModifyPlan derives every tier's machine type, topology, placement, node
// count, labels, taints and scheduling values; keeps what GKE reported for
// tiers that do not change; checks the TPU generations against the
// cluster's GKE version when GKE can be reached; and renders the ComputeClass.
func (r *fallbackNodePoolsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, cfg resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || plan.Tiers.IsUnknown() || cfg.Tiers.IsUnknown() {
		return
	}
	var state *resourceModel
	if !req.State.Raw.IsNull() {
		state = &resourceModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	cfgElems := cfg.Tiers.Elements()
	planTiers := tiersOf(ctx, plan.Tiers)
	if len(cfgElems) != len(planTiers) {
		return
	}
	prior := map[string]tierModel{}
	if state != nil {
		for _, t := range tiersOf(ctx, state.Tiers) {
			prior[t.Name.ValueString()] = t
		}
	}
	cat := catalog.Default()
	mode := r.modes.For(plan.Validation)
	classKnown := !plan.ComputeClass.IsUnknown()
	class := plan.ComputeClass.ValueString()
	version := r.planClusterVersion(ctx, plan, cfgElems)

	allKnown := classKnown && !plan.Cluster.IsUnknown()
	for i, elem := range cfgElems {
		pt := &planTiers[i]
		obj, ok := elem.(types.Object)
		var ct tierModel
		if !ok || obj.IsUnknown() || obj.As(ctx, &ct, objectAsOptions).HasError() {
			markUnknown(pt)
			allKnown = false
			continue
		}
		in := inputOf(ctx, ct)
		if !in.known {
			markUnknown(pt)
			allKnown = false
			continue
		}
		spec, fs := derive(cat, in, class, version)
		for j, f := range fs {
			if f.Attribute == catalog.AttrGKEVersion {
				fs[j].Detail = fmt.Sprintf("The cluster %s runs GKE %s. %s", plan.Cluster.ValueString(), f.Value, f.Detail)
			}
		}
		// Every finding, warnings included: ValidateConfig reported only
		// errors, and had it found one, the plan would have stopped.
		appendTierFindings(&resp.Diagnostics, i, in.Name, fs, mode, false)
		if !classKnown || fs.HasErrors() || spec.MachineType == "" {
			markUnknown(pt)
			allKnown = false
			continue
		}
		applySpec(pt, spec)
		old, existed := prior[in.Name]
		if !existed || state == nil || state.Cluster.ValueString() != plan.Cluster.ValueString() {
			markApplied(pt)
			continue
		}
		was := specOfState(ctx, old)
		switch {
		case old.Status.ValueString() == statusMissing:
			markApplied(pt)
		case !sameShape(was, spec):
			markApplied(pt)
			resp.Diagnostics.AddAttributeWarning(path.Root("tiers").AtListIndex(i), "Node Pool Will Be Re-created",
				fmt.Sprintf("Tier %q changes a setting GKE cannot change in place (machine type, accelerator, topology, GPUs, "+
					"Spot, node locations or reservation affinity), so its node pool will be deleted and created again. "+
					"The other tiers are not touched.", in.Name))
		case !sizeEqual(was, spec) || !metadataEqual(was, spec) || !managementEqual(was, spec):
			markApplied(pt)
		default:
			pt.Status, pt.StatusMessage = old.Status, old.StatusMessage
			pt.EffectiveLabels, pt.EffectiveTaints = old.EffectiveLabels, old.EffectiveTaints
		}
	}
	plan.Tiers = tierList(ctx, planTiers)
	if allKnown {
		r.setOutputs(ctx, &plan, planTiers)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planClusterVersion reads the cluster's GKE version once per plan when a
// TPU tier could depend on it and GKE can be reached; it returns "" otherwise.
func (r *fallbackNodePoolsResource) planClusterVersion(ctx context.Context, plan resourceModel, cfgElems []attr.Value) string {
	if r.data == nil || plan.Cluster.IsUnknown() || plan.Cluster.IsNull() {
		return ""
	}
	hasTPU := false
	for _, e := range cfgElems {
		if obj, ok := e.(types.Object); ok && !obj.IsUnknown() {
			if v, ok := obj.Attributes()["accelerator_type"].(types.String); ok && !v.IsNull() {
				hasTPU = true
			}
		}
	}
	clients := r.data.Clients
	if !hasTPU || (!clients.TPUConfigured() && clients.Config().ContainerEndpoint == "") {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, clusterReadTimeout)
	defer cancel()
	ops, err := newPoolOps(ctx, clients, r.limiter, plan.Cluster.ValueString())
	if err == nil {
		var v string
		v, err = ops.clusterVersion(ctx)
		if err == nil {
			return v
		}
	}
	tflog.Debug(ctx, "GKE not reachable at plan time; the TPU generations' minimum GKE versions are not checked",
		map[string]any{"cluster": plan.Cluster.ValueString(), "error": err.Error()})
	return ""
}

// setOutputs sets id, the ComputeClass manifest, and the resource-level
// node selector and tolerations from the tiers.
func (r *fallbackNodePoolsResource) setOutputs(ctx context.Context, m *resourceModel, tiers []tierModel) {
	names := make([]string, len(tiers))
	var tols []toleration
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
		tols = unionTolerations(tols, tolerationsOfModel(ctx, t))
	}
	class := m.ComputeClass.ValueString()
	m.ID = types.StringValue(resourceID(m.Cluster.ValueString(), names))
	m.ComputeClassManifest = types.StringValue(computeClass{
		Name:              class,
		Pools:             names,
		WhenUnsatisfiable: m.WhenUnsatisfiable.ValueString(),
		ActiveMigration:   m.ActiveMigration.ValueBool(),
	}.yaml())
	m.NodeSelector = stringMap(map[string]string{catalog.LabelComputeClass: class})
	m.Tolerations = tolerationList(tols)
}

func tolerationsOfModel(ctx context.Context, t tierModel) []toleration {
	if t.Tolerations.IsNull() || t.Tolerations.IsUnknown() {
		return nil
	}
	var ms []tolerationModel
	t.Tolerations.ElementsAs(ctx, &ms, false)
	out := make([]toleration, 0, len(ms))
	for _, m := range ms {
		out = append(out, toleration{Key: m.Key.ValueString(), Operator: m.Operator.ValueString(), Value: m.Value.ValueString(), Effect: m.Effect.ValueString()})
	}
	return out
}

func (r *fallbackNodePoolsResource) clients(diags *diag.Diagnostics) *gcp.Clients {
	if r.data == nil {
		diags.AddError("Provider Not Configured",
			"The accel provider was not configured before accel_fallback_nodepools was used. Please report this issue to the provider developers.")
		return nil
	}
	return r.data.Clients
}

func (r *fallbackNodePoolsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	clients := r.clients(&resp.Diagnostics)
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
	ops, err := newPoolOps(ctx, clients, r.limiter, plan.Cluster.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Error Creating Node Pools", clientErrorDetail(plan.Cluster.ValueString(), err))
		return
	}
	tiers, exists := r.apply(ctx, ops, plan, nil, &resp.Diagnostics)
	if !exists {
		return // nothing exists: no state
	}
	plan.Tiers = tierList(ctx, tiers)
	r.setOutputs(ctx, &plan, tiers)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *fallbackNodePoolsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	clients := r.clients(&resp.Diagnostics)
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
	ops, err := newPoolOps(ctx, clients, r.limiter, plan.Cluster.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Error Updating Node Pools", clientErrorDetail(plan.Cluster.ValueString(), err))
		return
	}
	tiers, _ := r.apply(ctx, ops, plan, tiersOf(ctx, state.Tiers), &resp.Diagnostics)
	plan.Tiers = tierList(ctx, tiers)
	r.setOutputs(ctx, &plan, tiers)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *fallbackNodePoolsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state resourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	clients := r.clients(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ops, err := newPoolOps(ctx, clients, r.limiter, state.Cluster.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Error Reading Node Pools", clientErrorDetail(state.Cluster.ValueString(), err))
		return
	}
	pools, err := ops.list(ctx)
	if errors.Is(err, errClusterNotFound) {
		tflog.Warn(ctx, "GKE cluster no longer exists; removing accel_fallback_nodepools from state", map[string]any{"cluster": state.Cluster.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), gcp.Summary(err, "Error Reading Node Pools"),
			fmt.Sprintf("Could not list the node pools of %s: %s", state.Cluster.ValueString(), err))
		return
	}
	importing := state.ComputeClass.IsNull()
	tiers := tiersOf(ctx, state.Tiers)
	if importing {
		state.ComputeClass = types.StringValue(importedClass(tiers, pools))
		state.OnStockout = types.StringValue(onStockoutFail)
		state.WhenUnsatisfiable = types.StringValue(whenUnsatisfiableDoNotScaleUp)
		state.ActiveMigration = types.BoolValue(false)
	}
	class := state.ComputeClass.ValueString()
	cat := catalog.Default()
	found := 0
	for i, t := range tiers {
		np := pools[t.Name.ValueString()]
		if np == nil {
			tiers[i] = missingTier(t)
			continue
		}
		found++
		tiers[i] = flattenPool(ctx, cat, t, np, class, importing)
	}
	if found == 0 {
		tflog.Warn(ctx, "none of the node pools exists any more; removing accel_fallback_nodepools from state",
			map[string]any{"cluster": state.Cluster.ValueString(), "id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if importing && found < len(tiers) {
		resp.Diagnostics.AddError("Node Pool Not Found",
			fmt.Sprintf("The import identifier %q names node pools that do not exist in the cluster; import only existing pools.", state.ID.ValueString()))
		return
	}
	state.Tiers = tierList(ctx, tiers)
	r.setOutputs(ctx, &state, tiers)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
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

func (r *fallbackNodePoolsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state resourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	clients := r.clients(&resp.Diagnostics)
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
	ops, err := newPoolOps(ctx, clients, r.limiter, state.Cluster.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cluster"), "Error Deleting Node Pools", clientErrorDetail(state.Cluster.ValueString(), err))
		return
	}
	tiers := tiersOf(ctx, state.Tiers)
	jobs := make([]job, 0, len(tiers))
	for _, t := range tiers {
		name := t.Name.ValueString()
		jobs = append(jobs, job{pool: name, run: func(ctx context.Context) error { return ops.delete(ctx, name) }})
	}
	for i, err := range ops.runJobs(ctx, jobs) {
		if err != nil && !errors.Is(err, errClusterNotFound) && gcp.Classify(err) != gcp.ClassNotFound {
			resp.Diagnostics.AddAttributeError(path.Root("tiers").AtListIndex(i), "Error Deleting Node Pool",
				fmt.Sprintf("Could not delete node pool %s: %s\n\nRun terraform destroy again; pools that are already gone are skipped.",
					ops.poolName(jobs[i].pool), err))
		}
	}
}

// ImportState accepts "projects/P/locations/L/clusters/C/nodePools/a,b"; the
// tiers are rebuilt from the pools, in the order given.
func (r *fallbackNodePoolsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	cluster, pools, err := parseImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import Identifier", err.Error())
		return
	}
	tiers := make([]tierModel, len(pools))
	for i, p := range pools {
		t := nullTier()
		t.Name = types.StringValue(p)
		tiers[i] = t
	}
	m := resourceModel{
		ID:                   types.StringValue(resourceID(cluster, pools)),
		Cluster:              types.StringValue(cluster),
		ComputeClass:         types.StringNull(),
		Tiers:                tierList(ctx, tiers),
		OnStockout:           types.StringNull(),
		WhenUnsatisfiable:    types.StringNull(),
		ActiveMigration:      types.BoolNull(),
		Validation:           types.StringNull(),
		ComputeClassManifest: types.StringNull(),
		NodeSelector:         types.MapNull(types.StringType),
		Tolerations:          types.ListNull(tolerationObjectType),
	}
	m.Timeouts.Object = types.ObjectNull(timeoutsAttrTypes(ctx))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// nullTier is a tier with every value null.
func nullTier() tierModel {
	return tierModel{
		Name: types.StringNull(), AcceleratorType: types.StringNull(), MachineType: types.StringNull(),
		Topology: types.StringNull(), GPUType: types.StringNull(), GPUCount: types.Int64Null(),
		GPUDriverVersion: types.StringNull(), NodeLocations: types.ListNull(types.StringType),
		NodeCount: types.Int64Null(), MinNodeCount: types.Int64Null(), MaxNodeCount: types.Int64Null(),
		Spot: types.BoolNull(), AutoRepair: types.BoolNull(), AutoUpgrade: types.BoolNull(),
		Labels: types.MapNull(types.StringType), Taints: types.ListNull(taintObjectType),
		ReservationAffinity: types.ObjectNull(reservationAttrTypes),
		PlacementPolicy:     types.StringNull(), PoolName: types.StringNull(), Status: types.StringNull(),
		StatusMessage: types.StringNull(), AcceleratorLabels: types.MapNull(types.StringType),
		NodeLabels: types.MapNull(types.StringType), NodeTaints: types.ListNull(taintObjectType),
		EffectiveLabels: types.MapNull(types.StringType), EffectiveTaints: types.ListNull(taintObjectType),
		NodeSelector: types.MapNull(types.StringType), Tolerations: types.ListNull(tolerationObjectType),
	}
}

// clientErrorDetail explains a failure to reach GKE for cluster.
func clientErrorDetail(cluster string, err error) string {
	var ce *gcp.CredentialsError
	if errors.As(err, &ce) {
		return err.Error()
	}
	return fmt.Sprintf("Could not prepare GKE API calls for %s: %s", cluster, err)
}

// stockoutDetail explains a tier that GKE could not provision for lack of capacity.
func stockoutDetail(pool string, onStockout string, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GKE could not provision node pool %s for lack of capacity: %s", pool, err)
	if zones := gcp.ZonesAvailable(err); len(zones) > 0 {
		fmt.Fprintf(&b, "\n\nZones that reported capacity: %s. Add a tier in one of them, or change this tier's node_locations.", strings.Join(zones, ", "))
	}
	if onStockout == onStockoutFail {
		b.WriteString("\n\nThe pool, as GKE left it, and every other tier are recorded in state. Set on_stockout = \"continue\" to keep " +
			"applying when a tier is out of capacity; the ComputeClass then falls back to the next tier.")
	} else {
		b.WriteString("\n\nThe pool is recorded with the status GKE reports; GKE keeps trying to add nodes, and the ComputeClass falls back to the next tier meanwhile.")
	}
	return b.String()
}

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
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
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

// clusterReadTimeout bounds the optional plan-time read of the cluster version.
const clusterReadTimeout = 15 * time.Second

// NewResource returns the accel_fallback_nodepools resource. modes carries
// the provider-level validation mode.
func NewResource(modes *validation.Modes) resource.Resource {
	return &fallbackNodePoolsResource{modes: modes}
}

type fallbackNodePoolsResource struct {
	modes *validation.Modes
	data  *providerdata.Data
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

// ValidateConfig checks every tier whose settings are known against the
// catalog, plus the rules of the resource itself (tier names, TPU or GPU).
func (r *fallbackNodePoolsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg resourceModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Tiers.IsNull() || cfg.Tiers.IsUnknown() {
		return
	}
	cat := catalog.Default()
	mode := r.modes.For(cfg.Validation)
	seen := map[string]int{}
	replaces := map[int]string{}
	defer func() {
		for i, old := range replaces {
			base := path.Root("tiers").AtListIndex(i).AtName("replaces")
			if j, still := seen[old]; still {
				what := fmt.Sprintf("tier %d", j)
				if j == i {
					what = "this tier itself"
				}
				resp.Diagnostics.AddAttributeError(base, "Replaced Tier Still Configured",
					fmt.Sprintf("replaces = %q names %s, which is still configured. replaces names a tier removed in the same change, "+
						"whose pool is deleted once this tier's pool runs: remove tier %q, or remove replaces.", old, what, old))
			}
		}
	}()
	for i, elem := range cfg.Tiers.Elements() {
		base := path.Root("tiers").AtListIndex(i)
		obj, ok := elem.(types.Object)
		if !ok || obj.IsUnknown() || obj.IsNull() {
			continue
		}
		var t tierModel
		diags := obj.As(ctx, &t, objectAsOptions)
		resp.Diagnostics.Append(diags...)
		if diags.HasError() {
			continue
		}
		if !t.Replaces.IsNull() && !t.Replaces.IsUnknown() {
			replaces[i] = t.Replaces.ValueString()
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
		in := inputOf(ctx, t, &resp.Diagnostics)
		if !in.known || !wholly(obj) || cfg.Validation.IsUnknown() {
			continue // checked by the plan made once the values are known
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

// tierAttributes is the set of a tier's attribute and block names.
var tierAttributes = sync.OnceValue(func() map[string]struct{} {
	out := map[string]struct{}{}
	obj := tierBlockObject(catalog.Default())
	for name := range obj.Attributes {
		out[name] = struct{}{}
	}
	for name := range obj.Blocks {
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
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || plan.Tiers.IsUnknown() || cfg.Tiers.IsUnknown() {
		return
	}
	var state *resourceModel
	if !req.State.Raw.IsNull() {
		state = &resourceModel{}
		resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	cfgElems := cfg.Tiers.Elements()
	planTiers := tiersOf(ctx, plan.Tiers, &resp.Diagnostics)
	if len(cfgElems) != len(planTiers) {
		return
	}
	prior := map[string]tierModel{}
	priorPools := map[string]poolEntry{}
	if state != nil {
		for _, t := range tiersOf(ctx, state.Tiers, &resp.Diagnostics) {
			prior[t.Name.ValueString()] = t
		}
		priorPools = poolEntries(ctx, state.Pools, &resp.Diagnostics)
	}
	// The planned pools: see pools.go.
	planned := map[string]poolEntry{}
	poolsKnown := true
	planPool := func(i int, name types.String, keeps bool) {
		if name.IsUnknown() || name.IsNull() {
			poolsKnown = false
			return
		}
		old, had := priorPools[name.ValueString()]
		planned[name.ValueString()] = plannedPool(i, old, had, keeps)
	}
	cat := catalog.Default()
	mode := r.modes.For(plan.Validation)
	classKnown := !plan.ComputeClass.IsUnknown()
	class := plan.ComputeClass.ValueString()
	live := r.planCluster(ctx, plan)
	version := ""
	if live != nil && hasTPUTier(cfgElems) {
		version = live.CurrentMasterVersion
	}
	if live != nil && (state == nil || state.Cluster.Equal(plan.Cluster)) {
		checkPlannedPools(&resp.Diagnostics, live, plan, state, prior, cfgElems)
	}
	validation.Append(&resp.Diagnostics, path.Empty(), computeClassFindings(cat, plan.Cluster.ValueString(), live), mode)

	allKnown := classKnown && !plan.Cluster.IsUnknown()
	// untouched are the tiers whose pools the apply leaves alone: they keep
	// their recorded values, known, when the resource is updated.
	untouched := map[int]bool{}
	capacity := &tiersCapacity{}
	for i, elem := range cfgElems {
		pt := &planTiers[i]
		obj, ok := elem.(types.Object)
		var ct tierModel
		if ok && !obj.IsUnknown() {
			d := obj.As(ctx, &ct, objectAsOptions)
			resp.Diagnostics.Append(d...)
			if d.HasError() {
				return
			}
		}
		if !ok || obj.IsUnknown() {
			markUnknown(pt)
			allKnown = false
			poolsKnown = false
			continue
		}
		planTerraformResourceLabels(r.data, &ct, pt, r.data != nil && slices.Contains(r.data.Unknown, providerdata.DefaultLabelsAttr))
		in := inputOf(ctx, ct, &resp.Diagnostics)
		if !in.known || !wholly(obj) || plan.Validation.IsUnknown() {
			// Derived values and checks wait for the values (the plan
			// Terraform makes at apply, once they are known).
			markUnknown(pt)
			planPool(i, ct.Name, false)
			allKnown = false
			continue
		}
		spec, fs := derive(cat, in, class, version)
		if !fs.HasErrors() && !plan.Cluster.IsUnknown() && !plan.Cluster.IsNull() {
			fs = append(fs, r.clusterFindings(ctx, cat, plan.Cluster.ValueString(), live, in, spec)...)
			if !fs.HasErrors() {
				cfs, checked, can := r.capacityFindings(ctx, cat, plan.Cluster.ValueString(), live, in, spec, i == len(cfgElems)-1)
				fs = append(fs, cfs...)
				capacity.tier(in.Name, checked, can)
			}
		}
		for j, f := range fs {
			if f.Attribute == catalog.AttrGKEVersion {
				fs[j].Detail = fmt.Sprintf("The cluster %s runs GKE %s. %s", plan.Cluster.ValueString(), f.Value, f.Detail)
			}
		}
		// Every finding, warnings included: ValidateConfig reported only
		// errors, and had it found one, the plan would have stopped.
		appendTierFindings(&resp.Diagnostics, i, in.Name, fs, mode, false)
		old, existed := prior[in.Name]
		if !classKnown || fs.HasErrors() || spec.MachineType == "" {
			if classKnown && existed && state != nil && state.Cluster.Equal(plan.Cluster) &&
				old.Status.ValueString() != statusMissing && configMatches(ct, old) {
				// A tier the catalog cannot derive, kept with validation =
				// "warn": the pool is as configured, nothing to plan.
				*pt = old
				planPool(i, ct.Name, true)
				continue
			}
			markUnknown(pt)
			planPool(i, ct.Name, false)
			allKnown = false
			continue
		}
		applySpec(pt, spec)
		recorded := existed && state != nil && state.Cluster.ValueString() == plan.Cluster.ValueString()
		var was tierSpec
		if recorded {
			was = specOfState(ctx, old, &resp.Diagnostics)
		}
		act := tierAction(recorded, old.Status.ValueString(), was, spec)
		untouched[i] = act == actionNone && recorded
		planPool(i, ct.Name, act == actionNone || act == actionUpdate)
		planSettings(pt, ct, old, act == actionNone || act == actionUpdate)
		switch act {
		case actionReplace:
			markApplied(pt)
			why := "changes what GKE cannot change in place: " + strings.Join(shapeChanges(was, spec), "; ")
			if old.Status.ValueString() == statusError {
				why = fmt.Sprintf("has a node pool in ERROR (%s)", old.StatusMessage.ValueString())
			}
			resp.Diagnostics.AddAttributeWarning(path.Root("tiers").AtListIndex(i), "Node Pool Will Be Re-created",
				fmt.Sprintf("Tier %q %s, so its node pool will be deleted and created again. The other tiers are not touched. "+
					"To change it with no gap in serving, rename the tier and set replaces = %q (see the resource's docs).", in.Name, why, in.Name))
		case actionNone:
			pt.Status, pt.StatusMessage = old.Status, old.StatusMessage
			pt.EffectiveLabels, pt.EffectiveTaints = old.EffectiveLabels, old.EffectiveTaints
			pt.Capacity = old.Capacity // refreshed by Read, never a planned change
			pt.EffectiveResourceLabels = old.EffectiveResourceLabels
		default:
			markApplied(pt)
		}
	}
	if state != nil && updates(plan, *state, tierList(ctx, planTiers, &resp.Diagnostics)) {
		// The resource is updated: the pools the apply changes are read
		// again. The others keep the values the plan shows (the apply
		// records them as planned; a pool deleted since the refresh is
		// found by the next one).
		for i := range planTiers {
			if !untouched[i] {
				markApplied(&planTiers[i])
			}
		}
	}
	capacity.report(&resp.Diagnostics, len(cfgElems), plan.WhenUnsatisfiable)
	plan.Tiers = tierList(ctx, planTiers, &resp.Diagnostics)
	plan.Pools = types.MapUnknown(poolEntryType)
	if poolsKnown {
		plan.Pools = poolMap(planned, &resp.Diagnostics)
	}
	if allKnown {
		r.setOutputs(ctx, &plan, planTiers, &resp.Diagnostics)
		if plan.WhenUnsatisfiable.IsUnknown() || plan.ActiveMigration.IsUnknown() {
			plan.ComputeClassManifest = types.StringUnknown()
		}
	}
	resp.Diagnostics.Append(tfmodel.SetPlan(ctx, &resp.Plan, &plan)...)
}

// updates reports whether a plan with the given tiers changes the state.
func updates(plan, state resourceModel, tiers types.List) bool {
	pairs := [][2]attr.Value{
		{plan.Cluster, state.Cluster}, {plan.ComputeClass, state.ComputeClass}, {plan.OnStockout, state.OnStockout},
		{plan.WhenUnsatisfiable, state.WhenUnsatisfiable}, {plan.ActiveMigration, state.ActiveMigration},
		{plan.Validation, state.Validation}, {plan.Timeouts, state.Timeouts}, {tiers, state.Tiers},
	}
	for _, p := range pairs {
		if !p[0].Equal(p[1]) {
			return true
		}
	}
	return false
}

// wholly reports whether v is known all through: a null value is, a list,
// map or object is when each of its elements is.
func wholly(v attr.Value) bool {
	tv, err := v.ToTerraformValue(context.Background())
	return err == nil && tv.IsFullyKnown()
}

// configMatches reports whether every attribute a tier's configuration sets
// has the value recorded in state.
func configMatches(cfg, state tierModel) bool {
	c, s := tierValues(cfg), tierValues(state)
	for name, v := range c {
		if !v.IsNull() && !v.Equal(s[name]) {
			return false
		}
	}
	return true
}

// tierValues lists the attributes of a tier a configuration can set.
func tierValues(t tierModel) map[string]attr.Value {
	out := map[string]attr.Value{
		"name": t.Name, "accelerator_type": t.AcceleratorType, "machine_type": t.MachineType, "topology": t.Topology,
		"gpu_type": t.GPUType, "gpu_count": t.GPUCount, "gpu_driver_version": t.GPUDriverVersion,
		"node_locations": t.NodeLocations, "node_count": t.NodeCount, "min_node_count": t.MinNodeCount,
		"max_node_count": t.MaxNodeCount, "spot": t.Spot, "auto_repair": t.AutoRepair, "auto_upgrade": t.AutoUpgrade,
		"labels": t.Labels, "taints": t.Taints, "reservation_affinity": t.ReservationAffinity,
	}
	maps.Copy(out, settingsValues(t.tierSettingsModel))
	maps.Copy(out, provisioningValues(t.tierProvisioningModel))
	maps.Copy(out, localSSDValues(t.tierLocalSSDModel))
	return out
}

// checkAtApply repeats the checks of ValidateConfig on the configuration,
// known all through at apply, and adds the errors before any API call: the
// checks left for later because a value was unknown at plan time. Terraform
// plans again with the known values before it applies, so this finds
// something only when that plan did not run the checks.
func (r *fallbackNodePoolsResource) checkAtApply(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	resp := resource.ValidateConfigResponse{}
	r.ValidateConfig(ctx, resource.ValidateConfigRequest{Config: config}, &resp)
	for _, d := range resp.Diagnostics {
		if d.Severity() == diag.SeverityError {
			diags.Append(d)
		}
	}
}

// planCluster reads the cluster once per plan, with its node pools and GKE
// version, when GKE can be reached (an endpoint or credentials are set); it
// returns nil otherwise, and offline plans make no call.
func (r *fallbackNodePoolsResource) planCluster(ctx context.Context, plan resourceModel) *container.Cluster {
	if r.data == nil || plan.Cluster.IsUnknown() || plan.Cluster.IsNull() {
		return nil
	}
	clients := r.data.Clients
	if !clients.TPUConfigured() && clients.Config().ContainerEndpoint == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, clusterReadTimeout)
	defer cancel()
	api, err := r.newAPI(ctx, plan.Cluster.ValueString())
	if err == nil {
		var c *container.Cluster
		c, err = api.GetCluster(ctx)
		if err == nil {
			return c
		}
	}
	tflog.Debug(ctx, "GKE not reachable at plan time; existing pools and the TPU generations' minimum GKE versions are not checked",
		map[string]any{"cluster": plan.Cluster.ValueString(), "error": err.Error()})
	return nil
}

// hasTPUTier reports whether any configured tier is a TPU tier.
func hasTPUTier(cfgElems []attr.Value) bool {
	for _, e := range cfgElems {
		if obj, ok := e.(types.Object); ok && !obj.IsUnknown() {
			if v, ok := obj.Attributes()["accelerator_type"].(types.String); ok && !v.IsNull() {
				return true
			}
			if v, ok := obj.Attributes()["machine_type"].(types.String); ok && !v.IsUnknown() && catalog.Default().IsTPUMachineType(v.ValueString()) {
				return true
			}
		}
	}
	return false
}

// mayBePredecessors reports whether np could belong to a resource this plan
// replaces: it carries an ownership label, or this ComputeClass's label.
func mayBePredecessors(np *container.NodePool, class types.String) bool {
	if resourceLabels(np)[ownership.LabelKey] != "" {
		return true
	}
	return np.Config != nil && !class.IsUnknown() && np.Config.Labels[catalog.LabelComputeClass] == class.ValueString()
}

// ownedOfClass reports whether np carries an ownership label (some
// accel_fallback_nodepools created it) and the label of ComputeClass class.
func ownedOfClass(np *container.NodePool, class types.String) bool {
	return np != nil && np.Config != nil && !class.IsUnknown() && resourceLabels(np)[ownership.LabelKey] != "" &&
		np.Config.Labels[catalog.LabelComputeClass] == class.ValueString()
}

// checkPlannedPools reports, from the cluster as GKE shows it at plan time,
// every tier the plan would create whose name a pool in the cluster already
// has (a warning: the apply refuses it; an error only where a replacement
// would delete this resource's pools before the refusal), and, for a resource not yet
// created, the pools that carry its ComputeClass label and an ownership
// label but no tier's name (what an interrupted apply may have left).
func checkPlannedPools(diags *diag.Diagnostics, live *container.Cluster, plan resourceModel, state *resourceModel, prior map[string]tierModel, cfgElems []attr.Value) {
	pools := map[string]*container.NodePool{}
	for _, np := range live.NodePools {
		if np != nil {
			pools[np.Name] = np
		}
	}
	// Pools of this ComputeClass that some resource created: a plan
	// without state may be the replacement of their resource.
	replacing := slices.ContainsFunc(live.NodePools, func(np *container.NodePool) bool { return ownedOfClass(np, plan.ComputeClass) })
	named := map[string]bool{}
	for i, e := range cfgElems {
		obj, ok := e.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		v, ok := obj.Attributes()["name"].(types.String)
		if !ok || v.IsUnknown() || v.IsNull() {
			continue
		}
		name := v.ValueString()
		named[name] = true
		np := pools[name]
		if np == nil {
			continue
		}
		if _, recorded := prior[name]; recorded && state != nil {
			continue
		}
		id := plan.Cluster.ValueString() + poolsSegment + name
		detail := fmt.Sprintf("Tier %q would create node pool %s, but a pool of that name exists and %s. This resource never "+
			"adopts, changes or deletes it.\n\nRename the tier, or, if this resource should manage the pool (for example one left by "+
			"an apply of this configuration that was killed before it could record it), import it with the identifier %q.",
			name, id, ownership.Describe(resourceLabels(np)), id)
		at := path.Root("tiers").AtListIndex(i).AtName("name")
		switch {
		case state == nil && mayBePredecessors(np, plan.ComputeClass):
			// A plan without state may replace this very resource (tainted,
			// or a setting that forces replacement), whose pools its destroy
			// deletes first: the apply refuses the pool if it is still there.
			marks := "this ComputeClass's label"
			if owner := resourceLabels(np)[ownership.LabelKey]; owner != "" {
				marks = fmt.Sprintf("an owner id (%s = %q) and %s", ownership.LabelKey, owner, marks)
			}
			diags.AddAttributeWarning(at, "Node Pool Already Exists", fmt.Sprintf("Tier %q names node pool %s, which "+
				"carries %s. If this plan replaces the resource that created it (Terraform replaces a resource whose first "+
				"apply failed, which it marks tainted, and one given to -replace), its destroy deletes the pool and the create "+
				"makes it again: to keep the pools of a tainted resource, run terraform untaint on it before applying. If "+
				"another state or workspace created it, the apply refuses this resource and changes nothing of the pool.",
				name, id, marks))
		case state == nil && replacing:
			// A replacement deletes the resource's own pools before it
			// creates: stop here, before they are lost to a refused create.
			diags.AddAttributeError(at, "Node Pool Already Exists", detail+
				"\n\nThis plan may replace a resource whose pools are in the cluster (they carry an owner id and this "+
				"ComputeClass's label): its destroy would run before the create is refused, so nothing is planned.")
		case state == nil:
			// Otherwise a warning: the create refuses the resource before it
			// creates anything. An error would also stop terraform destroy,
			// whose refresh plans the whole configuration first.
			diags.AddAttributeWarning(at, "Node Pool Already Exists", detail+
				"\n\nThe apply will refuse this resource and create nothing.")
		default:
			diags.AddAttributeWarning(at, "Node Pool Already Exists", detail+
				"\n\nThe apply will refuse this tier and apply the others.")
		}
	}
	if state != nil || plan.ComputeClass.IsUnknown() {
		return
	}
	var left []string
	for _, np := range live.NodePools {
		if np == nil || named[np.Name] || np.Config == nil {
			continue
		}
		if ownedOfClass(np, plan.ComputeClass) {
			left = append(left, fmt.Sprintf("%s (%s = %q)", np.Name, ownership.LabelKey, resourceLabels(np)[ownership.LabelKey]))
		}
	}
	if len(left) > 0 {
		diags.AddAttributeWarning(path.Root("compute_class"), "Node Pools of This ComputeClass Left Behind",
			fmt.Sprintf("The cluster %s has node pools for ComputeClass %q that an accel_fallback_nodepools resource created and that "+
				"no tier names: %s. If an apply of this configuration was killed before it could record them, they are not "+
				"managed by any state: import them together with this resource's pools, or delete them. This resource does not touch them.",
				plan.Cluster.ValueString(), plan.ComputeClass.ValueString(), strings.Join(left, ", ")))
	}
}

// setOutputs sets id, the ComputeClass manifest, and the resource-level
// node selector and tolerations from the tiers.
func (r *fallbackNodePoolsResource) setOutputs(ctx context.Context, m *resourceModel, tiers []tierModel, diags *diag.Diagnostics) {
	names := make([]string, len(tiers))
	var tols []toleration
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
		tols = unionTolerations(tols, tolerationsOfModel(ctx, t, diags))
	}
	class := m.ComputeClass.ValueString()
	// The id lists the pools in name order, so that reordering tiers (a
	// change of priority only) keeps it; an import id may list them in any
	// order (its order is the tiers' order).
	m.ID = types.StringValue(resourceID(m.Cluster.ValueString(), slices.Sorted(slices.Values(names))))
	m.ComputeClassManifest = types.StringValue(computeClass{
		Name:              class,
		Pools:             names,
		WhenUnsatisfiable: m.WhenUnsatisfiable.ValueString(),
		ActiveMigration:   m.ActiveMigration.ValueBool(),
	}.yaml())
	m.NodeSelector = stringMap(map[string]string{catalog.LabelComputeClass: class})
	m.Tolerations = tolerationList(tols)
}

func tolerationsOfModel(ctx context.Context, t tierModel, diags *diag.Diagnostics) []toleration {
	if t.Tolerations.IsNull() || t.Tolerations.IsUnknown() {
		return nil
	}
	var ms []tolerationModel
	diags.Append(t.Tolerations.ElementsAs(ctx, &ms, false)...)
	out := make([]toleration, 0, len(ms))
	for _, m := range ms {
		out = append(out, toleration{Key: m.Key.ValueString(), Operator: m.Operator.ValueString(), Value: m.Value.ValueString(), Effect: m.Effect.ValueString()})
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
	return &poolOps{api: api}
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
				"import block), then apply again to create the other tiers; otherwise rename the tiers.",
				plan.Cluster.ValueString(), strings.Join(lines, "\n"), resourceID(plan.Cluster.ValueString(), taken)))
		return
	}
	tiers, exists, created, _ := r.apply(ctx, ops, plan, nil, &resp.Diagnostics)
	if !exists {
		// Nothing exists: no state.
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError("Node Pool Creation Interrupted",
				"Terraform was interrupted before GKE accepted any node pool of this resource; nothing was created.")
		}
		return
	}
	r.setCapacity(ctx, plan.Cluster.ValueString(), tiers, nil, &resp.Diagnostics)
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
	if resp.Diagnostics.HasError() {
		return
	}
	tiers, _, created, kept := r.apply(ctx, ops, plan, tiersOf(ctx, state.Tiers, &resp.Diagnostics), &resp.Diagnostics)
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
	plan.Tiers = tierList(ctx, tiers, &resp.Diagnostics)
	plan.Pools = recordedPools(tiers, poolEntries(ctx, plan.Pools, &resp.Diagnostics),
		poolEntries(ctx, state.Pools, &resp.Diagnostics), created, &resp.Diagnostics)
	r.setOutputs(ctx, &plan, tiers, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &plan)...)
}

func (r *fallbackNodePoolsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer syncIdentity(ctx, &resp.State, &req.State, resp.Identity, &resp.Diagnostics)
	var state resourceModel
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ops := r.ops(ctx, state.Cluster.ValueString(), &resp.Diagnostics)
	if ops == nil {
		return
	}
	pools, err := ops.api.List(ctx)
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
	}
	owner, ok := r.readOwner(ctx, &state, tiers, pools, req.Private, resp)
	if !ok {
		return
	}
	class := state.ComputeClass.ValueString()
	cat := catalog.Default()
	found := 0
	kept := tiers[:0]
	recorded := map[string]bool{}
	for _, t := range tiers {
		name := t.Name.ValueString()
		recorded[name] = true
		np := pools[name]
		switch {
		case np == nil:
			kept = append(kept, missingTier(t))
		case !owner.owns(np):
			// Ours was deleted and someone else created a pool of the
			// same name: it is not this resource's, so it leaves the state
			// (the next plan shows the tier as a pool to create, and the
			// apply refuses to touch the foreign pool).
			resp.Diagnostics.AddAttributeWarning(path.Root("tiers"), "Node Pool Replaced Outside Terraform",
				fmt.Sprintf("Node pool %s of tier %q is no longer the pool this resource created: the pool of that name %s. "+
					"It is dropped from the state and never changed or deleted by this resource.",
					state.Cluster.ValueString()+poolsSegment+name, name, ownership.Describe(resourceLabels(np))))
		default:
			found++
			kept = append(kept, flattenPool(ctx, cat, t, np, class, importing, &resp.Diagnostics))
		}
	}
	tiers = kept
	// Pools this very resource created that no tier in the state names:
	// an apply that was killed after GKE accepted their create, before it
	// could record them (and the configuration may have changed since).
	// They are recorded, so the next plan shows what happens to them.
	for _, name := range sortedNames(pools) {
		np := pools[name]
		if recorded[name] || importing || owner.id == "" || !ownership.Owns(owner.id, resourceLabels(np)) {
			continue
		}
		t := nullTier()
		t.Name = types.StringValue(name)
		tiers = append(tiers, flattenPool(ctx, cat, t, np, class, true, &resp.Diagnostics))
		found++
		resp.Diagnostics.AddAttributeWarning(path.Root("tiers"), "Node Pool Left by an Interrupted Apply Found",
			fmt.Sprintf("Node pool %s carries this resource's owner id but no tier in the state names it: an apply was stopped "+
				"after GKE accepted its creation. It is recorded now; the plan shows what the configuration does with it "+
				"(kept, changed or deleted).", state.Cluster.ValueString()+poolsSegment+name))
	}
	if found == 0 {
		tflog.Warn(ctx, "none of the node pools exists any more; removing accel_fallback_nodepools from state",
			map[string]any{"cluster": state.Cluster.ValueString(), "id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if importing && found < len(tiers) {
		var missing, existing []string
		for _, t := range tiers {
			if t.Status.ValueString() == statusMissing {
				missing = append(missing, t.Name.ValueString())
			} else {
				existing = append(existing, t.Name.ValueString())
			}
		}
		detail := fmt.Sprintf("The cluster %s has no node pool named %s.", state.Cluster.ValueString(), strings.Join(missing, ", "))
		if len(existing) > 0 {
			detail += fmt.Sprintf(" Import only the pools that exist, with the identifier %q; an apply then creates the others.",
				resourceID(state.Cluster.ValueString(), existing))
		}
		resp.Diagnostics.AddError("Node Pool Not Found", detail)
		return
	}
	r.setCapacity(ctx, state.Cluster.ValueString(), tiers, nil, &resp.Diagnostics)
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
	if resp.Diagnostics.HasError() {
		return
	}
	tiers := tiersOf(ctx, state.Tiers, &resp.Diagnostics)
	names := make([]string, len(tiers))
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
	}
	res, err := ops.deleteOwned(ctx, names)
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
		if err := res.errs[i]; err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("tiers").AtListIndex(i), "Error Deleting Node Pool",
				fmt.Sprintf("Could not delete node pool %s: %s\n\nRun terraform destroy again; pools that are already gone are skipped.",
					ops.api.PoolName(name), err))
		}
	}
}

// ImportState accepts "projects/P/locations/L/clusters/C/nodePools/a,b"; the
// tiers are rebuilt from the pools, in the order given.
func (r *fallbackNodePoolsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" { // an import block with identity instead of id
		req.ID = importIDFromIdentity(ctx, req.Identity, r.data, &resp.Diagnostics)
	}
	cluster, pools, err := parseImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", err.Error())
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
		Tiers:                tierList(ctx, tiers, &resp.Diagnostics),
		OnStockout:           types.StringNull(),
		WhenUnsatisfiable:    types.StringNull(),
		ActiveMigration:      types.BoolNull(),
		Validation:           types.StringNull(),
		OwnerID:              types.StringNull(),
		Pools:                types.MapNull(poolEntryType),
		ComputeClassManifest: types.StringNull(),
		NodeSelector:         types.MapNull(types.StringType),
		Tolerations:          types.ListNull(tolerationObjectType),
	}
	resp.Diagnostics.Append(tfmodel.MarkImported(ctx, resp.Private)...)
	m.Timeouts.Object = types.ObjectNull(timeoutsAttrTypes(ctx))
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &m)...)
}

// nullTier is a tier with every value null, but taints: a block that is
// absent is an empty list.
func nullTier() tierModel {
	return tierModel{
		Name: types.StringNull(), AcceleratorType: types.StringNull(), MachineType: types.StringNull(),
		Topology: types.StringNull(), GPUType: types.StringNull(), GPUCount: types.Int64Null(),
		GPUDriverVersion: types.StringNull(), NodeLocations: types.ListNull(types.StringType),
		NodeCount: types.Int64Null(), MinNodeCount: types.Int64Null(), MaxNodeCount: types.Int64Null(),
		Spot: types.BoolNull(), AutoRepair: types.BoolNull(), AutoUpgrade: types.BoolNull(),
		Labels: types.MapNull(types.StringType), Taints: taintList([]taint{}),
		ReservationAffinity: types.ObjectNull(reservationAttrTypes),
		PlacementPolicy:     types.StringNull(), PoolName: types.StringNull(), Status: types.StringNull(),
		StatusMessage: types.StringNull(), AcceleratorLabels: types.MapNull(types.StringType),
		NodeLabels: types.MapNull(types.StringType), NodeTaints: types.ListNull(taintObjectType),
		EffectiveLabels: types.MapNull(types.StringType), EffectiveTaints: types.ListNull(taintObjectType),
		NodeSelector: types.MapNull(types.StringType), Tolerations: types.ListNull(tolerationObjectType),
		tierSettingsModel:     nullSettings(),
		tierProvisioningModel: nullProvisioning(),
		tierCapacityModel:     tierCapacityModel{Capacity: types.ObjectNull(capacityAttrTypes)},
		tierLocalSSDModel:     nullLocalSSD(),
		tierLabelsModel:       nullResourceLabels(),
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

// stockoutDetail explains a tier that GKE could not provision for lack of
// capacity; last is set for the last tier, which has none to fall back to.
func stockoutDetail(pool string, onStockout string, last bool, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GKE could not provision node pool %s for lack of capacity: %s", pool, err)
	if zones := gcp.ZonesAvailable(err); len(zones) > 0 {
		fmt.Fprintf(&b, "\n\nZones that reported capacity: %s. Add a tier in one of them, or change this tier's node_locations.", strings.Join(zones, ", "))
	}
	if onStockout == onStockoutFail {
		b.WriteString("\n\nThe pool, as GKE left it, and every other tier are recorded in state. Set on_stockout = \"continue\" to keep " +
			"applying when a tier is out of capacity.")
	} else {
		b.WriteString("\n\nThe pool is recorded with the status GKE reports, and the next apply creates it again. Meanwhile " + fallsBack(last) + ".")
	}
	return b.String()
}

// fallsBack says where the pods of a tier that cannot add nodes go: to the
// tiers after it, or, for the last one, nowhere.
func fallsBack(last bool) string {
	if last {
		return "pods that need this tier stay Pending (no tier follows it; with when_unsatisfiable = \"ScaleUpAnyway\", GKE " +
			"adds nodes without accelerators instead)"
	}
	return "the ComputeClass places pods on the tiers after it"
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

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// ModifyPlan derives every tier's machine type, topology, placement, node
// count, labels, taints and scheduling values; keeps what GKE reported for
// tiers that do not change; checks the TPU generations against the
// cluster's GKE version when GKE can be reached; and renders the ComputeClass.
// It reads what the plan knows (newPlanning), plans each tier (planTier),
// then the resource-level values (finish).
func (r *fallbackNodePoolsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		if !req.State.Raw.IsNull() {
			var state resourceModel
			resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
			destroyProtected(ctx, state, &resp.Diagnostics)
		}
		return
	}
	p, ok := r.newPlanning(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	for i := range p.cfgElems {
		tp, ok := r.planTier(ctx, p, i, &resp.Diagnostics)
		if !ok {
			return
		}
		p.tiers[i] = tp.tier
		p.allKnown = p.allKnown && tp.known
		p.untouched[i] = tp.untouched
		p.planPool(i, tp.name, tp.keepsPool)
	}
	r.finish(ctx, p, &resp.Diagnostics)
	resp.Diagnostics.Append(tfmodel.SetPlan(ctx, &resp.Plan, &p.plan)...)
}

// planning is what one plan of the resource knows before it plans the
// tiers, and what it gathers while it does.
type planning struct {
	plan  resourceModel
	state *resourceModel // nil for a create
	// cfgElems are the configured tiers; tiers the planned ones, as
	// Terraform proposed them until planTier replaces each.
	cfgElems []attr.Value
	tiers    []tierModel
	// prior and priorPools are the tiers and pools recorded in state.
	prior      map[string]tierModel
	priorPools map[string]poolEntry
	// live is the cluster as GKE shows it, nil offline; version its GKE
	// version when a TPU tier needs it.
	live    *container.Cluster
	version string
	cat     *catalog.Catalog
	mode    validation.Mode
	// planned are the planned pools (pools.go); poolsKnown whether every
	// pool's name is known.
	planned    map[string]poolEntry
	poolsKnown bool
	// allKnown reports whether every tier's derived values are known, so
	// that the outputs can be planned.
	allKnown bool
	// untouched are the tiers whose pools the apply leaves alone: they keep
	// their recorded values, known, when the resource is updated.
	untouched map[int]bool
	tally     provisionTally
	// deletions are the pools the plan deletes or re-creates, reported in
	// one warning (deletionsWarning).
	deletions []plannedDeletion
	// held are the tiers whose pools, in ERROR after a stockout, the plan
	// keeps as they are (stockout_retry = "hold").
	held []string
}

// newPlanning reads the plan, the configuration and the state, reads the
// cluster when GKE can be reached, and adds the resource-level findings.
// It reports false when there is nothing to plan.
func (r *fallbackNodePoolsResource) newPlanning(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (*planning, bool) {
	p := &planning{
		cat: r.catalog, prior: map[string]tierModel{}, priorPools: map[string]poolEntry{},
		planned: map[string]poolEntry{}, poolsKnown: true, untouched: map[int]bool{},
	}
	var cfg resourceModel
	diags.Append(tfmodel.GetPlan(ctx, req.Plan, &p.plan)...)
	diags.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if diags.HasError() || p.plan.Tiers.IsUnknown() || cfg.Tiers.IsUnknown() {
		return nil, false
	}
	if !req.State.Raw.IsNull() {
		p.state = &resourceModel{}
		diags.Append(tfmodel.GetState(ctx, req.State, p.state)...)
		if diags.HasError() {
			return nil, false
		}
	}
	p.cfgElems = cfg.Tiers.Elements()
	p.tiers = tiersOf(ctx, p.plan.Tiers, diags)
	if len(p.cfgElems) != len(p.tiers) {
		return nil, false
	}
	if p.state != nil {
		for _, t := range tiersOf(ctx, p.state.Tiers, diags) {
			p.prior[t.Name.ValueString()] = t
		}
		p.priorPools = poolEntries(ctx, p.state.Pools, diags)
	}
	p.mode = r.modes.For(p.plan.Validation)
	p.live = r.planCluster(ctx, p.plan, diags)
	if p.live != nil && hasTPUTier(p.cat, p.cfgElems) {
		p.version = p.live.CurrentMasterVersion
	}
	if p.live != nil && p.sameCluster() {
		checkPlannedPools(diags, p.live, p.plan, p.state, p.prior, p.cfgElems)
	}
	validation.Append(diags, path.Empty(), computeClassFindings(p.cat, p.plan.Cluster.ValueString(), p.live), p.mode)
	p.allKnown = !p.plan.ComputeClass.IsUnknown() && !p.plan.Cluster.IsUnknown()
	return p, true
}

// sameCluster reports whether the plan keeps the cluster of the state (true
// for a create).
func (p *planning) sameCluster() bool {
	return p.state == nil || p.state.Cluster.Equal(p.plan.Cluster)
}

// planPool records the planned pool of tier i, named name; keeps is set
// when the pool is kept (not created again).
func (p *planning) planPool(i int, name types.String, keeps bool) {
	if name.IsUnknown() || name.IsNull() {
		p.poolsKnown = false
		return
	}
	old, had := p.priorPools[name.ValueString()]
	p.planned[name.ValueString()] = plannedPool(i, old, had, keeps)
}

// tierPlan is one planned tier and what the rest of the plan needs of it.
type tierPlan struct {
	tier tierModel
	// name is the configured name (unknown for a tier unknown as a whole);
	// keepsPool is set when the plan keeps the tier's pool.
	name      types.String
	keepsPool bool
	// known reports whether the tier's derived values are known.
	known bool
	// untouched reports whether the apply leaves the recorded pool alone.
	untouched bool
}

// planTier plans tier i: its derived values and findings, and whether its
// pool is kept, changed in place or created again. It reports false on an
// error that stops the plan.
func (r *fallbackNodePoolsResource) planTier(ctx context.Context, p *planning, i int, diags *diag.Diagnostics) (tierPlan, bool) {
	pt := p.tiers[i]
	obj, ok := p.cfgElems[i].(types.Object)
	if !ok || obj.IsUnknown() {
		markAllUnknown(&pt)
		return tierPlan{tier: pt, name: types.StringUnknown()}, true
	}
	var ct tierModel
	d := tfmodel.As(ctx, obj, &ct, tfmodel.ObjectAsOptions)
	diags.Append(d...)
	if d.HasError() {
		return tierPlan{}, false
	}
	planTerraformResourceLabels(r.data, &ct, &pt, r.data != nil && slices.Contains(r.data.Unknown, providerdata.DefaultLabelsAttr))
	in := inputOf(ctx, ct, diags)
	unknown := tierPlan{name: ct.Name}
	if !in.known || !tfmodel.WhollyKnown(obj) || p.plan.Validation.IsUnknown() {
		// Derived values and checks wait for the values (the plan
		// Terraform makes at apply, once they are known).
		markAllUnknown(&pt)
		unknown.tier = pt
		return unknown, true
	}
	spec, fs := r.tierFindings(ctx, p, i, in)
	// Every finding, warnings included: ValidateConfig reported only
	// errors, and had it found one, the plan would have stopped.
	appendTierFindings(diags, i, in.Name, fs, p.mode, false)
	old, existed := p.prior[in.Name]
	classKnown := !p.plan.ComputeClass.IsUnknown()
	if !classKnown || fs.HasErrors() || spec.MachineType == "" {
		if classKnown && existed && p.state != nil && p.sameCluster() &&
			old.Status.ValueString() != statusMissing && configMatches(ct, old) {
			// A tier the catalog cannot derive, kept with validation =
			// "warn": the pool is as configured, nothing to plan.
			return tierPlan{tier: old, name: ct.Name, keepsPool: true, known: true}, true
		}
		markAllUnknown(&pt)
		unknown.tier = pt
		return unknown, true
	}
	setSpec(&pt, spec)
	recorded := existed && p.state != nil && p.state.Cluster.ValueString() == p.plan.Cluster.ValueString()
	var was tierSpec
	if recorded {
		was = specOfState(ctx, p.cat, old, diags)
	}
	act := tierAction(recorded, old.Status.ValueString(), was, spec)
	if act == actionReplace && r.holdsStockout(p, old, was, spec) {
		act = actionNone
		p.held = append(p.held, in.Name)
	}
	keeps := act == actionNone || act == actionUpdate
	planSettings(&pt, ct, old, keeps)
	switch act {
	case actionReplace:
		markGKEValuesUnknown(&pt)
		p.deletions = append(p.deletions, plannedDeletion{pool: in.Name, nodes: nodesOf(old), why: recreateReason(old, was, spec)})
	case actionNone:
		pt.Status, pt.StatusMessage = old.Status, old.StatusMessage
		pt.EffectiveLabels, pt.EffectiveTaints = old.EffectiveLabels, old.EffectiveTaints
		pt.Capacity = old.Capacity // refreshed by Read, never a planned change
		pt.EffectiveResourceLabels = old.EffectiveResourceLabels
	default:
		markGKEValuesUnknown(&pt)
	}
	return tierPlan{tier: pt, name: ct.Name, keepsPool: keeps, known: true, untouched: act == actionNone && recorded}, true
}

// tierFindings derives the spec of tier i from its known inputs and checks
// it: the catalog's findings, then, when the catalog finds no error and the
// cluster is known, the cluster's and the live quota's.
func (r *fallbackNodePoolsResource) tierFindings(ctx context.Context, p *planning, i int, in tierInput) (tierSpec, catalog.Findings) {
	cluster := p.plan.Cluster
	spec, fs := derive(p.cat, in, p.plan.ComputeClass.ValueString(), p.version)
	if !fs.HasErrors() && !cluster.IsUnknown() && !cluster.IsNull() {
		cfs, answered := r.clusterFindings(ctx, p.cat, cluster.ValueString(), p.live, in, spec)
		fs = append(fs.WithoutZoneListsFor(answered), cfs...)
		fs = append(fs, r.policyFindings(ctx, cluster.ValueString(), spec)...)
		if !fs.HasErrors() {
			cfs, checked, can := r.capacityFindings(ctx, p.cat, cluster.ValueString(), p.live, in, spec, i == len(p.cfgElems)-1)
			fs = append(fs, cfs...)
			p.tally.tier(in.Name, checked, can)
		}
	}
	for j, f := range fs {
		if f.Attribute == catalog.AttrGKEVersion {
			fs[j].Detail = fmt.Sprintf("The cluster %s runs GKE %s. %s", cluster.ValueString(), f.Value, f.Detail)
		}
	}
	return spec, fs
}

// finish plans the resource-level values once every tier is planned: the
// tiers an update reads again, the pools, the ComputeClass and the
// scheduling outputs.
func (r *fallbackNodePoolsResource) finish(ctx context.Context, p *planning, diags *diag.Diagnostics) {
	changes := p.state == nil || updates(p.plan, *p.state, tierList(ctx, p.tiers, diags))
	if p.state != nil && changes {
		// The resource is updated: the pools the apply changes are read
		// again. The others keep the values the plan shows (the apply
		// records them as planned; a pool deleted since the refresh is
		// found by the next one).
		for i := range p.tiers {
			if !p.untouched[i] {
				markGKEValuesUnknown(&p.tiers[i])
			}
		}
	}
	p.tally.report(diags, len(p.cfgElems), p.plan.WhenUnsatisfiable)
	p.planRemovals(ctx, diags)
	p.checkProtection(diags)
	p.heldWarning(diags)
	if p.live != nil && p.state != nil && p.sameCluster() {
		checkClassShared(diags, p.live, p.plan, p.state.OwnerID.ValueString(), changes)
	}
	r.claimClass(p, changes, diags)
	p.plan.Tiers = tierList(ctx, p.tiers, diags)
	p.plan.Pools = types.MapUnknown(schemaTypes().poolEntry)
	if p.poolsKnown {
		p.plan.Pools = poolMap(p.planned, diags)
	}
	if p.allKnown {
		r.setOutputs(ctx, &p.plan, p.tiers, diags)
		if p.plan.WhenUnsatisfiable.IsUnknown() || p.plan.ActiveMigration.IsUnknown() {
			p.plan.ComputeClassManifest = types.StringUnknown()
		}
	}
}

// holdsStockout reports whether the plan keeps the pool of a tier recorded
// as old (spec was), planned as spec, as it is although it is in ERROR: with
// the provider's stockout_retry = "hold", when the only reason to re-create
// it is that GKE, read now, reports a stockout on it.
func (r *fallbackNodePoolsResource) holdsStockout(p *planning, old tierModel, was, spec tierSpec) bool {
	if r.data == nil || !r.data.HoldStockouts || p.live == nil || old.Status.ValueString() != statusError || !sameShape(was, spec) {
		return false
	}
	for _, np := range p.live.NodePools {
		if np != nil && np.Name == spec.Name {
			return np.Status == statusError && gcp.Classify(poolStatusError(np)) == gcp.ClassCapacity
		}
	}
	return false
}

// heldWarning reports the pools the plan keeps in ERROR, in one warning
// whose summary names them.
func (p *planning) heldWarning(diags *diag.Diagnostics) {
	if len(p.held) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("tiers"), "Node Pool Out of Capacity Held: "+strings.Join(p.held, ", "),
		fmt.Sprintf("GKE left these node pools in ERROR for lack of capacity: %s. The provider's stockout_retry = \"hold\" keeps "+
			"them as they are, so this plan does not re-create them; the ComputeClass serves from the other tiers meanwhile. "+
			"To try again, plan and apply with stockout_retry = \"plan\" (the default; ACCEL_STOCKOUT_RETRY).",
			strings.Join(p.held, ", ")))
}

// claimClass refuses a second resource of this configuration that declares
// the ComputeClass of another on the same cluster (found within the one
// provider process that plans them all): their manifests would overwrite
// each other. A resource is known by its tier names. Like
// checkClassShared, a warning in a plan that changes nothing.
func (r *fallbackNodePoolsResource) claimClass(p *planning, changes bool, diags *diag.Diagnostics) {
	if r.data == nil || !p.poolsKnown || p.plan.Cluster.IsUnknown() || p.plan.ComputeClass.IsUnknown() {
		return
	}
	names := slices.Sorted(maps.Keys(p.planned))
	claimant := strings.Join(names, ",")
	key := p.plan.Cluster.ValueString() + "|" + p.plan.ComputeClass.ValueString()
	if held := r.data.Claim("compute_class|"+key, providerdata.Claim{Claimant: claimant, Changes: changes}); held.Claimant != claimant {
		// Reported by whichever plans second, an error when either plan
		// changes its resource.
		add := diags.AddAttributeWarning
		if changes || held.Changes {
			add = diags.AddAttributeError
		}
		add(path.Root("compute_class"), "ComputeClass Declared Twice",
			fmt.Sprintf("Another accel_fallback_nodepools of this configuration (tiers %s) declares ComputeClass %q on cluster %s. "+
				"Each resource renders the whole ComputeClass from its own tiers, so the two manifests would overwrite each other. "+
				"Give each resource its own compute_class, or move the tiers into one resource.",
				held.Claimant, p.plan.ComputeClass.ValueString(), p.plan.Cluster.ValueString()))
	}
}

// updates reports whether a plan with the given tiers changes the state.
func updates(plan, state resourceModel, tiers types.List) bool {
	pairs := [][2]attr.Value{
		{plan.Cluster, state.Cluster}, {plan.ComputeClass, state.ComputeClass}, {plan.OnStockout, state.OnStockout},
		{plan.WhenUnsatisfiable, state.WhenUnsatisfiable}, {plan.ActiveMigration, state.ActiveMigration},
		{plan.DeletionProtection, state.DeletionProtection},
		{plan.Validation, state.Validation}, {plan.Timeouts, state.Timeouts}, {tiers, state.Tiers},
	}
	for _, p := range pairs {
		if !p[0].Equal(p[1]) {
			return true
		}
	}
	return false
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
		"labels": t.Labels, "taints": t.Taints, "reservation_affinity": t.ReservationAffinity, "workload_policy": t.WorkloadPolicy,
	}
	maps.Copy(out, settingsValues(t.tierSettingsModel))
	maps.Copy(out, provisioningValues(t.tierProvisioningModel))
	maps.Copy(out, localSSDValues(t.tierLocalSSDModel))
	maps.Copy(out, bootValues(t.tierBootModel))
	maps.Copy(out, networkValues(t.tierNetworkModel))
	return out
}

// planCluster reads the cluster once per plan, with its node pools and GKE
// version, when GKE can be reached (an endpoint or credentials are set); it
// returns nil otherwise, and offline plans make no call. A cluster GKE says
// does not exist is an error on cluster: every pool's create would fail.
func (r *fallbackNodePoolsResource) planCluster(ctx context.Context, plan resourceModel, diags *diag.Diagnostics) *container.Cluster {
	if r.data == nil || plan.Cluster.IsUnknown() || plan.Cluster.IsNull() {
		return nil
	}
	if !r.data.Clients.GKEConfigured() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, gcp.ClusterReadTimeout)
	defer cancel()
	api, err := r.newAPI(ctx, plan.Cluster.ValueString())
	if err == nil {
		var c *container.Cluster
		c, err = api.GetCluster(ctx)
		if err == nil {
			return c
		}
		if gcp.Classify(err) == gcp.ClassNotFound {
			diags.AddAttributeError(path.Root("cluster"), "GKE Cluster Not Found",
				fmt.Sprintf("GKE has no cluster %s (%s). Check the project, location and name of the id, whose form is "+
					"projects/PROJECT/locations/LOCATION/clusters/NAME. If the cluster is created in the same configuration, set "+
					"cluster to its id (google_container_cluster.NAME.id), so that the plan waits for it.",
					plan.Cluster.ValueString(), err))
			return nil
		}
	}
	tflog.Debug(ctx, "GKE not reachable at plan time; existing pools and the TPU generations' minimum GKE versions are not checked",
		map[string]any{"cluster": plan.Cluster.ValueString(), "error": err.Error()})
	return nil
}

// hasTPUTier reports whether any configured tier is a TPU tier.
func hasTPUTier(cat *catalog.Catalog, cfgElems []attr.Value) bool {
	for _, e := range cfgElems {
		if obj, ok := e.(types.Object); ok && !obj.IsUnknown() {
			if v, ok := obj.Attributes()["accelerator_type"].(types.String); ok && !v.IsNull() {
				return true
			}
			if v, ok := obj.Attributes()["machine_type"].(types.String); ok && !v.IsUnknown() && cat.IsTPUMachineType(v.ValueString()) {
				return true
			}
		}
	}
	return false
}

// unknownTier is a tier with every value unknown.
func unknownTier() tierModel {
	t := tierModel{
		Name: types.StringUnknown(), AcceleratorType: types.StringUnknown(), MachineType: types.StringUnknown(),
		Topology: types.StringUnknown(), GPUType: types.StringUnknown(), GPUCount: types.Int64Unknown(),
		GPUDriverVersion: types.StringUnknown(), NodeLocations: types.ListUnknown(types.StringType),
		NodeCount: types.Int64Unknown(), MinNodeCount: types.Int64Unknown(), MaxNodeCount: types.Int64Unknown(),
		Spot: types.BoolUnknown(), AutoRepair: types.BoolUnknown(), AutoUpgrade: types.BoolUnknown(),
		Labels: types.MapUnknown(types.StringType), Taints: types.ListUnknown(schemaTypes().taint),
		ReservationAffinity:   types.ObjectUnknown(schemaTypes().reservation.AttrTypes),
		WorkloadPolicy:        types.StringUnknown(),
		tierSettingsModel:     unknownSettings(),
		tierProvisioningModel: unknownProvisioning(),
		tierLocalSSDModel:     unknownLocalSSD(),
		tierLabelsModel:       unknownResourceLabels(),
		tierBootModel:         unknownBoot(),
		tierNetworkModel:      unknownNetworks(),
	}
	markAllUnknown(&t)
	return t
}

// setSpec sets a planned tier's derived values from its spec.
func setSpec(t *tierModel, s tierSpec) {
	t.PoolName = types.StringValue(s.Name)
	t.MachineType = types.StringValue(s.MachineType)
	if s.TPU {
		t.Topology = types.StringValue(s.Topology)
		t.GPUType, t.GPUCount, t.GPUDriverVersion = types.StringNull(), types.Int64Null(), types.StringNull()
	} else {
		t.Topology = types.StringNull()
		t.GPUType = types.StringValue(s.GPUType)
		t.GPUCount = tfmodel.Int64OrNull(s.GPUCount, s.GPUCount > 0)
		t.GPUDriverVersion = types.StringValue(s.GPUDriver)
	}
	t.NodeCount = tfmodel.Int64OrNull(s.NodeCount, !s.Autoscaling)
	t.PlacementPolicy = tfmodel.StringOrNull(cmp.Or(s.Placement, s.WorkloadPolicy))
	setDerived(t, s)
}

// setDerived sets the values that follow from the tier alone and never
// from GKE: the selector labels, taints, node selector and tolerations.
func setDerived(t *tierModel, s tierSpec) {
	t.AcceleratorLabels = tfmodel.StringMap(s.AcceleratorLabels)
	if s.AcceleratorLabels == nil {
		t.AcceleratorLabels = tfmodel.StringMap(map[string]string{})
	}
	t.NodeLabels = tfmodel.StringMap(s.NodeLabels)
	t.NodeTaints = taintList(s.NodeTaints)
	t.NodeSelector = tfmodel.StringMap(s.NodeSelector)
	t.Tolerations = podspec.List(s.Tolerations)
}

// markGKEValuesUnknown sets the values only GKE knows to unknown: a plan for a pool
// that will be created or changed.
func markGKEValuesUnknown(t *tierModel) {
	t.Status = types.StringUnknown()
	t.StatusMessage = types.StringUnknown()
	t.EffectiveLabels = types.MapUnknown(types.StringType)
	t.EffectiveTaints = types.ListUnknown(schemaTypes().taint)
	t.Capacity = types.ObjectUnknown(schemaTypes().capacity.AttrTypes)
	markResourceLabelsUnknown(&t.tierLabelsModel)
}

// markAllUnknown sets every computed value of a tier to unknown.
func markAllUnknown(t *tierModel) {
	markGKEValuesUnknown(t)
	t.PoolName = types.StringUnknown()
	t.PlacementPolicy = types.StringUnknown()
	t.AcceleratorLabels = types.MapUnknown(types.StringType)
	t.NodeLabels = types.MapUnknown(types.StringType)
	t.NodeTaints = types.ListUnknown(schemaTypes().taint)
	t.NodeSelector = types.MapUnknown(types.StringType)
	t.Tolerations = types.ListUnknown(podspec.ObjectType)
	for _, v := range []*types.String{&t.MachineType, &t.Topology, &t.GPUType, &t.GPUDriverVersion} {
		if v.IsNull() {
			*v = types.StringUnknown()
		}
	}
	for _, v := range []*types.Int64{&t.GPUCount, &t.NodeCount} {
		if v.IsNull() {
			*v = types.Int64Unknown()
		}
	}
	markSettingsUnknown(&t.tierSettingsModel)
}

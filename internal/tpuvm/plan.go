// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// ValidateConfig checks the configuration against the catalog with the
// values the configuration itself fixes and reports the errors. ModifyPlan
// checks again with the values known at plan time and reports every finding
// (see package validation for why each is then shown once).
func (r *vmResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg vmModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Validation.IsUnknown() {
		return // the mode is known at apply, where ModifyPlan checks
	}
	var fs catalog.Findings
	if res, ok := runtimeOf(r.catalog, inputsOf(cfg)); ok {
		fs = res.Findings
	} else if tfmodel.Known(cfg.Framework) {
		// The accelerator type is not known yet: the framework name is
		// checked alone, once (the query checks it when it runs).
		fs = r.catalog.CheckFramework(cfg.Framework.ValueString())
	}
	if tfmodel.WhollyKnown(cfg.Labels) {
		fs = append(fs, labelFindings(r.catalog, cfg.Labels)...)
	}
	appendFindings(&resp.Diagnostics, fs, diskZoneFindings(ctx, r.catalog, cfg), r.modes.For(cfg.Validation), true)
	computeEngineDiags(ctx, r.catalog, cfg, &resp.Diagnostics)
	interfaceConflict(cfg, &resp.Diagnostics)
}

// appendFindings adds catalog findings to diags on the attribute path each
// is about: the runtime checks on root attributes (zones[i] for one zone),
// the data disk checks on data_disks[i].source_disk. With errorsOnly, only
// the findings that are errors under mode (what ValidateConfig reports).
func appendFindings(diags *diag.Diagnostics, fs, disks catalog.Findings, mode validation.Mode, errorsOnly bool) {
	add := validation.Append
	if errorsOnly {
		add = validation.AppendErrors
	}
	add(diags, path.Empty(), fs, mode)
	for _, f := range disks {
		if f.Index < 0 {
			add(diags, path.Empty(), catalog.Findings{f}, mode)
			continue
		}
		base := path.Root("data_disks").AtListIndex(f.Index)
		f.Attribute, f.Index = "source_disk", -1
		add(diags, base, catalog.Findings{f}, mode)
	}
}

// ModifyPlan fills in what is known at plan time (project and zones from the
// provider, the runtime version chosen from the catalog, zone, generation,
// chips, hosts, effective_labels), reports catalog findings ValidateConfig
// could not see, and plans the replacement of a VM in a failed state.
func (r *vmResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		refuseProtectedDestroy(ctx, req, resp)
		return
	}
	p := &vmPlan{r: r, ctx: ctx, req: req, resp: resp}
	if !p.read() {
		return
	}
	r.planProjectAndZones(p.cfg, &p.plan, p.state, &resp.Diagnostics)
	r.planAPI(p.cfg, &p.plan, p.state, resp)
	p.forgetOtherAPIsCIDR()
	computeEngineDiags(ctx, r.catalog, p.plan, &resp.Diagnostics)
	bootDiskKeyWarnings(p.plan, &resp.Diagnostics)
	res, resolved := p.checkRuntime()
	p.carryPrivateState()
	p.chooseRuntime(res, resolved)
	p.impliedFramework()
	p.shape()
	p.labels()
	if p.state != nil {
		p.network()
		p.lostVM()
	}
	p.readOnly()
	r.planCapacity(ctx, p.cfg, &p.plan, p.state, resp)
	r.planSlices(ctx, &p.plan, p.state, resp)
	resp.Diagnostics.Append(tfmodel.SetPlan(ctx, &resp.Plan, &p.plan)...)
}

// vmPlan is one ModifyPlan call: the configuration, the plan it changes and
// the prior state (nil for a new VM).
type vmPlan struct {
	r         *vmResource
	ctx       context.Context
	req       resource.ModifyPlanRequest
	resp      *resource.ModifyPlanResponse
	cfg, plan vmModel
	state     *vmModel
	// choose is set when the runtime version is chosen from the catalog:
	// omitted and not kept from the state by its plan modifier.
	choose bool
}

// read decodes the configuration, the plan and the state.
func (p *vmPlan) read() bool {
	d := &p.resp.Diagnostics
	d.Append(tfmodel.GetConfig(p.ctx, p.req.Config, &p.cfg)...)
	d.Append(tfmodel.GetPlan(p.ctx, p.req.Plan, &p.plan)...)
	if !p.req.State.Raw.IsNull() {
		p.state = &vmModel{}
		d.Append(tfmodel.GetState(p.ctx, p.req.State, p.state)...)
	}
	return !d.HasError()
}

// forgetOtherAPIsCIDR: on a replacement through the other API, the block
// the old one reported is not a choice of the user's, nor checked against
// it.
func (p *vmPlan) forgetOtherAPIsCIDR() {
	if p.state != nil && tfmodel.Known(p.state.ID) && tfmodel.Known(p.plan.API) &&
		p.plan.API.ValueString() != apiOfID(p.state.ID.ValueString()) && p.cfg.CIDRBlock.IsNull() {
		p.plan.CIDRBlock = types.StringUnknown()
	}
}

// checkRuntime resolves the runtime version against the catalog and
// reports its findings, with the zones' live offer for a new VM. It
// reports false when the inputs or the validation mode are not known yet.
func (p *vmPlan) checkRuntime() (catalog.RuntimeResult, bool) {
	p.choose = p.cfg.RuntimeVersion.IsNull() && p.plan.RuntimeVersion.IsUnknown()
	in := inputsOf(p.plan)
	// The catalog checks the framework and its version as configured: an
	// omitted one planned from the runtime (or kept from the state) is not
	// a choice of the user's.
	in.framework, in.frameworkVersion = p.cfg.Framework, p.cfg.FrameworkVersion
	if p.choose {
		in.runtimeVersion = types.StringNull()
	}
	res, ok := runtimeOf(p.r.catalog, in)
	if !ok || p.plan.Validation.IsUnknown() {
		// The mode decides which findings are errors: check at apply.
		return res, false
	}
	mode := p.r.modes.For(p.plan.Validation)
	disks := diskZoneFindings(p.ctx, p.r.catalog, p.plan)
	fs := res.Findings
	if p.state == nil && !p.resp.Diagnostics.HasError() && !fs.WithMode(mode.Mode).HasErrors() && !disks.WithMode(mode.Mode).HasErrors() {
		// A new VM: the zones' live offer, when the API can be reached,
		// replaces the catalog's zone lists.
		live, answered := p.r.liveZoneFindings(p.ctx, p.plan, res)
		fs = append(fs.WithoutZoneListsFor(answered), live...)
	}
	appendFindings(&p.resp.Diagnostics, fs, disks, mode, false)
	return res, true
}

// carryPrivateState hands the id of the VM a plan replaces, and whether it
// was protected, from the plan of its destroy to the plan of its successor,
// which refuses to replace a protected VM and checks the name.
func (p *vmPlan) carryPrivateState() {
	req, resp := p.req, p.resp
	switch {
	case req.Private == nil || resp.Private == nil:
		// No private state (a plan outside Terraform, as in unit tests).
		if p.state == nil {
			p.r.planNameFindings(p.ctx, p.plan, "", &resp.Diagnostics)
		}
	case p.state != nil:
		id, _ := json.Marshal(p.state.ID.ValueString()) // private state values are JSON
		resp.Diagnostics.Append(resp.Private.SetKey(p.ctx, privateReplacing, id)...)
		resp.Diagnostics.Append(resp.Private.SetKey(p.ctx, privateProtected, protectedJSON(*p.state))...)
	default:
		raw, diags := req.Private.GetKey(p.ctx, privateReplacing)
		resp.Diagnostics.Append(diags...)
		protected, diags := req.Private.GetKey(p.ctx, privateProtected)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(resp.Private.SetKey(p.ctx, privateReplacing, nil)...)
		resp.Diagnostics.Append(resp.Private.SetKey(p.ctx, privateProtected, nil)...)
		var replacing string
		if len(raw) > 0 {
			_ = json.Unmarshal(raw, &replacing) // written above: a JSON string
		}
		if replacing != "" && (string(protected) == "true" || p.plan.DeletionProtection.ValueBool()) {
			addProtected(&resp.Diagnostics, replacing, "this plan replaces it (a change that needs a new VM, a tainted VM, or -replace)")
		}
		if !resp.Diagnostics.HasError() {
			p.r.planNameFindings(p.ctx, p.plan, replacing, &resp.Diagnostics)
		}
	}
}

// chooseRuntime plans the runtime version the catalog chose, and the
// replacement a new choice needs.
func (p *vmPlan) chooseRuntime(res catalog.RuntimeResult, resolved bool) {
	if !p.choose {
		return
	}
	state, resp := p.state, p.resp
	switch {
	case !resolved:
		if state != nil && !importedImage(*state) {
			// The runtime is chosen once its inputs are known; the VM
			// may then need another one.
			resp.RequiresReplace.Append(path.Root("runtime_version"))
		}
	case res.RuntimeVersion != "":
		p.plan.RuntimeVersion = types.StringValue(res.RuntimeVersion)
		if state != nil && state.RuntimeVersion.ValueString() != res.RuntimeVersion && !importedImage(*state) {
			resp.RequiresReplace.Append(path.Root("runtime_version"))
		}
	case !resp.Diagnostics.HasError():
		resp.Diagnostics.AddAttributeError(path.Root("runtime_version"), "No Runtime Version to Choose",
			noRuntimeDetail(p.plan.AcceleratorType.ValueString(), res))
	}
}

// impliedFramework plans an omitted framework and framework_version of a
// new VM as what its runtime version implies, as an import reads them back.
func (p *vmPlan) impliedFramework() {
	if p.state != nil || !tfmodel.Known(p.plan.RuntimeVersion) {
		return
	}
	fw, v := impliedFramework(p.r.catalog, p.plan.RuntimeVersion.ValueString())
	if p.cfg.Framework.IsNull() {
		p.plan.Framework = fw
	}
	if p.cfg.FrameworkVersion.IsNull() {
		p.plan.FrameworkVersion = v
	}
}

// shape plans generation, chips and hosts, known from the accelerator type.
func (p *vmPlan) shape() {
	plan := &p.plan
	if !tfmodel.Known(plan.AcceleratorType) {
		plan.Generation, plan.Chips, plan.Hosts = types.StringUnknown(), types.Int64Unknown(), types.Int64Unknown()
		return
	}
	plan.Generation, plan.Chips, plan.Hosts = shapeValues(p.r.catalog, plan.AcceleratorType.ValueString())
}

// labels plans terraform_labels and effective_labels, and checks the labels
// the VM carries, default_labels included, and the ownership label: the
// resource's label rule, as a node pool's.
func (p *vmPlan) labels() {
	p.plan.TerraformLabels = p.r.planTerraformLabels(p.plan)
	if tfmodel.WhollyKnown(p.plan.TerraformLabels) {
		appendFindings(&p.resp.Diagnostics, labelFindings(p.r.catalog, p.plan.TerraformLabels), nil, p.r.modes.For(p.plan.Validation), false)
	}
	p.plan.EffectiveLabels = planEffectiveLabels(p.ctx, p.plan, p.state, &p.resp.Diagnostics)
}

// network plans the endpoints and effective network of an existing VM:
// external IPs are switched in place, and endpoints change only then; the
// interfaces of network_configs are never changed in place.
func (p *vmPlan) network() {
	plan, state := &p.plan, p.state
	ips, old := wantExternalIPs(*plan), externalIPs(state.EffectiveNetwork)
	switch {
	case usesInterfaces(*plan):
		plan.NetworkEndpoints, plan.EffectiveNetwork = state.NetworkEndpoints, state.EffectiveNetwork
	case ips != nil && old != nil && *ips == *old:
		plan.NetworkEndpoints = state.NetworkEndpoints
	case ips != nil && tfmodel.Known(state.EffectiveNetwork):
		attrs := maps.Clone(state.EffectiveNetwork.Attributes())
		attrs["enable_external_ips"] = types.BoolValue(*ips)
		plan.EffectiveNetwork = objectValue(schemaTypes().networkConfig.AttrTypes, attrs, &p.resp.Diagnostics)
	default:
		plan.EffectiveNetwork = types.ObjectUnknown(schemaTypes().networkConfig.AttrTypes)
	}
}

// lostVM plans the replacement of a VM in a state it does not recover from.
func (p *vmPlan) lostVM() {
	if !lost(*p.state) {
		return
	}
	p.plan.State = types.StringUnknown()
	p.resp.RequiresReplace.Append(path.Root("state"))
	p.resp.Diagnostics.AddAttributeWarning(path.Root("state"), "TPU VM Will Be Replaced",
		fmt.Sprintf("TPU VM %s is in state %s, from which it does not recover by itself; this plan replaces it.",
			p.state.ID.ValueString(), p.state.State.ValueString()))
}

// readOnly keeps the read-only values of a VM the plan does not change.
func (p *vmPlan) readOnly() {
	switch {
	case p.state == nil || len(p.resp.RequiresReplace) > 0:
	case sameSettings(p.plan, *p.state):
		// Only spellings differed (a network name for its self link, say): the
		// framework marked the read-only values unknown, but nothing will change.
		keepReadOnly(&p.plan, *p.state)
	default:
		// An update in place reads the VM's labels back, with every label
		// set outside Terraform meanwhile (between a saved plan and its
		// apply, say): what they will be is known after the apply.
		p.plan.EffectiveLabels = types.MapUnknown(types.StringType)
	}
}

// sameSettings reports whether plan and state agree on every attribute that
// is not read-only, deletion_protection aside (it changes only the state).
func sameSettings(plan, state vmModel) bool {
	pairs := [][2]attr.Value{
		{plan.Name, state.Name}, {plan.Project, state.Project}, {plan.Zones, state.Zones}, {plan.Zone, state.Zone},
		{plan.AcceleratorType, state.AcceleratorType}, {plan.API, state.API}, {plan.RuntimeVersion, state.RuntimeVersion},
		{plan.Framework, state.Framework}, {plan.FrameworkVersion, state.FrameworkVersion},
		{plan.Description, state.Description}, {plan.Labels, state.Labels}, {plan.EffectiveLabels, state.EffectiveLabels},
		{plan.TerraformLabels, state.TerraformLabels},
		{plan.Metadata, state.Metadata}, {plan.Tags, state.Tags}, {plan.CIDRBlock, state.CIDRBlock},
		{plan.NetworkConfig, state.NetworkConfig}, {plan.NetworkConfigs, state.NetworkConfigs}, {plan.BootDisk, state.BootDisk},
		{plan.ServiceAccount, state.ServiceAccount},
		{plan.SchedulingConfig, state.SchedulingConfig}, {plan.ShieldedInstanceConfig, state.ShieldedInstanceConfig},
		{plan.DataDisks, state.DataDisks}, {plan.Capacity, state.Capacity}, {plan.Validation, state.Validation}, {plan.Timeouts, state.Timeouts},
	}
	for _, p := range pairs {
		if !p[0].Equal(p[1]) {
			return false
		}
	}
	return true
}

// keepReadOnly copies the read-only attributes the API reports from state.
func keepReadOnly(plan *vmModel, state vmModel) {
	plan.ID, plan.State, plan.Health, plan.HealthDescription = state.ID, state.State, state.Health, state.HealthDescription
	plan.NetworkEndpoints, plan.CreateTime = state.NetworkEndpoints, state.CreateTime
	plan.EffectiveNetwork, plan.EffectiveSA = state.EffectiveNetwork, state.EffectiveSA
}

// planProjectAndZones fills project from the provider for a new VM, reports
// a missing project or zone, and plans zone: the VM's zone while it is still
// listed, else the only zone of a one-zone list, else unknown until apply.
func (r *vmResource) planProjectAndZones(cfg vmModel, plan *vmModel, state *vmModel, diags *diag.Diagnostics) {
	if cfg.Project.IsNull() && plan.Project.IsUnknown() && state == nil && r.data != nil && !r.providerUnknown("project") {
		if p := r.data.Project(); p != "" {
			plan.Project = types.StringValue(p)
		} else {
			diags.AddAttributeError(path.Root("project"), "Missing Project",
				"No project is set: set project on the resource or on the provider (or GOOGLE_PROJECT).")
		}
	}
	if cfg.Zones.IsNull() && plan.Zones.IsUnknown() && state == nil && r.data != nil && !r.providerUnknown("zone") {
		if z := r.data.Zone(); z != "" {
			plan.Zones = types.ListValueMust(types.StringType, []attr.Value{types.StringValue(z)})
		} else {
			diags.AddAttributeError(path.Root("zones"), "Missing Zone",
				"No zone is set: set zones on the resource, or zone on the provider (or GOOGLE_ZONE).")
		}
	}
	zones, ok := listStrings(plan.Zones)
	switch {
	case !ok:
		plan.Zone = types.StringUnknown()
	case state != nil && slices.Contains(zones, state.Zone.ValueString()):
		plan.Zone = state.Zone
	case len(zones) == 1:
		plan.Zone = types.StringValue(zones[0])
	default:
		plan.Zone = types.StringUnknown()
	}
}

// planEffectiveLabels predicts effective_labels: for a new VM,
// terraform_labels plus the ownership label, whose value (the owner id
// Create draws) is unknown; for an existing one, its labels while
// terraform_labels is unchanged, else unknown (the update reads them back,
// with those set outside Terraform meanwhile).
func planEffectiveLabels(ctx context.Context, plan vmModel, state *vmModel, diags *diag.Diagnostics) types.Map {
	if !tfmodel.WhollyKnown(plan.TerraformLabels) {
		return types.MapUnknown(types.StringType)
	}
	if state != nil {
		if plan.TerraformLabels.Equal(state.TerraformLabels) && tfmodel.Known(state.EffectiveLabels) {
			return state.EffectiveLabels
		}
		return types.MapUnknown(types.StringType)
	}
	var want map[string]string
	if tfmodel.Known(plan.TerraformLabels) {
		diags.Append(tfmodel.MapAs(ctx, plan.TerraformLabels, &want)...)
	}
	vals := make(map[string]attr.Value, len(want)+1)
	for k, v := range want {
		vals[k] = types.StringValue(v)
	}
	vals[ownerLabelKey] = types.StringUnknown()
	return types.MapValueMust(types.StringType, vals)
}

// checkAtApply repeats the catalog checks on the planned values (the
// framework and its version as configured), all known
// at apply, and adds the errors before any API call: the checks ModifyPlan
// left for later because a value was unknown at plan time. Terraform plans
// again with the known values before it applies, so this finds something
// only when that plan did not run the checks.
func (r *vmResource) checkAtApply(ctx context.Context, cfg, plan vmModel, diags *diag.Diagnostics) {
	in := inputsOf(plan)
	in.framework, in.frameworkVersion = cfg.Framework, cfg.FrameworkVersion
	var fs catalog.Findings
	if res, ok := runtimeOf(r.catalog, in); ok {
		fs = res.Findings
	}
	appendFindings(diags, fs, diskZoneFindings(ctx, r.catalog, plan), r.modes.For(plan.Validation), true)
	computeEngineDiags(ctx, r.catalog, plan, diags)
}

// importedImage reports whether state is a Compute Engine VM whose boot
// image is not known: an imported one (Compute Engine does not report the
// image a boot disk was made from). Planning a runtime_version for it
// records the value and does not replace the VM.
func importedImage(state vmModel) bool { return noImage(state.RuntimeVersion, state.ID) }

// noImage reports whether runtimeVersion is null in the state of the VM id,
// and the VM is a Compute Engine instance: see importedImage.
func noImage(runtimeVersion, id types.String) bool {
	return runtimeVersion.IsNull() && tfmodel.Known(id) && isInstanceID(id.ValueString())
}

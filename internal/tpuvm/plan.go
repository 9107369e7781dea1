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
	var cfg, plan vmModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	var state *vmModel
	if !req.State.Raw.IsNull() {
		state = &vmModel{}
		resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	r.planProjectAndZones(cfg, &plan, state, &resp.Diagnostics)
	r.planAPI(cfg, &plan, state, resp)
	if state != nil && tfmodel.Known(state.ID) && tfmodel.Known(plan.API) && plan.API.ValueString() != apiOfID(state.ID.ValueString()) &&
		cfg.CIDRBlock.IsNull() {
		// A replacement through the other API: the block the old one
		// reported is not a choice of the user's, nor checked against it.
		plan.CIDRBlock = types.StringUnknown()
	}
	computeEngineDiags(ctx, r.catalog, plan, &resp.Diagnostics)
	bootDiskKeyWarnings(plan, &resp.Diagnostics)

	// The runtime version: chosen from the catalog when omitted and not kept
	// from the state by its plan modifier.
	choose := cfg.RuntimeVersion.IsNull() && plan.RuntimeVersion.IsUnknown()
	in := inputsOf(plan)
	// The catalog checks the framework and its version as configured: an
	// omitted one planned from the runtime (or kept from the state) is not
	// a choice of the user's.
	in.framework, in.frameworkVersion = cfg.Framework, cfg.FrameworkVersion
	if choose {
		in.runtimeVersion = types.StringNull()
	}
	res, ok := runtimeOf(r.catalog, in)
	if plan.Validation.IsUnknown() {
		// The mode decides which findings are errors: check at apply.
		ok = false
	}
	if ok {
		mode := r.modes.For(plan.Validation)
		disks := diskZoneFindings(ctx, r.catalog, plan)
		fs := res.Findings
		if state == nil && !resp.Diagnostics.HasError() && !fs.WithMode(mode.Mode).HasErrors() && !disks.WithMode(mode.Mode).HasErrors() {
			// A new VM: the zones' live offer, when the API can be
			// reached, replaces the catalog's zone lists.
			live, answered := r.liveZoneFindings(ctx, plan, res)
			fs = append(fs.WithoutZoneListsFor(answered), live...)
		}
		appendFindings(&resp.Diagnostics, fs, disks, mode, false)
	}
	switch {
	case req.Private == nil || resp.Private == nil:
		// No private state (a plan outside Terraform, as in unit tests).
		if state == nil {
			r.planNameFindings(ctx, plan, "", &resp.Diagnostics)
		}
	case state != nil:
		id, _ := json.Marshal(state.ID.ValueString()) // private state values are JSON
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReplacing, id)...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateProtected, protectedJSON(*state))...)
	default:
		raw, diags := req.Private.GetKey(ctx, privateReplacing)
		resp.Diagnostics.Append(diags...)
		protected, diags := req.Private.GetKey(ctx, privateProtected)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReplacing, nil)...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateProtected, nil)...)
		var replacing string
		if len(raw) > 0 {
			_ = json.Unmarshal(raw, &replacing) // written above: a JSON string
		}
		if replacing != "" && (string(protected) == "true" || plan.DeletionProtection.ValueBool()) {
			addProtected(&resp.Diagnostics, replacing, "this plan replaces it (a change that needs a new VM, a tainted VM, or -replace)")
		}
		if !resp.Diagnostics.HasError() {
			r.planNameFindings(ctx, plan, replacing, &resp.Diagnostics)
		}
	}
	if choose && !ok && state != nil && !importedImage(*state) {
		// The runtime is chosen once its inputs are known; the VM may
		// then need another one.
		resp.RequiresReplace.Append(path.Root("runtime_version"))
	}
	if choose && ok {
		if res.RuntimeVersion != "" {
			plan.RuntimeVersion = types.StringValue(res.RuntimeVersion)
			if state != nil && state.RuntimeVersion.ValueString() != res.RuntimeVersion && !importedImage(*state) {
				resp.RequiresReplace.Append(path.Root("runtime_version"))
			}
		} else if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddAttributeError(path.Root("runtime_version"), "No Runtime Version to Choose",
				noRuntimeDetail(plan.AcceleratorType.ValueString(), res))
		}
	}

	if state == nil {
		// An omitted framework and framework_version of a new VM are what
		// its runtime version implies, as an import reads them back.
		if fw, v := impliedFramework(r.catalog, plan.RuntimeVersion.ValueString()); tfmodel.Known(plan.RuntimeVersion) {
			if cfg.Framework.IsNull() {
				plan.Framework = fw
			}
			if cfg.FrameworkVersion.IsNull() {
				plan.FrameworkVersion = v
			}
		}
	}

	// Generation, chips and hosts are known from the accelerator type.
	switch {
	case !tfmodel.Known(plan.AcceleratorType):
		plan.Generation, plan.Chips, plan.Hosts = types.StringUnknown(), types.Int64Unknown(), types.Int64Unknown()
	default:
		plan.Generation, plan.Chips, plan.Hosts = types.StringNull(), types.Int64Null(), types.Int64Null()
		if s, ok := shapeOf(r.catalog, plan.AcceleratorType.ValueString()); ok {
			plan.Generation, plan.Chips, plan.Hosts = types.StringValue(s.generation), types.Int64Value(int64(s.chips)), types.Int64Value(int64(s.hosts))
		}
	}

	plan.TerraformLabels = r.planTerraformLabels(plan)
	if tfmodel.WhollyKnown(plan.TerraformLabels) {
		// The labels the VM carries, default_labels included, and the
		// ownership label: the resource's label rule, as a node pool's.
		appendFindings(&resp.Diagnostics, labelFindings(r.catalog, plan.TerraformLabels), nil, r.modes.For(plan.Validation), false)
	}
	plan.EffectiveLabels = planEffectiveLabels(ctx, plan, state, &resp.Diagnostics)

	if state != nil {
		// External IPs are switched in place; endpoints change only then.
		// The interfaces of network_configs are never changed in place.
		ips, old := wantExternalIPs(plan), externalIPs(state.EffectiveNetwork)
		switch {
		case usesInterfaces(plan):
			plan.NetworkEndpoints, plan.EffectiveNetwork = state.NetworkEndpoints, state.EffectiveNetwork
		case ips != nil && old != nil && *ips == *old:
			plan.NetworkEndpoints = state.NetworkEndpoints
		case ips != nil && tfmodel.Known(state.EffectiveNetwork):
			attrs := maps.Clone(state.EffectiveNetwork.Attributes())
			attrs["enable_external_ips"] = types.BoolValue(*ips)
			plan.EffectiveNetwork = objectValue(schemaTypes().networkConfig.AttrTypes, attrs, &resp.Diagnostics)
		default:
			plan.EffectiveNetwork = types.ObjectUnknown(schemaTypes().networkConfig.AttrTypes)
		}
		if lost(*state) {
			plan.State = types.StringUnknown()
			resp.RequiresReplace.Append(path.Root("state"))
			resp.Diagnostics.AddAttributeWarning(path.Root("state"), "TPU VM Will Be Replaced",
				fmt.Sprintf("TPU VM %s is in state %s, from which it does not recover by itself; this plan replaces it.",
					state.ID.ValueString(), state.State.ValueString()))
		}
	}
	switch {
	case state == nil || len(resp.RequiresReplace) > 0:
	case sameSettings(plan, *state):
		// Only spellings differed (a network name for its self link, say): the
		// framework marked the read-only values unknown, but nothing will change.
		keepReadOnly(&plan, *state)
	default:
		// An update in place reads the VM's labels back, with every label
		// set outside Terraform meanwhile (between a saved plan and its
		// apply, say): what they will be is known after the apply.
		plan.EffectiveLabels = types.MapUnknown(types.StringType)
	}
	r.planCapacity(ctx, cfg, &plan, state, resp)
	r.planSlices(ctx, &plan, state, resp)
	resp.Diagnostics.Append(tfmodel.SetPlan(ctx, &resp.Plan, &plan)...)
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
		diags.Append(plan.TerraformLabels.ElementsAs(ctx, &want, false)...)
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

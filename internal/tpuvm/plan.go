// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// ValidateConfig checks the configuration against the catalog with the
// values the configuration itself fixes and reports the errors. ModifyPlan
// checks again with the values known at plan time and reports every finding
// (see package validation for why each is then shown once).
func (r *vmResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg vmModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validation.AppendErrors(&resp.Diagnostics, path.Empty(), configFindings(ctx, cfg), r.modes.For(cfg.Validation))
}

// configFindings are the findings ValidateConfig reports.
func configFindings(ctx context.Context, cfg vmModel) catalog.Findings {
	var fs catalog.Findings
	if cfg.Validation.IsUnknown() {
		return nil // the mode is known at apply, where ModifyPlan checks
	}
	if res, ok := resolve(inputsOf(cfg)); ok {
		fs = append(fs, res.Findings...)
	}
	return append(fs, diskZoneFindings(ctx, cfg)...)
}

// ModifyPlan fills in what is known at plan time (project and zones from the
// provider, the runtime version chosen from the catalog, zone, generation,
// chips, hosts, effective_labels), reports catalog findings ValidateConfig
// could not see, and plans the replacement of a VM in a failed state.
func (r *vmResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var cfg, plan vmModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var state *vmModel
	if !req.State.Raw.IsNull() {
		state = &vmModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	r.planProjectAndZones(cfg, &plan, state, &resp.Diagnostics)

	// The runtime version: chosen from the catalog when omitted and not kept
	// from the state by its plan modifier.
	choose := cfg.RuntimeVersion.IsNull() && plan.RuntimeVersion.IsUnknown()
	in := inputsOf(plan)
	if choose {
		in.runtimeVersion = types.StringNull()
	}
	res, ok := resolve(in)
	if plan.Validation.IsUnknown() {
		// The mode decides which findings are errors: check at apply.
		ok = false
	}
	if ok {
		fs := append(slices.Clone(res.Findings), diskZoneFindings(ctx, plan)...)
		validation.Append(&resp.Diagnostics, path.Empty(), fs, r.modes.For(plan.Validation))
	}
	if choose && !ok && state != nil {
		// The runtime is chosen once its inputs are known; the VM may
		// then need another one.
		resp.RequiresReplace.Append(path.Root("runtime_version"))
	}
	if choose && ok {
		if res.RuntimeVersion != "" {
			plan.RuntimeVersion = types.StringValue(res.RuntimeVersion)
			if state != nil && state.RuntimeVersion.ValueString() != res.RuntimeVersion {
				resp.RequiresReplace.Append(path.Root("runtime_version"))
			}
		} else if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddAttributeError(path.Root("runtime_version"), "No Runtime Version to Choose",
				fmt.Sprintf("The catalog has no runtime version for %s with the given framework (%s). Set runtime_version.",
					plan.AcceleratorType.ValueString(), res.Reason))
		}
	}

	// Generation, chips and hosts are known from the accelerator type.
	switch {
	case !known(plan.AcceleratorType):
		plan.Generation, plan.Chips, plan.Hosts = types.StringUnknown(), types.Int64Unknown(), types.Int64Unknown()
	default:
		plan.Generation, plan.Chips, plan.Hosts = types.StringNull(), types.Int64Null(), types.Int64Null()
		if s, ok := shapeOf(plan.AcceleratorType.ValueString()); ok {
			plan.Generation, plan.Chips, plan.Hosts = types.StringValue(s.generation), types.Int64Value(int64(s.chips)), types.Int64Value(int64(s.hosts))
		}
	}

	plan.EffectiveLabels = planEffectiveLabels(ctx, plan, state, &resp.Diagnostics)

	if state != nil {
		// Endpoints change only when external IPs are switched.
		if ips, old := externalIPs(plan.NetworkConfig), externalIPs(state.NetworkConfig); ips != nil && old != nil && *ips == *old {
			plan.NetworkEndpoints = state.NetworkEndpoints
		}
		if slices.Contains(replaceStates, state.State.ValueString()) {
			plan.State = types.StringUnknown()
			resp.RequiresReplace.Append(path.Root("state"))
			resp.Diagnostics.AddAttributeWarning(path.Root("state"), "TPU VM Will Be Replaced",
				fmt.Sprintf("TPU VM %s is in state %s, from which it does not recover by itself; this plan replaces it.",
					state.ID.ValueString(), state.State.ValueString()))
		}
	}
	if state != nil && len(resp.RequiresReplace) == 0 && sameSettings(plan, *state) {
		// Only spellings differed (a network name for its self link, say): the
		// framework marked the read-only values unknown, but nothing will change.
		keepReadOnly(&plan, *state)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// sameSettings reports whether plan and state agree on every attribute that
// is not read-only.
func sameSettings(plan, state vmModel) bool {
	pairs := [][2]attr.Value{
		{plan.Name, state.Name}, {plan.Project, state.Project}, {plan.Zones, state.Zones}, {plan.Zone, state.Zone},
		{plan.AcceleratorType, state.AcceleratorType}, {plan.RuntimeVersion, state.RuntimeVersion},
		{plan.Framework, state.Framework}, {plan.FrameworkVersion, state.FrameworkVersion},
		{plan.Description, state.Description}, {plan.Labels, state.Labels}, {plan.EffectiveLabels, state.EffectiveLabels},
		{plan.Metadata, state.Metadata}, {plan.Tags, state.Tags}, {plan.CIDRBlock, state.CIDRBlock},
		{plan.NetworkConfig, state.NetworkConfig}, {plan.ServiceAccount, state.ServiceAccount},
		{plan.SchedulingConfig, state.SchedulingConfig}, {plan.ShieldedInstanceConfig, state.ShieldedInstanceConfig},
		{plan.DataDisks, state.DataDisks}, {plan.Validation, state.Validation}, {plan.Timeouts, state.Timeouts},
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

// planEffectiveLabels predicts effective_labels: for a new VM, labels plus
// the ownership label, whose value (the owner id Create draws) is unknown;
// for an existing one, its labels with the keys the
// configuration dropped removed and the configured ones set.
func planEffectiveLabels(ctx context.Context, plan vmModel, state *vmModel, diags *diag.Diagnostics) types.Map {
	if !wholly(plan.Labels) {
		return types.MapUnknown(types.StringType)
	}
	var want map[string]string
	if known(plan.Labels) {
		diags.Append(plan.Labels.ElementsAs(ctx, &want, false)...)
	}
	if state == nil {
		vals := make(map[string]attr.Value, len(want)+1)
		for k, v := range want {
			vals[k] = types.StringValue(v)
		}
		vals[ownerLabelKey] = types.StringUnknown()
		return types.MapValueMust(types.StringType, vals)
	}
	if plan.Labels.Equal(state.Labels) && known(state.EffectiveLabels) {
		return state.EffectiveLabels
	}
	if !known(state.EffectiveLabels) {
		return types.MapUnknown(types.StringType)
	}
	var current map[string]string
	diags.Append(state.EffectiveLabels.ElementsAs(ctx, &current, false)...)
	out := merged(ctx, current, state.Labels, plan.Labels, diags)
	vals := make(map[string]attr.Value, len(out))
	for k, v := range out {
		vals[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, vals)
}

// checkAtApply repeats the catalog checks on the planned values, all known
// at apply, and adds the errors before any API call: the checks ModifyPlan
// left for later because a value was unknown at plan time. Terraform plans
// again with the known values before it applies, so this finds something
// only when that plan did not run the checks.
func (r *vmResource) checkAtApply(ctx context.Context, plan vmModel, diags *diag.Diagnostics) {
	fs := diskZoneFindings(ctx, plan)
	if res, ok := resolve(inputsOf(plan)); ok {
		fs = append(fs, res.Findings...)
	}
	validation.AppendErrors(diags, path.Empty(), fs, r.modes.For(plan.Validation))
}

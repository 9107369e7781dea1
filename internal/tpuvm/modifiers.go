// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

var (
	_ planmodifier.List   = zonesPlanModifier{}
	_ planmodifier.String = runtimeVersionPlanModifier{}
	_ planmodifier.String = currentStringPlanModifier{}
	_ planmodifier.Bool   = currentBoolPlanModifier{}
	_ planmodifier.Set    = scopesPlanModifier{}
	_ planmodifier.Object = absentBlockPlanModifier{}
	_ planmodifier.String = keepWhenOmittedPlanModifier{}
	_ validator.String    = cidrBlockValidator{}
)

// zonesPlanModifier plans `zones`. When the configuration omits it, the
// value in state is kept (a new VM gets the provider's zone in ModifyPlan,
// where the provider's configuration is at hand). A change of the list
// replaces the VM only when the zone the VM is in leaves the list:
// reordering, adding or removing other zones is an in-place (state-only)
// change. A list unknown until apply (with the same values, as a rule)
// plans no replacement.
type zonesPlanModifier struct{}

func (m zonesPlanModifier) Description(ctx context.Context) string { return m.MarkdownDescription(ctx) }

func (zonesPlanModifier) MarkdownDescription(context.Context) string {
	return "Requires replacement only when the VM's current zone is no longer listed."
}

func (zonesPlanModifier) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	if req.ConfigValue.IsNull() {
		resp.PlanValue = req.StateValue
	}
	var current types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("zone"), &current)...)
	if current.IsNull() || current.IsUnknown() || current.ValueString() == "" {
		return
	}
	zones, known := listStrings(resp.PlanValue)
	// Unknown until apply: no replacement is planned on a guess. If the
	// known list drops the VM's zone after all, the plan Terraform makes at
	// apply time asks for the replacement, and Terraform stops that apply
	// before any change; the next plan shows the replacement.
	if known && !slices.Contains(zones, current.ValueString()) {
		resp.RequiresReplace = true
	}
}

// runtimeVersionPlanModifier plans `runtime_version`. A configured value
// replaces the VM when it changes. An omitted value keeps the one in state
// while accelerator_type is unchanged and api, framework and
// framework_version are omitted (they then keep their values in state) or
// unchanged;
// otherwise it stays unknown here and ModifyPlan chooses it from the catalog
// (replacing the VM only if the choice differs from the VM's runtime).
type runtimeVersionPlanModifier struct{}

// runtimeInputs are the attributes the catalog's runtime choice depends on:
// a configured api that differs from the VM's asks for another kind of
// runtime (a Cloud TPU software version or a Compute Engine boot image).
var runtimeInputs = []string{"accelerator_type", "api", "framework", "framework_version"}

func (m runtimeVersionPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (runtimeVersionPlanModifier) MarkdownDescription(context.Context) string {
	return "Keeps the runtime version in state unless it is configured differently or its inputs change."
}

func (runtimeVersionPlanModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if !req.ConfigValue.IsNull() {
		imported := false
		if req.StateValue.IsNull() {
			// A Compute Engine VM imported without its boot image.
			var id types.String
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
			imported = noImage(req.StateValue, id)
		}
		if !req.PlanValue.Equal(req.StateValue) && !imported {
			resp.RequiresReplace = true
		}
		return
	}
	for _, name := range runtimeInputs {
		var configured, prior types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &configured)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &prior)...)
		if name != "accelerator_type" && configured.IsNull() {
			continue // an omitted framework or framework_version keeps the one in state
		}
		if !configured.Equal(prior) {
			return
		}
	}
	resp.PlanValue = req.StateValue
}

// currentStringPlanModifier plans a string of a nested block against the
// VM's current value: the value in the block's state, or, when the block was
// absent from the state, the value the API reports in the effective
// attribute (effective_network_config, effective_service_account). An
// omitted value plans the current one; a value that names the same thing as
// the current one (same, when set: a name and a self link of one network)
// plans no change; any other value replaces the VM when replace is set.
type currentStringPlanModifier struct {
	effective string
	same      func(a, b string) bool
	replace   bool
}

func (m currentStringPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (currentStringPlanModifier) MarkdownDescription(context.Context) string {
	return "Plans the VM's current value when omitted; another value replaces the VM."
}

func (m currentStringPlanModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	current := req.StateValue
	if current.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(m.effective).AtName(lastName(req.Path)), &current)...)
	}
	switch {
	case req.ConfigValue.IsNull():
		if tfmodel.Known(current) {
			resp.PlanValue = current
		}
		return
	case tfmodel.Known(req.ConfigValue) && tfmodel.Known(current) && m.equal(req.ConfigValue.ValueString(), current.ValueString()):
		if tfmodel.Known(req.StateValue) {
			resp.PlanValue = req.StateValue // the spelling in state
		}
		return
	}
	resp.RequiresReplace = m.replace
}

func (m currentStringPlanModifier) equal(a, b string) bool {
	if m.same != nil {
		return m.same(a, b)
	}
	return a == b
}

// currentBoolPlanModifier replaces the VM when a flag of a nested block is
// planned to differ from the VM's current value: the value in the block's
// state, or, when the block was absent from the state, the value in the
// effective attribute when there is one, else false (what an absent block
// means).
type currentBoolPlanModifier struct {
	effective string
}

func (m currentBoolPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (currentBoolPlanModifier) MarkdownDescription(context.Context) string {
	return "Changing the value replaces the VM."
}

func (m currentBoolPlanModifier) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	current := req.StateValue
	if current.IsNull() {
		current = types.BoolValue(false)
		if m.effective != "" {
			var eff types.Bool
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(m.effective).AtName(lastName(req.Path)), &eff)...)
			if tfmodel.Known(eff) {
				current = eff
			}
		}
	}
	if !tfmodel.Known(req.PlanValue) || !req.PlanValue.Equal(current) {
		resp.RequiresReplace = true
	}
}

// scopesPlanModifier plans service_account.scopes against the VM's current
// scopes (as currentStringPlanModifier does for strings), ignoring the
// Pub/Sub scope the API adds on its own.
type scopesPlanModifier struct{}

func (m scopesPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (scopesPlanModifier) MarkdownDescription(context.Context) string {
	return "Plans the VM's current scopes when omitted; other scopes replace the VM."
}

func (scopesPlanModifier) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	current := req.StateValue
	if current.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("effective_service_account").AtName("scopes"), &current)...)
	}
	switch {
	case req.ConfigValue.IsNull():
		if tfmodel.Known(current) {
			resp.PlanValue = current
		}
		return
	case tfmodel.WhollyKnown(req.ConfigValue) && tfmodel.Known(current) && sameScopes(ctx, req.ConfigValue, current):
		if tfmodel.Known(req.StateValue) {
			resp.PlanValue = req.StateValue
		}
		return
	}
	resp.RequiresReplace = true
}

// sameScopes reports whether two sets of scopes are equal once the Pub/Sub
// scope is left out.
func sameScopes(ctx context.Context, a, b types.Set) bool {
	var x, y []string
	if tfmodel.ElementsAs(ctx, a, &x).HasError() || tfmodel.ElementsAs(ctx, b, &y).HasError() {
		return false
	}
	norm := func(s []string) []string {
		s = slices.DeleteFunc(s, func(v string) bool { return v == pubSubScope })
		slices.Sort(s)
		return slices.Compact(s)
	}
	return slices.Equal(norm(x), norm(y))
}

// absentBlockPlanModifier replaces the VM when a nested block present in the
// state is removed from the configuration while the VM has settings that an
// absent block does not mean (changed reports whether the state's block has
// them): Spot provisioning, Secure Boot, IP forwarding, another network or
// service account. Settings the API updates in place are planned in
// ModifyPlan.
type absentBlockPlanModifier struct {
	changed func(o types.Object) bool
}

func (m absentBlockPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (absentBlockPlanModifier) MarkdownDescription(context.Context) string {
	return "Removing the block replaces the VM when the VM's settings differ from what an absent block means."
}

func (m absentBlockPlanModifier) PlanModifyObject(_ context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || !req.ConfigValue.IsNull() || !tfmodel.Known(req.StateValue) {
		return
	}
	if m.changed(req.StateValue) {
		resp.RequiresReplace = true
	}
}

// keepWhenOmittedPlanModifier plans the value in state for an omitted
// framework or framework_version of an existing VM. A new VM's value is
// planned in ModifyPlan, from the runtime version.
type keepWhenOmittedPlanModifier struct{}

func (m keepWhenOmittedPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (keepWhenOmittedPlanModifier) MarkdownDescription(context.Context) string {
	return "Keeps the value in state when the configuration omits it."
}

func (keepWhenOmittedPlanModifier) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || !req.ConfigValue.IsNull() {
		return
	}
	resp.PlanValue = req.StateValue
}

// lastName returns the attribute name p ends with, or "".
func lastName(p path.Path) string {
	last, _ := p.Steps().LastStep()
	if a, ok := last.(path.PathStepAttributeName); ok {
		return string(a)
	}
	return ""
}

// cidrBlockValidator checks cidr_block: an IPv4 network address with a
// prefix of at most 29 bits, such as "10.0.0.8/29".
//
// The v2 REST reference (Node.cidrBlock) says the block "must be a /29
// block", but the API itself reports a larger one, the subnetwork's range
// (such as 10.128.0.0/20), for a VM created without cidr_block, and the same
// reference calls larger blocks merely "wasteful". Requiring /29 would reject
// the value the API reports, so a configuration generated on import would
// fail its own plan: larger blocks are accepted, and only what the API
// cannot take is rejected (smaller than /29, which the reference says the
// Compute Engine API forbids, non-IPv4 and host bits set).
type cidrBlockValidator struct{}

func (v cidrBlockValidator) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (cidrBlockValidator) MarkdownDescription(context.Context) string {
	return "value must be an IPv4 network of at least 8 addresses (/29 or larger), such as `10.0.0.8/29`"
}

func (cidrBlockValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := checkCIDRBlock(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR Block", msg)
	}
}

// checkCIDRBlock returns why s is not a valid cidr_block, or "".
func checkCIDRBlock(s string) string {
	p, err := netip.ParsePrefix(s)
	switch {
	case err != nil || !p.Addr().Is4():
		return fmt.Sprintf("%q is not an IPv4 CIDR block; use a /29 block such as \"10.0.0.8/29\".", s)
	case p.Bits() > 29:
		return fmt.Sprintf("%q is smaller than a /29 block: the Cloud TPU API needs at least 8 addresses; use a /29 such as \"10.0.0.8/29\".", s)
	case p.Masked() != p:
		return fmt.Sprintf("%q has host bits set; use the network address %s.", s, p.Masked())
	}
	return ""
}

// listStrings returns the elements of a list of strings, and false when the
// list or an element is unknown.
func listStrings(l types.List) ([]string, bool) {
	if l.IsUnknown() {
		return nil, false
	}
	out := make([]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			return nil, false
		}
		out = append(out, s.ValueString())
	}
	return out, true
}

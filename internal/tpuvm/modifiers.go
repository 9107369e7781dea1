// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"net/netip"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ planmodifier.List   = zonesPlanModifier{}
	_ planmodifier.String = runtimeVersionPlanModifier{}
	_ planmodifier.String = sameResourcePlanModifier{}
	_ validator.String    = cidr29Validator{}
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
// while accelerator_type, framework and framework_version are unchanged;
// otherwise it stays unknown here and ModifyPlan chooses it from the catalog
// (replacing the VM only if the choice differs from the VM's runtime).
type runtimeVersionPlanModifier struct{}

// runtimeInputs are the attributes the catalog's runtime choice depends on.
var runtimeInputs = []string{"accelerator_type", "framework", "framework_version"}

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
		if !req.PlanValue.Equal(req.StateValue) {
			resp.RequiresReplace = true
		}
		return
	}
	for _, name := range runtimeInputs {
		var planned, prior types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &prior)...)
		if !planned.Equal(prior) {
			return
		}
	}
	resp.PlanValue = req.StateValue
}

// sameResourcePlanModifier keeps the state's spelling of a network or
// subnetwork when the configuration names the same resource another way
// ("default" for "projects/p/global/networks/default"), as after an import,
// so that the spelling alone never plans a change or a replacement.
type sameResourcePlanModifier struct{}

func (m sameResourcePlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (sameResourcePlanModifier) MarkdownDescription(context.Context) string {
	return "A name and a self link of the same resource are the same value."
}

func (sameResourcePlanModifier) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if known(req.ConfigValue) && known(req.StateValue) && sameResource(req.ConfigValue.ValueString(), req.StateValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}

// cidr29Validator checks that a value is an IPv4 /29 network such as
// "10.0.0.8/29": the only size the Cloud TPU API accepts for cidr_block.
type cidr29Validator struct{}

func (v cidr29Validator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (cidr29Validator) MarkdownDescription(context.Context) string {
	return "value must be an IPv4 /29 network, such as `10.0.0.8/29`"
}

func (cidr29Validator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := checkCIDR29(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR Block", msg)
	}
}

// checkCIDR29 returns why s is not an IPv4 /29 network, or "".
func checkCIDR29(s string) string {
	p, err := netip.ParsePrefix(s)
	switch {
	case err != nil || !p.Addr().Is4():
		return "\"" + s + "\" is not an IPv4 CIDR block; use a /29 block such as \"10.0.0.8/29\"."
	case p.Bits() != 29:
		return "\"" + s + "\" is not a /29 block: the Cloud TPU API requires a /29 (8 addresses), such as \"10.0.0.8/29\"."
	case p.Masked() != p:
		return "\"" + s + "\" has host bits set; use the network address " + p.Masked().String() + "."
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

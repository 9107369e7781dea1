// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/helpers/validatordiag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// requiredAttributesValidator requires the named attributes of a written
// (not null) object: the check of objectvalidator.AlsoRequires with
// relative paths, with the same diagnostics, made on the object's own
// attributes. AlsoRequires finds each path by walking the whole
// configuration of the resource, every value and its schema type, for every
// element it checks: with three tiers, that walk was most of the CPU time
// of a plan.
type requiredAttributesValidator struct {
	names []string
}

var _ validator.Object = requiredAttributesValidator{}

func (v requiredAttributesValidator) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (v requiredAttributesValidator) MarkdownDescription(context.Context) string {
	return "requires " + strings.Join(v.names, ", ") + " when the block is written"
}

func (v requiredAttributesValidator) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	for _, name := range v.names {
		a, ok := attrs[name]
		if !ok {
			continue // not an attribute of the object: nothing to require
		}
		if a.IsUnknown() {
			return // checked once known
		}
		if a.IsNull() {
			resp.Diagnostics.Append(validatordiag.InvalidAttributeCombinationDiagnostic(req.Path,
				fmt.Sprintf("Attribute %q must be specified when %q is specified", req.Path.AtName(name), req.Path)))
		}
	}
}

// nodeCountValidator checks a tier's size attributes together: node_count
// conflicts with min_node_count and max_node_count, which require each
// other. It makes the checks of int64validator.ConflictsWith and
// AlsoRequires, with their diagnostics, on the tier's own attributes: those
// validators find each path by walking the resource's whole configuration
// for every tier, which made them a tenth of the CPU time of a large plan.
// As they do, it waits while a value it needs is unknown.
type nodeCountValidator struct{}

var _ validator.Object = nodeCountValidator{}

func (v nodeCountValidator) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (nodeCountValidator) MarkdownDescription(context.Context) string {
	return "node_count conflicts with min_node_count and max_node_count, which require each other"
}

func (nodeCountValidator) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	set := func(name string) (written, known bool) {
		a, ok := attrs[name]
		if !ok || a == nil {
			return false, true
		}
		return !a.IsNull(), !a.IsUnknown()
	}
	count, countKnown := set("node_count")
	minSet, minKnown := set("min_node_count")
	maxSet, maxKnown := set("max_node_count")
	at := func(name string) path.Path { return req.Path.AtName(name) }
	if count && countKnown {
		for _, other := range []struct {
			name           string
			written, known bool
		}{{"min_node_count", minSet, minKnown}, {"max_node_count", maxSet, maxKnown}} {
			if !other.known {
				break
			}
			if other.written {
				resp.Diagnostics.Append(validatordiag.InvalidAttributeCombinationDiagnostic(at("node_count"),
					fmt.Sprintf("Attribute %q cannot be specified when %q is specified", at(other.name), at("node_count"))))
			}
		}
	}
	if minSet && minKnown && maxKnown && !maxSet {
		resp.Diagnostics.Append(validatordiag.InvalidAttributeCombinationDiagnostic(at("min_node_count"),
			fmt.Sprintf("Attribute %q must be specified when %q is specified", at("max_node_count"), at("min_node_count"))))
	}
	if maxSet && maxKnown && minKnown && !minSet {
		resp.Diagnostics.Append(validatordiag.InvalidAttributeCombinationDiagnostic(at("max_node_count"),
			fmt.Sprintf("Attribute %q must be specified when %q is specified", at("min_node_count"), at("max_node_count"))))
	}
}

// taintEffectValidator checks a taint's effect against GKE's spellings
// (taintEffects). The Kubernetes spelling of an effect (NoSchedule), or one
// that differs in case or underscores only, is refused with GKE's name of
// the same effect.
type taintEffectValidator struct{}

var _ validator.String = taintEffectValidator{}

func (v taintEffectValidator) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (taintEffectValidator) MarkdownDescription(context.Context) string {
	return "must be one of " + strings.Join(taintEffects, ", ")
}

func (taintEffectValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	got := req.ConfigValue.ValueString()
	where := tierPrefix(ctx, req.Config, req.Path)
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	for _, e := range taintEffects {
		switch {
		case got == e:
			return
		case got == kubernetesEffect[e]:
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid Taint Effect",
				where+fmt.Sprintf("%q is the Kubernetes spelling of the effect; GKE's node pool API spells it %q. Use effect = %q.", got, e, e))
			return
		case fold(got) == fold(e):
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid Taint Effect",
				where+fmt.Sprintf("%q is not a GKE taint effect; did you mean %q? GKE's effects are %s.", got, e, strings.Join(taintEffects, ", ")))
			return
		}
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Taint Effect",
		where+fmt.Sprintf("%q is not a GKE taint effect; use one of %s.", got, strings.Join(taintEffects, ", ")))
}

// tierPrefix is the tierWhere that starts the detail of a diagnostic on an
// attribute of a tier's nested block (at tiers[i].block[j].attribute), as
// appendTierFindings writes it. Empty when p is not such a path.
func tierPrefix(ctx context.Context, config tfsdk.Config, p path.Path) string {
	steps := p.Steps()
	if len(steps) < 5 {
		return ""
	}
	block, ok := steps[2].(path.PathStepAttributeName)
	elem, okElem := steps[3].(path.PathStepElementKeyInt)
	if !ok || !okElem {
		return ""
	}
	where := fmt.Sprintf("%s[%d]", block, elem)
	var name types.String
	if d := config.GetAttribute(ctx, p.ParentPath().ParentPath().ParentPath().AtName("name"), &name); d.HasError() || name.IsNull() || name.IsUnknown() {
		return where + ": "
	}
	return tierWhere(name.ValueString(), where)
}

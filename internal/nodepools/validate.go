// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// ValidateConfig checks every tier whose settings are known against the
// catalog, plus the rules of the resource itself (tier names, TPU or GPU).
func (r *fallbackNodePoolsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg resourceModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Tiers.IsNull() || cfg.Tiers.IsUnknown() {
		return
	}
	cat := r.catalog
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
		diags := tfmodel.As(ctx, obj, &t, tfmodel.ObjectAsOptions)
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
		if !in.known || !tfmodel.WhollyKnown(obj) || cfg.Validation.IsUnknown() {
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
	if _, ok := schemaTypes().tier.AttrTypes[attr]; ok { // a tier's attributes and blocks
		return attr, true
	}
	return "name", false
}

// appendTierFindings reports findings about tier i, named name, on the
// tier's attribute paths under mode: only the errors (ValidateConfig) or
// every finding (ModifyPlan). Terraform shows a diagnostic on a nested
// attribute at the resource block, so the detail names the tier and the
// attribute too.
func appendTierFindings(diags *diag.Diagnostics, i int, name string, fs catalog.Findings, mode validation.Mode, errorsOnly bool) {
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
		f.Detail = tierWhere(name, where) + f.Detail
		out = append(out, f)
	}
	base := path.Root("tiers").AtListIndex(i)
	if errorsOnly {
		validation.AppendErrors(diags, base, out, mode)
		return
	}
	validation.Append(diags, base, out, mode)
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

// tierWhere starts the detail of a diagnostic about a tier's attribute,
// which Terraform shows at the resource block: "Tier "l4", taints[0]: ".
func tierWhere(name, where string) string { return fmt.Sprintf("Tier %q, %s: ", name, where) }

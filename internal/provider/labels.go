// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// defaultLabelsAttribute is default_labels, with the google provider's
// meaning: labels every resource of this provider carries, below the
// resource's own.
func defaultLabelsAttribute(cat *catalog.Catalog) schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "Labels added to every label set a resource manages, as the google provider's `default_labels`: " +
			"the `labels` of `accel_tpu_vm` and the Compute Engine `resource_labels` of each `accel_fallback_nodepools` tier. " +
			"A key the resource sets itself wins. The result is in `terraform_labels` (`terraform_resource_labels` on a tier), " +
			"and every label on the object in `effective_labels` (`effective_resource_labels`). A change updates the objects in " +
			"place. " + cat.LabelRules() + " The key `" + ownership.LabelKey + "` is reserved.",
		Validators: validation.Labels(cat, ownership.LabelKey),
	}
}

// setDefaultLabels records default_labels in the provider data, or lists
// the argument as unknown until apply.
func setDefaultLabels(ctx context.Context, data *providerdata.Data, v types.Map, diags *diag.Diagnostics) {
	if v.IsUnknown() {
		data.Unknown = append(data.Unknown, providerdata.DefaultLabelsAttr)
		return
	}
	if v.IsNull() {
		return
	}
	for _, e := range v.Elements() {
		if e.IsUnknown() {
			data.Unknown = append(data.Unknown, providerdata.DefaultLabelsAttr)
			return
		}
	}
	diags.Append(v.ElementsAs(ctx, &data.DefaultLabels, false)...)
}

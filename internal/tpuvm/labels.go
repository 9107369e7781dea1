// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// The labels of a TPU VM follow the google provider's convention: `labels`
// (non-authoritative, the keys this configuration sets), `terraform_labels`
// (labels merged with the provider's default_labels, what the provider
// writes to the VM) and `effective_labels` (every label on the VM, the
// ownership label and labels added outside Terraform among them).

// labelFindings checks labels, a known map the VM carries, with the
// catalog's label rule, counting the ownership label the provider adds.
func labelFindings(cat *catalog.Catalog, labels types.Map) catalog.Findings {
	return cat.LabelFindings("labels", tfmodel.KnownStringMap(labels), []string{ownerLabelKey})
}

// planTerraformLabels plans terraform_labels: the provider's default_labels
// with labels over them; unknown while either is; null when both are empty
// and labels is not set.
func (r *vmResource) planTerraformLabels(plan vmModel) types.Map {
	if !tfmodel.WhollyKnown(plan.Labels) || r.providerUnknown(providerdata.DefaultLabelsAttr) {
		return types.MapUnknown(types.StringType)
	}
	own := tfmodel.KnownStringMap(plan.Labels)
	out := r.data.WithDefaultLabels(own)
	if len(out) == 0 && plan.Labels.IsNull() {
		return types.MapNull(types.StringType)
	}
	return tfmodel.StringMapOrEmpty(out)
}

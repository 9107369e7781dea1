// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// A tier's Compute Engine resource labels follow the google provider's label
// convention under names of their own, since a tier's `labels` and
// `effective_labels` are Kubernetes node labels: `resource_labels` (the
// tier's own, non-authoritative), `terraform_resource_labels` (them merged
// with the provider's default_labels: what the provider writes to the pool)
// and `effective_resource_labels` (every resource label on the pool, the
// ownership label, GKE's goog-* labels and labels added outside Terraform
// among them).

// tierLabelsModel holds the computed resource label attributes, embedded in
// tierModel.
type tierLabelsModel struct {
	TerraformResourceLabels types.Map `tfsdk:"terraform_resource_labels"`
	EffectiveResourceLabels types.Map `tfsdk:"effective_resource_labels"`
}

// labelsAttributes are the computed resource label schema attributes.
func labelsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"terraform_resource_labels": schema.MapAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The Compute Engine resource labels this configuration manages on the tier's nodes: the " +
				"provider's `default_labels` merged with `resource_labels`, whose value wins for a key set in both (the google " +
				"provider's `terraform_labels`). A change of `default_labels` updates the pool in place.",
		},
		"effective_resource_labels": schema.MapAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Every Compute Engine resource label GKE reports on the pool (the google provider's " +
				"`effective_labels`): `terraform_resource_labels`, the ownership label `" + ownership.LabelKey + "`, labels GKE " +
				"adds (`goog-*`) and labels added outside Terraform, which never cause a diff.",
		},
	}
}

// planTerraformResourceLabels sets the configured tier's
// terraform_resource_labels (read by inputOf) and the planned tier's:
// default_labels with resource_labels over them; unknown while either is;
// null when both are empty and resource_labels is not set.
func planTerraformResourceLabels(data *providerdata.Data, ct, pt *tierModel, defaultsUnknown bool) {
	v := types.MapUnknown(types.StringType)
	if tfmodel.WhollyKnown(ct.ResourceLabels) && !defaultsUnknown {
		out := data.WithDefaultLabels(tfmodel.KnownStringMap(ct.ResourceLabels))
		v = tfmodel.StringMap(out)
		if len(out) == 0 && ct.ResourceLabels.IsNull() {
			v = types.MapNull(types.StringType)
		}
	}
	ct.TerraformResourceLabels, pt.TerraformResourceLabels = v, v
}

// managedResourceLabels sets in's resource labels to the tier's
// terraform_resource_labels when they are planned (resource_labels alone
// otherwise, as in ValidateConfig, or in state written before them).
func managedResourceLabels(in *tierInput, t tierModel) {
	switch {
	case t.TerraformResourceLabels.IsUnknown():
		in.known = false
	case !t.TerraformResourceLabels.IsNull():
		in.Settings.ResourceLabels = tfmodel.KnownStringMap(t.TerraformResourceLabels)
	}
}

// flattenResourceLabels sets terraform_resource_labels (the keys prior
// manages, every one of the pool's own on import) and
// effective_resource_labels from the labels GKE reports.
func flattenResourceLabels(t *tierModel, prior tierModel, api map[string]string, importing bool) {
	t.EffectiveResourceLabels = tfmodel.StringMap(maps.Clone(api))
	if api == nil {
		t.EffectiveResourceLabels = tfmodel.StringMap(map[string]string{})
	}
	switch {
	case importing:
		t.TerraformResourceLabels = types.MapNull(types.StringType)
		if own := tierResourceLabels(api, nil); own != nil {
			t.TerraformResourceLabels = tfmodel.StringMap(own)
		}
	case prior.TerraformResourceLabels.IsNull() || prior.TerraformResourceLabels.IsUnknown():
		t.TerraformResourceLabels = types.MapNull(types.StringType)
	default:
		t.TerraformResourceLabels = tfmodel.StringMap(tierResourceLabels(api, tfmodel.KnownStringMap(prior.TerraformResourceLabels)))
	}
}

// markResourceLabelsUnknown sets effective_resource_labels to unknown
// (markGKEValuesUnknown).
func markResourceLabelsUnknown(m *tierLabelsModel) {
	m.EffectiveResourceLabels = types.MapUnknown(types.StringType)
}

// settleResourceLabels sets the resource label attributes still unknown to
// empty (settle).
func settleResourceLabels(m *tierLabelsModel) {
	for _, v := range []*types.Map{&m.TerraformResourceLabels, &m.EffectiveResourceLabels} {
		if v.IsUnknown() {
			*v = tfmodel.StringMap(map[string]string{})
		}
	}
}

// unknownResourceLabels and nullResourceLabels are both attributes unknown
// or null.
func unknownResourceLabels() tierLabelsModel {
	return tierLabelsModel{TerraformResourceLabels: types.MapUnknown(types.StringType), EffectiveResourceLabels: types.MapUnknown(types.StringType)}
}

func nullResourceLabels() tierLabelsModel {
	return tierLabelsModel{TerraformResourceLabels: types.MapNull(types.StringType), EffectiveResourceLabels: types.MapNull(types.StringType)}
}

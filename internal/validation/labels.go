// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// Labels validates a map of Google Cloud labels, the provider's
// default_labels, with the catalog's label rule
// (catalog.Catalog.LabelFindings): reserved are the keys the provider sets
// itself. The resources check the labels they write, default_labels
// included, with the same rule.
func Labels(cat *catalog.Catalog, reserved ...string) []validator.Map {
	return []validator.Map{labelsValidator{cat: cat, reserved: reserved}}
}

type labelsValidator struct {
	cat      *catalog.Catalog
	reserved []string
}

func (v labelsValidator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (v labelsValidator) MarkdownDescription(context.Context) string { return v.cat.LabelRules() }

func (v labelsValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if !tfmodel.WhollyKnown(req.ConfigValue) {
		return
	}
	name := "labels"
	if last, _ := req.Path.Steps().LastStep(); last != nil {
		if a, ok := last.(path.PathStepAttributeName); ok {
			name = string(a)
		}
	}
	// The findings are on name, under the path's parent: on req.Path.
	AppendErrors(&resp.Diagnostics, req.Path.ParentPath(), v.cat.LabelFindings(name, tfmodel.KnownStringMap(req.ConfigValue), v.reserved), Mode{})
}

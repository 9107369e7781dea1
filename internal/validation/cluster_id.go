// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// ClusterID checks that a string is a GKE cluster id,
// projects/P/locations/L/clusters/C (the id of a google_container_cluster).
type ClusterID struct{}

var _ validator.String = ClusterID{}

func (v ClusterID) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (ClusterID) MarkdownDescription(context.Context) string {
	return "must be a GKE cluster id such as `projects/my-project/locations/us-central1/clusters/serving`"
}

func (ClusterID) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, _, _, err := gcp.ParseClusterID(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Cluster ID",
			err.Error()+". Use the id of a google_container_cluster, or build it as \"projects/${var.project}/locations/${var.location}/clusters/${var.cluster}\".")
	}
}

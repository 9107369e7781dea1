// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// checkLive compares the catalog's answer with the zone's live offer
// (livecheck.Checker.TPUZones): an error when the zone does not offer the
// accelerator type, a warning when it does not list the runtime version.
// An API that does not answer leaves the catalog's answer alone.
func (d *runtimeVersionDataSource) checkLive(ctx context.Context, zone string, res catalog.RuntimeResult, mode catalog.Mode) diag.Diagnostics {
	var diags diag.Diagnostics
	fs := d.data.Live().TPUZones(ctx, d.cat, d.data.Project(), attrZone, []string{zone}, res)
	validation.Append(&diags, path.Empty(), fs, mode)
	return diags
}

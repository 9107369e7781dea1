// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// liveAPI is the part of the live availability checks the data source
// uses: the provider's *livecheck.Checker, whose cached answers every
// resource and data source of a plan share, or a fake in tests.
type liveAPI interface {
	// TPUConfigured reports whether the Cloud TPU API may be called for project.
	TPUConfigured(project string) bool
	// TPUZoneOffer lists what the Cloud TPU API offers project in zone.
	TPUZoneOffer(ctx context.Context, project, zone string) (gcp.TPUZoneOffer, error)
}

var _ liveAPI = (*livecheck.Checker)(nil)

// checkLive compares the catalog's answer with the zone's live offer
// (livecheck.TPUZoneFindings): an error when the zone does not offer the
// accelerator type, a warning when it does not list the runtime version or
// when the API refuses the list. An API that cannot be reached leaves the
// catalog's answer alone. The catalog's findings, res.Findings, are
// reported with the live ones, without the zone-list warnings the live
// answer replaces.
func (d *runtimeVersionDataSource) checkLive(ctx context.Context, live liveAPI, project, zone string, res catalog.RuntimeResult, mode validation.Mode) diag.Diagnostics {
	var diags diag.Diagnostics
	fs, answered := livecheck.TPUZoneFindings(ctx, live, d.cat, project, attrZone, []string{zone}, res)
	validation.Append(&diags, path.Empty(), append(res.Findings.WithoutZoneListsFor(answered), fs...), mode)
	return diags
}

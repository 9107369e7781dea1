// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// liveZoneFindings asks the Cloud TPU API, when the provider can reach it,
// whether each of the VM's zones offers its accelerator type and lists its
// runtime version (livecheck.Checker.TPUZones). Offline plans make no call:
// the catalog's zone lists have already given their warnings.
func (r *vmResource) liveZoneFindings(ctx context.Context, plan vmModel, res catalog.RuntimeResult) catalog.Findings {
	if r.data == nil || !known(plan.Project) {
		return nil
	}
	project := plan.Project.ValueString()
	zones, ok := listStrings(plan.Zones)
	if !ok || len(zones) == 0 || !r.data.Live().TPUConfigured(project) {
		return nil
	}
	return r.data.Live().TPUZones(ctx, catalog.Default(), project, catalog.AttrZones, zones, res)
}

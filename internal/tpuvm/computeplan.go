// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// effectiveAPI is the api m asks for: the configured one, else the
// catalog's default for the accelerator type; "" while either is unknown.
func effectiveAPI(cat *catalog.Catalog, m vmModel) string {
	return chosenAPI(cat, m.API, m.AcceleratorType)
}

// chosenAPI is api, else the catalog's default for acceleratorType; ""
// while either is unknown.
func chosenAPI(cat *catalog.Catalog, api, acceleratorType types.String) string {
	switch {
	case api.IsUnknown():
		return ""
	case !api.IsNull():
		return api.ValueString()
	case !tfmodel.Known(acceleratorType):
		return ""
	}
	return cat.DefaultAPI(acceleratorType.ValueString())
}

// planAPI plans api: the configured value; an existing VM's own API while
// accelerator_type is unchanged; else the catalog's default for the
// accelerator type. A VM whose API changes is replaced.
func (r *vmResource) planAPI(cfg vmModel, plan *vmModel, state *vmModel, resp *resource.ModifyPlanResponse) {
	switch {
	case !cfg.API.IsNull():
		plan.API = cfg.API
	case state != nil && tfmodel.Known(state.ID) && plan.AcceleratorType.Equal(state.AcceleratorType):
		plan.API = types.StringValue(apiOfID(state.ID.ValueString()))
	case tfmodel.Known(plan.AcceleratorType):
		plan.API = types.StringValue(r.catalog.DefaultAPI(plan.AcceleratorType.ValueString()))
	default:
		plan.API = types.StringUnknown()
	}
	if state == nil || !tfmodel.Known(state.ID) {
		return
	}
	instance := isInstanceID(state.ID.ValueString())
	if tfmodel.Known(plan.API) && plan.API.ValueString() != apiOfID(state.ID.ValueString()) {
		resp.RequiresReplace.Append(path.Root("api"))
	}
	if !instance {
		return
	}
	// Compute Engine changes labels, metadata and tags of a running
	// instance in place; a new description or external IP setting is a
	// new VM here.
	if !plan.Description.Equal(state.Description) {
		resp.RequiresReplace.Append(path.Root("description"))
	}
	if ips, old := wantExternalIPs(*plan), externalIPs(state.EffectiveNetwork); ips != nil && old != nil && *ips != *old {
		resp.RequiresReplace.Append(path.Root("network_config").AtName("enable_external_ips"))
	}
}

// computeEngineDiags reports the settings of m that a VM created through
// Compute Engine cannot have: they are Cloud TPU API features. Nothing is
// reported while the api or a setting is unknown.
func computeEngineDiags(ctx context.Context, cat *catalog.Catalog, m vmModel, diags *diag.Diagnostics) {
	if effectiveAPI(cat, m) != apiComputeEngine {
		return
	}
	const fix = `Remove it, or set api = "cloud_tpu" where the Cloud TPU API offers the generation.`
	refuseWith := func(p path.Path, what, fix string) {
		diags.AddAttributeError(p, "Not Available Through Compute Engine",
			what+" This TPU VM is created through Compute Engine (api = \"compute_engine\"). "+fix)
	}
	refuse := func(p path.Path, what string) { refuseWith(p, what, fix) }
	if tfmodel.Known(m.CIDRBlock) && m.CIDRBlock.ValueString() != "" {
		refuse(path.Root("cidr_block"), fmt.Sprintf("cidr_block %q is a Cloud TPU API setting: a Compute Engine instance takes "+
			"its address from its subnetwork (network_config.subnetwork).", m.CIDRBlock.ValueString()))
	}
	if tfmodel.Known(m.SliceCount) && m.SliceCount.ValueInt64() > 1 {
		refuse(path.Root("slice_count"), fmt.Sprintf("slice_count %d asks for a multislice, which is a Cloud TPU queued "+
			"resource; Compute Engine creates one single-host VM.", m.SliceCount.ValueInt64()))
	}
	if tfmodel.Known(m.Capacity) {
		var c capacityModel
		var d diag.Diagnostics
		d.Append(tfmodel.As(ctx, m.Capacity, &c, tfmodel.LenientObjectAsOptions)...)
		if mode := tfmodel.KnownString(c.Mode); !d.HasError() && mode != "" && mode != catalog.CapacityOnDemand {
			refuseWith(path.Root("capacity").AtName("mode"), fmt.Sprintf("Capacity mode %q is a Cloud TPU queued resource, "+
				"which Compute Engine does not create.", mode), capacityAdvice(mode))
		}
	}
	interfaceForwardingDiags(ctx, m, diags)
	if tfmodel.Known(m.SchedulingConfig) {
		var sc schedulingConfigModel
		var d diag.Diagnostics
		d.Append(tfmodel.As(ctx, m.SchedulingConfig, &sc, tfmodel.LenientObjectAsOptions)...)
		if !d.HasError() && tfmodel.Known(sc.Reserved) && sc.Reserved.ValueBool() {
			refuse(path.Root("scheduling_config").AtName("reserved"), "reserved is a Cloud TPU API setting: a Compute Engine "+
				"instance consumes a matching reservation that is consumed automatically, without a setting of its own.")
		}
	}
}

// capacityAdvice is the way to the capacity mode asked for when the VM is
// created through Compute Engine, which creates no queued resource.
func capacityAdvice(mode string) string {
	switch mode {
	case catalog.CapacitySpot:
		return "For a Spot VM through Compute Engine set scheduling_config { spot = true } (it does not wait for capacity: " +
			"a stockout fails the zone and the next zone is tried)."
	case catalog.CapacityReserved:
		return "A Compute Engine instance consumes a matching automatically consumed reservation by itself (its reservation " +
			"affinity defaults to any reservation): remove the capacity block to use one. To name a reservation, set " +
			"api = \"cloud_tpu\" where the Cloud TPU API offers the generation."
	case catalog.CapacityFlexStart:
		return "Flex-start TPU VMs are Cloud TPU queued resources: set api = \"cloud_tpu\" where the Cloud TPU API offers the " +
			"generation, or run the workload on a GKE node pool with flex_start = true (accel_fallback_nodepools)."
	}
	return `Remove the capacity block, or set api = "cloud_tpu" where the Cloud TPU API offers the generation.`
}

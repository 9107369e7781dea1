// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
)

// A tier's capacity evidence (tiers[*].capacity): the regional quota and
// the reservations that decide whether GKE can add a node of the tier, as
// Compute Engine reported them when the state was last written (create,
// update, refresh), with the calls of livecheck.Checker.Capacity (one
// regions.get per region and one reservations.aggregatedList per project
// and provider process). Quota usage changes outside Terraform, so the
// evidence is never planned as a change: a plan keeps the recorded value
// for a tier it does not touch (the refresh before it has read the new
// one), and shows "(known after apply)" for a tier it creates, changes or
// re-creates.

// tierCapacityModel holds the capacity attribute, embedded in tierModel.
type tierCapacityModel struct {
	Capacity types.Object `tfsdk:"capacity"`
}

// capacityAttributes is the capacity schema attribute.
func capacityAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{"capacity": schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "The tier's capacity evidence, as Compute Engine reported it when the state was last " +
			"written (create, update or refresh): the regional quota one node counts against and the reservations of " +
			"its machine type in `node_locations`. Quota usage changes outside Terraform, so a refresh records the new " +
			"values and a plan never shows them as a change; a tier the plan creates or changes shows `(known after " +
			"apply)`. Without a project and a `compute_endpoint` or credentials the provider makes no Compute Engine " +
			"call and `checked` is `false`. The plan's warnings (`Tier Has No Quota`, `Reservation Not Found`, " +
			"`Reservation Full`) come from the same evidence. Needs the permissions `compute.regions.get` and " +
			"`compute.reservations.list`; without them `checked` is `false` and the plan warns.",
		Attributes: map[string]schema.Attribute{
			"checked": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the quota or the reservations " +
				"were read live; `false` offline, or when every read was refused or failed (see `summary`)."},
			"quota_metric": schema.StringAttribute{Computed: true, MarkdownDescription: "The Compute Engine regional " +
				"quota a node of the tier counts against, such as `NVIDIA_L4_GPUS`, `PREEMPTIBLE_NVIDIA_L4_GPUS` (Spot) " +
				"or `TPU_LITE_PODSLICE_V5`, from the catalog; null when `regions.get` reports no quota for the accelerator."},
			"quota_limit": schema.Float64Attribute{Computed: true, MarkdownDescription: "The quota's limit in the " +
				"cluster's region; null when the quota was not read."},
			"quota_usage": schema.Float64Attribute{Computed: true, MarkdownDescription: "The quota's usage in the " +
				"cluster's region; null when the quota was not read."},
			"quota_headroom": schema.Float64Attribute{Computed: true, MarkdownDescription: "`quota_limit` minus " +
				"`quota_usage`, at least 0; null when the quota was not read."},
			"reservations_free": schema.Int64Attribute{Computed: true, MarkdownDescription: "Free VMs in the " +
				"reservations of the tier's machine type in its zones; null when the reservations were not read."},
			"can_provision": schema.BoolAttribute{Computed: true, MarkdownDescription: "`false` when the evidence " +
				"rules out a node (the quota has less headroom than one node, or one multi-host slice, needs; or a " +
				"specific reservation the tier must consume does not exist or is full), so every pod lands on the next " +
				"tier; `true` when nothing read rules it out; null when nothing was checked."},
			"summary": schema.StringAttribute{Computed: true, MarkdownDescription: "What was found, or why it was not " +
				"checked, in one line."},
		},
	}}
}

// capacityQuery is what one node (one slice of a multi-host TPU tier) of a
// tier asks of the live quota and reservations checks.
func capacityQuery(cat *catalog.Catalog, project, region string, zones []string, spec tierSpec) livecheck.CapacityQuery {
	n := needOf(cat, spec)
	q := livecheck.CapacityQuery{Project: project, Region: region, Accelerator: n.Accelerator, Spot: spec.Spot,
		PerNode: n.Unit(), MachineType: spec.MachineType, Zones: zones}
	if res := spec.Reservation; res != nil && res.Type == "SPECIFIC_RESERVATION" {
		q.SpecificReservations = res.Values
	}
	return q
}

// setCapacity records the capacity evidence of every tier about to be
// written to state, except the tiers of kept (an apply records them as
// planned).
func (r *fallbackNodePoolsResource) setCapacity(ctx context.Context, cluster string, tiers []tierModel, kept map[string]bool, diags *diag.Diagnostics) {
	cat := r.catalog
	project, location, _, err := gcp.ParseClusterID(cluster)
	for i := range tiers {
		t := &tiers[i]
		if kept[t.Name.ValueString()] {
			continue // recorded as planned (apply): its capacity is the plan's
		}
		spec := specOfState(ctx, cat, *t, diags)
		q := capacityQuery(cat, project, catalog.RegionOf(location), spec.Locations, spec)
		if err != nil || r.data == nil || !r.data.Live().ComputeConfigured(project) {
			t.Capacity = capacityObject(cat, q, livecheck.Capacity{Summary: "the provider has no project, or neither " +
				"credentials nor a compute_endpoint, so it made no Compute Engine call"}, diags)
			continue
		}
		// The findings (warnings) are the plan's; state only records.
		t.Capacity = capacityObject(cat, q, r.data.Live().Capacity(ctx, cat, catalog.AttrNodeLocations, q), diags)
	}
}

// capacityObject is the capacity attribute of evidence cp for query q.
func capacityObject(cat *catalog.Catalog, q livecheck.CapacityQuery, cp livecheck.Capacity, diags *diag.Diagnostics) types.Object {
	metric := types.StringNull()
	if rule, ok := cat.ComputeQuota(q.Accelerator); ok {
		metric = types.StringValue(rule.Metric(q.Spot))
	}
	limit, usage, headroom := types.Float64Null(), types.Float64Null(), types.Float64Null()
	if cp.QuotaChecked {
		limit, usage, headroom = types.Float64Value(cp.Quota.Limit), types.Float64Value(cp.Quota.Usage), types.Float64Value(cp.Headroom())
	}
	free := types.Int64Null()
	if cp.ReservationsChecked {
		free = types.Int64Value(cp.ReservationsFree())
	}
	can := types.BoolNull()
	if cp.Checked() {
		can = types.BoolValue(cp.CanProvision())
	}
	summary := cp.Summary
	if !cp.Checked() {
		summary = "capacity not checked: " + summary
	}
	v, d := types.ObjectValue(schemaTypes().capacity.AttrTypes, map[string]attr.Value{
		"checked": types.BoolValue(cp.Checked()), "quota_metric": metric, "quota_limit": limit, "quota_usage": usage,
		"quota_headroom": headroom, "reservations_free": free, "can_provision": can, "summary": types.StringValue(summary),
	})
	diags.Append(d...)
	return v
}

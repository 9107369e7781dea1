// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
)

// A tier's provisioning model beyond on-demand, Spot and reservations: GKE
// flex-start (NodeConfig.flexStart with maxRunDuration) and queued
// provisioning (NodePool.queuedProvisioning). Both are sent on create and
// re-create the pool when they change (the google provider makes them
// ForceNew too); the catalog checks them (catalog.PoolProvisioning).

// tierProvisioningModel holds the provisioning attributes, embedded in tierModel.
type tierProvisioningModel struct {
	FlexStart          types.Bool   `tfsdk:"flex_start"`
	MaxRunDuration     types.String `tfsdk:"max_run_duration"`
	QueuedProvisioning types.Bool   `tfsdk:"queued_provisioning"`
}

// provisioningAttributes are the provisioning schema attributes.
func provisioningAttributes(cat *catalog.Catalog) map[string]schema.Attribute {
	qKey, qValue := cat.QueuedTaint()
	return map[string]schema.Attribute{
		"flex_start": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "GKE flex-start (Dynamic Workload Scheduler): the cluster autoscaler obtains nodes when " +
				"capacity is found, for up to seven days each, at flex-start prices. Needs autoscaling from zero " +
				"(`min_node_count = 0`), no `spot`, and no reservation (`NO_RESERVATION`, sent when `reservation_affinity` " +
				"is left out); GPU tiers need GKE 1.32.2-gke.1652000 or later, TPU tiers 1.33.0-gke.1712000 or later and " +
				"not TPU v3 or v4. The ComputeClass lists the pool in its `nodepools` priority as for any tier (the CRD's " +
				"`flexStart` priority describes pools GKE auto-creates, which this resource does not). Changing it re-creates the pool.",
		},
		"max_run_duration": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("How long each node runs before GKE deletes it, as a Go duration in whole "+
				"seconds such as `\"24h\"`; with `flex_start`, at most %d hours (seven days, GKE's default). Changing it "+
				"re-creates the pool.", cat.GKEFlexStartMaxRunHours()),
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"queued_provisioning": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "GKE queued provisioning: nodes are obtained only through ProvisioningRequests (for " +
				"example from Kueue), all at once. Needs autoscaling from zero (`min_node_count = 0`), no `spot`, " +
				"no reservation (`NO_RESERVATION`) and GKE 1.28.3-gke.1098000 or later; GKE recommends `auto_repair = false` " +
				"(a warning otherwise). GKE taints the nodes `" + qKey + "=" + qValue + ":NoSchedule`, which the tier's " +
				"`tolerations` include. Changing it re-creates the pool.",
		},
	}
}

// provisioning is a tier's provisioning model as Go values.
type provisioning struct {
	FlexStart      bool
	MaxRunDuration string // as written; "" when left out
	Queued         bool
}

// provisioningOf reads the provisioning attributes; known is false when one
// of them is unknown.
func provisioningOf(m tierProvisioningModel) (provisioning, bool) {
	known := !m.FlexStart.IsUnknown() && !m.MaxRunDuration.IsUnknown() && !m.QueuedProvisioning.IsUnknown()
	return provisioning{FlexStart: m.FlexStart.ValueBool(), MaxRunDuration: m.MaxRunDuration.ValueString(),
		Queued: m.QueuedProvisioning.ValueBool()}, known
}

// provisioningFindings checks a tier's provisioning (catalog.PoolProvisioning).
func provisioningFindings(cat *catalog.Catalog, in tierInput, gkeVersion string) catalog.Findings {
	p := in.Provisioning
	if !p.FlexStart && !p.Queued && p.MaxRunDuration == "" {
		return nil
	}
	q := catalog.PoolProvisioningQuery{
		FlexStart: p.FlexStart, Queued: p.Queued, MaxRunDuration: p.MaxRunDuration,
		TPU: in.kind(cat) == kindTPU, GKEVersion: gkeVersion, Spot: in.Spot, MachineType: in.MachineType,
		Autoscaling: in.MinNodes != nil && in.MaxNodes != nil, NodeCountSet: in.NodeCount != nil, AutoRepair: in.AutoRepair,
	}
	if in.MinNodes != nil {
		q.MinNodes = *in.MinNodes
	}
	if q.TPU {
		if a, fs := cat.Accelerator(in.AcceleratorType); !fs.HasErrors() {
			q.Generation = a.Generation
		}
	}
	if in.Reservation != nil {
		q.ReservationType = in.Reservation.Type
	}
	return cat.PoolProvisioning(q)
}

// addProvisioningScheduling adds what a pod needs for the tier's
// provisioning model: the toleration of GKE's queued taint.
func addProvisioningScheduling(cat *catalog.Catalog, s *tierSpec) {
	if !s.Provisioning.Queued {
		return
	}
	key, value := cat.QueuedTaint()
	s.Tolerations = podspec.Union(s.Tolerations, tolerationsFor([]taint{{Key: key, Value: value, Effect: "NO_SCHEDULE"}}, nil))
}

// apiDuration converts a Go duration to GKE's seconds form ("86400s").
func apiDuration(d string) string {
	v, err := time.ParseDuration(d)
	if err != nil || d == "" {
		return ""
	}
	return strconv.FormatInt(int64(v/time.Second), 10) + "s"
}

// writeTo sets the provisioning on a create request's node pool;
// without a reservation affinity of its own, a flex-start or queued pool
// consumes no reservation.
func (p provisioning) writeTo(np *container.NodePool) {
	np.Config.FlexStart = p.FlexStart
	np.Config.MaxRunDuration = apiDuration(p.MaxRunDuration)
	if p.Queued {
		np.QueuedProvisioning = &container.QueuedProvisioning{Enabled: true}
	}
	if (p.FlexStart || p.Queued) && np.Config.ReservationAffinity == nil {
		np.Config.ReservationAffinity = &container.ReservationAffinity{ConsumeReservationType: catalog.ReservationNone}
	}
}

// provisioningOfPool reads the provisioning GKE reports for a pool.
func provisioningOfPool(np *container.NodePool) provisioning {
	p := provisioning{}
	if np.Config != nil {
		p.FlexStart = np.Config.FlexStart
		if d := np.Config.MaxRunDuration; d != "" {
			p.MaxRunDuration = goDuration(d)
		}
	}
	p.Queued = np.QueuedProvisioning != nil && np.QueuedProvisioning.Enabled
	return p
}

// goDuration writes GKE's seconds ("86400s") as the shortest Go duration in
// whole hours, minutes or seconds ("24h"); "" when it is not in that form.
func goDuration(api string) string {
	v, err := time.ParseDuration(api)
	if err != nil || v <= 0 {
		return ""
	}
	switch {
	case v%time.Hour == 0:
		return strconv.FormatInt(int64(v/time.Hour), 10) + "h"
	case v%time.Minute == 0:
		return strconv.FormatInt(int64(v/time.Minute), 10) + "m"
	}
	return strconv.FormatInt(int64(v/time.Second), 10) + "s"
}

// provisioningEqual compares two provisioning models as GKE sees them
// ("24h" and "1440m" are one duration).
func provisioningEqual(a, b provisioning) bool {
	return a.FlexStart == b.FlexStart && a.Queued == b.Queued && apiDuration(a.MaxRunDuration) == apiDuration(b.MaxRunDuration)
}

// provisioningMismatch says how a pool's provisioning model, as GKE reports
// it, differs from the one a tier creates (adoptionMismatch), or "". GKE
// cannot change flex-start or queued provisioning in place. A maximum run
// duration the tier leaves out is GKE's default, whatever GKE reports.
func provisioningMismatch(got, want provisioning) string {
	if got.FlexStart != want.FlexStart {
		return fmt.Sprintf("has flex_start = %t, not %t", got.FlexStart, want.FlexStart)
	}
	if got.Queued != want.Queued {
		return fmt.Sprintf("has queued_provisioning = %t, not %t", got.Queued, want.Queued)
	}
	if want.MaxRunDuration != "" && apiDuration(got.MaxRunDuration) != apiDuration(want.MaxRunDuration) {
		return fmt.Sprintf("has max_run_duration = %q, not %q", got.MaxRunDuration, want.MaxRunDuration)
	}
	return ""
}

// flattenProvisioning sets a tier's provisioning from the pool GKE reports.
// A value the prior state or configuration wrote keeps its spelling when GKE
// reports the same; false and an absent setting are null unless prior wrote
// false.
func flattenProvisioning(t *tierModel, prior tierModel, np *container.NodePool) {
	got := provisioningOfPool(np)
	boolOf := func(v bool, was types.Bool) types.Bool {
		if !v && (was.IsNull() || was.IsUnknown()) {
			return types.BoolNull()
		}
		return types.BoolValue(v)
	}
	t.FlexStart = boolOf(got.FlexStart, prior.FlexStart)
	t.QueuedProvisioning = boolOf(got.Queued, prior.QueuedProvisioning)
	t.MaxRunDuration = types.StringNull()
	if got.MaxRunDuration != "" {
		t.MaxRunDuration = types.StringValue(got.MaxRunDuration)
		if w := prior.MaxRunDuration.ValueString(); apiDuration(w) == apiDuration(got.MaxRunDuration) {
			t.MaxRunDuration = prior.MaxRunDuration
		}
	}
}

// provisioningValues lists the provisioning attributes (tierValues).
func provisioningValues(m tierProvisioningModel) map[string]attr.Value {
	return map[string]attr.Value{"flex_start": m.FlexStart, "max_run_duration": m.MaxRunDuration, "queued_provisioning": m.QueuedProvisioning}
}

// unknownProvisioning and nullProvisioning are every attribute unknown or null.
func unknownProvisioning() tierProvisioningModel {
	return tierProvisioningModel{FlexStart: types.BoolUnknown(), MaxRunDuration: types.StringUnknown(), QueuedProvisioning: types.BoolUnknown()}
}

func nullProvisioning() tierProvisioningModel {
	return tierProvisioningModel{FlexStart: types.BoolNull(), MaxRunDuration: types.StringNull(), QueuedProvisioning: types.BoolNull()}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
)

// clusterFindings checks a tier against its cluster at plan time: its node
// locations in the cluster's region (catalog.NodeLocationsInCluster) and,
// when the provider can reach Compute Engine, that each zone offers the
// tier's accelerator live (livecheck.Checker.PoolZones). A tier without
// node_locations is checked in the cluster's locations when GKE was read.
func (r *fallbackNodePoolsResource) clusterFindings(ctx context.Context, cat *catalog.Catalog, cluster string, live *container.Cluster, in tierInput, spec tierSpec) catalog.Findings {
	project, location, _, err := gcp.ParseClusterID(cluster)
	if err != nil {
		return nil // the cluster attribute's own validator reports it
	}
	fs := cat.NodeLocationsInCluster(location, in.Locations)
	if fs.HasErrors() || r.data == nil || !r.data.Live().ComputeConfigured(project) {
		return fs
	}
	zones := in.Locations
	if len(zones) == 0 && live != nil {
		zones = live.Locations
	}
	q := needOf(cat, spec).Pool(project, catalog.RegionOf(location), zones)
	for _, f := range r.data.Live().PoolZones(ctx, q) {
		if len(in.Locations) == 0 {
			f.Index = -1
			f.Detail = fmt.Sprintf("The tier sets no node_locations, so its pool goes to the cluster's node locations. %s", f.Detail)
		}
		fs = append(fs, f)
	}
	return fs
}

// needOf is what one node of a tier asks of the live APIs.
func needOf(cat *catalog.Catalog, spec tierSpec) livecheck.Need {
	if spec.TPU {
		return livecheck.TPUNeed(cat, spec.MachineType, spec.Topology)
	}
	return livecheck.GPUNeed(cat, spec.MachineType, spec.GPUType, spec.GPUCount)
}

// computeClassFindings checks the cluster's GKE version, when GKE was read,
// against the minimum version of custom ComputeClasses; the findings are
// on compute_class.
func computeClassFindings(cat *catalog.Catalog, cluster string, live *container.Cluster) catalog.Findings {
	if live == nil {
		return nil
	}
	fs := cat.ComputeClassVersion(live.CurrentMasterVersion)
	for i := range fs {
		fs[i].Attribute = "compute_class"
		fs[i].Detail = fmt.Sprintf("The cluster %s runs GKE %s. %s", cluster, live.CurrentMasterVersion, fs[i].Detail)
	}
	return fs
}

// capacityFindings reads, when the provider can reach Compute Engine, the
// quota and reservations evidence of a tier (livecheck.Checker.Capacity)
// and warns when the tier can never provision a node: its regional quota
// has no room for one node (one slice for a multi-host TPU tier), or the
// specific reservation it must consume does not exist or is full. Every
// pod then lands on the next tier. checked reports whether the evidence
// was read; can whether it leaves room.
func (r *fallbackNodePoolsResource) capacityFindings(ctx context.Context, cat *catalog.Catalog, cluster string, live *container.Cluster,
	in tierInput, spec tierSpec, last bool) (fs catalog.Findings, checked, can bool) {
	project, location, _, err := gcp.ParseClusterID(cluster)
	if err != nil || r.data == nil || !r.data.Live().ComputeConfigured(project) {
		return nil, false, true
	}
	zones := in.Locations
	if len(zones) == 0 && live != nil {
		zones = live.Locations
	}
	q := capacityQuery(cat, project, catalog.RegionOf(location), zones, spec)
	cp := r.data.Live().Capacity(ctx, cat, catalog.AttrNodeLocations, q)
	fs = append(fs, cp.Findings...)
	if cp.QuotaShort {
		fs = append(fs, catalog.Finding{Attribute: catalog.AttrNodeLocations, Index: -1, Value: q.Region, Severity: catalog.SeverityWarning,
			Summary: "Tier Has No Quota",
			Detail: fmt.Sprintf("The regional quota %s in %s has %g of %g left, and one node of this tier needs %d: GKE cannot add a node, "+
				"so %s. Request more quota (IAM & Admin > Quotas, metric %s) or use another region.",
				cp.Metric, q.Region, cp.Headroom(), cp.Quota.Limit, q.PerNode, fallsBack(last), cp.Metric)})
	}
	for _, name := range cp.MissingReservations {
		fs = append(fs, catalog.Finding{Attribute: "reservation_affinity", Index: -1, Value: name, Severity: catalog.SeverityWarning,
			Summary: "Reservation Not Found",
			Detail: fmt.Sprintf("The tier consumes only the reservation %q, but no reservation of that name for %s exists in %s: GKE cannot "+
				"add a node, so %s.", name, spec.MachineType, strings.Join(zones, ", "), fallsBack(last))})
	}
	for _, name := range cp.FullReservations {
		fs = append(fs, catalog.Finding{Attribute: "reservation_affinity", Index: -1, Value: name, Severity: catalog.SeverityWarning,
			Summary: "Reservation Full",
			Detail: fmt.Sprintf("The tier consumes only the reservation %q, and every VM it reserves is in use: GKE cannot add a node until "+
				"one is freed, so %s.", name, fallsBack(last))})
	}
	checked = cp.QuotaChecked || len(q.SpecificReservations) > 0
	return fs, checked, cp.CanProvision()
}

// tiersCapacity gathers, across a plan's tiers, which ones the live
// evidence says can never provision.
type tiersCapacity struct {
	checked, stuck []string
}

func (t *tiersCapacity) tier(name string, checked, can bool) {
	if !checked {
		return
	}
	t.checked = append(t.checked, name)
	if !can {
		t.stuck = append(t.stuck, name)
	}
}

// report adds the error of a plan in which every one of n tiers was checked
// and none can provision while when_unsatisfiable keeps pods Pending
// (DoNotScaleUp): the ComputeClass could never place a pod.
func (t *tiersCapacity) report(diags *diag.Diagnostics, n int, whenUnsatisfiable types.String) {
	if n == 0 || len(t.checked) != n || len(t.stuck) != n || whenUnsatisfiable.IsUnknown() ||
		whenUnsatisfiable.ValueString() != whenUnsatisfiableDoNotScaleUp {
		return
	}
	diags.AddAttributeError(path.Root("tiers"), "No Tier Can Provision",
		fmt.Sprintf("No tier can add a node: the live quota and reservation checks above rule out every tier (%s), and "+
			"when_unsatisfiable = %q keeps pods Pending when no tier can. Get quota or a reservation for one tier, add a "+
			"tier that has capacity, or set when_unsatisfiable = \"ScaleUpAnyway\" to let pods run on general-purpose nodes.",
			strings.Join(t.stuck, ", "), whenUnsatisfiableDoNotScaleUp))
}

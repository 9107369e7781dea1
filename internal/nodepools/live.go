// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// clusterFindings checks a tier against its cluster at plan time: its node
// locations in the cluster's region (catalog.NodeLocationsInCluster) and,
// when the provider can reach Compute Engine, that each zone offers the
// tier's accelerator live (livecheck.Checker.PoolZones). A tier without
// node_locations is checked in the cluster's locations when GKE was read.
// answered are the zones Compute Engine answered for.
func (r *fallbackNodePoolsResource) clusterFindings(ctx context.Context, cat *catalog.Catalog, cluster string, live *container.Cluster, in tierInput, spec tierSpec) (catalog.Findings, []string) {
	project, location, _, err := gcp.ParseClusterID(cluster)
	if err != nil {
		return nil, nil // the cluster attribute's own validator reports it
	}
	fs := cat.NodeLocationsInCluster(location, in.Locations)
	if v := in.Settings.Version; live != nil && catalog.NewerGKEVersion(v, live.CurrentMasterVersion) {
		f := tierFinding("version", v, "Node Version Newer Than the Control Plane",
			fmt.Sprintf("version = %q is newer than the control plane of %s, which runs %s, and GKE never runs nodes on a newer "+
				"version than their control plane. Upgrade the control plane first, or set version to %s or older.",
				v, cluster, live.CurrentMasterVersion, live.CurrentMasterVersion),
			"https://cloud.google.com/kubernetes-engine/versioning")
		f.Basis = catalog.BasisLive
		fs = append(fs, f)
	}
	if fs.HasErrors() || r.data == nil || !r.data.Live().ComputeConfigured(project) {
		return fs, nil
	}
	zones := in.Locations
	if len(zones) == 0 && live != nil {
		zones = live.Locations
	}
	q := needOf(cat, spec).Pool(project, catalog.RegionOf(location), zones)
	lfs, answered := r.data.Live().PoolZones(ctx, q)
	for _, f := range lfs {
		if len(in.Locations) == 0 {
			f.Index = -1
			f.Detail = fmt.Sprintf("The tier sets no node_locations, so its pool goes to the cluster's node locations. %s", f.Detail)
		}
		fs = append(fs, f)
	}
	return fs, answered
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
	fs = append(fs, cp.Blocking(q, livecheck.Unit{Name: "tier", QuotaAttr: catalog.AttrNodeLocations, ReservationAttr: "reservation_affinity",
		Then: fallsBack(last)})...)
	checked = cp.QuotaChecked || len(q.SpecificReservations) > 0
	return fs, checked, cp.CanProvision()
}

// provisionTally gathers, across a plan's tiers, which ones the live
// evidence says can never provision.
type provisionTally struct {
	checked, stuck []string
}

func (t *provisionTally) tier(name string, checked, can bool) {
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
func (t *provisionTally) report(diags *diag.Diagnostics, n int, whenUnsatisfiable types.String) {
	if n == 0 || len(t.checked) != n || len(t.stuck) != n || whenUnsatisfiable.IsUnknown() ||
		whenUnsatisfiable.ValueString() != computeclass.DoNotScaleUp {
		return
	}
	diags.AddAttributeError(path.Root("tiers"), "No Tier Can Provision",
		fmt.Sprintf("No tier can add a node: the live quota and reservation checks above rule out every tier (%s), and "+
			"when_unsatisfiable = %q keeps pods Pending when no tier can. Get quota or a reservation for one tier, add a "+
			"tier that has capacity, or set when_unsatisfiable = \"ScaleUpAnyway\" to let pods run on general-purpose nodes.",
			strings.Join(t.stuck, ", "), computeclass.DoNotScaleUp))
}

// mayBePredecessors reports whether np could belong to a resource this plan
// replaces: it carries an ownership label, or this ComputeClass's label.
func mayBePredecessors(np *container.NodePool, class types.String) bool {
	if resourceLabels(np)[ownership.LabelKey] != "" {
		return true
	}
	return np.Config != nil && !class.IsUnknown() && np.Config.Labels[catalog.LabelComputeClass] == class.ValueString()
}

// ownedOfClass reports whether np carries an ownership label (some
// accel_fallback_nodepools created it) and the label of ComputeClass class.
func ownedOfClass(np *container.NodePool, class types.String) bool {
	return np != nil && np.Config != nil && !class.IsUnknown() && resourceLabels(np)[ownership.LabelKey] != "" &&
		np.Config.Labels[catalog.LabelComputeClass] == class.ValueString()
}

// checkPlannedPools reports, from the cluster as GKE shows it at plan time,
// every tier the plan would create whose name a pool in the cluster already
// has (a warning: the apply refuses it; an error only where a replacement
// would delete this resource's pools before the refusal), and, for a resource not yet
// created, the pools that carry its ComputeClass label and an ownership
// label but no tier's name (what an interrupted apply may have left).
func checkPlannedPools(diags *diag.Diagnostics, live *container.Cluster, plan resourceModel, state *resourceModel, prior map[string]tierModel, cfgElems []attr.Value) {
	pools := map[string]*container.NodePool{}
	for _, np := range live.NodePools {
		if np != nil {
			pools[np.Name] = np
		}
	}
	// Pools of this ComputeClass that some resource created: a plan
	// without state may be the replacement of their resource.
	replacing := slices.ContainsFunc(live.NodePools, func(np *container.NodePool) bool { return ownedOfClass(np, plan.ComputeClass) })
	named := map[string]bool{}
	for i, e := range cfgElems {
		obj, ok := e.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		v, ok := obj.Attributes()["name"].(types.String)
		if !ok || v.IsUnknown() || v.IsNull() {
			continue
		}
		name := v.ValueString()
		named[name] = true
		np := pools[name]
		if np == nil {
			continue
		}
		if _, recorded := prior[name]; recorded && state != nil {
			continue
		}
		id := plan.Cluster.ValueString() + poolsSegment + name
		detail := fmt.Sprintf("Tier %q would create node pool %s, but a pool of that name exists and %s. This resource never "+
			"adopts, changes or deletes it.\n\nRename the tier, or, if this resource should manage the pool (for example one left by "+
			"an apply of this configuration that was killed before it could record it), import it with the identifier %q. "+
			handOver, name, id, ownership.Describe(resourceLabels(np)), id)
		at := path.Root("tiers").AtListIndex(i).AtName("name")
		switch {
		case state == nil && mayBePredecessors(np, plan.ComputeClass):
			// A plan without state may replace this very resource (tainted,
			// or a setting that forces replacement), whose pools its destroy
			// deletes first: the apply refuses the pool if it is still there.
			marks := "this ComputeClass's label"
			if owner := resourceLabels(np)[ownership.LabelKey]; owner != "" {
				marks = fmt.Sprintf("an owner id (%s = %q) and %s", ownership.LabelKey, owner, marks)
			}
			diags.AddAttributeWarning(at, "Node Pool Already Exists", fmt.Sprintf("Tier %q names node pool %s, which "+
				"carries %s. If this plan replaces the resource that created it (Terraform replaces a resource whose first "+
				"apply failed, which it marks tainted, and one given to -replace), its destroy deletes the pool and the create "+
				"makes it again: to keep the pools of a tainted resource, run terraform untaint on it before applying. If "+
				"another state or workspace created it, the apply refuses this resource and changes nothing of the pool.",
				name, id, marks))
		case state == nil && replacing:
			// A replacement deletes the resource's own pools before it
			// creates: stop here, before they are lost to a refused create.
			diags.AddAttributeError(at, "Node Pool Already Exists", detail+
				"\n\nThis plan may replace a resource whose pools are in the cluster (they carry an owner id and this "+
				"ComputeClass's label): its destroy would run before the create is refused, so nothing is planned.")
		case state == nil:
			// Otherwise a warning: the create refuses the resource before it
			// creates anything. An error would also stop terraform destroy,
			// whose refresh plans the whole configuration first.
			diags.AddAttributeWarning(at, "Node Pool Already Exists", detail+
				"\n\nThe apply will refuse this resource and create nothing.")
		default:
			diags.AddAttributeWarning(at, "Node Pool Already Exists", detail+
				"\n\nThe apply will refuse this tier and apply the others.")
		}
	}
	if state == nil {
		checkLeftBehind(diags, live, plan, named)
	}
}

// checkClassShared refuses, for a resource already created, a ComputeClass
// whose pools in the cluster live include some that another
// accel_fallback_nodepools created (another owner id): each resource
// renders the class's manifest from its own tiers, and the two manifests
// would overwrite each other.
//
// It is an error in a plan that changes the resource; in a plan that
// changes nothing (such as the one terraform destroy makes first, which an
// error would stop) a warning.
func checkClassShared(diags *diag.Diagnostics, live *container.Cluster, plan resourceModel, owner string, changes bool) {
	var others []string
	for _, np := range live.NodePools {
		if ownedOfClass(np, plan.ComputeClass) && resourceLabels(np)[ownership.LabelKey] != owner {
			others = append(others, fmt.Sprintf("%s (%s = %q)", np.Name, ownership.LabelKey, resourceLabels(np)[ownership.LabelKey]))
		}
	}
	if len(others) > 0 {
		add := diags.AddAttributeWarning
		if changes {
			add = diags.AddAttributeError
		}
		add(path.Root("compute_class"), "ComputeClass Shared With Another Resource",
			fmt.Sprintf("The cluster %s has node pools for ComputeClass %q that another accel_fallback_nodepools created: %s. "+
				"Each resource renders the whole ComputeClass from its own tiers, so the two manifests would overwrite each other. "+
				"Give each resource its own compute_class, or move the tiers into one resource.",
				plan.Cluster.ValueString(), plan.ComputeClass.ValueString(), strings.Join(others, ", ")))
	}
}

// checkLeftBehind warns, for a resource not yet created, about the pools of
// the cluster live that carry its ComputeClass label and an ownership label
// but no tier's name (named): what an interrupted apply may have left.
func checkLeftBehind(diags *diag.Diagnostics, live *container.Cluster, plan resourceModel, named map[string]bool) {
	if plan.ComputeClass.IsUnknown() {
		return
	}
	var left []string
	for _, np := range live.NodePools {
		if np == nil || named[np.Name] || np.Config == nil {
			continue
		}
		if ownedOfClass(np, plan.ComputeClass) {
			left = append(left, fmt.Sprintf("%s (%s = %q)", np.Name, ownership.LabelKey, resourceLabels(np)[ownership.LabelKey]))
		}
	}
	if len(left) > 0 {
		diags.AddAttributeWarning(path.Root("compute_class"), "Node Pools of This ComputeClass Left Behind",
			fmt.Sprintf("The cluster %s has node pools for ComputeClass %q that an accel_fallback_nodepools resource created and that "+
				"no tier names: %s. If an apply of this configuration was killed before it could record them, they are not "+
				"managed by any state: import them together with this resource's pools, or delete them. This resource does not touch them.",
				plan.Cluster.ValueString(), plan.ComputeClass.ValueString(), strings.Join(left, ", ")))
	}
}

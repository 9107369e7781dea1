// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"

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
	q := livecheck.PoolQuery{Project: project, Zones: zones, Region: catalog.RegionOf(location)}
	switch {
	case spec.TPU:
		q.MachineType = spec.MachineType
	case slices.ContainsFunc(cat.GPUMachineTypes(), func(m catalog.GPUMachineType) bool { return m.Name == spec.MachineType }):
		q.MachineType = spec.MachineType
	default:
		q.GPUType = spec.GPUType
	}
	for _, f := range r.data.Live().PoolZones(ctx, q) {
		if len(in.Locations) == 0 {
			f.Index = -1
			f.Detail = fmt.Sprintf("The tier sets no node_locations, so its pool goes to the cluster's node locations. %s", f.Detail)
		}
		fs = append(fs, f)
	}
	return fs
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

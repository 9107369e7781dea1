// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass

import (
	"context"

	container "google.golang.org/api/container/v1"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
)

// readCluster reads the named cluster when GKE can be reached (an endpoint
// or credentials are configured) and returns what the class's checks need;
// nil offline, without a cluster, or when the read failed (a warning says
// why; a cluster that does not exist is an error).
func (d *computeClassDataSource) readCluster(ctx context.Context, id string, diags *diag.Diagnostics) *catalog.ClassCluster {
	if id == "" || d.data == nil || !d.data.Clients.GKEConfigured() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, gcp.ClusterReadTimeout)
	defer cancel()
	api, err := d.data.Clients.NodePools(ctx, id)
	var c *container.Cluster
	if err == nil {
		c, err = api.GetCluster(ctx)
	}
	switch {
	case err == nil:
		return classCluster(id, c)
	case gcp.Classify(err) == gcp.ClassNotFound:
		diags.AddAttributeError(path.Root("cluster"), "Cluster Not Found",
			"GKE has no cluster "+id+": check the project, location and name (the id of a google_container_cluster). "+gcp.Compact(err).Error())
	default:
		diags.AddAttributeWarning(path.Root("cluster"), "Cluster Not Checked",
			"The plan could not read "+id+", so the class is checked without it (Autopilot or Standard, its version, node auto-provisioning): "+
				gcp.Compact(err).Error())
	}
	return nil
}

// classCluster is what the checks read of a GKE cluster.
func classCluster(id string, c *container.Cluster) *catalog.ClassCluster {
	out := &catalog.ClassCluster{Name: id, Version: c.CurrentMasterVersion, Autopilot: c.Autopilot != nil && c.Autopilot.Enabled,
		Locations: c.Locations}
	for _, np := range c.NodePools {
		if np != nil {
			out.Pools = append(out.Pools, np.Name)
		}
	}
	if a := c.Autoscaling; a != nil {
		out.AutoProvisioning = a.EnableNodeAutoprovisioning
		out.Limits = map[string]int64{}
		for _, l := range a.ResourceLimits {
			if l != nil {
				out.Limits[l.ResourceType] = l.Maximum
			}
		}
	}
	return out
}

// priorityNeed is what one priority asks of the cluster (catalog.ClassNeed)
// and of Compute Engine's quotas and reservations.
type priorityNeed struct {
	catalog.ClassNeed
	live         livecheck.Need // zero for a priority without an accelerator
	zones        []string       // the priority's zones; nil for the cluster's
	spot         bool
	reservations []string // the reservations it must consume (Specific)
}

// capacity reads, when the provider can reach Compute Engine, the quota and
// reservations evidence of a priority's accelerator in the cluster's region
// and zones (livecheck.Checker.Capacity, the node-pool tiers' check) and
// warns when GKE can never create a node for it.
func (d *computeClassDataSource) capacity(ctx context.Context, cl catalog.ClassCluster, n priorityNeed, last bool) catalog.Findings {
	project, location, _, err := gcp.ParseClusterID(cl.Name)
	if err != nil || n.live.Accelerator == "" || n.NodePools || d.data == nil || !d.data.Live().ComputeConfigured(project) {
		return nil
	}
	zones := n.zones
	if len(zones) == 0 {
		zones = cl.Locations
	}
	q := livecheck.CapacityQuery{Project: project, Region: catalog.RegionOf(location), Accelerator: n.live.Accelerator, Spot: n.spot,
		PerNode: n.live.Unit(), MachineType: n.live.MachineType, Zones: zones, SpecificReservations: n.reservations}
	then := "GKE tries the priorities after it"
	if last {
		then = "pods of the class stay Pending (no priority follows it)"
	}
	cp := d.data.Live().Capacity(ctx, d.cat, catalog.AttrNodeLocations, q)
	return append(cp.Findings, cp.Blocking(q, livecheck.Unit{Name: "priority", QuotaAttr: catalog.AttrNodeLocations, ReservationAttr: "reservations", Then: then})...)
}

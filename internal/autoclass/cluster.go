// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass

import (
	"context"
	"time"

	container "google.golang.org/api/container/v1"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// clusterReadTimeout bounds the plan-time read of the cluster.
const clusterReadTimeout = 15 * time.Second

// readCluster reads the named cluster when GKE can be reached (an endpoint
// or credentials are configured) and returns what the class's checks need;
// nil offline, without a cluster, or when the read failed (a warning says
// why; a cluster that does not exist is an error).
func (d *computeClassDataSource) readCluster(ctx context.Context, id string, diags *diag.Diagnostics) *catalog.ClassCluster {
	if id == "" || d.data == nil || !d.data.Clients.GKEConfigured() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, clusterReadTimeout)
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
	out := &catalog.ClassCluster{Name: id, Version: c.CurrentMasterVersion, Autopilot: c.Autopilot != nil && c.Autopilot.Enabled}
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

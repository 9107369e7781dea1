// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// poolsSegment separates the cluster id from the pool names in the resource
// id and the import id.
const poolsSegment = "/nodePools/"

// importIDFormat is the documented import id.
const importIDFormat = "projects/{project}/locations/{location}/clusters/{cluster}/nodePools/{pool-1},{pool-2},..."

// maxPoolNameLength is GKE's limit on node pool names.
const maxPoolNameLength = 40

// poolNameRE is GKE's node pool name rule.
var poolNameRE = validation.PoolNameRE

// resourceID is the id of the resource: the cluster id, then the pool names
// in tier order. It has the same form as the import id.
func resourceID(cluster string, pools []string) string {
	return cluster + poolsSegment + strings.Join(pools, ",")
}

// parseImportID splits "projects/P/locations/L/clusters/C/nodePools/a,b" into
// the cluster id and the pool names, in order.
func parseImportID(id string) (cluster string, pools []string, err error) {
	bad := func(why string) error {
		return fmt.Errorf("invalid import id %q: %s; expected %s", gcp.ShownID(id), why, importIDFormat)
	}
	if !utf8.ValidString(id) {
		// Terraform's state holds UTF-8 strings only.
		return "", nil, bad("it is not valid UTF-8")
	}
	cluster, list, ok := strings.Cut(id, poolsSegment)
	if !ok {
		return "", nil, bad("no " + strings.Trim(poolsSegment, "/") + " segment")
	}
	if _, _, _, err := gcp.ParseClusterID(cluster); err != nil {
		return "", nil, bad(err.Error())
	}
	seen := map[string]bool{}
	for p := range strings.SplitSeq(list, ",") {
		p = strings.TrimSpace(p)
		if !poolNameRE.MatchString(p) {
			return "", nil, bad(fmt.Sprintf("%q is not a GKE node pool name", gcp.ShownID(p)))
		}
		if seen[p] {
			return "", nil, bad(fmt.Sprintf("node pool %q is listed twice", gcp.ShownID(p)))
		}
		seen[p] = true
		pools = append(pools, p)
	}
	return cluster, pools, nil
}

// ImportState accepts "projects/P/locations/L/clusters/C/nodePools/a,b"; the
// tiers are rebuilt from the pools, in the order given.
func (r *fallbackNodePoolsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" { // an import block with identity instead of id
		req.ID = importIDFromIdentity(ctx, req.Identity, r.data, &resp.Diagnostics)
	}
	m, ok := importedModel(ctx, req.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(tfmodel.MarkImported(ctx, resp.Private)...)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &m)...)
}

// importedModel is the state an import of id leaves (the pools named,
// every other value null until the first Read), shared by ImportState and
// the list resource, which has no private state to mark.
func importedModel(ctx context.Context, id string, diags *diag.Diagnostics) (resourceModel, bool) {
	cluster, pools, err := parseImportID(id)
	if err != nil {
		diags.AddError("Invalid Import ID", err.Error())
		return resourceModel{}, false
	}
	tiers := make([]tierModel, len(pools))
	for i, p := range pools {
		t := nullTier()
		t.Name = types.StringValue(p)
		tiers[i] = t
	}
	m := resourceModel{
		ID:                   types.StringValue(resourceID(cluster, pools)),
		Cluster:              types.StringValue(cluster),
		ComputeClass:         types.StringNull(),
		Tiers:                tierList(ctx, tiers, diags),
		OnStockout:           types.StringNull(),
		WhenUnsatisfiable:    types.StringNull(),
		ActiveMigration:      types.BoolNull(),
		DeletionProtection:   types.BoolNull(),
		Validation:           types.StringNull(),
		OwnerID:              types.StringNull(),
		Pools:                types.MapNull(schemaTypes().poolEntry),
		ComputeClassManifest: types.StringNull(),
		NodeSelector:         types.MapNull(types.StringType),
		Tolerations:          types.ListNull(podspec.ObjectType),
	}
	m.Timeouts.Object = types.ObjectNull(schemaTypes().timeouts.AttrTypes)
	return m, !diags.HasError()
}

// nullTier is a tier with every value null, but taints: a block that is
// absent is an empty list.
func nullTier() tierModel {
	return tierModel{
		Name: types.StringNull(), AcceleratorType: types.StringNull(), MachineType: types.StringNull(),
		Topology: types.StringNull(), GPUType: types.StringNull(), GPUCount: types.Int64Null(),
		GPUDriverVersion: types.StringNull(), NodeLocations: types.ListNull(types.StringType),
		NodeCount: types.Int64Null(), MinNodeCount: types.Int64Null(), MaxNodeCount: types.Int64Null(),
		Spot: types.BoolNull(), AutoRepair: types.BoolNull(), AutoUpgrade: types.BoolNull(),
		Labels: types.MapNull(types.StringType), Taints: taintList([]taint{}),
		ReservationAffinity: types.ObjectNull(schemaTypes().reservation.AttrTypes), WorkloadPolicy: types.StringNull(),
		PlacementPolicy: types.StringNull(), PoolName: types.StringNull(), Status: types.StringNull(),
		StatusMessage: types.StringNull(), AcceleratorLabels: types.MapNull(types.StringType),
		NodeLabels: types.MapNull(types.StringType), NodeTaints: types.ListNull(schemaTypes().taint),
		EffectiveLabels: types.MapNull(types.StringType), EffectiveTaints: types.ListNull(schemaTypes().taint),
		NodeSelector: types.MapNull(types.StringType), Tolerations: types.ListNull(podspec.ObjectType),
		tierSettingsModel:     nullSettings(),
		tierProvisioningModel: nullProvisioning(),
		tierCapacityModel:     tierCapacityModel{Capacity: types.ObjectNull(schemaTypes().capacity.AttrTypes)},
		tierLocalSSDModel:     nullLocalSSD(),
		tierLabelsModel:       nullResourceLabels(),
		tierBootModel:         nullBoot(),
		tierNetworkModel:      nullNetworks(),
	}
}

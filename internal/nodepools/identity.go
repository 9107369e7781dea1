// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

var _ resource.ResourceWithIdentity = &fallbackNodePoolsResource{}

// identityModel is the resource identity of the node pools (Terraform 1.12
// and later), usable in the identity argument of an import block instead of
// an import id. node_pools lists the pools in tier order, so that an import
// by identity gives the tiers back in their order (the id lists them in
// name order). Renaming or reordering tiers, or a pool left by an
// interrupted apply that Read takes in, changes it (MutableIdentity).
type identityModel struct {
	Project   types.String `tfsdk:"project"`
	Location  types.String `tfsdk:"location"`
	Cluster   types.String `tfsdk:"cluster"`
	NodePools types.List   `tfsdk:"node_pools"`
}

func (r *fallbackNodePoolsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project": providerdata.ProjectIdentityAttribute("cluster"),
			"location": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The location (region or zone) of the cluster.",
			},
			"cluster": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The name of the cluster.",
			},
			"node_pools": identityschema.ListAttribute{
				ElementType:       types.StringType,
				RequiredForImport: true,
				Description:       "The names of the node pools, in the order of the tiers.",
			},
		},
	}
}

// identityOf is the identity of cluster's pools.
func identityOf(ctx context.Context, cluster string, pools []string, diags *diag.Diagnostics) (identityModel, bool) {
	project, location, name, err := gcp.ParseClusterID(cluster)
	if err != nil {
		return identityModel{}, false
	}
	list, d := tfmodel.ListOf(ctx, types.StringType, pools)
	diags.Append(d...)
	return identityModel{
		Project: types.StringValue(project), Location: types.StringValue(location),
		Cluster: types.StringValue(name), NodePools: list,
	}, true
}

// syncIdentity sets identity from the cluster and tiers in state (see
// providerdata.IdentitySource); deferred at the start of Create, Read and
// Update, so that every way out is covered.
func syncIdentity(ctx context.Context, state, prior *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if state = providerdata.IdentitySource(state, prior, identity); state == nil {
		return
	}
	var cluster types.String
	var list types.List
	var tiers []tierModel
	diags.Append(state.GetAttribute(ctx, path.Root("cluster"), &cluster)...)
	diags.Append(state.GetAttribute(ctx, path.Root("tiers"), &list)...)
	if !tfmodel.Known(list) || tfmodel.ElementsAs(ctx, list, &tiers).HasError() {
		// The framework's own reading, with its diagnostics at their paths.
		diags.Append(state.GetAttribute(ctx, path.Root("tiers"), &tiers)...)
	}
	pools := make([]string, 0, len(tiers))
	for _, t := range tiers {
		if t.Name.IsUnknown() || t.Name.IsNull() {
			return
		}
		pools = append(pools, t.Name.ValueString())
	}
	// No pool (a state an older release wrote after every pool was
	// refused): the cluster alone, so that the read that removes it works.
	if diags.HasError() {
		return
	}
	if m, ok := identityOf(ctx, cluster.ValueString(), pools, diags); ok {
		diags.Append(identity.Set(ctx, m)...)
	}
}

// importIDFromIdentity turns the identity of an import block into the
// import id ImportState parses; project defaults to the provider's.
func importIDFromIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, d *providerdata.Data, diags *diag.Diagnostics) string {
	if identity == nil {
		return ""
	}
	var m identityModel
	diags.Append(identity.Get(ctx, &m)...)
	var pools []string
	diags.Append(tfmodel.ElementsAs(ctx, m.NodePools, &pools)...)
	if diags.HasError() {
		return ""
	}
	project := m.Project.ValueString()
	if project == "" && d != nil {
		project = d.Project()
	}
	return resourceID(gcp.ClusterID(project, m.Location.ValueString(), m.Cluster.ValueString()), pools)
}

// setImportedDefaults sets what a first Read after an import settles: the
// compute class the pools' node labels name, and the defaults of the
// behaviour arguments.
func setImportedDefaults(m *resourceModel, tiers []tierModel, pools map[string]*container.NodePool) {
	m.ComputeClass = types.StringValue(importedClass(tiers, pools))
	m.OnStockout = types.StringValue(onStockoutContinue)
	m.WhenUnsatisfiable = types.StringValue(computeclass.DoNotScaleUp)
	m.ActiveMigration = types.BoolValue(false)
	m.DeletionProtection = types.BoolValue(false)
}

// displayPools is how a list result names its pools.
func displayPools(cluster string, pools []string) string {
	_, _, name, _ := gcp.ParseClusterID(cluster)
	return name + ": " + strings.Join(pools, ", ")
}

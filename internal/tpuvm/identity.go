// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
)

var _ resource.ResourceWithIdentity = &vmResource{}

// identityModel is the resource identity of a TPU VM (Terraform 1.12 and
// later): what names it in the Cloud TPU API, usable in the identity
// argument of an import block instead of an import id.
type identityModel struct {
	Project types.String `tfsdk:"project"`
	Zone    types.String `tfsdk:"zone"`
	Name    types.String `tfsdk:"name"`
}

func (r *vmResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project": providerdata.ProjectIdentityAttribute("TPU VM"),
			"zone": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The zone the TPU VM is in.",
			},
			"name": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The name of the TPU VM.",
			},
		},
	}
}

// syncIdentity sets identity from the id in state (see
// providerdata.IdentitySource); deferred at the start of Create, Read and
// Update, so that every way out is covered.
func syncIdentity(ctx context.Context, state, prior *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if state = providerdata.IdentitySource(state, prior, identity); state == nil {
		return
	}
	var id types.String
	diags.Append(state.GetAttribute(ctx, path.Root("id"), &id)...)
	if id.IsNull() || id.IsUnknown() {
		return
	}
	project, zone, name, _, err := parseVMID(id.ValueString())
	if err != nil {
		return
	}
	diags.Append(identity.Set(ctx, identityModel{
		Project: types.StringValue(project), Zone: types.StringValue(zone), Name: types.StringValue(name),
	})...)
}

// importIDFromIdentity turns the identity of an import block into the
// import id ImportState parses: project/zone/name, or zone/name when the
// project is left to the provider.
func importIDFromIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) string {
	if identity == nil {
		return ""
	}
	var m identityModel
	diags.Append(identity.Get(ctx, &m)...)
	if diags.HasError() {
		return ""
	}
	id := m.Zone.ValueString() + "/" + m.Name.ValueString()
	if p := m.Project.ValueString(); p != "" {
		id = p + "/" + id
	}
	return id
}

// attrSetter is the state of an import (tfsdk.State) or of a listed
// resource (tfsdk.Resource).
type attrSetter interface {
	SetAttribute(ctx context.Context, p path.Path, v any) diag.Diagnostics
}

// setImported sets what an import of node id knows before it reads the
// node: the id, project, zone and name, and the zone as the only zone.
func setImported(ctx context.Context, s attrSetter, id string) diag.Diagnostics {
	var diags diag.Diagnostics
	p, zone, name, _, _ := parseVMID(id)
	for attr, v := range map[string]string{"id": id, "project": p, "zone": zone, "name": name, "api": apiOfID(id)} {
		diags.Append(s.SetAttribute(ctx, path.Root(attr), types.StringValue(v))...)
	}
	diags.Append(s.SetAttribute(ctx, path.Root("zones"), []string{zone})...)
	return diags
}

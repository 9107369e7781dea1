// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package providerdata

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ProjectIdentityAttribute is the project attribute of a resource identity:
// optional in an import block, where the provider's project fills it in.
func ProjectIdentityAttribute(of string) identityschema.StringAttribute {
	return identityschema.StringAttribute{
		OptionalForImport: true,
		Description:       "The project of the " + of + "; on import, the provider's project when omitted.",
	}
}

// ListProjectAttribute is the project argument of a list block; see
// ListProject.
func ListProjectAttribute() listschema.StringAttribute {
	return listschema.StringAttribute{
		Optional:    true,
		Description: "The project to list; the provider's project when omitted.",
	}
}

// IdentitySource is the state a resource sets its identity from once
// Create, Read or Update is done: state, or prior (the state Read was
// given) when Read removed the resource, because the framework wants an
// identity even then. It is nil when there is nothing to set: no identity
// to fill, or neither state has a value. Terraform before 1.12 ignores the
// identity.
func IdentitySource(state, prior *tfsdk.State, identity *tfsdk.ResourceIdentity) *tfsdk.State {
	if identity == nil {
		return nil
	}
	if state.Raw.IsNull() && prior != nil {
		state = prior
	}
	if state.Raw.IsNull() {
		return nil
	}
	return state
}

// ListProject is the project a list block (terraform query) lists: its
// project argument, else the provider's. Without either it adds an error
// on project and returns "".
func ListProject(d *Data, project types.String, diags *diag.Diagnostics) string {
	if p := project.ValueString(); p != "" {
		return p
	}
	if d != nil && d.Project() != "" {
		return d.Project()
	}
	if !diags.HasError() {
		diags.AddAttributeError(path.Root("project"), "Missing Project",
			"The list block sets no project and the provider has none: set project in the list block's config or in the provider.")
	}
	return ""
}

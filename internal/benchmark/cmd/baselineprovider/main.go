// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command baselineprovider is the smallest terraform-plugin-framework
// provider: one resource, baseline_thing, whose create records its name. The
// benchmarks plan it next to the real provider to separate what any
// framework provider costs Terraform (process start-up, plugin handshake,
// schema) from what this provider adds.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ provider.Provider = &baselineProvider{}
	_ resource.Resource = &thingResource{}
)

func main() {
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return &baselineProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/accel-dev/baseline"}); err != nil {
		log.Fatal(err)
	}
}

type baselineProvider struct{}

func (p *baselineProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "baseline"
}

func (p *baselineProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {
}

func (p *baselineProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *baselineProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thingResource{} }}
}

func (p *baselineProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type thingResource struct{}

type thingModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}

func (r *thingResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (r *thingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true},
	}}
}

func (r *thingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *thingResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *thingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *thingResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

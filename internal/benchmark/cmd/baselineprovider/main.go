// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command baselineprovider is the baseline of the plan benchmarks: a
// terraform-plugin-framework provider whose resources do nothing of their
// own. baseline_thing is the smallest resource (two attributes), what any
// framework provider costs Terraform (process start-up, plugin handshake,
// schema). baseline_tpu_vm and baseline_fallback_nodepools have the bare
// schemas (benchmark.BareSchema) of accel_tpu_vm and
// accel_fallback_nodepools: the same attributes and blocks with no
// validator, plan modifier, default, ValidateConfig or ModifyPlan, what
// Terraform and the framework cost for resources of that size. The
// benchmarks plan them next to the real provider to separate that cost
// from what this provider adds.
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
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/nodepools"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
)

var (
	_ provider.Provider = &baselineProvider{}
	_ resource.Resource = &thingResource{}
	_ resource.Resource = &bareResource{}
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
	return []func() resource.Resource{
		func() resource.Resource { return &thingResource{} },
		func() resource.Resource { return &bareResource{suffix: "_tpu_vm", of: tpuvm.NewResource(nil)} },
		func() resource.Resource {
			return &bareResource{suffix: "_fallback_nodepools", of: nodepools.NewResource(nil)}
		},
	}
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

// bareResource serves the bare schema of another resource, named after it
// (baseline<suffix>), and stores its plan, with null for every value left
// unknown, as its state.
type bareResource struct {
	suffix string
	of     resource.Resource
}

func (r *bareResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.suffix
}

func (r *bareResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	var full resource.SchemaResponse
	r.of.Schema(ctx, req, &full)
	resp.Diagnostics.Append(full.Diagnostics...)
	s, err := benchmark.BareSchema(full.Schema)
	if err != nil {
		resp.Diagnostics.AddError("Bare Schema", err.Error())
		return
	}
	resp.Schema = s
}

func (r *bareResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	v, err := tftypes.Transform(req.Plan.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		resp.Diagnostics.AddError("Create", err.Error())
		return
	}
	resp.State.Raw = v
}

func (r *bareResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *bareResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (r *bareResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

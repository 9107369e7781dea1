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
//
// Installed as terraform-provider-baseline, it keeps the framework's default
// logging (every line at TRACE, which Terraform parses and drops when
// logging is off), as most framework providers do; installed under the name
// terraform-provider-baselinequiet (the same binary), its type name is
// baselinequiet and it turns those unrequested logs off as the accel
// provider does (provider.QuietUnrequestedLogs).
package main

import (
	"context"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/nodepools"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
)

var (
	_ fwprovider.Provider = &baselineProvider{}
	_ resource.Resource   = &thingResource{}
)

// quietName is the type name under which the baseline provider turns
// unrequested logs off.
const quietName = "baselinequiet"

func main() {
	name := "baseline"
	if strings.TrimPrefix(filepath.Base(os.Args[0]), "terraform-provider-") == quietName {
		name = quietName
		provider.QuietUnrequestedLogs(os.Environ(), os.Setenv)
	}
	if err := providerserver.Serve(context.Background(), func() fwprovider.Provider { return &baselineProvider{name: name} },
		providerserver.ServeOpts{Address: "registry.terraform.io/accel-dev/" + name}); err != nil {
		log.Fatal(err)
	}
}

type baselineProvider struct{ name string }

func (p *baselineProvider) Metadata(_ context.Context, _ fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	resp.TypeName = p.name
}

func (p *baselineProvider) Schema(context.Context, fwprovider.SchemaRequest, *fwprovider.SchemaResponse) {
}

func (p *baselineProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

func (p *baselineProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &thingResource{} },
		func() resource.Resource {
			return benchmark.NewBareResource("_tpu_vm", tpuvm.NewResource(catalog.Default(), nil))
		},
		func() resource.Resource {
			return benchmark.NewBareResource("_fallback_nodepools", nodepools.NewResource(catalog.Default(), nil))
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

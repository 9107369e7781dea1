// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
)

// rpcServer is a configured provider server, served in process, and the
// schemas it announced.
type rpcServer struct {
	srv    tfprotov6.ProviderServer
	schema *tfprotov6.GetProviderSchemaResponse
}

func newRPCServer(tb testing.TB) *rpcServer {
	tb.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("bench")())()
	if err != nil {
		tb.Fatal(err)
	}
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	s := &rpcServer{srv: srv, schema: schema}
	cfg := s.value(tb, schema.Provider, map[string]tftypes.Value{
		"project": tftypes.NewValue(tftypes.String, "bench-project"),
		"zone":    tftypes.NewValue(tftypes.String, "us-central1-a"),
	})
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg})
	if err != nil {
		tb.Fatal(err)
	}
	failOnDiagnostics(tb, "ConfigureProvider", resp.Diagnostics)
	return s
}

// value is a DynamicValue of schema with the given attributes set and every
// other attribute null.
func (s *rpcServer) value(tb testing.TB, schema *tfprotov6.Schema, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	tb.Helper()
	dv, err := tfprotov6.NewDynamicValue(schema.ValueType(), objectOf(tb, schema.ValueType(), set))
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

// objectOf is a value of object type typ with the given attributes set and
// every other one null.
func objectOf(tb testing.TB, typ tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	tb.Helper()
	o, ok := typ.(tftypes.Object)
	if !ok {
		tb.Fatalf("type is %T, not an object", typ)
	}
	vals := map[string]tftypes.Value{}
	for name, at := range o.AttributeTypes {
		if v, ok := set[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(o, vals)
}

func failOnDiagnostics(tb testing.TB, rpc string, diags []*tfprotov6.Diagnostic) {
	tb.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			tb.Fatalf("%s: %s: %s", rpc, d.Summary, d.Detail)
		}
	}
}

// tpuVMConfig is one accel_tpu_vm as a plan would send it.
func (s *rpcServer) tpuVMConfig(tb testing.TB) *tfprotov6.DynamicValue {
	return s.value(tb, s.schema.ResourceSchemas["accel_tpu_vm"], map[string]tftypes.Value{
		"name":             tftypes.NewValue(tftypes.String, "bench-vm"),
		"accelerator_type": tftypes.NewValue(tftypes.String, "v5litepod-4"),
		"zones": tftypes.NewValue(tftypes.List{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "us-central1-a")}),
	})
}

// BenchmarkGetProviderSchema is a fresh provider server's first schema
// answer: what every Terraform command waits for after starting the provider.
func BenchmarkGetProviderSchema(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		srv, err := providerserver.NewProtocol6WithError(provider.New("bench")())()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
			b.Fatal(err)
		}
	}
}

// tpuVMServers are the servers the in-process benchmarks of accel_tpu_vm
// compare, by name, each serving accel_tpu_vm's protocol schema under the
// type name given: this provider; the framework with the bare schema and no
// behaviour (what cmd/baselineprovider serves as baseline_tpu_vm); and the
// plugin protocol alone (RawServer, what cmd/rawprovider serves as
// raw_tpu_vm).
func tpuVMServers(b *testing.B) []struct {
	name, typeName string
	srv            tfprotov6.ProviderServer
} {
	b.Helper()
	s := newRPCServer(b)
	bare, err := providerserver.NewProtocol6WithError(&bareProvider{})()
	if err != nil {
		b.Fatal(err)
	}
	raw := benchmark.NewRawServer(map[string]*tfprotov6.Schema{"raw_tpu_vm": s.schema.ResourceSchemas["accel_tpu_vm"]})
	return []struct {
		name, typeName string
		srv            tfprotov6.ProviderServer
	}{{"accel", "accel_tpu_vm", s.srv}, {"framework_bare_schema", "baseline_tpu_vm", bare}, {"raw_protocol", "raw_tpu_vm", raw}}
}

// bareProvider serves baseline_tpu_vm as cmd/baselineprovider does; with
// wrap, the resource wrap makes of it.
type bareProvider struct {
	wrap func(resource.Resource) resource.Resource
}

func (p *bareProvider) Metadata(_ context.Context, _ fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	resp.TypeName = "baseline"
}
func (p *bareProvider) Schema(context.Context, fwprovider.SchemaRequest, *fwprovider.SchemaResponse) {
}
func (p *bareProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}
func (p *bareProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource {
		r := benchmark.NewBareResource("_tpu_vm", tpuvm.NewResource(catalog.Default(), nil))
		if p.wrap != nil {
			r = p.wrap(r)
		}
		return r
	}}
}
func (p *bareProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// BenchmarkValidateResourceConfig_tpuVM is one accel_tpu_vm's validation,
// run twice per resource by terraform plan, beside the framework's and the
// protocol's floor for its schema.
func BenchmarkValidateResourceConfig_tpuVM(b *testing.B) {
	s := newRPCServer(b)
	ctx := context.Background()
	cfg := s.tpuVMConfig(b)
	for _, c := range tpuVMServers(b) {
		b.Run(c.name, func(b *testing.B) {
			req := &tfprotov6.ValidateResourceConfigRequest{TypeName: c.typeName, Config: cfg}
			for b.Loop() {
				resp, err := c.srv.ValidateResourceConfig(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				failOnDiagnostics(b, "ValidateResourceConfig", resp.Diagnostics)
			}
		})
	}
}

// BenchmarkPlanResourceChange_tpuVM is one accel_tpu_vm planned for create,
// beside the framework's and the protocol's floor for its schema.
func BenchmarkPlanResourceChange_tpuVM(b *testing.B) {
	s := newRPCServer(b)
	ctx := context.Background()
	cfg := s.tpuVMConfig(b)
	typ := s.schema.ResourceSchemas["accel_tpu_vm"].ValueType()
	priorNull, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range tpuVMServers(b) {
		b.Run(c.name, func(b *testing.B) {
			req := &tfprotov6.PlanResourceChangeRequest{
				TypeName: c.typeName, Config: cfg, ProposedNewState: cfg, PriorState: &priorNull,
			}
			for b.Loop() {
				resp, err := c.srv.PlanResourceChange(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				failOnDiagnostics(b, "PlanResourceChange", resp.Diagnostics)
			}
		})
	}
}

// BenchmarkReadDataSource_runtimeVersion is one accel_runtime_version read
// offline (from the catalog alone).
func BenchmarkReadDataSource_runtimeVersion(b *testing.B) {
	s := newRPCServer(b)
	ctx := context.Background()
	cfg := s.value(b, s.schema.DataSourceSchemas["accel_runtime_version"], map[string]tftypes.Value{
		"accelerator_type": tftypes.NewValue(tftypes.String, "v5litepod-4"),
		"zone":             tftypes.NewValue(tftypes.String, "us-central1-a"),
	})
	req := &tfprotov6.ReadDataSourceRequest{TypeName: "accel_runtime_version", Config: cfg}
	for b.Loop() {
		resp, err := s.srv.ReadDataSource(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		failOnDiagnostics(b, "ReadDataSource", resp.Diagnostics)
	}
}

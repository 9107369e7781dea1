// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// computedOutputs are accel_tpu_vm's top-level attributes that only the
// provider sets: what a smaller top-level schema would group.
var computedOutputs = []string{
	"zone", "terraform_labels", "effective_labels", "state", "health", "health_description", "network_endpoints",
	"effective_network_config", "effective_service_account", "generation", "chips", "hosts", "queued_resource_state",
	"slice_nodes", "create_time",
}

// shapedResource is the bare accel_tpu_vm (no validators, plan modifiers or
// behaviour) with its computed outputs left at the top level (flat) or
// moved into one computed nested object (grouped).
type shapedResource struct {
	resource.Resource
	grouped bool
}

func (r *shapedResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.Resource.Schema(ctx, req, resp)
	if !r.grouped || resp.Diagnostics.HasError() {
		return
	}
	attrs := map[string]schema.Attribute{}
	for name, a := range resp.Schema.Attributes {
		attrs[name] = a
	}
	status := map[string]schema.Attribute{}
	for _, name := range computedOutputs {
		status[name] = attrs[name]
		delete(attrs, name)
	}
	attrs["status"] = schema.SingleNestedAttribute{Computed: true, Attributes: status}
	resp.Schema.Attributes = attrs
}

// BenchmarkPlanResourceChange_tpuVMSchemaShape measures what the framework
// alone costs to plan one accel_tpu_vm for create with its schema as it is
// (flat: 32 top-level attributes) and with the 15 computed outputs grouped
// in one nested object (grouped: 18), the same configuration for both: the
// gain a smaller top-level schema would bring, before Terraform's own work.
func BenchmarkPlanResourceChange_tpuVMSchemaShape(b *testing.B) {
	ctx := context.Background()
	for _, shape := range []struct {
		name    string
		grouped bool
	}{{"flat", false}, {"grouped", true}} {
		b.Run(shape.name, func(b *testing.B) {
			srv, err := providerserver.NewProtocol6WithError(&bareProvider{wrap: func(r resource.Resource) resource.Resource {
				return &shapedResource{Resource: r, grouped: shape.grouped}
			}})()
			if err != nil {
				b.Fatal(err)
			}
			sch, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
			if err != nil {
				b.Fatal(err)
			}
			s := &rpcServer{srv: srv, schema: sch}
			rs := sch.ResourceSchemas["baseline_tpu_vm"]
			cfg := s.value(b, rs, map[string]tftypes.Value{
				"name":             tftypes.NewValue(tftypes.String, "bench-vm"),
				"accelerator_type": tftypes.NewValue(tftypes.String, "v5litepod-4"),
				"zones": tftypes.NewValue(tftypes.List{ElementType: tftypes.String},
					[]tftypes.Value{tftypes.NewValue(tftypes.String, "us-central1-a")}),
			})
			typ := rs.ValueType()
			null, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
			if err != nil {
				b.Fatal(err)
			}
			req := &tfprotov6.PlanResourceChangeRequest{TypeName: "baseline_tpu_vm", Config: cfg, ProposedNewState: cfg, PriorState: &null}
			b.ReportMetric(float64(len(rs.Block.Attributes)+len(rs.Block.BlockTypes)), "top-level")
			for b.Loop() {
				resp, err := srv.PlanResourceChange(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				failOnDiagnostics(b, "PlanResourceChange", resp.Diagnostics)
			}
		})
	}
}

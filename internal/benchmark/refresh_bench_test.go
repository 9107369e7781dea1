// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
)

// refreshServer is a provider server configured against a fresh emulator
// (instant operations), holding one accel_tpu_vm it created, and that VM's
// configuration and state.
type refreshServer struct {
	*rpcServer
	config, state *tfprotov6.DynamicValue
}

func newRefreshServer(b *testing.B) *refreshServer {
	b.Helper()
	emu, err := benchmark.StartScaleEmulator(0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = emu.Close() })
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("bench")())()
	if err != nil {
		b.Fatal(err)
	}
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	s := &refreshServer{rpcServer: &rpcServer{srv: srv, schema: schema}}
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: s.value(b, schema.Provider, map[string]tftypes.Value{
		"project": str("bench-project"), "zone": str("us-central1-a"),
		"tpu_endpoint": str(emu.TPUEndpoint()), "compute_endpoint": str(emu.ComputeEndpoint()),
		"container_endpoint": str(emu.ContainerEndpoint()),
	})})
	if err != nil {
		b.Fatal(err)
	}
	failOnDiagnostics(b, "ConfigureProvider", resp.Diagnostics)

	s.config = s.tpuVMConfig(b)
	typ := schema.ResourceSchemas["accel_tpu_vm"].ValueType()
	null, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		b.Fatal(err)
	}
	plan, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: "accel_tpu_vm", Config: s.config, ProposedNewState: s.config, PriorState: &null})
	if err != nil {
		b.Fatal(err)
	}
	failOnDiagnostics(b, "PlanResourceChange", plan.Diagnostics)
	applied, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "accel_tpu_vm", Config: s.config, PlannedState: plan.PlannedState, PriorState: &null, PlannedPrivate: plan.PlannedPrivate})
	if err != nil {
		b.Fatal(err)
	}
	failOnDiagnostics(b, "ApplyResourceChange", applied.Diagnostics)
	s.state = applied.NewState
	return s
}

// BenchmarkReadResource_tpuVM is the refresh of one accel_tpu_vm that
// exists, against the emulator on loopback: what terraform plan with state
// costs the provider per VM before it plans. The zone's list is shared by
// every read after the first (as the VMs of one zone share it in a plan).
func BenchmarkReadResource_tpuVM(b *testing.B) {
	s := newRefreshServer(b)
	ctx := context.Background()
	req := &tfprotov6.ReadResourceRequest{TypeName: "accel_tpu_vm", CurrentState: s.state}
	for b.Loop() {
		resp, err := s.srv.ReadResource(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		failOnDiagnostics(b, "ReadResource", resp.Diagnostics)
	}
}

// BenchmarkPlanResourceChange_tpuVMWithState is the plan of one
// accel_tpu_vm that exists and does not change: the plan after a refresh.
func BenchmarkPlanResourceChange_tpuVMWithState(b *testing.B) {
	s := newRefreshServer(b)
	ctx := context.Background()
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: "accel_tpu_vm", Config: s.config, ProposedNewState: s.state, PriorState: s.state}
	for b.Loop() {
		resp, err := s.srv.PlanResourceChange(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		failOnDiagnostics(b, "PlanResourceChange", resp.Diagnostics)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
)

// rawPlan plans cfg, a value of schema, for create with a RawServer of
// that schema and returns the planned state.
func rawPlan(t *testing.T, schema *tfprotov6.Schema, cfg tftypes.Value) tftypes.Value {
	t.Helper()
	srv := benchmark.NewRawServer(map[string]*tfprotov6.Schema{"raw_x": schema})
	typ := schema.ValueType()
	dv, err := tfprotov6.NewDynamicValue(typ, cfg)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "raw_x", Config: &dv})
	if err != nil || len(v.Diagnostics) > 0 {
		t.Fatalf("ValidateResourceConfig = %v, %v; want no diagnostics", v.Diagnostics, err)
	}
	resp, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: "raw_x", Config: &dv, ProposedNewState: &dv, PriorState: &prior,
	})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "PlanResourceChange", resp.Diagnostics)
	planned, err := resp.PlannedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return planned
}

// checkPlanned: in planned, every computed attribute of b that cfg leaves
// null is unknown and every other attribute is cfg's, in the blocks too.
func checkPlanned(t *testing.T, path string, b *tfprotov6.SchemaBlock, cfg, planned tftypes.Value) int {
	t.Helper()
	var c, p map[string]tftypes.Value
	if err := cfg.As(&c); err != nil {
		t.Fatal(err)
	}
	if err := planned.As(&p); err != nil {
		t.Fatal(err)
	}
	unknown := 0
	for _, a := range b.Attributes {
		switch {
		case a.Computed && c[a.Name].IsNull():
			if p[a.Name].IsKnown() {
				t.Errorf("%s%s: planned %v, want unknown (computed, null in the configuration)", path, a.Name, p[a.Name])
			}
			unknown++
		case !p[a.Name].Equal(c[a.Name]):
			t.Errorf("%s%s: planned %v, want the configuration's %v", path, a.Name, p[a.Name], c[a.Name])
		}
	}
	for _, bt := range b.BlockTypes {
		cv, pv := c[bt.TypeName], p[bt.TypeName]
		if cv.IsNull() || bt.Nesting != tfprotov6.SchemaNestedBlockNestingModeList {
			if !pv.Equal(cv) {
				t.Errorf("%s%s: planned %v, want the configuration's %v", path, bt.TypeName, pv, cv)
			}
			continue
		}
		var cl, pl []tftypes.Value
		if err := cv.As(&cl); err != nil {
			t.Fatal(err)
		}
		if err := pv.As(&pl); err != nil {
			t.Fatal(err)
		}
		if len(pl) != len(cl) {
			t.Fatalf("%s%s: %d planned elements, want %d", path, bt.TypeName, len(pl), len(cl))
		}
		for i := range cl {
			unknown += checkPlanned(t, path+bt.TypeName+"[i].", bt.Block, cl[i], pl[i])
		}
	}
	return unknown
}

// TestRawServerPlan: the raw provider plans a create of accel_tpu_vm's and
// accel_fallback_nodepools' schemas as every provider must, the
// configuration with each computed value it leaves null unknown (nested
// attributes and blocks included), and changes nothing else.
func TestRawServerPlan(t *testing.T) {
	t.Parallel()
	s := newRPCServer(t)
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	strList := func(v string) tftypes.Value {
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str(v)})
	}

	vm := s.schema.ResourceSchemas["accel_tpu_vm"]
	cfg := objectOf(t, vm.ValueType(), map[string]tftypes.Value{
		"name": str("bench-vm"), "accelerator_type": str("v5litepod-4"), "zones": strList("us-central1-a"),
		"runtime_version": str("v2-alpha-tpuv5-lite"),
	})
	if n := checkPlanned(t, "", vm.Block, cfg, rawPlan(t, vm, cfg)); n < 10 {
		t.Errorf("accel_tpu_vm: %d unknown attributes planned, want every computed one the configuration leaves null (at least 10)", n)
	}

	np := s.schema.ResourceSchemas["accel_fallback_nodepools"]
	tiersType := np.ValueType().(tftypes.Object).AttributeTypes["tiers"].(tftypes.List) //nolint:forcetypeassert // the schema's
	tier := func(name string) tftypes.Value {
		return objectOf(t, tiersType.ElementType, map[string]tftypes.Value{
			"name": str(name), "accelerator_type": str("v6e-4"), "node_locations": strList("us-central1-b"),
		})
	}
	cfg = objectOf(t, np.ValueType(), map[string]tftypes.Value{
		"cluster": str("projects/p/locations/us-central1/clusters/c"), "compute_class": str("bench"),
		"tiers": tftypes.NewValue(tiersType, []tftypes.Value{tier("a"), tier("b")}),
	})
	planned := rawPlan(t, np, cfg)
	top := 0
	for _, a := range np.Block.Attributes {
		if a.Computed {
			top++
		}
	}
	if n := checkPlanned(t, "", np.Block, cfg, planned); n <= top {
		t.Errorf("accel_fallback_nodepools: %d unknown attributes planned, want the tiers' computed ones too (more than %d)", n, top)
	}
}

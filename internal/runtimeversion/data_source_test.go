// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

func TestSchemaModelParity(t *testing.T) {
	t.Parallel()
	ds := NewDataSource(catalog.Default(), &validation.Modes{})
	var resp datasource.SchemaResponse
	ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	if diags := resp.Schema.ValidateImplementation(context.Background()); diags.HasError() {
		t.Fatalf("schema is invalid: %v", diags)
	}
	for _, p := range tfmodel.SchemaProblems("data source", resp.Schema.Attributes, resp.Schema.Blocks, runtimeVersionModel{}) {
		t.Error(p)
	}
}

func TestQueryFrom(t *testing.T) {
	t.Parallel()
	base := func() runtimeVersionModel {
		return runtimeVersionModel{
			AcceleratorType:  types.StringValue("v6e-4"),
			Framework:        types.StringNull(),
			FrameworkVersion: types.StringNull(),
			Zone:             types.StringNull(),
			RuntimeVersion:   types.StringNull(),
			Validation:       types.StringNull(),
		}
	}
	tests := map[string]struct {
		edit      func(*runtimeVersionModel)
		want      catalog.RuntimeQuery
		wantKnown bool
	}{
		"accelerator type only": {
			edit:      func(*runtimeVersionModel) {},
			want:      catalog.RuntimeQuery{AcceleratorType: "v6e-4"},
			wantKnown: true,
		},
		"every input": {
			edit: func(m *runtimeVersionModel) {
				m.Framework = types.StringValue("tensorflow")
				m.FrameworkVersion = types.StringValue("2.16.1")
				m.Zone = types.StringValue("us-central1-b")
				m.RuntimeVersion = types.StringValue("tpu-vm-tf-2.16.1-pjrt")
			},
			want: catalog.RuntimeQuery{
				AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.16.1",
				RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt", Zones: []string{"us-central1-b"},
			},
			wantKnown: true,
		},
		"empty zone means no zone": {
			edit:      func(m *runtimeVersionModel) { m.Zone = types.StringValue("") },
			want:      catalog.RuntimeQuery{AcceleratorType: "v6e-4"},
			wantKnown: true,
		},
		"unknown accelerator type": {
			edit: func(m *runtimeVersionModel) { m.AcceleratorType = types.StringUnknown() },
		},
		"unknown zone": {
			edit: func(m *runtimeVersionModel) { m.Zone = types.StringUnknown() },
		},
		"unknown runtime version": {
			edit: func(m *runtimeVersionModel) { m.RuntimeVersion = types.StringUnknown() },
		},
		"unknown validation does not block": {
			edit:      func(m *runtimeVersionModel) { m.Validation = types.StringUnknown() },
			want:      catalog.RuntimeQuery{AcceleratorType: "v6e-4"},
			wantKnown: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := base()
			tc.edit(&m)
			got, known := queryFrom(m)
			if known != tc.wantKnown {
				t.Fatalf("known = %v, want %v", known, tc.wantKnown)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveMovesZoneFindings(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	q := catalog.RuntimeQuery{AcceleratorType: "v4-8", Zones: []string{"europe-west4-a"}}
	direct := cat.ResolveRuntime(q)
	got := runtimeOf(cat, q)
	if len(got.Findings) == 0 || len(got.Findings) != len(direct.Findings) {
		t.Fatalf("findings = %v, want the catalog's %v", got.Findings, direct.Findings)
	}
	for i, f := range got.Findings {
		want := direct.Findings[i]
		if want.Attribute == catalog.AttrZones {
			want.Attribute = attrZone
			want.Index = -1
		}
		if diff := cmp.Diff(want, f); diff != "" {
			t.Errorf("finding %d (-want +got):\n%s", i, diff)
		}
	}
	if direct.Findings[0].Attribute != catalog.AttrZones {
		t.Errorf("catalog finding attribute = %q; the remapping is not exercised", direct.Findings[0].Attribute)
	}
}

func TestFlatten(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	ctx := context.Background()
	tests := map[string]struct {
		query          catalog.RuntimeQuery
		runtimeVersion types.String
		want           func(*runtimeVersionModel)
	}{
		"v2 has no GKE layout": {
			query:          catalog.RuntimeQuery{AcceleratorType: "v2-8"},
			runtimeVersion: types.StringNull(),
			want: func(m *runtimeVersionModel) {
				m.RuntimeVersion = types.StringValue("tpu-ubuntu2204-base")
				m.Candidates = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("tpu-ubuntu2204-base")})
				m.Generation = types.StringValue("v2")
				m.TensorCores = types.Int64Value(8)
				m.Chips = types.Int64Value(4)
				m.Hosts = types.Int64Value(1)
				m.ChipsPerHost = types.Int64Value(4)
				m.Topology = types.StringValue("2x2")
				m.MultiHost = types.BoolValue(false)
				m.TPUAPISupported = types.BoolValue(true)
				m.GKEMachineType = types.StringNull()
				m.GKEAccelerator = types.StringNull()
				m.GKENodeCount = types.Int64Null()
				m.CEMachineType, m.CEImage = types.StringNull(), types.StringNull()
				m.ID = types.StringValue("v2-8/tpu-ubuntu2204-base")
			},
		},
		"given runtime version is kept": {
			query:          catalog.RuntimeQuery{AcceleratorType: "v6e-16", RuntimeVersion: "tpu-vm-tf-2.16.1-pod-pjrt"},
			runtimeVersion: types.StringValue("tpu-vm-tf-2.16.1-pod-pjrt"),
			want: func(m *runtimeVersionModel) {
				m.Generation = types.StringValue("v6e")
				m.TensorCores = types.Int64Value(16)
				m.Chips = types.Int64Value(16)
				m.Hosts = types.Int64Value(4)
				m.ChipsPerHost = types.Int64Value(4)
				m.Topology = types.StringValue("4x4")
				m.MultiHost = types.BoolValue(true)
				m.TPUAPISupported = types.BoolValue(true)
				m.GKEMachineType = types.StringValue("ct6e-standard-4t")
				m.GKEAccelerator = types.StringValue("tpu-v6e-slice")
				m.GKENodeCount = types.Int64Value(4)
				// Multi-host: Compute Engine does not create it as one instance.
				m.CEMachineType, m.CEImage = types.StringNull(), types.StringNull()
				m.ID = types.StringValue("v6e-16/tpu-vm-tf-2.16.1-pod-pjrt")
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := runtimeVersionModel{
				AcceleratorType: types.StringValue(tc.query.AcceleratorType),
				RuntimeVersion:  tc.runtimeVersion,
			}
			res := runtimeOf(cat, tc.query)
			if res.Findings.HasErrors() {
				t.Fatalf("unexpected catalog errors: %v", res.Findings)
			}
			got, diags := flatten(ctx, cat, cfg, res)
			if diags.HasError() {
				t.Fatalf("flatten: %v", diags)
			}
			want := cfg
			tc.want(&want)
			want.Reason = types.StringValue(res.Reason)
			want.CatalogVersion = types.StringValue(cat.Version())
			if want.Candidates.IsNull() {
				want.Candidates, _ = types.ListValueFrom(ctx, types.StringType, res.Candidates)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
			if got.Reason.ValueString() == "" {
				t.Error("reason is empty")
			}
		})
	}
}

// TestFlattenComputeEngine: a type Compute Engine creates as one instance
// reports its machine type and the catalog's boot image; others none.
func TestFlattenComputeEngine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := catalog.Default()
	for acc, wantMachine := range map[string]string{"tpu7x-8": "tpu7x-standard-4t", "v6e-4": "ct6e-standard-4t", "v5litepod-4": "", "tpu7x-16": ""} {
		cfg := runtimeVersionModel{AcceleratorType: types.StringValue(acc), RuntimeVersion: types.StringNull()}
		got, diags := flatten(ctx, cat, cfg, runtimeOf(cat, catalog.RuntimeQuery{AcceleratorType: acc}))
		if diags.HasError() {
			t.Fatalf("%s: %v", acc, diags)
		}
		if wantMachine == "" {
			if !got.CEMachineType.IsNull() || !got.CEImage.IsNull() {
				t.Errorf("%s: compute_engine_machine_type %s, image %s; want null", acc, got.CEMachineType, got.CEImage)
			}
			continue
		}
		ce, _ := cat.ComputeEngineTPU(acc)
		if got.CEMachineType.ValueString() != wantMachine || got.CEImage.ValueString() != ce.DefaultImage || ce.DefaultImage == "" {
			t.Errorf("%s: compute_engine_machine_type %s, image %s; want %s, %q", acc, got.CEMachineType, got.CEImage, wantMachine, ce.DefaultImage)
		}
	}
}

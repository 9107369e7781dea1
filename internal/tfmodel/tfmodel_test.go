// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// model covers every kind of value the provider's models hold.
type model struct {
	Name     types.String   `tfsdk:"name"`
	Count    types.Int64    `tfsdk:"count"`
	On       types.Bool     `tfsdk:"on"`
	Zones    types.List     `tfsdk:"zones"`
	Labels   types.Map      `tfsdk:"labels"`
	Scopes   types.Set      `tfsdk:"scopes"`
	Net      types.Object   `tfsdk:"net"`
	Disks    types.List     `tfsdk:"disks"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func testSchema(ctx context.Context) schema.Schema {
	return schema.Schema{
		Attributes: map[string]schema.Attribute{
			"name":   schema.StringAttribute{Required: true},
			"count":  schema.Int64Attribute{Optional: true, Computed: true},
			"on":     schema.BoolAttribute{Optional: true},
			"zones":  schema.ListAttribute{ElementType: types.StringType, Optional: true},
			"labels": schema.MapAttribute{ElementType: types.StringType, Optional: true},
			"scopes": schema.SetAttribute{ElementType: types.StringType, Computed: true},
			"net": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{
				"network":  schema.StringAttribute{Computed: true},
				"external": schema.BoolAttribute{Computed: true},
			}},
		},
		Blocks: map[string]schema.Block{
			"disks": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"source": schema.StringAttribute{Required: true},
			}}},
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true}),
		},
	}
}

// raw is a value of s with the given attributes set and every other null.
func raw(ctx context.Context, t *testing.T, s schema.Schema, set map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	typ, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the schema's type is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = v
		}
	}
	return tftypes.NewValue(typ, vals)
}

// values are the raw values the tests read, each beside the framework's reading.
func values(ctx context.Context, t *testing.T, s schema.Schema) map[string]tftypes.Value {
	str := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	typ, _ := s.Type().TerraformType(ctx).(tftypes.Object)
	disks, _ := typ.AttributeTypes["disks"].(tftypes.List)
	return map[string]tftypes.Value{
		"all null": raw(ctx, t, s, nil),
		"every kind set": raw(ctx, t, s, map[string]tftypes.Value{
			"name":   str("vm"),
			"count":  tftypes.NewValue(tftypes.Number, 3),
			"on":     tftypes.NewValue(tftypes.Bool, true),
			"zones":  tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("a"), str("b")}),
			"labels": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"k": str("v")}),
			"scopes": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, tftypes.UnknownValue),
			"net":    tftypes.NewValue(typ.AttributeTypes["net"], map[string]tftypes.Value{"network": str("default"), "external": tftypes.NewValue(tftypes.Bool, nil)}),
			"disks": tftypes.NewValue(typ.AttributeTypes["disks"], []tftypes.Value{
				tftypes.NewValue(disks.ElementType, map[string]tftypes.Value{"source": str("d1")}),
			}),
			"timeouts": tftypes.NewValue(typ.AttributeTypes["timeouts"], map[string]tftypes.Value{"create": str("45m")}),
		}),
		"unknown values": raw(ctx, t, s, map[string]tftypes.Value{
			"name": str(tftypes.UnknownValue),
			"net":  tftypes.NewValue(typ.AttributeTypes["net"], tftypes.UnknownValue),
		}),
	}
}

func TestGetAndSet_sameAsTheFramework(t *testing.T) {
	ctx := context.Background()
	s := testSchema(ctx)
	for name, v := range values(ctx, t, s) {
		t.Run(name, func(t *testing.T) {
			var want, got model
			if d := (tfsdk.Plan{Schema: s, Raw: v}).Get(ctx, &want); d.HasError() {
				t.Fatal(d)
			}
			if !get(ctx, s.Type(), v, &got) {
				t.Fatal("the fast path declined a model it covers")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GetPlan differs from tfsdk.Plan.Get (-want +got):\n%s", diff)
			}
			for reader, read := range map[string]func(*model) diag.Diagnostics{
				"GetConfig": func(m *model) diag.Diagnostics { return GetConfig(ctx, tfsdk.Config{Schema: s, Raw: v}, m) },
				"GetState":  func(m *model) diag.Diagnostics { return GetState(ctx, tfsdk.State{Schema: s, Raw: v}, m) },
			} {
				var m model
				if d := read(&m); d.HasError() {
					t.Fatalf("%s: %v", reader, d)
				}
				if diff := cmp.Diff(want, m); diff != "" {
					t.Errorf("%s differs from the framework (-want +got):\n%s", reader, diff)
				}
			}

			wantPlan, gotPlan := tfsdk.Plan{Schema: s}, tfsdk.Plan{Schema: s}
			if d := wantPlan.Set(ctx, &want); d.HasError() {
				t.Fatal(d)
			}
			if _, ok := encode(ctx, s.Type(), &got); !ok {
				t.Fatal("the fast path declined to write a model it covers")
			}
			if d := SetPlan(ctx, &gotPlan, &got); d.HasError() {
				t.Fatal(d)
			}
			if !gotPlan.Raw.Equal(wantPlan.Raw) || !gotPlan.Raw.Equal(v) {
				t.Errorf("SetPlan wrote %s, tfsdk.Plan.Set %s, read from %s", gotPlan.Raw, wantPlan.Raw, v)
			}
			gotState := tfsdk.State{Schema: s}
			if d := SetState(ctx, &gotState, got); d.HasError() || !gotState.Raw.Equal(v) {
				t.Errorf("SetState wrote %s (%v), want %s", gotState.Raw, d, v)
			}
		})
	}
}

// TestFallsBackToTheFramework: what the fast path does not cover gets the
// framework's own answer, diagnostics included.
func TestFallsBackToTheFramework(t *testing.T) {
	ctx := context.Background()
	s := testSchema(ctx)
	v := values(ctx, t, s)["every kind set"]

	type missingField struct {
		Name types.String `tfsdk:"name"`
	}
	type untagged struct {
		Name types.String
	}
	type plainString struct {
		Name string `tfsdk:"name"`
	}
	cases := map[string]any{
		"a struct without every attribute":  &missingField{},
		"an untagged field":                 &untagged{},
		"a field that is not an attr.Value": &plainString{},
	}
	for name, target := range cases {
		t.Run(name, func(t *testing.T) {
			if get(ctx, s.Type(), v, target) {
				t.Fatal("the fast path took a struct it does not cover")
			}
			want := (tfsdk.Plan{Schema: s, Raw: v}).Get(ctx, target)
			got := GetPlan(ctx, tfsdk.Plan{Schema: s, Raw: v}, target)
			if !want.HasError() || !sameDiagnostics(want, got) {
				t.Errorf("GetPlan diagnostics = %v, want the framework's %v", got, want)
			}
		})
	}

	t.Run("a null whole value", func(t *testing.T) {
		null := tftypes.NewValue(s.Type().TerraformType(ctx), nil)
		var m model
		if get(ctx, s.Type(), null, &m) {
			t.Fatal("the fast path read a null value")
		}
		want := (tfsdk.State{Schema: s, Raw: null}).Get(ctx, &model{})
		if got := GetState(ctx, tfsdk.State{Schema: s, Raw: null}, &m); !want.HasError() || !sameDiagnostics(want, got) {
			t.Errorf("GetState diagnostics = %v, want the framework's %v", got, want)
		}
	})

	t.Run("a list without its element type", func(t *testing.T) {
		m := model{Name: types.StringValue("vm"), Zones: types.List{}}
		if _, ok := encode(ctx, s.Type(), &m); ok {
			t.Fatal("the fast path wrote a list of no element type")
		}
		want, got := tfsdk.Plan{Schema: s}, tfsdk.Plan{Schema: s}
		wantDiags := want.Set(ctx, &m)
		if gotDiags := SetPlan(ctx, &got, &m); !wantDiags.HasError() || !sameDiagnostics(wantDiags, gotDiags) || !got.Raw.Equal(want.Raw) {
			t.Errorf("SetPlan = %s, %v; want the framework's %s, %v", got.Raw, gotDiags, want.Raw, wantDiags)
		}
	})
}

// TestLayoutOnce: a model's layout is worked out once and then reused.
func TestLayoutOnce(t *testing.T) {
	ctx := context.Background()
	s := testSchema(ctx)
	v := values(ctx, t, s)["every kind set"]
	type once struct {
		model
	}
	var m model
	if !get(ctx, s.Type(), v, &m) {
		t.Fatal("the fast path declined a model it covers")
	}
	first := layoutOf(typeOf(m))
	if second := layoutOf(typeOf(m)); len(first) != 9 || &first[0] != &second[0] {
		t.Errorf("layout = %v then %v: not one cached layout of 9 fields", first, second)
	}
	// An untagged embedded struct's fields are promoted, as the framework
	// does; an embedded pointer or a tagged embedded struct is left to it.
	if l := layoutOf(typeOf(once{})); len(l) != 9 || len(l[0].index) != 2 {
		t.Errorf("layout of a model embedded whole = %v, want its 9 fields through the embedded struct", l)
	}
	var embedded once
	if !get(ctx, s.Type(), v, &embedded) || !reflect.DeepEqual(embedded.model, m) {
		t.Errorf("get into an embedded model = %+v, want %+v", embedded.model, m)
	}
	type pointer struct {
		*model
	}
	type tagged struct {
		model `tfsdk:"model"`
	}
	if layoutOf(typeOf(pointer{})) != nil || layoutOf(typeOf(tagged{})) != nil {
		t.Error("an embedded pointer or a tagged embedded struct got a layout; the framework decides those")
	}
}

// sameDiagnostics compares the severities and summaries of two sets of
// diagnostics: the framework's details list attributes in map order.
func sameDiagnostics(a, b diag.Diagnostics) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Severity() != b[i].Severity() || a[i].Summary() != b[i].Summary() {
			return false
		}
	}
	return true
}

func typeOf(v any) reflect.Type { return reflect.TypeOf(v) }

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// netModel is an object model with a nested list, as a node pool's tier.
type netModel struct {
	Network  types.String `tfsdk:"network"`
	External types.Bool   `tfsdk:"external"`
	Ranges   types.List   `tfsdk:"ranges"`
}

var netType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"network": types.StringType, "external": types.BoolType, "ranges": types.ListType{ElemType: types.StringType},
}}

// mismatched has a field of another type than netType's attribute.
type mismatched struct {
	Network  types.Int64 `tfsdk:"network"`
	External types.Bool  `tfsdk:"external"`
	Ranges   types.List  `tfsdk:"ranges"`
}

func netValue(t *testing.T, network string, external attr.Value, ranges ...string) types.Object {
	t.Helper()
	obj, diags := types.ObjectValue(netType.AttrTypes, map[string]attr.Value{
		"network": types.StringValue(network), "external": external, "ranges": StringList(ranges),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	return obj
}

// TestAsMatchesFramework checks As against obj.As, for the objects it reads
// itself and those it leaves to the framework.
func TestAsMatchesFramework(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		obj  types.Object
		opts basetypes.ObjectAsOptions
	}{
		{"known", netValue(t, "default", types.BoolValue(true), "10.0.0.0/8"), ObjectAsOptions},
		{"an unknown attribute", netValue(t, "default", types.BoolUnknown()), ObjectAsOptions},
		{"a null attribute and no ranges", netValue(t, "", types.BoolNull()), ObjectAsOptions},
		{"null, strict", types.ObjectNull(netType.AttrTypes), ObjectAsOptions},
		{"null, lenient", types.ObjectNull(netType.AttrTypes), LenientObjectAsOptions},
		{"unknown, lenient", types.ObjectUnknown(netType.AttrTypes), LenientObjectAsOptions},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got, want netModel
			gotDiags, wantDiags := As(ctx, tc.obj, &got, tc.opts), tc.obj.As(ctx, &want, tc.opts)
			// The zero values of the framework's types are not Equal to
			// themselves, so compare the fields.
			if !reflect.DeepEqual(want, got) {
				t.Errorf("As = %+v, framework %+v", got, want)
			}
			if diff := cmp.Diff(wantDiags, gotDiags); diff != "" {
				t.Errorf("diagnostics (-framework +As):\n%s", diff)
			}
		})
	}
	t.Run("a field of another type goes to the framework", func(t *testing.T) {
		var got mismatched
		if diags := As(ctx, netValue(t, "default", types.BoolValue(true)), &got, ObjectAsOptions); !diags.HasError() {
			t.Errorf("As into a mismatched model = %v, want the framework's error", got)
		}
	})
}

// elementsCase is a list or set for ElementsAs.
type elementsCase struct {
	name string
	list List
}

// sameAsFramework checks ElementsAs into []T against l.ElementsAs for
// every case.
func sameAsFramework[T any](t *testing.T, cases []elementsCase) {
	t.Helper()
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got, want []T
			gotDiags, wantDiags := ElementsAs(ctx, tc.list, &got), tc.list.ElementsAs(ctx, &want, false)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("ElementsAs = %+v, framework %+v", got, want)
			}
			if diff := cmp.Diff(wantDiags, gotDiags); diff != "" {
				t.Errorf("diagnostics (-framework +ElementsAs):\n%s", diff)
			}
		})
	}
}

// TestElementsAsMatchesFramework checks ElementsAs against l.ElementsAs for
// lists and sets of objects and of strings.
func TestElementsAsMatchesFramework(t *testing.T) {
	objects := func(elems ...attr.Value) types.List {
		l, diags := types.ListValue(netType, elems)
		if diags.HasError() {
			t.Fatal(diags)
		}
		return l
	}
	sameAsFramework[netModel](t, []elementsCase{
		{"objects", objects(netValue(t, "a", types.BoolValue(false), "r"), netValue(t, "b", types.BoolNull()))},
		{"no objects", objects()},
		{"a null object", objects(netValue(t, "a", types.BoolValue(false)), types.ObjectNull(netType.AttrTypes))},
		{"an unknown object", objects(types.ObjectUnknown(netType.AttrTypes))},
		{"null", types.ListNull(netType)},
		{"unknown", types.ListUnknown(netType)},
	})
	set := func(elems ...attr.Value) types.Set {
		s, diags := types.SetValue(types.StringType, elems)
		if diags.HasError() {
			t.Fatal(diags)
		}
		return s
	}
	sameAsFramework[string](t, []elementsCase{
		{"strings", StringList([]string{"a", "b"})},
		{"a set of strings", set(types.StringValue("x"), types.StringValue("y"))},
		{"a null string", set(types.StringValue("x"), types.StringNull())},
		{"an unknown string", set(types.StringUnknown())},
		{"no strings", StringListOrEmpty(nil)},
	})
}

// TestListOfMatchesFramework checks ListOf against types.ListValueFrom.
func TestListOfMatchesFramework(t *testing.T) {
	ctx := context.Background()
	known := netModel{Network: types.StringValue("a"), External: types.BoolValue(true), Ranges: StringList([]string{"r"})}
	partly := netModel{Network: types.StringUnknown(), External: types.BoolNull(), Ranges: types.ListNull(types.StringType)}
	for _, tc := range []struct {
		name  string
		elems []netModel
	}{
		{"models", []netModel{known, partly}},
		{"none", []netModel{}},
		{"nil", nil},
		{"a model with a field of the wrong element type", []netModel{{Network: types.StringValue("a"), External: types.BoolValue(true),
			Ranges: types.ListNull(types.Int64Type)}}},
		{"a model with an unset field", []netModel{{Network: types.StringValue("a")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gotDiags := ListOf(ctx, netType, tc.elems)
			want, wantDiags := types.ListValueFrom(ctx, netType, tc.elems)
			if !got.Equal(want) {
				t.Errorf("ListOf = %v, want %v", got, want)
			}
			if diff := cmp.Diff(wantDiags, gotDiags); diff != "" {
				t.Errorf("diagnostics (-framework +ListOf):\n%s", diff)
			}
		})
	}
	for _, elems := range [][]string{{"a", "b"}, {}, nil} {
		got, _ := ListOf(ctx, types.StringType, elems)
		want, _ := types.ListValueFrom(ctx, types.StringType, elems)
		if !got.Equal(want) {
			t.Errorf("ListOf(%q) = %v, want %v", elems, got, want)
		}
	}
}

// BenchmarkListOf compares ListOf with the framework's types.ListValueFrom.
func BenchmarkListOf(b *testing.B) {
	ctx := context.Background()
	elems := make([]netModel, 3)
	for i := range elems {
		elems[i] = netModel{Network: types.StringValue("a"), External: types.BoolValue(true), Ranges: StringList([]string{"r"})}
	}
	b.Run("ListOf", func(b *testing.B) {
		for b.Loop() {
			_, _ = ListOf(ctx, netType, elems)
		}
	})
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			_, _ = types.ListValueFrom(ctx, netType, elems)
		}
	})
}

// splitNet is netModel with two of its fields in an embedded struct, as the
// node-pool tier model is made of parts.
type splitNet struct {
	netPart
	Ranges types.List `tfsdk:"ranges"`
}

type netPart struct {
	Network  types.String `tfsdk:"network"`
	External types.Bool   `tfsdk:"external"`
}

// TestEmbeddedModels: a model made of embedded parts is read and written
// as the framework does, by the fast paths.
func TestEmbeddedModels(t *testing.T) {
	ctx := context.Background()
	obj := netValue(t, "default", types.BoolValue(true), "r")
	var got, want splitNet
	if diags := As(ctx, obj, &got, ObjectAsOptions); diags.HasError() {
		t.Fatal(diags)
	}
	if diags := obj.As(ctx, &want, ObjectAsOptions); diags.HasError() {
		t.Fatal(diags)
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("As = %+v, framework %+v", got, want)
	}
	if layoutOf(reflect.TypeFor[splitNet]()) == nil {
		t.Error("no layout for a model of embedded parts: the fast paths would leave it to the framework")
	}
	list, diags := ListOf(ctx, netType, []splitNet{got})
	wantList, wantDiags := types.ListValueFrom(ctx, netType, []splitNet{want})
	if diags.HasError() || wantDiags.HasError() || !list.Equal(wantList) {
		t.Errorf("ListOf = %v, %v; framework %v, %v", list, diags, wantList, wantDiags)
	}
}

// scopesModel has a set, whose type's Validate refuses duplicate elements.
type scopesModel struct {
	Scopes types.Set `tfsdk:"scopes"`
}

var scopesType = types.ObjectType{AttrTypes: map[string]attr.Type{"scopes": types.SetType{ElemType: types.StringType}}}

// TestTypeValidation: a value its type's own Validate refuses (a set built
// with duplicate elements) is left to the framework, whose error it gets.
func TestTypeValidation(t *testing.T) {
	ctx := context.Background()
	dup := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("a")})
	elems := []scopesModel{{Scopes: dup}}
	got, gotDiags := ListOf(ctx, scopesType, elems)
	want, wantDiags := types.ListValueFrom(ctx, scopesType, elems)
	if !wantDiags.HasError() || !got.Equal(want) || !sameDiagnostics(wantDiags, gotDiags) {
		t.Errorf("ListOf = %v, %v; want the framework's %v, %v", got, gotDiags, want, wantDiags)
	}
	obj := types.ObjectValueMust(scopesType.AttrTypes, map[string]attr.Value{"scopes": dup})
	var gotModel, wantModel scopesModel
	if gotDiags, wantDiags := As(ctx, obj, &gotModel, ObjectAsOptions), obj.As(ctx, &wantModel, ObjectAsOptions); !wantDiags.HasError() ||
		!sameDiagnostics(wantDiags, gotDiags) {
		t.Errorf("As diagnostics = %v, want the framework's %v", gotDiags, wantDiags)
	}
	// A set without duplicates takes the fast path.
	ok := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")})
	if !fill(ctx, map[string]attr.Value{"scopes": ok}, reflect.ValueOf(&gotModel).Elem()) || !gotModel.Scopes.Equal(ok) {
		t.Errorf("fill of a valid set = %v, want it copied", gotModel.Scopes)
	}
	if fill(ctx, map[string]attr.Value{"scopes": dup}, reflect.ValueOf(&gotModel).Elem()) {
		t.Error("fill copied a set with duplicate elements")
	}
}

// TestIgnoredFieldsFallBack: a model with a `tfsdk:"-"` field, which the
// framework zeroes when it reads into it, is left to the framework.
func TestIgnoredFieldsFallBack(t *testing.T) {
	type withIgnored struct {
		Network  types.String `tfsdk:"network"`
		External types.Bool   `tfsdk:"external"`
		Ranges   types.List   `tfsdk:"ranges"`
		Cache    string       `tfsdk:"-"`
	}
	ctx := context.Background()
	got := withIgnored{Cache: "x"}
	if diags := As(ctx, netValue(t, "default", types.BoolValue(true)), &got, ObjectAsOptions); diags.HasError() || got.Cache != "" {
		t.Errorf("As = %+v, %v; want the framework's read, which zeroes Cache", got, diags)
	}
}

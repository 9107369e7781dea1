// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestValuesSameAsTheFramework holds the direct conversions to what the
// framework's own reflection returns for the same Go values, so that a
// framework upgrade that changes them (null against empty, above all)
// fails here rather than in a plan.
func TestValuesSameAsTheFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, m := range map[string]map[string]string{"nil": nil, "empty": {}, "two": {"a": "1", "b": ""}} {
		want, d := types.MapValueFrom(ctx, types.StringType, m)
		if d.HasError() {
			t.Fatal(d)
		}
		if got := StringMap(m); !got.Equal(want) {
			t.Errorf("StringMap(%s) = %v, the framework makes %v", name, got, want)
		}
		var back map[string]string
		if want.IsNull() {
			back = nil
		} else if d := want.ElementsAs(ctx, &back, false); d.HasError() {
			t.Fatal(d)
		}
		if got := KnownStringMap(want); !cmp.Equal(got, back) || (got == nil) != (back == nil) {
			t.Errorf("KnownStringMap(%v) = %#v, the framework reads %#v", want, got, back)
		}
	}
	for name, s := range map[string][]string{"nil": nil, "empty": {}, "two": {"x", ""}} {
		want, d := types.ListValueFrom(ctx, types.StringType, s)
		if d.HasError() {
			t.Fatal(d)
		}
		if got := StringList(s); !got.Equal(want) {
			t.Errorf("StringList(%s) = %v, the framework makes %v", name, got, want)
		}
		var back []string
		if !want.IsNull() {
			if d := want.ElementsAs(ctx, &back, false); d.HasError() {
				t.Fatal(d)
			}
			back = append([]string{}, back...)
		}
		if got := KnownStrings(want); !cmp.Equal(got, back) || (got == nil) != (back == nil) {
			t.Errorf("KnownStrings(%v) = %#v, the framework reads %#v", want, got, back)
		}
	}
	for _, n := range []*int64{nil, ptr(int64(0)), ptr(int64(-3))} {
		v := types.Int64PointerValue(n)
		if got := Int64Ptr(v); !cmp.Equal(got, n) {
			t.Errorf("Int64Ptr(%v) = %v, want %v", v, got, n)
		}
		if n != nil && !Int64OrNull(*n, true).Equal(v) || n == nil && !Int64OrNull(0, false).Equal(v) {
			t.Errorf("Int64OrNull disagrees with types.Int64PointerValue(%v)", n)
		}
	}
	for _, b := range []*bool{nil, ptr(false), ptr(true)} {
		if got := BoolPtr(types.BoolPointerValue(b)); !cmp.Equal(got, b) {
			t.Errorf("BoolPtr(%v) = %v, want %v", b, got, b)
		}
	}
}

// TestValuesOfUnknowns: what the framework cannot read (unknown values)
// reads as nothing, and an unknown element is left out.
func TestValuesOfUnknowns(t *testing.T) {
	t.Parallel()
	if StringMapOrEmpty(nil).IsNull() || len(StringMapOrEmpty(nil).Elements()) != 0 {
		t.Error("StringMapOrEmpty(nil) is not an empty map")
	}
	if StringListOrEmpty(nil).IsNull() || len(StringListOrEmpty(nil).Elements()) != 0 {
		t.Error("StringListOrEmpty(nil) is not an empty list")
	}
	if KnownStringMap(types.MapUnknown(types.StringType)) != nil || KnownStrings(types.ListUnknown(types.StringType)) != nil {
		t.Error("an unknown collection reads as something")
	}
	l := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringUnknown()})
	if got := KnownStrings(l); !cmp.Equal(got, []string{"a"}) {
		t.Errorf("KnownStrings with an unknown element = %v", got)
	}
	if Int64Ptr(types.Int64Unknown()) != nil || BoolPtr(types.BoolUnknown()) != nil || KnownString(types.StringUnknown()) != "" {
		t.Error("an unknown scalar reads as a value")
	}
	if Known(types.StringNull()) || Known(types.StringUnknown()) || !Known(types.StringValue("")) {
		t.Error("Known is wrong")
	}
	if WhollyKnown(l) || !WhollyKnown(types.ListNull(types.StringType)) || !WhollyKnown(nil) {
		t.Error("WhollyKnown is wrong")
	}
}

func ptr[T any](v T) *T { return &v }

// TestModelMismatch: a name on one side only is named, embedded structs'
// fields count as the model's own.
func TestModelMismatch(t *testing.T) {
	t.Parallel()
	type inner struct {
		B types.String `tfsdk:"b"`
	}
	type model struct {
		A types.String `tfsdk:"a"`
		inner
	}
	if d := ModelMismatch([]string{"a", "b"}, model{}); d != "" {
		t.Errorf("matching names: %s", d)
	}
	d := ModelMismatch([]string{"a", "c"}, model{})
	if !strings.Contains(d, "in the schema only: [c]") || !strings.Contains(d, "in the model only: [b]") {
		t.Errorf("mismatch described as %q", d)
	}
}

type describedAttr string

func (d describedAttr) GetMarkdownDescription() string { return string(d) }

// TestSchemaProblems: a name only one side has, and an attribute or block
// without a description, are each a problem; a matching pair is none.
func TestSchemaProblems(t *testing.T) {
	t.Parallel()
	type model struct {
		A types.String `tfsdk:"a"`
		B types.List   `tfsdk:"b"`
	}
	attrs := map[string]describedAttr{"a": "the a"}
	blocks := map[string]describedAttr{"b": "the b"}
	if p := SchemaProblems("m", attrs, blocks, model{}); len(p) != 0 {
		t.Errorf("matching schema and model: %v", p)
	}
	attrs["c"] = ""
	blocks["b"] = ""
	if p := SchemaProblems("m", attrs, blocks, model{}); len(p) != 3 {
		t.Errorf("want the missing field and two missing descriptions, got %v", p)
	}
}

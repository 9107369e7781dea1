// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// nestedSchema has every kind of nesting FixTypes handles, two levels deep.
func nestedSchema() schema.Schema {
	leaf := map[string]schema.Attribute{
		"s": schema.StringAttribute{Optional: true},
		"l": schema.ListAttribute{Optional: true, ElementType: types.StringType},
	}
	obj := schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
		"n":  schema.Int64Attribute{Optional: true},
		"in": schema.SingleNestedAttribute{Optional: true, Attributes: leaf},
	}}
	return schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":     schema.StringAttribute{Computed: true},
			"list":   schema.ListNestedAttribute{Optional: true, NestedObject: obj},
			"set":    schema.SetNestedAttribute{Optional: true, NestedObject: obj},
			"map":    schema.MapNestedAttribute{Optional: true, NestedObject: obj},
			"single": schema.SingleNestedAttribute{Optional: true, Attributes: leaf},
		},
		Blocks: map[string]schema.Block{
			"blocks": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{"a": schema.StringAttribute{Optional: true}, "list": schema.ListNestedAttribute{Optional: true, NestedObject: obj}},
				Blocks: map[string]schema.Block{
					"inner": schema.SetNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: leaf}},
					"one":   schema.SingleNestedBlock{Attributes: leaf},
				},
			}},
			"timeouts": timeouts.Block(context.Background(), timeouts.Opts{Create: true}),
		},
	}
}

func TestFixTypesKeepsTheSchemaType(t *testing.T) {
	ctx := context.Background()
	s := nestedSchema()
	before := s.Type().TerraformType(ctx)
	fixed := FixTypes(s)
	if got := fixed.Type().TerraformType(ctx); !got.Equal(before) {
		t.Fatalf("type changed:\n got  %s\n want %s", got, before)
	}
	if !s.Type().TerraformType(ctx).Equal(before) {
		t.Fatal("FixTypes changed the schema it was given")
	}
	if diags := fixed.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("fixed schema is not valid: %v", diags)
	}
	// Every nested type is fixed, and the schema it was given is not.
	for name, a := range fixed.Attributes {
		switch a := a.(type) {
		case schema.ListNestedAttribute:
			if a.CustomType == nil || a.NestedObject.CustomType == nil {
				t.Errorf("%s: not fixed", name)
			}
			if in := as[schema.SingleNestedAttribute](t, a.NestedObject.Attributes["in"]); in.CustomType == nil {
				t.Errorf("%s.in: not fixed", name)
			}
		case schema.SetNestedAttribute:
			if a.CustomType == nil || a.NestedObject.CustomType == nil {
				t.Errorf("%s: not fixed", name)
			}
		case schema.MapNestedAttribute:
			if a.CustomType == nil || a.NestedObject.CustomType == nil {
				t.Errorf("%s: not fixed", name)
			}
		case schema.SingleNestedAttribute:
			if a.CustomType == nil {
				t.Errorf("%s: not fixed", name)
			}
		}
	}
	b := as[schema.ListNestedBlock](t, fixed.Blocks["blocks"])
	if b.CustomType == nil || b.NestedObject.CustomType == nil {
		t.Error("blocks: not fixed")
	}
	if in := as[schema.SetNestedBlock](t, b.NestedObject.Blocks["inner"]); in.CustomType == nil || in.NestedObject.CustomType == nil {
		t.Error("blocks.inner: not fixed")
	}
	if one := as[schema.SingleNestedBlock](t, b.NestedObject.Blocks["one"]); one.CustomType == nil {
		t.Error("blocks.one: not fixed")
	}
	if orig := as[schema.ListNestedBlock](t, s.Blocks["blocks"]); orig.CustomType != nil || orig.NestedObject.CustomType != nil {
		t.Error("the given schema's block was changed")
	}
	// A CustomType already set (the timeouts block's) is kept.
	if _, ok := as[schema.SingleNestedBlock](t, fixed.Blocks["timeouts"]).CustomType.(timeouts.Type); !ok {
		t.Error("timeouts: its own CustomType was replaced")
	}
}

// as is v as a T, or fails the test.
func as[T any](t *testing.T, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%T is not a %T", v, x)
	}
	return x
}

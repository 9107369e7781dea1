// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestKnownFrom(t *testing.T) {
	list := tftypes.List{ElementType: tftypes.String}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.String, "c": list, "d": tftypes.String}}
	plan := tftypes.NewValue(typ, map[string]tftypes.Value{
		"a": tftypes.NewValue(tftypes.String, "planned"),
		"b": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"c": tftypes.NewValue(list, tftypes.UnknownValue),
		"d": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	})
	prior := tftypes.NewValue(typ, map[string]tftypes.Value{
		"a": tftypes.NewValue(tftypes.String, "old"),
		"b": tftypes.NewValue(tftypes.String, "from state"),
		"c": tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, "x")}),
		"d": tftypes.NewValue(tftypes.String, nil),
	})
	got, err := KnownFrom(plan, prior)
	if err != nil {
		t.Fatal(err)
	}
	want := tftypes.NewValue(typ, map[string]tftypes.Value{
		"a": tftypes.NewValue(tftypes.String, "planned"),
		"b": tftypes.NewValue(tftypes.String, "from state"),
		"c": tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, "x")}),
		"d": tftypes.NewValue(tftypes.String, nil),
	})
	if !got.Equal(want) {
		t.Fatalf("KnownFrom = %s, want %s", got, want)
	}
	if got, err := KnownFrom(plan, tftypes.NewValue(typ, nil)); err != nil || !got.IsFullyKnown() {
		t.Fatalf("KnownFrom with a null prior = %s, %v; want every value known (null)", got, err)
	}
}

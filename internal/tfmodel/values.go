// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The conversions between Go values and framework values that every
// resource and data source uses, in one place. They build values directly
// instead of through the framework's reflection (types.MapValueFrom and the
// like), which costs more per call; TestValuesSameAsTheFramework holds them
// to what the framework's own conversions return. A Go nil and an empty Go
// collection are different Terraform values (null and empty): the names
// say which one a function returns for nil.

// ObjectAsOptions reads an object into a model struct that has a field for
// each of its attributes (the framework's default).
var ObjectAsOptions = basetypes.ObjectAsOptions{}

// LenientObjectAsOptions also reads an object that is null or unknown, into
// the model's zero value.
var LenientObjectAsOptions = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

// Known reports whether v is neither null nor unknown.
func Known(v attr.Value) bool { return v != nil && !v.IsNull() && !v.IsUnknown() }

// WhollyKnown reports whether v is known all through: a null value (or nil)
// is, a list, map or object is when each of its elements is.
func WhollyKnown(v attr.Value) bool {
	if v == nil {
		return true
	}
	tv, err := v.ToTerraformValue(context.Background())
	return err == nil && tv.IsFullyKnown()
}

// KnownString is the value of s, "" when s is null or unknown.
func KnownString(s types.String) string {
	if !Known(s) {
		return ""
	}
	return s.ValueString()
}

// StringMap is m as a map of strings: null for nil, empty for an empty map.
func StringMap(m map[string]string) types.Map {
	if m == nil {
		return types.MapNull(types.StringType)
	}
	return StringMapOrEmpty(m)
}

// StringMapOrEmpty is m as a map of strings, empty for nil.
func StringMapOrEmpty(m map[string]string) types.Map {
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// StringList is s as a list of strings: null for nil, empty for an empty
// slice.
func StringList(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	return StringListOrEmpty(s)
}

// StringListOrEmpty is s as a list of strings, empty for nil.
func StringListOrEmpty(s []string) types.List {
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

// KnownStringMap is the Go map of a map of strings: nil when m is null or
// unknown, its known elements otherwise (an empty map for an empty one).
func KnownStringMap(m types.Map) map[string]string {
	if !Known(m) {
		return nil
	}
	out := make(map[string]string, len(m.Elements()))
	for k, v := range m.Elements() {
		if s, ok := v.(types.String); ok && !s.IsUnknown() && !s.IsNull() {
			out[k] = s.ValueString()
		}
	}
	return out
}

// Elements is what a list or a set offers KnownStrings.
type Elements interface {
	IsNull() bool
	IsUnknown() bool
	Elements() []attr.Value
}

// KnownStrings is the Go slice of a list or set of strings: nil when v is
// null or unknown, its known elements otherwise (empty, not nil, for an
// empty one).
func KnownStrings(v Elements) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		if s, ok := e.(types.String); ok && !s.IsUnknown() && !s.IsNull() {
			out = append(out, s.ValueString())
		}
	}
	return out
}

// Int64OrNull is n, or null when ok is false.
func Int64OrNull(n int64, ok bool) types.Int64 {
	if !ok {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// Int64Ptr is a known int64's value, nil when v is null or unknown.
func Int64Ptr(v types.Int64) *int64 {
	if !Known(v) {
		return nil
	}
	n := v.ValueInt64()
	return &n
}

// BoolPtr is a known bool's value, nil when v is null or unknown.
func BoolPtr(v types.Bool) *bool {
	if !Known(v) {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// ModelMismatch compares the attribute and block names of a schema object
// with the tfsdk tags of model's fields (those of embedded structs
// included) and says what differs, "" when nothing does: the one check of
// the schema-model parity tests.
func ModelMismatch(names []string, model any) string {
	fields := map[string]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(model)) {
		if !f.Anonymous {
			fields[f.Tag.Get("tfsdk")] = true
		}
	}
	inSchema := map[string]bool{}
	var schemaOnly, modelOnly []string
	for _, n := range names {
		inSchema[n] = true
		if !fields[n] {
			schemaOnly = append(schemaOnly, n)
		}
	}
	for n := range fields {
		if !inSchema[n] {
			modelOnly = append(modelOnly, n)
		}
	}
	if len(schemaOnly)+len(modelOnly) == 0 {
		return ""
	}
	slices.Sort(schemaOnly)
	slices.Sort(modelOnly)
	return fmt.Sprintf("%T: in the schema only: %v; in the model only: %v", model, schemaOnly, modelOnly)
}

// Names are the keys of a schema's attribute or block map.
func Names[T any](m map[string]T) []string { return slices.Sorted(maps.Keys(m)) }

// described is a schema attribute or block.
type described interface{ GetMarkdownDescription() string }

// SchemaProblems lists what keeps a schema object (its attributes and
// blocks) and its model from matching: names only one of them has, and
// attributes or blocks without a description. Each problem starts with
// what. The resources' and data sources' parity tests call it.
func SchemaProblems[A, B described](what string, attrs map[string]A, blocks map[string]B, model any) []string {
	var out []string
	if d := ModelMismatch(append(Names(attrs), Names(blocks)...), model); d != "" {
		out = append(out, what+": "+d)
	}
	for _, n := range Names(attrs) {
		if attrs[n].GetMarkdownDescription() == "" {
			out = append(out, fmt.Sprintf("%s: %s has no description", what, n))
		}
	}
	for _, n := range Names(blocks) {
		if blocks[n].GetMarkdownDescription() == "" {
			out = append(out, fmt.Sprintf("%s: %s has no description", what, n))
		}
	}
	return out
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package tfmodel reads a whole configuration, plan or state into a model
// struct and writes one back, as tfsdk.Config.Get, tfsdk.Plan.Set and their
// kin do, at a fraction of their cost.
//
// The framework works out a struct's tfsdk tags on every Get and Set, and
// checks each tag with a regular expression it compiles anew each time: for
// a model of 32 attributes, 32 compilations per call. A resource's
// ModifyPlan that reads config, plan and state and writes the plan paid that
// four times per resource and plan. This package works out each model type's
// layout once per process and then copies the attribute values the
// framework decoded straight into the fields, and back.
//
// Anything the fast path does not cover exactly as the framework does (a
// null or unknown whole value, embedded or untagged fields, fields that are
// not attr.Value types, values whose types validate themselves) goes to the
// framework's own method, so results and diagnostics stay the framework's.
package tfmodel

import (
	"context"
	"reflect"
	"regexp"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// GetConfig reads c into target, a pointer to a tfsdk-tagged struct, as
// c.Get does.
func GetConfig(ctx context.Context, c tfsdk.Config, target any) diag.Diagnostics {
	if c.Schema == nil || !get(ctx, c.Schema.Type(), c.Raw, target) {
		return c.Get(ctx, target)
	}
	return nil
}

// GetPlan reads p into target, as p.Get does.
func GetPlan(ctx context.Context, p tfsdk.Plan, target any) diag.Diagnostics {
	if p.Schema == nil || !get(ctx, p.Schema.Type(), p.Raw, target) {
		return p.Get(ctx, target)
	}
	return nil
}

// GetState reads s into target, as s.Get does.
func GetState(ctx context.Context, s tfsdk.State, target any) diag.Diagnostics {
	if s.Schema == nil || !get(ctx, s.Schema.Type(), s.Raw, target) {
		return s.Get(ctx, target)
	}
	return nil
}

// SetPlan writes val, a tfsdk-tagged struct or a pointer to one, as p.Set does.
func SetPlan(ctx context.Context, p *tfsdk.Plan, val any) diag.Diagnostics {
	if p.Schema != nil {
		if v, ok := encode(ctx, p.Schema.Type(), val); ok {
			return p.Set(ctx, v)
		}
	}
	return p.Set(ctx, val)
}

// SetState writes val as s.Set does.
func SetState(ctx context.Context, s *tfsdk.State, val any) diag.Diagnostics {
	if s.Schema != nil {
		if v, ok := encode(ctx, s.Schema.Type(), val); ok {
			return s.Set(ctx, v)
		}
	}
	return s.Set(ctx, val)
}

// field is one tagged field of a model struct, at index (a path through
// embedded structs, as reflect.Value.FieldByIndex takes it).
type field struct {
	index []int
	name  string
	typ   reflect.Type
}

// layout is a model struct's fields, or nil when the struct is not one the
// fast path covers.
type layout []field

var (
	layouts sync.Map // reflect.Type -> layout

	// fieldName is the framework's rule for a tfsdk tag.
	fieldName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	attrValue = reflect.TypeFor[attr.Value]()
)

// layoutOf returns the layout of struct type t, working it out on first use.
func layoutOf(t reflect.Type) layout {
	if l, ok := layouts.Load(t); ok {
		return l.(layout) //nolint:forcetypeassert // only layouts are stored
	}
	l, ok := fieldsOf(t, nil, map[string]bool{})
	if !ok {
		l = nil
	}
	layouts.Store(t, l)
	return l
}

// fieldsOf lists the tagged fields of struct type t, whose own index is
// prefix, and the fields of the untagged structs it embeds, as the
// framework promotes them; it reports false for a struct the fast path
// leaves to the framework (an embedded pointer or tagged embedded struct,
// an untagged or unexported field, a tag used twice, a field that is not
// an attr.Value).
func fieldsOf(t reflect.Type, prefix []int, seen map[string]bool) (layout, bool) {
	var l layout
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		name, tagged := f.Tag.Lookup("tfsdk")
		switch {
		case name == "-": // the framework zeroes such a field; fill leaves it
			return nil, false
		case f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct:
			embedded, ok := fieldsOf(f.Type, index, seen)
			if !ok {
				return nil, false
			}
			l = append(l, embedded...)
			continue
		case f.Anonymous || !tagged || !f.IsExported() || seen[name] || !fieldName.MatchString(name) ||
			!f.Type.Implements(attrValue) || f.Type.Kind() == reflect.Interface:
			return nil, false
		}
		seen[name] = true
		l = append(l, field{index: index, name: name, typ: f.Type})
	}
	return l, true
}

// attributes is what the framework's object values offer.
type attributes interface {
	Attributes() map[string]attr.Value
}

// get decodes raw of type typ into target, and reports false, having
// changed nothing, when the framework must do it.
func get(ctx context.Context, typ attr.Type, raw tftypes.Value, target any) bool {
	ptr := reflect.ValueOf(target)
	if ptr.Kind() != reflect.Pointer || ptr.IsNil() || ptr.Elem().Kind() != reflect.Struct || !raw.IsKnown() || raw.IsNull() {
		return false
	}
	if _, ok := typ.(xattr.TypeWithValidate); ok { //nolint:staticcheck // the framework still honours it; so must this
		return false
	}
	if layoutOf(ptr.Elem().Type()) == nil {
		return false
	}
	v, err := typ.ValueFromTerraform(ctx, raw)
	if err != nil {
		return false
	}
	obj, ok := v.(attributes)
	return ok && fill(ctx, obj.Attributes(), ptr.Elem())
}

// encode turns val, a model struct or a pointer to one, into the
// Terraform value of type typ, or reports false when the framework must.
func encode(ctx context.Context, typ attr.Type, val any) (tftypes.Value, bool) {
	rv := reflect.ValueOf(val)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if _, ok := typ.(xattr.TypeWithValidate); ok { //nolint:staticcheck // as in get
		return tftypes.Value{}, false
	}
	objType, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		return tftypes.Value{}, false
	}
	attrs, ok := fieldValues(ctx, rv, objType.AttributeTypes())
	if !ok {
		return tftypes.Value{}, false
	}
	vals := make(map[string]tftypes.Value, len(attrs))
	for name, a := range attrs {
		tv, err := a.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, false
		}
		vals[name] = tv
	}
	tfType := typ.TerraformType(ctx)
	if tftypes.ValidateValue(tfType, vals) != nil {
		return tftypes.Value{}, false
	}
	return tftypes.NewValue(tfType, vals), true
}

// StringOrNull is the framework value of s: null for "", as the APIs leave
// a field out.
func StringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

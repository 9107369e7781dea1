// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework's obj.As, list.ElementsAs and types.ListValueFrom turn a
// value into Terraform's form and back through reflection, working out the
// model's tfsdk tags each time: for a node-pool resource, whose tiers are
// read and written several times per plan, about a fifth of the provider's
// CPU in a plan with state. As, ElementsAs, MapAs and ListOf copy the attribute
// values straight between the framework's values and the model's fields,
// with the layouts of the whole-value functions, and leave every case they
// do not cover exactly as the framework does to the framework.

// As reads obj into target, a pointer to a tfsdk-tagged struct, as
// obj.As(ctx, target, opts) does.
func As(ctx context.Context, obj types.Object, target any, opts basetypes.ObjectAsOptions) diag.Diagnostics {
	ptr := reflect.ValueOf(target)
	if obj.IsNull() || obj.IsUnknown() || ptr.Kind() != reflect.Pointer || ptr.IsNil() || !fill(ctx, obj.Attributes(), ptr.Elem()) {
		return obj.As(ctx, target, opts)
	}
	return nil
}

// List is what a list or a set offers ElementsAs.
type List interface {
	Elements
	ElementsAs(ctx context.Context, target any, allowUnhandled bool) diag.Diagnostics
}

// ElementsAs reads the elements of l, a list or set of objects or of
// strings, into target, as l.ElementsAs(ctx, target, false) does.
func ElementsAs[T any](ctx context.Context, l List, target *[]T) diag.Diagnostics {
	if l.IsNull() || l.IsUnknown() {
		return l.ElementsAs(ctx, target, false)
	}
	elems := l.Elements()
	out := make([]T, len(elems))
	for i, e := range elems {
		if !elementInto(ctx, e, &out[i]) {
			return l.ElementsAs(ctx, target, false)
		}
	}
	*target = out
	return nil
}

// Map is what a map offers MapAs.
type Map interface {
	IsNull() bool
	IsUnknown() bool
	Elements() map[string]attr.Value
	ElementsAs(ctx context.Context, target any, allowUnhandled bool) diag.Diagnostics
}

// MapAs reads the elements of m, a map of objects or of strings, into
// target, as m.ElementsAs(ctx, target, false) does.
func MapAs[T any](ctx context.Context, m Map, target *map[string]T) diag.Diagnostics {
	if m.IsNull() || m.IsUnknown() {
		return m.ElementsAs(ctx, target, false)
	}
	out := make(map[string]T, len(m.Elements()))
	for k, e := range m.Elements() {
		var v T
		if !elementInto(ctx, e, &v) {
			return m.ElementsAs(ctx, target, false)
		}
		out[k] = v
	}
	*target = out
	return nil
}

// elementInto copies e into *dst when it is a known string into a string,
// or a known object into a model struct; it reports false otherwise.
func elementInto(ctx context.Context, e attr.Value, dst any) bool {
	if e.IsNull() || e.IsUnknown() {
		return false
	}
	switch d := dst.(type) {
	case *string:
		s, ok := e.(basetypes.StringValue)
		*d = s.ValueString()
		return ok
	default:
		obj, ok := e.(basetypes.ObjectValue)
		out := reflect.ValueOf(dst).Elem()
		return ok && out.Kind() == reflect.Struct && fill(ctx, obj.Attributes(), out)
	}
}

// ListOf is the list of elem elements of elems, model structs or strings,
// as types.ListValueFrom(ctx, elem, elems) makes it: null for a nil slice.
func ListOf[T any](ctx context.Context, elem attr.Type, elems []T) (types.List, diag.Diagnostics) {
	if elems == nil {
		return types.ListNull(elem), nil
	}
	values := make([]attr.Value, len(elems))
	for i := range elems {
		v, ok := valueOf(ctx, elem, &elems[i])
		if !ok {
			return types.ListValueFrom(ctx, elem, elems)
		}
		values[i] = v
	}
	list, diags := types.ListValue(elem, values)
	if diags.HasError() {
		return types.ListValueFrom(ctx, elem, elems)
	}
	return list, nil
}

// valueOf is the value of type elem of *src, a string or a model struct,
// or false when the framework must make it.
func valueOf(ctx context.Context, elem attr.Type, src any) (attr.Value, bool) {
	if s, ok := src.(*string); ok {
		return types.StringValue(*s), elem.Equal(types.StringType)
	}
	objType, ok := elem.(types.ObjectType)
	if !ok {
		return nil, false
	}
	attrs, ok := fieldValues(ctx, reflect.ValueOf(src).Elem(), objType.AttrTypes)
	if !ok {
		return nil, false
	}
	obj, diags := types.ObjectValue(objType.AttrTypes, attrs)
	return obj, !diags.HasError()
}

// fieldValues are the values of the fields of rv, a model struct with a
// field of each attribute type of types, by attribute name; false when the
// framework must make them (a field of another type, a value that validates
// itself or that its type's Validate refuses).
func fieldValues(ctx context.Context, rv reflect.Value, types map[string]attr.Type) (map[string]attr.Value, bool) {
	if rv.Kind() != reflect.Struct {
		return nil, false
	}
	l := layoutOf(rv.Type())
	if l == nil || len(l) != len(types) {
		return nil, false
	}
	attrs := make(map[string]attr.Value, len(l))
	for _, f := range l {
		a, ok := rv.FieldByIndex(f.index).Interface().(attr.Value)
		t, known := types[f.name]
		if !ok || a == nil || !known || !t.Equal(a.Type(ctx)) {
			return nil, false
		}
		if _, validates := a.(xattr.ValidateableAttribute); validates || !typeValid(ctx, a) {
			return nil, false
		}
		attrs[f.name] = a
	}
	return attrs, true
}

// fill copies attrs into out, a struct with a field of the attribute's own
// value type for each attribute, and reports false, having changed
// nothing, when it cannot.
func fill(ctx context.Context, attrs map[string]attr.Value, out reflect.Value) bool {
	if out.Kind() != reflect.Struct {
		return false
	}
	l := layoutOf(out.Type())
	if l == nil || len(attrs) != len(l) {
		return false
	}
	values := make([]reflect.Value, len(l))
	for i, f := range l {
		a, ok := attrs[f.name]
		if !ok || a == nil {
			return false
		}
		if _, validates := a.(xattr.ValidateableAttribute); validates || !typeValid(ctx, a) {
			return false
		}
		rv := reflect.ValueOf(a)
		if rv.Type() != f.typ {
			return false
		}
		values[i] = rv
	}
	for i, f := range l {
		out.FieldByIndex(f.index).Set(values[i])
	}
	return true
}

// typeValid reports whether a passes its type's own Validate, which the
// framework runs on every attribute value it reads or writes through
// reflection (a set's duplicate elements, a number out of its type's
// range). A list or map whose element type has no Validate has nothing
// to check beyond its type, which the callers compare.
func typeValid(ctx context.Context, a attr.Value) bool {
	t := a.Type(ctx)
	if !mayFailValidate(t) {
		return true
	}
	tv, err := a.ToTerraformValue(ctx)
	return err == nil && validTerraform(ctx, t, tv)
}

// validTerraform reports whether tv, a value of type t, passes t's own
// Validate (true for a type that has none).
func validTerraform(ctx context.Context, t attr.Type, tv tftypes.Value) bool {
	v, ok := t.(xattr.TypeWithValidate) //nolint:staticcheck // the framework still honours it; so must this
	return !ok || !v.Validate(ctx, tv, path.Empty()).HasError()
}

// mayFailValidate reports whether a value of type t may fail t's Validate.
func mayFailValidate(t attr.Type) bool {
	switch t := t.(type) {
	case basetypes.ListType:
		return mayFailValidate(t.ElemType)
	case basetypes.MapType:
		return mayFailValidate(t.ElemType)
	default:
		_, ok := t.(xattr.TypeWithValidate) //nolint:staticcheck // as in typeValid
		return ok
	}
}

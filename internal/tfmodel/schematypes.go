// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// FixTypes returns s with the value type of every nested block and nested
// attribute worked out once and set as its CustomType.
//
// Without a CustomType the framework works out a nested object's type anew
// each time it asks for it (a map of every attribute's type, recursively),
// and it asks for the whole schema's type once per value it visits when it
// decodes, nullifies or defaults a plan: for a resource with a list of
// blocks of 30 attributes, that was a third of the provider's CPU in a
// plan. The types set here are the ones the framework would compute
// (types.ListType, types.ObjectType and their kin, no custom value types),
// so values, plans and diagnostics are unchanged; a test compares every
// resource's schema type with and without FixTypes.
//
// The maps of s are copied, not changed: a schema built from shared
// attribute maps keeps them as they were. A block or attribute that already
// has a CustomType (the timeouts block) keeps it.
func FixTypes(s schema.Schema) schema.Schema {
	s.Attributes = fixAttributes(s.Attributes)
	s.Blocks = fixBlocks(s.Blocks)
	return s
}

func fixAttributes(in map[string]schema.Attribute) map[string]schema.Attribute {
	return fixEach(in, fixAttribute)
}

// fixEach returns a copy of in with fix applied to each value (nil stays nil).
func fixEach[V any](in map[string]V, fix func(V) V) map[string]V {
	if in == nil {
		return nil
	}
	out := make(map[string]V, len(in))
	for name, v := range in {
		out[name] = fix(v)
	}
	return out
}

func fixAttribute(a schema.Attribute) schema.Attribute {
	switch a := a.(type) {
	case schema.ListNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = fixAttributeObject(a.NestedObject)
			a.CustomType = types.ListType{ElemType: a.NestedObject.CustomType}
		}
		return a
	case schema.SetNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = fixAttributeObject(a.NestedObject)
			a.CustomType = types.SetType{ElemType: a.NestedObject.CustomType}
		}
		return a
	case schema.MapNestedAttribute:
		if a.CustomType == nil {
			a.NestedObject = fixAttributeObject(a.NestedObject)
			a.CustomType = types.MapType{ElemType: a.NestedObject.CustomType}
		}
		return a
	case schema.SingleNestedAttribute:
		if a.CustomType == nil {
			a.Attributes = fixAttributes(a.Attributes)
			if t, ok := a.GetType().(basetypes.ObjectTypable); ok {
				a.CustomType = t
			}
		}
		return a
	}
	return a
}

func fixAttributeObject(o schema.NestedAttributeObject) schema.NestedAttributeObject {
	if o.CustomType == nil {
		o.Attributes = fixAttributes(o.Attributes)
		o.CustomType = o.Type()
	}
	return o
}

func fixBlocks(in map[string]schema.Block) map[string]schema.Block {
	return fixEach(in, fixBlock)
}

func fixBlock(b schema.Block) schema.Block {
	switch b := b.(type) {
	case schema.ListNestedBlock:
		if b.CustomType == nil {
			b.NestedObject = fixBlockObject(b.NestedObject)
			b.CustomType = types.ListType{ElemType: b.NestedObject.CustomType}
		}
		return b
	case schema.SetNestedBlock:
		if b.CustomType == nil {
			b.NestedObject = fixBlockObject(b.NestedObject)
			b.CustomType = types.SetType{ElemType: b.NestedObject.CustomType}
		}
		return b
	case schema.SingleNestedBlock:
		if b.CustomType == nil {
			b.Attributes = fixAttributes(b.Attributes)
			b.Blocks = fixBlocks(b.Blocks)
			if t, ok := b.Type().(basetypes.ObjectTypable); ok {
				b.CustomType = t
			}
		}
		return b
	}
	return b
}

func fixBlockObject(o schema.NestedBlockObject) schema.NestedBlockObject {
	if o.CustomType == nil {
		o.Attributes = fixAttributes(o.Attributes)
		o.Blocks = fixBlocks(o.Blocks)
		o.CustomType = o.Type()
	}
	return o
}

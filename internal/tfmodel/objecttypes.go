// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ObjectTypeAt returns the object type that path reaches from t, a
// schema's type: each name steps into an object's attribute or block, and
// lists, sets and maps are stepped through to their elements. A resource
// declares an attribute in its schema and its model only, and takes the
// object types its values need from here rather than from a map of its
// own.
//
// The types are the schema's own, so a path that reaches no object is a
// programming error: it panics, in the first test that builds such a value.
func ObjectTypeAt(t attr.Type, path ...string) types.ObjectType {
	for i := 0; ; i++ {
		t = elementOf(t)
		obj, ok := t.(interface{ AttributeTypes() map[string]attr.Type })
		if !ok {
			panic(fmt.Sprintf("tfmodel: %s is a %s, not an object", strings.Join(path[:i], "."), t))
		}
		attrs := obj.AttributeTypes()
		if i == len(path) {
			return types.ObjectType{AttrTypes: attrs}
		}
		next, ok := attrs[path[i]]
		if !ok {
			panic(fmt.Sprintf("tfmodel: no attribute %s in the schema's type", strings.Join(path[:i+1], ".")))
		}
		t = next
	}
}

// elementOf steps through lists, sets and maps to the type of their
// elements; any other type is returned as it is.
func elementOf(t attr.Type) attr.Type {
	for {
		c, ok := t.(attr.TypeWithElementType)
		if !ok {
			return t
		}
		t = c.ElementType()
	}
}

// SchemaType is the type of r's schema: the root from which ObjectTypeAt
// takes a resource's nested object types. A resource works it out once.
func SchemaType(r resource.Resource) attr.Type {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Type()
}

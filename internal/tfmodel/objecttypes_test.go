// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestObjectTypeAt walks a schema's type through a list of blocks, a
// single block and a set of objects, and panics on a path that reaches no
// object.
func TestObjectTypeAt(t *testing.T) {
	t.Parallel()
	s := FixTypes(schema.Schema{
		Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}},
		Blocks: map[string]schema.Block{
			"tiers": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Required: true},
					"taints": schema.SetNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
						Attributes: map[string]schema.Attribute{"key": schema.StringAttribute{Optional: true}},
					}},
				},
				Blocks: map[string]schema.Block{"boot": schema.SingleNestedBlock{
					Attributes: map[string]schema.Attribute{"size": schema.Int64Attribute{Optional: true}},
				}},
			}},
		},
	})
	root := s.Type()
	tiers := ObjectTypeAt(root).AttrTypes["tiers"]
	for _, c := range []struct {
		path []string
		want map[string]attr.Type
	}{
		{[]string{"tiers", "boot"}, map[string]attr.Type{"size": types.Int64Type}},
		{[]string{"tiers", "taints"}, map[string]attr.Type{"key": types.StringType}},
		{nil, map[string]attr.Type{"id": types.StringType, "tiers": tiers}},
		{[]string{"tiers"}, map[string]attr.Type{"name": types.StringType, "taints": ObjectTypeAt(root, "tiers").AttrTypes["taints"],
			"boot": types.ObjectType{AttrTypes: map[string]attr.Type{"size": types.Int64Type}}}},
	} {
		if diff := cmp.Diff(c.want, ObjectTypeAt(root, c.path...).AttrTypes); diff != "" {
			t.Errorf("%v (-want +got):\n%s", c.path, diff)
		}
	}
	for path, want := range map[string]string{"tiers.name": "tiers.name is a basetypes.StringType", "tiers.nope": "no attribute tiers.nope"} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, want) {
					t.Errorf("%s: panic %q, want one with %q", path, r, want)
				}
			}()
			ObjectTypeAt(root, strings.Split(path, ".")...)
		}()
	}
}

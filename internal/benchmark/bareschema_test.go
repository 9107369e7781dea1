// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/nodepools"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
)

// TestBareSchema: the bare schemas of the provider's resources have the
// same type and the same flags, and no validator, plan modifier or default.
func TestBareSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, r := range []resource.Resource{tpuvm.NewResource(catalog.Default(), nil), nodepools.NewResource(catalog.Default(), nil)} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		bare, err := BareSchema(resp.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(resp.Schema.Type().TerraformType(ctx), bare.Type().TerraformType(ctx)); diff != "" {
			t.Errorf("the bare schema's type differs (-full +bare):\n%s", diff)
		}
		if d := bare.ValidateImplementation(ctx); d.HasError() {
			t.Errorf("the bare schema is not valid: %v", d)
		}
		behaviours, flags := 0, 0
		var walk func(full, bare map[string]schema.Attribute)
		walk = func(full, bare map[string]schema.Attribute) {
			for name, a := range bare {
				f := full[name]
				if f.IsRequired() != a.IsRequired() || f.IsOptional() != a.IsOptional() || f.IsComputed() != a.IsComputed() || f.IsSensitive() != a.IsSensitive() {
					flags++
				}
				switch a := a.(type) {
				case schema.StringAttribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers) + btoi(a.Default != nil)
				case schema.BoolAttribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers) + btoi(a.Default != nil)
				case schema.Int64Attribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers) + btoi(a.Default != nil)
				case schema.ListAttribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers) + btoi(a.Default != nil)
				case schema.SingleNestedAttribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers)
					fa, _ := f.(schema.SingleNestedAttribute)
					walk(fa.Attributes, a.Attributes)
				case schema.ListNestedAttribute:
					behaviours += len(a.Validators) + len(a.PlanModifiers) + len(a.NestedObject.Validators)
					fa, _ := f.(schema.ListNestedAttribute)
					walk(fa.NestedObject.Attributes, a.NestedObject.Attributes)
				}
			}
		}
		var walkBlocks func(full, bare map[string]schema.Block)
		walkBlocks = func(full, bare map[string]schema.Block) {
			for name, b := range bare {
				switch b := b.(type) {
				case schema.SingleNestedBlock:
					f, _ := full[name].(schema.SingleNestedBlock)
					behaviours += len(b.Validators) + len(b.PlanModifiers)
					walk(f.Attributes, b.Attributes)
					walkBlocks(f.Blocks, b.Blocks)
				case schema.ListNestedBlock:
					f, _ := full[name].(schema.ListNestedBlock)
					behaviours += len(b.Validators) + len(b.PlanModifiers) + len(b.NestedObject.Validators)
					walk(f.NestedObject.Attributes, b.NestedObject.Attributes)
					walkBlocks(f.NestedObject.Blocks, b.NestedObject.Blocks)
				}
			}
		}
		walk(resp.Schema.Attributes, bare.Attributes)
		walkBlocks(resp.Schema.Blocks, bare.Blocks)
		if behaviours != 0 || flags != 0 {
			t.Errorf("the bare schema kept %d validators, plan modifiers or defaults and changed %d flags", behaviours, flags)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

func testSchema(t *testing.T) schema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	NewResource(catalog.Default(), &validation.Modes{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	return resp.Schema
}

// TestSchemaModelParity checks that the models and the attribute type maps
// match the schema exactly.
func TestSchemaModelParity(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	for _, p := range tfmodel.SchemaProblems("resource", s.Attributes, s.Blocks, vmModel{}) {
		t.Error(p)
	}
	nested := map[string]struct {
		model any
		types map[string]attr.Type
	}{
		"network_config":            {networkConfigModel{}, networkConfigAttrTypes},
		"network_configs":           {networkConfigModel{}, networkConfigAttrTypes},
		"boot_disk":                 {bootDiskModel{}, bootDiskAttrTypes},
		"service_account":           {serviceAccountModel{}, serviceAccountAttrTypes},
		"scheduling_config":         {schedulingConfigModel{}, schedulingConfigAttrTypes},
		"shielded_instance_config":  {shieldedInstanceConfigModel{}, shieldedInstanceConfigAttrTypes},
		"data_disks":                {dataDiskModel{}, dataDiskAttrTypes},
		"network_endpoints":         {networkEndpointModel{}, networkEndpointAttrTypes},
		"effective_network_config":  {networkConfigModel{}, networkConfigAttrTypes},
		"effective_service_account": {serviceAccountModel{}, serviceAccountAttrTypes},
	}
	ctx := context.Background()
	for name, n := range nested {
		var typ attr.Type
		if a, ok := s.Attributes[name]; ok {
			typ = a.GetType()
		} else if b, ok := s.Blocks[name]; ok {
			typ = b.Type()
		} else {
			t.Errorf("schema has no %s", name)
			continue
		}
		var obj types.ObjectType
		switch at := typ.(type) {
		case types.ObjectType:
			obj = at
		case types.ListType:
			obj, _ = at.ElemType.(types.ObjectType)
		}
		if !obj.Equal(types.ObjectType{AttrTypes: n.types}) {
			t.Errorf("%s: schema type %s, attribute types %v", name, typ.String(), n.types)
		}
		if d := tfmodel.ModelMismatch(tfmodel.Names(n.types), n.model); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
	if diags := s.ValidateImplementation(ctx); diags.HasError() {
		t.Errorf("schema implementation: %v", diags)
	}
}

// TestSchemaDescriptions checks that every attribute, nested ones included,
// is documented.
func TestSchemaDescriptions(t *testing.T) {
	t.Parallel()
	s := testSchema(t)
	var walk func(prefix string, attrs map[string]schema.Attribute)
	walk = func(prefix string, attrs map[string]schema.Attribute) {
		for name, a := range attrs {
			if a.GetMarkdownDescription() == "" {
				t.Errorf("%s%s has no description", prefix, name)
			}
			switch n := a.(type) {
			case schema.SingleNestedAttribute:
				if name != "timeouts" {
					walk(prefix+name+".", n.Attributes)
				}
			case schema.ListNestedAttribute:
				walk(prefix+name+".", n.NestedObject.Attributes)
			}
		}
	}
	walk("", s.Attributes)
	for name, b := range s.Blocks {
		if b.GetMarkdownDescription() == "" {
			t.Errorf("block %s has no description", name)
		}
		if name == "timeouts" {
			continue
		}
		switch n := b.(type) {
		case schema.SingleNestedBlock:
			walk(name+".", n.Attributes)
		case schema.ListNestedBlock:
			walk(name+".", n.NestedObject.Attributes)
		}
	}
	// The documented allowed values come from the catalog.
	for _, want := range []string{"v5litepod-4", "v6e-8", "v5p-16"} {
		if !slices.Contains(tpuAPIAcceleratorTypes(catalog.Default()), want) {
			t.Errorf("documented accelerator types lack %s", want)
		}
	}
	if slices.Contains(generationNames(catalog.Default()), "tpu7x") {
		t.Error("tpu7x is listed as a Cloud TPU API generation")
	}
}

func TestShortDuration(t *testing.T) {
	t.Parallel()
	for in, want := range map[time.Duration]string{
		30 * time.Minute:               "30m",
		90 * time.Minute:               "1h30m",
		10 * time.Second:               "10s",
		time.Hour:                      "1h",
		20*time.Minute + 5*time.Second: "20m5s",
	} {
		if got := shortDuration(in); got != want {
			t.Errorf("shortDuration(%s) = %q, want %q", in, got, want)
		}
	}
}

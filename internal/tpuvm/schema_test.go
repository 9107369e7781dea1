// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

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
	// Each nested object's type, as the resource takes it from the schema,
	// has exactly the attributes its model's tfsdk tags name.
	nested := map[string]any{
		"network_config": networkConfigModel{}, "network_configs": networkConfigModel{}, "boot_disk": bootDiskModel{},
		"service_account": serviceAccountModel{}, "scheduling_config": schedulingConfigModel{},
		"shielded_instance_config": shieldedInstanceConfigModel{}, "data_disks": dataDiskModel{},
		"network_endpoints": networkEndpointModel{}, "effective_network_config": networkConfigModel{},
		"effective_service_account": serviceAccountModel{}, "capacity": capacityModel{},
	}
	for name, model := range nested {
		if d := tfmodel.ModelMismatch(tfmodel.Names(tfmodel.ObjectTypeAt(s.Type(), name).AttrTypes), model); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
	ctx := context.Background()
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

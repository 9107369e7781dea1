// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// TestRequiredInElement_sameAsAlsoRequires: requiredInElement reports what
// objectvalidator.AlsoRequires with relative paths reports, diagnostic for
// diagnostic, on elements of a list block and on a single block.
func TestRequiredInElement_sameAsAlsoRequires(t *testing.T) {
	ctx := context.Background()
	names := []string{"name", "zones", "size"}
	attrs := map[string]schema.Attribute{
		"name":  schema.StringAttribute{Optional: true},
		"zones": schema.ListAttribute{Optional: true, ElementType: types.StringType},
		"size":  schema.Int64Attribute{Optional: true},
		"other": schema.StringAttribute{Optional: true},
	}
	s := schema.Schema{Blocks: map[string]schema.Block{
		"tiers":  schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: attrs}},
		"single": schema.SingleNestedBlock{Attributes: attrs},
	}}
	rootType, _ := s.Type().TerraformType(ctx).(tftypes.Object)
	elemType, _ := rootType.AttributeTypes["single"].(tftypes.Object)
	str := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	zones := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, v) }
	elem := func(name, zs, size, other any) tftypes.Value {
		return tftypes.NewValue(elemType, map[string]tftypes.Value{
			"name": str(name), "zones": zones(zs), "size": tftypes.NewValue(tftypes.Number, size), "other": str(other),
		})
	}
	elems := []tftypes.Value{
		elem("a", []tftypes.Value{str("z")}, 1, nil),     // complete
		elem(nil, []tftypes.Value{str("z")}, 1, "x"),     // name missing
		elem(nil, nil, nil, nil),                         // everything missing
		elem(tftypes.UnknownValue, nil, nil, nil),        // unknown first: checked once known
		elem("a", tftypes.UnknownValue, nil, nil),        // unknown after a set one
		elem(nil, tftypes.UnknownValue, nil, nil),        // missing, then unknown
		elem("a", []tftypes.Value{}, nil, nil),           // an empty list is written
		tftypes.NewValue(elemType, tftypes.UnknownValue), // the whole element unknown
	}
	for _, single := range append(append([]tftypes.Value(nil), elems...), tftypes.NewValue(elemType, nil)) {
		raw := tftypes.NewValue(rootType, map[string]tftypes.Value{
			"tiers":  tftypes.NewValue(rootType.AttributeTypes["tiers"], elems),
			"single": single,
		})
		cfg := tfsdk.Config{Schema: s, Raw: raw}
		paths := []path.Path{path.Root("single")}
		for i := range elems {
			paths = append(paths, path.Root("tiers").AtListIndex(i))
		}
		exprs := make([]path.Expression, len(names))
		for i, n := range names {
			exprs[i] = path.MatchRelative().AtName(n)
		}
		want := objectvalidator.AlsoRequires(exprs...)
		got := requiredInElement(names...)[0]
		for _, p := range paths {
			var v types.Object
			if d := cfg.GetAttribute(ctx, p, &v); d.HasError() {
				t.Fatal(d)
			}
			req := validator.ObjectRequest{Path: p, PathExpression: p.Expression(), Config: cfg, ConfigValue: v}
			var wantResp, gotResp validator.ObjectResponse
			want.ValidateObject(ctx, req, &wantResp)
			got.ValidateObject(ctx, req, &gotResp)
			if !gotResp.Diagnostics.Equal(wantResp.Diagnostics) {
				t.Errorf("%s = %v:\n got  %v\n want %v", p, v, gotResp.Diagnostics, wantResp.Diagnostics)
			}
		}
	}
}

// TestRequiredInElement_namesExist: every attribute a block requires is one
// of its attributes (the check skips names it does not find).
func TestRequiredInElement_namesExist(t *testing.T) {
	var resp resource.SchemaResponse
	(&fallbackNodePoolsResource{catalog: catalog.Default()}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	var walk func(where string, attrs map[string]schema.Attribute, blocks map[string]schema.Block, vs []validator.Object)
	var found []string
	walk = func(where string, attrs map[string]schema.Attribute, blocks map[string]schema.Block, vs []validator.Object) {
		for _, v := range vs {
			if r, ok := v.(requiredAttributesValidator); ok {
				found = append(found, where)
				for _, n := range r.names {
					if _, ok := attrs[n]; !ok {
						t.Errorf("%s requires %q, which it does not have", where, n)
					}
				}
			}
		}
		for name, b := range blocks {
			switch b := b.(type) {
			case schema.ListNestedBlock:
				walk(fmt.Sprintf("%s.%s", where, name), b.NestedObject.Attributes, b.NestedObject.Blocks, b.NestedObject.Validators)
			case schema.SingleNestedBlock:
				walk(fmt.Sprintf("%s.%s", where, name), b.Attributes, b.Blocks, b.Validators)
			}
		}
	}
	walk("accel_fallback_nodepools", resp.Schema.Attributes, resp.Schema.Blocks, nil)
	slices.Sort(found)
	const cd = "accel_fallback_nodepools.tiers.containerd_config.private_registry_access_config"
	want := []string{"accel_fallback_nodepools.tiers", "accel_fallback_nodepools.tiers.additional_node_network_configs",
		"accel_fallback_nodepools.tiers.additional_pod_network_configs", cd, cd + ".certificate_authority_domain_config",
		cd + ".certificate_authority_domain_config.gcp_secret_manager_certificate_config",
		"accel_fallback_nodepools.tiers.gpu_sharing_config", "accel_fallback_nodepools.tiers.reservation_affinity",
		"accel_fallback_nodepools.tiers.secondary_boot_disks", "accel_fallback_nodepools.tiers.taints"}
	if !slices.Equal(found, want) {
		t.Errorf("blocks with required attributes: %v, want %v", found, want)
	}
}

// TestNodeCountValidator_sameAsFrameworkValidators: nodeCountValidator on
// a tier reports what int64validator.ConflictsWith on node_count and
// AlsoRequires on min_node_count and max_node_count report, diagnostic for
// diagnostic, for each of the three null, set or unknown.
func TestNodeCountValidator_sameAsFrameworkValidators(t *testing.T) {
	ctx := context.Background()
	names := []string{"node_count", "min_node_count", "max_node_count"}
	attrs := map[string]schema.Attribute{}
	for _, n := range names {
		attrs[n] = schema.Int64Attribute{Optional: true}
	}
	s := schema.Schema{Blocks: map[string]schema.Block{
		"tiers": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: attrs}},
	}}
	rootType, _ := s.Type().TerraformType(ctx).(tftypes.Object)
	listType, _ := rootType.AttributeTypes["tiers"].(tftypes.List)
	elemType, _ := listType.ElementType.(tftypes.Object)
	values := []any{nil, 1, tftypes.UnknownValue}
	var elems []tftypes.Value
	for _, c := range values {
		for _, lo := range values {
			for _, hi := range values {
				elems = append(elems, tftypes.NewValue(elemType, map[string]tftypes.Value{
					"node_count": tftypes.NewValue(tftypes.Number, c), "min_node_count": tftypes.NewValue(tftypes.Number, lo),
					"max_node_count": tftypes.NewValue(tftypes.Number, hi),
				}))
			}
		}
	}
	cfg := tfsdk.Config{Schema: s, Raw: tftypes.NewValue(rootType, map[string]tftypes.Value{"tiers": tftypes.NewValue(listType, elems)})}
	sibling := func(n string) path.Expression { return path.MatchRelative().AtParent().AtName(n) }
	framework := map[string]validator.Int64{
		"node_count":     int64validator.ConflictsWith(sibling("min_node_count"), sibling("max_node_count")),
		"min_node_count": int64validator.AlsoRequires(sibling("max_node_count")),
		"max_node_count": int64validator.AlsoRequires(sibling("min_node_count")),
	}
	for i := range elems {
		p := path.Root("tiers").AtListIndex(i)
		var want diag.Diagnostics
		for _, n := range names {
			var v types.Int64
			if d := cfg.GetAttribute(ctx, p.AtName(n), &v); d.HasError() {
				t.Fatal(d)
			}
			var resp validator.Int64Response
			framework[n].ValidateInt64(ctx, validator.Int64Request{Path: p.AtName(n), PathExpression: p.AtName(n).Expression(), Config: cfg, ConfigValue: v}, &resp)
			want.Append(resp.Diagnostics...)
		}
		var obj types.Object
		if d := cfg.GetAttribute(ctx, p, &obj); d.HasError() {
			t.Fatal(d)
		}
		var got validator.ObjectResponse
		nodeCountValidator{}.ValidateObject(ctx, validator.ObjectRequest{Path: p, PathExpression: p.Expression(), Config: cfg, ConfigValue: obj}, &got)
		if !got.Diagnostics.Equal(want) {
			t.Errorf("%s = %v:\n got  %v\n want %v", p, obj, got.Diagnostics, want)
		}
	}
}

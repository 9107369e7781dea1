// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// TestSyncIdentityWithoutPools: a state without tiers (as an older release
// wrote after every pool of a saved plan was refused) still gets an
// identity, so that the read that removes it is not refused by the framework
// ("Missing Resource Identity After Read").
func TestSyncIdentityWithoutPools(t *testing.T) {
	ctx := context.Background()
	r := &fallbackNodePoolsResource{catalog: catalog.Default()}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	var ir resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ir)

	prior := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	var diags diag.Diagnostics
	diags.Append(prior.SetAttribute(ctx, path.Root("cluster"), "projects/p/locations/us-central1/clusters/c")...)
	diags.Append(prior.SetAttribute(ctx, path.Root("tiers"), types.ListValueMust(schemaTypes().tier, nil))...)
	removed := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	identity := &tfsdk.ResourceIdentity{Schema: ir.IdentitySchema, Raw: tftypes.NewValue(ir.IdentitySchema.Type().TerraformType(ctx), nil)}
	syncIdentity(ctx, &removed, &prior, identity, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if identity.Raw.IsFullyNull() {
		t.Fatal("no identity for a state without tiers")
	}
	var m identityModel
	diags.Append(identity.Get(ctx, &m)...)
	if diags.HasError() || m.Cluster.ValueString() != "c" || m.Location.ValueString() != "us-central1" || len(m.NodePools.Elements()) != 0 {
		t.Fatalf("identity %+v (%v), want cluster c in us-central1 and no pools", m, diags)
	}
}

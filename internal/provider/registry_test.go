// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// withoutGeneration is the embedded catalog without one TPU generation.
func withoutGeneration(t *testing.T, gen string) *catalog.Catalog {
	t.Helper()
	var data map[string]any
	if err := json.Unmarshal(catalog.Embedded(), &data); err != nil {
		t.Fatal(err)
	}
	gens, ok := data["generations"].([]any)
	if !ok {
		t.Fatal("catalog data has no generations list")
	}
	kept := gens[:0]
	for _, g := range gens {
		if m, ok := g.(map[string]any); !ok || m["name"] != gen {
			kept = append(kept, g)
		}
	}
	data["generations"] = kept
	data["date"] = "2000-01-01"
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(raw)
	if err != nil {
		t.Fatalf("loading the smaller catalog: %v", err)
	}
	return cat
}

// schemaText is every description of the resources and data sources the
// provider serves from cat.
func schemaText(t *testing.T, cat *catalog.Catalog) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, f := range resources(cat, validation.NewModes(cat)) {
		var resp resource.SchemaResponse
		f().Schema(ctx, resource.SchemaRequest{}, &resp)
		fmt.Fprintf(&b, "%#v\n", resp.Schema)
	}
	for _, f := range dataSources(cat, validation.NewModes(cat)) {
		var resp datasource.SchemaResponse
		f().Schema(ctx, datasource.SchemaRequest{}, &resp)
		fmt.Fprintf(&b, "%#v\n", resp.Schema)
	}
	return b.String()
}

// TestResourcesUseTheCatalogHandedIn: every resource and data source takes
// its knowledge from the catalog the provider hands it, not from the
// embedded one, so a test can run them against a smaller or newer catalog.
func TestResourcesUseTheCatalogHandedIn(t *testing.T) {
	t.Parallel()
	if !strings.Contains(schemaText(t, catalog.Default()), "`v5p-256`") {
		t.Fatal("the embedded catalog's schemas do not name v5p-8: the test no longer tests anything")
	}
	small := withoutGeneration(t, "v5p")
	if text := schemaText(t, small); strings.Contains(text, "`v5p-256`") {
		t.Error("a schema built from a catalog without v5p still names v5p-256")
	}
	if got := validation.NewModes(small).Provider().CatalogDate; got != "2000-01-01" {
		t.Errorf("the validation modes carry the catalog date %q, want the handed-in catalog's", got)
	}
}

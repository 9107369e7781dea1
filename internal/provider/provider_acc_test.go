// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccProvider_devOverridesSchema builds the binary and asks the real CLI
// for its schema through dev_overrides, as a user of a local build would.
func TestAccProvider_devOverridesSchema(t *testing.T) {
	env := acctest.DevInstall(t)
	dir := t.TempDir()
	cfg := "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(acctest.TerraformPath(t), "providers", "schema", "-json")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform providers schema: %v\n%s", err, out)
	}
	type providerSchema struct {
		Provider struct {
			Block struct {
				Attributes map[string]struct {
					Sensitive bool `json:"sensitive"`
				} `json:"attributes"`
			} `json:"block"`
		} `json:"provider"`
		ResourceSchemas   map[string]json.RawMessage `json:"resource_schemas"`
		DataSourceSchemas map[string]json.RawMessage `json:"data_source_schemas"`
	}
	var schema struct {
		ProviderSchemas map[string]providerSchema `json:"provider_schemas"`
	}
	if err := json.Unmarshal(out, &schema); err != nil {
		t.Fatalf("decoding schema: %v", err)
	}
	// Terraform names the provider after its default registry host, OpenTofu
	// after its own; the source address is the same.
	var p providerSchema
	found := false
	for _, key := range []string{"registry.terraform.io/accel-dev/accel", "registry.opentofu.org/accel-dev/accel"} {
		if s, ok := schema.ProviderSchemas[key]; ok {
			p, found = s, true
		}
	}
	if !found {
		t.Fatalf("schema has no accel-dev/accel provider under registry.terraform.io or registry.opentofu.org: %s", out)
	}
	var attrs []string
	for name := range p.Provider.Block.Attributes {
		attrs = append(attrs, name)
	}
	slices.Sort(attrs)
	want := []string{"access_token", "compute_endpoint", "container_endpoint", "credentials", "default_labels", "impersonate_service_account",
		"poll_interval", "project", "stockout_retry", "tpu_endpoint", "validation", "zone"}
	if !slices.Equal(attrs, want) {
		t.Errorf("provider attributes = %v, want %v", attrs, want)
	}
	for _, secret := range []string{"access_token", "credentials"} {
		if !p.Provider.Block.Attributes[secret].Sensitive {
			t.Errorf("%s is not sensitive in the served schema", secret)
		}
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package examplecheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
)

// TestAccInstallImpliedMirror is the README's installation: `make install`
// (devbuild.BuildMirror into ~/.terraform.d/plugins) and then `terraform
// init` with no CLI configuration at all finds the provider in the implied
// local mirror and needs no registry; the plan runs the provider's checks.
func TestAccInstallImpliedMirror(t *testing.T) {
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	home := t.TempDir()
	plugins := filepath.Join(home, ".terraform.d", "plugins")
	if err := devbuild.BuildMirror(t.Context(), root, plugins, "0.1.0"); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(home, "empty.tfrc")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// The test environment, with the user's own HOME and no CLI configuration.
	var user []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") {
			user = append(user, kv)
		}
	}
	user = append(user, "HOME="+home, "TF_CLI_CONFIG_FILE="+empty)
	ws := acctest.NewModuleWorkspace(t, user, tf, map[string]string{"main.tf": `terraform {
  required_providers {
    accel = { source = "accel-dev/accel", version = "~> 0.1" }
  }
}

output "runtime" {
  value = provider::accel::runtime_version("v6e-8", "jax")
}
`})
	if _, _, err := ws.Run("init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("init from the implied local mirror: %v", err)
	}
	stdout, _, err := ws.Run("plan", "-input=false", "-no-color")
	if err != nil || !strings.Contains(stdout, `runtime = "v2-alpha-tpuv6e"`) {
		t.Fatalf("plan: %v\n%s", err, stdout)
	}
}

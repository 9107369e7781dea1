// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccProvider_queryGeneratesConfig runs the round trip `terraform query`
// is for (Terraform 1.14 and later), with the built provider: resources
// created in one working directory are found from another by their list
// blocks, `-generate-config-out` writes import and resource blocks for
// them, and the plan of that configuration imports them and changes nothing.
func TestAccProvider_queryGeneratesConfig(t *testing.T) {
	tf := acctest.TerraformPath(t)
	if major, minor, name := cliVersion(tf); major < 1 || major == 1 && minor < 14 {
		t.Skipf("terraform query needs Terraform 1.14 or later; %s is %s", tf, name)
	}
	env := acctest.DevInstall(t)
	srv, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	provider := fmt.Sprintf(`
terraform {
  required_providers {
    accel = { source = "accel-dev/accel" }
  }
}

provider "accel" {
  project            = %q
  zone               = "us-central1-a"
  tpu_endpoint       = %q
  container_endpoint = %q
  poll_interval      = "100ms"
}
`, acctest.EmulatorProject, srv.TPUEndpoint(), srv.ContainerEndpoint())
	cluster := "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/serving"
	resources := fmt.Sprintf(`
resource "accel_tpu_vm" "serve" {
  name             = "query-vm"
  accelerator_type = "v5litepod-4"
  labels           = { team = "ml" }
}

resource "accel_fallback_nodepools" "serve" {
  cluster       = %q
  compute_class = "query-class"
  tiers {
    name             = "query-v6e"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    node_count       = 1
  }
  tiers {
    name           = "query-l4"
    machine_type   = "g2-standard-4"
    gpu_type       = "nvidia-l4"
    node_locations = ["us-central1-a"]
  }
}
`, cluster)
	run := func(dir string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	created := t.TempDir()
	write(created, "main.tf", provider+resources)
	run(created, "apply", "-auto-approve", "-input=false", "-no-color")

	found := t.TempDir()
	write(found, "main.tf", provider)
	write(found, "search.tfquery.hcl", `
list "accel_tpu_vm" "vms" {
  provider = accel
  config {
    zone = "us-central1-a"
  }
}

list "accel_fallback_nodepools" "pools" {
  provider = accel
  config {
    location = "us-central1"
    cluster  = "serving"
  }
}
`)
	out := run(found, "query", "-generate-config-out=generated.tf", "-no-color")
	for _, want := range []string{"query-vm", "query-v6e, query-l4"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("terraform query output does not list %q:\n%s", want, out)
		}
	}
	generated, err := os.ReadFile(filepath.Join(found, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// The seeded default-pool is found too (it carries no ownership label);
	// this test imports only what it created.
	blocks := keepBlocksMentioning(string(generated), "query-vm", "query-v6e")
	write(found, "generated.tf", blocks)
	run(found, "plan", "-input=false", "-no-color", "-out=plan.bin")
	var plan struct {
		ResourceChanges []struct {
			Type   string `json:"type"`
			Change struct {
				Actions   []string        `json:"actions"`
				Importing json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(run(found, "show", "-json", "plan.bin"), &plan); err != nil {
		t.Fatal(err)
	}
	var imported []string
	for _, rc := range plan.ResourceChanges {
		if !slices.Equal(rc.Change.Actions, []string{"no-op"}) || len(rc.Change.Importing) == 0 {
			t.Errorf("%s: actions %v importing %s, want a no-op import\nconfiguration:\n%s", rc.Type, rc.Change.Actions, rc.Change.Importing, blocks)
		}
		imported = append(imported, rc.Type)
	}
	slices.Sort(imported)
	if want := []string{"accel_fallback_nodepools", "accel_tpu_vm"}; !slices.Equal(imported, want) {
		t.Errorf("planned imports = %v, want %v\nconfiguration:\n%s", imported, want, blocks)
	}
	run(created, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// cliVersion is the major and minor version `terraform version -json`
// reports, and the version itself; 0, 0 when it cannot be read.
func cliVersion(tf string) (major, minor int, name string) {
	out, err := exec.Command(tf, "version", "-json").Output()
	if err != nil {
		return 0, 0, "unknown"
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if json.Unmarshal(out, &v) != nil {
		return 0, 0, "unknown"
	}
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &major, &minor); err != nil {
		return 0, 0, v.Version
	}
	return major, minor, v.Version
}

// keepBlocksMentioning keeps the top-level blocks of an HCL file (separated
// by blank lines, as terraform writes them) that contain one of words.
func keepBlocksMentioning(hcl string, words ...string) string {
	var kept []string
	for _, block := range strings.Split(hcl, "\n\n") {
		if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(block, w) }) {
			kept = append(kept, block)
		}
	}
	return strings.Join(kept, "\n\n")
}

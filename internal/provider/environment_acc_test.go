// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccProvider_environmentErrors runs `terraform plan` with a bad value in
// each environment variable the provider validates, and checks what the user
// sees: one error, naming the variable and its value, shown on the provider
// block rather than on no source at all.
func TestAccProvider_environmentErrors(t *testing.T) {
	env := acctest.DevInstall(t)
	dir := t.TempDir()
	cfg := `terraform {
  required_providers {
    accel = { source = "accel-dev/accel" }
  }
}

provider "accel" {}

resource "accel_tpu_vm" "x" {
  name             = "x"
  project          = "p"
  accelerator_type = "v6e-1"
  zones            = ["us-central1-b"]
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		variable, value, summary string
	}{
		{"ACCEL_POLL_INTERVAL", "banana", "Invalid Poll Interval"},
		{"ACCEL_VALIDATION", "loose", "Invalid Validation Mode"},
		{"ACCEL_TPU_ENDPOINT", "ftp://tpu.example.com", "Invalid Endpoint"},
		{"ACCEL_CONTAINER_ENDPOINT", "localhost:8080", "Invalid Endpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.variable, func(t *testing.T) {
			cmd := exec.Command(acctest.TerraformPath(t), "plan", "-no-color", "-input=false")
			cmd.Dir, cmd.Env = dir, append(env, tc.variable+"="+tc.value)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("terraform plan succeeded with %s=%s:\n%s", tc.variable, tc.value, out)
			}
			text := strings.Join(strings.Fields(string(out)), " ") // undo the CLI's line wrapping
			if n := strings.Count(text, "Error: "); n != 1 {
				t.Errorf("%d errors, want 1:\n%s", n, out)
			}
			for _, want := range []string{"Error: " + tc.summary, tc.variable + ` = "` + tc.value + `"`, "on main.tf line 7"} {
				if !strings.Contains(text, want) {
					t.Errorf("output does not contain %q:\n%s", want, out)
				}
			}
			if strings.Contains(text, "<empty>") {
				t.Errorf("the error has no source location:\n%s", out)
			}
		})
	}
}

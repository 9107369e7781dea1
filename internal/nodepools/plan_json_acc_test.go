// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// planDiagnostic is a diagnostic line of `terraform plan -json`.
type planDiagnostic struct {
	Type       string `json:"type"`
	Diagnostic struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
	} `json:"diagnostic"`
}

// TestAccFallbackNodePools_diagnosticsOnce runs `terraform plan -json` with
// the real CLI against a build of the provider and counts the diagnostics:
// Terraform validates a configuration twice during a plan, and each catalog
// finding must still be shown exactly once, whether a warning, an error, or
// an error downgraded by validation = "warn". (terraform-plugin-testing
// cannot count warnings.)
func TestAccFallbackNodePools_diagnosticsOnce(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	cases := map[string]struct {
		extra, zones string
		severity     string
		summary      string
		wantFail     bool
	}{
		"catalog warning": {zones: `"us-central1-b", "us-central1-f"`, severity: "warning", summary: "Zone Not Listed for TPU Generation"},
		"catalog error":   {zones: `"asia-east1-c"`, severity: "error", summary: "Zone Does Not Offer TPU Generation", wantFail: true},
		"catalog error as a warning": {extra: "  validation = \"warn\"\n", zones: `"asia-east1-c"`, severity: "warning",
			summary: "Zone Does Not Offer TPU Generation"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireEmulator(t)
			dir := t.TempDir()
			hcl := "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n\n" +
				tg.Config(fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = "once"
%s  tiers = [{ name = "tpu", accelerator_type = "v6e-4", node_locations = [%s] }]
}
`, tg.Cluster, tc.extra, tc.zones))
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.CommandContext(t.Context(), tf, "plan", "-json", "-input=false", "-no-color")
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if failed := err != nil; failed != tc.wantFail {
				t.Fatalf("plan error = %v, want failure %v\nstdout:\n%s\nstderr:\n%s", err, tc.wantFail, stdout.String(), stderr.String())
			}
			count := 0
			sc := bufio.NewScanner(&stdout)
			sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
			for sc.Scan() {
				var d planDiagnostic
				if json.Unmarshal(sc.Bytes(), &d) != nil || d.Type != "diagnostic" {
					continue
				}
				if d.Diagnostic.Summary == tc.summary {
					count++
					if d.Diagnostic.Severity != tc.severity {
						t.Errorf("%q is a %s, want a %s", tc.summary, d.Diagnostic.Severity, tc.severity)
					}
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if count != 1 {
				t.Errorf("%q shown %d times, want once\nstdout:\n%s", tc.summary, count, stdout.String())
			}
		})
	}
}

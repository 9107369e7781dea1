// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_diagnosticsOnce runs `terraform plan -json` with
// the real CLI against a build of the provider and counts the diagnostics:
// Terraform validates a configuration twice during a plan, and each catalog
// finding must still be shown exactly once, whether a warning, an error, or
// an error downgraded by validation = "warn"; and the live answer about a
// zone replaces the catalog's zone-list warning about it. (terraform-plugin-testing
// cannot count warnings.)
func TestAccFallbackNodePools_diagnosticsOnce(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	cases := map[string]struct {
		extra, tier string
		severity    string
		summary     string
		wantFail    bool
	}{
		"catalog warning": {tier: `accelerator_type = "v6e-16"
    min_node_count   = 0
    max_node_count   = 8
    node_locations   = ["us-central1-b"]`, severity: "warning", summary: "Autoscaling Bound Above One Slice"},
		"live error": {tier: `accelerator_type = "v6e-4"
    node_locations   = ["us-central1-a"]`, severity: "error", summary: "Zone Does Not Offer Accelerator", wantFail: true},
		"live error as a warning": {extra: "  validation = \"warn\"\n", tier: `accelerator_type = "v6e-4"
    node_locations   = ["us-central1-a"]`, severity: "warning", summary: "Zone Does Not Offer Accelerator"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireCluster(t)
			diags := acctest.ExpectPlanOnce(t, env, tf, tg.Config(fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = "once"
%s  tiers {
    name             = "tpu"
    %s
  }
}
`, tg.Cluster, tc.extra, tc.tier)), tc.wantFail,
				acctest.Want{Summary: tc.summary}, acctest.Want{Summary: tc.summary, Severity: tc.severity})
			for _, d := range diags {
				if strings.HasPrefix(tc.summary, "Zone Does Not") && strings.HasPrefix(d.Summary, "Zone Not Listed") {
					t.Errorf("the catalog's %q is shown beside the live answer: %+v", d.Summary, d)
				}
			}
		})
	}
}

// exitCode is the CLI's exit code in err from run, 0 for none.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestAccFallbackNodePools_stockoutTaint shows what the on_stockout
// documentation says: with on_stockout = "fail", a stockout in the first
// apply fails it and Terraform taints the resource (the next plan replaces
// every pool); `terraform untaint` keeps the pools, and the plan then
// re-creates only the pool in ERROR.
func TestAccFallbackNodePools_stockoutTaint(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects a stockout")
	tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", 0)
	prefix := acctest.RandomName("st")
	w := acctest.NewWorkspace(t, env, tf, tg.Config(fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
  on_stockout   = "fail"
  tiers {
    name             = "%[2]s-v6e"
    accelerator_type = "v6e-4"
    node_count       = 1
    node_locations   = ["us-central1-b"]
  }
  tiers {
    name           = "%[2]s-l4"
    machine_type   = "g2-standard-4"
    gpu_type       = "nvidia-l4"
    node_locations = ["us-central1-a"]
  }
}
`, tg.Cluster, prefix)))
	t.Cleanup(func() {
		if _, _, err := w.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Error(err)
		}
	})
	out, _, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color")
	if err == nil || !strings.Contains(err.Error(), "Node Pool Out of Capacity") {
		t.Fatalf("apply: want a failure for lack of capacity, got %v\n%s", err, out)
	}
	out, _, err = w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if exitCode(err) != 2 || !strings.Contains(out, "tainted") || !strings.Contains(out, "must be replaced") {
		t.Fatalf("plan after the stockout: want the tainted resource replaced, got %v\n%s", err, out)
	}
	if _, _, err := w.Run("untaint", "accel_fallback_nodepools.test"); err != nil {
		t.Fatal(err)
	}
	// Untainted, the resource is updated in place: only the pool in ERROR
	// is re-created, the healthy one is kept.
	out, _, err = w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color")
	if exitCode(err) != 2 || strings.Contains(out, "must be replaced") || !strings.Contains(out, "1 to change, 0 to destroy") ||
		!strings.Contains(strings.Join(strings.Fields(out), " "), "/nodePools/"+prefix+"-v6e (in ERROR): re-created: its node pool is in ERROR") {
		t.Fatalf("plan after untaint: want an in-place update that re-creates the pool in ERROR, got %v\n%s", err, out)
	}
	// The diff itself names the pool that is re-created.
	recreated := regexp.MustCompile(`~ "` + prefix + `-v6e" = \{\s+~ created_at = "[0-9TZ:-]+" -> \(known after apply\)`)
	if !recreated.MatchString(out) {
		t.Errorf("plan after untaint: want pools[%q].created_at -> (known after apply) in the diff, got\n%s", prefix+"-v6e", out)
	}
}

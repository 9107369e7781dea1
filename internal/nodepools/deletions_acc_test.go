// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_planNamesDeletions: with the real CLI, a plan
// that deletes one tier's pool and re-creates another's says so in one
// warning whose summary names both pools (Terraform folds warnings of one
// summary, which hid a re-creation), each with its nodes and why. A
// replaces that names no tier of the state while the plan removes one is
// an error naming the tier it could mean, and so is a cluster GKE does not
// have. (terraform-plugin-testing cannot read warnings.)
func TestAccFallbackNodePools_planNamesDeletions(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireCluster(t)
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	p := acctest.RandomName("del")
	tierHCL := func(name, machine, more string, count int) string {
		return fmt.Sprintf("  tiers {\n    name           = %q\n    machine_type   = %q\n    node_locations = [\"us-central1-a\"]\n"+
			"    node_count     = %d\n%s  }\n", p+"-"+name, machine, count, more)
	}
	resourceOn := func(cluster string, tiers ...string) string {
		return tg.Config(fmt.Sprintf("resource \"accel_fallback_nodepools\" \"test\" {\n  cluster       = %q\n  compute_class = %q\n%s}\n",
			cluster, p, strings.Join(tiers, "")))
	}
	w := acctest.NewWorkspace(t, env, tf, resourceOn(tg.Cluster,
		tierHCL("a", "g2-standard-4", "", 2), tierHCL("b", "g2-standard-8", "", 1), tierHCL("c", "g2-standard-4", "", 1)))
	if stdout, _, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, stdout)
	}
	t.Cleanup(func() {
		if stdout, _, err := w.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Errorf("destroy: %v\n%s", err, stdout)
		}
	})
	plan := func(config string) ([]acctest.Diagnostic, error) {
		t.Helper()
		w.Write(config)
		stdout, _, err := w.Run("plan", "-json", "-input=false", "-no-color")
		return acctest.ParseDiagnostics(t, stdout), err
	}

	// a re-created (another machine type), b removed, c kept.
	diags, err := plan(resourceOn(tg.Cluster, tierHCL("a", "g2-standard-8", "", 2), tierHCL("c", "g2-standard-4", "", 1)))
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	var warnings []acctest.Diagnostic
	for _, d := range diags {
		if d.Severity == "warning" && strings.Contains(d.Summary, "Will Be") {
			warnings = append(warnings, d)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("%d warnings of deleted pools, want one: %+v", len(warnings), diags)
	}
	d := warnings[0]
	detail := strings.Join(strings.Fields(d.Detail), " ")
	for _, want := range []string{
		"/nodePools/" + p + "-a (2 nodes): re-created: the tier changes what GKE cannot change in place",
		"/nodePools/" + p + "-b (1 node): deleted: its tier was removed or renamed",
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("warning %q: detail %q does not contain %q", d.Summary, detail, want)
		}
	}
	if d.Summary != "Node Pools Will Be Deleted: "+p+"-a, "+p+"-b" || strings.Contains(detail, p+"-c") {
		t.Errorf("warning summary %q (detail %q), want both deleted pools named and the kept one not", d.Summary, detail)
	}

	// b renamed to b2 with a misspelt replaces.
	diags, err = plan(resourceOn(tg.Cluster, tierHCL("a", "g2-standard-4", "", 2),
		tierHCL("b2", "g2-standard-16", fmt.Sprintf("    replaces       = %q\n", p+"-bb"), 1), tierHCL("c", "g2-standard-4", "", 1)))
	if err == nil || !hasError(diags, "Replaced Tier Not Found", fmt.Sprintf("one of %q", p+"-b")) {
		t.Errorf("plan with a misspelt replaces: %v, want Replaced Tier Not Found naming %s; %+v", err, p+"-b", diags)
	}

	// A new compute_class in the plan that replaces a tier.
	diags, err = plan(strings.Replace(resourceOn(tg.Cluster, tierHCL("a", "g2-standard-4", "", 2),
		tierHCL("b2", "g2-standard-16", fmt.Sprintf("    replaces       = %q\n", p+"-b"), 1), tierHCL("c", "g2-standard-4", "", 1)),
		fmt.Sprintf("compute_class = %q", p), fmt.Sprintf("compute_class = %q", p+"-new"), 1))
	if err == nil || !hasError(diags, "ComputeClass Renamed While a Tier Is Replaced", fmt.Sprintf("tier %q replaces tier %q", p+"-b2", p+"-b")) {
		t.Errorf("plan renaming the class with replaces: %v, want ComputeClass Renamed While a Tier Is Replaced; %+v", err, diags)
	}

	// A second resource of the configuration with the same ComputeClass.
	second := strings.Replace(strings.TrimPrefix(resourceOn(tg.Cluster, tierHCL("d", "g2-standard-4", "", 1)), tg.ProviderConfig()),
		`"accel_fallback_nodepools" "test"`, `"accel_fallback_nodepools" "second"`, 1)
	diags, err = plan(resourceOn(tg.Cluster, tierHCL("a", "g2-standard-4", "", 2), tierHCL("b", "g2-standard-8", "", 1),
		tierHCL("c", "g2-standard-4", "", 1)) + second)
	if err == nil || !hasError(diags, "ComputeClass Declared Twice", fmt.Sprintf("declares ComputeClass %q", p)) {
		t.Errorf("plan of two resources with one class: %v, want ComputeClass Declared Twice; %+v", err, diags)
	}

	// The same class from a second state: created (the class's pools of
	// another resource are only a warning then: they may be what a killed
	// apply of this configuration left), then refused by its next plan.
	w2 := acctest.NewWorkspace(t, env, tf, resourceOn(tg.Cluster, tierHCL("e", "g2-standard-4", "", 1)))
	if stdout, _, err := w2.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply of the second state: %v\n%s", err, stdout)
	}
	t.Cleanup(func() {
		w2.Write(resourceOn(tg.Cluster, tierHCL("e", "g2-standard-4", "", 1)))
		if stdout, _, err := w2.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Errorf("destroy of the second state: %v\n%s\n%v", err, stdout, err)
		}
	})
	w2.Write(resourceOn(tg.Cluster, tierHCL("e", "g2-standard-4", "", 2))) // a change: the conflict is an error
	stdout, _, err := w2.Run("plan", "-json", "-input=false", "-no-color")
	if diags := acctest.ParseDiagnostics(t, stdout); err == nil || !hasError(diags, "ComputeClass Shared With Another Resource", p+"-a") {
		t.Errorf("plan of the second state: %v, want ComputeClass Shared With Another Resource naming %s; %+v", err, p+"-a", diags)
	}

	// A cluster GKE does not have.
	diags, err = plan(resourceOn(tg.Cluster+"x", tierHCL("a", "g2-standard-4", "", 2)))
	if err == nil || !hasError(diags, "GKE Cluster Not Found", tg.Cluster+"x") {
		t.Errorf("plan on a cluster that does not exist: %v, want GKE Cluster Not Found; %+v", err, diags)
	}
	w.Write(resourceOn(tg.Cluster, tierHCL("a", "g2-standard-4", "", 2), tierHCL("b", "g2-standard-8", "", 1), tierHCL("c", "g2-standard-4", "", 1)))
}

// hasError reports whether diags hold an error of summary whose detail
// contains detail (whitespace folded).
func hasError(diags []acctest.Diagnostic, summary, detail string) bool {
	for _, d := range diags {
		if d.Severity == "error" && d.Summary == summary && strings.Contains(strings.Join(strings.Fields(d.Detail), " "), detail) {
			return true
		}
	}
	return false
}

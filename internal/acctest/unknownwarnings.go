// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// CheckNoUnknownOnlyWarnings plans the cases with the real CLI (a build of
// the provider, see DevInstall) twice: as written, with values unknown until
// apply, and with every value known. It fails the test for each warning the
// first plan reports and the second does not: a warning that comes from
// values being unknown rather than from the values (such as a false
// "Framework Version Without Framework" while the framework is unknown).
// The unknown-at-plan tests call it; TestUnknownAtPlanCoverage checks that
// each does.
func CheckNoUnknownOnlyWarnings(t *testing.T, tg *Target, kind Kind, typeName string, cases []Case) {
	t.Helper()
	env := DevInstall(t)
	tf := TerraformPath(t)
	warnings := func(files map[string]string) map[Diagnostic]int {
		files["provider.tf"] = tg.ProviderConfig()
		diags, stdout, err := PlanFilesDiagnostics(t, env, tf, files)
		if err != nil {
			t.Fatalf("%v\nstdout:\n%s", err, stdout)
		}
		out := map[Diagnostic]int{}
		for _, d := range diags {
			if d.Severity == "warning" {
				out[d]++
			}
		}
		return out
	}
	known := warnings(UnknownConfigFiles(kind, typeName, KnownCases(cases)))
	for d, n := range warnings(UnknownConfigFiles(kind, typeName, cases)) {
		if extra := n - known[d]; extra > 0 {
			t.Errorf("%s: %d warning(s) only while values are unknown: %s: %s", addressOr(d), extra, d.Summary, d.Detail)
		}
	}
}

func addressOr(d Diagnostic) string {
	if d.Address != "" {
		return d.Address
	}
	return fmt.Sprintf("%q", d.Summary)
}

// KnownCases returns copies of cases with every Unknown replaced by its
// value: the same configurations, known at plan time.
func KnownCases(cases []Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		body, _ := copyValue(c.Body, true).(map[string]any)
		out[i] = Case{Name: c.Name, Body: body, Blocks: c.Blocks}
	}
	return out
}

// unknownPart is the most cases ApplyUnknownCases applies in one test case.
const unknownPart = 24

// ApplyUnknownCases applies the cases (see UnknownConfig) with their values
// unknown at plan time and checks that each part then plans nothing. The
// cases are applied in parts of at most unknownPart, each a test case of
// its own run in parallel: Terraform writes the whole state file after each
// object it creates or destroys, so one apply of N objects writes N² of
// them (two thirds of the CLI's CPU time in an apply of 132 node-pool
// resources).
func ApplyUnknownCases(t *testing.T, tg *Target, kind Kind, typeName string, cases []Case) {
	t.Helper()
	first := 0
	for part := range slices.Chunk(cases, unknownPart) {
		t.Run(fmt.Sprintf("cases_%d_to_%d", first, first+len(part)-1), func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: tg.Config(UnknownConfig(kind, typeName, part)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
		first += len(part)
	}
}

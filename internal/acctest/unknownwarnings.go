// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"testing"
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

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"regexp"
	"testing"
)

func TestPlanErrorTestStepsInNameOrder(t *testing.T) {
	cases := map[string]PlanErrorCase{
		"b": {Config: "config b", Want: regexp.MustCompile("error b")},
		"a": {Config: "config a", Want: regexp.MustCompile("error a")},
		"c": {Config: "config c", Want: regexp.MustCompile("error c")},
	}
	tc := PlanErrorTest(t, cases)
	if tc.ProtoV6ProviderFactories == nil {
		t.Error("no provider under test")
	}
	if len(tc.Steps) != len(cases) {
		t.Fatalf("%d steps, want %d", len(tc.Steps), len(cases))
	}
	for i, name := range []string{"a", "b", "c"} {
		s := tc.Steps[i]
		if !s.PlanOnly || s.Config != "config "+name || s.ExpectError == nil || s.ExpectError.String() != "error "+name || s.PreConfig == nil {
			t.Errorf("step %d: %+v, want the plan-only step of case %q", i+1, s, name)
		}
	}
}

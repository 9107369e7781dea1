// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// PlanErrorCase is a configuration whose plan must fail with an error
// matching Want.
type PlanErrorCase struct {
	Config string
	Want   *regexp.Regexp
}

// PlanErrorTest is a test case of the provider under test with one
// plan-only step per case (see planErrorSteps); the caller runs it with
// resource.Test or resource.ParallelTest.
func PlanErrorTest(t *testing.T, cases map[string]PlanErrorCase) resource.TestCase {
	t.Helper()
	return resource.TestCase{ProtoV6ProviderFactories: ProtoV6ProviderFactories, Steps: planErrorSteps(t, cases)}
}

// planErrorSteps returns one plan-only step per case, in the order of the
// cases' names, each expecting its case's error. One test case runs them
// all: each case costs one plan instead of a CLI set-up of its own (three
// version checks, init, plan and the state read after it). The log names
// each case before its step, so that a failing step points to its case.
func planErrorSteps(t *testing.T, cases map[string]PlanErrorCase) []resource.TestStep {
	t.Helper()
	if len(cases) == 0 {
		t.Fatal("planErrorSteps: no cases")
	}
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	slices.Sort(names)
	steps := make([]resource.TestStep, 0, len(names))
	for i, name := range names {
		c := cases[name]
		if c.Want == nil {
			t.Fatalf("planErrorSteps: case %q has no expected error", name)
		}
		steps = append(steps, resource.TestStep{
			PreConfig:   func() { t.Logf("step %d/%d: %s", i+1, len(names), name) },
			Config:      c.Config,
			PlanOnly:    true,
			ExpectError: c.Want,
		})
	}
	return steps
}

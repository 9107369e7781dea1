// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// CheckFunc is a check of something outside Terraform's state (the
// emulator's call counters, the objects an API holds): a plan check, run
// between plan and apply, and a state check, run after apply.
type CheckFunc func() error

// CheckPlan runs f as a plan check.
func (f CheckFunc) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f()
}

// CheckState runs f as a state check.
func (f CheckFunc) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f()
}

// Calls counts the emulator's calls from its last Snapshot on (from the
// emulator's start before the first). Against a sandbox project nothing
// counts calls, and its checks check nothing (see Target.CallCount), so a
// test keeps its other checks on both targets.
type Calls struct {
	tg     *Target
	before map[string]int64
}

// Calls returns a counter of the target's emulator calls from now on.
func (tg *Target) Calls() *Calls {
	c := &Calls{tg: tg}
	c.Snapshot()
	return c
}

// CallsSinceStart returns a counter of every call the target's emulator
// served since it started.
func (tg *Target) CallsSinceStart() *Calls { return &Calls{tg: tg} }

// Snapshot starts counting again from now; it fits a test step's PreConfig.
func (c *Calls) Snapshot() {
	if c.tg.Emulator != nil {
		c.before = maps.Clone(c.tg.Emulator.Counters())
	}
}

// Since is how many calls to method the emulator served since the snapshot,
// and whether anything counts them.
func (c *Calls) Since(method string) (n int64, counting bool) {
	now, counting := c.tg.CallCount(method)
	return now - c.before[method], counting
}

// Counts is, by method, the calls since the snapshot to every method whose
// name starts with prefix (such as "compute."), the methods called at all;
// nil against a sandbox project.
func (c *Calls) Counts(prefix string) map[string]int64 {
	if c.tg.Emulator == nil {
		return nil
	}
	out := map[string]int64{}
	for m, n := range c.tg.Emulator.Counters() {
		if d := n - c.before[m]; strings.HasPrefix(m, prefix) && d > 0 {
			out[m] = d
		}
	}
	return out
}

// Exactly checks that each method was called exactly as often as want says
// since the snapshot.
func (c *Calls) Exactly(want map[string]int64) CheckFunc {
	return func() error {
		var bad []string
		for m, n := range want {
			if got, counting := c.Since(m); counting && got != n {
				bad = append(bad, fmt.Sprintf("%s called %d times, want %d", m, got, n))
			}
		}
		if len(bad) > 0 {
			slices.Sort(bad)
			return fmt.Errorf("%s", strings.Join(bad, "; "))
		}
		return nil
	}
}

// AtLeast checks that method was called at least n times since the snapshot.
func (c *Calls) AtLeast(method string, n int64) CheckFunc {
	return func() error {
		if got, counting := c.Since(method); counting && got < n {
			return fmt.Errorf("%s called %d times, want at least %d", method, got, n)
		}
		return nil
	}
}

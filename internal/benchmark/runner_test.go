// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

//go:build unix

package benchmark

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeScript is the fake terraform of these tests: a script that logs the
// working directory's base name and its first argument to
// $FAKE_TERRAFORM_LOG, and fails when the configuration says so. It is
// written before any test runs: an executable written while parallel tests
// start processes can be refused with "text file busy", as a child forked
// meanwhile holds it open until it execs (golang/go#22315).
var fakeScript string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fake-terraform-")
	if err != nil {
		panic(err)
	}
	fakeScript = filepath.Join(dir, "terraform")
	body := "#!/bin/sh\nif grep -q fail main.tf; then echo boom >&2; exit 3; fi\necho \"$(basename \"$PWD\") $1\" >> \"$FAKE_TERRAFORM_LOG\"\n"
	if err := os.WriteFile(fakeScript, []byte(body), 0o700); err != nil { //nolint:gosec // an executable test script
		panic(err)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// fakeTerraform is a runner of fakeScript logging to a file of the test's
// own, and that file.
func fakeTerraform(t *testing.T, runs int) (*Runner, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "calls.log")
	env := []string{"PATH=" + os.Getenv("PATH"), "FAKE_TERRAFORM_LOG=" + log}
	return &Runner{Terraform: fakeScript, Env: env, WorkDir: t.TempDir(), Runs: runs}, log
}

// checkCalls checks the fake terraform's log against the calls wanted, in
// order.
func checkCalls(t *testing.T, log string, want ...string) {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSpace(string(b)), "\n")); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestRepeatAllInterleaves(t *testing.T) {
	t.Parallel()
	r, log := fakeTerraform(t, 2)
	samples, err := r.RepeatAll(context.Background(), []Job{
		{Label: "a", Config: "# a", Args: []string{"plan"}},
		{Label: "b", Config: "# b", Args: []string{"show"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, log, // the warm-up round, then two measured rounds
		"ws-001 plan", "ws-002 show",
		"ws-001 plan", "ws-002 show",
		"ws-001 plan", "ws-002 show")
	for i, s := range samples {
		if len(s.Wall) != 2 || len(s.MaxRSS) != 2 || len(s.TreeRSS) != 2 {
			t.Errorf("job %d: %d/%d/%d measured runs, want 2 each", i, len(s.Wall), len(s.MaxRSS), len(s.TreeRSS))
		}
		if s.Wall.Min() <= 0 {
			t.Errorf("job %d: wall time %v", i, s.Wall)
		}
	}
}

func TestRepeatAllFails(t *testing.T) {
	t.Parallel()
	r, _ := fakeTerraform(t, 1)
	_, err := r.RepeatAll(context.Background(), []Job{{Label: "broken", Config: "fail", Args: []string{"plan"}}})
	var runErr *RunError
	if !errors.As(err, &runErr) {
		t.Fatalf("err = %v, want a *RunError", err)
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 3 || !strings.Contains(runErr.Stderr, "boom") || !strings.Contains(err.Error(), "broken") {
		t.Errorf("err = %v, want the job's label, exit code 3 and its stderr", err)
	}
}

// TestRepeatAllSetupAndCalls: a job's setup runs once, before its warm-up,
// and each measured run records the calls made during it, by method.
func TestRepeatAllSetupAndCalls(t *testing.T) {
	t.Parallel()
	r, log := fakeTerraform(t, 2)
	counter := map[string]int64{"x.list": 0, "x.get": 7}
	calls := func() map[string]int64 {
		counter["x.list"] += 2 // read once before and once after each run
		return maps.Clone(counter)
	}
	samples, err := r.RepeatAll(context.Background(), []Job{
		{Label: "refresh", Config: "# a", Args: []string{"plan"}, Setup: []string{"apply"}, Calls: calls},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, log, "ws-001 apply", "ws-001 plan", "ws-001 plan", "ws-001 plan")
	s := samples[0]
	if diff := cmp.Diff(Series[int64]{2, 2}, s.APICalls); diff != "" {
		t.Errorf("API calls per run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int64{"x.list": 2}, s.CallsByMethod); diff != "" {
		t.Errorf("calls by method (-want +got):\n%s", diff)
	}
}

// TestRepeatAllSharedWorkspace: jobs of one Workspace run in one directory,
// set up once by the first, and each job's Before runs before each of its
// runs, the warm-up included; a Before that fails ends the measurement.
func TestRepeatAllSharedWorkspace(t *testing.T) {
	t.Parallel()
	r, log := fakeTerraform(t, 1)
	var befores []string
	before := func(name string) func() error {
		return func() error { befores = append(befores, name); return nil }
	}
	_, err := r.RepeatAll(context.Background(), []Job{
		{Label: "fast", Config: "# a", Args: []string{"plan"}, Setup: []string{"apply"}, Workspace: "w", Before: before("fast")},
		{Label: "slow", Config: "# a", Args: []string{"show"}, Setup: []string{"apply"}, Workspace: "w", Before: before("slow")},
		{Label: "other", Config: "# b", Args: []string{"plan"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, log, "ws-001 apply", "ws-001 plan", "ws-001 show", "ws-002 plan", "ws-001 plan", "ws-001 show", "ws-002 plan")
	if diff := cmp.Diff([]string{"fast", "slow", "fast", "slow"}, befores); diff != "" {
		t.Errorf("Before calls (-want +got):\n%s", diff)
	}
	_, err = r.RepeatAll(context.Background(), []Job{{Label: "refused", Config: "# c", Args: []string{"plan"},
		Before: func() error { return errors.New("no latency") }}})
	if err == nil || !strings.Contains(err.Error(), "refused: no latency") {
		t.Errorf("a failing Before: %v, want the job's label and its error", err)
	}
}

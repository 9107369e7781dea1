// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Diagnostic is one diagnostic the Terraform CLI reports in its -json output.
// terraform-plugin-testing shows errors only; tests that check a warning read
// it here.
type Diagnostic struct {
	// Address is the resource or data source the diagnostic is about, when
	// the CLI names one.
	Address  string `json:"address"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

// cliTimeout bounds one CLI run, so that a hung run fails instead of
// holding the suite until go test's timeout; reaching it is a failure, not a
// measurement. It is far above any run's time on a loaded 2-core machine (a
// plan of 130 resources with unknown values took 76 s there, next to two
// other test processes and two CPU-bound ones).
const cliTimeout = 10 * time.Minute

// PlanDiagnostics runs `terraform plan -json` (tf, with env from DevInstall)
// on config in a new directory and returns every diagnostic it reported,
// its standard output, and its error (which carries standard error) when
// the plan failed.
func PlanDiagnostics(t *testing.T, env []string, tf, config string) ([]Diagnostic, string, error) {
	t.Helper()
	return planDiagnostics(t, NewWorkspace(t, env, tf, config))
}

// PlanFilesDiagnostics is PlanDiagnostics on a module of several files
// (see NewWorkspaceFiles).
func PlanFilesDiagnostics(t *testing.T, env []string, tf string, files map[string]string) ([]Diagnostic, string, error) {
	t.Helper()
	return planDiagnostics(t, NewWorkspaceFiles(t, env, tf, files))
}

func planDiagnostics(t *testing.T, w *Workspace) ([]Diagnostic, string, error) {
	t.Helper()
	stdout, _, err := w.Run("plan", "-json", "-input=false", "-no-color")
	return ParseDiagnostics(t, stdout), stdout, err
}

// ParseDiagnostics returns the diagnostics in the output of a Terraform
// command run with -json: the machine-readable UI of plan and apply (one
// message per line), or terraform validate's one JSON document.
func ParseDiagnostics(t *testing.T, stdout string) []Diagnostic {
	t.Helper()
	var validate struct {
		FormatVersion string       `json:"format_version"`
		Diagnostics   []Diagnostic `json:"diagnostics"`
	}
	if json.Unmarshal([]byte(stdout), &validate) == nil && validate.FormatVersion != "" {
		return validate.Diagnostics
	}
	var diags []Diagnostic
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string     `json:"type"`
			Diagnostic Diagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "diagnostic" {
			diags = append(diags, line.Diagnostic)
		}
	}
	if serr := sc.Err(); serr != nil {
		t.Fatal(serr)
	}
	return diags
}

// Want picks diagnostics: by Summary and Severity when they are set, and by
// Detail, phrases that must each be in the detail once its whitespace is
// folded to single spaces.
type Want struct {
	Summary, Severity string
	Detail            []string
}

// Matching returns the diagnostics w picks.
func (w Want) Matching(diags []Diagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range diags {
		if (w.Summary == "" || d.Summary == w.Summary) && (w.Severity == "" || d.Severity == w.Severity) && containsAll(d.Detail, w.Detail) {
			out = append(out, d)
		}
	}
	return out
}

func containsAll(detail string, phrases []string) bool {
	folded := strings.Join(strings.Fields(detail), " ")
	for _, p := range phrases {
		if !strings.Contains(folded, p) {
			return false
		}
	}
	return true
}

// ExpectPlanOnce plans config through the CLI (as PlanDiagnostics) and
// fails t unless the plan fails exactly when wantFail and each of wants
// picks exactly one diagnostic: a finding is reported, once, with its
// severity. It returns the diagnostics.
func ExpectPlanOnce(t *testing.T, env []string, tf, config string, wantFail bool, wants ...Want) []Diagnostic {
	t.Helper()
	diags, stdout, err := PlanDiagnostics(t, env, tf, config)
	if failed := err != nil; failed != wantFail {
		t.Fatalf("plan error = %v, want failure %v\nstdout:\n%s", err, wantFail, stdout)
	}
	for _, w := range wants {
		if got := w.Matching(diags); len(got) != 1 {
			t.Errorf("diagnostics matching %+v: %+v, want exactly one\nall diagnostics: %+v", w, got, diags)
		}
	}
	return diags
}

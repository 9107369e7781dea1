// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ScenarioResult is one fault-suite scenario, as the suite logs it.
type ScenarioResult struct {
	Name        string
	Passed      bool
	Applies     int
	OrphansSeen int
	// AfterApply and AfterDestroy are the reconciliations of state with
	// the emulator after the last apply and after destroy.
	AfterApply   string
	AfterDestroy string
}

// SecurityResult is one secret-leak check, as the security tests log it.
type SecurityResult struct {
	Credential string
	Secrets    int
	Places     int
	APICalls   int
	Passed     bool
}

// SuiteSummary is what the fault suite and the security tests reported.
type SuiteSummary struct {
	// Command reproduces the run.
	Command   string
	Scenarios []ScenarioResult
	Security  []SecurityResult
	// SecurityFailed lists failed security tests that logged no result.
	SecurityFailed []string
}

var (
	quoted       = `"((?:[^"\\]|\\.)*)"`
	scenarioLine = regexp.MustCompile(`faultsuite: scenario=(\S+) result=(pass|fail) applies=(\d+) orphans_seen=(\d+) after_apply=` +
		quoted + ` after_destroy=` + quoted)
	securityLine = regexp.MustCompile(`security: credential=(\S+) secrets_checked=(\d+) places=(\d+) trace_log_bytes=\d+ api_calls_with_credential=(\d+)`)
	securityFail = regexp.MustCompile(`--- FAIL: (TestAccSecrets\S*)`)
)

// securityTest is the security tests' parent test; its subtests are named
// after the credential.
const securityTest = "TestAccSecrets_notLeaked"

// ParseSuiteLog reads the verbose output of `go test -v` of the fault suite
// and the security tests.
func ParseSuiteLog(out []byte) SuiteSummary {
	var s SuiteSummary
	for _, m := range scenarioLine.FindAllSubmatch(out, -1) {
		applies, _ := strconv.Atoi(string(m[3]))
		orphans, _ := strconv.Atoi(string(m[4]))
		s.Scenarios = append(s.Scenarios, ScenarioResult{
			Name: string(m[1]), Passed: string(m[2]) == "pass", Applies: applies, OrphansSeen: orphans,
			AfterApply: unquote(m[5]), AfterDestroy: unquote(m[6]),
		})
	}
	failed := map[string]bool{}
	for _, m := range securityFail.FindAllSubmatch(out, -1) {
		failed[string(m[1])] = true
	}
	for _, m := range securityLine.FindAllSubmatch(out, -1) {
		secrets, _ := strconv.Atoi(string(m[2]))
		places, _ := strconv.Atoi(string(m[3]))
		calls, _ := strconv.Atoi(string(m[4]))
		cred := string(m[1])
		test := securityTest + "/" + cred
		s.Security = append(s.Security, SecurityResult{
			Credential: cred, Secrets: secrets, Places: places, APICalls: calls, Passed: !failed[test],
		})
		delete(failed, test)
	}
	if len(s.Security) > 0 {
		delete(failed, securityTest) // failed through its subtests, listed above
	}
	for name := range failed {
		s.SecurityFailed = append(s.SecurityFailed, name)
	}
	slices.Sort(s.SecurityFailed)
	slices.SortFunc(s.Scenarios, func(a, b ScenarioResult) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// unquote reads the body of a Go-quoted string, or returns it as it is.
func unquote(b []byte) string {
	u, err := strconv.Unquote(`"` + string(b) + `"`)
	if err != nil {
		return string(b)
	}
	return u
}

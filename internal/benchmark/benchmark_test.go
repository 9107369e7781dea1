// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestMedian(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []time.Duration
		want time.Duration
	}{
		{"none", nil, 0},
		{"one", []time.Duration{3}, 3},
		{"odd, unsorted", []time.Duration{9, 1, 5}, 5},
		{"even: mean of the middle two", []time.Duration{4, 1, 10, 2}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := append([]time.Duration(nil), tt.in...)
			if got := Median(tt.in); got != tt.want {
				t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
			}
			if !cmp.Equal(in, tt.in) {
				t.Errorf("Median changed its input: %v, was %v", tt.in, in)
			}
		})
	}
}

func TestSeries(t *testing.T) {
	t.Parallel()
	s := Series[int64]{7, 3, 5}
	if s.Min() != 3 || s.Max() != 7 || s.Median() != 5 {
		t.Errorf("min/median/max = %d/%d/%d, want 3/5/7", s.Min(), s.Median(), s.Max())
	}
	var empty Series[float64]
	if empty.Min() != 0 || empty.Max() != 0 {
		t.Errorf("empty series min/max = %v/%v, want 0/0", empty.Min(), empty.Max())
	}
}

func TestFitLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		xs, ys []float64
		want   LinearFit
	}{
		{"exact line", []float64{1, 10, 100}, []float64{2.5, 7, 52}, LinearFit{Intercept: 2, Slope: 0.5}},
		{"one point", []float64{1}, []float64{1}, LinearFit{}},
		{"same x", []float64{2, 2}, []float64{1, 3}, LinearFit{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := FitLine(tt.xs, tt.ys)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); diff != "" {
				t.Errorf("FitLine (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRatio(t *testing.T) {
	t.Parallel()
	if got := Ratio(3*time.Second, 2*time.Second); got != 1.5 {
		t.Errorf("Ratio = %v, want 1.5", got)
	}
	if got := Ratio(time.Second, 0); got != 0 {
		t.Errorf("Ratio by zero = %v, want 0", got)
	}
}

// TestConfigsParse checks that every generated configuration is valid HCL
// with the expected number of blocks.
func TestConfigsParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		config string
		blocks map[string]int
	}{
		{"floor", FloorConfig, map[string]int{"locals": 1}},
		{"baseline", PlanConfig(KindBaseline, 2), map[string]int{"terraform": 1, "resource": 2}},
		{"resources", PlanConfig(KindResources, 7), map[string]int{"terraform": 1, "provider": 1, "resource": 7}},
		{"data sources", PlanConfig(KindDataSources, 3), map[string]int{"terraform": 1, "provider": 1, "data": 3}},
		{"no blocks", PlanConfig(KindResources, 0), map[string]int{"terraform": 1, "provider": 1}},
		{"bare tpu vms", PlanConfig(KindBaselineTPUVM, 3), map[string]int{"terraform": 1, "resource": 3}},
		{"node pools of three tiers", PlanConfig(KindNodePools, 2), map[string]int{"terraform": 1, "provider": 1, "resource": 2}},
		{"bare node pools", PlanConfig(KindBaselineNodePools, 2), map[string]int{"terraform": 1, "resource": 2}},
		{"google-beta", PlanConfig(KindGoogleBeta, 4), map[string]int{"terraform": 1, "provider": 1, "resource": 4}},
		{"before", BeforeConfig(KindResources, 2), map[string]int{"terraform": 1, "provider": 1, "resource": 2}},
		{"node pools", NodePoolsConfig(EmulatorProvider("p", "z", "http://127.0.0.1:1", "100ms"), "projects/p/locations/l/clusters/c", 3),
			map[string]int{"terraform": 1, "provider": 1, "resource": 1}},
		{"accel at scale", ScaleConfig(KindResources, 5, "http://127.0.0.1:1"), map[string]int{"terraform": 1, "provider": 1, "resource": 5}},
		{"google-beta at scale", ScaleConfig(KindGoogleBeta, 5, "http://127.0.0.1:1"), map[string]int{"terraform": 1, "provider": 1, "resource": 5}},
		{"accel pools at scale", ScaleConfig(KindNodePools, 2, "http://127.0.0.1:1"), map[string]int{"terraform": 1, "provider": 1, "resource": 2}},
		{"google pools at scale", ScaleConfig(KindGooglePools, 2, "http://127.0.0.1:1"), map[string]int{"terraform": 1, "provider": 1, "resource": 6}},
		{"tpu vm", TPUVMConfig(EmulatorProvider("p", "z", "http://127.0.0.1:1", "100ms"), "a", "b"),
			map[string]int{"terraform": 1, "provider": 1, "resource": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, diags := hclsyntax.ParseConfig([]byte(tt.config), "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatalf("invalid HCL: %s\n%s", diags, tt.config)
			}
			body, ok := f.Body.(*hclsyntax.Body)
			if !ok {
				t.Fatalf("body is %T", f.Body)
			}
			got := map[string]int{}
			for _, b := range body.Blocks {
				got[b.Type]++
			}
			if diff := cmp.Diff(tt.blocks, got); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodePoolsConfigTiers(t *testing.T) {
	t.Parallel()
	for n := 1; n <= MaxPools; n++ {
		cfg := NodePoolsConfig("", "c", n)
		if got := strings.Count(cfg, "tiers {"); got != n {
			t.Errorf("NodePoolsConfig(%d) has %d tiers", n, got)
		}
	}
	if got := strings.Count(NodePoolsConfig("", "c", MaxPools+3), "tiers {"); got != MaxPools {
		t.Errorf("NodePoolsConfig(MaxPools+3) has %d tiers, want %d", got, MaxPools)
	}
}

func TestApplySpan(t *testing.T) {
	t.Parallel()
	const addr = "accel_tpu_vm.bench"
	ev := func(typ, ts, a string) string {
		return `{"@level":"info","@timestamp":"` + ts + `","type":"` + typ + `","hook":{"resource":{"addr":"` + a + `"}}}` + "\n"
	}
	tests := []struct {
		name    string
		out     string
		want    time.Duration
		wantErr string
	}{
		{
			name: "start to complete",
			out: `{"type":"version"}` + "\n" + "not json\n" +
				ev("apply_start", "2026-01-02T03:04:05.100000Z", addr) +
				ev("apply_progress", "2026-01-02T03:04:06.000000Z", addr) +
				ev("apply_complete", "2026-01-02T03:04:05.100000Z", "other.thing") +
				ev("apply_complete", "2026-01-02T03:04:07.350000Z", addr),
			want: 2250 * time.Millisecond,
		},
		{
			name:    "errored",
			out:     ev("apply_start", "2026-01-02T03:04:05Z", addr) + ev("apply_errored", "2026-01-02T03:04:06Z", addr),
			wantErr: "failed",
		},
		{
			name:    "never completed",
			out:     ev("apply_start", "2026-01-02T03:04:05Z", addr),
			wantErr: "no apply_start and apply_complete",
		},
		{
			name:    "bad timestamp",
			out:     ev("apply_start", "yesterday", addr),
			wantErr: "bad @timestamp",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ApplySpan([]byte(tt.out), addr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ApplySpan = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestParseSuiteLog(t *testing.T) {
	t.Parallel()
	log := `=== RUN   TestAccFaults
    suite_acc_test.go:217: faultsuite: scenario=tpu_vm/503_burst result=pass applies=1 orphans_seen=0 after_apply="managed=1 orphans=0 ghosts=0 duplicates=0 (state matches the API)" after_destroy="managed=0 orphans=0 ghosts=0 duplicates=0 (state matches the API)"
    suite_acc_test.go:217: faultsuite: scenario=node_pools/sigkill_mid_apply result=fail applies=2 orphans_seen=2 after_apply="not reached; left: managed=0 orphans=2 ghosts=0 duplicates=0 (orphans: \"a\", b)" after_destroy="not reached"
--- FAIL: TestAccFaults (7.86s)
    secrets_acc_test.go:323: security: credential=access_token secrets_checked=1 places=5 trace_log_bytes=22 api_calls_with_credential=38
    secrets_acc_test.go:323: security: credential=credentials_json secrets_checked=9 places=5 trace_log_bytes=22 api_calls_with_credential=37
--- FAIL: TestAccSecrets_notLeaked (2.00s)
    --- FAIL: TestAccSecrets_notLeaked/credentials_json (1.00s)
    --- PASS: TestAccSecrets_notLeaked/access_token (1.00s)
`
	got := ParseSuiteLog([]byte(log))
	want := SuiteSummary{
		Scenarios: []ScenarioResult{ // sorted by name
			{Name: "node_pools/sigkill_mid_apply", Applies: 2, OrphansSeen: 2,
				AfterApply: `not reached; left: managed=0 orphans=2 ghosts=0 duplicates=0 (orphans: "a", b)`, AfterDestroy: "not reached"},
			{Name: "tpu_vm/503_burst", Passed: true, Applies: 1,
				AfterApply:   "managed=1 orphans=0 ghosts=0 duplicates=0 (state matches the API)",
				AfterDestroy: "managed=0 orphans=0 ghosts=0 duplicates=0 (state matches the API)"},
		},
		Security: []SecurityResult{
			{Credential: "access_token", Secrets: 1, Places: 5, APICalls: 38, Passed: true},
			{Credential: "credentials_json", Secrets: 9, Places: 5, APICalls: 37, Passed: false},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseSuiteLog (-want +got):\n%s", diff)
	}

	early := ParseSuiteLog([]byte("--- FAIL: TestAccSecrets_notLeaked (0.10s)\n"))
	if diff := cmp.Diff([]string{"TestAccSecrets_notLeaked"}, early.SecurityFailed); diff != "" {
		t.Errorf("a security test failing before any result (-want +got):\n%s", diff)
	}
}

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		line      string
		pid, ppid int
		rss       int64
		ok        bool
	}{
		{"plain", "42 (terraform) S 7 42 42 0 -1 4194304 1 0 0 0 0 0 0 0 20 0 12 0 100 200 300 18446744073709551615 1 1 0 0", 42, 7, 300, true},
		{"comm with spaces and parens", "43 (a (b) c) R 42 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 6 77 0", 43, 42, 77, true},
		{"truncated", "44 (x) S 1 2 3", 0, 0, 0, false},
		{"garbage", "nothing here", 0, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pid, ppid, rss, ok := parseStat([]byte(tt.line))
			if pid != tt.pid || ppid != tt.ppid || rss != tt.rss || ok != tt.ok {
				t.Errorf("parseStat = %d, %d, %d, %v; want %d, %d, %d, %v", pid, ppid, rss, ok, tt.pid, tt.ppid, tt.rss, tt.ok)
			}
		})
	}
}

func TestMemTotalGiB(t *testing.T) {
	t.Parallel()
	if got := memTotalGiB("MemFree: 1 kB\nMemTotal:       2097152 kB\n"); got != 2 {
		t.Errorf("memTotalGiB = %v, want 2", got)
	}
	if got := memTotalGiB("nothing"); got != 0 {
		t.Errorf("memTotalGiB of nothing = %v, want 0", got)
	}
}

// report is a small, made-up report.
func report(onePlan, floor, applySpan time.Duration) *Report {
	series := func(d time.Duration) Series[time.Duration] { return Series[time.Duration]{d, d, d} }
	r := &Report{
		Date: "2026-01-02", Command: "make bench-plan", Runs: 3,
		Machine:           Machine{Cores: 2, CPU: "cpu", MemoryGiB: 4, OS: "linux", Arch: "amd64", Go: "go1.26", Terraform: "1.11.4"},
		Floor:             Sample{Wall: series(floor)},
		OperationDuration: 2 * time.Second, PollInterval: "100ms",
		Suites: &SuiteSummary{Command: "go test", Scenarios: []ScenarioResult{{Name: "a|b", Passed: true, AfterApply: "x|y", AfterDestroy: "clean"}}},
	}
	r.Plans = append(r.Plans, PlanResult{Kind: KindBaseline, N: 1, Sample: Sample{Wall: series(2 * floor)}})
	for _, n := range []int{1, 10, 100, 500} {
		r.Plans = append(r.Plans, PlanResult{Kind: KindResources, N: n, Sample: Sample{Wall: series(onePlan + time.Duration(n-1)*10*time.Millisecond)}})
	}
	r.Applies = []ApplyResult{{ApplyCase: ApplyCase{Name: "pools", Ideal: 2 * time.Second, LimitIdeal: 2 * time.Second, Note: "a note"},
		Span: series(applySpan), Wall: series(applySpan + time.Second), Calls: Series[float64]{5}, Polls: Series[float64]{3}, Creates: Series[float64]{1}}}
	return r
}

func TestTargets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                  string
		onePlan, floor, apply time.Duration
		want                  []bool
	}{
		{"all met", 300 * time.Millisecond, 100 * time.Millisecond, 2050 * time.Millisecond, []bool{true, true, true}},
		{"slow plan and apply", 301 * time.Millisecond, 100 * time.Millisecond, 2200 * time.Millisecond, []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []bool
			for _, tr := range report(tt.onePlan, tt.floor, tt.apply).Targets() {
				got = append(got, tr.Met)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("targets met (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScalingDetectsSuperlinear(t *testing.T) {
	t.Parallel()
	r := report(time.Second, time.Second, time.Second)
	s, ok := r.Scaling(KindResources)
	if !ok || !s.Linear || s.PerBlockSmall != 10*time.Millisecond {
		t.Fatalf("linear plans: got %+v, %v", s, ok)
	}
	r.Plans[4].Wall = Series[time.Duration]{r.Plans[3].Wall.Median() + 400*20*time.Millisecond}
	if s, _ := r.Scaling(KindResources); s.Linear {
		t.Errorf("20 ms per block after 10 ms per block was reported linear: %+v", s)
	}
	if _, ok := r.Scaling(KindDataSources); ok {
		t.Error("a kind with no plans has a scaling")
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	rep := report(300*time.Millisecond, 100*time.Millisecond, 2050*time.Millisecond)
	md := rep.Markdown()
	guide := rep.Guide()
	if !strings.HasPrefix(guide, "---\npage_title: \"Benchmarks\"\nsubcategory: \"\"\n") || strings.Contains(guide, "{{") ||
		strings.Contains(guide, "floor") || strings.Contains(guide, "scenarios") {
		t.Errorf("the guide is the published page of the plans at scale only:\n%s", guide)
	}
	for _, want := range []string{
		"`make bench-plan`",
		"**Machine:** 2 cores (cpu)",
		"| floor (no provider) | 0 | 100 ms |",
		"| `accel_tpu_vm` | 500 |",
		"`accel_tpu_vm`: linear",
		"| pools | 2.00 s | 2.05 s (2.05 s – 2.05 s) | 1.025 | pass | 2.00 s | 1.025 | 50 ms | 3.05 s | 5.0 | 3.0 | 1.0 |",
		"| baseline: `baseline_thing` | 1 | 200 ms |",
		"- a note\n",
		"| `a\\|b` | pass |", // pipes are escaped in table cells,
		"x\\|y",              // code spans included
		"1 scenarios, 1 passed",
		"not from this run",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(md, "{{") {
		t.Error("the report contains {{, which tfplugindocs would read as a template action")
	}
}

// TestPlanConfigSources: each kind's configuration names its provider, and
// a configuration for the build of another version differs only in its source.
func TestPlanConfigSources(t *testing.T) {
	t.Parallel()
	for kind, want := range map[Kind]string{
		KindResources: AccelSource, KindNodePools: AccelSource, KindBaselineTPUVM: "accel-dev/baseline",
		KindBaselineNodePools: "accel-dev/baseline", KindGoogleBeta: GoogleBetaSource,
		KindBaselineQuiet: "accel-dev/baselinequiet", KindBaselineQuietTPUVM: "accel-dev/baselinequiet",
		KindRawThing: "accel-dev/raw", KindRawTPUVM: "accel-dev/raw", KindRawNodePools: "accel-dev/raw",
	} {
		if c := PlanConfig(kind, 2); !strings.Contains(c, `source = "`+want+`"`) || !strings.Contains(c, `resource "`+string(kind)+`"`) {
			t.Errorf("%s: the configuration does not plan %s of %s:\n%s", kind, kind, want, c)
		}
	}
	got := strings.Replace(BeforeConfig(KindNodePools, 3), BeforeSource, AccelSource, 1)
	if diff := cmp.Diff(PlanConfig(KindNodePools, 3), got); diff != "" {
		t.Errorf("BeforeConfig differs from PlanConfig beyond the source (-plan +before):\n%s", diff)
	}
	if n := strings.Count(PlanConfig(KindNodePools, 2), "tiers {"); n != 6 {
		t.Errorf("two node-pool resources have %d tiers, want 6", n)
	}
}

// TestPerResourceTargets: the cost per resource is compared with the
// baseline of the same schema (logs off, as this provider runs) and with the
// smallest framework resource, next to the raw floor of the schema; before
// figures are shown beside it.
func TestPerResourceTargets(t *testing.T) {
	t.Parallel()
	series := func(d time.Duration) Series[time.Duration] { return Series[time.Duration]{d} }
	r := &Report{Before: "abc123"}
	add := func(kind Kind, before bool, perBlock time.Duration) {
		for _, n := range []int{1, 10, 100, 500} {
			r.Plans = append(r.Plans, PlanResult{Kind: kind, N: n, Before: before, Sample: Sample{Wall: series(200*time.Millisecond + time.Duration(n)*perBlock)}})
		}
	}
	add(KindBaselineQuiet, false, 2*time.Millisecond)
	add(KindBaseline, false, 4*time.Millisecond)
	add(KindRawTPUVM, false, 2800*time.Microsecond)
	add(KindBaselineQuietTPUVM, false, 4*time.Millisecond)
	add(KindResources, false, 5*time.Millisecond)
	add(KindResources, true, 18*time.Millisecond)
	add(KindRawNodePools, false, 2500*time.Microsecond)
	add(KindBaselineQuietNodePools, false, 4*time.Millisecond)
	add(KindNodePools, false, 7*time.Millisecond)
	got := r.perResourceTargets()
	if len(got) != 4 {
		t.Fatalf("got %d per-resource targets, want 4: %+v", len(got), got)
	}
	if !got[0].Met || !strings.Contains(got[0].Measured, "5.00 ms per resource against 4.00 ms for `baselinequiet_tpu_vm`: 1.25x") ||
		!strings.Contains(got[0].Measured, "before, `abc123`: 18.00 ms per resource, 4.50x") {
		t.Errorf("accel_tpu_vm target = %+v", got[0])
	}
	if got[1].Met || !strings.Contains(got[1].Measured, "5.00 ms per resource against 2.00 ms for `baselinequiet_thing`: 2.50x") ||
		!strings.Contains(got[1].Measured, "default logging, 4.00 ms: 1.25x") ||
		!strings.Contains(got[1].Measured, "`raw_tpu_vm` (the plugin protocol with no framework and no behaviour), costs 2.80 ms = 1.40x") ||
		strings.Contains(got[1].Measured, "no provider") {
		t.Errorf("accel_tpu_vm against the smallest provider = %+v, want 2.50x, not met, and a floor of 1.40x that a provider could meet", got[1])
	}
	if got[2].Met || !strings.Contains(got[2].Measured, "1.75x") {
		t.Errorf("node pools target = %+v, want 1.75x and not met", got[2])
	}
	if got[3].Met || !strings.Contains(got[3].Measured, "2.50 ms = 1.25x") || strings.Contains(got[3].Measured, "no provider") {
		t.Errorf("node pools against the smallest provider = %+v", got[3])
	}
	md := r.Markdown()
	for _, want := range []string{"| *before*: `accel_tpu_vm` | 500 |", "| baseline: `baselinequiet_fallback_nodepools` | 1 |",
		"| raw protocol: `raw_tpu_vm` | 100 |", "*before* `accel_tpu_vm`: linear", GoogleBetaEnv,
		"| `accel_tpu_vm` | this provider: `accel_tpu_vm` | 5.00 ms | 1.79 | 2.50 |",
		"| two attributes | framework, no behaviour, TRACE logs: `baseline_thing` | 4.00 ms | n/a | 2.00 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if _, ok := r.scaling(KindResources, false); !ok {
		t.Fatal("no scaling")
	}
	if s, _ := r.Scaling(KindResources); s.Fit.Slope > 0.0051 {
		t.Errorf("the before plans were mixed into the scaling: %+v", s)
	}
}

// TestPerResourceTargetsUnreachable: a raw floor above the target says no
// provider can meet it.
func TestPerResourceTargetsUnreachable(t *testing.T) {
	t.Parallel()
	r := &Report{}
	for kind, perBlock := range map[Kind]time.Duration{KindBaselineQuiet: 2 * time.Millisecond, KindRawTPUVM: 4 * time.Millisecond, KindResources: 6 * time.Millisecond} {
		for _, n := range []int{1, 100, 300} {
			r.Plans = append(r.Plans, PlanResult{Kind: kind, N: n, Sample: Sample{Wall: Series[time.Duration]{time.Duration(n) * perBlock}}})
		}
	}
	got := r.perResourceTargets()
	if len(got) != 1 || got[0].Met || !strings.Contains(got[0].Measured, "4.00 ms = 2.00x: **no provider of this schema can meet the target**") {
		t.Errorf("targets = %+v, want one, not met, whose floor of 2.00x no provider can meet", got)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestScaleConfig: each provider reaches the emulator through its own
// endpoint settings only, in a project of its own for each size.
func TestScaleConfig(t *testing.T) {
	t.Parallel()
	accel := ScaleConfig(KindResources, 3, "http://127.0.0.1:9")
	for _, want := range []string{`project            = "bench-accel-3"`, `tpu_endpoint       = "http://127.0.0.1:9/"`,
		`compute_endpoint   = "http://127.0.0.1:9/compute/v1/"`, `resource "accel_tpu_vm" "vm2"`} {
		if !strings.Contains(accel, want) {
			t.Errorf("accel configuration lacks %q:\n%s", want, accel)
		}
	}
	gb := ScaleConfig(KindGoogleBeta, 1000, "http://127.0.0.1:9")
	for _, want := range []string{`project = "bench-google-1000"`, `tpu_v2_custom_endpoint = "http://127.0.0.1:9/v2/"`,
		`access_token = "emulator"`, `resource "google_tpu_v2_vm" "vm999"`} {
		if !strings.Contains(strings.Join(strings.Fields(gb), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("google-beta configuration lacks %q:\n%s", want, gb)
		}
	}
	if strings.Contains(gb, "accel_") || strings.Contains(gb, "accel-dev") {
		t.Errorf("the google-beta configuration names this provider:\n%s", gb)
	}
	if got := ScaleZones(1000); got != 3 {
		t.Errorf("ScaleZones(1000) = %d, want 3", got)
	}
}

// TestScaleTargets: the ratios to google-beta decide the plan targets, and
// the refresh's calls are held against the list pages of its zones.
func TestScaleTargets(t *testing.T) {
	t.Parallel()
	sample := func(d time.Duration, calls map[string]int64) Sample {
		return Sample{Wall: Series[time.Duration]{d}, CallsByMethod: calls}
	}
	s := &ScaleRun{PageSize: 500, Results: []ScaleResult{
		{Kind: KindResources, N: 1000, Zones: 3, Create: sample(4*time.Second, nil),
			Refresh: sample(5*time.Second, map[string]int64{"tpu.nodes.list": 3})},
		{Kind: KindGoogleBeta, N: 1000, Zones: 3, Create: sample(8*time.Second, nil),
			Refresh: sample(7*time.Second, map[string]int64{"tpu.nodes.get": 1000})},
	}}
	got := s.ScaleTargets()
	if len(got) != 3 {
		t.Fatalf("%d targets, want 3 for N=1000: %+v", len(got), got)
	}
	if !got[0].Met || !strings.Contains(got[0].Measured, "x2.00") {
		t.Errorf("plan of a create, x2.00: %+v", got[0])
	}
	if got[1].Met || !strings.Contains(got[1].Measured, "x1.40") {
		t.Errorf("plan with state, x1.40, is not met: %+v", got[1])
	}
	// 1000 VMs in 3 zones at 500 a page: 334, 333 and 333 VMs, one page each.
	if !got[2].Met || !strings.Contains(got[2].Target, "(3)") {
		t.Errorf("3 list calls for 3 pages: %+v", got[2])
	}
	s.PageSize = 100
	s.Results[0].Refresh.CallsByMethod["tpu.nodes.list"] = 13
	if got := s.ScaleTargets()[2]; got.Met || !strings.Contains(got.Target, "(12)") {
		t.Errorf("at 100 a page the zones have 4+4+4 pages, and 13 list calls are too many: %+v", got)
	}
	s.Results[0].Refresh.CallsByMethod["tpu.nodes.get"] = 1
	s.Results[0].Refresh.CallsByMethod["tpu.nodes.list"] = 12
	if got := s.ScaleTargets()[2]; got.Met {
		t.Errorf("a get beside the lists, with every VM listed, is one call too many: %+v", got)
	}
	s.Results[0].Refresh.CallsByMethod = map[string]int64{"tpu.nodes.list": 12}

	// The floor of accel_tpu_vm's schema with state, 4.9 s, is only x1.43
	// ahead of google-beta's 7 s: the target is then 1.15x that floor.
	s.Results = append(s.Results, ScaleResult{Kind: KindRawTPUVM, N: 1000, Create: sample(time.Second, nil), Refresh: sample(4900*time.Millisecond, nil)})
	if got := s.ScaleTargets()[1]; !got.Met || !strings.Contains(got.Target, "1.15x that floor") || !strings.Contains(got.Measured, "x1.02 the floor") {
		t.Errorf("plan with state within 1.15x of a floor that leaves no room for x1.5: %+v", got)
	}
	if got := s.ScaleTargets()[0]; !got.Met || strings.Contains(got.Target, "floor") {
		t.Errorf("a plan of a create the floors leave room for is held to x1.5 alone: %+v", got)
	}

	// At 100 ms a call: the plan with state against x3, and the create's
	// calls against those with no latency.
	s.Latency = 100 * time.Millisecond
	s.Results = append(s.Results,
		ScaleResult{Kind: KindResources, N: 1000, Zones: 3, Latency: s.Latency, Create: sample(4*time.Second, nil),
			Refresh: sample(6*time.Second, map[string]int64{"tpu.nodes.list": 12})},
		ScaleResult{Kind: KindGoogleBeta, N: 1000, Zones: 3, Latency: s.Latency, Create: sample(8*time.Second, nil),
			Refresh: sample(17*time.Second, map[string]int64{"tpu.nodes.get": 1000})})
	got = s.ScaleTargets()
	if len(got) != 5 {
		t.Fatalf("%d targets, want 5 with the latent run: %+v", len(got), got)
	}
	if got[3].Met || !strings.Contains(got[3].Target, "at 100ms a call: at least 3.0x") || !strings.Contains(got[3].Measured, "x2.83") {
		t.Errorf("plan with state at 100 ms, x2.83, is not met: %+v", got[3])
	}
	if !got[4].Met || !strings.Contains(got[4].Measured, "0 calls at 100ms, 0 with none") {
		t.Errorf("the create at 100 ms makes no more calls: %+v", got[4])
	}
	s.Results[3].Create.CallsByMethod = map[string]int64{"compute.zones.list": 2}
	if got := s.ScaleTargets()[4]; got.Met {
		t.Errorf("the create at 100 ms makes two calls more than without latency: %+v", got)
	}

	s.Results = s.Results[:1]
	if got := s.ScaleTargets(); got[0].Met || !strings.Contains(got[0].Measured, "not measured") {
		t.Errorf("without google-beta the targets are not met: %+v", got[0])
	}
}

// TestSpliceScale: the section replaces its earlier version and nothing else.
func TestSpliceScale(t *testing.T) {
	t.Parallel()
	guide := "# Benchmarks\n\nbefore\n\n" + scaleBegin + "old\n" + scaleEnd + "\nafter\n"
	got := SpliceScale(guide, scaleBegin+"new\n"+scaleEnd)
	if want := "# Benchmarks\n\nbefore\n\n" + scaleBegin + "new\n" + scaleEnd + "\nafter\n"; got != want {
		t.Errorf("SpliceScale = %q, want %q", got, want)
	}
	if got := SpliceScale("# B\n", scaleBegin+"x\n"+scaleEnd); got != "# B\n\n"+scaleBegin+"x\n"+scaleEnd {
		t.Errorf("SpliceScale without a section = %q", got)
	}
	// A guide whose last line, the end marker, has no newline.
	noNewline := "# B\n\n" + scaleBegin + "old\n" + strings.TrimSuffix(scaleEnd, "\n")
	if got := SpliceScale(noNewline, scaleBegin+"new\n"+scaleEnd); got != "# B\n\n"+scaleBegin+"new\n"+scaleEnd {
		t.Errorf("SpliceScale of a guide ending without a newline = %q", got)
	}
}

// TestGuideHeaderInTemplate: the Benchmarks guide's template starts with
// GuideHeader, which a run of the plans at scale alone does not rewrite.
func TestGuideHeaderInTemplate(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../templates/guides/benchmarks.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), GuideHeader) {
		t.Error("templates/guides/benchmarks.md.tmpl does not start with GuideHeader: rewrite its header (make bench-plan does)")
	}
}

// TestScaleBeforeAfter: the provider of the -before revision is planned in
// a project of its own, stays out of the guide and the targets, and is set
// beside this version for the terminal.
func TestScaleBeforeAfter(t *testing.T) {
	t.Parallel()
	before := scaleConfig(KindNodePools, 2, "http://127.0.0.1:9", true)
	for _, want := range []string{`project            = "bench-accel-before-2-pools"`, `source = "` + BeforeSource + `"`,
		`cluster       = "projects/bench-accel-before-2-pools/locations/us-central1/clusters/serving"`} {
		if !strings.Contains(before, want) {
			t.Errorf("the before configuration lacks %q:\n%s", want, before)
		}
	}
	if strings.Contains(before, `"`+AccelSource+`"`) {
		t.Errorf("the before configuration names this version's provider:\n%s", before)
	}
	sample := func(d time.Duration) Sample { return Sample{Wall: Series[time.Duration]{d}} }
	s := &ScaleRun{Results: []ScaleResult{
		{Kind: KindResources, N: 300, Create: sample(3 * time.Second), Refresh: sample(4 * time.Second)},
		{Kind: KindResources, N: 300, Create: sample(6 * time.Second), Refresh: sample(5 * time.Second), Before: true},
	}}
	if r, ok := s.result(KindResources, 300, 0); !ok || r.Before {
		t.Errorf("result = %+v, %v; want this version's", r, ok)
	}
	table := s.BeforeAfter("abc123")
	for _, want := range []string{"Create, abc123", "| 300 `accel_tpu_vm` | none | 6.00 s | 3.00 s (x2.00) | 5.00 s | 4.00 s (x1.25) |"} {
		if !strings.Contains(table, want) {
			t.Errorf("BeforeAfter lacks %q:\n%s", want, table)
		}
	}
	if section := s.Section(); strings.Count(section, "| `accel_tpu_vm` | 300 |") != 1 || strings.Contains(section, "6.00 s") {
		t.Errorf("the guide's section shows the before figures:\n%s", section)
	}
	if (&ScaleRun{Results: s.Results[:1]}).BeforeAfter("abc123") != "" {
		t.Error("BeforeAfter of a run without -before is not empty")
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
)

// ScaleFactor is the target of the scale comparison: this provider's plans
// of N TPU VMs at least this many times as fast as google-beta's.
const ScaleFactor = 1.5

// ScaleTargetSizes are the sizes the target applies to.
var ScaleTargetSizes = []int{500, 1000}

// Markers around the scale section in the guide, so that a run of the
// scale comparison alone (planbench -only-scale) replaces just that section.
const (
	scaleBegin = "<!-- BEGIN plan-at-scale: written by planbench -->\n"
	scaleEnd   = "<!-- END plan-at-scale -->\n"
)

// ScaleRun is one run of the scale comparison.
type ScaleRun struct {
	Date    string
	Machine Machine
	Runs    int
	// PageSize is the emulator's list page size.
	PageSize int
	// LoadBefore and LoadAfter are the machine's load averages
	// (/proc/loadavg) when the run started and ended.
	LoadBefore, LoadAfter string
	// GoogleBeta is the google-beta build compared with, "" for none.
	GoogleBeta string
	Results    []ScaleResult
}

// LoadAverage is the machine's 1, 5 and 15-minute load averages, or "n/a".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], ", ")
	}
	return "n/a"
}

func (s *ScaleRun) result(kind Kind, n int) (ScaleResult, bool) {
	for _, r := range s.Results {
		if r.Kind == kind && r.N == n {
			return r, true
		}
	}
	return ScaleResult{}, false
}

// ScaleTargets are the targets of the scale comparison: for each target
// size measured, the plan of a create and the plan with state against
// google-beta's, and the API calls of the refresh.
func (s *ScaleRun) ScaleTargets() []TargetResult {
	var out []TargetResult
	for _, n := range ScaleTargetSizes {
		a, ok := s.result(KindResources, n)
		if !ok {
			continue
		}
		g, gok := s.result(KindGoogleBeta, n)
		for _, p := range []struct {
			what       string
			accel, gbe Sample
		}{{"plan of a create", a.Create, g.Create}, {"plan with state", a.Refresh, g.Refresh}} {
			t := TargetResult{Target: fmt.Sprintf("%s of %d `accel_tpu_vm`: at least %.1fx as fast as google-beta's `google_tpu_v2_vm`", p.what, n, ScaleFactor)}
			if !gok {
				t.Measured = fmt.Sprintf("%s; google-beta not measured (no build given)", fmtDur(p.accel.Wall.Median()))
			} else {
				ratio := Ratio(p.gbe.Wall.Median(), p.accel.Wall.Median())
				t.Measured = fmt.Sprintf("%s against %s: x%.2f", fmtDur(p.accel.Wall.Median()), fmtDur(p.gbe.Wall.Median()), ratio)
				t.Met = ratio >= ScaleFactor
			}
			out = append(out, t)
		}
		lists, others := refreshCalls(a.Refresh)
		pages := a.Zones
		if s.PageSize > 0 {
			pages = 0
			for z := range a.Zones {
				pages += (n/a.Zones + boolInt(z < n%a.Zones) + s.PageSize - 1) / s.PageSize
			}
		}
		out = append(out, TargetResult{
			Target:   fmt.Sprintf("API calls of the refresh of %d `accel_tpu_vm` in %d zones: at most the list pages of those zones (%d) and the reads a list cannot answer (none here)", n, a.Zones, pages),
			Measured: fmt.Sprintf("%d list calls and %d other calls", lists, others),
			Met:      lists <= int64(pages) && others == 0,
		})
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// refreshCalls splits the API calls of a plan with state (its last run)
// into list calls and every other call.
func refreshCalls(s Sample) (lists, others int64) {
	for m, n := range s.CallsByMethod {
		if strings.HasSuffix(m, ".list") {
			lists += n
		} else {
			others += n
		}
	}
	return lists, others
}

// fmtCalls renders calls by method, most first.
func fmtCalls(byMethod map[string]int64) string {
	if len(byMethod) == 0 {
		return "none"
	}
	methods := slices.SortedFunc(maps.Keys(byMethod), func(a, b string) int {
		if byMethod[a] != byMethod[b] {
			return int(byMethod[b] - byMethod[a])
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(methods))
	for i, m := range methods {
		parts[i] = fmt.Sprintf("%d `%s`", byMethod[m], m)
	}
	return strings.Join(parts, ", ")
}

// Section renders the scale comparison, between the markers that let
// SpliceScale replace it in a guide.
func (s *ScaleRun) Section() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w(scaleBegin)
	w("## Plan at scale, beside google-beta\n\n")
	m := s.Machine
	w("Measured on %s with `make bench-scale` (part of `make bench-plan`), on %d cores (%s), %.1f GiB, %s, Terraform %s; ", s.Date, m.Cores, m.CPU, m.MemoryGiB, m.Go, m.Terraform)
	w("load average (1, 5, 15 minutes) %s when the run started and %s when it ended. ", s.LoadBefore, s.LoadAfter)
	w("Every time is the median of %d runs after one warm-up run, the configurations alternating in rounds. ", s.Runs)
	w("N `accel_tpu_vm` and N google-beta `google_tpu_v2_vm` (with the runtime version it requires) cycle through the same four accelerator types in %d zones, ", ScaleZones(len(planShapes)))
	w("each provider in a project of its own on one emulator (instant operations, lists of ")
	if s.PageSize > 0 {
		w("at most %d items a page", s.PageSize)
	} else {
		w("one page")
	}
	w("), reached only through the providers' endpoint settings. The plan of a create has no state; the plan with state follows an apply of the same configuration and refreshes every VM. API calls are those the emulator answered during the last measured run.")
	if s.GoogleBeta == "" {
		w(" **google-beta was not measured in this run**: no build was given (set `%s`; see below), so the comparison has only this provider's side.", GoogleBetaEnv)
	}
	w("\n\n| Target | Measured | Result |\n|---|---|---|\n")
	for _, t := range s.ScaleTargets() {
		w("| %s | %s | %s |\n", t.Target, t.Measured, passFail(t.Met))
	}
	w("\n| Resource | N | Plan of a create | Fastest – slowest | API calls | Plan with state | Fastest – slowest | API calls of the refresh and plan |\n|---|---:|---:|---:|---|---:|---:|---|\n")
	for _, r := range s.Results {
		w("| `%s` | %d | %s | %s | %s | %s | %s | %s |\n", r.Kind, r.N,
			fmtDur(r.Create.Wall.Median()), fmtRange(r.Create.Wall), cell(fmtCalls(r.Create.CallsByMethod)),
			fmtDur(r.Refresh.Wall.Median()), fmtRange(r.Refresh.Wall), cell(fmtCalls(r.Refresh.CallsByMethod)))
	}
	w("\nPer resource, from the least-squares line through the sizes measured:")
	for _, k := range ScaleKinds {
		c, rf, ok := s.perResource(k)
		if ok {
			w(" `%s` %s a create, %s with state;", k, fmtDur(c), fmtDur(rf))
		}
	}
	w(" start-up is the constant part.\n\n")
	w("google-beta reads each VM with its own `nodes.get`: N calls a refresh. This provider reads each zone's VMs with one `nodes.list` ")
	w("that every VM of the zone shares (see [How a refresh reads at scale](#how-a-refresh-reads-at-scale)), so the API calls of a refresh grow with the zones and the list pages, not with N: ")
	w("large fleets hit the APIs' read quotas before they hit time.\n\n")
	w("### How a refresh reads at scale\n\n")
	w("Terraform starts one provider process per command and refreshes every resource through it. ")
	w("The first `accel_tpu_vm` of a zone to be refreshed lists the zone's VMs (`nodes.list` of the Cloud TPU API, or `instances.list` for VMs created through Compute Engine), ")
	w("and the first `accel_fallback_nodepools` of a cluster lists its node pools (`nodePools.list`); every other resource of that zone or cluster in the same process waits for that answer and takes its own object from it, by its full name. ")
	w("It stays correct because a list is only ever used to find an object, never to conclude that one is gone:\n\n")
	w("- An object the list does not hold (created after the list was made, or in a page that failed) is read with its own `get`, and only that `get`'s 404 removes it from the state.\n")
	w("- A list that fails (a role with `tpu.nodes.get` but not `tpu.nodes.list`, an answer that is not the API's, two failed attempts, or no answer within 30 seconds) costs that one call: every resource then reads its own object with a `get`, as before.\n")
	w("- Every shared answer is dropped as soon as the provider starts a write (a create, update or delete, and again when each operation it waits for ends), so nothing read before the provider's own change is answered after it. ")
	w("A change made by someone else after the list is no more visible to it than to N `get`s made one after another while Terraform refreshes.\n")
	w("- A TPU VM created through a queued resource still reads its queued resource with its own call; its nodes come from the list.\n\n")
	w("The peer is built from its release tag with the repository's public source (the Go module proxy does not serve it): ")
	w("clone `github.com/hashicorp/terraform-provider-google-beta`, `git checkout v7.45.0`, `go build -o terraform-provider-google-beta .`, ")
	w("then `%s=/path/to/terraform-provider-google-beta make bench-scale`.\n", GoogleBetaEnv)
	w(scaleEnd)
	return b.String()
}

// perResource is the slope of the plan times of kind over N: a create and
// with state.
func (s *ScaleRun) perResource(kind Kind) (create, refresh time.Duration, ok bool) {
	var ns, cs, rs []float64
	for _, r := range s.Results {
		if r.Kind == kind {
			ns = append(ns, float64(r.N))
			cs = append(cs, r.Create.Wall.Median().Seconds())
			rs = append(rs, r.Refresh.Wall.Median().Seconds())
		}
	}
	if len(ns) < 2 {
		return 0, 0, false
	}
	return time.Duration(FitLine(ns, cs).Slope * float64(time.Second)), time.Duration(FitLine(ns, rs).Slope * float64(time.Second)), true
}

// SpliceScale replaces the scale section of guide with section; a guide
// without one gets it at the end.
func SpliceScale(guide, section string) string {
	i := strings.Index(guide, scaleBegin)
	j := strings.Index(guide, scaleEnd)
	if i < 0 || j < i {
		return strings.TrimRight(guide, "\n") + "\n\n" + section
	}
	return guide[:i] + section + guide[j+len(scaleEnd):]
}

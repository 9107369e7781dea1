// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Target thresholds.
const (
	// PlanFloorFactor: the plan of one accel_tpu_vm takes at most this many
	// times Terraform's floor.
	PlanFloorFactor = 3.0
	// LinearTolerance: plans scale linearly when the time per block from 100
	// to 500 blocks is at most this many times the time per block from 1 to
	// 100 blocks.
	LinearTolerance = 1.5
	// ApplyIdealFactor: an apply takes at most this many times its ideal.
	ApplyIdealFactor = 1.05
	// PerResourceFactor: a resource's plan costs at most this many times
	// what the baseline resource of the same schema costs, per resource.
	PerResourceFactor = 1.5
)

// GoogleBetaReference is the plan time of one google_tpu_v2_vm with the
// google-beta provider, measured separately on the same kind of machine.
const GoogleBetaReference = 1850 * time.Millisecond

// Report is everything one run of the benchmarks measured.
type Report struct {
	// Date is the day of the run, YYYY-MM-DD.
	Date string
	// Command reproduces the run.
	Command string
	Machine Machine
	// Runs is the number of measured runs per figure.
	Runs int
	// Floor is `terraform plan` of a configuration with no provider.
	Floor Sample
	// Plans are the plans measured, of every kind and size (KindBaseline
	// included).
	Plans []PlanResult
	// SchemaCLI is `terraform providers schema -json`; SchemaFloor is the
	// same command in a configuration with no provider.
	SchemaCLI, SchemaFloor Sample
	// SchemaInProcess is a fresh provider server's first GetProviderSchema.
	SchemaInProcess Series[time.Duration]
	// OperationDuration is the emulator's duration of every operation.
	OperationDuration time.Duration
	// PollInterval is the provider's poll_interval in the applies.
	PollInterval string
	Applies      []ApplyResult
	// Suites is nil when the fault suite and security tests were not run.
	Suites *SuiteSummary
	// Before is the revision whose provider was planned beside this one
	// (Plans with Before set), or "".
	Before string
	// GoogleBeta is set when the google-beta provider was planned.
	GoogleBeta bool
	// Scale is the scale comparison, nil when it was not run.
	Scale *ScaleRun `json:",omitempty"`
}

// TargetResult is one target and whether it was met.
type TargetResult struct {
	Target   string
	Measured string
	Met      bool
}

// plan returns the plan of n blocks of kind, if measured.
func (r *Report) plan(kind Kind, n int) (PlanResult, bool) {
	for _, p := range r.Plans {
		if p.Kind == kind && p.N == n && !p.Before {
			return p, true
		}
	}
	return PlanResult{}, false
}

// Scaling describes how plan time grows with the number of blocks of kind.
type Scaling struct {
	Kind Kind
	// PerBlockSmall is the time per block from the smallest to 100 blocks,
	// PerBlockLarge from 100 to the largest.
	PerBlockSmall, PerBlockLarge time.Duration
	// Fit is the least-squares line through every size, in seconds.
	Fit    LinearFit
	Linear bool
}

// Scaling computes the scaling of kind, if sizes around 100 were measured.
func (r *Report) Scaling(kind Kind) (Scaling, bool) { return r.scaling(kind, false) }

// scaling computes the scaling of kind with this provider or, with before,
// with the provider of the Before revision.
func (r *Report) scaling(kind Kind, before bool) (Scaling, bool) {
	var ps []PlanResult
	var mid PlanResult
	ok := false
	for _, p := range r.Plans {
		if p.Kind == kind && p.Before == before {
			ps = append(ps, p)
			if p.N == 100 {
				mid, ok = p, true
			}
		}
	}
	slices.SortFunc(ps, func(a, b PlanResult) int { return a.N - b.N })
	if len(ps) < 3 || !ok || ps[0].N >= 100 || ps[len(ps)-1].N <= 100 {
		return Scaling{}, false
	}
	first, last := ps[0], ps[len(ps)-1]
	small := (mid.Wall.Median() - first.Wall.Median()) / time.Duration(mid.N-first.N)
	large := (last.Wall.Median() - mid.Wall.Median()) / time.Duration(last.N-mid.N)
	var xs, ys []float64
	for _, p := range ps {
		xs = append(xs, float64(p.N))
		ys = append(ys, p.Wall.Median().Seconds())
	}
	return Scaling{
		Kind: kind, PerBlockSmall: small, PerBlockLarge: large, Fit: FitLine(xs, ys),
		Linear: float64(large) <= LinearTolerance*float64(max(small, time.Millisecond/10)),
	}, true
}

// Targets evaluates the targets that were measured.
func (r *Report) Targets() []TargetResult {
	var out []TargetResult
	if one, ok := r.plan(KindResources, 1); ok && len(r.Floor.Wall) > 0 {
		ratio := Ratio(one.Wall.Median(), r.Floor.Wall.Median())
		measured := fmt.Sprintf("%s = %.1fx the floor (%s)", fmtDur(one.Wall.Median()), ratio, fmtDur(r.Floor.Wall.Median()))
		if base, ok := r.plan(KindBaseline, 1); ok {
			measured += fmt.Sprintf("; the smallest framework provider takes %s = %.1fx the floor, and this provider %.1fx as long as that",
				fmtDur(base.Wall.Median()), Ratio(base.Wall.Median(), r.Floor.Wall.Median()), Ratio(one.Wall.Median(), base.Wall.Median()))
		}
		out = append(out, TargetResult{
			Target:   fmt.Sprintf("Plan of one `accel_tpu_vm` at most %gx Terraform's floor", PlanFloorFactor),
			Measured: measured,
			Met:      ratio <= PlanFloorFactor,
		})
	}
	out = append(out, r.perResourceTargets()...)
	if s, ok := r.Scaling(KindResources); ok {
		out = append(out, TargetResult{
			Target: "Plan of 100 `accel_tpu_vm`: linear, with a small constant per resource",
			Measured: fmt.Sprintf("%s per resource from 1 to 100, %s per resource from 100 to 500",
				fmtDur(s.PerBlockSmall), fmtDur(s.PerBlockLarge)),
			Met: s.Linear,
		})
	}
	if len(r.Applies) > 0 {
		worst := func(ideal func(ApplyResult) time.Duration) (ApplyResult, float64) {
			w := r.Applies[0]
			for _, a := range r.Applies[1:] {
				if Ratio(a.Span.Median(), ideal(a)) > Ratio(w.Span.Median(), ideal(w)) {
					w = a
				}
			}
			return w, Ratio(w.Span.Median(), ideal(w))
		}
		strict, ratio := worst(func(a ApplyResult) time.Duration { return a.Ideal })
		limited, limitRatio := worst(func(a ApplyResult) time.Duration { return a.LimitIdeal })
		out = append(out, TargetResult{
			Target: fmt.Sprintf("Apply at most %gx its ideal", ApplyIdealFactor),
			Measured: fmt.Sprintf("worst case %.3fx (%s: %s for an ideal of %s); within the provider's limit of %d concurrent operations per cluster, worst case %.3fx (%s)",
				ratio, strict.Name, fmtDur(strict.Span.Median()), fmtDur(strict.Ideal), poolConcurrency, limitRatio, limited.Name),
			Met: ratio <= ApplyIdealFactor,
		})
	}
	return out
}

// perResourceTargets compares the cost per resource (the slope of the
// least-squares line through every size) of each resource with that of the
// baseline resource of the same schema, and with that of the smallest
// framework resource (baselinequiet_thing, logs off as this provider runs),
// next to the floor for its schema (the raw protocol resource): when that
// floor is already above the target, no provider can meet it.
func (r *Report) perResourceTargets() []TargetResult {
	var out []TargetResult
	for _, c := range []struct {
		kind Kind
		what string
	}{{KindResources, "`accel_tpu_vm`"}, {KindNodePools, fmt.Sprintf("`accel_fallback_nodepools` of %d tiers", len(planTiers))}} {
		s, ok := r.Scaling(c.kind)
		if !ok {
			continue
		}
		baseKind, _ := c.kind.BaselineOf()
		if base, ok := r.Scaling(baseKind); ok {
			ratio := s.Fit.Slope / base.Fit.Slope
			measured := fmt.Sprintf("%.2f ms per resource against %.2f ms for `%s`: %.2fx", 1000*s.Fit.Slope, 1000*base.Fit.Slope, baseKind, ratio)
			if b, ok := r.scaling(c.kind, true); ok {
				measured += fmt.Sprintf(" (before, `%s`: %.2f ms per resource, %.2fx)", r.Before, 1000*b.Fit.Slope, b.Fit.Slope/base.Fit.Slope)
			}
			out = append(out, TargetResult{
				Target:   fmt.Sprintf("Plan of N %s: at most %gx the cost per resource of the framework baseline of the same schema", c.what, PerResourceFactor),
				Measured: measured,
				Met:      ratio <= PerResourceFactor,
			})
		}
		thing, ok := r.Scaling(KindBaselineQuiet)
		if !ok {
			continue
		}
		ratio := s.Fit.Slope / thing.Fit.Slope
		measured := fmt.Sprintf("%.2f ms per resource against %.2f ms for `%s`: %.2fx", 1000*s.Fit.Slope, 1000*thing.Fit.Slope, KindBaselineQuiet, ratio)
		if loud, ok := r.Scaling(KindBaseline); ok {
			measured += fmt.Sprintf(" (against `%s` with the framework's default logging, %.2f ms: %.2fx)", KindBaseline, 1000*loud.Fit.Slope, s.Fit.Slope/loud.Fit.Slope)
		}
		if rawKind, _ := c.kind.RawOf(); rawKind != "" {
			if raw, ok := r.Scaling(rawKind); ok {
				floor := raw.Fit.Slope / thing.Fit.Slope
				measured += fmt.Sprintf("; the floor for this schema, `%s` (the plugin protocol with no framework and no behaviour), costs %.2f ms = %.2fx", rawKind, 1000*raw.Fit.Slope, floor)
				if floor > PerResourceFactor {
					measured += ": **no provider of this schema can meet the target**"
				}
			}
		}
		out = append(out, TargetResult{
			Target: fmt.Sprintf("Plan of N %s: at most %gx the cost per resource of the smallest framework provider (`%s`, logs off as this provider runs)",
				c.what, PerResourceFactor, KindBaselineQuiet),
			Measured: measured,
			Met:      ratio <= PerResourceFactor,
		})
	}
	return out
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second || d <= -time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 10*time.Millisecond || d <= -10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
}

func fmtRange(s Series[time.Duration]) string {
	return fmtDur(s.Min()) + " – " + fmtDur(s.Max())
}

func fmtMiB(b int64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1024*1024))
}

// cell escapes the pipes of a table cell (code spans included, as GitHub
// Flavored Markdown requires).
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "**fail**"
}

// GuideHeader is the Benchmarks guide up to its measured section: the page
// users read on the registry. The section (ScaleRun.Section) is what the
// provider costs them at scale beside the Google providers; the full
// report (Markdown) is for maintainers and is not published.
const GuideHeader = `---
page_title: "Benchmarks"
subcategory: ""
description: |-
  What a plan of many TPU VMs and node-pool resources costs, beside the Google providers, measured against the local emulator.
---

# Benchmarks

How long ` + "`terraform plan`" + ` takes for many resources of this provider, beside the same objects declared with the Google
providers, and how many API calls the refresh makes. Every figure below comes from one dated run of ` + "`make bench-scale`" + `
on the machine it names, against the local emulator: once as it answers on loopback, in microseconds, and once with
every answer delayed by about what a call to Google's APIs takes, where the calls a refresh saves count. Absolute times
depend on the machine; compare the rows of one table.

`

// Guide renders the Benchmarks guide: GuideHeader and, when this run
// measured them, the plans at scale.
func (r *Report) Guide() string {
	if r.Scale == nil {
		return GuideHeader
	}
	return GuideHeader + r.Scale.Section()
}

// Markdown renders the full report, for maintainers: every measurement of
// the run, the targets and how each was met.
func (r *Report) Markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Benchmark report\n\n")
	w("Measured on %s with `%s`. ", r.Date, r.Command)
	w("Every time is the median of %d runs after one warm-up run, with the fastest and slowest run next to it; ", r.Runs)
	w("the plan and schema commands run in rounds, one run of every configuration per round, so that changes in the machine's load fall on all of them alike.\n\n")
	m := r.Machine
	w("**Machine:** %d cores (%s), %.1f GiB of memory, %s/%s; %s; Terraform %s. ", m.Cores, m.CPU, m.MemoryGiB, m.OS, m.Arch, m.Go, m.Terraform)
	w("The machine was shared with other work, so absolute times vary between runs; the ratios to Terraform's floor, measured in the same run, are the comparable figures.\n\n")

	w("## Targets\n\n| Target | Measured | Result |\n|---|---|---|\n")
	for _, t := range r.Targets() {
		w("| %s | %s | %s |\n", t.Target, t.Measured, passFail(t.Met))
	}
	w("\n")

	r.writePlans(w)
	r.writeStartup(w)
	if r.Scale != nil {
		w("## Plan at scale: targets\n\n| Target | Measured | Result |\n|---|---|---|\n")
		for _, t := range r.Scale.ScaleTargets() {
			w("| %s | %s | %s |\n", t.Target, t.Measured, passFail(t.Met))
		}
		w("\n%s\n%s\n", r.Scale.Section(), ScaleAnalysis())
	}
	r.writeApplies(w)
	r.writeSuites(w)

	w("## Reference: the Google provider\n\n")
	if g, ok := r.Scaling(KindGoogleBeta); ok {
		if a, ok := r.Scaling(KindResources); ok {
			w("In this run, a `google_tpu_v2_vm` of the google-beta provider cost %.2f ms per resource and an `accel_tpu_vm` %.2f ms: google-beta / accel = %.2f. ",
				1000*g.Fit.Slope, 1000*a.Fit.Slope, g.Fit.Slope/a.Fit.Slope)
		}
		w("See the plan table for every size.\n")
		return b.String()
	}
	w("The plan of one `google_tpu_v2_vm` with the google-beta provider took about %s on this kind of machine. ", fmtDur(GoogleBetaReference))
	w("That figure comes from a separate, earlier measurement, not from this run: no google-beta build was given. ")
	w("Set `%s` to the path of a `terraform-provider-google-beta` binary (built from its source, or taken from a provider cache) and `make bench-plan` plans `google_tpu_v2_vm` beside `accel_tpu_vm` in the same rounds.\n", GoogleBetaEnv)
	return b.String()
}

func (r *Report) writePlans(w func(string, ...any)) {
	w("## Plan\n\n")
	w("`terraform plan` of configurations of N `accel_tpu_vm` resources, N `accel_fallback_nodepools` resources of %d tiers each (a v6e TPU tier, an L4 GPU tier and a v5e TPU tier; both planned for create) ", len(planTiers))
	w("or N `accel_runtime_version` data sources (read at plan time), ")
	w("offline: the provider comes from a local build through `dev_overrides`, and has no credentials and no endpoint, so no API is called. ")
	w("The blocks cycle through four accelerator types and zones. The floor is Terraform's own cost: the same command on a configuration with no provider. ")
	w("The baselines are resources of a terraform-plugin-framework provider that does nothing of its own (`internal/benchmark/cmd/baselineprovider`): ")
	w("`baseline_thing` has two attributes, what any framework provider costs; `baseline_tpu_vm` and `baseline_fallback_nodepools` have the schemas of `accel_tpu_vm` and `accel_fallback_nodepools` ")
	w("with every validator, plan modifier and default taken out (`benchmark.BareSchema`) and no ValidateConfig or ModifyPlan: what Terraform and the framework cost for resources of that size, planned with the same configurations. ")
	w("`baseline_` resources keep the framework's default logging (every line at TRACE, which Terraform parses and drops when logging is off), as a framework provider does unless it turns that off as this one does (see below); ")
	w("`baselinequiet_` resources are the same provider with those logs off, as this provider runs, and are what the targets compare with. ")
	w("The `raw_` resources are the floor: the same schemas served by the plugin protocol alone, with no framework and no behaviour (see the cost per resource below).")
	if r.Before != "" {
		w(" Rows marked *before* are the provider built from revision `%s` (`planbench -before %s`), planned in the same rounds.", r.Before, r.Before)
	}
	if r.GoogleBeta {
		w(" `google_tpu_v2_vm` is the google-beta provider's TPU VM, from the build `%s` points at, planned with the same accelerator types and zones and the runtime version it requires.", GoogleBetaEnv)
	}
	w("\n\n")
	w("| Configuration | N | Wall time | Fastest – slowest | × floor | Peak memory, largest process | Peak memory, process tree |\n|---|---:|---:|---:|---:|---:|---:|\n")
	floor := r.Floor.Wall.Median()
	w("| floor (no provider) | 0 | %s | %s | 1.0 | %s | %s |\n", fmtDur(floor), fmtRange(r.Floor.Wall), fmtMiB(r.Floor.MaxRSS.Median()), fmtMiB(r.Floor.TreeRSS.Median()))
	for _, p := range r.Plans {
		label := "`" + string(p.Kind) + "`"
		switch {
		case p.Kind.Baseline():
			label = "baseline: " + label
		case p.Kind.Raw():
			label = "raw protocol: " + label
		case p.Before:
			label = "*before*: " + label
		}
		w("| %s | %d | %s | %s | %.1f | %s | %s |\n", label, p.N, fmtDur(p.Wall.Median()), fmtRange(p.Wall),
			Ratio(p.Wall.Median(), floor), fmtMiB(p.MaxRSS.Median()), fmtMiB(p.TreeRSS.Median()))
	}
	w("\nPeak memory of the largest process is the kernel's maximum resident set size of the Terraform process and the provider processes it waited for ")
	w("(what `/usr/bin/time -v` reports); the process tree figure is the peak of their sum, sampled every %s, since Terraform and the provider run side by side ", sampleEvery)
	w("(sampling can miss the peak of a short run, so the two figures are not comparable for the floor).\n\n")
	w("**Scaling** (the cost per resource is the slope of the least-squares line through every size). ")
	for _, kind := range append(slices.Clone(PlanKinds), KindBaselineTPUVM, KindBaselineNodePools, KindGoogleBeta) {
		for _, before := range []bool{false, true} {
			s, ok := r.scaling(kind, before)
			if !ok {
				continue
			}
			shape := "linear"
			if !s.Linear {
				shape = "faster than linear"
			}
			label := "`" + string(kind) + "`"
			if before {
				label = "*before* " + label
			}
			w("%s: %s; %s per block from 1 to 100 blocks and %s per block from 100 to 500 (least-squares fit: %.2f s + %.2f ms × N). ",
				label, shape, fmtDur(s.PerBlockSmall), fmtDur(s.PerBlockLarge), s.Fit.Intercept, s.Fit.Slope*1000)
		}
	}
	w("A constant part of every plan is process start-up: Terraform starts the provider several times per command (for its schema, to validate and to plan).\n\n")
	r.writeFloors(w)
	w("%s", whereTheTimeGoes)
	w("%s", capacityChecks)
}

// writeFloors tabulates the cost per resource of each schema from the floor
// up: the raw protocol, the framework with no behaviour, this provider.
func (r *Report) writeFloors(w func(string, ...any)) {
	thing, ok := r.Scaling(KindBaselineQuiet)
	if !ok {
		return
	}
	w("### Cost per resource, from the floor up\n\n")
	w("The slope of each least-squares line above, for each schema: the raw protocol resource (`internal/benchmark/cmd/rawprovider`: terraform-plugin-go with no framework, ")
	w("whose GetProviderSchema serves the schema Terraform receives for the resource, converted once at start-up, whose ValidateResourceConfig returns nothing ")
	w("and whose PlanResourceChange returns the proposed new state with every computed null unknown) is what Terraform and the plugin protocol cost for that schema, ")
	w("the floor under any provider of it; the framework baseline adds what terraform-plugin-framework costs with no behaviour; the last row adds this provider's own work. ")
	w("The baselines marked quiet turn unrequested logs off, as this provider does; `%s` keeps the framework's default logging (every line at TRACE).\n\n", KindBaseline)
	w("| Schema | Resource | Per resource | × the raw floor of the schema | × `%s` |\n|---|---|---:|---:|---:|\n", KindBaselineQuiet)
	for _, row := range []struct {
		schema string
		kinds  []Kind
	}{
		{"two attributes", []Kind{KindRawThing, KindBaselineQuiet, KindBaseline}},
		{"`accel_tpu_vm`", []Kind{KindRawTPUVM, KindBaselineQuietTPUVM, KindBaselineTPUVM, KindResources, KindGoogleBeta}},
		{"`accel_fallback_nodepools`, 3 tiers", []Kind{KindRawNodePools, KindBaselineQuietNodePools, KindBaselineNodePools, KindNodePools}},
	} {
		raw, rawOK := r.Scaling(row.kinds[0])
		for _, k := range row.kinds {
			s, ok := r.Scaling(k)
			if !ok {
				continue
			}
			what := "this provider"
			switch {
			case k.Raw():
				what = "raw protocol"
			case k.Baseline() && k.Quiet():
				what = "framework, no behaviour, quiet"
			case k.Baseline():
				what = "framework, no behaviour, TRACE logs"
			case k == KindGoogleBeta:
				what = "google-beta"
			}
			overRaw := "n/a"
			if rawOK {
				overRaw = fmt.Sprintf("%.2f", s.Fit.Slope/raw.Fit.Slope)
			}
			w("| %s | %s: `%s` | %.2f ms | %s | %.2f |\n", row.schema, what, k, 1000*s.Fit.Slope, overRaw, s.Fit.Slope/thing.Fit.Slope)
		}
	}
	w("\n")
	for _, c := range []struct{ kind, raw, base Kind }{
		{KindResources, KindRawTPUVM, KindBaselineQuietTPUVM}, {KindNodePools, KindRawNodePools, KindBaselineQuietNodePools},
	} {
		s, ok := r.Scaling(c.kind)
		raw, rawOK := r.Scaling(c.raw)
		base, baseOK := r.Scaling(c.base)
		if !ok || !rawOK || !baseOK {
			continue
		}
		w("`%s`: the floor for its schema is %.2f ms per resource, %.2fx `%s`; the framework with no behaviour costs %.2fx that floor, and this provider %.2fx the floor, %.2fx the framework alone. ",
			c.kind, 1000*raw.Fit.Slope, raw.Fit.Slope/thing.Fit.Slope, KindBaselineQuiet, base.Fit.Slope/raw.Fit.Slope, s.Fit.Slope/raw.Fit.Slope, s.Fit.Slope/base.Fit.Slope)
		switch {
		case raw.Fit.Slope/thing.Fit.Slope > PerResourceFactor:
			w("At most %gx `%s` is out of reach for any provider of this schema, with or without the framework: Terraform's own work for the schema already costs more.\n\n", PerResourceFactor, KindBaselineQuiet)
		case base.Fit.Slope/thing.Fit.Slope > PerResourceFactor:
			w("At most %gx `%s` is within the floor's reach but not within the framework's.\n\n", PerResourceFactor, KindBaselineQuiet)
		default:
			w("At most %gx `%s` is within reach of a framework provider.\n\n", PerResourceFactor, KindBaselineQuiet)
		}
	}
}

// whereTheTimeGoes is what the profiles of the plans showed, and what was
// done about it. The figures come from the measurements it names, not from
// this run.
const whereTheTimeGoes = `### Where the time of a plan goes

Profiles of the provider process during ` + "`terraform plan`" + ` of 300 ` + "`accel_tpu_vm`" + ` and of 100 ` + "`accel_fallback_nodepools`" + ` of three tiers (a CPU profile of the provider binary, and the CPU time of Terraform and of the provider processes read with ` + "`/usr/bin/time`" + `), and CPU and allocation profiles of the in-process calls (` + "`go test ./internal/benchmark -bench 'PlanResourceChange|ValidateResourceConfig|ReadDataSource' -benchmem -cpuprofile cpu.out -memprofile mem.out`" + `), on the same 2-core machine, found four costs per resource:

1. **Logs nobody reads: more than half of all CPU.** Unless a log level is set, terraform-plugin-go and the framework write every log line at TRACE, as JSON, to the plugin's standard error; Terraform parses each line and, with logging off, throws it away. The framework writes two lines for every validator and plan modifier of every attribute it runs. For 300 ` + "`accel_tpu_vm`" + `, the provider spent 3.7-4.2 s of CPU and Terraform about 3.3 s of its own; with the libraries' loggers off, 2.0-2.3 s and about 1.3 s (totals 7.1-7.6 s against 3.2-3.7 s, two runs each, alternating). The provider now turns the libraries' loggers off when no ` + "`TF_LOG*`" + ` variable is set, that is when Terraform would throw the lines away (` + "`provider.QuietUnrequestedLogs`" + `); any ` + "`TF_LOG*`" + ` variable leaves them as they were.
2. **Reading and writing whole models by reflection: a third of the in-process plan call.** The framework's ` + "`Get`" + ` and ` + "`Set`" + ` work out a model struct's tags on every call and compile a regular expression for each tag; ModifyPlan read config, plan and state and wrote the plan, 4 x 32 compilations per resource. Models are now read and written through ` + "`internal/tfmodel`" + `, which works out each struct's layout once per process: allocations per in-process call fell from 20,713 to 16,084 for the plan of an ` + "`accel_tpu_vm`" + `, from 4,011 to 2,686 for its validation and from 4,586 to 2,431 for a read of ` + "`accel_runtime_version`" + `.
3. **A validator that walks the whole configuration: about 40% of the provider's CPU for node pools.** ` + "`objectvalidator.AlsoRequires`" + ` with relative paths, used to require ` + "`name`" + ` and ` + "`node_locations`" + ` in every tier and ` + "`key`" + `, ` + "`value`" + ` and ` + "`effect`" + ` in every taint, finds each path by walking every value of the resource's configuration and resolving its schema type, once per element. The check now reads the element's own attributes, with the same diagnostics.
4. **The framework's own work per top-level attribute: the floor.** For every top-level attribute and block, whether or not it has a plan modifier, the framework reads the configuration, plan and state at its path and writes the plan back, each step rebuilding the schema's attribute map and transforming the whole value: the cost grows with the square of the number of top-level attributes (32 for ` + "`accel_tpu_vm`" + `). The baselines of the same schema pay it too; only a smaller schema would lower it, and the schema is the user-facing interface. terraform-plugin-framework v1.19.0, the version used, is the newest release; the same holds for Terraform's own work per attribute (decoding, the proposed new state, rendering the plan).

What is left to this provider per resource is its ValidateConfig and ModifyPlan (catalog lookups included) and its validators and plan modifiers, which do nothing but return when there is no prior state.

**The three layers, in process.** ` + "`go test ./internal/benchmark -run '^$' -bench 'PlanResourceChange|ValidateResourceConfig' -benchmem`" + ` calls the three servers of ` + "`accel_tpu_vm`" + `'s schema in one process (this provider, the framework with the bare schema and no behaviour, the raw protocol server), with the same request. Allocations, which the machine's load does not change: a plan for create takes 17,971 for this provider, 16,380 for the framework alone and 798 for the raw server; a validation (Terraform validates each resource twice per plan) 3,053, 2,477 and 1. In time, in the quietest of four runs on the same loaded machine: 9.5, 6.0 and 0.1 ms for the plan and 1.8, 0.8 and 0.0003 ms for the validation. So the framework's own per-attribute work is most of what a framework provider of this schema costs in its process, and it runs whether an attribute has a validator, plan modifier or default or not: the bare schema has none and pays it all. Everything this provider adds (validators, plan modifiers, defaults, ValidateConfig and ModifyPlan; in the CPU profile ModifyPlan is about 12%% of the plan call, mostly reading the configuration and plan and writing the plan, and the catalog under 1%%) is 11%% of the allocations of the three calls. Removing per-attribute plan modifiers that ModifyPlan could replace would not remove the framework's per-attribute reads and writes, which the bare schema shows. The raw server's 0.1 ms against the raw resource's cost per resource in the table above shows that nearly all of that floor is Terraform's own work (decoding the configuration, the proposed new state, the plugin calls' encoding, checking the plan and rendering it), which grows with the size of the schema.

In the command-line runs, ` + "`accel_tpu_vm`" + ` has cost less per resource than ` + "`baselinequiet_tpu_vm`" + ` (and, before, than ` + "`baseline_tpu_vm`" + `) although its provider does strictly more work in process: the difference lies in Terraform's own work on the two plans (this provider's plan of a create has fewer unknown values, since ModifyPlan fills in the project, zone, runtime version, generation, chips and hosts) and has not been pinned down further. The same-schema baseline is therefore not a floor; the raw resource is.

**A path around the framework?** Serving PlanResourceChange and ValidateResourceConfig of ` + "`accel_tpu_vm`" + ` straight from the protocol could at best bring its cost per resource down to the raw floor. It would have to reproduce, with the same plans and the same diagnostics on the same attribute paths, the framework's handling of 28 attributes and 7 blocks: validators on 18 attributes, plan modifiers on 26, 8 defaults, unknown and null values, the requires-replace paths, and ValidateConfig and ModifyPlan. That is a second implementation of the resource's plan, not a small one, and where the raw floor itself is above the target (the conclusion below), it would not reach the target either; it is not done.


`

// capacityChecks is the cost of the plan-time capacity checks, measured by
// the livecheck package's benchmark (go test ./internal/livecheck -bench
// PlanCapacityChecks), not by this run.
const capacityChecks = `### Capacity checks at plan time

When a plan can reach Compute Engine, ` + "`" + `accel_fallback_nodepools` + "`" + ` and ` + "`" + `accel_hardware_path` + "`" + ` read zone offers, quotas
and reservations. ` + "`" + `go test ./internal/livecheck -run '^$' -bench PlanCapacityChecks -benchtime 300x -count 3` + "`" + ` runs
the checks of one plan of the serving example's three tiers in two regions (six tiers) against the emulator, with a
fresh per-plan cache each time, on the same 2-core machine:

| Plan | Time per plan (three runs) | Compute Engine calls per plan | Distinct (API, region or name) keys |
|---|---:|---:|---:|
| offline (neither credentials nor ` + "`" + `compute_endpoint` + "`" + `) | 6-15 µs | 0 | 6 |
| live, against the emulator | 1.15-1.21 ms | 6 | 6 |

The six calls are one ` + "`" + `regions.get` + "`" + ` per region (2), one ` + "`" + `reservations.aggregatedList` + "`" + ` for the project, and one
machine-type or accelerator-type lookup per name (3): every tier after the first in a region reuses the plan's
cached answers. The benchmark fails if a plan makes more calls than distinct keys, or if an offline plan makes any.
The refresh that precedes a plan, which records each ` + "`" + `accel_fallback_nodepools` + "`" + ` tier's ` + "`" + `capacity` + "`" + `, runs in the same
provider process and shares that cache, so it adds no Compute Engine call.
Against Google's APIs each call costs a network round trip instead of the emulator's loopback one, and the calls are
bounded per answer by the live-check timeout.

`

func (r *Report) writeStartup(w func(string, ...any)) {
	w("## Provider start-up\n\n| Measure | Median | Fastest – slowest |\n|---|---:|---:|\n")
	w("| `terraform providers schema -json`, with the provider | %s | %s |\n", fmtDur(r.SchemaCLI.Wall.Median()), fmtRange(r.SchemaCLI.Wall))
	w("| the same command, no provider | %s | %s |\n", fmtDur(r.SchemaFloor.Wall.Median()), fmtRange(r.SchemaFloor.Wall))
	w("| difference: starting the provider and serving its schema | %s | |\n", fmtDur(r.SchemaCLI.Wall.Median()-r.SchemaFloor.Wall.Median()))
	w("| GetProviderSchema in process (new provider server, first call) | %s | %s |\n\n", fmtDur(r.SchemaInProcess.Median()), fmtRange(r.SchemaInProcess))
}

func (r *Report) writeApplies(w func(string, ...any)) {
	w("## Apply against the emulator\n\n")
	w("`terraform apply` against the provider's in-process emulator of the Cloud TPU and GKE APIs, where every operation takes %s, with `poll_interval = %q` ", fmtDur(r.OperationDuration), r.PollInterval)
	w("(the same ratio of polling cap to operation time as the default 10 s cap against operations of a few minutes). ")
	w("The provider's apply is the time between Terraform's `apply_start` and `apply_complete` events for the resource (`terraform apply -json`); the command's wall time adds Terraform's start-up, refresh and plan. ")
	w("The ideal is what the operation durations allow: the sum of the durations when GKE serializes pool creates, the longest one when it does not. ")
	w("Operations are polled adaptively: the first read after a twentieth of `poll_interval`, then 1.5 times longer each time, up to `poll_interval`, each wait jittered to between half and all of its length, and the waiters of node pools created together poll at once when one of them sees its operation end; ")
	if poll, err := time.ParseDuration(r.PollInterval); err == nil && r.OperationDuration > 0 {
		w("an operation's end is therefore seen up to one `poll_interval` late: up to %.1f%% of an operation here.\n\n", 100*Ratio(poll, r.OperationDuration))
	} else {
		w("an operation's end is therefore seen up to one `poll_interval` late.\n\n")
	}
	w("| Case | Ideal | Provider's apply | × ideal | Result | Ideal within the limit | × that ideal | Time beyond it | `terraform apply` wall time | API calls per unit | Operation polls per unit | Create calls per unit |\n")
	w("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range r.Applies {
		ratio := Ratio(a.Span.Median(), a.Ideal)
		w("| %s | %s | %s (%s) | %.3f | %s | %s | %.3f | %s | %s | %.1f | %.1f | %.1f |\n", a.Name, fmtDur(a.Ideal), fmtDur(a.Span.Median()), fmtRange(a.Span),
			ratio, passFail(ratio <= ApplyIdealFactor), fmtDur(a.LimitIdeal), Ratio(a.Span.Median(), a.LimitIdeal),
			fmtDur(a.Span.Median()-a.LimitIdeal), fmtDur(a.Wall.Median()), a.Calls.Median(), a.Polls.Median(), a.Creates.Median())
	}
	w("\nThe time beyond the ideal is the provider's own cost: mostly the polling delay, at most one `poll_interval` for each operation that must end before the next one starts, and a few reads after the last one. ")
	w("The jitter keeps equal-length operations from always ending just after a poll, so an end is seen on average about 0.4 `poll_interval` late.\n")
	w("\n")
	var notes []string
	for _, a := range r.Applies {
		if a.Note != "" && !slices.Contains(notes, a.Note) {
			notes = append(notes, a.Note)
		}
	}
	for _, n := range notes {
		w("- %s\n", n)
	}
	if len(notes) > 0 {
		w("\n")
	}
}

func (r *Report) writeSuites(w func(string, ...any)) {
	s := r.Suites
	if s == nil {
		return
	}
	w("## Fault suite\n\n")
	w("Acceptance tests with the real Terraform CLI as a separate process against the emulator (`%s`). ", s.Command)
	w("Each scenario injects a fault, applies (and, where the fault leaves the apply failed or interrupted, applies again once the fault is gone), ")
	w("then compares `terraform show -json` with the TPU VMs (Cloud TPU nodes, queued resources, Compute Engine instances) and node pools the emulator holds: nothing may exist outside state (orphans), ")
	w("nothing in state may be missing (ghosts) and nothing may exist twice. A plan must then show no change, and a destroy must leave nothing behind.\n\n")
	passed, orphans := 0, 0
	w("| Scenario | Result | Applies | Orphans right after the interruption | State against the emulator after the last apply | After destroy |\n|---|---|---:|---:|---|---|\n")
	for _, sc := range s.Scenarios {
		if sc.Passed {
			passed++
		}
		orphans += sc.OrphansSeen
		w("| `%s` | %s | %d | %d | %s | %s |\n", cell(sc.Name), passFail(sc.Passed), sc.Applies, sc.OrphansSeen, cell(sc.AfterApply), cell(sc.AfterDestroy))
	}
	w("\n%d scenarios, %d passed; %d orphans were found right after interruptions, before the re-apply that must adopt them.\n\n", len(s.Scenarios), passed, orphans)

	w("## Secret-leak checks\n\n")
	w("The provider is configured with an access token, or with a service account key whose token endpoint is a local fake, read from files; ")
	w("Terraform runs plan, apply, a refresh-only plan and destroy with `TF_LOG=trace`, against a proxy in front of the emulator that records the `Authorization` header of every API call. ")
	w("The secrets (the token, the private key and its id, and the signed token requests) are then searched for in the trace log, the CLI's output, ")
	w("`terraform show -json` of the plan and the state, and the state file.\n\n")
	w("| Credential | Secrets searched | Places searched | API calls that carried the credential | Result |\n|---|---:|---:|---:|---|\n")
	for _, sec := range s.Security {
		w("| `%s` | %d | %d | %d | %s |\n", sec.Credential, sec.Secrets, sec.Places, sec.APICalls, passFail(sec.Passed))
	}
	for _, f := range s.SecurityFailed {
		w("| `%s` (no result logged) | | | | %s |\n", f, passFail(false))
	}
	w("\nA secret written literally in a `.tf` file is part of the configuration, which Terraform itself copies into saved plans and their JSON form; ")
	w("pass credentials through the environment (`GOOGLE_OAUTH_ACCESS_TOKEN`, `GOOGLE_APPLICATION_CREDENTIALS`) or Application Default Credentials instead.\n\n")
}

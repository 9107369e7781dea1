// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command planbench builds the provider, measures `terraform plan` and
// `terraform apply` with it (see package benchmark), optionally runs the
// fault suite and the secret-leak tests, prints the full report, and writes
// the Benchmarks guide (the plans at scale, what users read). Run it from
// the module root: `make bench-plan`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
)

// suitePackages are the packages of the fault suite and the secret-leak tests.
var suitePackages = []string{"./internal/faultsuite/", "./internal/security/"}

type options struct {
	out       string
	runs      int
	sizes     []int
	pools     []int
	opTime    time.Duration
	poll      string
	suites    bool
	applies   bool
	kinds     []benchmark.Kind
	terraform string
	// results, when set, is a file the measurements are written to as
	// JSON; render, when set, is such a file to write the guide from
	// instead of measuring.
	results, render string
	// scaleSizes are the numbers of TPU VMs of the scale comparison (none:
	// not run); scaleRuns its measured runs; scalePage the emulator's list
	// page size; onlyScale runs it alone and replaces its section of out.
	scaleSizes []int
	scalePools []int
	scaleRuns  int
	scalePage  int
	// scaleLatency is the emulator's delay before every answer in the
	// latent half of the plans at scale (0: that half is not run).
	scaleLatency time.Duration
	onlyScale    bool
	// before is a git revision of this module whose provider is planned
	// beside the current one.
	before string
}

func main() {
	var o options
	var sizes, pools, kinds, scaleSizes, scalePools string
	flag.StringVar(&o.out, "o", "templates/guides/benchmarks.md.tmpl", "file to write the results to (\"-\" for stdout)")
	flag.IntVar(&o.runs, "runs", 5, "measured runs per figure (after one warm-up run)")
	flag.StringVar(&sizes, "sizes", "1,10,100,500", "numbers of resources and data sources to plan")
	flag.StringVar(&pools, "pools", "1,3,6", fmt.Sprintf("numbers of node pools to apply (at most %d)", benchmark.MaxPools))
	flag.DurationVar(&o.opTime, "operation-duration", 2*time.Second, "duration of every emulated operation")
	flag.StringVar(&o.poll, "poll-interval", "100ms", "the provider's poll_interval in the applies")
	flag.BoolVar(&o.suites, "suites", true, "also run the fault suite and the secret-leak tests and report them")
	flag.BoolVar(&o.applies, "applies", true, "also measure the applies against the emulator")
	flag.StringVar(&o.results, "results", "", "also write the measurements to this file as JSON")
	flag.StringVar(&o.render, "render", "", "write the guide from the measurements in this JSON file (see -results) instead of measuring")
	flag.StringVar(&kinds, "kinds", "", "resource and data source types to plan, comma-separated (default: all)")
	flag.StringVar(&o.terraform, "terraform", "", "terraform binary (default: terraform on PATH)")
	flag.StringVar(&o.before, "before", "", "a git revision of this module whose provider is also planned, in the same rounds, for before-and-after figures")
	flag.StringVar(&scaleSizes, "scale-sizes", "300,1000", "numbers of TPU VMs of the plans at scale beside google-beta (\"none\": not run)")
	flag.StringVar(&scalePools, "scale-pools", "100", "numbers of accel_fallback_nodepools (of 3 tiers) of the plans at scale beside the google provider's pools (\"none\": not run)")
	flag.DurationVar(&o.scaleLatency, "scale-latency", 100*time.Millisecond, "the emulator's delay before every answer in the second half of the plans at scale, about Google's (0: not run)")
	flag.IntVar(&o.scaleRuns, "scale-runs", 3, "measured runs per figure of the plans at scale")
	flag.IntVar(&o.scalePage, "scale-page-size", 500, "the emulator's list page size in the plans at scale")
	flag.BoolVar(&o.onlyScale, "only-scale", false, "run only the plans at scale and replace their section of the guide")
	flag.Parse()
	var err error
	if o.sizes, err = parseInts(sizes); err == nil {
		o.pools, err = parseInts(pools)
	}
	if err == nil && scaleSizes != "none" {
		o.scaleSizes, err = parseInts(scaleSizes)
	}
	if err == nil && scalePools != "none" {
		o.scalePools, err = parseInts(scalePools)
	}
	if kinds != "" {
		for k := range strings.SplitSeq(kinds, ",") {
			o.kinds = append(o.kinds, benchmark.Kind(strings.TrimSpace(k)))
		}
	}
	if err == nil {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		err = run(ctx, o)
		stop()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "planbench:", err)
		os.Exit(1)
	}
}

func parseInts(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a list of positive numbers", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "planbench: "+format+"\n", args...)
}

func run(ctx context.Context, o options) error {
	if o.render != "" {
		return renderResults(o.render, o.out)
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return errors.New("run from the module root (make bench-plan)")
	}
	tf, err := terraformPath(o.terraform)
	if err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "planbench-")
	if err != nil {
		return err
	}
	defer removeTemp(tmp)
	r, x, err := installProviders(ctx, o, tf, root, tmp)
	if err != nil {
		return err
	}
	if o.onlyScale {
		return replaceScale(ctx, r, o, x, tf)
	}
	rep, err := measureReport(ctx, r, o, x, tf)
	if err != nil {
		return err
	}
	if err := writeResults(o.results, rep); err != nil {
		return err
	}
	return write(o.out, rep)
}

// renderResults writes the report and the guide to out from the
// measurements in the JSON file results, without measuring.
func renderResults(results, out string) error {
	b, err := os.ReadFile(results)
	if err != nil {
		return err
	}
	var rep benchmark.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", results, err)
	}
	return write(out, &rep)
}

// terraformPath is the terraform binary to measure: tf, or terraform on
// PATH when tf is "".
func terraformPath(tf string) (string, error) {
	if tf != "" {
		return tf, nil
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		return "", errors.New("terraform is not on PATH; pass -terraform")
	}
	return p, nil
}

// removeTemp removes the work directory tmp, logging a failure.
func removeTemp(tmp string) {
	if err := os.RemoveAll(tmp); err != nil {
		logf("removing %s: %v", tmp, err)
	}
}

// installProviders builds the providers of the module at root (and of
// o.before, exported under tmp) into tmp and returns the runner of tf
// that plans with them, and the builds beside the provider.
func installProviders(ctx context.Context, o options, tf, root, tmp string) (*benchmark.Runner, benchmark.Extras, error) {
	x := benchmark.Extras{GoogleBeta: os.Getenv(benchmark.GoogleBetaEnv), Google: os.Getenv(benchmark.GoogleEnv)}
	if o.before != "" {
		var err error
		if x.BeforeRoot, err = exportRevision(ctx, o.before, tmp); err != nil {
			return nil, x, err
		}
	}
	logf("building the providers")
	env, err := benchmark.Install(ctx, root, tmp, x)
	if err != nil {
		return nil, x, err
	}
	return &benchmark.Runner{Terraform: tf, Env: env, WorkDir: tmp, Runs: o.runs, Logf: logf}, x, nil
}

// replaceScale measures the plans at scale alone, prints their targets and
// replaces their section of the guide o.out.
func replaceScale(ctx context.Context, r *benchmark.Runner, o options, x benchmark.Extras, tf string) error {
	s, err := measureScale(ctx, r, o, x, tf)
	if err != nil {
		return err
	}
	guide, err := os.ReadFile(o.out)
	if err != nil {
		return err
	}
	fmt.Print(targetsTable(s))
	fmt.Print(s.BeforeAfter(o.before))
	if err := os.WriteFile(o.out, []byte(benchmark.SpliceScale(string(guide), s.Section())), 0o644); err != nil { //nolint:gosec // a documentation file
		return err
	}
	logf("replaced the plans at scale in %s", o.out)
	return nil
}

// measureReport measures what o asks for, in order: the plans, the plans
// at scale, the applies and the suites.
func measureReport(ctx context.Context, r *benchmark.Runner, o options, x benchmark.Extras, tf string) (*benchmark.Report, error) {
	rep := &benchmark.Report{
		Date:              time.Now().UTC().Format(time.DateOnly),
		Command:           "make bench-plan",
		Machine:           benchmark.DetectMachine(ctx, tf),
		Runs:              o.runs,
		OperationDuration: o.opTime,
		PollInterval:      o.poll,
		Before:            o.before,
		GoogleBeta:        x.GoogleBeta != "",
	}
	if err := measurePlans(ctx, r, rep, o); err != nil {
		return nil, err
	}
	if len(o.scaleSizes)+len(o.scalePools) > 0 {
		var err error
		if rep.Scale, err = measureScale(ctx, r, o, x, tf); err != nil {
			return nil, err
		}
	}
	if o.applies {
		if err := measureApplies(ctx, r, rep, o); err != nil {
			return nil, err
		}
	}
	if o.suites {
		s, err := runSuites(ctx, tf)
		if err != nil {
			return nil, err
		}
		rep.Suites = s
	}
	return rep, nil
}

// writeResults writes the measurements of rep to the file results as
// JSON; results "" writes nothing.
func writeResults(results string, rep *benchmark.Report) error {
	if results == "" {
		return nil
	}
	b, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(results, b, 0o600); err != nil {
		return err
	}
	logf("wrote %s", results)
	return nil
}

// targetsTable is the plans-at-scale targets, for the terminal.
func targetsTable(s *benchmark.ScaleRun) string {
	var b strings.Builder
	b.WriteString("| Target | Measured | Met |\n|---|---|---|\n")
	for _, t := range s.ScaleTargets() {
		fmt.Fprintf(&b, "| %s | %s | %v |\n", t.Target, t.Measured, t.Met)
	}
	return b.String()
}

// write prints the full report and writes the guide to out ("-" for
// stdout, after the report).
func write(out string, rep *benchmark.Report) error {
	if _, err := os.Stdout.WriteString(rep.Markdown()); err != nil {
		return err
	}
	md := rep.Guide()
	if out == "-" {
		_, err := os.Stdout.WriteString(md)
		return err
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil { //nolint:gosec // a documentation file
		return err
	}
	logf("wrote %s", out)
	return nil
}

func measurePlans(ctx context.Context, r *benchmark.Runner, rep *benchmark.Report, o options) error {
	schemaArgs := []string{"providers", "schema", "-json"}
	jobs := []benchmark.Job{
		{Label: "plan, no provider", Config: benchmark.FloorConfig, Args: benchmark.PlanArgs},
		{Label: "providers schema", Config: benchmark.PlanConfig(benchmark.KindResources, 0), Args: schemaArgs},
		{Label: "providers schema, no provider", Config: benchmark.FloorConfig, Args: schemaArgs},
	}
	var plans []benchmark.PlanResult
	kinds := o.kinds
	if len(kinds) == 0 {
		kinds = benchmark.PlanKinds
	}
	if rep.GoogleBeta {
		kinds = append(kinds, benchmark.KindGoogleBeta)
	}
	for _, kind := range kinds {
		for _, n := range o.sizes {
			jobs = append(jobs, benchmark.PlanJob(kind, n))
			plans = append(plans, benchmark.PlanResult{Kind: kind, N: n})
			if o.before != "" && !kind.Baseline() && !kind.Raw() && kind != benchmark.KindGoogleBeta {
				jobs = append(jobs, benchmark.BeforePlanJob(kind, n))
				plans = append(plans, benchmark.PlanResult{Kind: kind, N: n, Before: true})
			}
		}
	}
	logf("plan and providers schema: %d configurations, interleaved", len(jobs))
	samples, err := r.RepeatAll(ctx, jobs)
	if err != nil {
		return err
	}
	rep.Floor, rep.SchemaCLI, rep.SchemaFloor = samples[0], samples[1], samples[2]
	for i := range plans {
		plans[i].Sample = samples[3+i]
	}
	rep.Plans = plans
	newServer := func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(provider.New("bench")())()
	}
	rep.SchemaInProcess, err = benchmark.SchemaInProcess(ctx, newServer, max(o.runs, 5))
	return err
}

// measureScale plans N accel_tpu_vm and N accel_fallback_nodepools, and
// the Google providers' resources of the same objects when their builds are
// given, against one emulator, with no latency and with o.scaleLatency: a
// create and, after an apply, with state; and the floors of the TPU VM
// schemas (google-beta's when its build is given). Every configuration,
// size and latency runs in the same rounds.
func measureScale(ctx context.Context, r *benchmark.Runner, o options, x benchmark.Extras, tf string) (*benchmark.ScaleRun, error) {
	srv, err := benchmark.StartScaleEmulator(o.scalePage)
	if err != nil {
		return nil, err
	}
	defer func() { _ = srv.Close() }()
	s := &benchmark.ScaleRun{
		Date: time.Now().UTC().Format(time.DateOnly), Machine: benchmark.DetectMachine(ctx, tf),
		Runs: o.scaleRuns, PageSize: o.scalePage, Latency: o.scaleLatency, LoadBefore: benchmark.LoadAverage(),
		GoogleBeta: x.GoogleBeta, Google: x.Google,
	}
	floors := []benchmark.Kind{benchmark.KindRawTPUVM}
	if x.GoogleBeta != "" && len(o.scaleSizes) > 0 {
		path, err := r.WriteRawSchema(ctx, benchmark.GoogleBetaRequired, benchmark.GoogleBetaSource, string(benchmark.KindGoogleBeta), string(benchmark.KindRawGoogleTPUVM))
		if err != nil {
			return nil, err
		}
		r.Env = append(r.Env, benchmark.RawSchemasEnv+"="+path)
		floors = append(floors, benchmark.KindRawGoogleTPUVM)
	}
	jobs := scaleJobs(srv, s, o, x, floors)
	logf("plans at scale: %d configurations, interleaved", len(jobs))
	runs := r.Runs
	r.Runs = o.scaleRuns
	samples, err := r.RepeatAll(ctx, jobs)
	r.Runs = runs
	if err != nil {
		return nil, err
	}
	for i := range s.Results {
		s.Results[i].Create, s.Results[i].Refresh = samples[2*i], samples[2*i+1]
	}
	s.LoadAfter = benchmark.LoadAverage()
	return s, nil
}

// scaleJobs are the jobs of the plans at scale, each size of each kind
// with no latency and with o.scaleLatency (the floors with none), their
// results added to s in the same order.
func scaleJobs(srv *emulator.Server, s *benchmark.ScaleRun, o options, x benchmark.Extras, floors []benchmark.Kind) []benchmark.Job {
	latencies := []time.Duration{0}
	if o.scaleLatency > 0 {
		latencies = append(latencies, o.scaleLatency)
	}
	var jobs []benchmark.Job
	add := func(kind benchmark.Kind, n int, latency time.Duration, before bool) {
		jobs = append(jobs, benchmark.ScaleJobs(kind, n, srv, latency, before)...)
		zones := 1
		if kind != benchmark.KindNodePools && kind != benchmark.KindGooglePools {
			zones = benchmark.ScaleZones(n)
		}
		s.Results = append(s.Results, benchmark.ScaleResult{Kind: kind, N: n, Zones: zones, Latency: latency, Before: before})
	}
	for _, set := range []struct {
		sizes      []int
		kind, peer benchmark.Kind
		build, env string
	}{
		{o.scaleSizes, benchmark.KindResources, benchmark.KindGoogleBeta, x.GoogleBeta, benchmark.GoogleBetaEnv},
		{o.scalePools, benchmark.KindNodePools, benchmark.KindGooglePools, x.Google, benchmark.GoogleEnv},
	} {
		kinds := []benchmark.Kind{set.kind}
		if set.build != "" {
			kinds = append(kinds, set.peer)
		} else if len(set.sizes) > 0 {
			logf("plans at scale: %s is not set, so %s is not compared (%s is measured alone)", set.env, set.peer, set.kind)
		}
		for _, n := range set.sizes {
			for _, latency := range latencies {
				for _, k := range kinds {
					add(k, n, latency, false)
				}
				if o.before != "" {
					add(set.kind, n, latency, true)
				}
			}
			if set.kind == benchmark.KindResources {
				for _, k := range floors {
					add(k, n, 0, false)
				}
			}
		}
	}
	return jobs
}

func measureApplies(ctx context.Context, r *benchmark.Runner, rep *benchmark.Report, o options) error {
	for _, serialized := range []bool{true, false} {
		srv, err := benchmark.StartEmulator(o.opTime, serialized)
		if err != nil {
			return err
		}
		for _, n := range o.pools {
			if n > benchmark.MaxPools {
				_ = srv.Close()
				return fmt.Errorf("at most %d pools", benchmark.MaxPools)
			}
			a, err := r.Apply(ctx, benchmark.NodePoolsCase(srv, serialized, n, o.opTime, o.poll))
			if err != nil {
				_ = srv.Close()
				return err
			}
			rep.Applies = append(rep.Applies, a)
		}
		_ = srv.Close()
	}
	for _, stockout := range []bool{false, true} {
		var capacity []emulator.Capacity
		if stockout {
			capacity = append(capacity, benchmark.TPUStockoutCapacity())
		}
		srv, err := benchmark.StartEmulator(o.opTime, false, capacity...)
		if err != nil {
			return err
		}
		a, err := r.Apply(ctx, benchmark.TPUVMCase(srv, stockout, o.opTime, o.poll))
		_ = srv.Close()
		if err != nil {
			return err
		}
		rep.Applies = append(rep.Applies, a)
	}
	return nil
}

// exportRevision writes the files of revision rev of the repository into a
// new directory under dir (git archive: no checkout, the work tree is left
// alone) and returns it.
func exportRevision(ctx context.Context, rev, dir string) (string, error) {
	out := filepath.Join(dir, "before")
	if err := os.MkdirAll(out, 0o700); err != nil {
		return "", err
	}
	archive := exec.CommandContext(ctx, "git", "archive", "--format=tar", rev)
	extract := exec.CommandContext(ctx, "tar", "-x", "-C", out)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	extract.Stdin = pipe
	var stderr strings.Builder
	archive.Stderr, extract.Stderr = &stderr, &stderr
	if err := extract.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		_ = extract.Wait()
		return "", fmt.Errorf("git archive %s: %w\n%s", rev, err, stderr.String())
	}
	if err := extract.Wait(); err != nil {
		return "", fmt.Errorf("extracting %s: %w\n%s", rev, err, stderr.String())
	}
	return out, nil
}

// runSuites runs the fault suite and the secret-leak tests and parses their
// logs. Failing tests are reported, not fatal.
func runSuites(ctx context.Context, tf string) (*benchmark.SuiteSummary, error) {
	args := append([]string{"test", "-count=1", "-v", "-run", "^TestAcc"}, suitePackages...)
	logf("go %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "TF_ACC=1", "TF_ACC_TERRAFORM_PATH="+tf, "CHECKPOINT_DISABLE=1")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return nil, fmt.Errorf("running the fault suite: %w", err)
	}
	s := benchmark.ParseSuiteLog(out)
	if len(s.Scenarios) == 0 {
		return nil, fmt.Errorf("the fault suite reported no scenario:\n%s", out)
	}
	s.Command = "TF_ACC=1 go test -count=1 -v -run '^TestAcc' " + strings.Join(suitePackages, " ")
	return &s, nil
}

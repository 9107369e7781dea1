// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
)

// GoogleBetaEnv names the environment variable that points the benchmarks at
// a local build of the google-beta provider (a terraform-provider-google-beta
// binary): when it is set, the plans of KindGoogleBeta are measured beside
// the others.
const GoogleBetaEnv = "ACCEL_BENCH_GOOGLE_BETA"

// GoogleEnv names the environment variable that points the plans at scale
// at a local build of the google provider (terraform-provider-google), whose
// google_container_node_pool is planned beside accel_fallback_nodepools.
const GoogleEnv = "ACCEL_BENCH_GOOGLE"

// Extras are the providers Install adds when they are given.
type Extras struct {
	// BeforeRoot is the module root of another version of this provider
	// (planbench -before), served as BeforeSource.
	BeforeRoot string
	// GoogleBeta is a google-beta provider binary, served as GoogleBetaSource.
	GoogleBeta string
	// Google is a google provider binary, served as GoogleSource.
	Google string
}

// Install builds this module's provider, the baseline provider
// (cmd/baselineprovider, also installed as baselinequiet) and the raw
// provider (cmd/rawprovider) into dir, with the extras given; see
// devbuild.Install.
func Install(ctx context.Context, root, dir string, x Extras) ([]string, error) {
	ps := []devbuild.Provider{devbuild.Accel,
		{Source: "accel-dev/baseline", Package: "./internal/benchmark/cmd/baselineprovider"},
		{Source: "accel-dev/baselinequiet", Binary: filepath.Join(dir, "terraform-provider-baseline")},
		{Source: "accel-dev/raw", Package: "./internal/benchmark/cmd/rawprovider"}}
	if x.BeforeRoot != "" {
		ps = append(ps, devbuild.Provider{Source: BeforeSource, Package: ".", Root: x.BeforeRoot})
	}
	if x.GoogleBeta != "" {
		ps = append(ps, devbuild.Provider{Source: GoogleBetaSource, Binary: x.GoogleBeta})
	}
	if x.Google != "" {
		ps = append(ps, devbuild.Provider{Source: GoogleSource, Binary: x.Google})
	}
	return devbuild.Install(ctx, root, dir, ps...)
}

// Runner runs the Terraform CLI repeatedly in fresh working directories.
type Runner struct {
	// Terraform is the path of the terraform binary.
	Terraform string
	// Env is the CLI's whole environment (see Install).
	Env []string
	// WorkDir holds the working directories.
	WorkDir string
	// Runs is the number of measured runs of each command, after one
	// unmeasured warm-up run.
	Runs int
	// Logf, when set, reports progress.
	Logf func(format string, args ...any)

	seq int
}

func (r *Runner) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// workspace creates a fresh working directory holding config as main.tf.
func (r *Runner) workspace(config string) (string, error) {
	r.seq++
	dir := filepath.Join(r.WorkDir, fmt.Sprintf("ws-%03d", r.seq))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating a workspace: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return "", fmt.Errorf("writing the configuration: %w", err)
	}
	return dir, nil
}

func (r *Runner) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.Terraform, args...)
	cmd.Dir = dir
	cmd.Env = r.Env
	return cmd
}

// Sample is a command measured over several runs.
type Sample struct {
	Wall    Series[time.Duration]
	MaxRSS  Series[int64]
	TreeRSS Series[int64]
	// APICalls is the number of API calls of each run, for a job that
	// counts them (Job.Calls); CallsByMethod are those of its last run.
	APICalls      Series[int64]    `json:",omitempty"`
	CallsByMethod map[string]int64 `json:",omitempty"`
}

func (s *Sample) add(m Measurement) {
	s.Wall = append(s.Wall, m.Wall)
	s.MaxRSS = append(s.MaxRSS, m.MaxRSS)
	s.TreeRSS = append(s.TreeRSS, m.TreeRSS)
}

// addCalls records the calls of one run: after minus before, by method.
func (s *Sample) addCalls(before, after map[string]int64) {
	s.CallsByMethod = map[string]int64{}
	var total int64
	for m, n := range after {
		if d := n - before[m]; d > 0 {
			s.CallsByMethod[m] = d
			total += d
		}
	}
	s.APICalls = append(s.APICalls, total)
}

// Job is one command to measure: terraform with Args in a working
// directory holding Config.
type Job struct {
	Label  string
	Config string
	Args   []string
	// Setup, when set, runs once in the working directory before the first
	// run, unmeasured: an apply that makes the state a plan then refreshes.
	Setup []string
	// Calls, when set, returns the API calls the emulator the job runs
	// against has answered so far, by method: each run records how many it
	// made. Runs are never concurrent, so the difference is the run's own.
	Calls func() map[string]int64
	// Before, when set, runs before each run of the job (the warm-up
	// included, its Setup not): the emulator's latency of the job, say.
	Before func() error
	// Workspace, when set, names a working directory that the jobs of the
	// same Workspace share: the first one's Setup makes it, for all of them
	// (plans with state at two latencies read the same applied state).
	Workspace string
}

// RepeatAll measures every job Runs times, after one warm-up run each. The
// runs are interleaved, one run of every job per round, so that a change of
// background load on the machine affects every job alike instead of the few
// measured while it lasts.
func (r *Runner) RepeatAll(ctx context.Context, jobs []Job) ([]Sample, error) {
	dirs, err := r.prepare(ctx, jobs)
	if err != nil {
		return nil, err
	}
	out := make([]Sample, len(jobs))
	for round := range r.Runs + 1 {
		r.logf("round %d of %d (the first is a warm-up)", round+1, r.Runs+1)
		for i, j := range jobs {
			var into *Sample
			if round > 0 {
				into = &out[i]
			}
			if err := r.runJob(ctx, j, dirs[i], into); err != nil {
				return nil, fmt.Errorf("%s: %w", j.Label, err)
			}
		}
	}
	return out, nil
}

// prepare makes the jobs' working directories, one per Workspace, and runs
// each directory's Setup once.
func (r *Runner) prepare(ctx context.Context, jobs []Job) ([]string, error) {
	dirs := make([]string, len(jobs))
	shared := map[string]string{}
	for i, j := range jobs {
		if dir, ok := shared[j.Workspace]; ok && j.Workspace != "" {
			dirs[i] = dir
			continue
		}
		dir, err := r.workspace(j.Config)
		if err != nil {
			return nil, err
		}
		dirs[i] = dir
		shared[j.Workspace] = dir
		if len(j.Setup) > 0 {
			r.logf("%s: terraform %s", j.Label, strings.Join(j.Setup, " "))
			if _, err := Measure(ctx, r.command(ctx, dir, j.Setup...)); err != nil {
				return nil, fmt.Errorf("%s: %w", j.Label, err)
			}
		}
	}
	return dirs, nil
}

// runJob runs j once in dir, after its Before, and adds the run to into
// (nil for a warm-up run), with its API calls when j counts them.
func (r *Runner) runJob(ctx context.Context, j Job, dir string, into *Sample) error {
	if j.Before != nil {
		if err := j.Before(); err != nil {
			return err
		}
	}
	var before map[string]int64
	if j.Calls != nil {
		before = j.Calls()
	}
	m, err := Measure(ctx, r.command(ctx, dir, j.Args...))
	if err != nil || into == nil {
		return err
	}
	into.add(m)
	if j.Calls != nil {
		into.addCalls(before, j.Calls())
	}
	return nil
}

// PlanArgs are the arguments of a measured plan.
var PlanArgs = []string{"plan", "-input=false", "-no-color"}

// PlanResult is the plan of one configuration.
type PlanResult struct {
	Kind Kind
	N    int
	// Before is set for the plans of the provider built from another
	// version (BeforeConfig).
	Before bool
	Sample
}

// PlanJob is the plan of n blocks of kind.
func PlanJob(kind Kind, n int) Job {
	return Job{Label: fmt.Sprintf("plan of %d %s", n, kind), Config: PlanConfig(kind, n), Args: PlanArgs}
}

// BeforePlanJob is the plan of n blocks of kind with the provider built from
// another version.
func BeforePlanJob(kind Kind, n int) Job {
	return Job{Label: fmt.Sprintf("plan of %d %s, before", n, kind), Config: BeforeConfig(kind, n), Args: PlanArgs}
}

// SchemaInProcess measures a fresh provider server's first GetProviderSchema
// answer, runs times, in this process: the work the provider does for every
// Terraform command before anything else, without process start-up.
func SchemaInProcess(ctx context.Context, newServer func() (tfprotov6.ProviderServer, error), runs int) (Series[time.Duration], error) {
	var out Series[time.Duration]
	for range runs {
		start := time.Now()
		srv, err := newServer()
		if err != nil {
			return nil, fmt.Errorf("starting the provider server: %w", err)
		}
		resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			return nil, fmt.Errorf("GetProviderSchema: %w", err)
		}
		out = append(out, time.Since(start))
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				return nil, fmt.Errorf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
			}
		}
		if len(resp.ResourceSchemas) == 0 {
			return nil, fmt.Errorf("GetProviderSchema returned no resource schema")
		}
	}
	return out, nil
}

// ApplyCase is one apply against the emulator.
type ApplyCase struct {
	// Name labels the case in the report.
	Name string
	// Config is the whole configuration.
	Config string
	// Addr is the resource whose apply is timed.
	Addr string
	// Units is what API calls are counted per (pools, VMs).
	Units int
	// Ideal is the shortest apply the emulator's operation durations allow.
	Ideal time.Duration
	// LimitIdeal is the shortest apply within the provider's limit of
	// concurrent operations; Ideal when the limit does not bind.
	LimitIdeal time.Duration
	// Note explains Ideal.
	Note string
	// Reset returns the emulator to its starting point before each run.
	Reset func() `json:"-"`
	// Calls returns the emulator's call counters since the last Reset.
	Calls func() map[string]int64 `json:"-"`
	// CreateMethod is the create call counted in Creates.
	CreateMethod string
	// PollMethod is the operation read counted in Polls.
	PollMethod string
}

// ApplyResult is an ApplyCase measured over several runs.
type ApplyResult struct {
	ApplyCase
	// Wall is the whole `terraform apply` command.
	Wall Series[time.Duration]
	// Span is the provider's apply of Addr (see ApplySpan).
	Span Series[time.Duration]
	// Calls is the number of API calls per unit.
	Calls Series[float64]
	// Creates is the number of create calls per unit (more than one means
	// refused and retried creates).
	Creates Series[float64]
	// Polls is the number of operation reads per unit.
	Polls Series[float64]
}

// Apply runs c Runs times (after a warm-up run), each in a fresh working
// directory against a freshly reset emulator.
func (r *Runner) Apply(ctx context.Context, c ApplyCase) (ApplyResult, error) {
	r.logf("apply: %s", c.Name)
	res := ApplyResult{ApplyCase: c}
	units := float64(max(c.Units, 1))
	for i := range r.Runs + 1 {
		c.Reset()
		dir, err := r.workspace(c.Config)
		if err != nil {
			return res, err
		}
		m, err := Measure(ctx, r.command(ctx, dir, "apply", "-auto-approve", "-input=false", "-json"))
		if err != nil {
			return res, err
		}
		span, err := ApplySpan(m.Stdout, c.Addr)
		if err != nil {
			return res, err
		}
		if i == 0 {
			continue
		}
		var total int64
		calls := c.Calls()
		for _, n := range calls {
			total += n
		}
		res.Wall = append(res.Wall, m.Wall)
		res.Span = append(res.Span, span)
		res.Calls = append(res.Calls, float64(total)/units)
		res.Creates = append(res.Creates, float64(calls[c.CreateMethod])/units)
		res.Polls = append(res.Polls, float64(calls[c.PollMethod])/units)
	}
	return res, nil
}

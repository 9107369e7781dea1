// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// waitLimit bounds every wait for the emulator to reach a point of an
// apply; reaching it is a failure, not a measurement.
const waitLimit = 2 * time.Minute

// summary collects one line per scenario for the suite's last log line.
type summary struct {
	mu      sync.Mutex
	run     int
	passed  int
	orphans int
}

func (s *summary) record(passed bool, orphansSeen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run++
	if passed {
		s.passed++
	}
	s.orphans += orphansSeen
}

// harness is one scenario's world: its own emulator, workspace and names.
type harness struct {
	t      *testing.T
	tg     *acctest.Target
	ws     *faultsuite.Workspace
	prefix string
	kind   string // faultsuite.TypeTPUVM, TypeTPUVMQueued, TypeTPUVMCompute or TypeNodePools
	// orphansSeen counts orphans observed after an interruption, before the
	// re-apply that must adopt or remove them.
	orphansSeen int
	applies     int
	// afterApply and afterDestroy are the reconciliations after the last
	// apply and after the destroy, when they ran.
	afterApply, afterDestroy *faultsuite.Report
	// foreign holds the node pools the scenario created outside Terraform
	// (full name to their state as first seen): they are not orphans, and
	// they must be left exactly as they are (see foreignPool).
	foreign map[string]string
	// afterDestroyChecks run after the destroy of finish: what the
	// reconciliation of pools and nodes does not see (workload policies).
	afterDestroyChecks []func() error
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	h.t.Cleanup(cancel)
	return ctx
}

func (h *harness) write(body string) {
	h.t.Helper()
	if err := h.ws.WriteConfig(h.tg.Config(body)); err != nil {
		h.t.Fatal(err)
	}
}

var applyArgs = []string{"apply", "-auto-approve", "-input=false", "-no-color"}

// apply runs terraform apply; wantErr nil expects success, otherwise an
// error whose output matches it.
func (h *harness) apply(wantErr *regexp.Regexp) {
	h.t.Helper()
	_ = h.applyWith(wantErr)
}

// applyWith is apply with more arguments (such as -replace=ADDRESS or a
// saved plan's file); it returns what Terraform printed.
func (h *harness) applyWith(wantErr *regexp.Regexp, extra ...string) faultsuite.Output {
	h.t.Helper()
	h.applies++
	out, err := h.ws.Run(h.ctx(), append(slices.Clone(applyArgs), extra...)...)
	switch {
	case wantErr == nil && err != nil:
		h.t.Fatalf("apply %d failed: %v", h.applies, err)
	case wantErr != nil && err == nil:
		h.t.Fatalf("apply %d succeeded, want an error matching %q\nstdout:\n%s", h.applies, wantErr, out.Stdout)
	case wantErr != nil && !wantErr.MatchString(out.Stdout+out.Stderr):
		h.t.Fatalf("apply %d error does not match %q: %v", h.applies, wantErr, err)
	}
	return out
}

// reconcile compares the workspace's state with the emulator.
func (h *harness) reconcile() faultsuite.Report {
	h.t.Helper()
	r, err := h.check()
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func (h *harness) check() (faultsuite.Report, error) {
	st, err := h.ws.State()
	if err != nil {
		return faultsuite.Report{}, err
	}
	switch h.kind {
	case faultsuite.TypeTPUVM:
		return faultsuite.ReconcileTPUVMs(st, faultsuite.NodeIDs(h.tg.Emulator.Nodes()), h.prefix), nil
	case faultsuite.TypeTPUVMQueued:
		return h.reconcileQueued(st), nil
	case faultsuite.TypeTPUVMCompute:
		return faultsuite.ReconcileComputeTPUVMs(st, h.tg.Emulator.Instances(), h.tg.Emulator.Nodes(), h.prefix), nil
	}
	r := faultsuite.ReconcileNodePools(st, h.tg.Emulator.NodePools(), h.prefix)
	// A pool created outside Terraform is in no state by design.
	r.Orphans = slices.DeleteFunc(r.Orphans, func(name string) bool { _, ok := h.foreign[name]; return ok })
	return r, nil
}

// expectClean fails unless state and emulator agree with want objects
// managed, and returns the reconciliation.
func (h *harness) expectClean(when string, want int) *faultsuite.Report {
	h.t.Helper()
	r := h.reconcile()
	if !r.Clean() || r.Managed != want {
		h.t.Fatalf("%s: want %d managed objects and a clean state, got %s", when, want, r)
	}
	return &r
}

// interruptedApply starts an apply, waits until the emulator has received one
// more call of method than before, sends sig to Terraform's process group and
// waits for it to exit with an error. After SIGINT, Terraform must say it
// was interrupted. No process of the group may outlive Terraform.
func (h *harness) interruptedApply(method string, sig syscall.Signal) {
	h.t.Helper()
	h.interruptedApplyAt(method, sig, nil)
}

// interruptedApplyAt is interruptedApply that calls atSignal, when not nil,
// right before the signal (to inject a fault that must be there when it
// arrives), and returns the time from the signal to Terraform's exit.
func (h *harness) interruptedApplyAt(method string, sig syscall.Signal, atSignal func()) time.Duration {
	h.t.Helper()
	p := h.applyUntil(method)
	if atSignal != nil {
		atSignal()
	}
	signalled := time.Now()
	if err := p.Signal(sig); err != nil {
		h.t.Fatal(err)
	}
	out, err := h.waitExit(p)
	exited := time.Since(signalled)
	var exitErr *exec.ExitError
	if err == nil || !errors.As(err, &exitErr) {
		h.t.Fatalf("apply interrupted by %v: want a failed exit, got %v\nstdout:\n%s", sig, err, out.Stdout)
	}
	if sig == syscall.SIGINT && !strings.Contains(out.Stdout+out.Stderr, "Interrupt received") {
		h.t.Fatalf("terraform did not report the interrupt:\nstdout:\n%s\nstderr:\n%s", out.Stdout, out.Stderr)
	}
	return exited
}

// applyUntil starts an apply and returns once the emulator has received one
// more call of method than before.
func (h *harness) applyUntil(method string) *faultsuite.Process {
	h.t.Helper()
	h.applies++
	before := h.tg.Emulator.Counters()[method]
	p, err := h.ws.Start(applyArgs...)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.waitFor(func() bool { return h.tg.Emulator.Counters()[method] > before }); err != nil {
		_ = p.Signal(syscall.SIGKILL)
		out, _ := p.Wait()
		h.t.Fatalf("waiting for %s: %v\nstdout:\n%s\nstderr:\n%s", method, err, out.Stdout, out.Stderr)
	}
	return p
}

// waitExit waits for Terraform to exit, then for every process of its group
// (the provider plugins) to be gone. Either taking longer than waitLimit is a
// failure: the group is killed.
func (h *harness) waitExit(p *faultsuite.Process) (faultsuite.Output, error) {
	h.t.Helper()
	exited := make(chan struct{})
	var out faultsuite.Output
	var err error
	go func() {
		defer close(exited)
		out, err = p.Wait()
	}()
	select {
	case <-exited:
	case <-time.After(waitLimit):
		_ = p.Signal(syscall.SIGKILL)
		<-exited
		h.t.Fatalf("terraform did not exit within %s\nstdout:\n%s\nstderr:\n%s", waitLimit, out.Stdout, out.Stderr)
	}
	if werr := h.waitFor(func() bool { alive, gerr := p.GroupAlive(); return gerr == nil && !alive }); werr != nil {
		_ = p.Signal(syscall.SIGKILL)
		h.t.Fatalf("a provider process outlived Terraform: %v", werr)
	}
	return out, err
}

// killTerraformAlone starts an apply, waits until the emulator has received
// one more call of method than before, and kills Terraform alone (not its
// provider plugins): the provider must not outlive it.
func (h *harness) killTerraformAlone(method string) {
	h.t.Helper()
	p := h.applyUntil(method)
	if err := p.KillTerraform(); err != nil {
		h.t.Fatal(err)
	}
	_, _ = h.waitExit(p)
}

// waitFor polls cond until it holds or waitLimit passes.
func (h *harness) waitFor(cond func() bool) error {
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not reached within %s", waitLimit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// finish checks the end state every scenario must reach: state matches the
// emulator with want objects, the configuration plans no change, and a
// destroy leaves nothing behind.
func (h *harness) finish(want int) {
	h.t.Helper()
	h.afterApply = h.expectClean("after the last apply", want)
	if out, err := h.ws.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		h.t.Fatalf("plan after the last apply is not empty: %v\n%s", err, out.Stdout)
	}
	if _, err := h.ws.Run(h.ctx(), "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		h.t.Fatalf("destroy: %v", err)
	}
	h.afterDestroy = h.expectClean("after destroy", 0)
	for _, check := range h.afterDestroyChecks {
		if err := check(); err != nil {
			h.t.Fatalf("after destroy: %v", err)
		}
	}
}

// outcome is the scenario's log line: the reconciliations after the last
// apply and after destroy, or, when the scenario stopped before them, the
// state and emulator as they were left.
func (h *harness) outcome(name string) string {
	result := "pass"
	if h.t.Failed() {
		result = "fail"
	}
	show := func(r *faultsuite.Report) string {
		if r == nil {
			return "not reached"
		}
		return r.String()
	}
	afterApply := show(h.afterApply)
	if h.afterApply == nil {
		if r, err := h.check(); err == nil {
			afterApply = "not reached; left: " + r.String()
		}
	}
	return fmt.Sprintf("faultsuite: scenario=%s result=%s applies=%d orphans_seen=%d after_apply=%q after_destroy=%q",
		name, result, h.applies, h.orphansSeen, afterApply, show(h.afterDestroy))
}

// scenario is one fault and the recovery expected from it.
type scenario struct {
	name string
	kind string
	// emulator options: operation durations.
	durations time.Duration
	run       func(h *harness)
	// want is the number of objects managed at the end.
	want int
}

func durations(d time.Duration) emulator.Durations {
	return emulator.Durations{
		TPUCreate: d, TPUDelete: d, TPUStart: d, TPUStop: d, TPUUpdate: d,
		PoolCreate: d, PoolDelete: d, PoolUpdate: d, PoolSetSize: d, PoolSetAutoscaling: d, PoolSetManagement: d,
		InstanceInsert: d, InstanceDelete: d, InstanceUpdate: d,
	}
}

// TestAccFaults runs every fault scenario against its own emulator, with the
// provider built once and Terraform as a separate process.
func TestAccFaults(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("the fault suite injects faults through the emulator")
	}
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	sum := &summary{}
	t.Cleanup(func() {
		t.Logf("faultsuite: summary scenarios=%d passed=%d orphans_found_after_interrupts=%d", sum.run, sum.passed, sum.orphans)
	})
	for _, sc := range slices.Concat(tpuScenarios(), queuedScenarios(), computeScenarios(), poolScenarios(), poolGuardScenarios(), poolServingScenarios(), poolStuckScenarios(), ironwoodScenarios(), tpuConsistencyScenarios(), tpuTransientScenarios()) {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			d := sc.durations
			if d == 0 {
				d = 300 * time.Millisecond
			}
			tg := acctest.New(t, func(s *emulator.Scenario) { s.Durations = durations(d) })
			tg.RequireEmulatorFor(t, "injects the faults of each scenario: failed, throttled, HTML and hanging API calls")
			h := &harness{
				t:      t,
				tg:     tg,
				ws:     &faultsuite.Workspace{Dir: t.TempDir(), Terraform: tf, Env: env},
				prefix: acctest.RandomName("fs"),
				kind:   sc.kind,
			}
			t.Cleanup(func() {
				sum.record(!t.Failed(), h.orphansSeen)
				t.Log(h.outcome(sc.name))
			})
			sc.run(h)
			h.finish(sc.want)
		})
	}
}

// --- accel_tpu_vm ---------------------------------------------------------

// tpuConfig is one accel_tpu_vm in the given zones, with extra lines.
func (h *harness) tpuConfig(zones []string, extra string) {
	h.write(h.vmBody("v5litepod-4", zones, extra))
}

// vmBody is the scenario's accel_tpu_vm of accelerator type accel in the
// given zones, with extra lines.
func (h *harness) vmBody(accel string, zones []string, extra string) string {
	q := make([]string, len(zones))
	for i, z := range zones {
		q[i] = fmt.Sprintf("%q", z)
	}
	return fmt.Sprintf(`resource "accel_tpu_vm" "test" {
  name             = %q
  accelerator_type = %q
  zones            = [%s]
%s}
`, h.prefix+"-vm", accel, strings.Join(q, ", "), extra)
}

// mustFault applies a fault control, failing the test on a bad call.
func mustFault(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// importInto runs terraform import of id into address, as the error after
// a killed apply tells the user to.
func (h *harness) importInto(address, id string) {
	h.t.Helper()
	if out, err := h.ws.Run(h.ctx(), "import", "-input=false", "-no-color", address, id); err != nil {
		h.t.Fatalf("import %s %s: %v\n%s", address, id, err, out.Stdout)
	}
}

// secondState is another working directory (another state) with the same
// configuration body: its apply must fail with wantErr and change nothing
// the first state manages.
func (h *harness) secondState(body string, wantErr *regexp.Regexp) {
	h.t.Helper()
	other := &faultsuite.Workspace{Dir: h.t.TempDir(), Terraform: h.ws.Terraform, Env: h.ws.Env}
	if err := other.WriteConfig(h.tg.Config(body)); err != nil {
		h.t.Fatal(err)
	}
	out, err := other.Run(h.ctx(), applyArgs...)
	if err == nil || !wantErr.MatchString(out.Stdout+out.Stderr) {
		h.t.Fatalf("apply in a second state: %v, want an error matching %q\nstdout:\n%s\nstderr:\n%s", err, wantErr, out.Stdout, out.Stderr)
	}
	st, err := other.State()
	if err != nil {
		h.t.Fatal(err)
	}
	if n := len(st.Resources()); n != 0 {
		h.t.Fatalf("the second state recorded %d resources, want none", n)
	}
}

var (
	nameTaken     = regexp.MustCompile(`(?s)Name Already in Use.*import it with the id`)
	poolExists    = regexp.MustCompile(`(?s)Node Pools? Already Exists?.*(import them|import it with the\s+identifier)`)
	anyError      = regexp.MustCompile(`Error`)
	timeoutError  = regexp.MustCompile(`(?i)(timeout|deadline|did not finish)`)
	capacityError = regexp.MustCompile(`(?i)capacity`)
)

func tpuScenarios() []scenario {
	const zoneA, zoneB = "us-central1-a", "us-south1-a"
	return []scenario{
		{name: "tpu_vm/503_burst", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUNodesCreate, 2, 503))
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUOperationsGet, 2, 503))
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUNodesGet, 2, 503))
			h.tpuConfig([]string{zoneA}, "")
			h.apply(nil)
		}},
		{name: "tpu_vm/429_burst", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUNodesCreate, 2, 429))
			mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodTPUOperationsGet, 2))
			mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodTPUNodesGet, 3))
			h.tpuConfig([]string{zoneA}, "")
			h.apply(nil)
		}},
		{name: "tpu_vm/failed_operation", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodTPUNodesCreate, 1, 13))
			h.tpuConfig([]string{zoneA}, "")
			h.apply(anyError)
			h.expectClean("after the failed create", 0)
			h.apply(nil)
		}},
		{name: "tpu_vm/stockout_first_zone", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			h.tg.Emulator.SetCapacity(zoneA, "v5litepod-4", 0)
			h.tpuConfig([]string{zoneA, zoneB}, "")
			h.apply(nil)
			for _, n := range h.tg.Emulator.Nodes() {
				if !strings.Contains(n.Name, "/locations/"+zoneB+"/") {
					h.t.Errorf("node %s is not in %s", n.Name, zoneB)
				}
			}
		}},
		{name: "tpu_vm/stockout_every_zone", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			h.tg.Emulator.SetCapacity(zoneA, "v5litepod-4", 0)
			h.tg.Emulator.SetCapacity(zoneB, "v5litepod-4", 0)
			h.tpuConfig([]string{zoneA, zoneB}, "")
			h.apply(capacityError)
			h.expectClean("after the stockout", 0)
			h.tg.Emulator.SetCapacity(zoneB, "v5litepod-4", -1)
			h.apply(nil)
		}},
		{name: "tpu_vm/operation_never_finishes", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true))
			h.tpuConfig([]string{zoneA}, "  timeouts {\n    create = \"3s\"\n  }\n")
			h.apply(timeoutError)
			h.expectClean("after the timeout", 1)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false))
			h.apply(nil)
		}},
		{name: "tpu_vm/sigint_mid_apply", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true))
			h.tpuConfig([]string{zoneA}, "")
			h.interruptedApply(emulator.MethodTPUNodesCreate, syscall.SIGINT)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false))
			h.apply(nil)
		}},
		{name: "tpu_vm/sigkill_mid_apply", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true))
			h.tpuConfig([]string{zoneA}, "")
			h.interruptedApply(emulator.MethodTPUNodesCreate, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false))
			// Nothing recorded which instance created the VM: the next apply
			// refuses it and names the import, which takes it over.
			h.apply(nameTaken)
			h.importInto("accel_tpu_vm.test", "projects/"+acctest.EmulatorProject+"/locations/"+zoneA+"/nodes/"+h.prefix+"-vm")
			h.apply(nil)
		}},
		{name: "tpu_vm/sigkill_then_zones_edit", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true))
			h.tpuConfig([]string{zoneA}, "")
			h.interruptedApply(emulator.MethodTPUNodesCreate, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false))
			// The zone is edited before the next apply: the VM is created in
			// the new zone, and the apply names the one the killed apply left.
			h.tpuConfig([]string{zoneB}, "")
			h.applies++
			out, err := h.ws.Run(h.ctx(), applyArgs...)
			left := "projects/" + acctest.EmulatorProject + "/locations/" + zoneA + "/nodes/" + h.prefix + "-vm"
			if err != nil || !strings.Contains(out.Stdout+out.Stderr, "TPU VM of the Same Name in Another Zone") ||
				!strings.Contains(strings.Join(strings.Fields(out.Stdout+out.Stderr), " "), left) {
				h.t.Fatalf("apply after the zones edit: %v, want a warning naming %s\n%s\n%s", err, left, out.Stdout, out.Stderr)
			}
			// As the warning says: delete it.
			mustFault(h.t, h.tg.Emulator.DeleteNode(left))
		}},
		{name: "tpu_vm/terraform_killed_alone", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			// Terraform alone is killed while the provider waits for a create
			// that never finishes: the provider must not outlive it.
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true))
			h.tpuConfig([]string{zoneA}, "")
			h.killTerraformAlone(emulator.MethodTPUNodesCreate)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false))
			h.apply(nameTaken)
			h.importInto("accel_tpu_vm.test", "projects/"+acctest.EmulatorProject+"/locations/"+zoneA+"/nodes/"+h.prefix+"-vm")
			h.apply(nil)
		}},
		{name: "tpu_vm/second_state", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			h.tpuConfig([]string{zoneA}, "")
			h.apply(nil)
			h.secondState(h.vmBody("v5litepod-4", []string{zoneA}, ""), nameTaken)
		}},
	}
}

// --- accel_fallback_nodepools --------------------------------------------

// poolsConfig writes one accel_fallback_nodepools with n tiers on the
// emulator's us-central1 cluster: a v6e tier, an L4 GPU tier, a v5e tier.
func (h *harness) poolsConfig(n int, extra string) { h.write(h.poolsBody(n, extra)) }

// poolsBody is the configuration poolsConfig writes.
func (h *harness) poolsBody(n int, extra string) string {
	tiers := []string{
		"accelerator_type = \"v6e-4\"\n    node_locations   = [\"us-central1-b\"]",
		"machine_type     = \"g2-standard-4\"\n    gpu_type         = \"nvidia-l4\"\n    node_locations   = [\"us-central1-a\"]",
		"accelerator_type = \"v5litepod-4\"\n    node_locations   = [\"us-central1-a\"]",
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  tiers {\n    name             = %q\n    %s\n  }\n", fmt.Sprintf("%s-%d", h.prefix, i), tiers[i])
	}
	return fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
%s%s}
`, h.tg.Cluster, h.prefix+"-class", b.String(), extra)
}

func poolScenarios() []scenario {
	return []scenario{
		{name: "node_pools/503_burst", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, 2, 503))
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodContainerOperationsGet, 2, 503))
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsList, 1, 503))
			h.poolsConfig(2, "")
			h.apply(nil)
		}},
		{name: "node_pools/429_burst", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, 2, 429))
			mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodContainerOperationsGet, 2))
			h.poolsConfig(2, "")
			h.apply(nil)
		}},
		{name: "node_pools/failed_operation", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodNodePoolsCreate, 1, 13))
			h.poolsConfig(2, "")
			h.apply(anyError)
			h.expectClean("after the failed create", h.poolCount())
			h.apply(nil)
		}},
		{name: "node_pools/stockout", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", 0)
			h.poolsConfig(2, "  on_stockout = \"fail\"\n")
			h.apply(capacityError)
			h.expectClean("after the stockout", h.poolCount())
			h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", -1)
			h.apply(nil)
		}},
		{name: "node_pools/cluster_busy", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			if _, err := h.tg.Emulator.HoldCluster(acctest.EmulatorProject, "us-central1", "serving", 2*time.Second); err != nil {
				h.t.Fatal(err)
			}
			h.poolsConfig(2, "")
			h.apply(nil)
		}},
		{name: "node_pools/serialized_creates", kind: faultsuite.TypeNodePools, want: 3, run: func(h *harness) {
			h.tg.Emulator.SetSerializePoolCreates(true)
			h.poolsConfig(3, "")
			h.apply(nil)
		}},
		{name: "node_pools/operation_never_finishes", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(2, "  timeouts {\n    create = \"3s\"\n  }\n")
			h.apply(timeoutError)
			h.expectClean("after the timeout", 2)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			h.apply(nil)
		}},
		{name: "node_pools/sigint_mid_apply", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(2, "")
			h.interruptedApply(emulator.MethodNodePoolsCreate, syscall.SIGINT)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			// Interrupted, not failed: the resource is not tainted, and the
			// next apply deletes no pool.
			h.untainted("after the interrupt")
			before := h.tg.Emulator.Counters()[emulator.MethodNodePoolsDelete]
			h.apply(nil)
			if n := h.tg.Emulator.Counters()[emulator.MethodNodePoolsDelete] - before; n != 0 {
				h.t.Fatalf("the apply after the interrupt deleted %d pools, want none", n)
			}
		}},
		{name: "node_pools/sigkill_mid_apply", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(2, "")
			h.interruptedApply(emulator.MethodNodePoolsCreate, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			h.recoverFirstApply()
		}},
		{name: "node_pools/sigkill_then_rename", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			h.poolsConfig(1, "")
			h.apply(nil)
			// An apply adding a tier is killed after GKE accepted the create;
			// then the configuration renames the tier.
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(2, "")
			h.interruptedApply(emulator.MethodNodePoolsCreate, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			h.write(strings.Replace(h.poolsBody(2, ""), fmt.Sprintf("%q", h.prefix+"-1"), fmt.Sprintf("%q", h.prefix+"-1r"), 1))
			// The refresh finds the killed apply's pool by its owner id; the
			// plan deletes it, as no tier names it any more.
			out, err := h.ws.Run(h.ctx(), "plan", "-input=false", "-no-color")
			if err != nil || !strings.Contains(out.Stdout+out.Stderr, "Node Pool Left by an Interrupted Apply Found") {
				h.t.Fatalf("plan after the rename: %v, want the left pool found\n%s\n%s", err, out.Stdout, out.Stderr)
			}
			h.apply(nil)
		}},
		{name: "node_pools/timeout_while_list_503", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			// Every pool list answers 503 and the creates never finish: the
			// apply still returns at its timeout (plus the bounded final
			// read), with an error that says what GKE answered.
			const forever = 1 << 30
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsList, forever, 503))
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(2, "  timeouts {\n    create = \"2s\"\n  }\n")
			h.apply(regexp.MustCompile(`(?s)Timeout Reading Node Pools.*503`))
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsList, 0, 503))
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			h.poolsConfig(2, "")
			h.apply(nil)
		}},
		{name: "node_pools/html_endpoint", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			// A proxy's sign-in page in place of the API: the refresh fails
			// at once, naming the endpoint setting, and changes nothing.
			h.poolsConfig(2, "")
			h.apply(nil)
			mustFault(h.t, h.tg.Emulator.AnswerHTML(emulator.MethodNodePoolsList, 1<<30, 502))
			out, err := h.ws.Run(h.ctx(), "plan", "-input=false", "-no-color")
			text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " ")
			if err == nil || !strings.Contains(text, "container_endpoint (or ACCEL_CONTAINER_ENDPOINT)") {
				h.t.Fatalf("plan against an HTML endpoint: %v, want an error naming container_endpoint\n%s", err, text)
			}
			mustFault(h.t, h.tg.Emulator.AnswerHTML(emulator.MethodNodePoolsList, 0, 502))
		}},
		{name: "node_pools/second_state", kind: faultsuite.TypeNodePools, want: 2, run: func(h *harness) {
			h.poolsConfig(2, "")
			h.apply(nil)
			h.secondState(h.poolsBody(2, ""), regexp.MustCompile(`(?s)Node Pool Already Exists.*owner id of another resource instance`))
		}},
		{name: "node_pools/foreign_pool", kind: faultsuite.TypeNodePools, want: 1, run: func(h *harness) {
			// A pool this provider did not create (like a cluster's
			// default-pool), named by a tier.
			foreign := "default-" + h.prefix
			h.foreignPool(foreign)
			body := h.poolsBody(1, "")
			h.write(withGPUTier(body, foreign))
			h.apply(poolExists)
			h.write(body)
			h.apply(nil)
		}},
	}
}

// recoverFirstApply recovers from a first apply killed after GKE accepted
// some creates: it recorded nothing, so the next apply refuses the pools and
// names the import; the pools that exist are imported, and the apply after
// that creates the rest.
func (h *harness) recoverFirstApply() {
	h.t.Helper()
	h.apply(poolExists)
	var existing []string
	for _, p := range h.tg.Emulator.NodePools() {
		if short := p.Name[strings.LastIndex(p.Name, "/")+1:]; strings.HasPrefix(short, h.prefix) {
			existing = append(existing, short)
		}
	}
	slices.Sort(existing)
	h.importInto("accel_fallback_nodepools.test", h.tg.Cluster+"/nodePools/"+strings.Join(existing, ","))
	h.apply(nil)
}

// poolCount is the number of the scenario's pools the emulator holds.
func (h *harness) poolCount() int {
	n := 0
	for _, p := range h.tg.Emulator.NodePools() {
		if strings.Contains(p.Name, "/nodePools/"+h.prefix) {
			n++
		}
	}
	return n
}

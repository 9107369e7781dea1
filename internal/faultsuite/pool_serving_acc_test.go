// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// poolServingScenarios are the accel_fallback_nodepools scenarios of the
// rule that a serving pool is never lost: an interrupt, or the apply after
// it, never deletes a pool whose replacement does not run, and never makes
// Terraform report a bug in the provider.
func poolServingScenarios() []scenario {
	return []scenario{
		{name: "node_pools/sigint_mid_replaces", kind: faultsuite.TypeNodePools, want: 1, run: sigintMidReplaces},
		{name: "node_pools/sigint_mid_delete", kind: faultsuite.TypeNodePools, want: 1, run: sigintMidDelete},
		{name: "node_pools/quota_filled_decision_tree", kind: faultsuite.TypeNodePools, want: 2, run: quotaFilledDecisionTree},
		{name: "node_pools/stockout_held", kind: faultsuite.TypeNodePools, want: 2, run: stockoutHeld},
	}
}

// stockoutHeld: a tier GKE left in ERROR for lack of capacity (on_stockout
// = "continue"). With the provider's stockout_retry = "hold", as a nightly
// drift check would run, the plan is empty and says which pool is held; a
// real change still shows, and its apply leaves the held pool alone. With
// the default, the plan re-creates the pool, and once capacity is back the
// apply repairs it.
func stockoutHeld(h *harness) {
	h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", 0)
	h.poolsConfig(2, "")
	h.apply(nil) // continue: the stockout is a warning
	tpuPool := h.prefix + "-0"
	if h.poolStatus(tpuPool) != "ERROR" {
		h.t.Fatalf("the stocked-out pool is %q, want ERROR", h.poolStatus(tpuPool))
	}
	hold := *h.ws
	hold.Env = append(slices.Clone(h.ws.Env), "ACCEL_STOCKOUT_RETRY=hold")
	out, err := hold.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " "); err != nil || !strings.Contains(text, "Node Pool Out of Capacity Held: "+tpuPool) {
		h.t.Fatalf("plan holding the stockout: %v, want an empty plan that names the held pool\n%s", err, text)
	}
	// A real change (the L4 tier's zone list grows) still shows, and its
	// apply does not touch the held pool.
	changed := strings.Replace(h.poolsBody(2, ""), `node_locations   = ["us-central1-a"]`, `node_locations   = ["us-central1-a"]
    node_count       = 2`, 1)
	h.write(changed)
	deletes := h.calls(emulator.MethodNodePoolsDelete)
	if _, err := hold.Run(h.ctx(), "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		h.t.Fatalf("apply of a change while holding the stockout: %v", err)
	}
	if n := h.calls(emulator.MethodNodePoolsDelete) - deletes; n != 0 || h.poolStatus(tpuPool) != "ERROR" {
		h.t.Fatalf("the apply holding the stockout made %d delete calls, pool %q; want none and ERROR", n, h.poolStatus(tpuPool))
	}
	// The default retries: the plan re-creates the pool.
	out, err = h.ws.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if err == nil || !strings.Contains(strings.Join(strings.Fields(out.Stdout+out.Stderr), " "), "Node Pool Will Be Deleted: "+tpuPool) {
		h.t.Fatalf("plan with the default stockout_retry: %v, want the pool in ERROR re-created\n%s", err, out.Stdout)
	}
	h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", -1)
	h.apply(nil)
	if h.poolStatus(tpuPool) != "RUNNING" {
		h.t.Fatalf("after capacity came back, the pool is %q, want RUNNING", h.poolStatus(tpuPool))
	}
}

// servingBody is one accel_fallback_nodepools with one L4 tier named tier
// of machine type machine, one node, replacing the tier replaces ("" for
// none).
func (h *harness) servingBody(tier, machine, replaces string) string {
	more := ""
	if replaces != "" {
		more = fmt.Sprintf("    replaces       = %q\n", replaces)
	}
	return fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
  tiers {
    name           = %q
    machine_type   = %q
    node_locations = ["us-central1-a"]
    node_count     = 1
%s  }
}
`, h.tg.Cluster, h.prefix+"-class", tier, machine, more)
}

// poolStatus is the status of the scenario's pool short, "" when it does
// not exist.
func (h *harness) poolStatus(short string) string {
	p, ok := h.poolInfo(h.tg.Cluster + "/nodePools/" + short)
	if !ok {
		return ""
	}
	return p.NodePool.Status
}

// inconsistent is Terraform's report of a bug in the provider: a state
// that is not what the plan said, from an apply that did not fail.
var inconsistent = regexp.MustCompile(`Provider produced inconsistent result`)

// sigintMidReplaces: a tier renamed with replaces, whose new pool is
// interrupted while PROVISIONING and then stocks out. The apply after the
// interrupt must not delete the old pool: the replacement was recorded by
// the interrupted apply, and its pool is not RUNNING when the delete would
// run (the gate reads it then, waiting while it is still being created). Once
// capacity is back, the next apply re-creates the replacement and deletes
// the old pool after it runs.
func sigintMidReplaces(h *harness) {
	a, b := h.prefix+"-a", h.prefix+"-b"
	h.write(h.servingBody(a, "g2-standard-4", ""))
	h.apply(nil)
	h.tg.Emulator.SetCapacity("us-central1-a", "g2-standard-16", 0)
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
	h.write(h.servingBody(b, "g2-standard-16", a))
	deletes := h.calls(emulator.MethodNodePoolsDelete)
	h.interruptedApply(emulator.MethodNodePoolsCreate, syscall.SIGINT)
	if got := h.poolStatus(b); got != "PROVISIONING" {
		h.t.Fatalf("after the interrupt, the replacement's pool is %q, want PROVISIONING", got)
	}
	// The replacement's create stays held until the next apply reads its
	// pool, then ends in a stockout.
	mustFault(h.t, h.tg.Emulator.HangOperationsUntilCalls(emulator.MethodNodePoolsCreate, emulator.MethodNodePoolsGet, 1))
	out := h.applyWith(regexp.MustCompile(`Node Pool Kept Until Its Replacement Runs`))
	if inconsistent.MatchString(out.Stdout + out.Stderr) {
		h.t.Fatalf("the apply after the interrupt reported a provider bug:\n%s", out.Stdout+out.Stderr)
	}
	if n := h.calls(emulator.MethodNodePoolsDelete) - deletes; n != 0 || h.poolStatus(a) != "RUNNING" {
		h.t.Fatalf("after the stocked-out replacement: %d delete calls, old pool %q; want none and RUNNING", n, h.poolStatus(a))
	}
	if got := h.poolStatus(b); got != "ERROR" {
		h.t.Fatalf("the replacement's pool is %q, want ERROR (stocked out)", got)
	}
	h.tg.Emulator.SetCapacity("us-central1-a", "g2-standard-16", -1)
	h.apply(nil)
	if h.poolStatus(a) != "" || h.poolStatus(b) != "RUNNING" {
		h.t.Fatalf("after capacity came back: old pool %q, new %q; want it deleted and RUNNING", h.poolStatus(a), h.poolStatus(b))
	}
}

// sigintMidDelete: Ctrl-C while the pool of a removed tier is being deleted
// ends the apply with an error that says so, never with Terraform's report
// of a bug in the provider; the next apply finishes the delete.
func sigintMidDelete(h *harness) {
	a, b := h.prefix+"-a", h.prefix+"-b"
	two := strings.TrimSuffix(h.servingBody(a, "g2-standard-4", ""), "}\n") +
		fmt.Sprintf("  tiers {\n    name           = %q\n    machine_type   = \"g2-standard-8\"\n"+
			"    node_locations = [\"us-central1-a\"]\n    node_count     = 1\n  }\n}\n", b)
	h.write(two)
	h.apply(nil)
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsDelete, true))
	h.write(h.servingBody(a, "g2-standard-4", ""))
	p := h.applyUntil(emulator.MethodNodePoolsDelete)
	if err := p.Signal(syscall.SIGINT); err != nil {
		h.t.Fatal(err)
	}
	out, err := h.waitExit(p)
	text := out.Stdout + out.Stderr
	switch {
	case err == nil:
		h.t.Fatalf("the interrupted apply succeeded\n%s", text)
	case inconsistent.MatchString(text):
		h.t.Fatalf("the interrupted delete reported a provider bug:\n%s", text)
	case !strings.Contains(strings.Join(strings.Fields(text), " "), "Node Pool Deletion Interrupted"):
		h.t.Fatalf("the interrupted apply does not say the delete was interrupted:\n%s", text)
	}
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsDelete, false))
	h.untainted("after the interrupted delete")
	h.apply(nil)
	if h.poolStatus(b) != "" || h.poolStatus(a) != "RUNNING" {
		h.t.Fatalf("after the next apply: removed pool %q, kept pool %q; want it gone and RUNNING", h.poolStatus(b), h.poolStatus(a))
	}
}

// decisionTreeBody is the documented pattern: accel_hardware_path's tiers
// fed to accel_fallback_nodepools with a dynamic "tiers" block, a v5e TPU
// tier first and an L4 tier as its fallback, one node each at least.
func (h *harness) decisionTreeBody() string {
	return fmt.Sprintf(`data "accel_hardware_path" "serving" {
  start         = "tpu"
  zones         = ["us-central1-a"]
  runs_on_other = true
  tpu { accelerator_type = "v5litepod-4" }
  gpu { machine_type = "g2-standard-8" }
}

resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
  dynamic "tiers" {
    for_each = data.accel_hardware_path.serving.tiers
    content {
      name             = "%s-${tiers.value.name}"
      accelerator_type = tiers.value.accelerator_type
      machine_type     = tiers.value.machine_type
      gpu_type         = tiers.value.gpu_type
      gpu_count        = tiers.value.gpu_count
      node_locations   = tiers.value.node_locations
      min_node_count   = 1
      max_node_count   = 2
    }
  }
}
`, h.tg.Cluster, h.prefix+"-class", h.prefix)
}

// quotaFilledDecisionTree: the TPU pool created from the decision tree's
// tiers fills its own quota. The walk's decision moves to the GPU, but its
// tiers stay as they were, so the plan keeps the TPU pool (it is empty), and
// an apply deletes nothing.
func quotaFilledDecisionTree(h *harness) {
	quota := func(usage float64) {
		h.tg.Emulator.SetQuota(emulator.Quota{Region: "us-central1", Metric: "TPU_LITE_PODSLICE_V5", Limit: 8, Usage: usage})
		h.tg.Emulator.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8})
	}
	quota(0)
	h.write(h.decisionTreeBody())
	h.apply(nil)
	tpuPool := h.prefix + "-tpu-v5litepod-4"
	if h.poolStatus(tpuPool) != "RUNNING" {
		h.t.Fatalf("the TPU pool %s is %q, want RUNNING", tpuPool, h.poolStatus(tpuPool))
	}
	quota(8) // the pool's own nodes use the quota up
	out, err := h.ws.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if err != nil {
		h.t.Fatalf("the plan after the quota filled up is not empty: %v\n%s", err, out.Stdout)
	}
	deletes := h.calls(emulator.MethodNodePoolsDelete)
	h.apply(nil)
	if n := h.calls(emulator.MethodNodePoolsDelete) - deletes; n != 0 || h.poolStatus(tpuPool) != "RUNNING" {
		h.t.Fatalf("the apply after the quota filled up made %d delete calls, TPU pool %q; want none and RUNNING", n, h.poolStatus(tpuPool))
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// poolStuckScenarios are the accel_fallback_nodepools scenarios after which
// a state could be left that no later command can refresh, plan or destroy:
// each must end with a state that plans, applies and destroys.
func poolStuckScenarios() []scenario {
	return []scenario{
		{name: "node_pools/saved_plan_foreign_swap", kind: faultsuite.TypeNodePools, want: 1, run: savedPlanForeignSwap},
		{name: "node_pools/destroy_beside_foreign_pool", kind: faultsuite.TypeNodePools, want: 1, run: destroyBesideForeignPool},
		{name: "node_pools/sigint_first_create_with_failing_reads", kind: faultsuite.TypeNodePools, want: 2, run: sigintFirstCreateWithFailingReads},
		{name: "node_pools/first_apply_stockout", kind: faultsuite.TypeNodePools, want: 2, run: firstApplyStockout},
	}
}

// savedPlanForeignSwap: a plan that changes the resource's only pool is
// saved; then that pool is deleted outside Terraform and someone else
// creates one of the same name; the saved plan is applied. The apply
// refuses the foreign pool, and what it leaves in state can be refreshed:
// the next plan creates the tier again (and the create refuses the name).
func savedPlanForeignSwap(h *harness) {
	body := h.poolsBody(1, "")
	h.write(body)
	h.apply(nil)
	h.write(strings.Replace(body, "node_locations   = [\"us-central1-b\"]", "node_locations   = [\"us-central1-b\"]\n    labels           = { team = \"serving\" }", 1))
	h.cli("plan", "-input=false", "-no-color", "-out=tfplan")
	own := h.tg.Cluster + "/nodePools/" + h.prefix + "-0"
	mustFault(h.t, h.tg.Emulator.DeleteNodePool(own))
	h.foreignPool(h.prefix + "-0")
	h.callsNothing(mutatingPoolMethods, "apply of the saved plan after a foreign pool took the place of the resource's own", func() {
		h.applyWith(anyError, "tfplan")
	})
	h.expectForeignUntouched("after the apply of the saved plan")
	// Every later command works: the plan refreshes the state (the foreign
	// pool is not the resource's) and the create is refused by name.
	out, err := h.ws.Run(h.ctx(), "plan", "-input=false", "-no-color")
	text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " ")
	if strings.Contains(text, "Missing Resource Identity") || !strings.Contains(text, "Node Pool Already Exists") {
		h.t.Fatalf("plan after the refused saved plan: %v, want the taken name reported and no identity error:\n%s", err, text)
	}
	// The tier is renamed: the resource is created again beside the
	// foreign pool, which the destroy at the end leaves.
	h.write(strings.Replace(body, fmt.Sprintf("%q", h.prefix+"-0"), fmt.Sprintf("%q", h.prefix+"-0r"), 1))
	h.apply(nil)
}

// destroyBesideForeignPool: a tier added to a created resource names a pool
// the resource did not create (a cluster's default pool); the apply refuses
// it. terraform destroy, with that tier still in the configuration, deletes
// the resource's own pool and leaves the foreign one.
func destroyBesideForeignPool(h *harness) {
	foreign := "default-" + h.prefix
	h.foreignPool(foreign)
	body := h.poolsBody(1, "")
	h.write(body)
	h.apply(nil)
	h.write(withGPUTier(body, foreign))
	h.apply(poolExists)
	// A resource not created yet whose tier names the foreign pool too: its
	// plan warns (an error would stop the destroy of the other).
	h.write(withGPUTier(body, foreign) + h.gpuPoolsResource("late", h.prefix+"-late", foreign))
	deletes := h.calls(emulator.MethodNodePoolsDelete)
	if out, err := h.ws.Run(h.ctx(), "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		h.t.Fatalf("destroy while a tier names a foreign pool: %v\n%s", err, out.Stdout+out.Stderr)
	}
	if d := h.calls(emulator.MethodNodePoolsDelete) - deletes; d != 1 {
		h.t.Fatalf("the destroy made %d delete calls, want 1 (the resource's own pool)", d)
	}
	h.expectForeignUntouched("after the destroy")
	h.expectClean("after the destroy", 0)
	h.write(body)
	h.apply(nil)
}

// sigintFirstCreateWithFailingReads: Ctrl-C during the resource's first
// create while every node pool list answers 503 and operations.get 429. The
// read that records what exists fails, which after an interrupt is a
// warning: the resource is recorded, not tainted, and the next apply
// deletes and re-creates nothing.
func sigintFirstCreateWithFailingReads(h *harness) {
	const forever = 1 << 30
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
	h.poolsConfig(2, "")
	h.interruptedApplyAt(emulator.MethodNodePoolsCreate, syscall.SIGINT, func() {
		mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsList, forever, 503))
		mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodContainerOperationsGet, 1))
	})
	mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsList, 0, 503))
	mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodContainerOperationsGet, 0))
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
	h.orphansSeen += len(h.reconcile().Orphans)
	h.untainted("after the interrupt")
	deletes := h.calls(emulator.MethodNodePoolsDelete)
	h.apply(nil)
	if d := h.calls(emulator.MethodNodePoolsDelete) - deletes; d != 0 {
		h.t.Fatalf("the apply after the interrupt made %d delete calls, want none", d)
	}
}

// firstApplyStockout: the resource's first apply, with the default
// on_stockout, while one tier has no capacity. The apply succeeds with a
// warning and taints nothing; once capacity is back, the next apply
// re-creates the pool GKE left in ERROR alone, and the healthy pool is
// neither deleted nor re-created.
func firstApplyStockout(h *harness) {
	h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", 0)
	h.poolsConfig(2, "")
	out := h.applyWith(nil)
	if text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " "); !strings.Contains(text, "Node Pool Out of Capacity") ||
		!strings.Contains(text, "the ComputeClass places pods on the tiers after it") {
		h.t.Fatalf("the first apply does not warn of the stockout and the fallback:\n%s", text)
	}
	h.untainted("after the stockout")
	plan, err := h.ws.Run(h.ctx(), "plan", "-input=false", "-no-color")
	if text := strings.Join(strings.Fields(plan.Stdout+plan.Stderr), " "); err != nil || strings.Contains(text, "another resource instance") ||
		strings.Contains(text, "must be replaced") {
		h.t.Fatalf("plan after the stockout: %v, want an update of the pool in ERROR, nothing about another instance:\n%s", err, text)
	}
	h.tg.Emulator.SetCapacity("us-central1-b", "ct6e-standard-4t", -1)
	deletes, creates := h.calls(emulator.MethodNodePoolsDelete), h.calls(emulator.MethodNodePoolsCreate)
	h.apply(nil)
	if d, c := h.calls(emulator.MethodNodePoolsDelete)-deletes, h.calls(emulator.MethodNodePoolsCreate)-creates; d != 1 || c != 1 {
		h.t.Fatalf("the apply after the stockout made %d delete and %d create calls, want 1 and 1 (the pool in ERROR only)", d, c)
	}
}

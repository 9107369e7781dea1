// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// ironwoodBody is one accel_fallback_nodepools with a multi-host TPU7x
// tier (tpu7x-16: 2 VMs, placed by a workload policy the apply creates)
// on the emulator's GKE 1.34 cluster.
func (h *harness) ironwoodBody() string {
	return fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
  tiers {
    name             = %q
    accelerator_type = "tpu7x-16"
    node_locations   = ["us-central1-c"]
  }
}
`, "projects/"+acctest.EmulatorProject+"/locations/us-central1/clusters/ironwood", h.prefix+"-class", h.prefix+"-0")
}

// policiesOf are the names of the scenario's workload policies.
func (h *harness) policiesOf() []string {
	var out []string
	for _, p := range h.tg.Emulator.ResourcePolicies() {
		if strings.HasPrefix(p.Name, h.prefix) {
			out = append(out, p.Name)
		}
	}
	return out
}

// noPolicyLeft is an after-destroy check: the destroy deleted the
// scenario's workload policies with their pools.
func (h *harness) noPolicyLeft() error {
	if left := h.policiesOf(); len(left) > 0 {
		return fmt.Errorf("workload policies left: %v", left)
	}
	return nil
}

// ironwoodScenarios are the faults of a multi-host TPU7x tier, whose apply
// makes two creates: the workload policy, then the pool.
func ironwoodScenarios() []scenario {
	return []scenario{
		{name: "node_pools/ironwood_sigkill_between_creates", kind: faultsuite.TypeNodePools, want: 1, run: func(h *harness) {
			h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
			// The policy is created; every pool create answers 503 and is
			// retried; Terraform is killed during those retries.
			const forever = 1 << 30
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, forever, 503))
			h.write(h.ironwoodBody())
			h.interruptedApply(emulator.MethodNodePoolsCreate, syscall.SIGKILL)
			if got := h.policiesOf(); len(got) != 1 {
				h.t.Fatalf("after the kill: workload policies %v, want the one created before the pool", got)
			}
			h.expectClean("after the kill (no pool yet)", 0)
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, 0, 503))
			// The next apply uses the policy the killed one created.
			h.apply(nil)
			if got := h.policiesOf(); len(got) != 1 {
				h.t.Fatalf("after the re-apply: workload policies %v, want one", got)
			}
		}},
		{name: "node_pools/ironwood_stockout", kind: faultsuite.TypeNodePools, want: 1, run: func(h *harness) {
			h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
			// A stockout leaves the pool in ERROR, placed by its policy:
			// both are recorded and kept; once capacity is back, the next
			// apply re-creates the pool with the same policy.
			h.tg.Emulator.SetCapacity("us-central1-c", "tpu7x-standard-4t", 0)
			h.write(strings.Replace(h.ironwoodBody(), "  tiers {", "  on_stockout = \"fail\"\n  tiers {", 1))
			h.apply(capacityError)
			h.expectClean("after the stockout", h.poolCount())
			if got := h.policiesOf(); len(got) != 1 {
				h.t.Fatalf("after the stockout: workload policies %v, want the pool's", got)
			}
			h.tg.Emulator.SetCapacity("us-central1-c", "tpu7x-standard-4t", -1)
			h.apply(nil)
			if got := h.policiesOf(); len(got) != 1 {
				h.t.Fatalf("after the re-created pool: workload policies %v, want one", got)
			}
		}},
		{name: "node_pools/ironwood_pool_refused", kind: faultsuite.TypeNodePools, want: 1, run: func(h *harness) {
			h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
			// GKE refuses the pool (409 from another create of its name
			// would be a foreign pool; a quota refusal is 403): the policy
			// the apply created for it is deleted again.
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, 1, 403))
			h.write(h.ironwoodBody())
			h.apply(anyError)
			if left := h.policiesOf(); len(left) != 0 {
				h.t.Fatalf("a refused pool left its workload policy: %v", left)
			}
			h.expectClean("after the refused create", 0)
			h.apply(nil)
		}},
		{name: "node_pools/ironwood_topology_change", kind: faultsuite.TypeNodePools, want: 1, run: ironwoodTopologyChange},
		{name: "node_pools/ironwood_pool_deleted_outside", kind: faultsuite.TypeNodePools, want: 1, run: ironwoodPoolDeletedOutside},
		{name: "node_pools/ironwood_policy_in_use", kind: faultsuite.TypeNodePools, want: 1, run: ironwoodPolicyInUse},
	}
}

// ironwoodPolicyInUse: a tier whose workload policy another resource's
// pool also uses (naming it in workload_policy) is removed. Its pool is
// deleted, its policy cannot be: the apply says that, and not that the pool
// could not be deleted, and keeps the tier in the state, so the policy
// still has an owner; once the other pool is gone, the next apply deletes
// it.
func ironwoodPolicyInUse(h *harness) {
	h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
	cluster := "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/ironwood"
	gpu := fmt.Sprintf("  tiers {\n    name           = %q\n    machine_type   = \"g2-standard-4\"\n    node_locations = [\"us-central1-a\"]\n  }\n", h.prefix+"-l4")
	owner := strings.TrimSuffix(h.ironwoodBody(), "}\n") + gpu + "}\n"
	ownerAfter := strings.Replace(owner, owner[strings.Index(owner, "  tiers {"):strings.Index(owner, gpu)], "", 1)
	user := fmt.Sprintf(`
resource "accel_fallback_nodepools" "user" {
  cluster       = %q
  compute_class = %q
  tiers {
    name             = %q
    accelerator_type = "tpu7x-16"
    node_locations   = ["us-central1-c"]
    workload_policy  = %q
  }
}
`, cluster, h.prefix+"-user", h.prefix+"-u", h.prefix+"-0")
	h.write(owner)
	h.apply(nil)
	h.write(owner + user)
	h.apply(nil)
	h.write(ownerAfter + user)
	out := h.applyWith(regexp.MustCompile(`Error Deleting Workload Policy`))
	text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " ")
	if strings.Contains(text, "Could not delete node pool") || !strings.Contains(text, "another node pool still uses it") {
		h.t.Fatalf("the apply says the wrong thing failed:\n%s", text)
	}
	if h.poolStatus(h.prefix+"-0") != "" || len(h.policiesOf()) != 1 {
		h.t.Fatalf("after the refused policy delete: pool %q, policies %v; want the pool gone and the policy kept", h.poolStatus(h.prefix+"-0"), h.policiesOf())
	}
	h.cli("destroy", "-auto-approve", "-input=false", "-no-color", "-target=accel_fallback_nodepools.user")
	h.write(ownerAfter)
	h.apply(nil)
	if left := h.policiesOf(); len(left) != 0 {
		h.t.Fatalf("once nothing used it, the workload policy was not deleted: %v", left)
	}
}

// ironwoodTopologyChange: the workload policy the provider created follows
// its tier. A new accelerator type re-creates the pool in place with a
// policy for the new topology; a rename with replaces creates the new pool
// and its policy before the old pool and policy are deleted. Neither needs
// validation = "warn", and nothing is re-created by the plan after.
func ironwoodTopologyChange(h *harness) {
	h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
	body := h.ironwoodBody()
	topology := func(name string) string {
		for _, p := range h.tg.Emulator.ResourcePolicies() {
			if p.Name == name && p.WorkloadPolicy != nil {
				return p.WorkloadPolicy.AcceleratorTopology
			}
		}
		return ""
	}
	h.write(body)
	h.apply(nil)
	small := topology(h.prefix + "-0")
	h.write(strings.Replace(body, `"tpu7x-16"`, `"tpu7x-32"`, 1))
	h.apply(nil)
	if got, large := h.policiesOf(), topology(h.prefix+"-0"); len(got) != 1 || small == "" || large == "" || large == small {
		h.t.Fatalf("after the in-place change: workload policies %v (topology %q, was %q), want one for the new topology", got, large, small)
	}
	out, err := h.ws.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if err != nil {
		h.t.Fatalf("the plan after the topology change is not empty: %v\n%s", err, out.Stdout)
	}
	// A rename with replaces, back to tpu7x-16: no moment without a pool.
	renamed := strings.Replace(body, fmt.Sprintf("name             = %q", h.prefix+"-0"),
		fmt.Sprintf("name             = %q\n    replaces         = %q", h.prefix+"-1", h.prefix+"-0"), 1)
	h.write(renamed)
	h.apply(nil)
	if got := h.policiesOf(); len(got) != 1 || topology(h.prefix+"-1") != small {
		h.t.Fatalf("after the replacement: workload policies %v, want only the new pool's, for %s", got, small)
	}
}

// ironwoodPoolDeletedOutside: the only pool of a TPU7x resource is deleted
// outside Terraform. The refresh keeps the resource, whose workload policy
// still exists (else nothing would delete it): a destroy then deletes the
// policy, and an apply creates the pool again with it.
func ironwoodPoolDeletedOutside(h *harness) {
	h.afterDestroyChecks = append(h.afterDestroyChecks, h.noPolicyLeft)
	h.write(h.ironwoodBody())
	cluster := "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/ironwood"
	deleteOutside := func() {
		if err := h.tg.Emulator.DeleteNodePool(cluster + "/nodePools/" + h.prefix + "-0"); err != nil {
			h.t.Fatal(err)
		}
	}
	h.apply(nil)
	deleteOutside()
	h.cli("destroy", "-auto-approve", "-input=false", "-no-color")
	if err := h.noPolicyLeft(); err != nil {
		h.t.Fatalf("destroy after the pool was deleted outside Terraform: %v", err)
	}
	h.apply(nil)
	deleteOutside()
	h.apply(nil)
	if got := h.policiesOf(); len(got) != 1 {
		h.t.Fatalf("after the pool was created again: workload policies %v, want one", got)
	}
}

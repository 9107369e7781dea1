// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"strings"
	"syscall"

	"github.com/google/go-cmp/cmp"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// computeZone is the zone of the Compute Engine scenarios: it offers
// tpu7x-standard-4t, the machine type of tpu7x-8.
const computeZone = "us-central1-c"

// computeBody is one TPU7x accel_tpu_vm in computeZone, created through
// Compute Engine (the default for tpu7x-8), with extra lines.
func (h *harness) computeBody(extra string) string {
	return h.vmBody("tpu7x-8", []string{computeZone}, extra)
}

// instanceID is the id of the scenario's instance.
func (h *harness) instanceID() string {
	return gcp.InstanceID(acctest.EmulatorProject, computeZone, h.prefix+"-vm")
}

// computeScenarios are the faults of TPU VMs created through Compute
// Engine. The interruptions hold the insert's operation (HangOperations)
// until the fault is done.
func computeScenarios() []scenario {
	const kind = faultsuite.TypeTPUVMCompute
	const insert = emulator.MethodComputeInstancesInsert
	return []scenario{
		{name: "tpu_vm_compute/sigkill_while_inserting", kind: kind, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, true))
			h.write(h.computeBody(""))
			h.interruptedApply(insert, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, false))
			// Nothing recorded the instance: the next apply refuses it
			// without a second insert and names the instance id to import.
			out := h.applyWith(nameTaken)
			if text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " "); !strings.Contains(text, h.instanceID()) {
				h.t.Fatalf("the refusal does not name the instance id %s:\n%s", h.instanceID(), text)
			}
			h.expectInserts(1)
			h.importInto("accel_tpu_vm.test", h.instanceID())
			h.expectClean("after the import", 1)
			h.apply(nil)
			h.expectInserts(1)
		}},
		{name: "tpu_vm_compute/sigint_while_inserting", kind: kind, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, true))
			h.write(h.computeBody(""))
			h.interruptedApply(insert, syscall.SIGINT)
			h.orphansSeen += len(h.reconcile().Orphans)
			h.expectClean("after the interrupt", 1)
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, false))
			h.apply(nil)
			h.expectInserts(1)
		}},
		{name: "tpu_vm_compute/503_get_after_insert", kind: kind, want: 1, run: func(h *harness) {
			// The insert is accepted and its operation never finishes; from
			// then on every read of the instance answers 503 (the wait
			// reads the operation, not the instance, so no read is missed).
			// The apply ends at its create timeout with the instance
			// recorded, marked tainted.
			const forever = 1 << 30
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, true))
			h.write(h.computeBody("  timeouts {\n    create = \"3s\"\n  }\n"))
			p := h.applyUntil(insert)
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodComputeInstancesGet, forever, 503))
			out, err := h.waitExit(p)
			if err == nil || !timeoutError.MatchString(out.Stdout+out.Stderr) {
				h.t.Fatalf("apply with every instances.get failing: %v, want a timeout error\n%s\n%s", err, out.Stdout, out.Stderr)
			}
			h.expectClean("after the timeout", 1)
			// The fault clears: the next apply replaces the tainted VM (one
			// more insert), and one instance remains.
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodComputeInstancesGet, 0, 503))
			mustFault(h.t, h.tg.Emulator.HangOperations(insert, false))
			h.apply(nil)
			h.expectInserts(2)
		}},
		{name: "tpu_vm_compute/stopped_instance_kept", kind: kind, want: 1, run: func(h *harness) {
			// Stopped outside Terraform (gcloud compute instances stop): the
			// plan after it is empty (checked at the end) and nothing is
			// deleted or inserted again.
			h.write(h.computeBody(""))
			h.apply(nil)
			mustFault(h.t, h.tg.Emulator.SetInstanceStatus(h.instanceID(), "TERMINATED"))
			h.apply(nil)
			h.expectInserts(1)
			if n := h.calls(emulator.MethodComputeInstancesDelete); n != 0 {
				h.t.Fatalf("%d instance deletes after the stop, want none", n)
			}
		}},
		{name: "tpu_vm_compute/api_switch", kind: kind, want: 1, run: func(h *harness) {
			// api switched both ways with runtime_version and cidr_block
			// unset: each switch replaces the VM through the other API
			// (the reconciliation at the end counts a node left behind as
			// an orphan).
			body := func(api string) string {
				return h.vmBody("v6e-4", []string{"us-central1-b"}, "  api = \""+api+"\"\n")
			}
			h.write(body("cloud_tpu"))
			h.apply(nil)
			for _, api := range []string{"compute_engine", "cloud_tpu", "compute_engine"} {
				h.write(body(api))
				h.apply(nil)
			}
			if n, i := h.calls(emulator.MethodTPUNodesCreate), h.calls(emulator.MethodComputeInstancesInsert); n != 2 || i != 2 {
				h.t.Fatalf("%d nodes.create and %d instances.insert calls, want 2 and 2", n, i)
			}
		}},
		{name: "tpu_vm_compute/second_state", kind: kind, want: 1, run: func(h *harness) {
			h.write(h.computeBody(""))
			h.apply(nil)
			before, err := h.tg.Emulator.Instance(h.instanceID())
			if err != nil {
				h.t.Fatal(err)
			}
			calls := h.tg.Emulator.Counters()
			// Another state naming the same instance is refused, and the
			// instance is neither adopted (secondState: that state records
			// nothing), changed nor deleted.
			h.secondState(h.computeBody(""), nameTaken)
			after, err := h.tg.Emulator.Instance(h.instanceID())
			if err != nil {
				h.t.Fatalf("the instance is gone after the second state's apply: %v", err)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				h.t.Fatalf("the second state's apply changed the instance (-before +after):\n%s", diff)
			}
			now := h.tg.Emulator.Counters()
			for _, m := range []string{insert, emulator.MethodComputeInstancesDelete, emulator.MethodComputeInstancesSetLabels,
				emulator.MethodComputeInstancesSetMetadata, emulator.MethodComputeInstancesSetTags} {
				if now[m] != calls[m] {
					h.t.Errorf("the second state's apply called %s %d times, want none", m, now[m]-calls[m])
				}
			}
		}},
	}
}

// expectInserts fails unless the scenario has sent n instances.insert calls
// so far and created no TPU node.
func (h *harness) expectInserts(n int64) {
	h.t.Helper()
	c := h.tg.Emulator.Counters()
	if c[emulator.MethodComputeInstancesInsert] != n || c[emulator.MethodTPUNodesCreate] != 0 {
		h.t.Fatalf("%d instances.insert and %d nodes.create calls, want %d and none",
			c[emulator.MethodComputeInstancesInsert], c[emulator.MethodTPUNodesCreate], n)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"regexp"
	"strings"
	"syscall"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// reconcileQueued compares the state with the emulator's queued resources.
func (h *harness) reconcileQueued(st *faultsuite.State) faultsuite.Report {
	var nodes []string
	for _, n := range h.tg.Emulator.Nodes() {
		nodes = append(nodes, n.Name)
	}
	return faultsuite.ReconcileQueuedTPUVMs(st, h.tg.Emulator.QueuedResources(), nodes, h.prefix)
}

// queuedZone is the zone of the queued scenarios.
const queuedZone = "us-central1-a"

// queuedBody is one Spot accel_tpu_vm in queuedZone, with extra lines.
func (h *harness) queuedBody(extra string) string {
	return h.vmBody("v5litepod-4", []string{queuedZone}, "  capacity {\n    mode = \"spot\"\n  }\n"+extra)
}

var stillWaiting = regexp.MustCompile(`Still Waiting for Capacity`)

// queuedScenarios are the faults of the queued-resource path. Each holds
// the request in the queue with zero capacity until the fault is done.
func queuedScenarios() []scenario {
	const zone = queuedZone
	const kind = faultsuite.TypeTPUVMQueued
	return []scenario{
		{name: "tpu_vm_queued/sigkill_while_waiting", kind: kind, want: 1, run: func(h *harness) {
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", 0)
			h.write(h.queuedBody(""))
			h.interruptedApply(emulator.MethodTPUQueuedResourcesGet, syscall.SIGKILL)
			h.orphansSeen += len(h.reconcile().Orphans)
			// Nothing recorded the request: the next apply refuses it
			// (no second request) and names the import, which takes it
			// over while it still waits.
			out := h.applyWith(nameTaken)
			if text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " "); !strings.Contains(text, "Queued resource") ||
				!strings.Contains(text, "(state WAITING_FOR_RESOURCES: it has no TPU VM yet") || strings.Contains(text, "a TPU VM named") {
				h.t.Fatalf("the refusal does not say that only the queued resource exists:\n%s", text)
			}
			h.importInto("accel_tpu_vm.test", "projects/"+acctest.EmulatorProject+"/locations/"+zone+"/nodes/"+h.prefix+"-vm")
			h.expectClean("after the import", 1)
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", -1)
			h.apply(nil)
			h.expectOneRequest()
		}},
		{name: "tpu_vm_queued/sigint_while_waiting", kind: kind, want: 1, run: func(h *harness) {
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", 0)
			h.write(h.queuedBody(""))
			h.interruptedApply(emulator.MethodTPUQueuedResourcesGet, syscall.SIGINT)
			h.orphansSeen += len(h.reconcile().Orphans)
			h.expectClean("after the interrupt", 1)
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", -1)
			h.apply(nil)
			h.expectOneRequest()
		}},
		{name: "tpu_vm_queued/503_get_while_waiting", kind: kind, want: 1, run: func(h *harness) {
			// Every read of the request fails until the create timeout: the
			// apply ends at the timeout with the request recorded.
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", 0)
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUQueuedResourcesGet, 1_000_000, 503))
			h.write(h.queuedBody("  timeouts {\n    create = \"3s\"\n  }\n"))
			h.apply(nil)
			h.expectClean("after the timeout", 1)
			mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodTPUQueuedResourcesGet, 0, 503))
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", -1)
			h.apply(nil)
			h.expectOneRequest()
		}},
		{name: "tpu_vm_queued/edit_while_waiting", kind: kind, want: 1, run: func(h *harness) {
			// Labels and metadata edited twice while the request waits:
			// each apply records them; the apply during which capacity
			// arrives sets them on the VM (a label dropped meanwhile goes).
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", 0)
			wait := "  timeouts {\n    create = \"1s\"\n  }\n"
			h.write(h.queuedBody("  labels = { team = \"a\", old = \"x\" }\n" + wait))
			h.apply(nil)
			h.write(h.queuedBody("  labels = { team = \"b\" }\n  metadata = { role = \"b\" }\n" + wait))
			h.apply(nil)
			h.write(h.queuedBody("  labels = { team = \"c\" }\n  metadata = { role = \"c\" }\n" + wait))
			h.apply(nil)
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", -1)
			h.write(h.queuedBody("  labels = { team = \"c\" }\n  metadata = { role = \"c\" }\n"))
			h.apply(nil)
			h.expectOneRequest()
			id := "projects/" + acctest.EmulatorProject + "/locations/" + zone + "/nodes/" + h.prefix + "-vm"
			for _, n := range h.tg.Emulator.Nodes() {
				if n.Name == id && (n.Labels["team"] != "c" || n.Labels["old"] != "" || n.Metadata["role"] != "c") {
					h.t.Fatalf("the VM has labels %v and metadata %v, want team = c only and role = c", n.Labels, n.Metadata)
				}
			}
		}},
		{name: "tpu_vm_queued/second_state", kind: kind, want: 1, run: func(h *harness) {
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", 0)
			h.write(h.queuedBody("  timeouts {\n    create = \"1s\"\n  }\n"))
			h.applies++
			if out, err := h.ws.Run(h.ctx(), applyArgs...); err != nil || !stillWaiting.MatchString(out.Stdout+out.Stderr) {
				h.t.Fatalf("apply: %v, want a warning that the request still waits\n%s", err, out.Stdout)
			}
			// Another state naming the same request is refused, and the
			// waiting request is neither adopted nor deleted.
			h.secondState(h.queuedBody(""), nameTaken)
			h.expectClean("after the second state", 1)
			h.tg.Emulator.SetCapacity(zone, "v5litepod-4", -1)
			h.apply(nil)
			h.expectOneRequest()
		}},
	}
}

// expectOneRequest fails unless exactly one queued resource of the
// scenario exists (a second create may have been tried and refused) and no
// node was created outside a queued resource.
func (h *harness) expectOneRequest() {
	h.t.Helper()
	var names []string
	for _, qr := range h.tg.Emulator.QueuedResources() {
		if strings.Contains(qr.Name, "/queuedResources/"+h.prefix) {
			names = append(names, qr.Name)
		}
	}
	if n := h.tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]; len(names) != 1 || n != 0 {
		h.t.Fatalf("queued resources %v and %d nodes.create calls, want one queued resource and no nodes.create", names, n)
	}
}

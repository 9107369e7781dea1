// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"regexp"

	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
)

// tpuConsistencyScenarios are the accel_tpu_vm scenarios in which the cloud
// changes between a saved plan and its apply: the apply's result must agree
// with the plan (Terraform's "Provider produced inconsistent result").
func tpuConsistencyScenarios() []scenario {
	const zone = "us-central1-a"
	return []scenario{
		{name: "tpu_vm/outside_label_between_plan_and_apply", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			id := "projects/" + acctest.EmulatorProject + "/locations/" + zone + "/nodes/" + h.prefix + "-vm"
			h.outsideLabelBetweenPlanAndApply(func(labels string) string {
				return h.vmBody("v5litepod-4", []string{zone}, labels)
			}, func() { h.labelNodeOutOfBand(id) })
		}},
		{name: "tpu_vm_compute/outside_label_between_plan_and_apply", kind: faultsuite.TypeTPUVMCompute, want: 1, run: func(h *harness) {
			h.outsideLabelBetweenPlanAndApply(h.computeBody, func() { h.labelInstanceOutOfBand(h.instanceID()) })
		}},
	}
}

// outsideLabelBetweenPlanAndApply: a VM is created with one label; a plan
// that changes it is saved; a label is added outside Terraform (as gcloud
// would); the saved plan is applied. The apply succeeds and records the
// outside label in effective_labels.
func (h *harness) outsideLabelBetweenPlanAndApply(body func(extra string) string, outside func()) {
	h.t.Helper()
	h.write(body("  labels = { team = \"a\" }\n"))
	h.apply(nil)
	h.write(body("  labels = { team = \"b\" }\n  metadata = { role = \"serving\" }\n"))
	h.cli("plan", "-input=false", "-no-color", "-out=tfplan")
	outside()
	h.applyWith(nil, "tfplan")
	st, err := h.ws.State()
	if err != nil {
		h.t.Fatal(err)
	}
	res := st.Resources()
	if len(res) != 1 {
		h.t.Fatalf("%d resources in state, want 1", len(res))
	}
	labels, _ := res[0].Values["effective_labels"].(map[string]any)
	if labels["team"] != "b" || labels["owner"] != "someone-else" {
		h.t.Fatalf("effective_labels after the apply: %v, want team = b and the outside label owner = someone-else", labels)
	}
}

// labelNodeOutOfBand adds the label owner = someone-else to a Cloud TPU node
// through the API, and waits for the patch.
func (h *harness) labelNodeOutOfBand(id string) {
	h.t.Helper()
	ctx := h.ctx()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(h.tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		h.t.Fatal(err)
	}
	n, err := svc.Projects.Locations.Nodes.Get(id).Context(ctx).Do()
	if err != nil {
		h.t.Fatal(err)
	}
	n.Labels["owner"] = "someone-else"
	op, err := svc.Projects.Locations.Nodes.Patch(id, &tpu.Node{Labels: n.Labels}).UpdateMask("labels").Context(ctx).Do()
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.waitFor(func() bool {
		op, err = svc.Projects.Locations.Operations.Get(op.Name).Context(ctx).Do()
		return err != nil || op.Done
	}); err != nil || op.Error != nil {
		h.t.Fatalf("labelling %s out of band: %v %v", id, err, op.Error)
	}
}

// labelInstanceOutOfBand adds the label owner = someone-else to a Compute
// Engine instance (setLabels with its fingerprint), and waits.
func (h *harness) labelInstanceOutOfBand(id string) {
	h.t.Helper()
	ctx := h.ctx()
	svc, err := compute.NewService(ctx, option.WithEndpoint(h.tg.Emulator.ComputeEndpoint()), option.WithoutAuthentication())
	if err != nil {
		h.t.Fatal(err)
	}
	in, err := h.tg.Emulator.Instance(id)
	if err != nil {
		h.t.Fatal(err)
	}
	labels := map[string]string{"owner": "someone-else"}
	for k, v := range in.Labels {
		labels[k] = v
	}
	op, err := svc.Instances.SetLabels(acctest.EmulatorProject, computeZone, h.prefix+"-vm",
		&compute.InstancesSetLabelsRequest{Labels: labels, LabelFingerprint: in.LabelFingerprint}).Context(ctx).Do()
	if err != nil {
		h.t.Fatal(err)
	}
	// zoneOperations.wait may answer before the operation is DONE.
	if err := h.waitFor(func() bool {
		op, err = svc.ZoneOperations.Wait(acctest.EmulatorProject, computeZone, op.Name).Context(ctx).Do()
		return err != nil || op.Status == "DONE"
	}); err != nil || op.Error != nil {
		h.t.Fatalf("labelling %s out of band: %v %v", id, err, op.Error)
	}
}

// tpuTransientScenarios: a create whose operation ends UNAVAILABLE (code
// 14, "the service is currently unavailable", which Google's AIP-194 says
// to retry) is not the end of the apply: the next zone is tried, and a zone
// that failed so is tried again, within the create timeout.
func tpuTransientScenarios() []scenario {
	const unavailable = 14
	const zoneA, zoneB = "us-central1-a", "us-south1-a"
	return []scenario{
		{name: "tpu_vm/unavailable_operation_next_zone", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodTPUNodesCreate, 1, unavailable))
			h.tpuConfig([]string{zoneA, zoneB}, "")
			h.apply(nil)
			h.expectCreates(emulator.MethodTPUNodesCreate, 2)
		}},
		{name: "tpu_vm/unavailable_operation_one_zone", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodTPUNodesCreate, 1, unavailable))
			h.tpuConfig([]string{zoneA}, "")
			h.apply(nil)
			h.expectCreates(emulator.MethodTPUNodesCreate, 2)
		}},
		{name: "tpu_vm/unavailable_operation_every_round", kind: faultsuite.TypeTPUVM, want: 1, run: func(h *harness) {
			// Every round fails: the apply says so, leaves nothing, and
			// the next apply creates the VM.
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodTPUNodesCreate, 3, unavailable))
			h.tpuConfig([]string{zoneA}, "")
			h.apply(regexp.MustCompile(`(?s)No Zone Could Create the TPU VM.*temporary.*3 times`))
			h.expectClean("after the failed rounds", 0)
			h.apply(nil)
			h.expectCreates(emulator.MethodTPUNodesCreate, 4)
		}},
		{name: "tpu_vm_compute/unavailable_operation_next_zone", kind: faultsuite.TypeTPUVMCompute, want: 1, run: func(h *harness) {
			mustFault(h.t, h.tg.Emulator.FailNextOperations(emulator.MethodComputeInstancesInsert, 1, unavailable))
			h.write(h.vmBody("v6e-4", []string{"us-east5-a", "us-central1-b"}, "  api = \"compute_engine\"\n"))
			h.apply(nil)
			h.expectCreates(emulator.MethodComputeInstancesInsert, 2)
		}},
	}
}

// expectCreates fails unless method was called n times.
func (h *harness) expectCreates(method string, n int64) {
	h.t.Helper()
	if got := h.calls(method); got != n {
		h.t.Fatalf("%d calls of %s, want %d", got, method, n)
	}
}

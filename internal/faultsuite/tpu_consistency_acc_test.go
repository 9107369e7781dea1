// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
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
	st, err := h.ws.State(h.ctx())
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

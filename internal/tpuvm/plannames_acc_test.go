// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/api/option"
	"google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccTPUVM_planReportsVMsOfTheSameName: a VM of the resource's name
// that no state records (what an apply killed before it could record the VM
// leaves), in a zone that zones no longer lists, is reported by the plan
// before anything is created: a warning that names it and its import id,
// and the plan goes on. In a zone of zones the plan says nothing (it could
// be a tainted VM the plan replaces; the create refuses any other, see
// TestAccTPUVM_foreignVMNeverTouched). No plan calls nodes.create.
func TestAccTPUVM_planReportsVMsOfTheSameName(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates TPU VMs behind Terraform's back, one in a second zone, through the emulator's endpoint")
	name := acctest.RandomName("left")
	const leftZone, otherZone = "us-central1-a", "us-south1-a"
	svc, err := tpu.NewService(context.Background(), option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	_, err = svc.Projects.Locations.Nodes.Create("projects/"+tg.Project+"/locations/"+leftZone,
		&tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId(name).Context(t.Context()).Do()
	mustNoErr(t, err)
	leftID := "projects/" + tg.Project + "/locations/" + leftZone + "/nodes/" + name
	cfg := func(zones string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  accelerator_type = "v5litepod-4"
  zones            = [%s]
}
`, name, zones))
	}
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	before := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]
	for _, tc := range []struct {
		name, zones, summary, severity string
		want                           int
	}{
		{"after zones was edited", fmt.Sprintf("%q", otherZone), "TPU VM of the Same Name in Another Zone", "warning", 1},
		{"in a zone of zones", fmt.Sprintf("%q, %q", leftZone, otherZone), "TPU VM of the Same Name in Another Zone", "warning", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, cfg(tc.zones))
			if err != nil {
				t.Fatalf("plan error = %v\nstdout:\n%s", err, stdout)
			}
			var found []acctest.Diagnostic
			for _, d := range diags {
				if d.Summary == tc.summary {
					found = append(found, d)
				}
			}
			if len(found) != tc.want || (tc.want > 0 && (found[0].Severity != tc.severity || !strings.Contains(found[0].Detail, leftID) ||
				!strings.Contains(found[0].Detail, "import"))) {
				t.Errorf("%q diagnostics %+v, want %d %s naming %s and its import\nall: %+v", tc.summary, found, tc.want, tc.severity, leftID, diags)
			}
		})
	}
	if got := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate] - before; got != 0 {
		t.Errorf("nodes.create called %d times by the plans, want 0", got)
	}
}

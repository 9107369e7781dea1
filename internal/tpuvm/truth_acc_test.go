// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// offlineWithProject is a provider with a project and nothing to reach an
// API with: plans are checked against the catalog only.
const offlineWithProject = "provider \"accel\" {\n  project = \"p\"\n}\n"

// TestAccTPUVM_documentedRuntimes plans, offline, TensorFlow runtimes the
// runtimes page lists (2.18.0 and 2.17.1), the 2.18.0 default, and a v5p
// slice beyond the largest (96 cubes) as an error.
func TestAccTPUVM_documentedRuntimes(t *testing.T) {
	vm := func(body string) string {
		return offlineWithProject + "resource \"accel_tpu_vm\" \"test\" {\n  name = \"tf\"\n  zones = [\"us-east5-a\"]\n" + body + "}\n"
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: vm("  accelerator_type = \"v5p-16\"\n  runtime_version = \"tpu-vm-tf-2.18.0-pod-pjrt\"\n"), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: vm("  accelerator_type = \"v6e-8\"\n  runtime_version = \"tpu-vm-tf-2.17.1-pjrt\"\n"), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: vm("  accelerator_type = \"v6e-8\"\n  framework = \"tensorflow\"\n"), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("accel_tpu_vm.test", tfjsonpath.New("runtime_version"), knownvalue.StringExact("tpu-vm-tf-2.18.0-pjrt")),
				}}},
			{Config: vm("  accelerator_type = \"v5p-16384\"\n"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid TPU Accelerator Type.*v5p-12288`)},
		},
	})
}

// TestAccTPUVM_liveZone: with the Cloud TPU API reachable at plan time, a
// zone whose live list lacks the accelerator type is an error naming the
// zones that offer it, and the catalog's zone-list warning about the same
// zone is not shown beside it; offline the same plan only warns.
func TestAccTPUVM_liveZone(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "relies on the emulator's answer of which zones offer v6e-8")
	const body = `
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-live"
  accelerator_type = "v6e-8"
  zones            = ["us-central1-a"]
}
`
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	for _, tc := range []struct {
		name, config, summary, severity string
		wantFail                        bool
	}{
		{"live", tg.Config(body), "Zone Does Not Offer Accelerator Type", "error", true},
		{"offline", offlineWithProject + body, "Zone Not Listed for TPU Generation", "warning", false},
	} {
		diags := acctest.ExpectPlanOnce(t, env, tf, tc.config, tc.wantFail,
			acctest.Want{Summary: tc.summary, Severity: tc.severity, Detail: []string{"us-central1-b"}})
		for _, d := range diags {
			if tc.name == "live" && strings.HasPrefix(d.Summary, "Zone Not Listed") {
				t.Errorf("live: the catalog's %q is shown beside the live answer: %+v", d.Summary, d)
			}
		}
	}
}

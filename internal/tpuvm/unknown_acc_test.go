// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// everyAttribute sets every attribute a configuration can set on
// accel_tpu_vm, nested ones included, to a valid value on the emulator.
// TestAccTPUVM_unknownAtPlan fails for an attribute missing here.
func everyAttribute(tg *acctest.Target, name string) map[string]any {
	return map[string]any{
		"name":              name,
		"project":           tg.Project,
		"zones":             []any{tg.Zone},
		"accelerator_type":  "v5litepod-4",
		"runtime_version":   "tpu-vm-tf-2.18.0-pjrt",
		"framework":         "tensorflow",
		"framework_version": "2.18.0",
		"description":       "unknown at plan",
		"labels":            map[string]any{"team": "research"},
		"metadata":          map[string]any{"startup-script": "echo hi"},
		"tags":              []any{"tpu"},
		"cidr_block":        "10.0.0.8/29",
		"network_config": map[string]any{
			"network":             "default",
			"subnetwork":          "default",
			"enable_external_ips": true,
			"can_ip_forward":      false,
		},
		"service_account": map[string]any{
			"email":  "runner@" + tg.Project + ".iam.gserviceaccount.com",
			"scopes": []any{"https://www.googleapis.com/auth/cloud-platform"},
		},
		"scheduling_config":        map[string]any{"preemptible": false, "reserved": false, "spot": true},
		"shielded_instance_config": map[string]any{"enable_secure_boot": true},
		"data_disks": []any{map[string]any{
			"source_disk": "projects/" + tg.Project + "/zones/" + tg.Zone + "/disks/data",
			"mode":        "READ_ONLY",
		}},
		"validation": "strict",
		"timeouts":   map[string]any{"create": "30m", "update": "20m", "delete": "20m"},
	}
}

// TestAccTPUVM_unknownAtPlan makes each attribute a configuration can set
// (from the schema, so that new attributes are covered) unknown until apply,
// as when it comes from another resource, in turn: each such configuration
// must plan, apply, and plan nothing after, without Terraform's "invalid
// plan" or "inconsistent result" errors. Every collection is also tried
// with each of its elements unknown. All cases are resources of one
// configuration, applied together.
func TestAccTPUVM_unknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_tpu_vm")
	minimal := map[string]any{"name": "", "accelerator_type": "v5litepod-4", "framework": "tensorflow"}
	cases, missing := acctest.UnknownCases(attrs, everyAttribute(tg, ""), minimal, func(i int, body map[string]any) {
		body["name"] = fmt.Sprintf("tf-acc-unknown-%d", i)
	})
	acctest.RequireValues(t, missing)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_tpu_vm", cases)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// TestAccTPUVM_unknownCheckedAtApply: a value the catalog rejects that is
// unknown at plan time is rejected at apply, before any API call.
func TestAccTPUVM_unknownCheckedAtApply(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(`
resource "terraform_data" "type" {
  input = "v6e-3"
}

resource "accel_tpu_vm" "test" {
  name             = "tf-acc-unknown-type"
  accelerator_type = terraform_data.type.output
}
`),
			ExpectError: regexp.MustCompile(`(?s)accelerator_type.*v6e-3`),
		}},
	})
	if got := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]; got != 0 {
		t.Errorf("nodes.create called %d times, want 0", got)
	}
}

// emptyStringValid lists the optional strings of accel_tpu_vm for which ""
// is a valid value; "" in any other is rejected at plan.
var emptyStringValid = map[string]bool{
	"description": true,
}

// TestAccTPUVM_emptyStrings sets each optional string attribute to "" in
// turn: it is either valid end to end (listed in emptyStringValid) or
// rejected at plan with a diagnostic that names the attribute.
func TestAccTPUVM_emptyStrings(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_tpu_vm")
	blocks := acctest.BlockPaths(attrs)
	valid := resource.TestStep{Config: tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_tpu_vm",
		[]acctest.Case{{Name: "valid", Body: everyAttribute(tg, "tf-acc-empty"), Blocks: blocks}}))}
	steps := []resource.TestStep{valid}
	for _, a := range attrs {
		if !a.String || a.Required {
			continue
		}
		body := everyAttribute(tg, "tf-acc-empty")
		if !acctest.SetAt(body, a.Path, "") {
			t.Errorf("everyAttribute has no value for %s: add one", a.Path)
			continue
		}
		config := tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_tpu_vm", []acctest.Case{{Name: a.Path, Body: body, Blocks: blocks}}))
		if emptyStringValid[a.Path] {
			steps = append(steps, resource.TestStep{Config: config})
			continue
		}
		steps = append(steps, resource.TestStep{
			Config:      config,
			PlanOnly:    true,
			ExpectError: acctest.AttributeError(a.Path),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, "tf-acc-empty"),
		Steps:                    append(steps, valid),
	})
}

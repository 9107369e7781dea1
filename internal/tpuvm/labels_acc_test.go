// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestAccTPUVM_defaultLabels: the provider's default_labels are written to
// the VM with labels over them (terraform_labels, the resource's value
// winning for a key set in both), next to the ownership label; a label
// added outside Terraform shows in effective_labels and plans nothing; a
// change of default_labels updates the VM in place and keeps the foreign
// label and the ownership label; import reads every label back.
func TestAccTPUVM_defaultLabels(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "adds a label to the VM behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("deflabels")
	accel, _, _ := smallType(tg)
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	body := fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  labels           = { team = "serving" }
  metadata         = { role = "serving" }
}
`, name, accel)
	first := tg.ConfigWithDefaultLabels(map[string]string{"env": "prod", "team": "platform"}, body)
	second := tg.ConfigWithDefaultLabels(map[string]string{"env": "staging"}, body)
	str := knownvalue.StringExact
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: first,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tfjsonpath.New("terraform_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
							"env": str("prod"), "team": str("serving"),
						})),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": str("serving")})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("terraform_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": str("prod"), "team": str("serving"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": str("prod"), "team": str("serving"), "accel-managed": ownerID,
					})),
				},
			},
			{
				// A label added outside Terraform: shown, never a diff.
				PreConfig: func() { patchOutOfBand(t, tg, id) },
				Config:    first,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": str("prod"), "team": str("serving"), "owner": str("someone-else"), "accel-managed": ownerID,
					})),
				},
			},
			{
				Config: second,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("terraform_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": str("staging"), "team": str("serving"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": str("staging"), "team": str("serving"), "owner": str("someone-else"), "accel-managed": ownerID,
					})),
					expectNodes{tg: tg, name: name, ids: []string{id}},
				},
			},
			{
				// Import takes every label (and metadata key) as managed,
				// as the google provider does: labels, terraform_labels and
				// metadata then hold the foreign ones too.
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"labels", "terraform_labels", "metadata"},
			},
		},
	})
}

// TestAccTPUVM_defaultLabelsReserved: the ownership label cannot be a
// default label.
func TestAccTPUVM_defaultLabelsReserved(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "accel" {
  default_labels = { "accel-managed" = "x" }
}

resource "accel_tpu_vm" "test" {
  name             = "reserved"
  zones            = ["us-central1-b"]
  accelerator_type = "v6e-1"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)default_labels.*accel-managed`),
		}},
	})
}

// TestAccTPUVM_labelRule: the VM's labels follow the node pools' label
// rule: 63 labels and the provider's default_labels are refused at plan
// once, with the ownership label, they exceed Compute Engine's 64, and the
// error counts each part; labels in international characters, which Google
// accepts, are created and read back.
func TestAccTPUVM_labelRule(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("labelrule")
	accel, _, _ := smallType(tg)
	var many strings.Builder
	for i := range 62 {
		fmt.Fprintf(&many, "    k%d = \"v\"\n", i)
	}
	vm := func(labels string) string {
		return fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  accelerator_type = %q
  labels = {
%s  }
}
`, name, accel, labels)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				// 62 labels, 2 default labels and the ownership label: 65.
				Config:      tg.ConfigWithDefaultLabels(map[string]string{"env": "prod", "team": "ml"}, vm(many.String())),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Too Many Labels.*at\s+most\s+64\s+labels;\s+labels\s+\(with\s+the\s+provider's\s+default_labels\)\s+has\s+64,\s+and\s+the\s+provider\s+adds\s+1`),
			},
			{
				Config: tg.ConfigWithDefaultLabels(map[string]string{"env": "prod"}, vm("    \"équipe\" = \"données\"\n")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("terraform_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": knownvalue.StringExact("prod"), "équipe": knownvalue.StringExact("données"),
					})),
				},
			},
		},
	})
}

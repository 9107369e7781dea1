// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestAccTPUVM_identity pins the resource identity (Terraform 1.12 and
// later): it is recorded on create, and an import block with identity
// instead of id imports the VM, with or without the project.
func TestAccTPUVM_identity(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("ident")
	accel, _, _ := smallType(tg)
	body := fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  labels           = { team = "ml" }
}
`, name, accel)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: tg.Config(body),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(address, map[string]knownvalue.Check{
						"project": knownvalue.StringExact(tg.Project),
						"zone":    knownvalue.StringExact(tg.Zone),
						"name":    knownvalue.StringExact(name),
					}),
				},
			},
			{
				ResourceName:    address,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				// The project left to the provider.
				Config: tg.Config(body + fmt.Sprintf(`
import {
  to       = accel_tpu_vm.test
  identity = { zone = %q, name = %q }
}
`, tg.Zone, name)),
				ResourceName:           address,
				ImportState:            true,
				ImportStateKind:        resource.ImportBlockWithResourceIdentity,
				ImportStateConfigExact: true,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionNoop),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact("projects/"+tg.Project+"/locations/"+tg.Zone+"/nodes/"+name)),
					},
				},
			},
		},
	})
}

// TestAccTPUVM_query pins the list resource (terraform query, Terraform 1.14
// and later): it finds the VMs of the zone with their identity, and its
// generated configuration imports the VM with no change planned.
func TestAccTPUVM_query(t *testing.T) {
	tg := acctest.New(t)
	a, b, c := acctest.RandomName("qa"), acctest.RandomName("qb"), acctest.RandomName("qc")
	accel, _, _ := smallType(tg)
	resources := fmt.Sprintf(`
resource "accel_tpu_vm" "a" {
  name             = %[1]q
  accelerator_type = %[3]q
}

resource "accel_tpu_vm" "b" {
  name             = %[2]q
  accelerator_type = %[3]q
  description      = "second"
}
`, a, b, accel)
	if tg.Emulator != nil {
		// A TPU VM created through Compute Engine is listed too.
		resources += fmt.Sprintf(`
resource "accel_tpu_vm" "c" {
  name             = %q
  accelerator_type = "v5p-8"
  api              = "compute_engine"
}
`, c)
	}
	// The query file is read with the configuration of the step before,
	// which has the provider block.
	query := func(zone string) string {
		return fmt.Sprintf(`
list "accel_tpu_vm" "all" {
  provider         = accel
  include_resource = true
  config {
    zone = %q
  }
}
`, zone)
	}
	identity := func(name string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{
			"project": knownvalue.StringExact(tg.Project),
			"zone":    knownvalue.StringExact(tg.Zone),
			"name":    knownvalue.StringExact(name),
		}
	}
	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectIdentity("accel_tpu_vm.all", identity(a)),
		querycheck.ExpectIdentity("accel_tpu_vm.all", identity(b)),
		querycheck.ExpectResourceDisplayName("accel_tpu_vm.all", queryfilter.ByResourceIdentity(identity(b)),
			knownvalue.StringExact(fmt.Sprintf("%s (%s, %s, READY)", b, accel, tg.Zone))),
		querycheck.ExpectResourceKnownValues("accel_tpu_vm.all", queryfilter.ByResourceIdentity(identity(b)), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("second")},
			{Path: tfjsonpath.New("accelerator_type"), KnownValue: knownvalue.StringExact(accel)},
		}),
	}
	if tg.Emulator != nil { // a sandbox zone may hold other VMs
		checks = append(checks, querycheck.ExpectLength("accel_tpu_vm.all", 3),
			querycheck.ExpectIdentity("accel_tpu_vm.all", identity(c)),
			querycheck.ExpectResourceDisplayName("accel_tpu_vm.all", queryfilter.ByResourceIdentity(identity(c)),
				knownvalue.StringExact(fmt.Sprintf("%s (v5p-8, %s, RUNNING)", c, tg.Zone))),
			querycheck.ExpectResourceKnownValues("accel_tpu_vm.all", queryfilter.ByResourceIdentity(identity(c)), []querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("api"), KnownValue: knownvalue.StringExact("compute_engine")},
				{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(gcp.InstanceID(tg.Project, tg.Zone, c))},
			}))
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, a),
		Steps: []resource.TestStep{
			{Config: tg.Config(resources)},
			{
				Query:             true,
				Config:            query(tg.Zone),
				QueryResultChecks: checks,
			},
			{
				// Another zone: none of this test's VMs.
				Query:  true,
				Config: query("us-central1-c"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectNoIdentity("accel_tpu_vm.all", map[string]knownvalue.Check{
						"project": knownvalue.StringExact(tg.Project),
						"zone":    knownvalue.NotNull(),
						"name":    knownvalue.StringExact(a),
					}),
				},
			},
		},
	})
}

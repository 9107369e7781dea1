// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// newType is an accelerator type the catalog does not know (v6e comes in
// 1, 4, 8 and more chips) and withNewType's emulator offers in newTypeZone:
// what the Cloud TPU API answers once Google offers a type the catalog has
// not caught up with, the case validation = "warn" is for.
const (
	newType     = "v6e-2"
	newTypeZone = "us-central1-b"
)

func withNewType(sc *emulator.Scenario) {
	i := slices.IndexFunc(sc.Zones, func(z emulator.Zone) bool { return z.Name == newTypeZone })
	sc.Zones[i].TPUAcceleratorTypes = append(sc.Zones[i].TPUAcceleratorTypes, newType)
}

// newTypeVMName names the VM of newTypeVM.
const newTypeVMName = "tf-acc-warn-type"

// newTypeVM is an accel_tpu_vm of newType; extra goes inside it.
func newTypeVM(extra string) string {
	return fmt.Sprintf(`resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = %q
%s}
`, newTypeVMName, newTypeZone, newType, extra)
}

// TestAccTPUVM_warnModeCatalogRejects: an accelerator type the catalog
// rejects is an error by default. With validation = "warn" and
// runtime_version set, the VM is created as written (the catalog's error a
// warning), without "invalid result object", and the next plan is empty.
// With validation = "warn" and runtime_version omitted, the catalog has no
// runtime to choose for a type it does not know: one error at plan, on
// runtime_version, that says to set it, and nothing is created.
func TestAccTPUVM_warnModeCatalogRejects(t *testing.T) {
	tg := acctest.New(t, withNewType)
	tg.RequireEmulatorFor(t, "relies on an accelerator type (v6e-2) that the emulator offers and the catalog does not know")
	warn := "  validation = \"warn\"\n"
	runtime := "  runtime_version  = \"v2-alpha-tpuv6e\"\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, newTypeVMName),
		Steps: []resource.TestStep{
			{
				Config:      tg.Config(newTypeVM(runtime)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Error: .*accelerator_type.*` + newType),
			},
			{
				Config:      tg.Config(newTypeVM(warn)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Error: No Runtime Version to Choose.*runtime_version\s+is\s+omitted.*"` + newType + `".*validation\s+=\s+"warn".*Set\s+runtime_version\s+to\s+a\s+version`),
			},
			{
				PreConfig: func() {
					if n := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]; n != 0 {
						t.Errorf("%s called %d times before the valid configuration, want 0", emulator.MethodTPUNodesCreate, n)
					}
				},
				Config: tg.Config(newTypeVM(warn + runtime)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("accel_tpu_vm.test", tfjsonpath.New("accelerator_type"), knownvalue.StringExact(newType)),
					statecheck.ExpectKnownValue("accel_tpu_vm.test", tfjsonpath.New("zone"), knownvalue.StringExact(newTypeZone)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccTPUVM_warnModeWarnings: with validation = "warn", the catalog's
// error about an accelerator type it does not know is shown once, as a
// warning, and the plan succeeds. (terraform-plugin-testing shows errors
// only; the CLI's -json output shows warnings.)
func TestAccTPUVM_warnModeWarnings(t *testing.T) {
	env := acctest.DevInstall(t)
	tg := acctest.New(t, withNewType)
	tg.RequireEmulatorFor(t, "relies on an accelerator type (v6e-2) that the emulator offers and the catalog does not know")
	naming := []string{`"` + newType + `"`}
	acctest.ExpectPlanOnce(t, env, acctest.TerraformPath(t),
		tg.Config(newTypeVM("  validation = \"warn\"\n  runtime_version  = \"v2-alpha-tpuv6e\"\n")), false,
		acctest.Want{Detail: naming}, acctest.Want{Severity: "warning", Detail: naming})
}

// TestAccTPUVM_warnModeKeepsProviderLimits: validation = "warn" turns the
// catalog's facts about Google into warnings, not the limits of this
// provider: a multi-host slice through Compute Engine (one instance per
// resource) stays an error at plan time, on the provider and on the
// resource alike.
func TestAccTPUVM_warnModeKeepsProviderLimits(t *testing.T) {
	acctest.Offline(t)
	vm := `resource "accel_tpu_vm" "test" {
  name             = "multihost"
  zones            = ["us-east5-a"]
  accelerator_type = "v6e-16"
  api              = "compute_engine"
%s}
`
	for name, config := range map[string]string{
		"on the resource": acctest.OfflineProviderConfig + fmt.Sprintf(vm, "  validation = \"warn\"\n"),
		"on the provider": "provider \"accel\" {\n  project    = \"p\"\n  validation = \"warn\"\n}\n" + fmt.Sprintf(vm, ""),
	} {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      config,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Error: Multi-Host Slice Not Supported on Compute Engine.*"v6e-16"`),
				}},
			})
		})
	}
}

// TestAccTPUVM_frameworkTypoOnce: a framework name in the wrong case is one
// error with its did-you-mean, whether the accelerator type is known
// (terraform plan) or not yet (terraform validate of a variable's value).
func TestAccTPUVM_frameworkTypoOnce(t *testing.T) {
	acctest.Offline(t)
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	config := `variable "accelerator_type" {
  type    = string
  default = "v6e-4"
}

resource "accel_tpu_vm" "test" {
  name             = "typo"
  project          = "p"
  zones            = ["us-east5-a"]
  accelerator_type = var.accelerator_type
  framework        = "Jax"
}
`
	for _, command := range []string{"plan", "validate"} {
		w := acctest.NewWorkspace(t, env, tf, config)
		stdout, _, _ := w.Run(command, "-json", "-no-color")
		var errs []acctest.Diagnostic
		for _, d := range acctest.ParseDiagnostics(t, stdout) {
			if d.Severity == "error" {
				errs = append(errs, d)
			}
		}
		if len(errs) != 1 || errs[0].Summary != "Unsupported Framework" || !regexp.MustCompile(`did you mean "jax"`).MatchString(errs[0].Detail) {
			t.Errorf("terraform %s: errors %+v, want one Unsupported Framework with a did-you-mean\n%s", command, errs, stdout)
		}
	}
}

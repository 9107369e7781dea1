// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

const address = "accel_tpu_vm.test"

// nodesNamed returns the nodes of the target named name: in any zone of the
// emulator, in the target's zone of a sandbox project.
func nodesNamed(tg *acctest.Target, name string) ([]*tpu.Node, error) {
	if tg.Emulator != nil {
		var out []*tpu.Node
		for _, n := range tg.Emulator.Nodes() {
			if strings.HasSuffix(n.Name, "/nodes/"+name) {
				out = append(out, n)
			}
		}
		return out, nil
	}
	ctx := context.Background()
	svc, err := sandboxTPU(ctx)
	if err != nil {
		return nil, err
	}
	n, err := svc.Projects.Locations.Nodes.Get(gcp.NodeID(tg.Project, tg.Zone, name)).Context(ctx).Do()
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []*tpu.Node{n}, nil
}

// sameIDs reports, for what, ids that differ from want.
func sameIDs(what string, got, want []string) error {
	if strings.Join(got, ",") != strings.Join(want, ",") {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func TestAccTPUVM_basic(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("basic")
	accel, runtime, chips := smallType(tg)
	config := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  description      = "acceptance test"
  labels = {
    env = "test"
  }
}
`, name, accel))
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
						// Chosen from the catalog and known before anything is created.
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(runtime)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(tg.Zone)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("project"), knownvalue.StringExact(tg.Project)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("chips"), knownvalue.Int64Exact(chips)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("hosts"), knownvalue.Int64Exact(1)),
						plancheck.ExpectUnknownValue(address, tfjsonpath.New("id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("zones"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(tg.Zone)})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("health"), knownvalue.StringExact("HEALTHY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(runtime)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": knownvalue.StringExact("test"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env":           knownvalue.StringExact("test"),
						"accel-managed": ownerID,
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_network_config").AtMapKey("enable_external_ips"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_config"), knownvalue.Null()),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config"), knownvalue.Null()),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("create_time"), knownvalue.NotNull()),
					expectNodes{tg: tg, name: name, ids: []string{id}},
				},
			},
			{
				ResourceName:    address,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccTPUVM_updateInPlace(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("update")
	accel, _, _ := smallType(tg)
	config := func(description, label, script string, external bool) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  description      = %[3]q
  labels = {
    team = %[4]q
  }
  metadata = {
    startup-script = %[5]q
  }
  tags = ["tpu", %[4]q]
  network_config {
    enable_external_ips = %[6]t
  }
}
`, name, accel, description, label, script, external))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config("first", "research", "echo one", false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints").AtSliceIndex(0).AtMapKey("external_ip"), knownvalue.Null()),
				},
			},
			{
				Config: config("second", "serving", "echo two", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						// Labels set outside Terraform before the apply are
						// read back with the rest.
						plancheck.ExpectUnknownValue(address, tfjsonpath.New("effective_labels")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team":          knownvalue.StringExact("serving"),
						"accel-managed": ownerID,
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("description"), knownvalue.StringExact("second")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels").AtMapKey("team"), knownvalue.StringExact("serving")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("metadata").AtMapKey("startup-script"), knownvalue.StringExact("echo two")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("tpu"), knownvalue.StringExact("serving"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints").AtSliceIndex(0).AtMapKey("external_ip"), knownvalue.NotNull()),
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, tg.Zone, name)}},
				},
			},
		},
	})
}

// TestAccTPUVM_updateKeepsForeignKeys checks that labels and metadata keys
// set outside Terraform survive an update and cause no diff.
func TestAccTPUVM_updateKeepsForeignKeys(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "patches labels and metadata behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("foreign")
	accel, _, _ := smallType(tg)
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	config := func(v string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  labels           = { team = %[3]q }
  metadata         = { role = %[3]q }
}
`, name, accel, v))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{Config: config("a")},
			{
				PreConfig: func() { patchOutOfBand(t, tg, id) },
				Config:    config("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("b"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team":          knownvalue.StringExact("b"),
						"owner":         knownvalue.StringExact("someone-else"),
						"accel-managed": ownerID,
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
						"role": knownvalue.StringExact("b"),
					})),
				},
			},
		},
	})
}

func TestAccTPUVM_replace(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("replace")
	config := func(accel string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
}
`, name, accel))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{Config: config("v5litepod-4")},
			{
				Config: config("v5litepod-8"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("chips"), knownvalue.Int64Exact(8)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("v2-alpha-tpuv5-lite")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("accelerator_type"), knownvalue.StringExact("v5litepod-8")),
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, tg.Zone, name)}},
				},
			},
			{
				// Another framework that keeps the same runtime is not a replacement.
				Config: strings.Replace(config("v5litepod-8"), "accelerator_type", "framework = \"jax\"\n  accelerator_type", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
			},
			{
				// A framework whose runtime differs is.
				Config: strings.Replace(config("v5litepod-8"), "accelerator_type", "framework = \"tensorflow\"\n  accelerator_type", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("tpu-vm-tf-2.18.0-pjrt")),
					},
				},
			},
			{
				// So is a runtime version configured differently.
				Config: strings.Replace(config("v5litepod-8"), "accelerator_type", "runtime_version = \"tpu-vm-tf-2.17.1-pjrt\"\n  accelerator_type", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("tpu-vm-tf-2.17.1-pjrt")),
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, tg.Zone, name)}},
				},
			},
		},
	})
}

func TestAccTPUVM_import(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("import")
	accel, _, _ := smallType(tg)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  metadata         = { startup-script = "echo hi" }
}
`, name, accel))},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     gcp.NodeID(tg.Project, tg.Zone, name),
				ImportStateVerify: true,
			},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     tg.Project + "/" + tg.Zone + "/" + name,
				ImportStateVerify: true,
			},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     tg.Zone + "/" + name,
				ImportStateVerify: true,
			},
			{
				ResourceName:  address,
				ImportState:   true,
				ImportStateId: name,
				ExpectError:   regexp.MustCompile(`Invalid Import ID`),
			},
			{
				ResourceName:  address,
				ImportState:   true,
				ImportStateId: tg.Zone + "/no-such-vm",
				ExpectError:   regexp.MustCompile(`Cannot import non-existent remote object`),
			},
		},
	})
}

func TestAccTPUVM_disappears(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "deletes the TPU VM behind Terraform's back")
	name := acctest.RandomName("gone")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	config := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
}
`, name))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config:             config,
				Check:              func(*terraform.State) error { return tg.Emulator.DeleteNode(id) },
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate)},
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{expectNodes{tg: tg, name: name, ids: []string{id}}},
			},
		},
	})
}

func TestAccTPUVM_zoneFallback(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects stockouts")
	name := acctest.RandomName("fallback")
	zones := []string{"us-central1-b", "us-east5-a", "europe-west4-a"}
	tg.Emulator.SetCapacity(zones[0], "v6e-8", 0)
	tg.Emulator.SetCapacity(zones[1], "v6e-8", 0)
	config := func(zones ...string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v6e-8"
  zones            = [%[2]s]
}
`, name, quoted(zones)))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config(zones...),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(address, tfjsonpath.New("zone"))},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(zones[2])),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(gcp.NodeID(tg.Project, zones[2], name))),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("v2-alpha-tpuv6e")),
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, zones[2], name)}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 3}),
				},
			},
			{
				// The VM's zone is still listed: reordering and dropping other
				// zones changes only the state.
				Config: config(zones[2], zones[0]),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(zones[2])),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 3, emulator.MethodTPUNodesPatch: 0}),
				},
			},
			{
				// The VM's zone leaves the list: the VM moves.
				PreConfig: func() { tg.Emulator.SetCapacity(zones[1], "v6e-8", -1) },
				Config:    config(zones[1]),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(zones[1])),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, zones[1], name)}},
				},
			},
		},
	})
}

func TestAccTPUVM_allZonesStockedOut(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects stockouts in every zone")
	name := acctest.RandomName("stockout")
	zones := []string{"us-central1-b", "us-east5-a", "europe-west4-a"}
	for _, z := range zones {
		tg.Emulator.SetCapacity(z, "v6e-4", 0)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkGone(tg, name)(s); err != nil {
				return err
			}
			if got := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]; got != 3 {
				return fmt.Errorf("nodes.create called %d times, want once per zone (3)", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v6e-4"
  zones            = [%[2]s]
}
`, name, quoted(zones))),
				ExpectError: regexp.MustCompile(`(?s)No Zone Had Capacity.*nothing\s+was\s+left\s+behind.*us-central1-b: no capacity.*us-east5-a: no capacity.*europe-west4-a: no capacity`),
			},
		},
	})
}

// TestAccTPUVM_timeoutTaints checks that a create that outlives its timeout
// is recorded (tainted), and that the next apply replaces it: one VM in the
// end, none orphaned.
func TestAccTPUVM_timeoutTaints(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "holds the create operation past the timeout")
	name := acctest.RandomName("timeout")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	config := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  timeouts {
    create = "1s"
  }
}
`, name))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { mustNoErr(t, tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true)) },
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Timeout Creating TPU VM.*marked tainted`),
			},
			{
				PreConfig: func() { mustNoErr(t, tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false)) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					expectNodes{tg: tg, name: name, ids: []string{id}},
				},
			},
		},
	})
}

// ownerID checks an owner id: 20 lowercase hexadecimal digits.
var ownerID = knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{20}$`))

// TestAccTPUVM_lostStateNeedsImport checks the case where Terraform lost
// track of a VM it had requested (the apply was cut short and its state not
// kept): nothing records which resource instance created it, so the next
// apply refuses it with the import id, and an import block takes it over
// without a second create.
func TestAccTPUVM_lostStateNeedsImport(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "holds the create and delete operations")
	name := acctest.RandomName("lost")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	body := fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  labels           = { env = "test" }
  timeouts {
    create = "1s"
  }
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { mustNoErr(t, tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, true)) },
				Config:      tg.Config(body),
				ExpectError: regexp.MustCompile(`Timeout Creating TPU VM`),
			},
			{
				// Forget the VM without deleting it: the state is lost.
				Config: tg.Config(`
removed {
  from = accel_tpu_vm.test
  lifecycle {
    destroy = false
  }
}
`),
				ConfigStateChecks: []statecheck.StateCheck{expectNodes{tg: tg, name: name, ids: []string{id}}},
			},
			{
				PreConfig:   func() { mustNoErr(t, tg.Emulator.HangOperations(emulator.MethodTPUNodesCreate, false)) },
				Config:      tg.Config(strings.Replace(body, `"1s"`, `"5m"`, 1)),
				ExpectError: regexp.MustCompile(`(?s)TPU VM Name Already in Use.*owner id of another resource instance.*import it with the id`),
			},
			{
				Config: tg.Config(strings.Replace(body, `"1s"`, `"5m"`, 1) + fmt.Sprintf(`
import {
  to = accel_tpu_vm.test
  id = %q
}
`, id)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels").AtMapKey("accel-managed"), ownerID),
					expectNodes{tg: tg, name: name, ids: []string{id}},
					// Created once, imported, never created again.
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 1, emulator.MethodTPUNodesDelete: 0}),
				},
			},
		},
	})
}

// TestAccTPUVM_foreignVMNeverTouched: a second resource naming this
// resource's VM (as a second state would) is refused with the owner id;
// when the VM is deleted outside Terraform and a VM of the same name is
// created by someone else, the refresh drops it, the create refuses it, and
// no destroy deletes it.
func TestAccTPUVM_foreignVMNeverTouched(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates and deletes TPU VMs behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("own")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	body := fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
}
`, name)
	second := strings.Replace(body, `"accel_tpu_vm" "test"`, `"accel_tpu_vm" "second"`, 1)
	foreign := func() {
		ctx := context.Background()
		mustNoErr(t, tg.Emulator.DeleteNode(id))
		svc, err := tpu.NewService(ctx, option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
		mustNoErr(t, err)
		_, err = svc.Projects.Locations.Nodes.Create("projects/"+tg.Project+"/locations/"+tg.Zone,
			&tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId(name).Context(ctx).Do()
		mustNoErr(t, err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			nodes, err := nodesNamed(tg, name)
			if err != nil {
				return err
			}
			if len(nodes) != 1 || nodes[0].Labels["accel-managed"] != "" {
				return fmt.Errorf("the foreign TPU VM %s was deleted or changed: %v", name, nodes)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: tg.Config(body)},
			{
				Config:      tg.Config(body + second),
				ExpectError: regexp.MustCompile(`(?s)TPU VM Name Already in Use.*owner id of another resource instance`),
			},
			{
				PreConfig:   foreign,
				Config:      tg.Config(body),
				ExpectError: regexp.MustCompile(`(?s)TPU VM Name Already in Use.*has no accel-managed label`),
			},
		},
	})
}

func TestAccTPUVM_foreignNameTaken(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates a TPU VM behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("taken")
	ctx := context.Background()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	_, err = svc.Projects.Locations.Nodes.Create("projects/"+tg.Project+"/locations/"+tg.Zone,
		&tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId(name).Context(ctx).Do()
	mustNoErr(t, err)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
}
`, name)),
				ExpectError: regexp.MustCompile(`(?s)TPU VM Name Already in Use.*has no accel-managed label`),
			},
		},
	})
	if got := tg.Emulator.Counters()[emulator.MethodTPUNodesCreate]; got != 1 {
		t.Errorf("nodes.create called %d times, want 1 (only the foreign VM)", got)
	}
}

func TestAccTPUVM_validationErrors(t *testing.T) {
	tg := acctest.New(t)
	t.Cleanup(func() { tg.AssertNoCalls(t, emulator.MethodTPUNodesCreate) })
	cases := map[string]struct {
		name string
		body string
		want string
		// emulatorZones: the case relies on the emulator's zones.
		emulatorZones bool
	}{
		"TPU7x through a Cloud TPU API that does not offer it in the zone": {
			body: `accelerator_type = "tpu7x-8"
  api   = "cloud_tpu"
  zones = ["us-central1-c"]`,
			want:          `(?s)Zone Does Not Offer Accelerator Type.*tpu7x-8`,
			emulatorZones: true,
		},
		"empty accelerator type": {
			body: `accelerator_type = ""
  zones = ["us-central1-b"]`,
			want: `(?s)Empty Value.*accelerator_type is "".*Set a Cloud TPU accelerator type.*"v6e-4"`,
		},
		"unknown accelerator type": {
			body: `accelerator_type = "v6e-3"
  zones = ["us-central1-b"]`,
			want: `(?s)accelerator_type.*v6e-3`,
		},
		"runtime of another generation": {
			body: `accelerator_type = "v5litepod-4"
  runtime_version  = "v2-alpha-tpuv6e"`,
			want: `(?s)Runtime Version Does Not Support Generation.*runtime_version`,
		},
		"TensorFlow on a base image": {
			body: `accelerator_type = "v6e-8"
  zones            = ["us-central1-b"]
  framework        = "tensorflow"
  runtime_version  = "v2-alpha-tpuv6e"`,
			want: `TensorFlow Needs a TensorFlow Runtime`,
		},
		"zone without the generation": {
			body: `accelerator_type = "v6e-8"
  zones            = ["us-central1-b", "us-west4-a"]`,
			want: `(?s)zones.*us-west4-a.*v6e`,
		},
		"provider zone without the generation": {
			body:          `accelerator_type = "v4-8"`,
			want:          `(?s)us-central1-a.*v4`,
			emulatorZones: true,
		},
		"zonal disk outside the zones": {
			body: `accelerator_type = "v5litepod-4"
  zones            = ["us-central1-a", "us-south1-a"]
  data_disks {
    source_disk = "projects/p/zones/us-central1-a/disks/data"
  }`,
			want: `(?s)Data Disk in Another Zone.*source_disk = "projects/p/zones/us-central1-a/disks/data".*also\s+lists\s+us-south1-a`,
		},
		"32 data disks on v6e": {
			body: `accelerator_type = "v6e-8"
  api              = "cloud_tpu"
  zones            = ["us-central1-b"]
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d0"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d1"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d2"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d3"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d4"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d5"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d6"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d7"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d8"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d9"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d10"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d11"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d12"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d13"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d14"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d15"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d16"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d17"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d18"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d19"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d20"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d21"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d22"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d23"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d24"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d25"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d26"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d27"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d28"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d29"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d30"
  }
  data_disks {
    source_disk = "projects/p/zones/us-central1-b/disks/d31"
  }`,
			want: `(?s)Too Many Data Disks.*v6e\s+TPU\s+VM\s+has\s+at\s+most\s+32\s+disks`,
		},
		"CIDR block smaller than a /29": {
			body: `accelerator_type = "v5litepod-4"
  cidr_block       = "10.0.0.0/30"`,
			want: `(?s)Invalid CIDR Block.*"10.0.0.0/30" is smaller than a /29`,
		},
		"invalid name": {
			name: "Bad_Name",
			body: `accelerator_type = "v5litepod-4"`,
			want: `(?s)name.*lowercase letters`,
		},
		"multi-host TPU7x through Compute Engine": {
			body: `accelerator_type = "tpu7x-16"
  zones            = ["us-central1-c"]`,
			want: `(?s)Multi-Host Slice Not Supported on Compute Engine.*"tpu7x-16".*tpu7x-8.*accel_fallback_nodepools`,
		},
		"v5e through Compute Engine": {
			body: `accelerator_type = "v5litepod-4"
  api              = "compute_engine"`,
			want: `(?s)TPU Generation Not Offered on Compute Engine.*"v5litepod-4".*api = "cloud_tpu"`,
		},
		"Cloud TPU runtime as a Compute Engine boot image": {
			body: `accelerator_type = "tpu7x-8"
  zones            = ["us-central1-c"]
  runtime_version  = "v2-alpha-tpu7-ubuntu2404"`,
			want: `(?s)runtime_version.*"v2-alpha-tpu7-ubuntu2404".*ubuntu-accel-2404-amd64-tpu-tpu7x`,
		},
		"CIDR block through Compute Engine": {
			body: `accelerator_type = "tpu7x-8"
  zones            = ["us-central1-c"]
  cidr_block       = "10.0.0.0/29"`,
			want: `(?s)Not Available Through Compute Engine.*cidr_block "10.0.0.0/29".*api = "cloud_tpu"`,
		},
		"queued Spot through Compute Engine": {
			body: `accelerator_type = "v6e-8"
  api              = "compute_engine"
  zones            = ["us-central1-b"]
  capacity {
    mode = "spot"
  }`,
			want: `(?s)Not Available Through Compute Engine.*mode "spot".*scheduling_config\s+\{\s+spot\s+=\s+true\s+\}`,
		},
		"flex-start through Compute Engine": {
			body: `accelerator_type = "v6e-8"
  api              = "compute_engine"
  zones            = ["us-central1-b"]
  capacity {
    mode = "flex-start"
  }`,
			want: `(?s)Not Available Through Compute Engine.*mode "flex-start".*set\s+api\s+=\s+"cloud_tpu".*flex_start\s+=\s+true`,
		},
		"reserved capacity through Compute Engine": {
			body: `accelerator_type = "v6e-8"
  api              = "compute_engine"
  zones            = ["us-central1-b"]
  capacity {
    mode = "reserved"
  }`,
			want: `(?s)Not Available Through Compute Engine.*mode "reserved".*consumes\s+a\s+matching\s+automatically\s+consumed\s+reservation`,
		},
		"multislice through Compute Engine": {
			body: `accelerator_type = "v6e-8"
  api              = "compute_engine"
  zones            = ["us-central1-b"]
  slice_count      = 2`,
			want: `(?s)Not Available Through Compute Engine.*slice_count 2`,
		},
		"reserved through Compute Engine": {
			body: `accelerator_type = "tpu7x-8"
  zones            = ["us-central1-c"]
  scheduling_config {
    reserved = true
  }`,
			want: `(?s)Not Available Through Compute Engine.*reserved is a Cloud TPU API setting`,
		},
		"unknown api": {
			body: `accelerator_type = "v6e-8"
  api              = "gke"`,
			want: `(?s)api.*"cloud_tpu".*"compute_engine"`,
		},
		"reserved label key": {
			body: `accelerator_type = "v5litepod-4"
  labels           = { accel-managed = "me" }`,
			want: `(?s)labels.*accel-managed`,
		},
	}
	anywhere, onEmulator := map[string]acctest.PlanErrorCase{}, map[string]acctest.PlanErrorCase{}
	for desc, tc := range cases {
		name := tc.name
		if name == "" {
			name = "tf-acc-invalid"
		}
		c := acctest.PlanErrorCase{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name = %q
  %s
}
`, name, tc.body)),
			Want: regexp.MustCompile(tc.want),
		}
		if tc.emulatorZones {
			onEmulator[desc] = c
		} else {
			anywhere[desc] = c
		}
	}
	t.Run("anywhere", func(t *testing.T) {
		resource.ParallelTest(t, acctest.PlanErrorTest(t, anywhere))
	})
	t.Run("emulator zones", func(t *testing.T) {
		tg.RequireEmulatorFor(t, "in two cases relies on the emulator's zones: its provider zone us-central1-a, and us-central1-c offering no tpu7x-8")
		resource.ParallelTest(t, acctest.PlanErrorTest(t, onEmulator))
	})
}

// TestAccTPUVM_warnMode: validation = "warn" turns the live error for a
// zone whose Cloud TPU API does not offer the type into a warning, shown once, and
// lets the configuration through to the plan; without it the same finding
// is an error. The real CLI's `plan -json` shows the diagnostics
// (terraform-plugin-testing shows errors only).
func TestAccTPUVM_warnMode(t *testing.T) {
	tg := acctest.New(t)
	const summary = "Zone Does Not Offer Accelerator Type"
	cfg := func(validation string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-warn"
  accelerator_type = "v6e-8"
  zones            = ["us-central1-b", "asia-east1-c"]
%s}
`, validation))
	}
	warn := cfg("  validation       = \"warn\"\n")
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	for _, tc := range []struct {
		config, severity string
		wantFail         bool
	}{
		{config: warn, severity: "warning"},
		{config: cfg(""), severity: "error", wantFail: true},
	} {
		acctest.ExpectPlanOnce(t, env, tf, tc.config, tc.wantFail, acctest.Want{Summary: summary},
			acctest.Want{Summary: summary, Severity: tc.severity, Detail: []string{"asia-east1-c"}})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:             warn,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
}

// TestAccTPUVM_offlinePlan plans with no credentials, no endpoint and no
// provider project or zone: everything the plan shows comes from the
// configuration and the catalog.
func TestAccTPUVM_offlinePlan(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.OfflineProviderConfig + `
resource "accel_tpu_vm" "test" {
  name              = "tf-acc-offline"
  project           = "my-project"
  zones             = ["us-east5-a"]
  accelerator_type  = "v6e-8"
  framework         = "tensorflow"
  framework_version = "2.18.0"
}
`,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("tpu-vm-tf-2.18.0-pjrt")),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact("us-east5-a")),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("generation"), knownvalue.StringExact("v6e")),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("chips"), knownvalue.Int64Exact(8)),
					},
				},
			},
			{
				Config: acctest.OfflineProviderConfig + `
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-offline"
  project          = "my-project"
  zones            = ["us-east5-a"]
  accelerator_type = "v6e-8"
  runtime_version  = "v2-alpha-tpuv5-lite"
}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Runtime Version Does Not Support Generation`),
			},
		},
	})
}

// TestAccTPUVM_importCreatedElsewhere imports a VM created outside
// Terraform with the API's defaults (the network the API reports as a self
// link) into a configuration that leaves the network to the API: the import
// plans no change.
func TestAccTPUVM_importCreatedElsewhere(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates a TPU VM behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("elsewhere")
	ctx := context.Background()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	_, err = svc.Projects.Locations.Nodes.Create("projects/"+tg.Project+"/locations/"+tg.Zone,
		&tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite", Labels: map[string]string{"team": "ml"}}).
		NodeId(name).Context(ctx).Do()
	mustNoErr(t, err)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  labels           = { team = "ml" }
}
`, name)),
			ResourceName:    address,
			ImportState:     true,
			ImportStateId:   tg.Zone + "/" + name,
			ImportStateKind: resource.ImportBlockWithID,
		}},
	})
}

// TestAccTPUVM_zonesUnknownAtPlan: zones known only after apply (from
// another resource) with the VM's zone still listed plans no replacement and
// keeps the VM; a list that drops the VM's zone stops that apply before any
// change, and the next plan shows the replacement.
func TestAccTPUVM_zonesUnknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates TPU VMs in a second zone, us-south1-a, which the emulator offers for certain")
	name := acctest.RandomName("zu")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	const other = "us-south1-a"
	config := func(zones ...string) string {
		q := make([]string, len(zones))
		for i, z := range zones {
			q[i] = fmt.Sprintf("%q", z)
		}
		return tg.Config(fmt.Sprintf(`
resource "terraform_data" "zones" {
  input = [%[2]s]
}

resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  zones            = terraform_data.zones.output
}
`, name, strings.Join(q, ", ")))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{Config: config(tg.Zone)},
			{
				// The same zone, known only after apply: no replacement.
				Config: config(tg.Zone, other),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					expectNodes{tg: tg, name: name, ids: []string{id}},
				},
			},
			{
				// Unknown at plan and without the VM's zone: Terraform stops
				// the apply when the plan it makes at apply time asks for the
				// replacement, before any change.
				Config:      config(other),
				ExpectError: regexp.MustCompile(`planned action from Update to DeleteThenCreate`),
				Check: func(*terraform.State) error {
					return expectNodesNow(tg, name, id)
				},
			},
			{
				Config: config(other),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectNodes{tg: tg, name: name, ids: []string{gcp.NodeID(tg.Project, other, name)}},
				},
			},
		},
	})
}

// TestAccTPUVM_runtimeOfGoogleSamples: v2-tpuv5-litepod, the runtime
// Google's own samples create v5e with (not on the runtimes page), plans
// without an error and creates the VM; the catalog's default for v5e stays
// v2-alpha-tpuv5-lite.
func TestAccTPUVM_runtimeOfGoogleSamples(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates a v5e VM with the samples' runtime in the emulator's default zone")
	name := acctest.RandomName("sample")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = ["us-central1-a"]
  accelerator_type = "v5litepod-4"
  runtime_version  = "v2-tpuv5-litepod"
}
`, name)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact("v2-tpuv5-litepod")),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
			},
		}},
	})
}

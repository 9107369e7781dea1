// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestAccTPUVM_queuedSpot covers a Spot VM served at once: it is created
// through a queued resource, imports with its capacity block, and a
// preemption shows as drift that the next apply replaces.
func TestAccTPUVM_queuedSpot(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "preempts the Spot VM")
	name := acctest.RandomName("spot")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	qrName := "projects/" + tg.Project + "/locations/" + tg.Zone + "/queuedResources/" + name
	config := queuedConfig(tg, name, `    mode = "spot"`, "")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource"), knownvalue.StringExact(qrName)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config"), knownvalue.Null()),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectNodes{tg: tg, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 0, emulator.MethodTPUQueuedResourcesCreate: 1}),
				},
			},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     id,
				ImportStateVerify: true,
			},
			{
				Config:             config,
				Check:              func(*terraform.State) error { return tg.Emulator.PreemptNode(id) },
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectNodes{tg: tg, name: name, ids: []string{id}},
				},
			},
		},
	})
}

// TestAccTPUVM_queuedReservedAfterWait covers a VM in a named reservation
// that has no room when the request is made: the apply waits until the
// reservation has room (released by the emulator after the provider's
// third read of the request, whatever the machine's speed) and finishes.
func TestAccTPUVM_queuedReservedAfterWait(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "grants capacity after a given number of calls")
	name := acctest.RandomName("rsv")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				tg.Emulator.SetCapacity(tg.Zone, "reservations/res-"+name, 0)
				mustNoErr(t, tg.Emulator.SetCapacityAfterCalls(tg.Zone, "reservations/res-"+name, 1, emulator.MethodTPUQueuedResourcesGet, 3))
			},
			Config: queuedConfig(tg, name, fmt.Sprintf(`    mode        = "reserved"
    reservation = "res-%s"`, name), ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
				expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
				tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1}),
			},
		}},
	})
}

// TestAccTPUVM_queuedTimeoutThenReapply covers a request still waiting at
// the create timeout: it is recorded (no error, no taint), the next plan
// updates it in place, and once capacity arrives the next apply finishes it
// without a second request or a second VM.
func TestAccTPUVM_queuedTimeoutThenReapply(t *testing.T) {
	tg := acctest.New(t, func(sc *emulator.Scenario) {
		sc.Capacity = append(sc.Capacity, emulator.Capacity{Zone: "us-central1-a", Type: "v5litepod-4", Count: 0})
	})
	tg.RequireEmulatorFor(t, "holds capacity at zero so that the queued request times out")
	name := acctest.RandomName("wait")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	config := queuedConfig(tg, name, `    mode     = "spot"
    max_wait = "24h"`, `  timeouts {
    create = "1s"
  }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("WAITING_FOR_RESOURCES")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					expectQueued{tg: tg, name: name, states: []string{"WAITING_FOR_RESOURCES"}},
					expectNodes{tg: tg, name: name},
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
			},
			{
				PreConfig: func() { tg.Emulator.SetCapacity(tg.Zone, "v5litepod-4", 1) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectNodes{tg: tg, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1, emulator.MethodTPUNodesCreate: 0}),
				},
			},
		},
	})
}

// TestAccTPUVM_queuedFlexStart covers flex-start: created through v2alpha1
// with its run duration, imported with it.
func TestAccTPUVM_queuedFlexStart(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("flex")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: queuedConfig(tg, name, `    mode             = "flex-start"
    max_run_duration = "2h"`, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
				},
			},
			{
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     gcp.NodeID(tg.Project, tg.Zone, name),
				ImportStateVerify: true,
			},
		},
	})
}

// TestAccTPUVM_capacityValidation covers the plan-time checks of the
// capacity block, each on its attribute.
func TestAccTPUVM_capacityValidation(t *testing.T) {
	tg := acctest.New(t)
	steps := map[string]acctest.PlanErrorCase{}
	for _, tc := range []struct {
		name, capacity, extra, want string
	}{
		{"flex without run", `    mode = "flex-start"`, "", `(?s)Missing Max Run Duration.*max_run_duration`},
		{"flex too long", `    mode = "flex-start"
    max_run_duration = "200h"`, "", `(?s)Max Run Duration Too Long.*"200h".*168 hours`},
		{"reserved without name", `    mode = "reserved"`, "", `(?s)Missing Reservation`},
		{"wait on on-demand", `    max_wait = "1h"`, "", `(?s)Max Wait Needs a Queued Mode`},
		{"bad wait", `    mode = "spot"
    max_wait = "soon"`, "", `(?s)Invalid Duration.*"soon"`},
		{"scheduling config with spot", `    mode = "spot"`, `  scheduling_config {
    spot = true
  }`, `(?s)Scheduling Config With a Queued Capacity Mode`},
	} {
		steps[tc.name] = acctest.PlanErrorCase{Config: queuedConfig(tg, "bad", tc.capacity, tc.extra), Want: regexp.MustCompile(tc.want)}
	}
	resource.ParallelTest(t, acctest.PlanErrorTest(t, steps))
}

// TestAccTPUVM_queuedEditWhileWaiting: labels, metadata and description
// edited while the VM's queued request still waits for capacity are
// recorded as planned (no "inconsistent result"), and applied to the VM by
// the apply during which capacity arrives: a label dropped meanwhile is
// removed, the new values are set, and the next plan is empty.
func TestAccTPUVM_queuedEditWhileWaiting(t *testing.T) {
	tg := acctest.New(t, func(sc *emulator.Scenario) {
		sc.Capacity = append(sc.Capacity, emulator.Capacity{Zone: "us-central1-a", Type: "v5litepod-4", Count: 0})
	})
	tg.RequireEmulatorFor(t, "holds capacity at zero so that the queued request waits")
	name := acctest.RandomName("qedit")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	config := func(labels, role, description string) string {
		return queuedConfig(tg, name, `    mode     = "spot"
    max_wait = "24h"`, fmt.Sprintf(`  labels      = %s
  metadata    = { role = %q }
  description = %q
  timeouts {
    create = "1s"
  }`, labels, role, description))
	}
	first := config(`{ team = "a", old = "x" }`, "a", "first")
	second := config(`{ team = "b" }`, "b", "second")
	waiting := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("WAITING_FOR_RESOURCES")),
		expectQueued{tg: tg, name: name, states: []string{"WAITING_FOR_RESOURCES"}},
		expectNodes{tg: tg, name: name},
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{
			{Config: first, ExpectNonEmptyPlan: true, ConfigStateChecks: waiting},
			{
				Config:             second,
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: append(slices.Clone(waiting),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("b"),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("description"), knownvalue.StringExact("second")),
				),
			},
			{
				PreConfig: func() { tg.Emulator.SetCapacity(tg.Zone, "v5litepod-4", 1) },
				Config:    second,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					expectNodes{tg: tg, name: name, ids: []string{id}},
					acctest.CheckFunc(func() error {
						for _, n := range tg.Emulator.Nodes() {
							if n.Name != id {
								continue
							}
							if n.Labels["team"] != "b" || n.Labels["old"] != "" || n.Metadata["role"] != "b" || n.Description != "second" {
								return fmt.Errorf("the VM has labels %v, metadata %v, description %q; want team = b only, role = b, second",
									n.Labels, n.Metadata, n.Description)
							}
							return nil
						}
						return fmt.Errorf("no node %s", id)
					}),
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1}),
				},
			},
		},
	})
}

// TestAccTPUVM_flexStartOffer: the flex-start page's limits, offline. v5p
// is an error on capacity.mode ("You can only request Flex-start TPU v6e
// and v5e"); v6e in a zone the page does not list is a warning on that
// zone naming the listed ones, and the plan goes ahead; a listed zone
// plans clean.
func TestAccTPUVM_flexStartOffer(t *testing.T) {
	vm := func(acc, zone string) string {
		return acctest.OfflineProviderConfig + fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  project          = "p"
  name             = "flex"
  accelerator_type = %q
  zones            = [%q]
  capacity {
    mode             = "flex-start"
    max_run_duration = "2h"
  }
}
`, acc, zone)
	}
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	for _, tc := range []struct {
		acc, zone, want, severity, names string
	}{
		{"v5p-8", "us-east5-a", "Flex-Start Not Offered for This Generation", "error", "v5e and v6e only, not v5p"},
		{"v6e-8", "us-central1-b", "Zone Not Listed for Flex-Start", "warning", "asia-northeast1-b and us-east5-a"},
		{"v6e-8", "asia-northeast1-b", "", "", ""},
	} {
		diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, vm(tc.acc, tc.zone))
		if (err != nil) != (tc.severity == "error") {
			t.Fatalf("%s in %s: plan error %v\n%s", tc.acc, tc.zone, err, stdout)
		}
		var found []acctest.Diagnostic
		for _, d := range diags {
			if strings.Contains(d.Summary, "Flex-Start") {
				found = append(found, d)
			}
		}
		if tc.want == "" {
			if len(found) > 0 {
				t.Errorf("%s in %s: want no flex-start diagnostic, got %+v", tc.acc, tc.zone, found)
			}
			continue
		}
		if len(found) != 1 || found[0].Summary != tc.want || found[0].Severity != tc.severity || !strings.Contains(found[0].Detail, tc.names) {
			t.Errorf("%s in %s: want one %s %q, got %+v", tc.acc, tc.zone, tc.severity, tc.want, found)
		}
	}
}

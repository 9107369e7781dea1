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

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// expectSlices is a state check on the emulator: the nodes whose name
// starts with name+"-" are exactly ids, each carrying label key=value when
// key is set.
type expectSlices struct {
	tg         *acctest.Target
	name       string
	ids        []string
	key, value string
}

func (e expectSlices) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	nodes, err := slicesNamed(e.tg, e.name)
	if err != nil {
		resp.Error = err
		return
	}
	var got []string
	for _, n := range nodes {
		got = append(got, n.Name)
		if e.key != "" && n.Labels[e.key] != e.value {
			resp.Error = fmt.Errorf("node %s: label %s = %q, want %q", n.Name, e.key, n.Labels[e.key], e.value)
			return
		}
	}
	if strings.Join(got, ",") != strings.Join(e.ids, ",") {
		resp.Error = fmt.Errorf("slices of %s: got %v, want %v", e.name, got, e.ids)
	}
}

// checkSlicesGone asserts that nothing of the multislice VM name is left.
func checkSlicesGone(tg *acctest.Target, name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		nodes, err := slicesNamed(tg, name)
		if err != nil {
			return err
		}
		if len(nodes) > 0 {
			return fmt.Errorf("slice %s is left behind", nodes[0].Name)
		}
		return checkQueuedGone(tg, name)(s)
	}
}

// TestAccTPUVM_multislice covers two Spot slices in one queued resource:
// created together, imported by the VM's name, labels updated on every
// slice in place, the preemption of one slice seen as drift that replaces
// the whole VM, and destroy removing the queued resource and both slices.
func TestAccTPUVM_multislice(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "preempts a slice")
	name := acctest.RandomName("ms")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	slices := []string{id + "-0", id + "-1"}
	config := func(labels string) string {
		return queuedConfig(tg, name, `    mode = "spot"`, "  slice_count = 2\n"+labels)
	}
	sliceList := knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(slices[0]), knownvalue.StringExact(slices[1])})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkSlicesGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue(address, tfjsonpath.New("slice_nodes"), sliceList)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("slice_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("slice_nodes"), sliceList),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints"), knownvalue.ListSizeExact(2)),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectSlices{tg: tg, name: name, ids: slices},
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
				Config: config("  labels = { team = \"infra\" }\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectSlices{tg: tg, name: name, ids: slices, key: "team", value: "infra"},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1}),
				},
			},
			{
				Config:             config("  labels = { team = \"infra\" }\n"),
				Check:              func(*terraform.State) error { return tg.Emulator.PreemptNode(slices[1]) },
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
			},
			{
				Config: config("  labels = { team = \"infra\" }\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectSlices{tg: tg, name: name, ids: slices, key: "team", value: "infra"},
				},
			},
		},
	})
}

// TestAccTPUVM_multisliceOnDemand covers a multislice without a capacity
// block: created through a queued resource without a tier.
func TestAccTPUVM_multisliceOnDemand(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("mso")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkSlicesGone(tg, name),
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  accelerator_type = "v5litepod-4"
  slice_count      = 3
}
`, name)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource"),
					knownvalue.StringExact("projects/"+tg.Project+"/locations/"+tg.Zone+"/queuedResources/"+name)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("capacity"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config"), knownvalue.Null()),
				expectSlices{tg: tg, name: name, ids: []string{id + "-0", id + "-1", id + "-2"}},
			},
		}},
	})
}

// TestAccTPUVM_multisliceValidation covers the plan-time checks of
// slice_count, on its attribute.
func TestAccTPUVM_multisliceValidation(t *testing.T) {
	tg := acctest.New(t)
	for _, tc := range []struct{ name, accel, count, want string }{
		{"v2 multislice", "v2-8", "2", `(?s)Multislice Not Offered for This Generation.*slice_count += 2.*v4, v5e,\s+v5p, v6e, not v2`},
		{"zero slices", "v5litepod-4", "0", `(?s)Invalid Slice Count.*slice_count += 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = "bad"
  accelerator_type = %q
  slice_count      = %s
}
`, tc.accel, tc.count)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// TestAccTPUVM_queuedImportWaiting covers the import of a request that is
// still waiting for capacity (forgotten by its state first): the import
// reads it with its capacity block ("2h" as a configuration spells it,
// and "120m" planned as an in-place spelling change, not a replacement),
// the apply after it waits on the same request, and once capacity arrives
// the next apply finishes it: one request, no second VM.
func TestAccTPUVM_queuedImportWaiting(t *testing.T) {
	tg := acctest.New(t, func(sc *emulator.Scenario) {
		sc.Capacity = append(sc.Capacity, emulator.Capacity{Zone: "us-central1-a", Type: "v5litepod-4", Count: 0})
	})
	tg.RequireEmulatorFor(t, "holds capacity at zero so that the queued request waits")
	name := acctest.RandomName("imw")
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	timeouts := "  timeouts {\n    create = \"1s\"\n  }\n"
	config := queuedConfig(tg, name, "    mode     = \"spot\"\n    max_wait = \"2h\"", timeouts)
	reconfig := queuedConfig(tg, name, "    mode     = \"spot\"\n    max_wait = \"120m\"", timeouts)
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", address, id)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkQueuedGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					expectQueued{tg: tg, name: name, states: []string{"WAITING_FOR_RESOURCES"}},
				},
			},
			{
				Config: tg.Config(fmt.Sprintf("\nremoved {\n  from = %s\n  lifecycle {\n    destroy = false\n  }\n}\n", address)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectQueued{tg: tg, name: name, states: []string{"WAITING_FOR_RESOURCES"}},
				},
			},
			{
				Config:             config + importBlock,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("capacity").AtMapKey("max_wait"), knownvalue.StringExact("2h")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("WAITING_FOR_RESOURCES")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("capacity").AtMapKey("mode"), knownvalue.StringExact("spot")),
					expectQueued{tg: tg, name: name, states: []string{"WAITING_FOR_RESOURCES"}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1}),
				},
			},
			{
				PreConfig: func() { tg.Emulator.SetCapacity(tg.Zone, "v5litepod-4", 1) },
				Config:    reconfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource_state"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("READY")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("capacity").AtMapKey("max_wait"), knownvalue.StringExact("120m")),
					expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
					expectNodes{tg: tg, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 1, emulator.MethodTPUNodesCreate: 0}),
				},
			},
		},
	})
}

// TestAccTPUVM_multisliceZoneFallback: a multislice request that fails in
// the first zone of zones (the service gives up on it) is deleted, and the
// whole multislice is requested, and created, in the next zone; nothing is
// left in the first.
func TestAccTPUVM_multisliceZoneFallback(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "fails the queued requests of a zone")
	name := acctest.RandomName("msfb")
	zones := []string{tg.Zone, "us-south1-a"}
	tg.Emulator.FailQueuedIn(zones[0], "There is no capacity for this request in the zone.")
	id := gcp.NodeID(tg.Project, zones[1], name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkSlicesGone(tg, name),
		Steps: []resource.TestStep{{
			Config: queuedConfig(tg, name, `    mode = "spot"`, fmt.Sprintf("  slice_count = 2\n  zones = [%s]\n", quoted(zones))),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(zones[1])),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("queued_resource"),
					knownvalue.StringExact("projects/"+tg.Project+"/locations/"+zones[1]+"/queuedResources/"+name)),
				// One request left, ACTIVE: the failed one was deleted.
				expectQueued{tg: tg, name: name, states: []string{"ACTIVE"}},
				expectSlices{tg: tg, name: name, ids: []string{id + "-0", id + "-1"}},
				tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUQueuedResourcesCreate: 2}),
			},
		}},
	})
}

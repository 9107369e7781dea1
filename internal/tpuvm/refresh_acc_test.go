// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestAccTPUVM_refreshListsEachZone: Terraform refreshes four VMs in two
// zones from one nodes.list of each zone, with no nodes.get; a VM deleted
// behind Terraform's back is missing from its zone's list, read with its own
// get, found gone (404) and planned for create again.
func TestAccTPUVM_refreshListsEachZone(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "counts the emulator's calls")
	prefix := acctest.RandomName("list")
	vms := []struct{ accel, zone string }{
		{"v5litepod-4", "us-central1-a"}, {"v5litepod-4", "us-central1-a"}, {"v5litepod-4", "us-central1-a"}, {"v6e-4", "us-central1-b"},
	}
	var hcl string
	for i, vm := range vms {
		hcl += fmt.Sprintf("\nresource \"accel_tpu_vm\" \"vm%d\" {\n  name             = \"%s-%d\"\n  accelerator_type = %q\n  zones            = [%q]\n}\n",
			i, prefix, i, vm.accel, vm.zone)
	}
	cfg := tg.Config(hcl)
	gone := gcp.NodeID(tg.Project, vms[1].zone, fmt.Sprintf("%s-1", prefix))
	calls := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			for i := range vms {
				if err := checkGone(tg, fmt.Sprintf("%s-%d", prefix, i))(s); err != nil {
					return err
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:    calls.Snapshot,
				RefreshState: true,
			},
			{
				PreConfig: func() {
					gets, _ := calls.Since(emulator.MethodTPUNodesGet)
					lists, _ := calls.Since(emulator.MethodTPUNodesList)
					if gets != 0 || lists == 0 || lists%2 != 0 {
						t.Errorf("the refresh of 4 VMs in 2 zones made %d nodes.get and %d nodes.list, want no get and one list of each zone per refresh", gets, lists)
					}
					clients := tg.Clients()
					nodes, err := clients.TPUNodes(t.Context())
					if err == nil {
						op, derr := nodes.Delete(t.Context(), gone)
						if err = derr; err == nil {
							_, err = nodes.Wait(t.Context(), op)
						}
					}
					if err != nil {
						t.Fatalf("deleting %s behind Terraform's back: %v", gone, err)
					}
					calls.Snapshot()
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("accel_tpu_vm.vm1", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("accel_tpu_vm.vm0", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("accel_tpu_vm.vm3", plancheck.ResourceActionNoop),
						calls.AtLeast(emulator.MethodTPUNodesGet, 1),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

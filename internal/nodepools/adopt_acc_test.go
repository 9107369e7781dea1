// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// leftoverPool is the L4 pool an apply of gpuTier(name, zone,
// "g2-standard-4") under ComputeClass class creates, as an apply killed
// right after its create request leaves it: not in any state, still
// provisioning. owned adds the ownership resource label the provider sets.
func leftoverPool(name, zone, class string, owned bool) *container.NodePool {
	np := &container.NodePool{
		Name:             name,
		InitialNodeCount: 1,
		Locations:        []string{zone},
		Config: &container.NodeConfig{
			MachineType:  "g2-standard-4",
			Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-l4", AcceleratorCount: 1}},
			Labels:       map[string]string{"cloud.google.com/compute-class": class},
		},
	}
	if owned {
		np.Config.ResourceLabels = map[string]string{"accel-managed": "terraform"}
	}
	return np
}

// createBehindTerraform starts a pool create through the emulator's GKE API.
func createBehindTerraform(tg *acctest.Target, np *container.NodePool) error {
	svc, err := container.NewService(context.Background(), option.WithEndpoint(tg.Emulator.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		return err
	}
	_, err = svc.Projects.Locations.Clusters.NodePools.Create(tg.Cluster, &container.CreateNodePoolRequest{NodePool: np}).Do()
	return err
}

// TestAccFallbackNodePools_interruptedApply: a pool that an apply killed
// after its create request left behind (never recorded in state) is adopted
// by the next apply, not created twice, and brought to the tier's settings;
// a pool of the same name that this provider did not create is refused, is
// not recorded, and so is not deleted by a destroy.
func TestAccFallbackNodePools_interruptedApply(t *testing.T) {
	t.Run("own pool is adopted", func(t *testing.T) {
		tg := newTarget(t, func(sc *emulator.Scenario) { sc.Durations.PoolCreate = 300 * time.Millisecond })
		tg.RequireEmulator(t)
		_, gpuZone := zones(tg)
		prefix := acctest.RandomName("ad")
		name := prefix + "-l4"
		calls := &callCounter{srv: tg.Emulator}
		cfg := config(tg, prefix, "", gpuTier(name, gpuZone, "g2-standard-4"))
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, name),
			Steps: []resource.TestStep{
				{
					PreConfig: func() {
						if err := createBehindTerraform(tg, leftoverPool(name, gpuZone, prefix, true)); err != nil {
							t.Fatal(err)
						}
						calls.snapshot()
					},
					Config: cfg,
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: []string{name}},
						// One create, answered ALREADY_EXISTS; one update for the taints.
						calls.expect(map[string]int64{createCalls: 1, emulator.MethodNodePoolsUpdate: 1}),
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
						poolCheck{tg: tg, name: name, check: func(p *container.NodePool) error {
							if !hasTaint(p, "cloud.google.com/compute-class", prefix, "NO_SCHEDULE") {
								return fmt.Errorf("the adopted pool lacks the ComputeClass taint: %+v", p.Config.Taints)
							}
							return nil
						}},
					},
				},
				{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			},
		})
	})
	t.Run("foreign pool is refused", func(t *testing.T) {
		tg := newTarget(t)
		tg.RequireEmulator(t)
		_, gpuZone := zones(tg)
		prefix := acctest.RandomName("fp")
		name := prefix + "-l4"
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy: func(*terraform.State) error {
				// The foreign pool outlives the destroy: it was never in state.
				got, err := pools(tg)
				if err != nil {
					return err
				}
				if got[name] == nil {
					return fmt.Errorf("node pool %s, not created by Terraform, was deleted", name)
				}
				return nil
			},
			Steps: []resource.TestStep{{
				PreConfig: func() {
					if err := createBehindTerraform(tg, leftoverPool(name, gpuZone, prefix, false)); err != nil {
						t.Fatal(err)
					}
				},
				Config:      config(tg, prefix, "", gpuTier(name, gpuZone, "g2-standard-4")),
				ExpectError: regexp.MustCompile(`(?s)Node Pool Already Exists.*not created by this provider`),
			}},
		})
	})
}

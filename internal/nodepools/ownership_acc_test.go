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
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// replaceBehindTerraform deletes pool name at once, as someone deleting it
// outside Terraform, and creates a pool of the same name that this provider
// did not create.
func replaceBehindTerraform(tg *acctest.Target, name, zone string) error {
	if err := tg.Emulator.DeleteNodePool(poolID(tg, name)); err != nil {
		return err
	}
	return createBehindTerraform(tg, leftoverPool(name, zone, "", ""))
}

// foreignSurvives is a CheckDestroy: the pool name, which the resource did
// not create, still exists after the destroy.
func foreignSurvives(tg *acctest.Target, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := pools(tg)
		if err != nil {
			return err
		}
		if got[name] == nil {
			return fmt.Errorf("node pool %s, not created by this resource, was deleted", name)
		}
		if got[name].Config.ResourceLabels["accel-managed"] != "" {
			return fmt.Errorf("node pool %s, not created by this resource, was labelled: %v", name, got[name].Config.ResourceLabels)
		}
		return nil
	}
}

// captureOwner is a state check that stores the resource's owner_id.
type captureOwner struct{ into *string }

func (c captureOwner) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == address {
			if v, ok := r.AttributeValues["owner_id"].(string); ok && len(v) == 20 {
				*c.into = v
				return
			}
			resp.Error = fmt.Errorf("owner_id is %v, want 20 hexadecimal digits", r.AttributeValues["owner_id"])
			return
		}
	}
	resp.Error = fmt.Errorf("%s is not in the state", address)
}

var takenByOther = regexp.MustCompile(`(?s)Node Pools Already Exist.*carries the label accel-managed =\s+"[0-9a-f]{20}"`)

// TestAccFallbackNodePools_foreignPoolNeverTouched: a tier named like a
// pool this resource did not create (a cluster's default-pool) is refused
// at plan and at apply, on the first apply and on a later one, is never
// recorded, and so is never changed or deleted: not by a later apply, a
// destroy, or a taint (destroy and create).
func TestAccFallbackNodePools_foreignPoolNeverTouched(t *testing.T) {
	t.Run("first apply", func(t *testing.T) {
		tg := newTarget(t)
		tg.RequireEmulatorFor(t, "creates and replaces node pools behind Terraform's back through the emulator's endpoint")
		_, gpuZone := zones(tg)
		prefix := acctest.RandomName("fa")
		mine, foreign := prefix+"-mine", prefix+"-default"
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             resource.ComposeTestCheckFunc(foreignSurvives(tg, foreign), checkDestroyed(tg, mine)),
			Steps: []resource.TestStep{
				{
					PreConfig: func() {
						if err := createBehindTerraform(tg, leftoverPool(foreign, gpuZone, "", "")); err != nil {
							t.Fatal(err)
						}
					},
					// The plan warns; the create refuses the resource whole.
					Config:      config(tg, prefix, "", gpuTier(mine, gpuZone, "g2-standard-4"), gpuTier(foreign, gpuZone, "g2-standard-4")),
					ExpectError: regexp.MustCompile(`(?s)Node Pools Already Exist.*` + foreign + ` has no accel-managed label.*Nothing was created.*import them`),
				},
				{
					Config: config(tg, prefix, "", gpuTier(mine, gpuZone, "g2-standard-4")),
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: []string{foreign, mine}},
						acctest.CheckFunc(func() error { return foreignSurvives(tg, foreign)(nil) }),
					},
				},
			},
		})
	})

	t.Run("later apply, taint and destroy", func(t *testing.T) {
		tg := newTarget(t)
		tg.RequireEmulatorFor(t, "creates and replaces node pools behind Terraform's back through the emulator's endpoint")
		_, gpuZone := zones(tg)
		prefix := acctest.RandomName("la")
		mine, foreign := prefix+"-mine", prefix+"-default"
		one := config(tg, prefix, "", gpuTier(mine, gpuZone, "g2-standard-4"))
		two := config(tg, prefix, "", gpuTier(mine, gpuZone, "g2-standard-4"), gpuTier(foreign, gpuZone, "g2-standard-4", line("node_count", "2")))
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             resource.ComposeTestCheckFunc(foreignSurvives(tg, foreign), foreignSurvives(tg, mine), checkDestroyed(tg, prefix+"-own")),
			Steps: []resource.TestStep{
				{Config: one},
				{
					PreConfig: func() {
						if err := createBehindTerraform(tg, leftoverPool(foreign, gpuZone, "", "")); err != nil {
							t.Fatal(err)
						}
					},
					// The plan warns (an error would also stop terraform
					// destroy); the apply's create refuses the tier.
					Config:      two,
					ExpectError: regexp.MustCompile(`(?s)Node Pool Already Exists.*` + foreign + `.*has no accel-managed label.*It is not adopted`),
				},
				{
					Config: one,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(address, tfjsonpath.New("tiers"), knownvalue.ListSizeExact(1)),
						poolCheck{tg: tg, name: foreign, check: func(p *container.NodePool) error {
							if p.InitialNodeCount != 1 || p.Config.MachineType != "g2-standard-4" {
								return fmt.Errorf("the foreign pool was changed: %d nodes of %s", p.InitialNodeCount, p.Config.MachineType)
							}
							return nil
						}},
					},
				},
				{
					// The resource's own pool is deleted outside Terraform and a
					// foreign pool takes its name: the refresh drops it (the
					// resource, tainted, has no pool left, so it leaves the
					// state), nothing deletes it, and the create refuses it.
					PreConfig: func() {
						if err := replaceBehindTerraform(tg, mine, gpuZone); err != nil {
							t.Fatal(err)
						}
					},
					Taint:       []string{address},
					Config:      one,
					ExpectError: regexp.MustCompile(`(?s)Node Pools Already Exist.*` + mine + ` has no accel-managed label.*Nothing was created`),
				},
				{
					// Back to a tier of its own: the destroy at the end of the
					// test deletes only that one.
					Config: config(tg, prefix, "", gpuTier(prefix+"-own", gpuZone, "g2-standard-4")),
					ConfigStateChecks: []statecheck.StateCheck{
						acctest.CheckFunc(func() error { return foreignSurvives(tg, mine)(nil) }),
						acctest.CheckFunc(func() error { return foreignSurvives(tg, foreign)(nil) }),
					},
				},
			},
		})
	})
}

// TestAccFallbackNodePools_secondInstanceRefused: a second resource (as a
// second state or workspace would) that names the pools of the first is
// refused with the first's owner id; the first's pools are untouched and
// its destroy deletes them.
func TestAccFallbackNodePools_secondInstanceRefused(t *testing.T) {
	tg := newTarget(t)
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("si")
	name := prefix + "-l4"
	first := config(tg, prefix, "", gpuTier(name, gpuZone, "g2-standard-4"))
	second := fmt.Sprintf(`
resource "accel_fallback_nodepools" "second" {
  cluster       = %q
  compute_class = %q
  tiers {
    name           = %q
    machine_type   = "g2-standard-4"
    gpu_type       = "nvidia-l4"
    node_locations = [%q]
  }
}
`, tg.Cluster, prefix, name, gpuZone)
	var owner string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{
			{Config: first, ConfigStateChecks: []statecheck.StateCheck{captureOwner{into: &owner}}},
			{
				Config:      first + second,
				ExpectError: takenByOther,
			},
			{
				Config:           first,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					poolCheck{tg: tg, name: name, check: func(p *container.NodePool) error {
						if got := p.Config.ResourceLabels["accel-managed"]; got != owner {
							return fmt.Errorf("the pool's owner label is %q, want the first resource's %q", got, owner)
						}
						return nil
					}},
				},
			},
		},
	})
}

// TestAccFallbackNodePools_interruptedApplyFound: pools this very resource
// started creating in an apply that was killed before it recorded them
// (they carry its owner id) are found by the next refresh, even when the
// configuration changed in between: one the configuration names is adopted
// without a second create; one it no longer names is deleted by the plan.
func TestAccFallbackNodePools_interruptedApplyFound(t *testing.T) {
	tg := newTarget(t, func(sc *emulator.Scenario) { sc.Durations.PoolCreate = 300 * time.Millisecond })
	tg.RequireEmulatorFor(t, "creates node pools behind Terraform's back through the emulator's endpoint and counts the creates and deletes that follow")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("ia")
	base, added, renamed := prefix+"-base", prefix+"-added", prefix+"-old"
	calls := tg.Calls()
	var owner string
	withAdded := config(tg, prefix, "", gpuTier(base, gpuZone, "g2-standard-4"), gpuTier(added, gpuZone, "g2-standard-4"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, base, added, renamed),
		Steps: []resource.TestStep{
			{
				Config:            config(tg, prefix, "", gpuTier(base, gpuZone, "g2-standard-4")),
				ConfigStateChecks: []statecheck.StateCheck{captureOwner{into: &owner}},
			},
			{
				// An apply adding two tiers was killed after GKE accepted
				// both creates; then the configuration renamed one of them.
				PreConfig: func() {
					for _, n := range []string{added, renamed} {
						if err := createBehindTerraform(tg, leftoverPool(n, gpuZone, prefix, owner)); err != nil {
							t.Fatal(err)
						}
					}
					calls.Snapshot()
				},
				Config: withAdded,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectPools{tg: tg, prefix: prefix, names: []string{base, added}},
					// No second create; the renamed tier's pool is deleted (GKE may
					// refuse the first delete while the creates still run).
					calls.Exactly(map[string]int64{createCalls: 0}),
					calls.AtLeast(emulator.MethodNodePoolsDelete, 1),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("tiers"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(address, tierPath(1, "name"), knownvalue.StringExact(added)),
					poolCheck{tg: tg, name: added, check: func(p *container.NodePool) error {
						if !hasTaint(p, "cloud.google.com/compute-class", prefix, "NO_SCHEDULE") {
							return fmt.Errorf("the adopted pool lacks the ComputeClass taint: %+v", p.Config.Taints)
						}
						return nil
					}},
				},
			},
		},
	})
}

// TestAccFallbackNodePools_poolDeletedBetweenPlanAndApply: a pool deleted
// outside Terraform after the plan was saved and before it is applied, of a
// tier that apply leaves alone, is recorded as planned (its values were
// known in the plan: no "inconsistent result"); the next refresh finds it
// MISSING, and the next apply creates it again.
func TestAccFallbackNodePools_poolDeletedBetweenPlanAndApply(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "deletes a node pool behind Terraform's back between plan and apply")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("pd")
	a, b := prefix+"-a", prefix+"-b"
	grown := config(tg, prefix, "", gpuTier(a, gpuZone, "g2-standard-4"), gpuTier(b, gpuZone, "g2-standard-4", line("node_count", "2")))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, a, b),
		Steps: []resource.TestStep{
			{Config: config(tg, prefix, "", gpuTier(a, gpuZone, "g2-standard-4"), gpuTier(b, gpuZone, "g2-standard-4"))},
			{
				Config: grown,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{acctest.CheckFunc(func() error {
					return tg.Emulator.DeleteNodePool(poolID(tg, a))
				})}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
					statecheck.ExpectKnownValue(address, tierPath(1, "node_count"), knownvalue.Int64Exact(2)),
				},
				// The refresh after the apply finds the pool gone.
				ExpectNonEmptyPlan: true,
			},
			{
				Config: grown,
				ConfigStateChecks: []statecheck.StateCheck{
					expectPools{tg: tg, prefix: prefix, names: []string{a, b}},
					statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
				},
			},
		},
	})
}

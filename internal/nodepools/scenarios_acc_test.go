// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

const (
	createCalls = emulator.MethodNodePoolsCreate
	deleteCalls = emulator.MethodNodePoolsDelete
	updateCalls = emulator.MethodNodePoolsUpdate
)

// noPoolCalls expects a step that changes no pool.
var noPoolCalls = map[string]int64{
	createCalls: 0, deleteCalls: 0, updateCalls: 0,
	emulator.MethodNodePoolsSetSize: 0, emulator.MethodNodePoolsSetAutoscaling: 0, emulator.MethodNodePoolsSetManagement: 0,
}

func TestAccFallbackNodePools_threeTiers(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tpuZone, gpuZone := zones(tg)
		bigZone := gpuZone
		prefix := acctest.RandomName("tt")
		class := prefix
		names := []string{prefix + "-v6e", prefix + "-h100", prefix + "-l4"}
		cfg := config(tg, class, "  active_migration = true\n",
			tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")),
			tier{name: names[1], attrs: fmt.Sprintf("      machine_type   = \"a3-highgpu-8g\"\n      node_locations = [%q]\n      node_count     = 1\n", bigZone)},
			gpuTier(names[2], gpuZone, "g2-standard-4", line("spot", "true"), line("min_node_count", "0"), line("max_node_count", "4")),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tierPath(1, "gpu_type"), knownvalue.StringExact("nvidia-h100-80gb")),
						plancheck.ExpectKnownValue(address, tierPath(1, "gpu_count"), knownvalue.Int64Exact(8)),
						plancheck.ExpectKnownValue(address, tierPath(1, "gpu_driver_version"), knownvalue.StringExact("DEFAULT")),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("compute_class_manifest"), knownvalue.StringRegexp(
							regexp.MustCompile(`(?s)- nodepools:\n    - "`+names[0]+`"\n  - nodepools:\n    - "`+names[1]+`"\n  - nodepools:\n    - "`+names[2]+`"\n  activeMigration:\n    optimizeRulePriority: true\n`))),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: names},
						statecheck.ExpectKnownValue(address, tierPath(2, "tolerations"), knownvalue.ListExact([]knownvalue.Check{
							tolerationCheck("nvidia.com/gpu", "Exists", "", "NoSchedule"),
							tolerationCheck("cloud.google.com/compute-class", "Equal", class, "NoSchedule"),
							tolerationCheck("cloud.google.com/gke-spot", "Equal", "true", "NoSchedule"),
						})),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("tolerations"), knownvalue.ListSizeExact(4)),
						poolCheck{tg: tg, name: names[2], check: func(p *container.NodePool) error {
							if !p.Config.Spot || p.Autoscaling == nil || !p.Autoscaling.Enabled || p.Autoscaling.MaxNodeCount != 4 {
								return fmt.Errorf("small GPU pool: spot %v, autoscaling %+v", p.Config.Spot, p.Autoscaling)
							}
							return nil
						}},
					},
				},
			},
		})
	})
}

func TestAccFallbackNodePools_multiHost(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tpuZone, _ := zones(tg)
		prefix := acctest.RandomName("mh")
		names := []string{prefix + "-v6e16", prefix + "-v6e8x2"}
		cfg := config(tg, prefix, "",
			tpuTier(names[0], tpuZone, "v6e-16"),
			tpuTier(names[1], tpuZone, "v6e-8", line("machine_type", `"ct6e-standard-4t"`), line("min_node_count", "0"), line("max_node_count", "2")),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tierPath(0, "machine_type"), knownvalue.StringExact("ct6e-standard-4t")),
						plancheck.ExpectKnownValue(address, tierPath(0, "topology"), knownvalue.StringExact("4x4")),
						plancheck.ExpectKnownValue(address, tierPath(0, "node_count"), knownvalue.Int64Exact(4)),
						plancheck.ExpectKnownValue(address, tierPath(0, "placement_policy"), knownvalue.StringExact("COMPACT")),
						plancheck.ExpectKnownValue(address, tierPath(1, "topology"), knownvalue.StringExact("2x4")),
						plancheck.ExpectKnownValue(address, tierPath(1, "placement_policy"), knownvalue.StringExact("COMPACT")),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: names},
						poolCheck{tg: tg, name: names[0], check: func(p *container.NodePool) error {
							if p.InitialNodeCount != 4 || p.PlacementPolicy == nil || p.PlacementPolicy.TpuTopology != "4x4" || p.PlacementPolicy.Type != "COMPACT" {
								return fmt.Errorf("v6e-16 pool: %d nodes, placement %+v", p.InitialNodeCount, p.PlacementPolicy)
							}
							return nil
						}},
						poolCheck{tg: tg, name: names[1], check: func(p *container.NodePool) error {
							if p.Autoscaling == nil || p.Autoscaling.MaxNodeCount != 2 || p.Autoscaling.LocationPolicy != "ANY" {
								return fmt.Errorf("v6e-8 pool autoscaling: %+v", p.Autoscaling)
							}
							return nil
						}},
					},
				},
				{
					ResourceName:            address,
					ImportState:             true,
					ImportStateVerify:       true,
					ImportStateId:           poolID(tg, names[0]) + "," + names[1],
					ImportStateVerifyIgnore: []string{"timeouts", "pools"}, // created_at is empty for imported pools
				},
			},
		})
	})
}

func TestAccFallbackNodePools_updateInPlace(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("up")
		names := []string{prefix + "-v6e", prefix + "-l4"}
		calls := tg.Calls()
		before := config(tg, prefix, "",
			tpuTier(names[0], tpuZone, "v6e-4", line("min_node_count", "0"), line("max_node_count", "2")),
			gpuTier(names[1], gpuZone, "g2-standard-4", line("node_count", "1")),
		)
		after := config(tg, prefix+"-new", "",
			tpuTier(names[0], tpuZone, "v6e-4", line("min_node_count", "1"), line("max_node_count", "3"),
				line("labels", `{ team = "serving" }`),
				block("taints", "key", `"dedicated"`, "value", `"llm"`, "effect", `"NO_EXECUTE"`)),
			gpuTier(names[1], gpuZone, "g2-standard-4", line("node_count", "2"), line("auto_upgrade", "false")),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{Config: before},
				{
					PreConfig: calls.Snapshot,
					Config:    after,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, tierPath(0, "node_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
							"team": knownvalue.StringExact("serving"), "cloud.google.com/compute-class": knownvalue.StringExact(prefix + "-new"),
						})),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						calls.Exactly(map[string]int64{
							createCalls: 0, deleteCalls: 0, updateCalls: 2,
							emulator.MethodNodePoolsSetAutoscaling: 1, emulator.MethodNodePoolsSetSize: 1, emulator.MethodNodePoolsSetManagement: 1,
						}),
						statecheck.ExpectKnownValue(address, tierPath(0, "tolerations"), knownvalue.ListExact([]knownvalue.Check{
							tolerationCheck("google.com/tpu", "Exists", "", "NoSchedule"),
							tolerationCheck("cloud.google.com/compute-class", "Equal", prefix+"-new", "NoSchedule"),
							tolerationCheck("dedicated", "Equal", "llm", "NoExecute"),
						})),
						poolCheck{tg: tg, name: names[0], check: func(p *container.NodePool) error {
							if p.Config.Labels["team"] != "serving" || !hasTaint(p, "dedicated", "llm", "NO_EXECUTE") ||
								!hasTaint(p, "cloud.google.com/compute-class", prefix+"-new", "NO_SCHEDULE") || p.Autoscaling.MinNodeCount != 1 {
								return fmt.Errorf("TPU pool not updated: labels %v, autoscaling %+v", p.Config.Labels, p.Autoscaling)
							}
							return nil
						}},
						poolCheck{tg: tg, name: names[1], check: func(p *container.NodePool) error {
							if p.Management.AutoUpgrade {
								return fmt.Errorf("GPU pool still auto-upgrades")
							}
							return nil
						}},
					},
				},
			},
		})
	})
}

func TestAccFallbackNodePools_reorderAddRemoveNamedInPlan(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("ro")
		a := tpuTier(prefix+"-a", tpuZone, "v6e-4", line("node_count", "1"))
		b := gpuTier(prefix+"-b", gpuZone, "g2-standard-4")
		c := gpuTier(prefix+"-c", gpuZone, "g2-standard-8")
		calls := tg.Calls()
		manifestOrder := func(names ...string) knownvalue.Check {
			pattern := "(?s)priorities:\n"
			for _, n := range names {
				pattern += `  - nodepools:\n    - "` + n + `"\n`
			}
			return knownvalue.StringRegexp(regexp.MustCompile(pattern + "  whenUnsatisfiable"))
		}
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, a.name, b.name, c.name),
			Steps: []resource.TestStep{
				{Config: config(tg, prefix, "", a, b)},
				{
					// Reorder: only the ComputeClass changes; the id stays.
					// The plan shows the reorder as each pool's tier.
					PreConfig: calls.Snapshot,
					Config:    config(tg, prefix, "", b, a),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, poolPath(b.name, "tier"), knownvalue.Int64Exact(1)),
						plancheck.ExpectKnownValue(address, poolPath(a.name, "tier"), knownvalue.Int64Exact(2)),
						plancheck.ExpectKnownValue(address, poolPath(a.name, "created_at"), createdAt),
						plancheck.ExpectKnownValue(address, poolPath(b.name, "created_at"), createdAt),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						calls.Exactly(noPoolCalls),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("compute_class_manifest"), manifestOrder(b.name, a.name)),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(resourceIDOf(tg, a.name, b.name))),
					},
				},
				{
					// Add a tier in the middle: one create, named in the plan.
					PreConfig: calls.Snapshot,
					Config:    config(tg, prefix, "", b, c, a),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectUnknownValue(address, poolPath(c.name, "created_at")),
						plancheck.ExpectKnownValue(address, poolPath(c.name, "tier"), knownvalue.Int64Exact(2)),
						plancheck.ExpectKnownValue(address, poolPath(a.name, "tier"), knownvalue.Int64Exact(3)),
						plancheck.ExpectKnownValue(address, poolPath(a.name, "created_at"), createdAt),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(address, poolPath(c.name, "created_at"), createdAt),
						calls.Exactly(map[string]int64{createCalls: 1, deleteCalls: 0, updateCalls: 0}),
						expectPools{tg: tg, prefix: prefix, names: []string{a.name, b.name, c.name}},
						statecheck.ExpectKnownValue(address, tfjsonpath.New("compute_class_manifest"), manifestOrder(b.name, c.name, a.name)),
					},
				},
				{
					// Remove the first tier: one delete; its pool leaves the
					// plan's pools.
					PreConfig: calls.Snapshot,
					Config:    config(tg, prefix, "", c, a),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tfjsonpath.New("pools"), knownvalue.MapPartial(map[string]knownvalue.Check{
							c.name: knownvalue.ObjectExact(map[string]knownvalue.Check{"tier": knownvalue.Int64Exact(1), "created_at": createdAt}),
							a.name: knownvalue.ObjectExact(map[string]knownvalue.Check{"tier": knownvalue.Int64Exact(2), "created_at": createdAt}),
						})),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("pools"), knownvalue.MapSizeExact(2)),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						calls.Exactly(map[string]int64{createCalls: 0, deleteCalls: 1, updateCalls: 0}),
						expectPools{tg: tg, prefix: prefix, names: []string{a.name, c.name}},
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
					},
				},
				{
					// An immutable change re-creates that pool only: its
					// created_at is the one value the plan leaves unknown.
					PreConfig: calls.Snapshot,
					Config:    config(tg, prefix, "", gpuTier(c.name, gpuZone, "g2-standard-12"), a),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(address, poolPath(c.name, "created_at")),
						plancheck.ExpectKnownValue(address, poolPath(c.name, "tier"), knownvalue.Int64Exact(1)),
						plancheck.ExpectKnownValue(address, poolPath(a.name, "created_at"), createdAt),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						calls.Exactly(map[string]int64{createCalls: 1, deleteCalls: 1, updateCalls: 0}),
						poolCheck{tg: tg, name: c.name, check: func(p *container.NodePool) error {
							if p.Config.MachineType != "g2-standard-12" {
								return fmt.Errorf("pool %s has machine type %s", c.name, p.Config.MachineType)
							}
							return nil
						}},
					},
				},
			},
		})
	})
}

// poolPath is the path of attr in the entry of pool name in pools.
func poolPath(name, attr string) tfjsonpath.Path {
	return tfjsonpath.New("pools").AtMapKey(name).AtMapKey(attr)
}

// createdAt matches a pool's creation time.
var createdAt = knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))

func TestAccFallbackNodePools_stockoutFail(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tg.RequireEmulatorFor(t, "injects a stockout")
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("sf")
		names := []string{prefix + "-v6e", prefix + "-l4"}
		tg.Emulator.SetCapacity(tpuZone, "ct6e-standard-4t", 0)
		cfg := config(tg, prefix, "  on_stockout = \"fail\"\n",
			tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")),
			gpuTier(names[1], gpuZone, "g2-standard-4"),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			// Destroying what state holds leaves nothing behind: no orphans.
			CheckDestroy: checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{Config: cfg, ExpectError: regexp.MustCompile(`Node Pool Out of Capacity`)},
				{
					RefreshState:       true,
					ExpectNonEmptyPlan: true, // the failed create left the resource tainted
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(address, "tiers.0.status", "ERROR"),
						resource.TestCheckResourceAttr(address, "tiers.1.status", "RUNNING"),
						resource.TestCheckResourceAttr(address, "tiers.#", "2"),
					),
				},
			},
		})
	})
}

func TestAccFallbackNodePools_stockoutContinue(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tg.RequireEmulatorFor(t, "injects a stockout")
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("sc")
		names := []string{prefix + "-v6e", prefix + "-l4"}
		tg.Emulator.SetCapacity(tpuZone, "ct6e-standard-4t", 0)
		// continue is the default.
		cfg := config(tg, prefix, "",
			tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")),
			gpuTier(names[1], gpuZone, "g2-standard-4"),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{
					Config:             cfg,
					ExpectNonEmptyPlan: true, // the pool in ERROR is planned for re-creation
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("ERROR")),
						statecheck.ExpectKnownValue(address, tierPath(0, "status_message"), knownvalue.StringRegexp(regexp.MustCompile(`GCE_STOCKOUT`))),
						statecheck.ExpectKnownValue(address, tierPath(1, "status"), knownvalue.StringExact("RUNNING")),
						expectPools{tg: tg, prefix: prefix, names: names},
					},
				},
				{
					// The pool in ERROR is planned for re-creation, the other
					// tier left alone; still out of capacity, the apply records
					// ERROR again and warns.
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("ERROR")),
						statecheck.ExpectKnownValue(address, tierPath(1, "status"), knownvalue.StringExact("RUNNING")),
					},
					ExpectNonEmptyPlan: true,
				},
				{
					// Capacity is back: the next apply repairs the pool.
					PreConfig: func() { tg.Emulator.SetCapacity(tpuZone, "ct6e-standard-4t", -1) },
					Config:    cfg,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
						expectPools{tg: tg, prefix: prefix, names: names},
					},
				},
			},
		})
	})
}

// TestAccFallbackNodePools_stockoutInLaterApplyRetried: a tier added to an
// existing resource that GKE cannot provision fails that apply (on_stockout
// = "fail") without tainting anything; the next plan re-creates that pool
// alone, and once capacity is back the apply repairs it.
func TestAccFallbackNodePools_stockoutInLaterApplyRetried(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "injects a stockout, then restores capacity")
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("sr")
	names := []string{prefix + "-v6e", prefix + "-l4"}
	gpu := gpuTier(names[1], gpuZone, "g2-standard-4")
	fail := "  on_stockout = \"fail\"\n"
	both := config(tg, prefix, fail, tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")), gpu)
	calls := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, names...),
		Steps: []resource.TestStep{
			{Config: config(tg, prefix, fail, gpu)},
			{
				PreConfig:   func() { tg.Emulator.SetCapacity(tpuZone, "ct6e-standard-4t", 0) },
				Config:      both,
				ExpectError: regexp.MustCompile(`Node Pool Out of Capacity`),
			},
			{
				PreConfig: func() {
					tg.Emulator.SetCapacity(tpuZone, "ct6e-standard-4t", -1)
					calls.Snapshot()
				},
				Config: both,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
					// The pool in ERROR is deleted and created again; the GPU
					// pool is not touched.
					calls.Exactly(map[string]int64{createCalls: 1, deleteCalls: 1}),
					expectPools{tg: tg, prefix: prefix, names: names},
				},
			},
		},
	})
}

// TestAccFallbackNodePools_concurrency creates four pools with GKE running
// them concurrently, with GKE serializing pool creations, under a
// per-cluster operation quota of one, and with injected 429s.
//
// "concurrent creates" passes only if the provider has all four creates
// running at once: each create operation hangs until the emulator has
// accepted the fourth create, so a provider that waits for one pool before
// it creates the next never finishes its first (the apply fails at the
// create timeout). In the other cases the first create hangs until the
// second create reaches GKE, so that one is refused whatever the machine's
// speed, and the apply must retry it.
func TestAccFallbackNodePools_concurrency(t *testing.T) {
	cases := map[string]struct {
		serialize bool
		quota     int
		rateEvery int
		// hangCreates is the number of create calls the emulator counts
		// before any create operation may finish.
		hangCreates int
		// wantCreates is the exact number of create calls, or with
		// refusals the least number.
		wantCreates int64
		refusals    bool
	}{
		"concurrent creates":        {hangCreates: 4, wantCreates: 4},
		"serialized creates":        {serialize: true, hangCreates: 2, wantCreates: 5, refusals: true},
		"quota of one operation":    {quota: 1, hangCreates: 2, wantCreates: 5, refusals: true},
		"every other create is 429": {rateEvery: 2, wantCreates: 5, refusals: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tg := newTarget(t, func(sc *emulator.Scenario) {
				sc.SerializePoolCreates = tc.serialize
				sc.MaxConcurrentOperationsPerCluster = tc.quota
			})
			tg.RequireEmulatorFor(t, "holds operations and throttles calls to limit concurrent operations")
			tpuZone, gpuZone := zones(tg)
			prefix := acctest.RandomName("cc")
			tiers := []tier{
				tpuTier(prefix+"-a", tpuZone, "v6e-4", line("node_count", "1")),
				gpuTier(prefix+"-b", gpuZone, "g2-standard-4"),
				gpuTier(prefix+"-c", gpuZone, "g2-standard-8"),
				gpuTier(prefix+"-d", gpuZone, "g2-standard-12"),
			}
			var names []string
			for _, x := range tiers {
				names = append(names, x.name)
			}
			calls := tg.Calls()
			arm := func() {
				calls.Snapshot()
				if tc.rateEvery > 0 {
					if err := tg.Emulator.SetRateLimit(createCalls, tc.rateEvery); err != nil {
						t.Fatal(err)
					}
				}
				if tc.hangCreates > 0 {
					if err := tg.Emulator.HangOperationsUntilCalls(createCalls, createCalls, tc.hangCreates); err != nil {
						t.Fatal(err)
					}
				}
			}
			checks := []statecheck.StateCheck{expectPools{tg: tg, prefix: prefix, names: names}}
			if tc.refusals {
				checks = append(checks, calls.AtLeast(createCalls, tc.wantCreates))
			} else {
				checks = append(checks, calls.Exactly(map[string]int64{createCalls: tc.wantCreates}))
			}
			for i := range tiers {
				checks = append(checks, statecheck.ExpectKnownValue(address, tierPath(i, "status"), knownvalue.StringExact("RUNNING")))
			}
			// A bound for the failure of a provider that creates one pool
			// at a time, not a measure of anything.
			timeouts := "  timeouts {\n    create = \"2m\"\n  }\n"
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				CheckDestroy:             checkDestroyed(tg, names...),
				// When the apply failed, let the hung creates finish so that
				// the destroy can run.
				ErrorCheck: func(err error) error {
					if herr := tg.Emulator.HangOperations(createCalls, false); herr != nil {
						t.Error(herr)
					}
					return err
				},
				Steps: []resource.TestStep{{
					PreConfig:         arm,
					Config:            config(tg, prefix, timeouts, tiers...),
					ConfigStateChecks: checks,
				}},
			})
		})
	}
}

// TestAccFallbackNodePools_externalOperation starts a cluster upgrade outside
// Terraform right before the apply: every pool operation is refused until it
// ends, and the apply still succeeds.
func TestAccFallbackNodePools_externalOperation(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tg.RequireEmulatorFor(t, "holds the cluster with another operation")
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("ex")
		names := []string{prefix + "-v6e", prefix + "-l4"}
		calls := tg.Calls()
		// The upgrade starts between plan and apply and lasts until GKE has
		// received the apply's first call of method (which it refuses),
		// whatever the machine's speed.
		hold := func(method string) plancheck.PlanCheck {
			return acctest.CheckFunc(func() error {
				calls.Snapshot()
				_, err := tg.Emulator.HoldClusterUntilCalls(acctest.EmulatorProject, "us-central1", "serving", method, 1)
				return err
			})
		}
		cfg := config(tg, prefix, "",
			tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")),
			gpuTier(names[1], gpuZone, "g2-standard-4"),
		)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{
					Config:           cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{hold(createCalls)}},
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: names},
						calls.AtLeast(createCalls, 3),
						calls.AtLeast(emulator.MethodContainerOperationsList, 1),
					},
				},
				{
					// Deletes and updates wait for an external operation too.
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{hold(deleteCalls)}},
					Config: config(tg, prefix, "",
						tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1"), line("labels", `{ tier = "first" }`))),
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: names[:1]},
						calls.AtLeast(deleteCalls, 2),
					},
				},
			},
		})
	})
}

// TestAccFallbackNodePools_gkeAdditions: taints and labels GKE adds by itself
// (here added out of band after the apply, the way GKE adds its own) and the
// accelerator taints GKE may or may not add never cause a diff.
func TestAccFallbackNodePools_gkeAdditions(t *testing.T) {
	for name, additions := range map[string]emulator.GKEAdditions{
		"GKE adds accelerator taints":    {},
		"GKE adds no accelerator taints": {SkipGPUTaint: true, SkipTPUTaint: true},
	} {
		t.Run(name, func(t *testing.T) {
			tg := newTarget(t, func(sc *emulator.Scenario) { sc.GKEAdditions = additions })
			tpuZone, gpuZone := zones(tg)
			prefix := acctest.RandomName("ga")
			names := []string{prefix + "-v6e", prefix + "-l4"}
			cfg := config(tg, prefix, "",
				tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1"), line("labels", `{ app = "vllm" }`)),
				gpuTier(names[1], gpuZone, "g2-standard-4", block("taints", "key", `"team"`, "value", `"a"`, "effect", `"NO_SCHEDULE"`)),
			)
			addOutOfBand := func() {
				if tg.Emulator == nil {
					return
				}
				if err := addGKEStyleMetadata(tg, names[1]); err != nil {
					t.Fatal(err)
				}
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				CheckDestroy:             checkDestroyed(tg, names...),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							poolCheck{tg: tg, name: names[0], check: func(p *container.NodePool) error {
								if !hasTaint(p, "google.com/tpu", "present", "NO_SCHEDULE") {
									return fmt.Errorf("the TPU taint is missing: %v", p.Config.Taints)
								}
								return nil
							}},
						},
					},
					{
						PreConfig:        addOutOfBand,
						Config:           cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
				},
			})
		})
	}
}

func TestAccFallbackNodePools_disappears(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tg.RequireEmulatorFor(t, "deletes node pools behind Terraform's back")
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("ds")
		names := []string{prefix + "-v6e", prefix + "-l4"}
		cfg := config(tg, prefix, "",
			tpuTier(names[0], tpuZone, "v6e-4", line("node_count", "1")),
			gpuTier(names[1], gpuZone, "g2-standard-4"),
		)
		deletePools := func(which ...string) func() {
			return func() {
				for _, n := range which {
					if err := tg.Emulator.DeleteNodePool(poolID(tg, n)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		calls := tg.Calls()
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, names...),
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					// One pool deleted out of band: re-created, the other untouched.
					PreConfig: func() { deletePools(names[0])(); calls.Snapshot() },
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(address, tierPath(0, "status")),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						calls.Exactly(map[string]int64{createCalls: 1, deleteCalls: 0}),
						expectPools{tg: tg, prefix: prefix, names: names},
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
					},
				},
				{
					// Every pool deleted out of band: the resource is gone and planned again.
					PreConfig: deletePools(names...),
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
					}},
					ConfigStateChecks: []statecheck.StateCheck{expectPools{tg: tg, prefix: prefix, names: names}},
				},
				{
					// Importing pools of a cluster that does not exist finds nothing.
					ResourceName:  address,
					ImportState:   true,
					ImportStateId: "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/gone/nodePools/" + names[0],
					ExpectError:   regexp.MustCompile(`Cannot import non-existent remote object`),
				},
			},
		})
	})
}

// TestAccFallbackNodePools_timeout: a create that outlasts its timeout fails
// the apply with the pool recorded as GKE reports it; once GKE finishes, a
// refresh shows it running, and destroy removes it.
func TestAccFallbackNodePools_timeout(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "holds the create operation past the timeout")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("to")
	name := prefix + "-l4"
	hang := func(on bool) func() {
		return func() {
			if err := tg.Emulator.HangOperations(createCalls, on); err != nil {
				t.Fatal(err)
			}
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   hang(true),
				Config:      config(tg, prefix, "  timeouts {\n    create = \"1s\"\n  }\n", gpuTier(name, gpuZone, "g2-standard-4")),
				ExpectError: regexp.MustCompile(`Timeout Waiting for Node Pool`),
			},
			{
				PreConfig:          hang(false),
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the failed create left the resource tainted
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(address, "tiers.0.status", "RUNNING"),
					resource.TestCheckResourceAttr(address, "tiers.0.pool_name", name),
				),
			},
		},
	})
}

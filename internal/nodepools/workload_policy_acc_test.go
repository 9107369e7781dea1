// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

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
	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// policies are the workload policies of the emulator, by name.
func policies(tg *acctest.Target) map[string]*compute.ResourcePolicy {
	out := map[string]*compute.ResourcePolicy{}
	for _, p := range tg.Emulator.ResourcePolicies() {
		out[p.Name] = p
	}
	return out
}

// TestAccFallbackNodePools_ironwoodMultiHost: a TPU-first, GPU-fallback
// resource whose TPU tier is a multi-host TPU7x slice (tpu7x-16, 2 VMs,
// and tpu7x-32, 4 VMs) plans the slice's machine type, node count and
// topology and its workload policy, creates the policy before the pool,
// plans nothing after, imports, and deletes the policy after the pool.
func TestAccFallbackNodePools_ironwoodMultiHost(t *testing.T) {
	tg := ironwoodTarget(t)
	tg.RequireEmulatorFor(t, "needs a cluster of GKE 1.34 with TPU7x nodes, which the emulator seeds")
	prefix := acctest.RandomName("iw")
	big, small, gpu := prefix+"-tpu7x-32", prefix+"-tpu7x-16", prefix+"-l4"
	cfg := config(tg, prefix, "",
		tpuTier(big, ironwoodZone, "tpu7x-32"), tpuTier(small, ironwoodZone, "tpu7x-16"),
		gpuTier(gpu, "us-central1-a", "g2-standard-4", line("node_count", "1")))
	str := knownvalue.StringExact
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkDestroyed(tg, big, small, gpu)(s); err != nil {
				return err
			}
			if left := policies(tg); len(left) > 0 {
				return fmt.Errorf("workload policies left behind: %v", left)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(address, tierPath(0, "machine_type"), str("tpu7x-standard-4t")),
					plancheck.ExpectKnownValue(address, tierPath(0, "topology"), str("2x2x4")),
					plancheck.ExpectKnownValue(address, tierPath(0, "node_count"), knownvalue.Int64Exact(4)),
					plancheck.ExpectKnownValue(address, tierPath(0, "placement_policy"), str(big)),
					plancheck.ExpectKnownValue(address, tierPath(1, "node_count"), knownvalue.Int64Exact(2)),
					plancheck.ExpectKnownValue(address, tierPath(1, "placement_policy"), str(small)),
					plancheck.ExpectKnownValue(address, tierPath(2, "placement_policy"), knownvalue.Null()),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tierPath(0, "status"), str("RUNNING")),
				statecheck.ExpectKnownValue(address, tierPath(0, "accelerator_labels").AtMapKey("cloud.google.com/gke-tpu-topology"), str("2x2x4")),
				acctest.CheckFunc(func() error {
					got := policies(tg)
					for name, topology := range map[string]string{big: "2x2x4", small: "2x2x2"} {
						p := got[name]
						if p == nil || p.WorkloadPolicy == nil || p.WorkloadPolicy.Type != "HIGH_THROUGHPUT" ||
							p.WorkloadPolicy.AcceleratorTopology != topology || !strings.HasPrefix(p.Description, "accel-managed=") {
							return fmt.Errorf("workload policy %s = %+v, want HIGH_THROUGHPUT %s marked as the resource's", name, p, topology)
						}
					}
					if len(got) != 2 {
						return fmt.Errorf("workload policies %v, want one per TPU7x slice", got)
					}
					return nil
				}),
				poolCheck{tg: tg, name: small, check: reports("placed by its workload policy", func(np *container.NodePool) bool {
					return np.PlacementPolicy != nil && np.PlacementPolicy.PolicyName == small && np.PlacementPolicy.TpuTopology == "" &&
						np.InitialNodeCount == 2
				})},
			},
		}, {
			ResourceName:            address,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateId:           tg.Cluster + "/nodePools/" + big + "," + small + "," + gpu,
			ImportStateVerifyIgnore: []string{"timeouts", "pools"},
		}},
	})
}

// TestAccFallbackNodePools_ironwoodNamedPolicy: a tier that names an
// existing workload policy is placed by it; the policy is never changed or
// deleted. A tier whose pool name is that of a policy the resource did not
// create is refused before anything is created.
func TestAccFallbackNodePools_ironwoodNamedPolicy(t *testing.T) {
	tg := ironwoodTarget(t)
	tg.RequireEmulatorFor(t, "creates workload policies behind Terraform's back on the emulator")
	prefix := acctest.RandomName("iwn")
	ctx := context.Background()
	rp, err := tg.Clients().ResourcePolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{prefix + "-shared", prefix + "-taken"} {
		p := &compute.ResourcePolicy{Name: name, Description: "someone else's",
			WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "HIGH_THROUGHPUT", AcceleratorTopology: "2x2x2"}}
		if err := rp.Insert(ctx, tg.Project, "us-central1", p); err != nil {
			t.Fatal(err)
		}
	}
	named := prefix + "-named"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkDestroyed(tg, named, prefix+"-taken")(s); err != nil {
				return err
			}
			if got := policies(tg); got[prefix+"-shared"] == nil || got[prefix+"-taken"] == nil || got[prefix+"-shared"].Description != "someone else's" {
				return fmt.Errorf("the policies the resource did not create were changed or deleted: %v", got)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			// The plan finds that the pool's name is a foreign policy's.
			Config:      config(tg, prefix+"-a", "", tpuTier(prefix+"-taken", ironwoodZone, "tpu7x-16")),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Workload Policy Name Taken`),
		}, {
			// With validation = "warn" the plan goes on, and the apply
			// refuses the policy before it creates anything.
			Config:      config(tg, prefix+"-a", "  validation = \"warn\"\n", tpuTier(prefix+"-taken", ironwoodZone, "tpu7x-16")),
			ExpectError: regexp.MustCompile(`workload\s+policy\s+this\s+resource\s+did\s+not\s+create`),
		}, {
			Config:      config(tg, prefix+"-b", "", tpuTier(prefix+"-b", ironwoodZone, "tpu7x-16", line("workload_policy", `"missing"`))),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Workload Policy Not Found`),
		}, {
			Config:      config(tg, prefix+"-c", "", tpuTier(prefix+"-c", ironwoodZone, "tpu7x-32", line("workload_policy", fmt.Sprintf("%q", prefix+"-shared")))),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Workload Policy of Another Topology`),
		}, {
			Config: config(tg, prefix+"-d", "", tpuTier(prefix+"-d", ironwoodZone, "tpu7x-16",
				line("workload_policy", fmt.Sprintf("%q", "projects/"+tg.Project+"/regions/us-east5/resourcePolicies/"+prefix+"-shared")))),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Workload Policy Outside the Cluster's Region`),
		}, {
			Config: config(tg, prefix, "", tpuTier(named, ironwoodZone, "tpu7x-16", line("workload_policy", fmt.Sprintf("%q", prefix+"-shared")))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectKnownValue(address, tierPath(0, "placement_policy"), knownvalue.StringExact(prefix+"-shared"))},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
			},
		}},
	})
	tg.AssertNoCalls(t, emulator.MethodComputeResourcePoliciesDelete)
}

// TestAccFallbackNodePools_ironwoodNoOrphanPolicy: a pool GKE refuses
// (here 403, a quota or permission refusal) leaves no workload policy
// behind; a policy left by an apply killed between the two creates (marked
// for the pool, with an owner id no state recorded) is used by the next
// apply, and deleted with the pool.
func TestAccFallbackNodePools_ironwoodNoOrphanPolicy(t *testing.T) {
	tg := ironwoodTarget(t)
	tg.RequireEmulatorFor(t, "refuses a pool create and leaves a policy behind Terraform's back on the emulator")
	prefix := acctest.RandomName("iwo")
	name := prefix + "-slice"
	cfg := config(tg, prefix, "  on_stockout = \"fail\"\n", tpuTier(name, ironwoodZone, "tpu7x-16"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkDestroyed(tg, name)(s); err != nil {
				return err
			}
			if left := policies(tg); len(left) > 0 {
				return fmt.Errorf("workload policies left behind: %v", left)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := tg.Emulator.FailNext(emulator.MethodNodePoolsCreate, 1, 403); err != nil {
					t.Fatal(err)
				}
			},
			Config:      cfg,
			ExpectError: regexp.MustCompile(`(?s)` + name),
		}, {
			// What the refused create left: no pool, no policy.
			PreConfig: func() {
				if left := policies(tg); len(left) > 0 {
					t.Errorf("a refused pool left its workload policy: %v", left)
				}
				rp, err := tg.Clients().ResourcePolicies(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				left := &compute.ResourcePolicy{Name: name,
					Description:    "accel-managed=0123456789abcdef0123: the workload policy accel_fallback_nodepools created for node pool " + poolID(tg, name),
					WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "HIGH_THROUGHPUT", AcceleratorTopology: "2x2x2"}}
				if err := rp.Insert(context.Background(), tg.Project, "us-central1", left); err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
				acctest.CheckFunc(func() error {
					if p := policies(tg)[name]; p == nil || !strings.HasPrefix(p.Description, "accel-managed=0123456789abcdef0123:") {
						return fmt.Errorf("the policy left behind was not the one used: %+v", p)
					}
					return nil
				}),
			},
		}},
	})
}

// TestAccFallbackNodePools_ironwoodForeignPoolNoPolicy: a TPU7x tier added
// to an existing resource whose pool name someone else's pool has is
// refused (GKE's 409, the pool not adopted), and the workload policy the
// apply created for it is deleted again.
func TestAccFallbackNodePools_ironwoodForeignPoolNoPolicy(t *testing.T) {
	tg := ironwoodTarget(t)
	tg.RequireEmulatorFor(t, "creates a node pool behind Terraform's back on the emulator")
	prefix := acctest.RandomName("iwf")
	gpu, slice := prefix+"-l4", prefix+"-slice"
	first := config(tg, prefix, "", gpuTier(gpu, "us-central1-a", "g2-standard-4", line("node_count", "1")))
	second := config(tg, prefix, "", gpuTier(gpu, "us-central1-a", "g2-standard-4", line("node_count", "1")), tpuTier(slice, ironwoodZone, "tpu7x-16"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, gpu),
		Steps: []resource.TestStep{{
			Config: first,
		}, {
			PreConfig: func() {
				if err := createBehindTerraform(tg, leftoverPool(slice, "us-central1-a", "", "")); err != nil {
					t.Fatal(err)
				}
			},
			Config:      second,
			ExpectError: regexp.MustCompile(slice),
		}, {
			PreConfig: func() {
				if left := policies(tg); len(left) > 0 {
					t.Errorf("the refused tier left its workload policy: %v", left)
				}
			},
			Config: first,
		}},
	})
}

// TestAccFallbackNodePools_importReadsOnlyItsPolicies: importing a GPU pool
// reads no workload policy, even when the cluster holds a TPU7x pool whose
// policy cannot be read: an import reads only what it names.
func TestAccFallbackNodePools_importReadsOnlyItsPolicies(t *testing.T) {
	tg := ironwoodTarget(t)
	tg.RequireEmulatorFor(t, "needs a cluster of GKE 1.34 with TPU7x nodes, and refuses the workload policy reads")
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	prefix := acctest.RandomName("imp")
	slice, gpu := prefix+"-tpu7x-16", prefix+"-l4"
	owner := acctest.NewWorkspace(t, env, tf, config(tg, prefix, "", tpuTier(slice, ironwoodZone, "tpu7x-16"),
		gpuTier(gpu, "us-central1-a", "g2-standard-4", line("node_count", "1"))))
	if stdout, _, err := owner.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, stdout)
	}
	t.Cleanup(func() {
		if stdout, _, err := owner.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Errorf("destroy: %v\n%s", err, stdout)
		}
	})
	if err := tg.Emulator.FailNext(emulator.MethodComputeResourcePoliciesGet, 1<<20, 403); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.Emulator.FailNext(emulator.MethodComputeResourcePoliciesGet, 0, 403) })
	importer := acctest.NewWorkspace(t, env, tf, config(tg, prefix, "", gpuTier(gpu, "us-central1-a", "g2-standard-4", line("node_count", "1"))))
	gets := tg.Emulator.Counters()[emulator.MethodComputeResourcePoliciesGet]
	if stdout, stderr, err := importer.Run("import", "-input=false", "-no-color", address, tg.Cluster+"/nodePools/"+gpu); err != nil {
		t.Fatalf("import of the GPU pool: %v\n%s\n%s", err, stdout, stderr)
	}
	if n := tg.Emulator.Counters()[emulator.MethodComputeResourcePoliciesGet] - gets; n != 0 {
		t.Errorf("the import read %d workload policies, want none", n)
	}
	// Hand the pool back: one state manages it.
	if stdout, _, err := importer.Run("state", "rm", address); err != nil {
		t.Fatalf("state rm: %v\n%s", err, stdout)
	}
}

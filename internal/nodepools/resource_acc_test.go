// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"testing"

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

func TestAccFallbackNodePools_tpuAndGPU(t *testing.T) {
	withSerializedCreates(t, func(t *testing.T, mode func(*emulator.Scenario)) {
		tg := newTarget(t, mode)
		tpuZone, gpuZone := zones(tg)
		prefix := acctest.RandomName("tg")
		class := prefix + "-class"
		tpuName, gpuName := prefix+"-v6e", prefix+"-l4"
		cfg := config(tg, class, "",
			tpuTier(tpuName, tpuZone, "v6e-4", line("min_node_count", "0"), line("max_node_count", "2")),
			gpuTier(gpuName, gpuZone, "g2-standard-4", line("gpu_driver_version", `"LATEST"`)))
		// Terraform's own YAML parser reads the manifest back, as kubernetes_manifest would.
		cfg += "output \"compute_class\" {\n  value = yamldecode(accel_fallback_nodepools.test.compute_class_manifest)\n}\n"
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             checkDestroyed(tg, tpuName, gpuName),
			Steps: []resource.TestStep{
				{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(address, tierPath(0, "machine_type"), knownvalue.StringExact("ct6e-standard-4t")),
						plancheck.ExpectKnownValue(address, tierPath(0, "topology"), knownvalue.StringExact("2x2")),
						plancheck.ExpectKnownValue(address, tierPath(1, "gpu_count"), knownvalue.Int64Exact(1)),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						expectPools{tg: tg, prefix: prefix, names: []string{tpuName, gpuName}},
						statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(resourceIDOf(tg, tpuName, gpuName))),
						statecheck.ExpectKnownValue(address, tierPath(0, "status"), knownvalue.StringExact("RUNNING")),
						statecheck.ExpectKnownValue(address, tierPath(0, "placement_policy"), knownvalue.Null()),
						statecheck.ExpectKnownValue(address, tierPath(0, "node_count"), knownvalue.Null()),
						statecheck.ExpectKnownValue(address, tierPath(0, "accelerator_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
							"cloud.google.com/gke-tpu-accelerator": knownvalue.StringExact("tpu-v6e-slice"),
							"cloud.google.com/gke-tpu-topology":    knownvalue.StringExact("2x2"),
						})),
						statecheck.ExpectKnownValue(address, tierPath(0, "node_taints"), knownvalue.ListExact([]knownvalue.Check{
							noScheduleTaint("google.com/tpu", "present"),
							noScheduleTaint("cloud.google.com/compute-class", class),
						})),
						statecheck.ExpectKnownValue(address, tierPath(1, "accelerator_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
							"cloud.google.com/gke-accelerator": knownvalue.StringExact("nvidia-l4"),
						})),
						statecheck.ExpectKnownValue(address, tierPath(1, "node_count"), knownvalue.Int64Exact(1)),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("node_selector"), knownvalue.MapExact(map[string]knownvalue.Check{
							"cloud.google.com/compute-class": knownvalue.StringExact(class),
						})),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("tolerations"), knownvalue.ListExact([]knownvalue.Check{
							tolerationCheck("google.com/tpu", "Exists", "", "NoSchedule"),
							tolerationCheck("cloud.google.com/compute-class", "Equal", class, "NoSchedule"),
							tolerationCheck("nvidia.com/gpu", "Exists", "", "NoSchedule"),
						})),
						statecheck.ExpectKnownValue(address, tfjsonpath.New("compute_class_manifest"), knownvalue.StringExact(fmt.Sprintf(
							"apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata:\n  name: %q\nspec:\n  priorities:\n"+
								"  - nodepools:\n    - %q\n  - nodepools:\n    - %q\n  whenUnsatisfiable: DoNotScaleUp\n", class, tpuName, gpuName))),
						statecheck.ExpectKnownOutputValue("compute_class", knownvalue.ObjectExact(map[string]knownvalue.Check{
							"apiVersion": knownvalue.StringExact("cloud.google.com/v1"),
							"kind":       knownvalue.StringExact("ComputeClass"),
							"metadata":   knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(class)}),
							"spec": knownvalue.ObjectExact(map[string]knownvalue.Check{
								"priorities": knownvalue.ListExact([]knownvalue.Check{
									knownvalue.ObjectExact(map[string]knownvalue.Check{"nodepools": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(tpuName)})}),
									knownvalue.ObjectExact(map[string]knownvalue.Check{"nodepools": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(gpuName)})}),
								}),
								"whenUnsatisfiable": knownvalue.StringExact("DoNotScaleUp"),
							}),
						})),
						poolCheck{tg: tg, name: gpuName, check: func(p *container.NodePool) error {
							if p.Config.Labels["cloud.google.com/compute-class"] != class ||
								!hasTaint(p, "cloud.google.com/compute-class", class, "NO_SCHEDULE") ||
								!hasTaint(p, "nvidia.com/gpu", "present", "NO_SCHEDULE") {
								return fmt.Errorf("GPU pool lacks the ComputeClass label or taints: labels %v", p.Config.Labels)
							}
							if len(p.Config.Accelerators) != 1 || p.Config.Accelerators[0].GpuDriverInstallationConfig.GpuDriverVersion != "LATEST" {
								return fmt.Errorf("GPU pool accelerators: %+v", p.Config.Accelerators)
							}
							return nil
						}},
					},
				},
				{
					ResourceName:            address,
					ImportState:             true,
					ImportStateVerify:       true,
					ImportStateId:           tg.Cluster + "/nodePools/" + tpuName + "," + gpuName,
					ImportStateVerifyIgnore: []string{"timeouts", "pools"}, // created_at is empty for imported pools
					ImportStateCheck: func(states []*terraform.InstanceState) error {
						want := map[string]string{
							"pools.%": "2", "pools." + tpuName + ".tier": "1", "pools." + gpuName + ".tier": "2",
							"pools." + tpuName + ".created_at": "", "pools." + gpuName + ".created_at": "",
						}
						for k, v := range want {
							if got, ok := states[0].Attributes[k]; !ok || got != v {
								return fmt.Errorf("imported %s = %q (set: %v), want %q", k, got, ok, v)
							}
						}
						return nil
					},
				},
			},
		})
	})
}

// TestAccFallbackNodePools_tpuTierByMachineType: a TPU tier written the way
// GKE writes a TPU pool, by its machine type and topology without an
// accelerator type, is a TPU tier: created with the TPU taint and labels,
// and the next plan is empty.
func TestAccFallbackNodePools_tpuTierByMachineType(t *testing.T) {
	tg := newTarget(t)
	tpuZone, _ := zones(tg)
	prefix := acctest.RandomName("mt")
	name := prefix + "-v6e"
	cfg := config(tg, prefix, "", tier{name: name, attrs: line("machine_type", `"ct6e-standard-4t"`) + line("topology", `"2x2"`) +
		line("node_locations", fmt.Sprintf("[%q]", tpuZone))})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{{
			Config:           cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tierPath(0, "machine_type"), knownvalue.StringExact("ct6e-standard-4t")),
				statecheck.ExpectKnownValue(address, tierPath(0, "topology"), knownvalue.StringExact("2x2")),
				poolCheck{tg: tg, name: name, check: func(p *container.NodePool) error {
					for _, tt := range p.Config.Taints {
						if tt.Key == "google.com/tpu" {
							return nil
						}
					}
					return fmt.Errorf("the pool has taints %v, want the TPU taint", p.Config.Taints)
				}},
			},
		}},
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

const address = "accel_fallback_nodepools.test"

// zones returns a zone offering v6e and one offering L4 GPUs in the target
// cluster's region: on the emulator's us-central1 cluster, b and a; on a
// sandbox, the sandbox zone for both.
func zones(tg *acctest.Target) (tpuZone, gpuZone string) {
	if tg.Emulator != nil {
		return "us-central1-b", "us-central1-a"
	}
	return tg.Zone, tg.Zone
}

// newTarget starts the test's target and skips when it cannot hold node pools.
func newTarget(t *testing.T, opts ...func(*emulator.Scenario)) *acctest.Target {
	t.Helper()
	tg := acctest.New(t, opts...)
	tg.RequireCluster(t)
	return tg
}

// withSerializedCreates runs test with pool creates serialized, as GKE
// may (each create refused while another pool operation runs): the
// behaviour in which the provider waits and retries. What changes with
// concurrent creates is pinned where the outcome differs: the engine's
// tests against the emulator (TestExecuteOrder, TestCallWaitsForBlockingOperation,
// TestConcurrentCreatesNeedConcurrency) and TestAccFallbackNodePools_concurrency,
// which runs both. Against a sandbox, GKE decides.
func withSerializedCreates(t *testing.T, test func(t *testing.T, mode func(*emulator.Scenario))) {
	t.Helper()
	test(t, func(sc *emulator.Scenario) { sc.SerializePoolCreates = !acctest.Sandbox() })
}

// pools returns the node pools of the target's cluster by short name.
func pools(tg *acctest.Target) (map[string]*container.NodePool, error) {
	out := map[string]*container.NodePool{}
	if tg.Emulator != nil {
		prefix := tg.Cluster + "/nodePools/"
		for _, p := range tg.Emulator.NodePools() {
			if name, ok := strings.CutPrefix(p.Name, prefix); ok {
				out[name] = p.NodePool
			}
		}
		return out, nil
	}
	ctx := context.Background()
	svc, err := container.NewService(ctx, option.WithScopes("https://www.googleapis.com/auth/cloud-platform"))
	if err != nil {
		return nil, err
	}
	resp, err := svc.Projects.Locations.Clusters.NodePools.List(tg.Cluster).Context(ctx).Do()
	if err != nil {
		return nil, err
	}
	for _, p := range resp.NodePools {
		out[p.Name] = p
	}
	return out, nil
}

// checkDestroyed asserts that none of the named pools is left in the cluster.
func checkDestroyed(tg *acctest.Target, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := pools(tg)
		if err != nil {
			return err
		}
		for _, n := range names {
			if p, ok := got[n]; ok {
				return fmt.Errorf("node pool %s is left behind (status %s)", n, p.Status)
			}
		}
		return nil
	}
}

// expectPools is a state check against the cluster itself: exactly these
// pools of the test exist (other pools, such as default-pool, are ignored).
type expectPools struct {
	tg     *acctest.Target
	prefix string
	names  []string
}

func (e expectPools) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	got, err := pools(e.tg)
	if err != nil {
		resp.Error = err
		return
	}
	var names []string
	for n := range got {
		if strings.HasPrefix(n, e.prefix) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(e.names))
	if !slices.Equal(names, want) {
		resp.Error = fmt.Errorf("node pools with prefix %q: got %v, want %v", e.prefix, names, want)
	}
}

// poolCheck is a state check on one pool as the cluster reports it.
type poolCheck struct {
	tg    *acctest.Target
	name  string
	check func(*container.NodePool) error
}

func (c poolCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	got, err := pools(c.tg)
	if err != nil {
		resp.Error = err
		return
	}
	p, ok := got[c.name]
	if !ok {
		resp.Error = fmt.Errorf("node pool %s does not exist", c.name)
		return
	}
	resp.Error = c.check(p)
}

func hasTaint(p *container.NodePool, key, value, effect string) bool {
	for _, t := range p.Config.Taints {
		if t.Key == key && t.Value == value && t.Effect == effect {
			return true
		}
	}
	return false
}

// tier is one tier of a test configuration.
type tier struct {
	name  string
	attrs string // HCL attribute lines
}

// config renders the resource with the given tiers.
func config(tg *acctest.Target, class, extra string, tiers ...tier) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"accel_fallback_nodepools\" \"test\" {\n  cluster       = %q\n  compute_class = %q\n%s", tg.Cluster, class, extra)
	for _, t := range tiers {
		fmt.Fprintf(&b, "\n  tiers {\n    name = %q\n%s  }\n", t.name, t.attrs)
	}
	b.WriteString("}\n")
	return tg.Config(b.String())
}

func tpuTier(name, zone, accel string, more ...string) tier {
	return tier{name: name, attrs: fmt.Sprintf("    accelerator_type = %q\n    node_locations   = [%q]\n%s", accel, zone, strings.Join(more, ""))}
}

func gpuTier(name, zone, machine string, more ...string) tier {
	return tier{name: name, attrs: fmt.Sprintf("    machine_type   = %q\n    gpu_type       = \"nvidia-l4\"\n    node_locations = [%q]\n%s", machine, zone, strings.Join(more, ""))}
}

// line renders one argument of a tier.
func line(attr, value string) string { return fmt.Sprintf("    %s = %s\n", attr, value) }

// block renders one nested block of a tier with the given arguments, in
// the order given as name, value pairs.
func block(name string, args ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %s {\n", name)
	for i := 0; i+1 < len(args); i += 2 {
		fmt.Fprintf(&b, "      %s = %s\n", args[i], args[i+1])
	}
	b.WriteString("    }\n")
	return b.String()
}

func tierPath(i int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("tiers").AtSliceIndex(i).AtMapKey(attr)
}

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
							taintCheck("google.com/tpu", "present", "NO_SCHEDULE"),
							taintCheck("cloud.google.com/compute-class", class, "NO_SCHEDULE"),
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
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectEmptyPlan(),
					}},
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

func taintCheck(key, value, effect string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "value": knownvalue.StringExact(value), "effect": knownvalue.StringExact(effect),
	})
}

func tolerationCheck(key, operator, value, effect string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "operator": knownvalue.StringExact(operator),
		"value": knownvalue.StringExact(value), "effect": knownvalue.StringExact(effect),
	})
}

// resourceIDOf is the id of a resource with the named pools: the cluster
// and the pool names in name order, whatever the tiers' order.
func resourceIDOf(tg *acctest.Target, names ...string) string {
	return tg.Cluster + "/nodePools/" + strings.Join(slices.Sorted(slices.Values(names)), ",")
}

// poolID is the full name of a pool of the target's cluster.
func poolID(tg *acctest.Target, name string) string { return tg.Cluster + "/nodePools/" + name }

// addGKEStyleMetadata adds, out of band, a node label and a node taint of
// the kind GKE adds by itself (GKE Sandbox's), through the GKE API of the
// emulator, and waits for the update.
func addGKEStyleMetadata(tg *acctest.Target, pool string) error {
	ctx := context.Background()
	svc, err := container.NewService(ctx, option.WithEndpoint(tg.Emulator.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		return err
	}
	name := poolID(tg, pool)
	np, err := svc.Projects.Locations.Clusters.NodePools.Get(name).Context(ctx).Do()
	if err != nil {
		return err
	}
	labels := map[string]string{"sandbox.gke.io/runtime": "gvisor"}
	for k, v := range np.Config.Labels {
		labels[k] = v
	}
	taints := append(np.Config.Taints, &container.NodeTaint{Key: "sandbox.gke.io/runtime", Value: "gvisor", Effect: "NO_SCHEDULE"})
	op, err := svc.Projects.Locations.Clusters.NodePools.Update(name, &container.UpdateNodePoolRequest{
		Labels: &container.NodeLabels{Labels: labels},
		Taints: &container.NodeTaints{Taints: taints},
	}).Context(ctx).Do()
	if err != nil {
		return err
	}
	project, location, _, err := gcp.ParseClusterID(tg.Cluster)
	if err != nil {
		return err
	}
	clients := gcp.NewClients(gcp.Config{ContainerEndpoint: tg.Emulator.ContainerEndpoint(), Polling: gcp.Polling{Initial: 10 * time.Millisecond, Max: 50 * time.Millisecond}})
	_, err = clients.WaitContainerOperation(ctx, project, location, op)
	return err
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

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
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

// noScheduleTaint checks a NO_SCHEDULE taint of a tier.
func noScheduleTaint(key, value string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "value": knownvalue.StringExact(value), "effect": knownvalue.StringExact("NO_SCHEDULE"),
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
	return tg.WaitGKE(ctx, op)
}

// phrases matches the given phrases in order, whatever line breaks the CLI
// put between their words.
func phrases(ps ...string) *regexp.Regexp {
	quoted := make([]string, len(ps))
	for i, p := range ps {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// ours reports whether the pool still carries the ownership label.
func ours(np *container.NodePool) bool {
	_, ok := np.Config.ResourceLabels["accel-managed"]
	return ok
}

// poolsCreated checks that a step (counted by calls from its snapshot)
// created exactly one pool for a re-creation, none for an in-place change
// of what. Against a sandbox project, where nothing counts calls, it checks
// nothing.
func poolsCreated(calls *acctest.Calls, recreated bool, what string) acctest.CheckFunc {
	return func() error {
		want := int64(0)
		if recreated {
			want = 1
		}
		if got, counting := calls.Since(emulator.MethodNodePoolsCreate); counting && got != want {
			return fmt.Errorf("changing %s created %d node pools, want %d", what, got, want)
		}
		return nil
	}
}

// offlineConfig renders the resource under a provider with no credentials
// and no endpoints: every check below happens at plan time, offline.
func offlineConfig(body string) string {
	return acctest.OfflineProviderConfig + "\n" + body
}

// resourceHCL renders the resource with one tiers block per tier, each
// given as its arguments in braces, separated by commas, as in
// `{ name = "x", node_locations = ["a", "b"] }`, or as a whole block.
func resourceHCL(cluster, class, extra string, tiers ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"accel_fallback_nodepools\" \"test\" {\n  cluster       = %q\n  compute_class = %q\n%s", cluster, class, extra)
	for _, t := range tiers {
		if !strings.HasPrefix(t, "{") {
			b.WriteString(t + "\n")
			continue
		}
		b.WriteString("  tiers {\n")
		for _, arg := range splitArguments(strings.TrimSuffix(strings.TrimPrefix(t, "{"), "}")) {
			b.WriteString("    " + arg + "\n")
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// leftoverPool is the L4 pool an apply of gpuTier(name, zone,
// "g2-standard-4") under ComputeClass class creates, as an apply killed
// right after its create request leaves it: not in any state, still
// provisioning. owner, when not empty, is the owner id in its ownership
// label; without it and without class (""), the pool looks created outside
// this provider (like a cluster's default-pool).
func leftoverPool(name, zone, class, owner string) *container.NodePool {
	np := &container.NodePool{
		Name:             name,
		InitialNodeCount: 1,
		Locations:        []string{zone},
		Config: &container.NodeConfig{
			MachineType:  "g2-standard-4",
			Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-l4", AcceleratorCount: 1}},
		},
	}
	if class != "" {
		np.Config.Labels = map[string]string{"cloud.google.com/compute-class": class}
	}
	if owner != "" {
		np.Config.ResourceLabels = map[string]string{"accel-managed": owner}
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

// everyAttribute sets every attribute a configuration can set on
// accel_fallback_nodepools, nested ones included, to a valid value on the
// emulator: a TPU tier with a fixed size, a GPU tier that autoscales per
// zone and one with total limits (node_count, the per-zone and the total
// autoscaling bounds exclude each other).
// TestAccFallbackNodePools_unknownAtPlan fails for an attribute missing here.
func everyAttribute(tg *acctest.Target) map[string]any {
	tpuZone, gpuZone := zones(tg)
	return map[string]any{
		"cluster":            tg.Cluster,
		"compute_class":      "unknown",
		"on_stockout":        "continue",
		"when_unsatisfiable": "ScaleUpAnyway",
		"active_migration":   true,
		// false, so that the test's own destroy deletes the pools.
		"deletion_protection": false,
		"validation":          "strict",
		"timeouts":            map[string]any{"create": "30m", "update": "30m", "delete": "30m"},
		"tiers": []any{
			map[string]any{
				"name":             "tpu",
				"replaces":         "gone", // a tier the state does not hold: nothing to delete
				"accelerator_type": "v6e-4",
				"machine_type":     "ct6e-standard-4t",
				"topology":         "2x2",
				"node_locations":   []any{tpuZone},
				"node_count":       1,
				"spot":             true,
				"auto_repair":      true,
				"auto_upgrade":     false,
				"labels":           map[string]any{"team": "serving"},
				"taints":           []any{map[string]any{"key": "dedicated", "value": "serving", "effect": "NO_SCHEDULE"}},
				"reservation_affinity": map[string]any{
					"consume_reservation_type": "SPECIFIC_RESERVATION",
					"key":                      "compute.googleapis.com/reservation-name",
					"values":                   []any{"tpu-reservation"},
				},
				"disk_size_gb":           200,
				"disk_type":              "hyperdisk-balanced",
				"image_type":             "COS_CONTAINERD",
				"image_streaming":        true,
				"service_account":        "nodes@p.iam.gserviceaccount.com",
				"oauth_scopes":           []any{"https://www.googleapis.com/auth/cloud-platform"},
				"max_pods_per_node":      32,
				"workload_metadata_mode": "GKE_METADATA",
				"tags":                   []any{"serving"},
				"resource_labels":        map[string]any{"team": "serving"},
				"max_surge":              2,
				"max_unavailable":        1,
				"secure_boot":            true,
				"integrity_monitoring":   true,
			},
			map[string]any{
				"name":                       "gpu",
				"machine_type":               "a2-highgpu-1g",
				"gpu_type":                   "nvidia-tesla-a100",
				"gpu_count":                  1,
				"gpu_driver_version":         "LATEST",
				"node_locations":             []any{gpuZone},
				"min_node_count":             0,
				"max_node_count":             2,
				"location_policy":            "ANY",
				"gpu_partition_size":         "1g.5gb",
				"local_nvme_ssd_block_count": 1,
				"gpu_sharing_config":         map[string]any{"gpu_sharing_strategy": "TIME_SHARING", "max_shared_clients_per_gpu": 2},
				"flex_start":                 true,
				"max_run_duration":           "24h",
				"queued_provisioning":        true,
				// A batch is a share or a count of nodes: the share here,
				// the count in gpu-total.
				"blue_green_settings": map[string]any{"standard_rollout_policy": map[string]any{"batch_percentage": 0.5}},
			},
			map[string]any{
				"name":             "ironwood",
				"accelerator_type": "tpu7x-16",
				"node_locations":   []any{ironwoodZone},
				"workload_policy":  everyAttributePolicy,
			},
			// Total autoscaling limits exclude the per-zone ones.
			map[string]any{
				"name":                 "gpu-total",
				"machine_type":         "g2-standard-4",
				"node_locations":       []any{gpuZone},
				"total_min_node_count": 0,
				"total_max_node_count": 2,
				// The Local SSD modes exclude each other.
				"ephemeral_storage_local_ssd_count": 1,
				"version":                           "1.34", // the ironwood cluster's control plane runs 1.34.1
				"gvnic":                             true,
				"confidential_nodes":                false,
				"enable_private_nodes":              true,
				"resource_manager_tags":             map[string]any{"tagKeys/281": "tagValues/7"},
				"boot_disk_kms_key":                 "projects/kms/locations/us-central1/keyRings/nodes/cryptoKeys/boot",
				"sandbox_type":                      "gvisor",
				"secondary_boot_disks":              []any{map[string]any{"disk_image": "global/images/cache", "mode": "CONTAINER_IMAGE_CACHE"}},
				"kubelet_config": map[string]any{"cpu_manager_policy": "static", "cpu_cfs_quota": true, "cpu_cfs_quota_period": "100ms",
					"pod_pids_limit": 4096, "image_gc_low_threshold_percent": 70, "image_gc_high_threshold_percent": 80,
					"container_log_max_files": 5},
				"linux_node_config": map[string]any{"sysctls": map[string]any{"net.core.somaxconn": "4096"}, "cgroup_mode": "CGROUP_MODE_V2",
					"hugepage_size_2m": 128, "hugepage_size_1g": 1},
				"threads_per_core": 1,
				"upgrade_strategy": "BLUE_GREEN",
				"blue_green_settings": map[string]any{"node_pool_soak_duration": "600s",
					"standard_rollout_policy": map[string]any{"batch_node_count": 1, "batch_soak_duration": "60s"}},
				"create_pod_range":                true,
				"pod_range":                       "gpu-total-pods",
				"pod_ipv4_cidr_block":             "/21",
				"gpudirect_strategy":              "RDMA",
				"fast_socket":                     true,
				"additional_node_network_configs": []any{map[string]any{"network": "gpu-net-1", "subnetwork": "gpu-sub-1"}},
				"additional_pod_network_configs": []any{map[string]any{"subnetwork": "pod-sub-1", "secondary_pod_range": "pods-1",
					"max_pods_per_node": 16}},
				"containerd_config": map[string]any{"private_registry_access_config": map[string]any{"enabled": true,
					"certificate_authority_domain_config": []any{map[string]any{"fqdns": []any{"registry.internal"},
						"gcp_secret_manager_certificate_config": map[string]any{"secret_uri": "projects/p/secrets/ca/versions/1"}}}}},
			},
		},
	}
}

// ironwoodZone is the zone that offers TPU7x (the Cloud TPU regions and
// zones page: us-central1-c).
const ironwoodZone = "us-central1-c"

// ironwoodTarget is a target on the emulator's cluster that runs a GKE
// version with TPU7x (Standard 1.34.0-gke.2201000 and later, GKE's
// Ironwood page), with nodes in the TPU7x zone and an L4 zone.
func ironwoodTarget(t *testing.T) *acctest.Target {
	t.Helper()
	tg := newTarget(t)
	if tg.Emulator != nil {
		tg.Cluster = "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/ironwood"
	}
	return tg
}

// everyAttributePolicy is the workload policy everyAttribute's TPU7x tier
// names: created by everyAttributeTarget.
const everyAttributePolicy = "every-attribute"

// everyAttributeTarget is an ironwoodTarget with the workload policy
// everyAttribute names.
func everyAttributeTarget(t *testing.T) *acctest.Target {
	t.Helper()
	tg := ironwoodTarget(t)
	if tg.Emulator == nil {
		return tg
	}
	rp, err := tg.Clients().ResourcePolicies(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	p := &compute.ResourcePolicy{Name: everyAttributePolicy,
		WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "HIGH_THROUGHPUT", AcceleratorTopology: "2x2x2"}}
	if err := rp.Insert(t.Context(), tg.Project, "us-central1", p); err != nil {
		t.Fatal(err)
	}
	return tg
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

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
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// settingCase is one node setting: its HCL before and after a change, what
// GKE must report for each, and whether the change is made in place.
type settingCase struct {
	name           string
	gpu            bool // a GPU tier setting (else set on the TPU tier)
	totals         bool // a GPU tier with total autoscaling limits (not per zone)
	before, after  string
	inPlace        bool
	reportsBefore  func(*container.NodePool) bool
	reportsAfter   func(*container.NodePool) bool
	stateAttribute string
	stateAfter     knownvalue.Check
}

func settingCases() []settingCase {
	cfg := func(np *container.NodePool) *container.NodeConfig { return np.Config }
	return []settingCase{
		{name: "disk_size_gb", before: line("disk_size_gb", "200"), after: line("disk_size_gb", "300"), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return cfg(np).DiskSizeGb == 200 },
			reportsAfter:   func(np *container.NodePool) bool { return cfg(np).DiskSizeGb == 300 },
			stateAttribute: "disk_size_gb", stateAfter: knownvalue.Int64Exact(300)},
		{name: "disk_type", before: line("disk_type", `"pd-ssd"`), after: line("disk_type", `"hyperdisk-balanced"`), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return cfg(np).DiskType == "pd-ssd" },
			reportsAfter:   func(np *container.NodePool) bool { return cfg(np).DiskType == "hyperdisk-balanced" },
			stateAttribute: "disk_type", stateAfter: knownvalue.StringExact("hyperdisk-balanced")},
		{name: "image_type", before: line("image_type", `"UBUNTU_CONTAINERD"`), after: line("image_type", `"COS_CONTAINERD"`), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return cfg(np).ImageType == "UBUNTU_CONTAINERD" },
			reportsAfter:   func(np *container.NodePool) bool { return cfg(np).ImageType == "COS_CONTAINERD" },
			stateAttribute: "image_type", stateAfter: knownvalue.StringExact("COS_CONTAINERD")},
		{name: "image_streaming", gpu: true, before: line("image_streaming", "false"), after: line("image_streaming", "true"), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return cfg(np).GcfsConfig == nil || !cfg(np).GcfsConfig.Enabled },
			reportsAfter:   func(np *container.NodePool) bool { return cfg(np).GcfsConfig != nil && cfg(np).GcfsConfig.Enabled },
			stateAttribute: "image_streaming", stateAfter: knownvalue.Bool(true)},
		{name: "workload_metadata_mode", before: line("workload_metadata_mode", `"GCE_METADATA"`), after: line("workload_metadata_mode", `"GKE_METADATA"`), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return modeOf(np) == "GCE_METADATA" },
			reportsAfter:   func(np *container.NodePool) bool { return modeOf(np) == "GKE_METADATA" },
			stateAttribute: "workload_metadata_mode", stateAfter: knownvalue.StringExact("GKE_METADATA")},
		{name: "tags", before: line("tags", `["serving"]`), after: line("tags", `["serving", "vllm"]`), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return slices.Equal(cfg(np).Tags, []string{"serving"}) },
			reportsAfter:   func(np *container.NodePool) bool { return slices.Equal(cfg(np).Tags, []string{"serving", "vllm"}) },
			stateAttribute: "tags", stateAfter: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("serving"), knownvalue.StringExact("vllm")})},
		{name: "resource_labels", before: line("resource_labels", `{ team = "serving" }`), after: line("resource_labels", `{ team = "ml", cost = "gpu" }`), inPlace: true,
			reportsBefore: func(np *container.NodePool) bool { return cfg(np).ResourceLabels["team"] == "serving" && ours(np) },
			reportsAfter: func(np *container.NodePool) bool {
				return cfg(np).ResourceLabels["team"] == "ml" && cfg(np).ResourceLabels["cost"] == "gpu" && ours(np)
			},
			stateAttribute: "resource_labels", stateAfter: knownvalue.MapExact(map[string]knownvalue.Check{
				"team": knownvalue.StringExact("ml"), "cost": knownvalue.StringExact("gpu")})},
		{name: "location_policy", gpu: true, before: line("location_policy", `"BALANCED"`), after: line("location_policy", `"ANY"`), inPlace: true,
			reportsBefore: func(np *container.NodePool) bool {
				return np.Autoscaling != nil && np.Autoscaling.LocationPolicy == "BALANCED"
			},
			reportsAfter: func(np *container.NodePool) bool {
				return np.Autoscaling != nil && np.Autoscaling.LocationPolicy == "ANY"
			},
			stateAttribute: "location_policy", stateAfter: knownvalue.StringExact("ANY")},
		{name: "service_account", before: line("service_account", `"nodes@p.iam.gserviceaccount.com"`), after: line("service_account", `"serving@p.iam.gserviceaccount.com"`),
			reportsBefore: func(np *container.NodePool) bool { return cfg(np).ServiceAccount == "nodes@p.iam.gserviceaccount.com" },
			reportsAfter: func(np *container.NodePool) bool {
				return cfg(np).ServiceAccount == "serving@p.iam.gserviceaccount.com"
			},
			stateAttribute: "service_account", stateAfter: knownvalue.StringExact("serving@p.iam.gserviceaccount.com")},
		{name: "oauth_scopes", before: line("oauth_scopes", `["https://www.googleapis.com/auth/cloud-platform"]`),
			after:          line("oauth_scopes", `["https://www.googleapis.com/auth/devstorage.read_only", "https://www.googleapis.com/auth/logging.write"]`),
			reportsBefore:  func(np *container.NodePool) bool { return len(cfg(np).OauthScopes) == 1 },
			reportsAfter:   func(np *container.NodePool) bool { return len(cfg(np).OauthScopes) == 2 },
			stateAttribute: "oauth_scopes", stateAfter: knownvalue.SetSizeExact(2)},
		{name: "max_pods_per_node", before: line("max_pods_per_node", "32"), after: line("max_pods_per_node", "64"),
			reportsBefore:  func(np *container.NodePool) bool { return np.MaxPodsConstraint.MaxPodsPerNode == 32 },
			reportsAfter:   func(np *container.NodePool) bool { return np.MaxPodsConstraint.MaxPodsPerNode == 64 },
			stateAttribute: "max_pods_per_node", stateAfter: knownvalue.Int64Exact(64)},
		{name: "max_surge", before: line("max_surge", "2"), after: line("max_surge", "3"), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return surgeOf(np) == "2/0" },
			reportsAfter:   func(np *container.NodePool) bool { return surgeOf(np) == "3/0" },
			stateAttribute: "max_surge", stateAfter: knownvalue.Int64Exact(3)},
		{name: "max_unavailable", gpu: true, before: line("max_unavailable", "1"), after: line("max_unavailable", "2"), inPlace: true,
			reportsBefore:  func(np *container.NodePool) bool { return surgeOf(np) == "1/1" },
			reportsAfter:   func(np *container.NodePool) bool { return surgeOf(np) == "1/2" },
			stateAttribute: "max_unavailable", stateAfter: knownvalue.Int64Exact(2)},
		{name: "secure_boot", before: line("secure_boot", "true"), after: line("secure_boot", "false"),
			reportsBefore:  func(np *container.NodePool) bool { return shieldedOf(np) == "true/true" },
			reportsAfter:   func(np *container.NodePool) bool { return shieldedOf(np) == "false/true" },
			stateAttribute: "secure_boot", stateAfter: knownvalue.Bool(false)},
		{name: "integrity_monitoring", gpu: true, before: line("integrity_monitoring", "false"), after: line("integrity_monitoring", "true"),
			reportsBefore:  func(np *container.NodePool) bool { return shieldedOf(np) == "false/false" },
			reportsAfter:   func(np *container.NodePool) bool { return shieldedOf(np) == "false/true" },
			stateAttribute: "integrity_monitoring", stateAfter: knownvalue.Bool(true)},
		{name: "total_max_node_count", gpu: true, totals: true,
			before:         line("total_min_node_count", "0") + line("total_max_node_count", "2"),
			after:          line("total_min_node_count", "1") + line("total_max_node_count", "3"),
			inPlace:        true,
			reportsBefore:  func(np *container.NodePool) bool { return totalsOf(np) == "0/2 per zone 0/0" },
			reportsAfter:   func(np *container.NodePool) bool { return totalsOf(np) == "1/3 per zone 0/0" },
			stateAttribute: "total_max_node_count", stateAfter: knownvalue.Int64Exact(3)},
		{name: "gpu_sharing_config", gpu: true,
			before:         block("gpu_sharing_config", "gpu_sharing_strategy", `"TIME_SHARING"`, "max_shared_clients_per_gpu", "4"),
			after:          block("gpu_sharing_config", "gpu_sharing_strategy", `"MPS"`, "max_shared_clients_per_gpu", "8"),
			reportsBefore:  func(np *container.NodePool) bool { return sharingOf(np) == "TIME_SHARING/4" },
			reportsAfter:   func(np *container.NodePool) bool { return sharingOf(np) == "MPS/8" },
			stateAttribute: "accelerator_labels", stateAfter: knownvalue.MapExact(map[string]knownvalue.Check{
				"cloud.google.com/gke-accelerator":                knownvalue.StringExact("nvidia-l4"),
				"cloud.google.com/gke-gpu-sharing-strategy":       knownvalue.StringExact("mps"),
				"cloud.google.com/gke-max-shared-clients-per-gpu": knownvalue.StringExact("8"),
			})},
	}
}

func modeOf(np *container.NodePool) string {
	if w := np.Config.WorkloadMetadataConfig; w != nil {
		return w.Mode
	}
	return ""
}

// surgeOf is the pool's "maxSurge/maxUnavailable".
func surgeOf(np *container.NodePool) string {
	if u := np.UpgradeSettings; u != nil {
		return fmt.Sprintf("%d/%d", u.MaxSurge, u.MaxUnavailable)
	}
	return ""
}

// totalsOf is the pool's "totalMin/totalMax per zone min/max".
func totalsOf(np *container.NodePool) string {
	if as := np.Autoscaling; as != nil && as.Enabled {
		return fmt.Sprintf("%d/%d per zone %d/%d", as.TotalMinNodeCount, as.TotalMaxNodeCount, as.MinNodeCount, as.MaxNodeCount)
	}
	return ""
}

// shieldedOf is the pool's "secureBoot/integrityMonitoring".
func shieldedOf(np *container.NodePool) string {
	if v := np.Config.ShieldedInstanceConfig; v != nil {
		return fmt.Sprintf("%t/%t", v.EnableSecureBoot, v.EnableIntegrityMonitoring)
	}
	return ""
}

func sharingOf(np *container.NodePool) string {
	for _, a := range np.Config.Accelerators {
		if g := a.GpuSharingConfig; g != nil {
			return fmt.Sprintf("%s/%d", g.GpuSharingStrategy, g.MaxSharedClientsPerGpu)
		}
	}
	return ""
}

// TestAccFallbackNodePools_settings: every node setting, set on a TPU or
// GPU tier, is sent on create and reported back; import gives the same
// state; changing it updates the pool in place (no pool created) or
// re-creates that tier's pool, as the plan says; and every step plans
// nothing after its apply. Each setting is on a tier (a pool) of its own,
// so one step changes the settings of a group together and each pool
// shows what its own change did.
func TestAccFallbackNodePools_settings(t *testing.T) {
	// The cases in groups, each a resource of its own, so that a failure
	// names a small group.
	newTarget(t).RequireEmulatorFor(t, "sets the service accounts nodes@p and serving@p, which exist only on the emulator")
	all := settingCases()
	const group = 6
	for first := 0; first < len(all); first += group {
		cases := all[first:min(first+group, len(all))]
		// Each group with an emulator of its own, whose pool creates it counts.
		t.Run(cases[0].name, func(t *testing.T) { testSettings(t, newTarget(t), cases) })
	}
}

// testSettings creates one resource with a tier per case in tg's cluster,
// imports it, then changes every case's setting in one step.
func testSettings(t *testing.T, tg *acctest.Target, cases []settingCase) {
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("set")
	name := func(i int) string { return fmt.Sprintf("%s-%d", prefix, i) }
	tierOf := func(i int, setting string) tier {
		c := cases[i]
		if c.totals {
			return gpuTier(name(i), gpuZone, "g2-standard-4", setting)
		}
		if c.gpu {
			return gpuTier(name(i), gpuZone, "g2-standard-4", line("min_node_count", "0"), line("max_node_count", "1"), setting)
		}
		return tpuTier(name(i), tpuZone, "v6e-1", setting)
	}
	// render gives the configuration with every case before its change, or
	// after it.
	render := func(changed bool) string {
		tiers := make([]tier, len(cases))
		for i, c := range cases {
			s := c.before
			if changed {
				s = c.after
			}
			tiers[i] = tierOf(i, s)
		}
		return config(tg, prefix, "", tiers...)
	}
	names := make([]string, len(cases))
	var created, changed []statecheck.StateCheck
	recreated := int64(0)
	creates := tg.Calls()
	provisioned := make([]int, len(cases))
	for i, c := range cases {
		names[i] = name(i)
		created = append(created, poolCheck{tg: tg, name: name(i), check: reports(c.name, c.reportsBefore)})
		changed = append(changed,
			poolCheck{tg: tg, name: name(i), check: reports(c.name, c.reportsAfter)},
			statecheck.ExpectKnownValue(address, tierPath(i, c.stateAttribute), c.stateAfter),
			poolRecreated(tg, name(i), &provisioned[i], !c.inPlace, c.name))
		if !c.inPlace {
			recreated++
		}
	}
	changed = append(changed, creates.Exactly(map[string]int64{emulator.MethodNodePoolsCreate: recreated}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, names...),
		Steps: []resource.TestStep{{
			Config:            render(false),
			ConfigStateChecks: created,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}, {
			ResourceName:            address,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateId:           tg.Cluster + "/nodePools/" + joinNames(names),
			ImportStateVerifyIgnore: []string{"timeouts", "pools"}, // created_at is empty for imported pools
		}, {
			PreConfig: func() {
				creates.Snapshot()
				for i := range cases {
					provisioned[i] = poolProvisionings(tg, name(i))
				}
			},
			Config: render(true),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: changed,
		}},
	})
}

// poolProvisionings counts the times the emulator started creating tg's
// pool name.
func poolProvisionings(tg *acctest.Target, name string) int {
	n := 0
	for _, e := range tg.Emulator.PoolEvents() {
		if e.Pool == poolID(tg, name) && e.Status == emulator.PoolProvisioning {
			n++
		}
	}
	return n
}

// poolRecreated checks that the pool name was created once since *before
// (the count of poolProvisionings then) when recreated, else not at all:
// the change of the setting what updated it in place.
func poolRecreated(tg *acctest.Target, name string, before *int, recreated bool, what string) acctest.CheckFunc {
	return func() error {
		want := *before
		if recreated {
			want++
		}
		if got := poolProvisionings(tg, name); got != want {
			return fmt.Errorf("changing %s: node pool %s was created %d time(s) since the change began, want %d", what, name, got-*before, want-*before)
		}
		return nil
	}
}

func reports(what string, ok func(*container.NodePool) bool) func(*container.NodePool) error {
	return func(np *container.NodePool) error {
		if !ok(np) {
			return fmt.Errorf("%s: node pool %s does not report the configured value", what, np.Name)
		}
		return nil
	}
}

func joinNames(names []string) string { return strings.Join(names, ",") }

// TestAccFallbackNodePools_settingsRejected: each setting GKE would refuse
// is an error at plan time, offline, on the tier's attribute, naming the
// value and what is valid.
func TestAccFallbackNodePools_settingsRejected(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	gpu := func(extra string) string {
		return `{ name = "g", machine_type = "g2-standard-4", node_locations = ["us-central1-a"], ` + extra + ` }`
	}
	sharing := func(tierArgs, strategy string, clients int) string {
		return "  tiers {\n" + tierArgs + "    gpu_sharing_config {\n      gpu_sharing_strategy = \"" + strategy +
			"\"\n      max_shared_clients_per_gpu = " + fmt.Sprint(clients) + "\n    }\n  }"
	}
	gpuArgs := "    name = \"g\"\n    machine_type = \"g2-standard-4\"\n    node_locations = [\"us-central1-a\"]\n"
	tpuArgs := "    name = \"t\"\n    accelerator_type = \"v6e-4\"\n    node_locations = [\"us-central1-b\"]\n"
	tpu := func(extra string) string {
		return `{ name = "t", accelerator_type = "v6e-4", node_locations = ["us-central1-b"], ` + extra + ` }`
	}
	cases := []struct {
		name, tier string
		want       *regexp.Regexp
	}{
		{"disk too small", tpu("disk_size_gb = 5"), phrases("Boot Disk Too Small", "disk_size_gb 5", "10 GB")},
		{"max pods", tpu("max_pods_per_node = 300"), phrases("Max Pods per Node Out of Range", "300", "8 to 256")},
		{"image streaming on Ubuntu", tpu(`image_type = "UBUNTU_CONTAINERD", image_streaming = true`),
			phrases("Image Streaming Needs Container-Optimized OS", `"UBUNTU_CONTAINERD"`, "COS_CONTAINERD")},
		{"location policy without autoscaling", tpu(`location_policy = "ANY"`), phrases("Location Policy Without Autoscaling")},
		{"ownership label", tpu(`resource_labels = { "accel-managed" = "x" }`), phrases("Resource Label Set by the Provider", "accel-managed")},
		{"label key", tpu(`resource_labels = { "Team" = "x" }`), phrases("Invalid Resource Label Key", `"Team"`)},
		{"partition on L4", gpu(`gpu_partition_size = "1g.5gb"`), phrases("GPU Does Not Support Partitions", "nvidia-l4", "nvidia-tesla-a100")},
		{"partition size", `{ name = "a", machine_type = "a2-highgpu-1g", node_locations = ["us-central1-a"], gpu_partition_size = "1g.10gb" }`,
			phrases("Unsupported GPU Partition Size", `"1g.10gb"`, "1g.5gb, 2g.10gb, 3g.20gb, 7g.40gb")},
		{"too many clients", sharing(gpuArgs, "TIME_SHARING", 49),
			phrases("Too Many Shared Clients per GPU", "49", "2 to 48")},
		{"one client is no sharing", sharing(gpuArgs, "MPS", 1),
			phrases("Too Few Shared Clients per GPU", "max_shared_clients_per_gpu 1", "2 to 48")},
		{"sharing on TPU", sharing(tpuArgs, "MPS", 2),
			phrases("GPU Sharing on a TPU Tier")},
		{"scope form", tpu(`oauth_scopes = ["cloud-platform"]`), phrases("oauth_scopes", "full scope URL")},
		{"no upgrade parallelism", tpu("max_surge = 0, max_unavailable = 0"), phrases("Upgrade Without Parallelism", "max_surge", "at least one of them above 0")},
		{"surge left to GKE's 1, unavailable 0 is fine; surge 0 alone is not", tpu("max_surge = 0"), phrases("Upgrade Without Parallelism", "max_unavailable 0")},
		{"total and per-zone limits", gpu("min_node_count = 0, max_node_count = 1, total_min_node_count = 0, total_max_node_count = 2"),
			phrases("Per-Zone and Total Autoscaling Limits", "mutually exclusive")},
		{"total max alone", gpu("total_max_node_count = 2"), phrases("Total Autoscaling Limits Need Both", "total_min_node_count")},
		{"totals out of order", gpu("total_min_node_count = 3, total_max_node_count = 2"), phrases("Autoscaling Bounds Out of Order", "total_max_node_count 2")},
		{"negative surge", tpu("max_surge = -1"), phrases("max_surge", "at least 0", "-1")},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		tier := c.tier
		steps = append(steps, resource.TestStep{
			Config:      offlineConfig(resourceHCL(cluster, "c", "", tier)),
			PlanOnly:    true,
			ExpectError: c.want,
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"maps"
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
)

// TestAccFallbackNodePools_productionSettings: a tier with a pinned node
// version, gVNIC, private nodes, Confidential Nodes off, Resource Manager
// tags, a boot disk key, GKE Sandbox and a secondary boot disk creates a
// pool GKE reports with each, and plans nothing more; an import reads them
// back; the version, gVNIC, private nodes, Confidential Nodes and tags
// change in place (no pool created), and another boot disk key re-creates
// the pool.
func TestAccFallbackNodePools_productionSettings(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "pins a node version older than the emulator's control plane")
	_, gpuZone := zones(tg)
	name := acctest.RandomName("prod")
	const key1 = "projects/kms/locations/us-central1/keyRings/nodes/cryptoKeys/boot"
	const key2 = "projects/kms/locations/us-central1/keyRings/nodes/cryptoKeys/boot-2"
	render := func(version, key string, on bool, tag string) string {
		b := map[bool]string{true: "true", false: "false"}
		policy := map[bool]string{true: `"static"`, false: `"none"`}[on]
		return config(tg, name, "", gpuTier(name, gpuZone, "g2-standard-4",
			line("version", `"`+version+`"`), line("auto_upgrade", "false"),
			line("gvnic", b[on]), line("enable_private_nodes", b[on]), line("confidential_nodes", b[!on]),
			line("resource_manager_tags", `{ "tagKeys/281" = "`+tag+`" }`),
			line("boot_disk_kms_key", `"`+key+`"`), line("sandbox_type", `"gvisor"`), line("image_streaming", "true"),
			block("secondary_boot_disks", "disk_image", `"global/images/vllm-cache"`, "mode", `"CONTAINER_IMAGE_CACHE"`),
			block("kubelet_config", "cpu_manager_policy", policy, "pod_pids_limit", "4096", "image_gc_low_threshold_percent", "70",
				"image_gc_high_threshold_percent", "80"),
			block("linux_node_config", "sysctls", `{ "net.core.somaxconn" = "`+map[bool]string{true: "4096", false: "2048"}[on]+`" }`,
				"hugepage_size_2m", map[bool]string{true: "512", false: "256"}[on]),
			line("threads_per_core", "1"),
			line("upgrade_strategy", `"BLUE_GREEN"`),
			"    blue_green_settings {\n      node_pool_soak_duration = \"1800s\"\n      standard_rollout_policy {\n"+
				"        batch_percentage = "+map[bool]string{true: "0.5", false: "0.25"}[on]+"\n        batch_soak_duration = \"60s\"\n      }\n    }\n",
			line("create_pod_range", "true"), line("pod_range", `"vllm-pods"`), line("pod_ipv4_cidr_block", `"/20"`),
			line("fast_socket", b[on]),
			block("additional_node_network_configs", "network", `"gpu-net-1"`, "subnetwork", `"gpu-sub-1"`),
			block("additional_pod_network_configs", "subnetwork", `"pod-sub-1"`, "secondary_pod_range", `"pods-1"`, "max_pods_per_node", "32"),
			"    containerd_config {\n      private_registry_access_config {\n        enabled = true\n"+
				"        certificate_authority_domain_config {\n          fqdns = [\"registry.internal:5000\"]\n"+
				"          gcp_secret_manager_certificate_config {\n            secret_uri = \"projects/p/secrets/ca/versions/"+
				map[bool]string{true: "1", false: "2"}[on]+"\"\n          }\n        }\n      }\n    }\n"))
	}
	pool := func(what string, ok func(np *container.NodePool) bool) poolCheck {
		return poolCheck{tg: tg, name: name, check: reports(what, ok)}
	}
	creates := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{{
			Config: render("1.32.9-gke.1000000", key1, true, "tagValues/7"),
			ConfigStateChecks: []statecheck.StateCheck{
				pool("version", func(np *container.NodePool) bool { return np.Version == "1.32.9-gke.1000000" }),
				pool("gvnic", func(np *container.NodePool) bool { return np.Config.Gvnic != nil && np.Config.Gvnic.Enabled }),
				pool("private nodes", func(np *container.NodePool) bool {
					return np.NetworkConfig != nil && np.NetworkConfig.EnablePrivateNodes
				}),
				pool("tags", func(np *container.NodePool) bool {
					return np.Config.ResourceManagerTags != nil && maps.Equal(np.Config.ResourceManagerTags.Tags, map[string]string{"tagKeys/281": "tagValues/7"})
				}),
				pool("boot disk key", func(np *container.NodePool) bool { return np.Config.BootDiskKmsKey == key1 }),
				pool("sandbox", func(np *container.NodePool) bool {
					return np.Config.SandboxConfig != nil && np.Config.SandboxConfig.Type == "GVISOR"
				}),
				pool("secondary boot disk", func(np *container.NodePool) bool {
					d := np.Config.SecondaryBootDisks
					return len(d) == 1 && d[0].DiskImage == "global/images/vllm-cache" && d[0].Mode == "CONTAINER_IMAGE_CACHE"
				}),
				pool("kubelet", func(np *container.NodePool) bool {
					k := np.Config.KubeletConfig
					return k != nil && k.CpuManagerPolicy == "static" && k.PodPidsLimit == 4096 && k.ImageGcHighThresholdPercent == 80
				}),
				pool("sysctls", func(np *container.NodePool) bool {
					return np.Config.LinuxNodeConfig != nil && np.Config.LinuxNodeConfig.Sysctls["net.core.somaxconn"] == "4096" &&
						np.Config.LinuxNodeConfig.Hugepages.HugepageSize2m == 512
				}),
				pool("threads per core", func(np *container.NodePool) bool {
					return np.Config.AdvancedMachineFeatures != nil && np.Config.AdvancedMachineFeatures.ThreadsPerCore == 1
				}),
				pool("blue-green", func(np *container.NodePool) bool {
					u := np.UpgradeSettings
					return u.Strategy == "BLUE_GREEN" && u.BlueGreenSettings != nil && u.BlueGreenSettings.NodePoolSoakDuration == "1800s" &&
						u.BlueGreenSettings.StandardRolloutPolicy.BatchPercentage == 0.5
				}),
				pool("pod range", func(np *container.NodePool) bool {
					nc := np.NetworkConfig
					return nc.PodRange == "vllm-pods" && strings.HasSuffix(nc.PodIpv4CidrBlock, "/20") && !nc.CreatePodRange
				}),
				pool("additional networks", func(np *container.NodePool) bool {
					nc := np.NetworkConfig
					return len(nc.AdditionalNodeNetworkConfigs) == 1 && nc.AdditionalNodeNetworkConfigs[0].Subnetwork == "gpu-sub-1" &&
						len(nc.AdditionalPodNetworkConfigs) == 1 && nc.AdditionalPodNetworkConfigs[0].MaxPodsPerNode.MaxPodsPerNode == 32
				}),
				pool("fast socket", func(np *container.NodePool) bool { return np.Config.FastSocket != nil && np.Config.FastSocket.Enabled }),
				pool("containerd", func(np *container.NodePool) bool {
					p := np.Config.ContainerdConfig.PrivateRegistryAccessConfig
					return p.Enabled && p.CertificateAuthorityDomainConfig[0].GcpSecretManagerCertificateConfig.SecretUri == "projects/p/secrets/ca/versions/1"
				}),
				statecheck.ExpectKnownValue(address, tierPath(0, "pod_ipv4_cidr_block"), knownvalue.StringExact("/20")),
				statecheck.ExpectKnownValue(address, tierPath(0, "confidential_nodes"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(address, tierPath(0, "sandbox_type"), knownvalue.StringExact("gvisor")),
				// GKE's own taint for sandboxed nodes is not the tier's.
				statecheck.ExpectKnownValue(address, tierPath(0, "effective_taints"), knownvalue.SetPartial([]knownvalue.Check{
					noScheduleTaint("sandbox.gke.io/runtime", "gvisor")})),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}, {
			ResourceName:      address,
			ImportState:       true,
			ImportStateVerify: true,
			ImportStateId:     poolID(tg, name),
			// GKE never reports create_pod_range (input only), and reports
			// the block a netmask named.
			ImportStateVerifyIgnore: []string{"timeouts", "pools", "tiers.0.create_pod_range", "tiers.0.pod_ipv4_cidr_block"},
		}, {
			// In place, to the version the alias 1.33 names.
			PreConfig: creates.Snapshot,
			Config:    render("1.33", key1, false, "tagValues/8"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				poolsCreated(creates, false, "the version, gVNIC, private nodes, Confidential Nodes and tags"),
				pool("version", func(np *container.NodePool) bool { return np.Version == "1.33.5-gke.1000000" }),
				pool("gvnic off", func(np *container.NodePool) bool { return np.Config.Gvnic != nil && !np.Config.Gvnic.Enabled }),
				pool("confidential", func(np *container.NodePool) bool {
					return np.Config.ConfidentialNodes != nil && np.Config.ConfidentialNodes.Enabled
				}),
				pool("public nodes", func(np *container.NodePool) bool { return !np.NetworkConfig.EnablePrivateNodes }),
				pool("tags", func(np *container.NodePool) bool {
					return np.Config.ResourceManagerTags.Tags["tagKeys/281"] == "tagValues/8"
				}),
				pool("kubelet", func(np *container.NodePool) bool { return np.Config.KubeletConfig.CpuManagerPolicy == "none" }),
				pool("blue-green batch", func(np *container.NodePool) bool {
					return np.UpgradeSettings.BlueGreenSettings.StandardRolloutPolicy.BatchPercentage == 0.25
				}),
				pool("fast socket off", func(np *container.NodePool) bool { return !np.Config.FastSocket.Enabled }),
				pool("containerd", func(np *container.NodePool) bool {
					p := np.Config.ContainerdConfig.PrivateRegistryAccessConfig
					return p.CertificateAuthorityDomainConfig[0].GcpSecretManagerCertificateConfig.SecretUri == "projects/p/secrets/ca/versions/2"
				}),
				pool("sysctls", func(np *container.NodePool) bool {
					return np.Config.LinuxNodeConfig.Sysctls["net.core.somaxconn"] == "2048" && np.Config.LinuxNodeConfig.Hugepages.HugepageSize2m == 256
				}),
				statecheck.ExpectKnownValue(address, tierPath(0, "version"), knownvalue.StringExact("1.33")),
			},
		}, {
			PreConfig: creates.Snapshot,
			Config:    render("1.33", key2, false, "tagValues/8"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				poolsCreated(creates, true, "the boot disk key"),
				pool("boot disk key", func(np *container.NodePool) bool { return np.Config.BootDiskKmsKey == key2 }),
			},
		}},
	})
}

// TestAccFallbackNodePools_productionSettingsRejected: each production
// setting GKE would refuse is an error at plan time, offline, on the
// tier's attribute, naming the value and what is valid.
func TestAccFallbackNodePools_productionSettingsRejected(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	gpu := func(extra string) string {
		return `{ name = "g", machine_type = "g2-standard-4", node_locations = ["us-central1-a"], ` + extra + ` }`
	}
	cases := []struct {
		name, tier string
		want       *regexp.Regexp
	}{
		{"version form", gpu(`version = "v1.33"`), phrases("version", "v1.33", "1.33.5-gke.1080000")},
		{"version empty", gpu(`version = ""`), phrases("version", "1.33.5-gke.1080000")},
		{"key form", gpu(`boot_disk_kms_key = "boot-key"`), phrases("Invalid Cloud KMS Key Name", "boot_disk_kms_key")},
		{"sandbox type", gpu(`sandbox_type = "kata"`), phrases("sandbox_type", `"kata"`, "gvisor")},
		{"tag key", gpu(`resource_manager_tags = { "env" = "prod" }`), phrases("resource_manager_tags", "tagKeys/KEY_ID")},
		{"tag value", gpu(`resource_manager_tags = { "tagKeys/1" = "tagValues/x/y" }`), phrases("resource_manager_tags", "tagValues/VALUE_ID")},
		{"pod block form", gpu(`pod_ipv4_cidr_block = "10.0.0.0"`), phrases("pod_ipv4_cidr_block", "/18")},
		{"gpudirect", gpu(`gpudirect_strategy = "TCPX"`), phrases("gpudirect_strategy", `"TCPX"`, "RDMA")},
		{"upgrade strategy", gpu(`upgrade_strategy = "ROLLING"`), phrases("upgrade_strategy", `"ROLLING"`, "BLUE_GREEN")},
		{"batch twice", `  tiers {
    name = "g"
    machine_type = "g2-standard-4"
    node_locations = ["us-central1-a"]
    blue_green_settings {
      standard_rollout_policy {
        batch_percentage = 0.5
        batch_node_count = 2
      }
    }
  }`, phrases("Batch Size Given Twice", "one of them")},
		{"soak duration", `  tiers {
    name = "g"
    machine_type = "g2-standard-4"
    node_locations = ["us-central1-a"]
    blue_green_settings {
      node_pool_soak_duration = "1h"
    }
  }`, phrases("node_pool_soak_duration", "3600s")},
		{"secret form", `  tiers {
    name = "g"
    machine_type = "g2-standard-4"
    node_locations = ["us-central1-a"]
    containerd_config {
      private_registry_access_config {
        enabled = true
        certificate_authority_domain_config {
          fqdns = ["r.internal"]
          gcp_secret_manager_certificate_config {
            secret_uri = "ca-cert"
          }
        }
      }
    }
  }`, phrases("secret_uri", "projects/PROJECT/secrets/SECRET/versions/VERSION")},
	}
	kubelet := func(args string) string {
		return "  tiers {\n    name = \"g\"\n    machine_type = \"g2-standard-4\"\n    node_locations = [\"us-central1-a\"]\n" +
			"    kubelet_config {\n" + args + "    }\n  }"
	}
	for _, c := range []struct {
		name, args string
		want       *regexp.Regexp
	}{
		{"cpu manager policy", `      cpu_manager_policy = "dynamic"` + "\n", phrases("cpu_manager_policy", `"dynamic"`, "static")},
		{"log files", "      container_log_max_files = 1\n", phrases("container_log_max_files", "2 and 10")},
		{"quota period", `      cpu_cfs_quota_period = "100"` + "\n", phrases("Invalid CPU CFS Quota Period", `"100"`, "100ms")},
		{"gc thresholds", "      image_gc_low_threshold_percent = 85\n      image_gc_high_threshold_percent = 80\n",
			phrases("Image GC Thresholds Out of Order", "(85)", "(80)")},
	} {
		cases = append(cases, struct {
			name, tier string
			want       *regexp.Regexp
		}{c.name, kubelet(c.args), c.want})
	}
	steps := make([]resource.TestStep, 0, len(cases)+2)
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config: offlineConfig(resourceHCL(cluster, "c", "", c.tier)), PlanOnly: true, ExpectError: c.want,
		})
	}
	block := func(args string) string {
		return "  tiers {\n    name = \"g\"\n    machine_type = \"g2-standard-4\"\n    node_locations = [\"us-central1-a\"]\n" +
			"    secondary_boot_disks {\n" + args + "    }\n  }"
	}
	steps = append(steps, resource.TestStep{
		Config:   offlineConfig(resourceHCL(cluster, "c", "", block("      disk_image = \"images/x\"\n"))),
		PlanOnly: true, ExpectError: phrases("disk_image", "global/images/NAME"),
	}, resource.TestStep{
		Config:   offlineConfig(resourceHCL(cluster, "c", "", block("      mode = \"CONTAINER_IMAGE_CACHE\"\n"))),
		PlanOnly: true, ExpectError: regexp.MustCompile(`disk_image`),
	})
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories, Steps: steps})
}

// TestAccFallbackNodePools_productionSettingsWarned: with the real CLI,
// settings that work against Google's advice plan with a warning that
// names the fix: a pinned version with auto-upgrade, an image cache with
// image streaming off, GKE Sandbox on Ubuntu; and, with GKE reachable, a
// node version newer than the control plane is an error.
func TestAccFallbackNodePools_productionSettingsWarned(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "reads the emulator's control plane version")
	_, gpuZone := zones(tg)
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	cfg := config(tg, "warned", "", gpuTier("warned", gpuZone, "g2-standard-4",
		line("version", `"1.33"`), line("image_type", `"UBUNTU_CONTAINERD"`), line("sandbox_type", `"gvisor"`),
		line("image_streaming", "false"), line("gpudirect_strategy", `"RDMA"`), line("pod_ipv4_cidr_block", `"/20"`),
		line("upgrade_strategy", `"SURGE"`), "    blue_green_settings {\n      node_pool_soak_duration = \"60s\"\n    }\n",
		"    containerd_config {\n      private_registry_access_config {\n        enabled = true\n      }\n    }\n",
		block("secondary_boot_disks", "disk_image", `"global/images/cache"`, "mode", `"CONTAINER_IMAGE_CACHE"`)))
	diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, cfg)
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, stdout)
	}
	var got []string
	for _, d := range diags {
		if d.Severity == "warning" {
			got = append(got, d.Summary)
		}
	}
	for _, want := range []string{"Node Version Pinned With Auto-Upgrade", "Image Cache Without Image Streaming", "GKE Sandbox on Another Image",
		"GPUDirect-RDMA on Another Machine Type", "Pod Range Block Without create_pod_range", "Blue-Green Settings With Surge Upgrades",
		"Private Registry Access Without a Certificate"} {
		if !slices.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
	newer := strings.Replace(cfg, `"1.33"`, `"1.34"`, 1)
	_, stdout, err = acctest.PlanDiagnostics(t, env, tf, newer)
	if err == nil || !strings.Contains(stdout, "Node Version Newer Than the Control Plane") || !strings.Contains(stdout, "1.33.5-gke.1000000") {
		t.Errorf("plan with version 1.34 on a 1.33.5 control plane: %v, want the error naming the control plane's version\n%s", err, stdout)
	}
}

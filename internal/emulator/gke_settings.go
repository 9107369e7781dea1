// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

// checkNodeSettings checks the node settings of a create or update.
func (s *Server) checkNodeSettings(cfg *container.NodeConfig, maxPods *container.MaxPodsConstraint) *apiError {
	if cfg.DiskSizeGb != 0 && cfg.DiskSizeGb < minDiskSizeGB {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.disk_size_gb\": %d. Disk size must be at least %d GB.", cfg.DiskSizeGb, minDiskSizeGB)
	}
	if maxPods != nil && (maxPods.MaxPodsPerNode < minPodsPerNode || maxPods.MaxPodsPerNode > maxPodsPerNode) {
		return s.gkeInvalid("Invalid value for field \"node_pool.max_pods_constraint.max_pods_per_node\": %d. Must be between %d and %d.",
			maxPods.MaxPodsPerNode, minPodsPerNode, maxPodsPerNode)
	}
	for _, check := range []func(*container.NodeConfig) *apiError{
		s.checkNodeDisks, s.checkNodeRuntime, s.checkNodeConfigSystem, s.checkResourceManagerTags,
		s.checkWorkloadMetadata, s.checkGPUSharing,
	} {
		if err := check(cfg); err != nil {
			return err
		}
	}
	return nil
}

// checkNodeDisks checks the boot disk's key, the sandbox and the secondary
// boot disks.
func (s *Server) checkNodeDisks(cfg *container.NodeConfig) *apiError {
	if k := cfg.BootDiskKmsKey; k != "" && !kmsKeyNameRE.MatchString(k) {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.boot_disk_kms_key\": %q. The key must be of the form "+
			"%s.", k, kmsKeyForm)
	}
	if sc := cfg.SandboxConfig; sc != nil && sc.Type != "" && sc.Type != "UNSPECIFIED" && sc.Type != "GVISOR" {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.sandbox_config.type\": %q.", sc.Type)
	}
	for i, d := range cfg.SecondaryBootDisks {
		if d == nil || d.DiskImage == "" {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.secondary_boot_disks[%d].disk_image\": must be set.", i)
		}
		if d.Mode != "" && d.Mode != "MODE_UNSPECIFIED" && d.Mode != "CONTAINER_IMAGE_CACHE" {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.secondary_boot_disks[%d].mode\": %q.", i, d.Mode)
		}
	}
	return nil
}

// checkNodeRuntime checks the GPUDirect and containerd settings.
func (s *Server) checkNodeRuntime(cfg *container.NodeConfig) *apiError {
	if g := cfg.GpuDirectConfig; g != nil && !slices.Contains([]string{"", "GPU_DIRECT_STRATEGY_UNSPECIFIED", "RDMA"}, g.GpuDirectStrategy) {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.gpu_direct_config.gpu_direct_strategy\": %q.", g.GpuDirectStrategy)
	}
	c := cfg.ContainerdConfig
	if c == nil || c.PrivateRegistryAccessConfig == nil {
		return nil
	}
	for i, d := range c.PrivateRegistryAccessConfig.CertificateAuthorityDomainConfig {
		if d == nil || len(d.Fqdns) == 0 || d.GcpSecretManagerCertificateConfig == nil ||
			!secretVersionForm.MatchString(d.GcpSecretManagerCertificateConfig.SecretUri) {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.containerd_config.private_registry_access_config."+
				"certificate_authority_domain_config[%d]\": fqdns and a Secret Manager secret version "+
				"(projects/{project}/secrets/{secret}/versions/{version}) must be set.", i)
		}
	}
	return nil
}

// checkNodeConfigSystem checks the node system configuration of a node
// config (checkNodeSystem).
func (s *Server) checkNodeConfigSystem(cfg *container.NodeConfig) *apiError {
	return s.checkNodeSystem(cfg.KubeletConfig, cfg.LinuxNodeConfig)
}

// checkResourceManagerTags checks the forms of the resource manager tags.
func (s *Server) checkResourceManagerTags(cfg *container.NodeConfig) *apiError {
	t := cfg.ResourceManagerTags
	if t == nil {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(t.Tags)) {
		if !tagKeyForm.MatchString(k) || !tagValueForm.MatchString(t.Tags[k]) ||
			strings.HasPrefix(k, "tagKeys/") != strings.HasPrefix(t.Tags[k], "tagValues/") {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.resource_manager_tags\": %q=%q. Tags must be "+
				"tagKeys/{tag_key_id}=tagValues/{tag_value_id}, {org_id}/{tag_key_name}={tag_value_name} or "+
				"{project_id}/{tag_key_name}={tag_value_name}.", k, t.Tags[k])
		}
	}
	return nil
}

// checkWorkloadMetadata checks the workload metadata mode.
func (s *Server) checkWorkloadMetadata(cfg *container.NodeConfig) *apiError {
	if w := cfg.WorkloadMetadataConfig; w != nil && !slices.Contains(workloadMetadataModes, w.Mode) {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.workload_metadata_config.mode\": %q.", w.Mode)
	}
	return nil
}

// checkGPUSharing checks the GPU sharing of each accelerator.
func (s *Server) checkGPUSharing(cfg *container.NodeConfig) *apiError {
	for _, a := range cfg.Accelerators {
		if a == nil || a.GpuSharingConfig == nil {
			continue
		}
		g := a.GpuSharingConfig
		if !slices.Contains(gpuSharingStrategies, g.GpuSharingStrategy) {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.accelerators.gpu_sharing_config.gpu_sharing_strategy\": %q.", g.GpuSharingStrategy)
		}
		if g.MaxSharedClientsPerGpu < 1 || g.MaxSharedClientsPerGpu > maxSharedClientsPerGPU {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.accelerators.gpu_sharing_config.max_shared_clients_per_gpu\": %d. Must be between 1 and %d.",
				g.MaxSharedClientsPerGpu, maxSharedClientsPerGPU)
		}
	}
	return nil
}

// checkLocationPolicy checks an autoscaling location policy and fills
// GKE's default.
func (s *Server) checkLocationPolicy(as *container.NodePoolAutoscaling) *apiError {
	if as == nil || !as.Enabled {
		return nil
	}
	if !slices.Contains(locationPolicies, as.LocationPolicy) {
		return s.gkeInvalid("Invalid value for field \"node_pool.autoscaling.location_policy\": %q. Supported values: BALANCED, ANY.", as.LocationPolicy)
	}
	if as.LocationPolicy == "" {
		as.LocationPolicy = locationPolicyBalanced
	}
	return nil
}

// checkUpgradeSettings checks the surge upgrade settings of a create or
// update.
func (s *Server) checkUpgradeSettings(u *container.UpgradeSettings) *apiError {
	if u == nil {
		return nil
	}
	if !slices.Contains([]string{"", "NODE_POOL_UPDATE_STRATEGY_UNSPECIFIED", "SURGE", "BLUE_GREEN", "SHORT_LIVED"}, u.Strategy) {
		return s.gkeInvalid("Invalid value for field \"node_pool.upgrade_settings.strategy\": %q.", u.Strategy)
	}
	if err := s.checkBlueGreen(u.BlueGreenSettings); err != nil {
		return err
	}
	if u.Strategy == "BLUE_GREEN" {
		return nil // surge settings are not used
	}
	if u.MaxSurge < 0 || u.MaxUnavailable < 0 {
		return s.gkeInvalid("Invalid value for field \"node_pool.upgrade_settings\": max_surge %d and max_unavailable %d must not be negative.", u.MaxSurge, u.MaxUnavailable)
	}
	if u.MaxSurge == 0 && u.MaxUnavailable == 0 {
		return s.gkeInvalid("Invalid value for field \"node_pool.upgrade_settings\": max_surge and max_unavailable cannot both be 0.")
	}
	return nil
}

// defaultShieldedInstanceConfig is what GKE reports for nodes that set no
// Shielded VM options.
func defaultShieldedInstanceConfig() *container.ShieldedInstanceConfig {
	return &container.ShieldedInstanceConfig{EnableIntegrityMonitoring: true}
}

// checkNodeSystem checks a node system configuration.
func (s *Server) checkNodeSystem(k *container.NodeKubeletConfig, l *container.LinuxNodeConfig) *apiError {
	if k != nil {
		if !slices.Contains([]string{"", "none", "static"}, k.CpuManagerPolicy) {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.kubelet_config.cpu_manager_policy\": %q.", k.CpuManagerPolicy)
		}
		if p := k.CpuCfsQuotaPeriod; p != "" {
			if _, err := time.ParseDuration(p); err != nil {
				return s.gkeInvalid("Invalid value for field \"node_pool.config.kubelet_config.cpu_cfs_quota_period\": %q.", p)
			}
		}
		if lo, hi := k.ImageGcLowThresholdPercent, k.ImageGcHighThresholdPercent; lo != 0 && hi != 0 && lo >= hi {
			return s.gkeInvalid("imageGcLowThresholdPercent (%d) must be less than imageGcHighThresholdPercent (%d).", lo, hi)
		}
		if n := k.ContainerLogMaxFiles; n != 0 && (n < 2 || n > 10) {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.kubelet_config.container_log_max_files\": %d. Must be between 2 and 10.", n)
		}
	}
	if l != nil && !slices.Contains([]string{"", "CGROUP_MODE_UNSPECIFIED", "CGROUP_MODE_V1", "CGROUP_MODE_V2"}, l.CgroupMode) {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.linux_node_config.cgroup_mode\": %q.", l.CgroupMode)
	}
	return nil
}

// durationForm is a protobuf Duration in JSON.
var durationForm = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,9})?s$`)

// checkBlueGreen checks BlueGreenSettings: batchPercentage and
// batchNodeCount are a oneof, the percentage is in (0, 1], durations are
// protobuf Durations
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools#BlueGreenSettings).
func (s *Server) checkBlueGreen(b *container.BlueGreenSettings) *apiError {
	if b == nil {
		return nil
	}
	if d := b.NodePoolSoakDuration; d != "" && !durationForm.MatchString(d) {
		return s.gkeInvalid("Invalid value for field \"node_pool.upgrade_settings.blue_green_settings.node_pool_soak_duration\": %q.", d)
	}
	r := b.StandardRolloutPolicy
	if r == nil {
		return nil
	}
	if r.BatchPercentage != 0 && r.BatchNodeCount != 0 {
		return s.gkeInvalid("Only one of batch_percentage and batch_node_count may be set in standard_rollout_policy.")
	}
	if r.BatchPercentage < 0 || r.BatchPercentage > 1 {
		return s.gkeInvalid("Invalid value for field \"standard_rollout_policy.batch_percentage\": %v. Must be in (0.0, 1.0].", r.BatchPercentage)
	}
	if d := r.BatchSoakDuration; d != "" && !durationForm.MatchString(d) {
		return s.gkeInvalid("Invalid value for field \"standard_rollout_policy.batch_soak_duration\": %q.", d)
	}
	return nil
}

// cidrForm is NodeNetworkConfig.podIpv4CidrBlock: a netmask or a CIDR block.
var cidrForm = regexp.MustCompile(`^([0-9]{1,3}(\.[0-9]{1,3}){3})?/[0-9]{1,2}$`)

// checkNetworkConfig checks a new pool's NodeNetworkConfig: the block's
// form, and each additional network named; a pod network's
// networkAttachment "cannot be specified along with subnetwork or
// secondary_pod_range"
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeNetworkConfig).
func (s *Server) checkNetworkConfig(nc *container.NodeNetworkConfig) *apiError {
	if nc == nil {
		return nil
	}
	if b := nc.PodIpv4CidrBlock; b != "" && !cidrForm.MatchString(b) {
		return s.gkeInvalid("Invalid value for field \"node_pool.network_config.pod_ipv4_cidr_block\": %q.", b)
	}
	for i, n := range nc.AdditionalNodeNetworkConfigs {
		if n == nil || n.Network == "" || n.Subnetwork == "" {
			return s.gkeInvalid("Invalid value for field \"node_pool.network_config.additional_node_network_configs[%d]\": network and subnetwork must be set.", i)
		}
	}
	for i, p := range nc.AdditionalPodNetworkConfigs {
		if p == nil {
			continue
		}
		if p.NetworkAttachment != "" && (p.Subnetwork != "" || p.SecondaryPodRange != "") {
			return s.gkeInvalid("Invalid value for field \"node_pool.network_config.additional_pod_network_configs[%d]\": network_attachment cannot be specified along with subnetwork or secondary_pod_range.", i)
		}
	}
	return nil
}

// secretVersionForm is a Secret Manager secret version, the form GKE takes a
// private CA's certificate in
// (https://cloud.google.com/kubernetes-engine/docs/how-to/access-private-registries-private-certificates).
var secretVersionForm = regexp.MustCompile(`^projects/[^/]+/secrets/[^/]+/versions/[^/]+$`)

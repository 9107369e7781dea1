package emulator

import (
	"slices"

	container "google.golang.org/api/container/v1"
)

// Node settings rules, from the GKE v1 REST reference and the pages it
// links. Messages are assumptions in GKE's "Invalid value for field" style.
//   - NodeConfig.diskSizeGb: "The smallest allowed disk size is 10GB"
//     (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig).
//   - MaxPodsConstraint.maxPodsPerNode: 8 to 256
//     (https://cloud.google.com/kubernetes-engine/docs/how-to/flexible-pod-cidr).
//   - WorkloadMetadataConfig.mode: GCE_METADATA or GKE_METADATA.
//   - GPUSharingConfig: TIME_SHARING or MPS, at most 48 clients per GPU
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/timesharing-gpus).
//   - NodePoolAutoscaling.locationPolicy: BALANCED or ANY; GKE reports
//     BALANCED when a request leaves it out (assumption: the default the
//     autoscaler documents for pools that set none).
const (
	minDiskSizeGB          = 10
	minPodsPerNode         = 8
	maxPodsPerNode         = 256
	maxSharedClientsPerGPU = 48
	locationPolicyBalanced = "BALANCED"
)

var (
	workloadMetadataModes = []string{"GCE_METADATA", "GKE_METADATA"}
	gpuSharingStrategies  = []string{"TIME_SHARING", "MPS"}
	locationPolicies      = []string{"", locationPolicyBalanced, "ANY"}
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
	if w := cfg.WorkloadMetadataConfig; w != nil && !slices.Contains(workloadMetadataModes, w.Mode) {
		return s.gkeInvalid("Invalid value for field \"node_pool.config.workload_metadata_config.mode\": %q.", w.Mode)
	}
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

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"regexp"

	container "google.golang.org/api/container/v1"
)

// poolNameRE is GKE's node-pool name rule, quoted in its own 400 answer.
var poolNameRE = regexp.MustCompile("^" + gkeNamePattern + "$")

// gkeNamePattern is the name rule of node pools and clusters as GKE quotes
// it, and gkeNameRule the explanation that follows it.
const (
	gkeNamePattern = "(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)"
	gkeNameRule    = "(only alphanumerics and '-' allowed, must start with a letter and end with an alphanumeric, and must be no longer than 40 characters)"
)

// provisioningModelLabel is the resource label GKE adds to a pool's nodes
// with their provisioning model: on-demand, spot or flex-start (see
// applyAdditions and addProvisioningAdditions).
const provisioningModelLabel = "goog-gke-node-pool-provisioning-model"

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
//   - UpgradeSettings.maxSurge and maxUnavailable: counts of nodes, not
//     negative; at least one of them above 0, else no node could be
//     upgraded (https://cloud.google.com/kubernetes-engine/docs/concepts/node-pool-upgrade-strategies#surge).
//     GKE reports maxSurge 1, maxUnavailable 0 for a pool that sets none.
//   - NodeConfig.shieldedInstanceConfig: GKE reports Secure Boot off and
//     integrity monitoring on for nodes that set none
//     (https://cloud.google.com/kubernetes-engine/docs/how-to/shielded-gke-nodes).
//     nodePools.update has no field for it: changing it needs a new pool.
//   - ResourceManagerTags.tags: "tagKeys/{tag_key_id}=tagValues/{tag_value_id}",
//     "{org_id}/{tag_key_name}={tag_value_name}" or
//     "{project_id}/{tag_key_name}={tag_value_name}"
//     (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/ResourceManagerTags).
//   - NodeConfig.bootDiskKmsKey: "of the form projects/[KEY_PROJECT_ID]/
//     locations/[LOCATION]/keyRings/[RING_NAME]/cryptoKeys/[KEY_NAME]";
//     SandboxConfig.type: GVISOR; SecondaryBootDisk.mode:
//     CONTAINER_IMAGE_CACHE (or unspecified), diskImage required. None is a
//     field of UpdateNodePoolRequest: changing them needs a new pool.
//   - NodeKubeletConfig: cpuManagerPolicy none or static; cpuCfsQuotaPeriod
//     a duration; imageGcLowThresholdPercent below
//     imageGcHighThresholdPercent; containerLogMaxFiles 2 to 10. LinuxNodeConfig.cgroupMode:
//     CGROUP_MODE_V1 or CGROUP_MODE_V2
//     (https://cloud.google.com/kubernetes-engine/docs/how-to/node-system-config).
//     Both are fields of UpdateNodePoolRequest.
//   - NodeConfig.gvnic, confidentialNodes, resourceManagerTags and
//     NodeNetworkConfig.enablePrivateNodes are fields of
//     UpdateNodePoolRequest: updated in place.
const (
	minDiskSizeGB          = 10
	minPodsPerNode         = 8
	maxPodsPerNode         = 256
	maxSharedClientsPerGPU = 48
	locationPolicyBalanced = "BALANCED"
)

var (
	tagKeyForm            = regexp.MustCompile(`^(tagKeys/[0-9]+|[a-z0-9][a-z0-9-]*/[^/]+)$`)
	tagValueForm          = regexp.MustCompile(`^(tagValues/[0-9]+|[^/]+)$`)
	workloadMetadataModes = []string{"GCE_METADATA", "GKE_METADATA"}
	gpuSharingStrategies  = []string{"TIME_SHARING", "MPS"}
	locationPolicies      = []string{"", locationPolicyBalanced, "ANY"}
)

// Local SSD rules of a new node pool, from the public documentation:
//   - NodeConfig.ephemeralStorageLocalSsdConfig.localSsdCount and
//     NodeConfig.localNvmeSsdBlockConfig.localSsdCount: "The limit for this
//     value is dependent upon the maximum number of disk available on a
//     machine per zone"
//     (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig);
//     a VM has at most 32 Local SSD disks
//     (https://cloud.google.com/compute/docs/disks/local-ssd).
//   - Both in one pool: GKE answers "Can not use local SSDs as volumes when
//     using ephemeral storage backed by local SSDs."
//     (https://github.com/terraform-google-modules/terraform-google-kubernetes-engine/pull/902).
//   - E2 machine types support no Local SSD
//     (https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/local-ssd).
//   - NVMe Local SSDs need GKE 1.25.3-gke.1800 or later
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/local-ssd).
//
// nodePools.update has no Local SSD field: a change needs a new pool.
// Messages are assumptions in GKE's "Invalid value for field" style.
const (
	maxLocalSSDsPerVM     = 32
	minLocalSSDGKEVersion = "1.25.3-gke.1800"
)

// gkePoolDefaults are what GKE fills in a node pool a create request leaves
// them out of. Defaults follow `gcloud container node-pools create`
// (https://cloud.google.com/sdk/gcloud/reference/container/node-pools/create):
// e2-medium, 100 GB pd-balanced, COS_CONTAINERD, the default service account
// and scopes, auto-repair and auto-upgrade on, surge upgrades 1/0, 110 pods
// per node.
var gkePoolDefaults = struct {
	machineType     string
	diskSizeGB      int64
	diskType        string
	imageType       string
	serviceAccount  string
	oauthScopes     []string
	maxPodsPerNode  int64
	podIPv4CIDRSize int64
}{
	machineType:    "e2-medium",
	diskSizeGB:     100,
	diskType:       "pd-balanced",
	imageType:      "COS_CONTAINERD",
	serviceAccount: "default",
	oauthScopes: []string{
		"https://www.googleapis.com/auth/devstorage.read_only",
		"https://www.googleapis.com/auth/logging.write",
		"https://www.googleapis.com/auth/monitoring",
		"https://www.googleapis.com/auth/service.management.readonly",
		"https://www.googleapis.com/auth/servicecontrol",
		"https://www.googleapis.com/auth/trace.append",
	},
	maxPodsPerNode:  110,
	podIPv4CIDRSize: 24,
}

// defaultClusters are the GKE clusters of Default (see Default).
func defaultClusters() []ClusterSeed {
	return []ClusterSeed{
		{
			Location:  "us-central1",
			Name:      "serving",
			Version:   "1.33.5-gke.1000000",
			Locations: []string{"us-central1-a", "us-central1-b", "us-central1-c"},
			NodePools: []*container.NodePool{{
				Name:             "default-pool",
				InitialNodeCount: 1,
				Config:           &container.NodeConfig{MachineType: "e2-standard-4"},
			}},
		},
		{
			// A cluster with TPU7x nodes: GKE 1.34 (Ironwood needs
			// Standard 1.34.0-gke.2201000, GKE's Ironwood page), in the
			// TPU7x zone and an L4 zone.
			Location:  "us-central1",
			Name:      "ironwood",
			Version:   "1.34.1-gke.1000000",
			Locations: []string{"us-central1-a", "us-central1-c"},
		},
		{
			Location:  "us-east5",
			Name:      "training",
			Version:   "1.34.1-gke.1000000",
			Locations: []string{"us-east5-a"},
		},
		{
			// An Autopilot cluster: GKE creates its nodes from
			// ComputeClasses and pods; it has no user node pools.
			Location:  "us-central1",
			Name:      "autopilot",
			Version:   "1.33.5-gke.1000000",
			Locations: []string{"us-central1-a", "us-central1-b", "us-central1-c"},
			Autopilot: true,
		},
		{
			// A Standard cluster with node auto-provisioning, whose
			// resource limits cover Trillium and L4 GPUs (GKE's
			// resource types: the GPU type, the TPU label).
			Location:  "us-central1",
			Name:      "autoprovisioned",
			Version:   "1.33.5-gke.1000000",
			Locations: []string{"us-central1-a", "us-central1-b", "us-central1-c"},
			Autoscaling: &container.ClusterAutoscaling{
				EnableNodeAutoprovisioning: true,
				ResourceLimits: []*container.ResourceLimit{
					{ResourceType: "cpu", Maximum: 2000},
					{ResourceType: "memory", Maximum: 8000},
					{ResourceType: "nvidia-l4", Maximum: 16},
					{ResourceType: "tpu-v6e-slice", Maximum: 64},
				},
			},
		},
		{
			Location:  "us-central1-b",
			Name:      "legacy",
			Version:   "1.30.5-gke.1014001",
			Locations: []string{"us-central1-b"},
		},
	}
}

// defaultMinNodeVersions are Default's MinNodeVersions: the lowest GKE
// version of a machine type, by prefix.
func defaultMinNodeVersions() map[string]string {
	return map[string]string{
		// Ray's GKE TPU guide citing GKE's TPU machine-type table:
		// https://github.com/ray-project/ray/blob/02745f527856b07d09c266967b026c7a1cd60121/doc/source/cluster/kubernetes/user-guides/gcp-gke-tpu-cluster.md
		"ct6e-": "1.31.2-gke.1115000",
		// https://cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood (Standard clusters).
		"tpu7x-": "1.34.0-gke.2201000",
	}
}

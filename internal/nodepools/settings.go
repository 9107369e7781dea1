// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// The node settings of a tier beyond its accelerator and size: boot disk,
// image, identity, pod density, autoscaling location policy, Compute Engine
// resource labels, network tags, workload metadata, GPU sharing, surge
// upgrade settings, Shielded VM options, gVNIC, Confidential Nodes, private
// nodes and Resource Manager tags. Each is sent on create; GKE's
// nodePools.update changes the boot disk, image, image streaming, workload
// metadata, network tags, resource labels, upgrade settings, gVNIC,
// Confidential Nodes, private nodes and Resource Manager tags in place,
// setAutoscaling the location policy; the service account, scopes, pod
// density, GPU sharing and Shielded VM options re-create the pool (the
// google provider makes them ForceNew too).

// WorkloadMetadataConfig.mode values a tier may set
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig#WorkloadMetadataConfig).
var workloadMetadataModes = []string{"GCE_METADATA", "GKE_METADATA"}

// NodePoolAutoscaling.locationPolicy values
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools#NodePoolAutoscaling).
var locationPolicies = []string{"BALANCED", "ANY"}

// oauthScopeRE is the form of a full OAuth scope URL.
var oauthScopeRE = regexp.MustCompile(`^https://www\.googleapis\.com/auth/[a-z0-9._-]+$`)

// tierSettingsModel holds the settings' attributes, embedded in tierModel.
type tierSettingsModel struct {
	DiskSizeGB           types.Int64  `tfsdk:"disk_size_gb"`
	DiskType             types.String `tfsdk:"disk_type"`
	ImageType            types.String `tfsdk:"image_type"`
	ImageStreaming       types.Bool   `tfsdk:"image_streaming"`
	ServiceAccount       types.String `tfsdk:"service_account"`
	OAuthScopes          types.Set    `tfsdk:"oauth_scopes"`
	MaxPodsPerNode       types.Int64  `tfsdk:"max_pods_per_node"`
	WorkloadMetadataMode types.String `tfsdk:"workload_metadata_mode"`
	LocationPolicy       types.String `tfsdk:"location_policy"`
	Tags                 types.List   `tfsdk:"tags"`
	ResourceLabels       types.Map    `tfsdk:"resource_labels"`
	GPUPartitionSize     types.String `tfsdk:"gpu_partition_size"`
	GPUSharingConfig     types.Object `tfsdk:"gpu_sharing_config"`
	MaxSurge             types.Int64  `tfsdk:"max_surge"`
	MaxUnavailable       types.Int64  `tfsdk:"max_unavailable"`
	SecureBoot           types.Bool   `tfsdk:"secure_boot"`
	IntegrityMonitoring  types.Bool   `tfsdk:"integrity_monitoring"`
	TotalMinNodeCount    types.Int64  `tfsdk:"total_min_node_count"`
	TotalMaxNodeCount    types.Int64  `tfsdk:"total_max_node_count"`
	Gvnic                types.Bool   `tfsdk:"gvnic"`
	ConfidentialNodes    types.Bool   `tfsdk:"confidential_nodes"`
	EnablePrivateNodes   types.Bool   `tfsdk:"enable_private_nodes"`
	ResourceManagerTags  types.Map    `tfsdk:"resource_manager_tags"`
	Version              types.String `tfsdk:"version"`
	KubeletConfig        types.Object `tfsdk:"kubelet_config"`
	LinuxNodeConfig      types.Object `tfsdk:"linux_node_config"`
	UpgradeStrategy      types.String `tfsdk:"upgrade_strategy"`
	BlueGreenSettings    types.Object `tfsdk:"blue_green_settings"`
	PodRange             types.String `tfsdk:"pod_range"`
	PodIPv4CIDRBlock     types.String `tfsdk:"pod_ipv4_cidr_block"`
	GPUDirectStrategy    types.String `tfsdk:"gpudirect_strategy"`
	FastSocket           types.Bool   `tfsdk:"fast_socket"`
	ContainerdConfig     types.Object `tfsdk:"containerd_config"`
	ThreadsPerCore       types.Int64  `tfsdk:"threads_per_core"`
}

// gpuSharingModel is gpu_sharing_config.
type gpuSharingModel struct {
	Strategy   types.String `tfsdk:"gpu_sharing_strategy"`
	MaxClients types.Int64  `tfsdk:"max_shared_clients_per_gpu"`
}

// settingsAttributes are the settings' schema attributes.
func settingsAttributes(cat *catalog.Catalog) map[string]schema.Attribute { //nolint:funlen // a schema literal
	podsMin, podsMax := cat.MaxPodsPerNodeRange()
	surge, unavailable := cat.UpgradeDefaults()
	secureBoot, integrity := cat.ShieldedVMDefaults()
	return map[string]schema.Attribute{
		"disk_size_gb": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Boot disk size of each node, in GB (at least %d). Without it, GKE's default (100 GB), "+
				"as GKE reports it. Updated in place.", cat.MinDiskSizeGB()),
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"disk_type": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Boot disk type, such as " + schemadoc.Codes(cat.DiskTypeNames()) + " (another type is a warning: " +
				"GKE decides which machine series supports it). Without it, GKE's default. Updated in place.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"image_type": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Node image, such as " + schemadoc.Codes(cat.ImageTypeNames()) + ". Without it, GKE's default " +
				"(`COS_CONTAINERD`). Updated in place.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"image_streaming": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Image streaming (GKE's `gcfsConfig`): containers start while their image is still being " +
				"pulled, which shortens the start of large serving images. Needs the `COS_CONTAINERD` image and the Container File " +
				"System API. Without it, as GKE reports it. Updated in place.",
		},
		"service_account": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Email of the Google service account of the nodes. Without it, GKE's default (`default`, the " +
				"Compute Engine default service account). Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"oauth_scopes": schema.SetAttribute{
			Optional: true, Computed: true, ElementType: types.StringType,
			MarkdownDescription: "OAuth scopes of the nodes' service account, as full URLs such as " +
				"`https://www.googleapis.com/auth/cloud-platform`. Without it, GKE's default scopes. Changing them re-creates the pool.",
			Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(
				stringvalidator.RegexMatches(oauthScopeRE, "must be a full scope URL starting with https://www.googleapis.com/auth/"))},
		},
		"max_pods_per_node": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Maximum pods per node, %d to %d. Without it, the cluster's default (110). "+
				"Changing it re-creates the pool.", podsMin, podsMax),
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"workload_metadata_mode": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "How pods see the metadata server: `GKE_METADATA` (Workload Identity Federation for GKE) or " +
				"`GCE_METADATA` (the node's own). One of " + schemadoc.Codes(workloadMetadataModes) + ". Without it, as GKE reports " +
				"it (null when the cluster sets none). Updated in place.",
			Validators: []validator.String{stringvalidator.OneOf(workloadMetadataModes...)},
		},
		"location_policy": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Autoscaling tiers: how the cluster autoscaler spreads nodes over the zones, one of " +
				schemadoc.Codes(locationPolicies) + " (`ANY` prefers zones with capacity or reservations, which suits " +
				"scarce accelerators). Without it: `ANY` for multi-host TPU slices, else GKE's default (`BALANCED`). Null " +
				"without autoscaling. Updated in place.",
			Validators: []validator.String{stringvalidator.OneOf(locationPolicies...)},
		},
		"tags": schema.ListAttribute{
			Optional: true, Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Network tags of the nodes, for firewall rules and routes. Without it, as GKE reports them. " +
				"Updated in place.",
			Validators: nonEmptyStrings(),
		},
		"resource_labels": schema.MapAttribute{
			Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Compute Engine resource labels of the nodes (and their disks), for billing and inventory: keys " +
				"start with a lowercase letter; keys and values hold at most 63 lowercase letters, digits, underscores and " +
				"dashes. The provider adds `" +
				ownership.LabelKey + "` itself. Labels GKE adds never cause a diff. Updated in place.",
			Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.LengthBetween(1, 63))},
		},
		"gpu_partition_size": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "GPU tiers: the multi-instance GPU partition each GPU is split into, such as `1g.5gb` on " +
				"`nvidia-tesla-a100` or `3g.40gb` on `nvidia-h100-80gb`; each partition is one `nvidia.com/gpu` a container can " +
				"request, so a tier of smaller GPUs; a size the GPU does not support is a plan error that lists the sizes it does. GKE labels " +
				"the nodes `" + catalog.LabelGPUPartitionSize + "` (see `accelerator_labels`). Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"max_surge": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Surge upgrades: nodes GKE may add beyond the pool's size while it upgrades it (0 or more). "+
				"Without it, as GKE reports it (%d for a new pool, or when only `max_unavailable` is set). `max_surge` and "+
				"`max_unavailable` cannot both be 0. On a multi-host TPU slice, whose VMs GKE re-creates as one unit, a surge "+
				"is a plan warning. Updated in place.", surge),
			Validators: []validator.Int64{int64validator.AtLeast(0)},
		},
		"max_unavailable": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Surge upgrades: nodes that may be unavailable at once while GKE upgrades the pool "+
				"(0 or more). Without it, as GKE reports it (%d for a new pool, or when only `max_surge` is set). Updated in place.", unavailable),
			Validators: []validator.Int64{int64validator.AtLeast(0)},
		},
		"secure_boot": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Shielded VM: Secure Boot of the nodes, which boot only signed software. Without it, as "+
				"GKE reports it (`%t` for a new pool). Changing it re-creates the pool.", secureBoot),
		},
		"integrity_monitoring": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: fmt.Sprintf("Shielded VM: integrity monitoring of the nodes' boot sequence. Without it, as GKE "+
				"reports it (`%t` for a new pool). Changing it re-creates the pool.", integrity),
		},
		"total_min_node_count": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Autoscaling with total limits: minimum nodes of the whole pool, over all its zones (0 or more). " +
				"Set with `total_max_node_count`; GKE makes the pair mutually exclusive with `min_node_count` and `max_node_count` " +
				"(limits per zone) and the provider with `node_count`. Updated in place.",
			Validators: []validator.Int64{int64validator.AtLeast(0)},
		},
		"total_max_node_count": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Autoscaling with total limits: maximum nodes of the whole pool, over all its zones, at least " +
				"`total_min_node_count`. Set with `total_min_node_count`. Updated in place.",
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"version": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "GKE version of the nodes, to pin it and roll it deliberately: a full version " +
				"(`1.33.5-gke.1080000`) or an alias GKE resolves (`1.33`, `1.33.5`, or `latest` when the pool is created). " +
				"An alias stays in the state while the nodes run a version it names, so a patch release GKE applies " +
				"plans nothing. It cannot be newer than the control plane (checked at plan when GKE is reachable). With " +
				"`auto_upgrade = true`, GKE upgrades the nodes past it, and the next plan changes them back: a plan warning. " +
				"Without it, as GKE reports it. Updated in place.",
			Validators: []validator.String{stringvalidator.RegexMatches(nodeVersionRE, nodeVersionRule)},
		},
		"upgrade_strategy": upgradeStrategyAttribute(),
		"pod_range": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The subnet's secondary range for the pool's pod IP addresses (GKE's `networkConfig.podRange`, the " +
				"google provider's `network_config.pod_range`): an existing range, or the name of the one `create_pod_range` " +
				"creates. Without it, the cluster's, as GKE reports it. Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"pod_ipv4_cidr_block": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "With `create_pod_range`: the range to create, as a netmask (`/18`) or a CIDR block " +
				"(`10.96.0.0/14`). Without it, as GKE reports it. Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.RegexMatches(cidrBlockRE, "must be a netmask such as /18 or a CIDR block such as 10.96.0.0/14")},
		},
		"gpudirect_strategy": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "GPU tiers: `RDMA` turns on GPUDirect-RDMA, which GKE documents for A3 Ultra and A4 machine " +
				"types (GKE's `gpuDirectConfig.gpuDirectStrategy`); it needs the additional node networks of the machine's " +
				"RDMA NICs. One of " + schemadoc.Codes(gpuDirectStrategies) + ". Without it, as GKE reports it. Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.OneOf(gpuDirectStrategies...)},
		},
		"threads_per_core": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Threads per physical core of the nodes' VMs (the google provider's " +
				"`advanced_machine_features.threads_per_core`): `1` turns simultaneous multithreading off. Without it, as GKE " +
				"reports it. Changing it re-creates the pool.",
			Validators: []validator.Int64{int64validator.Between(1, 2)},
		},
		"fast_socket": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "NCCL Fast Socket (GKE's `fastSocket`), which speeds multi-node GPU traffic over TCP; it " +
				"needs gVNIC. Without it, as GKE reports it. Updated in place.",
		},
		"gvnic": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Google Virtual NIC (GKE's `gvnic`, the google provider's `gvnic.enabled`), the network " +
				"interface that higher network bandwidth and GPUDirect need. Without it, as GKE reports it. Updated in place.",
		},
		"confidential_nodes": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Confidential GKE Nodes (GKE's `confidentialNodes`, the google provider's " +
				"`confidential_nodes.enabled`): the nodes are Confidential VMs, whose memory is encrypted in use. GKE decides which " +
				"machine series support it. Without it, as GKE reports it. Updated in place.",
		},
		"enable_private_nodes": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Private nodes (GKE's `networkConfig.enablePrivateNodes`): the nodes get internal IP " +
				"addresses only. Without it, the cluster's setting, as GKE reports it. Updated in place.",
		},
		"resource_manager_tags": schema.MapAttribute{
			Optional: true, Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Resource Manager tags of the nodes' VMs, for firewall policies and IAM conditions, as " +
				"`tagKeys/KEY_ID = \"tagValues/VALUE_ID\"`, or with namespaced names (`ORGANIZATION_ID/KEY_NAME = " +
				"\"VALUE_NAME\"`, `PROJECT_ID/KEY_NAME = \"VALUE_NAME\"`). Without it, as GKE reports them. Updated in place.",
			Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.RegexMatches(tagKeyRE, tagKeyRule)),
				mapvalidator.ValueStringsAre(stringvalidator.RegexMatches(tagValueRE, tagValueRule))},
		},
	}
}

// nodeVersionRE is the form of a node version GKE takes: a full version or
// an alias ("1.X", "1.X.Y", "1.X.Y-gke.N", "latest", "-"), per the
// nodePools.update reference.
var nodeVersionRE = regexp.MustCompile(`^(latest|-|[0-9]+\.[0-9]+(\.[0-9]+(-gke\.[0-9]+)?)?)$`)

const nodeVersionRule = "must be a GKE version such as 1.33.5-gke.1080000, an alias such as 1.33 or 1.33.5, or latest"

// cidrBlockRE is NodeNetworkConfig.podIpv4CidrBlock: a netmask ("/14") or
// a CIDR block ("10.96.0.0/14").
var cidrBlockRE = regexp.MustCompile(`^([0-9]{1,3}(\.[0-9]{1,3}){3})?/[0-9]{1,2}$`)

// cidrMatches reports whether a pod range GKE reports (got) is what want
// asks for: "" leaves it to GKE, a netmask ("/18") names any block of that
// size.
func cidrMatches(want, got string) bool {
	return want == "" || want == got || (strings.HasPrefix(want, "/") && strings.HasSuffix(got, want))
}

// gpuDirectStrategies are GPUDirectConfig.gpuDirectStrategy's values: RDMA,
// "GPUDirect-RDMA on A3 Ultra, and A4 machine types".
var gpuDirectStrategies = []string{"RDMA"}

// The forms of a Resource Manager tag, as GKE's ResourceManagerTags takes
// them (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/ResourceManagerTags):
// "tagKeys/{tag_key_id}=tagValues/{tag_value_id}", or
// "{org_id|project_id}/{tag_key_name}={tag_value_name}".
var (
	tagKeyRE     = regexp.MustCompile(`^(tagKeys/[0-9]+|[a-z0-9][a-z0-9-]*[a-z0-9]/[^/\s]+)$`)
	tagKeyRule   = "must be tagKeys/KEY_ID, or an organization or project id, a slash and a tag key's short name"
	tagValueRE   = regexp.MustCompile(`^(tagValues/[0-9]+|[^/\s]+)$`)
	tagValueRule = "must be tagValues/VALUE_ID, or a tag value's short name"
)

// settingsBlocks are the settings' schema blocks.
func settingsBlocks(cat *catalog.Catalog) map[string]schema.Block {
	blocks := nodeSystemBlocks()
	blocks["blue_green_settings"] = blueGreenBlock()
	blocks["containerd_config"] = containerdBlock()
	maps.Copy(blocks, map[string]schema.Block{
		"gpu_sharing_config": schema.SingleNestedBlock{
			MarkdownDescription: fmt.Sprintf("GPU tiers: let several containers share each GPU (or each partition). GKE labels the "+
				"nodes `%s` and `%s` (see `accelerator_labels`). Without the block, each container gets whole GPUs. Changing it "+
				"re-creates the pool.", catalog.LabelGPUSharingStrategy, catalog.LabelMaxSharedClientsPerGPU),
			Validators: requiredInElement("gpu_sharing_strategy", "max_shared_clients_per_gpu"),
			Attributes: map[string]schema.Attribute{
				"gpu_sharing_strategy": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "Required. `TIME_SHARING` (containers take turns on the GPU) or `MPS` (NVIDIA " +
						"Multi-Process Service: containers run at once). One of " + schemadoc.Codes(cat.GPUSharingStrategies()) + ".",
					Validators: []validator.String{stringvalidator.OneOf(cat.GPUSharingStrategies()...)},
				},
				"max_shared_clients_per_gpu": schema.Int64Attribute{
					Optional: true,
					MarkdownDescription: fmt.Sprintf("Required. Containers that may share one GPU, %d to %d (checked by the catalog).",
						cat.MinSharedClientsPerGPU(), cat.MaxSharedClientsPerGPU()),
				},
			},
		},
	})
	return blocks
}

func nonEmptyStrings() []validator.List {
	return []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}
}

// gpuSharing is gpu_sharing_config as Go values.
type gpuSharing struct {
	Strategy   string
	MaxClients int64
}

// poolSettings are a tier's settings as Go values. A zero value (nil for
// pointers, slices and maps) is a setting the tier leaves to GKE, except
// ResourceLabels, GPUPartitionSize and GPUSharing, where it is "none".
type poolSettings struct {
	DiskSizeGB           int64
	DiskType             string
	ImageType            string
	ImageStreaming       *bool
	ServiceAccount       string
	OAuthScopes          []string // sorted
	MaxPodsPerNode       int64
	WorkloadMetadataMode string
	LocationPolicy       string
	Tags                 []string
	ResourceLabels       map[string]string
	GPUPartitionSize     string
	GPUSharing           *gpuSharing
	MaxSurge             *int64
	MaxUnavailable       *int64
	SecureBoot           *bool
	IntegrityMonitoring  *bool
	TotalMin             *int64 // total_min_node_count
	TotalMax             *int64 // total_max_node_count
	Gvnic                *bool
	ConfidentialNodes    *bool
	PrivateNodes         *bool // enable_private_nodes
	ResourceManagerTags  map[string]string
	// Version is the node version as configured, or as GKE reports it.
	Version string
	System  nodeSystem // kubelet_config, linux_node_config
	// Strategy is upgrade_strategy; BlueGreen blue_green_settings.
	Strategy  string
	BlueGreen *blueGreen
	// PodRange, PodCIDR and GPUDirect are fixed at creation; FastSocket is not.
	PodRange, PodCIDR, GPUDirect string
	FastSocket                   *bool
	Containerd                   *containerd
	ThreadsPerCore               int64 // 0 left to GKE
}

// settingsOf reads the settings of a tier; known is false when one of them
// is unknown. Null values are settings left to GKE.
func settingsOf(ctx context.Context, m tierSettingsModel, diags *diag.Diagnostics) (poolSettings, bool) {
	var s poolSettings
	known := true
	for _, v := range []attr.Value{m.DiskSizeGB, m.DiskType, m.ImageType, m.ImageStreaming, m.ServiceAccount, m.OAuthScopes,
		m.MaxPodsPerNode, m.WorkloadMetadataMode, m.LocationPolicy, m.Tags, m.ResourceLabels, m.GPUPartitionSize, m.GPUSharingConfig,
		m.MaxSurge, m.MaxUnavailable, m.SecureBoot, m.IntegrityMonitoring, m.TotalMinNodeCount, m.TotalMaxNodeCount,
		m.Gvnic, m.ConfidentialNodes, m.EnablePrivateNodes, m.ResourceManagerTags, m.Version, m.KubeletConfig, m.LinuxNodeConfig,
		m.UpgradeStrategy, m.BlueGreenSettings, m.PodRange, m.PodIPv4CIDRBlock, m.GPUDirectStrategy, m.FastSocket, m.ContainerdConfig, m.ThreadsPerCore} {
		if !tfmodel.WhollyKnown(v) {
			known = false
		}
	}
	s.DiskSizeGB = m.DiskSizeGB.ValueInt64()
	s.DiskType = m.DiskType.ValueString()
	s.ImageType = m.ImageType.ValueString()
	s.ImageStreaming = tfmodel.BoolPtr(m.ImageStreaming)
	s.MaxSurge, s.MaxUnavailable = tfmodel.Int64Ptr(m.MaxSurge), tfmodel.Int64Ptr(m.MaxUnavailable)
	s.SecureBoot, s.IntegrityMonitoring = tfmodel.BoolPtr(m.SecureBoot), tfmodel.BoolPtr(m.IntegrityMonitoring)
	s.TotalMin, s.TotalMax = tfmodel.Int64Ptr(m.TotalMinNodeCount), tfmodel.Int64Ptr(m.TotalMaxNodeCount)
	s.ServiceAccount = m.ServiceAccount.ValueString()
	s.OAuthScopes = tfmodel.KnownStrings(m.OAuthScopes)
	slices.Sort(s.OAuthScopes)
	s.MaxPodsPerNode = m.MaxPodsPerNode.ValueInt64()
	s.WorkloadMetadataMode = m.WorkloadMetadataMode.ValueString()
	s.LocationPolicy = m.LocationPolicy.ValueString()
	s.Tags = tfmodel.KnownStrings(m.Tags)
	if !m.ResourceLabels.IsNull() && !m.ResourceLabels.IsUnknown() {
		s.ResourceLabels = map[string]string{}
		for k, v := range m.ResourceLabels.Elements() {
			if sv, ok := v.(types.String); ok {
				s.ResourceLabels[k] = sv.ValueString()
			}
		}
	}
	s.Gvnic, s.ConfidentialNodes, s.PrivateNodes = tfmodel.BoolPtr(m.Gvnic), tfmodel.BoolPtr(m.ConfidentialNodes), tfmodel.BoolPtr(m.EnablePrivateNodes)
	s.ResourceManagerTags = tfmodel.KnownStringMap(m.ResourceManagerTags)
	s.Version = m.Version.ValueString()
	s.System, _ = nodeSystemOf(ctx, m.KubeletConfig, m.LinuxNodeConfig, diags)
	s.Strategy, s.BlueGreen = m.UpgradeStrategy.ValueString(), blueGreenOf(ctx, m.BlueGreenSettings, diags)
	s.PodRange, s.PodCIDR, s.GPUDirect = m.PodRange.ValueString(), m.PodIPv4CIDRBlock.ValueString(), m.GPUDirectStrategy.ValueString()
	s.FastSocket = tfmodel.BoolPtr(m.FastSocket)
	s.Containerd = containerdOf(ctx, m.ContainerdConfig, diags)
	s.ThreadsPerCore = m.ThreadsPerCore.ValueInt64()
	s.GPUPartitionSize = m.GPUPartitionSize.ValueString()
	if !m.GPUSharingConfig.IsNull() && !m.GPUSharingConfig.IsUnknown() {
		var g gpuSharingModel
		diags.Append(tfmodel.As(ctx, m.GPUSharingConfig, &g, tfmodel.ObjectAsOptions)...)
		s.GPUSharing = &gpuSharing{Strategy: g.Strategy.ValueString(), MaxClients: g.MaxClients.ValueInt64()}
	}
	return s, known
}

// settingsFindings checks a tier's settings (catalog.PoolSettings).
func settingsFindings(cat *catalog.Catalog, in tierInput, s tierSpec) catalog.Findings {
	q := catalog.PoolSettingsQuery{
		TPU:               in.kind(cat) == kindTPU,
		MachineType:       s.MachineType,
		GPUType:           s.GPUType,
		DiskSizeGB:        in.Settings.DiskSizeGB,
		DiskType:          in.Settings.DiskType,
		ImageType:         in.Settings.ImageType,
		ImageStreaming:    in.Settings.ImageStreaming != nil && *in.Settings.ImageStreaming,
		MaxPodsPerNode:    in.Settings.MaxPodsPerNode,
		LocationPolicy:    in.Settings.LocationPolicy,
		Autoscaling:       (in.MinNodes != nil && in.MaxNodes != nil) || (in.Settings.TotalMin != nil && in.Settings.TotalMax != nil),
		ResourceLabels:    in.Settings.ResourceLabels,
		ReservedLabelKeys: []string{ownership.LabelKey},
		GPUPartitionSize:  in.Settings.GPUPartitionSize,
		Hosts:             s.Hosts,
		MaxSurge:          in.Settings.MaxSurge,
		MaxUnavailable:    in.Settings.MaxUnavailable,
	}
	if in.Settings.Strategy == strategyBlueGreen {
		q.MaxSurge, q.MaxUnavailable = nil, nil // surge settings are not used: upgradeFindings
	}
	if g := in.Settings.GPUSharing; g != nil {
		q.GPUSharingStrategy, q.MaxSharedClientsPerGPU = g.Strategy, g.MaxClients
	}
	fs := append(cat.PoolSettings(q), nodeSystemFindings(in.Settings.System)...)
	fs = append(fs, upgradeFindings(in.Settings)...)
	fs = append(fs, containerdFindings(in.Settings.Containerd)...)
	if v := in.Settings.Version; v != "" && v != "latest" && v != "-" && in.AutoUpgrade {
		f := tierFinding("version", v, "Node Version Pinned With Auto-Upgrade",
			fmt.Sprintf("version = %q with auto_upgrade = true: GKE upgrades the nodes past it, and the next plan changes "+
				"them back to it. Set auto_upgrade = false to pin the version (a cluster in a release channel keeps "+
				"auto-upgrade on), or leave version out.", v), cat.Source("gke_node_pool"))
		f.Severity = catalog.SeverityWarning
		fs = append(fs, f)
	}
	return fs
}

// gpuSharingLabels adds the node labels GKE sets for the tier's GPU sharing
// to its accelerator labels.
func addGPUSharingLabels(cat *catalog.Catalog, s *tierSpec) {
	strategy, clients := "", int64(0)
	if g := s.Settings.GPUSharing; g != nil {
		strategy, clients = g.Strategy, g.MaxClients
	}
	extra := cat.GPUSharingLabels(s.Settings.GPUPartitionSize, strategy, clients)
	if len(extra) == 0 {
		return
	}
	if s.AcceleratorLabels == nil {
		s.AcceleratorLabels = map[string]string{}
	}
	maps.Copy(s.AcceleratorLabels, extra)
}

// fixedSettingsEqual reports whether the settings GKE cannot change in
// place are as want asks: the ones want leaves to GKE always are; resource
// labels, partitions and sharing compare as set.
func fixedSettingsEqual(was, want poolSettings) bool {
	return (want.ServiceAccount == "" || want.ServiceAccount == was.ServiceAccount) &&
		(want.OAuthScopes == nil || slices.Equal(want.OAuthScopes, was.OAuthScopes)) &&
		(want.MaxPodsPerNode == 0 || want.MaxPodsPerNode == was.MaxPodsPerNode) &&
		want.GPUPartitionSize == was.GPUPartitionSize &&
		ptrEqual(was.GPUSharing, want.GPUSharing) &&
		setOrEqual(want.SecureBoot, was.SecureBoot) && setOrEqual(want.IntegrityMonitoring, was.IntegrityMonitoring) &&
		(want.PodRange == "" || want.PodRange == was.PodRange) && cidrMatches(want.PodCIDR, was.PodCIDR) &&
		(want.GPUDirect == "" || want.GPUDirect == was.GPUDirect) &&
		(want.ThreadsPerCore == 0 || want.ThreadsPerCore == was.ThreadsPerCore)
}

// setOrEqual reports whether want is left to GKE (nil) or equals was.
func setOrEqual[T comparable](want, was *T) bool {
	return want == nil || (was != nil && *want == *was)
}

// nodeSettingsEqual reports whether the settings nodePools.update changes
// are as want asks.
func nodeSettingsEqual(was, want poolSettings) bool {
	return (want.DiskSizeGB == 0 || want.DiskSizeGB == was.DiskSizeGB) &&
		(want.DiskType == "" || want.DiskType == was.DiskType) &&
		(want.ImageType == "" || strings.EqualFold(want.ImageType, was.ImageType)) &&
		setOrEqual(want.ImageStreaming, was.ImageStreaming) &&
		setOrEqual(want.MaxSurge, was.MaxSurge) && setOrEqual(want.MaxUnavailable, was.MaxUnavailable) &&
		(want.WorkloadMetadataMode == "" || want.WorkloadMetadataMode == was.WorkloadMetadataMode) &&
		(want.Tags == nil || slices.Equal(want.Tags, was.Tags)) &&
		maps.Equal(want.ResourceLabels, was.ResourceLabels) &&
		setOrEqual(want.Gvnic, was.Gvnic) && setOrEqual(want.ConfidentialNodes, was.ConfidentialNodes) &&
		setOrEqual(want.PrivateNodes, was.PrivateNodes) &&
		(want.ResourceManagerTags == nil || maps.Equal(want.ResourceManagerTags, was.ResourceManagerTags)) &&
		(want.Version == "" || catalog.GKEVersionMatches(want.Version, was.Version)) &&
		kubeletMatches(want.System.Kubelet, was.System.Kubelet) && linuxMatches(want.System.Linux, was.System.Linux) &&
		(want.Strategy == "" || want.Strategy == was.Strategy) && blueGreenMatches(want.BlueGreen, was.BlueGreen) &&
		setOrEqual(want.FastSocket, was.FastSocket) && containerdMatches(want.Containerd, was.Containerd)
}

// autoscalingSettingsEqual reports whether the location policy and the
// total limits, which setAutoscaling changes, are as want asks.
func autoscalingSettingsEqual(was, want poolSettings) bool {
	return (want.LocationPolicy == "" || want.LocationPolicy == was.LocationPolicy) &&
		ptrEqual(want.TotalMin, was.TotalMin) && ptrEqual(want.TotalMax, was.TotalMax)
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// usesTotals reports whether autoscaling uses total (cluster-wide) limits.
func usesTotals(as *container.NodePoolAutoscaling) bool {
	return as.TotalMinNodeCount > 0 || as.TotalMaxNodeCount > 0
}

// writeTo sets the settings on a create request's node pool.
// owner is the ownership label value, kept among the resource labels.
func (s poolSettings) writeTo(cat *catalog.Catalog, np *container.NodePool) {
	cfg := np.Config
	cfg.DiskSizeGb = s.DiskSizeGB
	cfg.DiskType = s.DiskType
	cfg.ImageType = s.ImageType
	if s.ImageStreaming != nil {
		cfg.GcfsConfig = &container.GcfsConfig{Enabled: *s.ImageStreaming, ForceSendFields: []string{"Enabled"}}
	}
	cfg.ServiceAccount = s.ServiceAccount
	cfg.OauthScopes = slices.Clone(s.OAuthScopes)
	if s.MaxPodsPerNode != 0 {
		np.MaxPodsConstraint = &container.MaxPodsConstraint{MaxPodsPerNode: s.MaxPodsPerNode}
	}
	if s.WorkloadMetadataMode != "" {
		cfg.WorkloadMetadataConfig = &container.WorkloadMetadataConfig{Mode: s.WorkloadMetadataMode}
	}
	cfg.Tags = slices.Clone(s.Tags)
	if len(s.ResourceLabels) > 0 {
		cfg.ResourceLabels = maps.Clone(s.ResourceLabels)
	}
	if s.MaxSurge != nil || s.MaxUnavailable != nil || s.Strategy != "" || s.BlueGreen != nil {
		surge, unavailable := cat.UpgradeDefaults()
		np.UpgradeSettings = s.upgradeSettings(surge, unavailable, "", nil)
	}
	if s.SecureBoot != nil || s.IntegrityMonitoring != nil {
		secureBoot, integrity := cat.ShieldedVMDefaults()
		cfg.ShieldedInstanceConfig = &container.ShieldedInstanceConfig{
			EnableSecureBoot: valueOr(s.SecureBoot, secureBoot), EnableIntegrityMonitoring: valueOr(s.IntegrityMonitoring, integrity),
			ForceSendFields: []string{"EnableSecureBoot", "EnableIntegrityMonitoring"},
		}
	}
	if s.Gvnic != nil {
		cfg.Gvnic = &container.VirtualNIC{Enabled: *s.Gvnic, ForceSendFields: []string{"Enabled"}}
	}
	if s.ConfidentialNodes != nil {
		cfg.ConfidentialNodes = &container.ConfidentialNodes{Enabled: *s.ConfidentialNodes, ForceSendFields: []string{"Enabled"}}
	}
	if s.PrivateNodes != nil || s.PodRange != "" || s.PodCIDR != "" {
		if np.NetworkConfig == nil {
			np.NetworkConfig = &container.NodeNetworkConfig{}
		}
		np.NetworkConfig.PodRange, np.NetworkConfig.PodIpv4CidrBlock = s.PodRange, s.PodCIDR
	}
	if s.PrivateNodes != nil {
		np.NetworkConfig.EnablePrivateNodes, np.NetworkConfig.ForceSendFields = *s.PrivateNodes, []string{"EnablePrivateNodes"}
	}
	if s.GPUDirect != "" {
		cfg.GpuDirectConfig = &container.GPUDirectConfig{GpuDirectStrategy: s.GPUDirect}
	}
	if s.FastSocket != nil {
		cfg.FastSocket = &container.FastSocket{Enabled: *s.FastSocket, ForceSendFields: []string{"Enabled"}}
	}
	if s.Containerd != nil {
		cfg.ContainerdConfig = s.Containerd.api()
	}
	if s.ThreadsPerCore != 0 {
		cfg.AdvancedMachineFeatures = &container.AdvancedMachineFeatures{ThreadsPerCore: s.ThreadsPerCore}
	}
	np.Version = s.Version
	s.System.writeTo(cfg)
	if len(s.ResourceManagerTags) > 0 {
		cfg.ResourceManagerTags = &container.ResourceManagerTags{Tags: maps.Clone(s.ResourceManagerTags)}
	}
	for _, a := range cfg.Accelerators {
		a.GpuPartitionSize = s.GPUPartitionSize
		if g := s.GPUSharing; g != nil {
			a.GpuSharingConfig = &container.GPUSharingConfig{GpuSharingStrategy: g.Strategy, MaxSharedClientsPerGpu: g.MaxClients}
		}
	}
}

// upgradeSettings is the UpgradeSettings the settings ask for, the value of
// one left out being surge, unavailable, strategy (SURGE when "") or
// blueGreen.
func (s poolSettings) upgradeSettings(surge, unavailable int64, strategy string, blueGreen *blueGreen) *container.UpgradeSettings {
	u := &container.UpgradeSettings{
		Strategy: cmp.Or(s.Strategy, strategy, strategySurge), MaxSurge: valueOr(s.MaxSurge, surge),
		MaxUnavailable: valueOr(s.MaxUnavailable, unavailable), ForceSendFields: []string{"MaxSurge", "MaxUnavailable"},
	}
	if bg := cmp.Or(s.BlueGreen, blueGreen); bg != nil {
		u.BlueGreenSettings = bg.api()
	}
	return u
}

func valueOr[T any](p *T, or T) T {
	if p == nil {
		return or
	}
	return *p
}

// updateRequest is the nodePools.update request that brings the in-place
// settings from was to want, with the ownership label kept.
func (s poolSettings) updateRequest(cat *catalog.Catalog, was poolSettings, owner string) *container.UpdateNodePoolRequest {
	req := &container.UpdateNodePoolRequest{}
	if s.DiskSizeGB != 0 && s.DiskSizeGB != was.DiskSizeGB {
		req.DiskSizeGb = s.DiskSizeGB
	}
	if s.DiskType != "" && s.DiskType != was.DiskType {
		req.DiskType = s.DiskType
	}
	if s.ImageType != "" && !strings.EqualFold(s.ImageType, was.ImageType) {
		req.ImageType = s.ImageType
	}
	if s.ImageStreaming != nil {
		req.GcfsConfig = &container.GcfsConfig{Enabled: *s.ImageStreaming, ForceSendFields: []string{"Enabled"}}
	}
	if !setOrEqual(s.MaxSurge, was.MaxSurge) || !setOrEqual(s.MaxUnavailable, was.MaxUnavailable) ||
		(s.Strategy != "" && s.Strategy != was.Strategy) || !blueGreenMatches(s.BlueGreen, was.BlueGreen) {
		surge, unavailable := cat.UpgradeDefaults()
		req.UpgradeSettings = s.upgradeSettings(valueOr(was.MaxSurge, surge), valueOr(was.MaxUnavailable, unavailable),
			was.Strategy, was.BlueGreen)
	}
	if s.WorkloadMetadataMode != "" && s.WorkloadMetadataMode != was.WorkloadMetadataMode {
		req.WorkloadMetadataConfig = &container.WorkloadMetadataConfig{Mode: s.WorkloadMetadataMode}
	}
	if s.Tags != nil {
		req.Tags = &container.NetworkTags{Tags: slices.Clone(s.Tags), ForceSendFields: []string{"Tags"}}
	}
	s.System.updateTo(req, was.System)
	if s.Version != "" && !catalog.GKEVersionMatches(s.Version, was.Version) {
		req.NodeVersion = s.Version
	}
	if !containerdMatches(s.Containerd, was.Containerd) {
		req.ContainerdConfig = s.Containerd.api()
	}
	if !setOrEqual(s.FastSocket, was.FastSocket) {
		req.FastSocket = &container.FastSocket{Enabled: *s.FastSocket, ForceSendFields: []string{"Enabled"}}
	}
	if !setOrEqual(s.Gvnic, was.Gvnic) {
		req.Gvnic = &container.VirtualNIC{Enabled: *s.Gvnic, ForceSendFields: []string{"Enabled"}}
	}
	if !setOrEqual(s.ConfidentialNodes, was.ConfidentialNodes) {
		req.ConfidentialNodes = &container.ConfidentialNodes{Enabled: *s.ConfidentialNodes, ForceSendFields: []string{"Enabled"}}
	}
	if !setOrEqual(s.PrivateNodes, was.PrivateNodes) {
		req.NodeNetworkConfig = &container.NodeNetworkConfig{EnablePrivateNodes: *s.PrivateNodes, ForceSendFields: []string{"EnablePrivateNodes"}}
	}
	if s.ResourceManagerTags != nil && !maps.Equal(s.ResourceManagerTags, was.ResourceManagerTags) {
		req.ResourceManagerTags = &container.ResourceManagerTags{Tags: maps.Clone(s.ResourceManagerTags), ForceSendFields: []string{"Tags"}}
	}
	if !maps.Equal(s.ResourceLabels, was.ResourceLabels) {
		labels := maps.Clone(s.ResourceLabels)
		if labels == nil {
			labels = map[string]string{}
		}
		if owner != "" {
			labels[ownership.LabelKey] = owner
		}
		req.ResourceLabels = &container.ResourceLabels{Labels: labels, ForceSendFields: []string{"Labels"}}
	}
	return req
}

// poolSettingsOf reads the settings GKE reports for a pool; userLabels
// decides which resource labels are the tier's (nil: every label but the
// ownership label and those GKE adds).
func poolSettingsOf(np *container.NodePool, userLabels map[string]string) poolSettings {
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	s := poolSettings{
		DiskSizeGB: cfg.DiskSizeGb, DiskType: cfg.DiskType, ImageType: cfg.ImageType, ServiceAccount: cfg.ServiceAccount,
		OAuthScopes: slices.Clone(cfg.OauthScopes), Tags: slices.Clone(cfg.Tags),
	}
	slices.Sort(s.OAuthScopes)
	enabled := cfg.GcfsConfig != nil && cfg.GcfsConfig.Enabled
	s.ImageStreaming = &enabled
	if mp := np.MaxPodsConstraint; mp != nil {
		s.MaxPodsPerNode = mp.MaxPodsPerNode
	}
	if u := np.UpgradeSettings; u != nil {
		s.MaxSurge, s.MaxUnavailable = &u.MaxSurge, &u.MaxUnavailable
		s.Strategy, s.BlueGreen = u.Strategy, blueGreenOfPool(u)
	}
	if v := cfg.ShieldedInstanceConfig; v != nil {
		s.SecureBoot, s.IntegrityMonitoring = &v.EnableSecureBoot, &v.EnableIntegrityMonitoring
	}
	if w := cfg.WorkloadMetadataConfig; w != nil && w.Mode != "MODE_UNSPECIFIED" {
		s.WorkloadMetadataMode = w.Mode
	}
	if as := np.Autoscaling; as != nil && as.Enabled && as.LocationPolicy != "LOCATION_POLICY_UNSPECIFIED" {
		s.LocationPolicy = as.LocationPolicy
	}
	if as := np.Autoscaling; as != nil && as.Enabled && usesTotals(as) {
		s.TotalMin, s.TotalMax = &as.TotalMinNodeCount, &as.TotalMaxNodeCount
	}
	s.ResourceLabels = tierResourceLabels(cfg.ResourceLabels, userLabels)
	gvnic := cfg.Gvnic != nil && cfg.Gvnic.Enabled
	confidential := cfg.ConfidentialNodes != nil && cfg.ConfidentialNodes.Enabled
	private := np.NetworkConfig != nil && np.NetworkConfig.EnablePrivateNodes
	s.Gvnic, s.ConfidentialNodes, s.PrivateNodes = &gvnic, &confidential, &private
	s.Version = np.Version
	s.System = nodeSystemOfPool(cfg)
	if nc := np.NetworkConfig; nc != nil {
		s.PodRange, s.PodCIDR = nc.PodRange, nc.PodIpv4CidrBlock
	}
	if g := cfg.GpuDirectConfig; g != nil && g.GpuDirectStrategy != "GPU_DIRECT_STRATEGY_UNSPECIFIED" {
		s.GPUDirect = g.GpuDirectStrategy
	}
	s.Containerd = containerdOfPool(cfg)
	if a := cfg.AdvancedMachineFeatures; a != nil {
		s.ThreadsPerCore = a.ThreadsPerCore
	}
	fastSocket := cfg.FastSocket != nil && cfg.FastSocket.Enabled
	s.FastSocket = &fastSocket
	s.ResourceManagerTags = map[string]string{}
	if t := cfg.ResourceManagerTags; t != nil {
		maps.Copy(s.ResourceManagerTags, t.Tags)
	}
	gpu := gpuOf(cfg)
	s.GPUPartitionSize = gpu.GpuPartitionSize
	if g := gpu.GpuSharingConfig; g != nil && g.GpuSharingStrategy != "" && g.GpuSharingStrategy != "GPU_SHARING_STRATEGY_UNSPECIFIED" {
		s.GPUSharing = &gpuSharing{Strategy: g.GpuSharingStrategy, MaxClients: g.MaxSharedClientsPerGpu}
	}
	return s
}

// tierResourceLabels picks a tier's own resource labels from those GKE
// reports: the keys of declared, or (declared nil) every label but the
// ownership label and those GKE adds (goog-*); nil when there are none.
func tierResourceLabels(api, declared map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range api {
		_, want := declared[k]
		if declared == nil {
			want = k != ownership.LabelKey && !strings.HasPrefix(k, "goog-")
		}
		if want {
			out[k] = v
		}
	}
	if len(out) == 0 && declared == nil {
		return nil
	}
	return out
}

// flattenSettings sets a tier's settings from the pool GKE reports. The
// resource labels are those prior declares (every one of the pool's own on
// import, none otherwise when prior declares none).
func flattenSettings(ctx context.Context, t *tierModel, prior tierModel, np *container.NodePool, importing bool, diags *diag.Diagnostics) {
	declared, _ := settingsOf(ctx, prior.tierSettingsModel, diags)
	userLabels := declared.ResourceLabels
	if userLabels == nil && !importing {
		userLabels = map[string]string{}
	}
	s := poolSettingsOf(np, userLabels)
	if !importing && declared.ResourceLabels == nil {
		s.ResourceLabels = nil
	}
	t.tierSettingsModel = settingsModelOf(s)
	t.KubeletConfig, t.LinuxNodeConfig = nodeSystemModels(s.System, prior.KubeletConfig, prior.LinuxNodeConfig, importing)
	t.ContainerdConfig = containerdValue(s.Containerd, prior.ContainerdConfig, importing)
	t.BlueGreenSettings = blueGreenValue(s.BlueGreen, prior.BlueGreenSettings, importing && s.Strategy == strategyBlueGreen)
	// A netmask (/18) stays while the pool's range has that size.
	if v := prior.PodIPv4CIDRBlock; tfmodel.Known(v) && !v.IsNull() && cidrMatches(v.ValueString(), s.PodCIDR) {
		t.PodIPv4CIDRBlock = v
	}
	// An alias (1.33) stays while the nodes run a version it names.
	if v := prior.Version; tfmodel.Known(v) && !v.IsNull() && catalog.GKEVersionMatches(v.ValueString(), s.Version) {
		t.Version = v
	}
}

// settingsModelOf converts settings to attribute values; a zero value is null.
func settingsModelOf(s poolSettings) tierSettingsModel {
	m := tierSettingsModel{
		DiskSizeGB:           tfmodel.Int64OrNull(s.DiskSizeGB, s.DiskSizeGB != 0),
		DiskType:             tfmodel.StringOrNull(s.DiskType),
		ImageType:            tfmodel.StringOrNull(s.ImageType),
		ServiceAccount:       tfmodel.StringOrNull(s.ServiceAccount),
		OAuthScopes:          types.SetNull(types.StringType),
		MaxPodsPerNode:       tfmodel.Int64OrNull(s.MaxPodsPerNode, s.MaxPodsPerNode != 0),
		WorkloadMetadataMode: tfmodel.StringOrNull(s.WorkloadMetadataMode),
		LocationPolicy:       tfmodel.StringOrNull(s.LocationPolicy),
		Tags:                 types.ListNull(types.StringType),
		ResourceLabels:       tfmodel.StringMap(s.ResourceLabels),
		GPUPartitionSize:     tfmodel.StringOrNull(s.GPUPartitionSize),
		GPUSharingConfig:     types.ObjectNull(schemaTypes().gpuSharing.AttrTypes),
		ImageStreaming:       types.BoolPointerValue(s.ImageStreaming),
		MaxSurge:             types.Int64PointerValue(s.MaxSurge),
		MaxUnavailable:       types.Int64PointerValue(s.MaxUnavailable),
		SecureBoot:           types.BoolPointerValue(s.SecureBoot),
		IntegrityMonitoring:  types.BoolPointerValue(s.IntegrityMonitoring),
		TotalMinNodeCount:    types.Int64PointerValue(s.TotalMin),
		TotalMaxNodeCount:    types.Int64PointerValue(s.TotalMax),
		Gvnic:                types.BoolPointerValue(s.Gvnic),
		ConfidentialNodes:    types.BoolPointerValue(s.ConfidentialNodes),
		EnablePrivateNodes:   types.BoolPointerValue(s.PrivateNodes),
		ResourceManagerTags:  tfmodel.StringMap(s.ResourceManagerTags),
		Version:              tfmodel.StringOrNull(s.Version),
		KubeletConfig:        types.ObjectNull(schemaTypes().kubelet.AttrTypes),
		LinuxNodeConfig:      types.ObjectNull(schemaTypes().linux.AttrTypes),
		UpgradeStrategy:      tfmodel.StringOrNull(s.Strategy),
		PodRange:             tfmodel.StringOrNull(s.PodRange),
		PodIPv4CIDRBlock:     tfmodel.StringOrNull(s.PodCIDR),
		GPUDirectStrategy:    tfmodel.StringOrNull(s.GPUDirect),
		FastSocket:           types.BoolPointerValue(s.FastSocket),
		ContainerdConfig:     types.ObjectNull(schemaTypes().containerd.AttrTypes),
		ThreadsPerCore:       tfmodel.Int64OrNull(s.ThreadsPerCore, s.ThreadsPerCore != 0),
		BlueGreenSettings:    types.ObjectNull(schemaTypes().blueGreen.AttrTypes),
	}
	if len(s.OAuthScopes) > 0 {
		elems := make([]attr.Value, len(s.OAuthScopes))
		for i, v := range s.OAuthScopes {
			elems[i] = types.StringValue(v)
		}
		m.OAuthScopes = types.SetValueMust(types.StringType, elems)
	}
	if len(s.Tags) > 0 {
		m.Tags = tfmodel.StringList(s.Tags)
	}
	if g := s.GPUSharing; g != nil {
		m.GPUSharingConfig = types.ObjectValueMust(schemaTypes().gpuSharing.AttrTypes, map[string]attr.Value{
			"gpu_sharing_strategy": types.StringValue(g.Strategy), "max_shared_clients_per_gpu": types.Int64Value(g.MaxClients),
		})
	}
	return m
}

// computedSettings points at the settings GKE fills when a tier leaves
// them out (Optional and Computed).
func (m *tierSettingsModel) computedSettings() []any {
	return []any{&m.DiskSizeGB, &m.DiskType, &m.ImageType, &m.ImageStreaming, &m.ServiceAccount, &m.OAuthScopes,
		&m.MaxPodsPerNode, &m.WorkloadMetadataMode, &m.LocationPolicy, &m.Tags, &m.MaxSurge, &m.MaxUnavailable, &m.SecureBoot,
		&m.IntegrityMonitoring, &m.Gvnic, &m.ConfidentialNodes, &m.EnablePrivateNodes, &m.ResourceManagerTags, &m.Version, &m.UpgradeStrategy,
		&m.PodRange, &m.PodIPv4CIDRBlock, &m.GPUDirectStrategy, &m.FastSocket, &m.ThreadsPerCore}
}

// valueAt returns the value a computedSettings pointer points at.
func valueAt(p any) attr.Value {
	switch p := p.(type) {
	case *types.Int64:
		return *p
	case *types.String:
		return *p
	case *types.Bool:
		return *p
	case *types.Set:
		return *p
	case *types.List:
		return *p
	case *types.Map:
		return *p
	}
	return nil
}

// setAt sets what a computedSettings pointer points at to v, or to unknown
// (unknown) or null when v is nil.
func setAt(p any, v attr.Value, unknown bool) {
	switch p := p.(type) {
	case *types.Int64:
		*p = pick(v, types.Int64Unknown(), types.Int64Null(), unknown)
	case *types.String:
		*p = pick(v, types.StringUnknown(), types.StringNull(), unknown)
	case *types.Bool:
		*p = pick(v, types.BoolUnknown(), types.BoolNull(), unknown)
	case *types.Set:
		*p = pick(v, types.SetUnknown(types.StringType), types.SetNull(types.StringType), unknown)
	case *types.List:
		*p = pick(v, types.ListUnknown(types.StringType), types.ListNull(types.StringType), unknown)
	case *types.Map:
		*p = pick(v, types.MapUnknown(types.StringType), types.MapNull(types.StringType), unknown)
	}
}

func pick[T attr.Value](v attr.Value, unknownValue, nullValue T, unknown bool) T {
	if x, ok := v.(T); ok {
		return x
	}
	if unknown {
		return unknownValue
	}
	return nullValue
}

// planSettings plans the computed settings a tier's configuration leaves
// out: what the state records when the pool is kept (keep), else unknown
// until GKE reports them. A location policy is null without autoscaling.
func planSettings(pt *tierModel, cfg tierModel, old tierModel, keep bool) {
	planned, configured, recorded := pt.computedSettings(), cfg.computedSettings(), old.computedSettings()
	for i, p := range planned {
		switch {
		case !valueAt(configured[i]).IsNull():
			continue
		case keep:
			setAt(p, valueAt(recorded[i]), false)
		default:
			setAt(p, nil, true)
		}
	}
	if cfg.LocationPolicy.IsNull() && cfg.MinNodeCount.IsNull() && !cfg.MinNodeCount.IsUnknown() &&
		cfg.TotalMaxNodeCount.IsNull() && !cfg.TotalMaxNodeCount.IsUnknown() {
		pt.LocationPolicy = types.StringNull()
	}
}

// markSettingsUnknown sets the computed settings a tier leaves out to
// unknown (markAllUnknown).
func markSettingsUnknown(m *tierSettingsModel) {
	for _, p := range m.computedSettings() {
		if valueAt(p).IsNull() {
			setAt(p, nil, true)
		}
	}
}

// settleSettings sets the computed settings still unknown to null.
func settleSettings(m *tierSettingsModel) {
	for _, p := range m.computedSettings() {
		if valueAt(p).IsUnknown() {
			setAt(p, nil, false)
		}
	}
}

// unknownSettings is every setting unknown.
func unknownSettings() tierSettingsModel {
	return tierSettingsModel{
		DiskSizeGB: types.Int64Unknown(), DiskType: types.StringUnknown(), ImageType: types.StringUnknown(),
		ImageStreaming: types.BoolUnknown(), ServiceAccount: types.StringUnknown(), OAuthScopes: types.SetUnknown(types.StringType),
		MaxPodsPerNode: types.Int64Unknown(), WorkloadMetadataMode: types.StringUnknown(), LocationPolicy: types.StringUnknown(),
		Tags: types.ListUnknown(types.StringType), ResourceLabels: types.MapUnknown(types.StringType),
		GPUPartitionSize: types.StringUnknown(), GPUSharingConfig: types.ObjectUnknown(schemaTypes().gpuSharing.AttrTypes),
		MaxSurge: types.Int64Unknown(), MaxUnavailable: types.Int64Unknown(), SecureBoot: types.BoolUnknown(),
		IntegrityMonitoring: types.BoolUnknown(), TotalMinNodeCount: types.Int64Unknown(), TotalMaxNodeCount: types.Int64Unknown(),
		Gvnic: types.BoolUnknown(), ConfidentialNodes: types.BoolUnknown(), EnablePrivateNodes: types.BoolUnknown(),
		ResourceManagerTags: types.MapUnknown(types.StringType), Version: types.StringUnknown(),
		KubeletConfig: types.ObjectUnknown(schemaTypes().kubelet.AttrTypes), LinuxNodeConfig: types.ObjectUnknown(schemaTypes().linux.AttrTypes),
		UpgradeStrategy: types.StringUnknown(), BlueGreenSettings: types.ObjectUnknown(schemaTypes().blueGreen.AttrTypes),
		PodRange: types.StringUnknown(), PodIPv4CIDRBlock: types.StringUnknown(), GPUDirectStrategy: types.StringUnknown(),
		FastSocket: types.BoolUnknown(), ContainerdConfig: types.ObjectUnknown(schemaTypes().containerd.AttrTypes), ThreadsPerCore: types.Int64Unknown(),
	}
}

// nullSettings is every setting null.
func nullSettings() tierSettingsModel { return settingsModelOf(poolSettings{}) }

// settingsValues lists the settings a configuration can set (tierValues).
func settingsValues(m tierSettingsModel) map[string]attr.Value {
	return map[string]attr.Value{
		"disk_size_gb": m.DiskSizeGB, "disk_type": m.DiskType, "image_type": m.ImageType, "image_streaming": m.ImageStreaming,
		"service_account": m.ServiceAccount, "oauth_scopes": m.OAuthScopes, "max_pods_per_node": m.MaxPodsPerNode,
		"workload_metadata_mode": m.WorkloadMetadataMode, "location_policy": m.LocationPolicy, "tags": m.Tags,
		"resource_labels": m.ResourceLabels, "gpu_partition_size": m.GPUPartitionSize, "gpu_sharing_config": m.GPUSharingConfig,
		"max_surge": m.MaxSurge, "max_unavailable": m.MaxUnavailable, "secure_boot": m.SecureBoot,
		"integrity_monitoring": m.IntegrityMonitoring, "total_min_node_count": m.TotalMinNodeCount,
		"total_max_node_count": m.TotalMaxNodeCount, "gvnic": m.Gvnic, "confidential_nodes": m.ConfidentialNodes,
		"enable_private_nodes": m.EnablePrivateNodes, "resource_manager_tags": m.ResourceManagerTags, "version": m.Version,
		"kubelet_config": m.KubeletConfig, "linux_node_config": m.LinuxNodeConfig,
		"upgrade_strategy": m.UpgradeStrategy, "blue_green_settings": m.BlueGreenSettings,
		"pod_range": m.PodRange, "pod_ipv4_cidr_block": m.PodIPv4CIDRBlock, "gpudirect_strategy": m.GPUDirectStrategy,
		"fast_socket": m.FastSocket, "containerd_config": m.ContainerdConfig, "threads_per_core": m.ThreadsPerCore,
	}
}

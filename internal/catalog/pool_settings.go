// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Attribute names of the node-pool settings, as the schemas spell them.
const (
	AttrDiskSizeGB       = "disk_size_gb"
	AttrDiskType         = "disk_type"
	AttrImageType        = "image_type"
	AttrImageStreaming   = "image_streaming"
	AttrMaxPodsPerNode   = "max_pods_per_node"
	AttrLocationPolicy   = "location_policy"
	AttrResourceLabels   = "resource_labels"
	AttrGPUPartitionSize = "gpu_partition_size"
	AttrGPUSharingConfig = "gpu_sharing_config"
	AttrMaxSurge         = "max_surge"
	AttrMaxUnavailable   = "max_unavailable"
	// AttrTotalMinNodeCount and AttrTotalMaxNodeCount are the total
	// (cluster-wide) autoscaling limits.
	AttrTotalMinNodeCount = "total_min_node_count"
	AttrTotalMaxNodeCount = "total_max_node_count"
)

// Node labels GKE sets on nodes that share GPUs (source topics
// "gke_gpu_sharing" and "gke_gpu_partitions").
const (
	LabelGPUPartitionSize       = "cloud.google.com/gke-gpu-partition-size"
	LabelGPUSharingStrategy     = "cloud.google.com/gke-gpu-sharing-strategy"
	LabelMaxSharedClientsPerGPU = "cloud.google.com/gke-max-shared-clients-per-gpu"
)

// GPU sharing strategies (GPUSharingConfig.gpuSharingStrategy).
const (
	GPUSharingTimeSharing = "TIME_SHARING"
	GPUSharingMPS         = "MPS"
)

// PoolSettingsData is the pool_settings section of the catalog data.
type PoolSettingsData struct {
	Description              string           `json:"description"`
	MinDiskSizeGB            int64            `json:"min_disk_size_gb"`
	MinDiskSizeSource        string           `json:"min_disk_size_source"`
	DiskTypes                []NamedFact      `json:"disk_types"`
	DiskTypesDecision        string           `json:"disk_types_decision"`
	BootDiskFamilies         []BootDiskFamily `json:"boot_disk_families"`
	BootDiskFamiliesDecision string           `json:"boot_disk_families_decision"`
	ImageTypes               []NamedFact      `json:"image_types"`
	ImageTypesDecision       string           `json:"image_types_decision"`
	ImageStreamingImageType  string           `json:"image_streaming_image_type"`
	ImageStreamingSource     string           `json:"image_streaming_source"`
	MaxPodsPerNode           IntRange         `json:"max_pods_per_node"`
	LocationPolicySource     string           `json:"location_policy_source"`
	ResourceLabels           LabelLimits      `json:"resource_labels"`
	GPUPartitions            []GPUPartition   `json:"gpu_partitions"`
	GPUPartitionsDecision    string           `json:"gpu_partitions_decision"`
	GPUSharing               GPUSharing       `json:"gpu_sharing"`
	Upgrade                  UpgradeRules     `json:"upgrade"`
	ShieldedVM               ShieldedVM       `json:"shielded_vm"`
	LocalSSD                 LocalSSDRules    `json:"local_ssd"`
}

// UpgradeRules are GKE's surge upgrade defaults and rules.
type UpgradeRules struct {
	DefaultMaxSurge       int64  `json:"default_max_surge"`
	DefaultMaxUnavailable int64  `json:"default_max_unavailable"`
	Source                string `json:"source"`
	APISource             string `json:"api_source"`
	MultiHostSource       string `json:"multi_host_source"`
	MultiHostDecision     string `json:"multi_host_decision"`
	BothZeroDecision      string `json:"both_zero_decision"`
}

// ShieldedVM holds GKE's Shielded VM defaults for nodes.
type ShieldedVM struct {
	DefaultSecureBoot          bool   `json:"default_secure_boot"`
	DefaultIntegrityMonitoring bool   `json:"default_integrity_monitoring"`
	Source                     string `json:"source"`
	APISource                  string `json:"api_source"`
}

// NamedFact is a documented name with its source.
type NamedFact struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// IntRange is a documented inclusive range.
type IntRange struct {
	Min    int64  `json:"min"`
	Max    int64  `json:"max"`
	Source string `json:"source"`
}

// LabelLimits are Compute Engine's label limits.
type LabelLimits struct {
	MaxLabels int    `json:"max_labels"`
	MaxLength int    `json:"max_length"`
	Source    string `json:"source"`
}

// GPUPartition lists the multi-instance GPU partition sizes of a GPU type.
// Status "unverified" marks a GPU whose sizes the catalog does not list.
type GPUPartition struct {
	GPUType  string   `json:"gpu_type"`
	Sizes    []string `json:"sizes"`
	Status   string   `json:"status"`
	Decision string   `json:"decision"`
	Source   string   `json:"source"`
}

// GPUSharing holds GKE's GPU time-sharing and MPS limits.
type GPUSharing struct {
	Strategies             []string `json:"strategies"`
	MinSharedClientsPerGPU int64    `json:"min_shared_clients_per_gpu"`
	MaxSharedClientsPerGPU int64    `json:"max_shared_clients_per_gpu"`
	Source                 string   `json:"source"`
	MPSSource              string   `json:"mps_source"`
	MinSource              string   `json:"min_source"`
	MinDecision            string   `json:"min_decision"`
}

// PoolSettingsQuery is the node settings a node pool sets; zero values are
// settings left to GKE.
type PoolSettingsQuery struct {
	TPU bool
	// MachineType is the pool's machine type, for its boot disk types.
	MachineType    string
	GPUType        string
	DiskSizeGB     int64
	DiskType       string
	ImageType      string
	ImageStreaming bool
	MaxPodsPerNode int64
	LocationPolicy string
	Autoscaling    bool
	ResourceLabels map[string]string
	// ReservedLabelKeys are resource label keys the provider sets itself.
	ReservedLabelKeys []string
	GPUPartitionSize  string
	// GPUSharingStrategy is empty when the pool does not share GPUs.
	GPUSharingStrategy     string
	MaxSharedClientsPerGPU int64
	// Hosts is the number of VMs of a TPU slice (more than 1: multi-host).
	Hosts int64
	// MaxSurge and MaxUnavailable are the surge upgrade settings; nil is
	// left to GKE.
	MaxSurge       *int64
	MaxUnavailable *int64
}

// UpgradeDefaults are GKE's surge upgrade settings for a pool that sets
// none.
func (c *Catalog) UpgradeDefaults() (maxSurge, maxUnavailable int64) {
	u := c.data.PoolSettings.Upgrade
	return u.DefaultMaxSurge, u.DefaultMaxUnavailable
}

// ShieldedVMDefaults are GKE's Shielded VM options for nodes that set none.
func (c *Catalog) ShieldedVMDefaults() (secureBoot, integrityMonitoring bool) {
	v := c.data.PoolSettings.ShieldedVM
	return v.DefaultSecureBoot, v.DefaultIntegrityMonitoring
}

// GPUSharingStrategies lists the GPU sharing strategies GKE accepts.
func (c *Catalog) GPUSharingStrategies() []string {
	return slices.Clone(c.data.PoolSettings.GPUSharing.Strategies)
}

// MinSharedClientsPerGPU is the fewest containers GKE shares one GPU among.
func (c *Catalog) MinSharedClientsPerGPU() int64 {
	return max(c.data.PoolSettings.GPUSharing.MinSharedClientsPerGPU, 1)
}

// MaxSharedClientsPerGPU is GKE's limit of containers sharing one GPU.
func (c *Catalog) MaxSharedClientsPerGPU() int64 {
	return c.data.PoolSettings.GPUSharing.MaxSharedClientsPerGPU
}

// MaxPodsPerNodeRange is GKE's range of the maximum pods per node.
func (c *Catalog) MaxPodsPerNodeRange() (lo, hi int64) {
	r := c.data.PoolSettings.MaxPodsPerNode
	return r.Min, r.Max
}

// MinDiskSizeGB is GKE's smallest boot disk.
func (c *Catalog) MinDiskSizeGB() int64 { return c.data.PoolSettings.MinDiskSizeGB }

// DiskTypeNames lists the boot disk types the catalog knows.
func (c *Catalog) DiskTypeNames() []string { return factNames(c.data.PoolSettings.DiskTypes) }

// ImageTypeNames lists the node image types the catalog knows.
func (c *Catalog) ImageTypeNames() []string { return factNames(c.data.PoolSettings.ImageTypes) }

func factNames(fs []NamedFact) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// GPUPartitionSizes returns the documented partition sizes of a GPU type,
// and whether the GPU supports multi-instance partitions at all.
func (c *Catalog) GPUPartitionSizes(gpuType string) (sizes []string, known, supported bool) {
	for _, p := range c.data.PoolSettings.GPUPartitions {
		if p.GPUType == gpuType {
			return slices.Clone(p.Sizes), p.Status != StatusUnverified, true
		}
	}
	return nil, true, false
}

// gpuSharingLabels are the node labels GKE sets for a pool's GPU sharing.
func gpuSharingLabels(q PoolSettingsQuery) map[string]string {
	out := map[string]string{}
	if q.GPUPartitionSize != "" {
		out[LabelGPUPartitionSize] = q.GPUPartitionSize
	}
	if q.GPUSharingStrategy != "" {
		out[LabelGPUSharingStrategy] = strings.ReplaceAll(strings.ToLower(q.GPUSharingStrategy), "_", "-")
		out[LabelMaxSharedClientsPerGPU] = fmt.Sprint(q.MaxSharedClientsPerGPU)
	}
	return out
}

// GPUSharingLabels returns the node labels GKE sets on the nodes of a pool
// that shares its GPUs: cloud.google.com/gke-gpu-partition-size for
// multi-instance partitions; cloud.google.com/gke-gpu-sharing-strategy
// (time-sharing or mps) and cloud.google.com/gke-max-shared-clients-per-gpu
// for time-sharing and MPS.
func (c *Catalog) GPUSharingLabels(partitionSize, strategy string, maxClients int64) map[string]string {
	return gpuSharingLabels(PoolSettingsQuery{GPUPartitionSize: partitionSize, GPUSharingStrategy: strategy, MaxSharedClientsPerGPU: maxClients})
}

// PoolSettings checks the node settings of a node pool against GKE's
// documented rules.
func (c *Catalog) PoolSettings(q PoolSettingsQuery) Findings {
	ps := &c.data.PoolSettings
	var fs Findings
	errf := func(attr, value, summary, source, detail string, args ...any) {
		fs = append(fs, newFinding(SeverityError, attr, value, summary, source, nil, fmt.Sprintf(detail, args...)))
	}
	warnf := func(attr, value, summary, source string, sugg []string, detail string, args ...any) {
		fs = append(fs, newFinding(SeverityWarning, attr, value, summary, source, sugg, fmt.Sprintf(detail, args...)))
	}
	if q.DiskSizeGB != 0 && q.DiskSizeGB < ps.MinDiskSizeGB {
		errf(AttrDiskSizeGB, fmt.Sprint(q.DiskSizeGB), "Boot Disk Too Small", ps.MinDiskSizeSource,
			"disk_size_gb %d is below GKE's smallest boot disk, %d GB.", q.DiskSizeGB, ps.MinDiskSizeGB)
	}
	if q.DiskType != "" && !slices.Contains(c.DiskTypeNames(), q.DiskType) {
		warnf(AttrDiskType, q.DiskType, "Unknown Boot Disk Type", ps.DiskTypes[0].Source, nearest(q.DiskType, c.DiskTypeNames()),
			"%q is not a boot disk type the catalog knows (%s); GKE decides at apply time whether the machine type supports it.",
			q.DiskType, strings.Join(c.DiskTypeNames(), ", "))
	}
	fs = append(fs, c.BootDiskType(AttrDiskType, q.MachineType, q.DiskType)...)
	if q.ImageType != "" && !slices.Contains(c.ImageTypeNames(), strings.ToUpper(q.ImageType)) {
		warnf(AttrImageType, q.ImageType, "Unknown Node Image Type", ps.ImageTypes[0].Source, nearest(strings.ToUpper(q.ImageType), c.ImageTypeNames()),
			"%q is not a Linux node image the catalog knows for accelerator pools (%s).", q.ImageType, strings.Join(c.ImageTypeNames(), ", "))
	}
	if q.ImageStreaming && q.ImageType != "" && !strings.EqualFold(q.ImageType, ps.ImageStreamingImageType) {
		errf(AttrImageStreaming, "true", "Image Streaming Needs Container-Optimized OS", ps.ImageStreamingSource,
			"Image streaming needs the %s node image, not %q; set image_type = %q or remove image_streaming.",
			ps.ImageStreamingImageType, q.ImageType, ps.ImageStreamingImageType)
	}
	if r := ps.MaxPodsPerNode; q.MaxPodsPerNode != 0 && (q.MaxPodsPerNode < r.Min || q.MaxPodsPerNode > r.Max) {
		errf(AttrMaxPodsPerNode, fmt.Sprint(q.MaxPodsPerNode), "Max Pods per Node Out of Range", r.Source,
			"max_pods_per_node %d is outside GKE's range, %d to %d.", q.MaxPodsPerNode, r.Min, r.Max)
	}
	if q.LocationPolicy != "" && !q.Autoscaling {
		errf(AttrLocationPolicy, q.LocationPolicy, "Location Policy Without Autoscaling", ps.LocationPolicySource,
			"location_policy is an autoscaling setting (NodePoolAutoscaling.locationPolicy); set min_node_count and max_node_count, or remove it.")
	}
	fs = append(fs, c.resourceLabelFindings(q)...)
	fs = append(fs, c.gpuSharingFindings(q)...)
	fs = append(fs, c.upgradeFindings(q)...)
	return fs
}

// upgradeFindings checks the surge upgrade settings; one left out counts
// as GKE's default.
func (c *Catalog) upgradeFindings(q PoolSettingsQuery) Findings {
	u := c.data.PoolSettings.Upgrade
	if q.MaxSurge == nil && q.MaxUnavailable == nil {
		return nil
	}
	surge, unavailable := u.DefaultMaxSurge, u.DefaultMaxUnavailable
	if q.MaxSurge != nil {
		surge = *q.MaxSurge
	}
	if q.MaxUnavailable != nil {
		unavailable = *q.MaxUnavailable
	}
	var fs Findings
	if surge == 0 && unavailable == 0 {
		attr := AttrMaxSurge
		if q.MaxSurge == nil {
			attr = AttrMaxUnavailable
		}
		fs = append(fs, newRule(attr, "0", "Upgrade Without Parallelism", u.Source, nil,
			fmt.Sprintf("max_surge and max_unavailable are both 0 (GKE's default for one left out: max_surge %d, max_unavailable %d), so no node could be upgraded; set at least one of them above 0.",
				u.DefaultMaxSurge, u.DefaultMaxUnavailable)))
	}
	if q.TPU && q.Hosts > 1 && q.MaxSurge != nil && *q.MaxSurge > 0 {
		fs = append(fs, newFinding(SeverityWarning, AttrMaxSurge, fmt.Sprint(*q.MaxSurge), "Surge on a Multi-Host TPU Slice", u.MultiHostSource, nil,
			fmt.Sprintf("The %d VMs of a multi-host TPU slice are one unit that GKE re-creates whole; surge nodes cannot join the slice, and an upgrade with max_surge needs capacity for another slice. %s",
				q.Hosts, u.MultiHostDecision)))
	}
	return fs
}

func (c *Catalog) resourceLabelFindings(q PoolSettingsQuery) Findings {
	return c.LabelFindings(AttrResourceLabels, q.ResourceLabels, q.ReservedLabelKeys)
}

func (c *Catalog) gpuSharingFindings(q PoolSettingsQuery) Findings {
	ps := &c.data.PoolSettings
	var fs Findings
	if q.TPU && (q.GPUPartitionSize != "" || q.GPUSharingStrategy != "") {
		attr := AttrGPUPartitionSize
		if q.GPUPartitionSize == "" {
			attr = AttrGPUSharingConfig
		}
		return Findings{newRule(attr, q.GPUPartitionSize+q.GPUSharingStrategy, "GPU Sharing on a TPU Tier", c.Source("gke_gpu_sharing"), nil,
			"gpu_partition_size and gpu_sharing_config share NVIDIA GPUs; remove them from the TPU tier.")}
	}
	if p := q.GPUPartitionSize; p != "" {
		sizes, known, supported := c.GPUPartitionSizes(q.GPUType)
		src := c.Source("gke_gpu_partitions")
		switch {
		case !supported:
			var capable []string
			for _, x := range ps.GPUPartitions {
				capable = append(capable, x.GPUType)
			}
			fs = append(fs, newFinding(SeverityError, AttrGPUPartitionSize, p, "GPU Does Not Support Partitions", src, capable,
				fmt.Sprintf("%s GPUs cannot be partitioned into multi-instance GPUs; GKE partitions %s. Remove gpu_partition_size, or use gpu_sharing_config to share the GPU.",
					orNone(q.GPUType), strings.Join(capable, ", "))))
		case !known:
			fs = append(fs, newFinding(SeverityWarning, AttrGPUPartitionSize, p, "Partition Size Not Verified", src, nil,
				fmt.Sprintf("The catalog does not list the partition sizes of %s; %q is sent as written. %s", q.GPUType, p, ps.GPUPartitionsDecision)))
		case !slices.Contains(sizes, p):
			fs = append(fs, newFinding(SeverityError, AttrGPUPartitionSize, p, "Unsupported GPU Partition Size", src, nearest(p, sizes),
				fmt.Sprintf("%s GPUs partition into %s, not %q.", q.GPUType, strings.Join(sizes, ", "), p)))
		}
	}
	if q.GPUSharingStrategy != "" {
		limit := ps.GPUSharing.MaxSharedClientsPerGPU
		src := ps.GPUSharing.Source
		if q.GPUSharingStrategy == GPUSharingMPS {
			src = ps.GPUSharing.MPSSource
		}
		low := max(ps.GPUSharing.MinSharedClientsPerGPU, 1)
		switch n := q.MaxSharedClientsPerGPU; {
		case n > limit:
			fs = append(fs, newFinding(SeverityError, AttrGPUSharingConfig, fmt.Sprint(n), "Too Many Shared Clients per GPU", src, []string{fmt.Sprint(limit)},
				fmt.Sprintf("max_shared_clients_per_gpu %d is outside GKE's range for %s, %d to %d containers per GPU.", n, q.GPUSharingStrategy, low, limit)))
		case n < low:
			fs = append(fs, newFinding(SeverityError, AttrGPUSharingConfig, fmt.Sprint(n), "Too Few Shared Clients per GPU", ps.GPUSharing.MinSource, []string{fmt.Sprint(low)},
				fmt.Sprintf("max_shared_clients_per_gpu %d is outside GKE's range for %s, %d to %d containers per GPU. %s", n, q.GPUSharingStrategy, low, limit,
					ps.GPUSharing.MinDecision)))
		}
	}
	return fs
}

func orNone(s string) string {
	if s == "" {
		return "These"
	}
	return s
}

// BootDiskFamily is the boot disk types of the machine types whose names
// start with MachinePrefix (pool_settings.boot_disk_families).
type BootDiskFamily struct {
	MachinePrefix string   `json:"machine_prefix"`
	Allowed       []string `json:"allowed"`
	Default       string   `json:"default"`
	Source        string   `json:"source"`
	// Documented says a docs page states Allowed, so another type is an
	// error; otherwise the list is GKE's code and another type a warning.
	Documented    bool     `json:"documented"`
	Refused       []string `json:"refused"`
	RefusedSource string   `json:"refused_source"`
}

// bootDiskFamily is the first family whose prefix machineType has, or nil.
func (c *Catalog) bootDiskFamily(machineType string) *BootDiskFamily {
	if machineType == "" {
		return nil
	}
	for i := range c.data.PoolSettings.BootDiskFamilies {
		if f := &c.data.PoolSettings.BootDiskFamilies[i]; strings.HasPrefix(machineType, f.MachinePrefix) {
			return f
		}
	}
	return nil
}

// BootDiskDefault is the boot disk type a machine type's family uses when
// none is set ("" when the catalog has no family for it): what a Compute
// Engine TPU VM is created with, since Compute Engine's own default,
// pd-standard, is not a type of every family.
func (c *Catalog) BootDiskDefault(machineType string) string {
	if f := c.bootDiskFamily(machineType); f != nil {
		return f.Default
	}
	return ""
}

// BootDiskType checks diskType, the boot disk type set for machineType, on
// attr: an error for a type a docs page refuses for the family, a warning
// for one outside GKE's machine table; nothing when either is unknown.
func (c *Catalog) BootDiskType(attr, machineType, diskType string) Findings {
	f := c.bootDiskFamily(machineType)
	if f == nil || diskType == "" || slices.Contains(f.Allowed, diskType) {
		return nil
	}
	family := strings.TrimSuffix(f.MachinePrefix, "-")
	detail := fmt.Sprintf("%q is not a boot disk type of %s machine types such as %q; they take %s.", diskType, family, machineType, quoteList(f.Allowed))
	sev, src := SeverityWarning, f.Source
	switch {
	case slices.Contains(f.Refused, diskType):
		sev, src = SeverityError, f.RefusedSource
		detail += " Compute Engine's page refuses it for this family."
	case f.Documented:
		sev = SeverityError
	default:
		detail += " The list is GKE's machine table (its cluster autoscaler), not a docs page; GKE decides at apply time."
	}
	return Findings{newFinding(sev, attr, diskType, "Boot Disk Type Not Offered for Machine Type", src, []string{f.Default}, detail)}
}

// BootDiskFamilies lists the boot disk types per machine family, with the
// decision that weighs their sources.
func (c *Catalog) BootDiskFamilies() ([]BootDiskFamily, string) {
	ps := c.data.PoolSettings
	return ps.BootDiskFamilies, ps.BootDiskFamiliesDecision
}

// LabelLimits are the label rules every resource checks (LabelFindings).
func (c *Catalog) LabelLimits() LabelLimits { return c.data.PoolSettings.ResourceLabels }

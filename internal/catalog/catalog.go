// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package catalog holds the compatibility knowledge for Cloud TPU and GKE
// accelerators: TPU generations and their accelerator types, runtime
// versions, framework rules, zones, GKE TPU and GPU machine types, and the
// labels and taints GKE uses. Every fact lives in one embedded JSON file and
// carries the URL of the public source that backs it.
//
// Queries return typed findings (attribute, value, summary, detail,
// suggestions, severity, source) so that misconfigurations that would fail
// at apply time are reported at plan time. The package has no Terraform
// dependency and never touches the network.
package catalog

import (
	_ "embed" // The catalog data is embedded.
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

//go:embed data/catalog.json
var catalogJSON []byte

// Status values used in the catalog data.
const (
	// StatusDocumented marks a fact an official source states (the empty status).
	StatusDocumented = ""
	// StatusUnverified marks a fact seen only in code or third-party use; using it gives a warning.
	StatusUnverified = "unverified"
	// StatusDeprecated marks a legacy value that still works but is no longer listed; using it gives a warning.
	StatusDeprecated = "deprecated"
	// StatusOld marks a zone listed only on an older docs page; using it gives a warning.
	StatusOld = "old"
)

// Framework support levels used in FrameworkSupport.Status.
const (
	SupportRecommended  = "recommended"
	SupportSupported    = "supported"
	SupportExperimental = "experimental"
	SupportUnsupported  = "unsupported"
	// SupportUnlisted marks a generation the framework's docs do not name;
	// using it gives a warning.
	SupportUnlisted = "unlisted"
)

// Catalog is a loaded, indexed compatibility catalog. It is safe for
// concurrent use; all methods only read.
type Catalog struct {
	data    catalogData
	loadErr error

	gens        map[string]*Generation
	genByPrefix map[string]*Generation
	genByAlias  map[string]*Generation
	runtimes    map[string]*Runtime
	tfVersions  map[string]*TFVersion
	tpuMachines map[string]tpuMachineRef
	ceByType    map[string]ComputeEngineTPU // accelerator type -> Compute Engine shape
	ceByMachine map[string]string           // Compute Engine machine type -> accelerator type
	gpuMachines map[string]*GPUMachineType
	gpuTypes    map[string]*GPUAccelerator
	frameworks  map[string]*Framework
	fwAliases   map[string]string
	drivers     map[string]bool

	typeNames    []string // documented accelerator types, for suggestions
	runtimeNames []string
	gpuNames     []string
	tpuMachNames []string
}

type tpuMachineRef struct {
	gen *Generation
	mt  *TPUMachineType
}

type catalogData struct {
	Version     string            `json:"version"`
	Date        string            `json:"date"`
	Description string            `json:"description"`
	Sources     map[string]string `json:"sources"`
	Generations []*Generation     `json:"generations"`
	Runtimes    []*Runtime        `json:"runtimes"`
	TensorFlow  TensorFlowRules   `json:"tensorflow"`
	Frameworks  []*Framework      `json:"frameworks"`
	GPU         GPUCatalog        `json:"gpu"`
	Labels      []Label           `json:"labels"`
	Taints      []Taint           `json:"taints"`
	Resources   []Resource        `json:"resources"`
	Capacity    CapacityModes     `json:"capacity_modes"`
	Decisions   []Decision        `json:"decisions"`
	// GKEAvailability is GKE's own TPU availability, kept apart from the
	// Cloud TPU API's zone lists (Generation.Zones).
	GKEAvailability GKEAvailability `json:"gke_tpu_availability"`
	ComputeClass    ComputeClassReq `json:"compute_class"`
	// PoolSettings holds the node-pool setting rules (pool_settings.go).
	PoolSettings PoolSettingsData `json:"pool_settings"`
	// ComputeQuotas names the regional quota metrics regions.get reports (quotas.go).
	ComputeQuotas ComputeQuotas `json:"compute_quotas"`
	// GKEProvisioning holds the flex-start and queued provisioning rules (gke_provisioning.go).
	GKEProvisioning GKEProvisioning `json:"gke_provisioning"`
	// ComputeEngine holds the rules of TPU VMs created as Compute Engine instances (compute_engine.go).
	ComputeEngine ComputeEngineRules `json:"compute_engine"`
}

// Decision records how the catalog resolved a conflict or an uncertain fact.
type Decision struct {
	Topic    string `json:"topic"`
	Decision string `json:"decision"`
	Source   string `json:"source"`
}

// Generation describes one TPU generation.
type Generation struct {
	Name               string   `json:"name"`
	DisplayName        string   `json:"display_name"`
	APIPrefix          string   `json:"api_prefix"`
	Aliases            []string `json:"aliases"`
	SizeUnit           string   `json:"size_unit"` // "tensorcores" or "chips"
	TensorCoresPerChip int      `json:"tensorcores_per_chip"`
	TopologyDims       int      `json:"topology_dims"`
	// MaxDisks is the most disks a Cloud TPU VM of the generation has,
	// boot disk included (sources.tpu_persistent_disk); 0 when the page
	// gives none.
	MaxDisks          int            `json:"max_disks"`
	Source            string         `json:"source"`
	TPUAPI            TPUAPISupport  `json:"tpu_api"`
	DefaultRuntime    string         `json:"default_runtime"`
	DefaultRuntimeSrc string         `json:"default_runtime_source"`
	Sizes             []SliceSize    `json:"sizes"`
	CubeRule          *CubeRule      `json:"cube_rule"`
	GKE               *GKETPU        `json:"gke"`
	Zones             []ZoneOffer    `json:"zones"`
	UnlistedAreas     []UnlistedArea `json:"unlisted_areas"`
	Decisions         []Decision     `json:"decisions"`
	// ComputeEngine is set for generations Compute Engine creates as TPU VM instances.
	ComputeEngine *ComputeEngineOffer `json:"compute_engine"`

	sizeByN    map[int]*SliceSize
	sizeByTopo map[string]*SliceSize
	zoneByName map[string]*ZoneOffer
	regions    map[string][]string
}

// UnlistedArea is an area (zone name prefix) where a generation is offered but
// no zone was captured; zones there get a warning instead of an error.
type UnlistedArea struct {
	Prefix   string `json:"prefix"`
	Decision string `json:"decision"`
	Source   string `json:"source"`
}

// TPUAPISupport says whether the Cloud TPU API (TPU v2 API) can create the generation.
type TPUAPISupport struct {
	Supported bool   `json:"supported"`
	Type      string `json:"type"` // AcceleratorConfig.Type enum value
	Source    string `json:"source"`
	// ConflictSource is a source that contradicts Supported = false (Google
	// using the generation through the Cloud TPU API anyway): the catalog
	// then warns instead of rejecting.
	ConflictSource string `json:"conflict_source"`
	Decision       string `json:"decision"`
}

// SliceSize is one documented accelerator type of a generation.
type SliceSize struct {
	Size       int    `json:"size"` // the N in <prefix>-N
	Topology   string `json:"topology"`
	Chips      int    `json:"chips"`
	VMs        int    `json:"vms"`
	ChipsPerVM int    `json:"chips_per_vm"`
	Status     string `json:"status"`
	Source     string `json:"source"`
	Decision   string `json:"decision"`
}

// CubeRule describes the 3D topologies of v4, v5p and TPU7x beyond the listed sizes.
type CubeRule struct {
	SmallTopologies    []string `json:"small_topologies"`
	CubeEdge           int      `json:"cube_edge"`
	MaxCubes           int      `json:"max_cubes"`
	DocumentedMaxCubes int      `json:"documented_max_cubes"`
	SortedDims         string   `json:"sorted_dims"`
	Source             string   `json:"source"`
	Decision           string   `json:"decision"`
}

// GKETPU describes how GKE offers a TPU generation.
type GKETPU struct {
	AcceleratorLabel        string           `json:"accelerator_label"`
	LabelSource             string           `json:"label_source"`
	LabelDecision           string           `json:"label_decision"`
	MachineTypes            []TPUMachineType `json:"machine_types"`
	MinVersion              string           `json:"min_version"`
	RecommendedVersion      string           `json:"recommended_version"`
	MinVersionSource        string           `json:"min_version_source"`
	MinVersionDecision      string           `json:"min_version_decision"`
	WorkloadPolicyMultiHost bool             `json:"workload_policy_multi_host"`
	WorkloadPolicySource    string           `json:"workload_policy_source"`
}

// TPUMachineType is a GKE TPU machine type.
type TPUMachineType struct {
	Name      string `json:"name"`
	Chips     int    `json:"chips"`
	MultiHost bool   `json:"multi_host"` // can form multi-node slices
	// MultiHostOnly marks a machine type GKE uses for multi-node slices
	// only: no single-host topology (ct3p-hightpu-4t; v3-8 is ct3-hightpu-4t).
	MultiHostOnly bool `json:"multi_host_only"`
	// AcceleratorLabel overrides the generation's GKE accelerator label
	// for this machine type (v3 device nodes are tpu-v3-device).
	AcceleratorLabel string `json:"accelerator_label"`
	Status           string `json:"status"`
	Source           string `json:"source"`
	Decision         string `json:"decision"`
}

// ZoneOffer is one zone that offers a generation.
type ZoneOffer struct {
	Zone             string   `json:"zone"`
	Kind             string   `json:"kind"` // "", "single-tenant" or "ai"
	Status           string   `json:"status"`
	AcceleratorTypes []string `json:"accelerator_types"` // empty: every size
	Note             string   `json:"note"`
	Source           string   `json:"source"`
}

// Runtime is a TPU VM software version that is not a TensorFlow runtime.
type Runtime struct {
	Name        string   `json:"name"`
	Generations []string `json:"generations"`
	Frameworks  []string `json:"frameworks"`
	Status      string   `json:"status"`
	Replacement string   `json:"replacement"`
	Source      string   `json:"source"`
	Decision    string   `json:"decision"`
}

// TensorFlowRules holds the TensorFlow runtime naming rules and versions.
type TensorFlowRules struct {
	NamePrefix         string         `json:"name_prefix"`
	NameSource         string         `json:"name_source"`
	PodSource          string         `json:"pod_source"`
	PodDecision        string         `json:"pod_decision"`
	DeviceAPIFrom      string         `json:"device_api_from"`
	DeviceAPISource    string         `json:"device_api_source"`
	PJRTGenerations    []string       `json:"pjrt_generations"`
	PJRTMinVersion     string         `json:"pjrt_min_version"`
	PJRTSource         string         `json:"pjrt_source"`
	V4SuffixThrough    string         `json:"v4_suffix_through"`
	V4MinVersion       string         `json:"v4_min_version"`
	V4Source           string         `json:"v4_source"`
	DefaultVersion     string         `json:"default_version"`
	DefaultDecision    string         `json:"default_decision"`
	Versions           []TFVersion    `json:"versions"`
	Examples           []TFExample    `json:"examples"`
	UnverifiedSuffixes []TFUnverified `json:"unverified_suffixes"`
}

// TFVersion is one TensorFlow version with TPU VM runtimes.
type TFVersion struct {
	Version       string `json:"version"`
	Libtpu        string `json:"libtpu"`
	RuntimeListed bool   `json:"runtime_listed"`
	Source        string `json:"source"`
	Decision      string `json:"decision"`
}

// TFExample is a TensorFlow runtime name quoted by a source.
type TFExample struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// TFUnverified is a TensorFlow runtime name suffix seen only in user scripts.
type TFUnverified struct {
	Suffix   string `json:"suffix"`
	Source   string `json:"source"`
	Decision string `json:"decision"`
}

// Framework is an ML framework with its per-generation support.
type Framework struct {
	Name        string             `json:"name"`
	Aliases     []string           `json:"aliases"`
	DisplayName string             `json:"display_name"`
	VersionOf   string             `json:"version_of"`
	Source      string             `json:"source"`
	Support     []FrameworkSupport `json:"support"`
	MinVersions []FrameworkMin     `json:"min_versions"`
	MultiHost   *FrameworkRule     `json:"multi_host"`
}

// FrameworkSupport is the support level of a framework on one generation.
type FrameworkSupport struct {
	Generation string `json:"generation"`
	Status     string `json:"status"`
	Source     string `json:"source"`
	Decision   string `json:"decision"`
}

// FrameworkMin is a minimum framework version on one generation.
type FrameworkMin struct {
	Generation string `json:"generation"`
	Version    string `json:"version"`
	Severity   string `json:"severity"` // "error" or "warning"
	Source     string `json:"source"`
	Decision   string `json:"decision"`
}

// FrameworkRule is a framework restriction with its severity.
type FrameworkRule struct {
	Severity string `json:"severity"`
	Source   string `json:"source"`
	Decision string `json:"decision"`
}

// GPUCatalog holds the GKE GPU facts.
type GPUCatalog struct {
	Accelerators   []GPUAccelerator   `json:"accelerators"`
	MachineTypes   []GPUMachineType   `json:"machine_types"`
	Attachable     []GPUAttachment    `json:"attachable"`
	DriverVersions []GPUDriverVersion `json:"driver_versions"`
	// MaxVCPUs are the most vCPUs a machine family takes with each count of
	// an attached GPU type (gpu_nodepool.go).
	MaxVCPUs         []GPUVCPULimit `json:"max_vcpus"`
	MaxVCPUsDecision string         `json:"max_vcpus_decision"`
}

// GPUVCPULimit is the vCPU limit of machine types starting with
// MachinePrefix with attached GPUs of GPUType, per GPU count.
type GPUVCPULimit struct {
	MachinePrefix string         `json:"machine_prefix"`
	GPUType       string         `json:"gpu_type"`
	PerCount      map[string]int `json:"per_count"`
	Source        string         `json:"source"`
}

// GPUAccelerator is a GKE GPU accelerator type (also the gke-accelerator label value).
type GPUAccelerator struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// GPUMachineType is a machine type with built-in GPUs.
type GPUMachineType struct {
	Name     string `json:"name"`
	GPUType  string `json:"gpu_type"`
	GPUCount int    `json:"gpu_count"`
	Arch     string `json:"arch"`
	// ConflictingGPUTypes are labels other sources use for the same GPU; using one gives a warning.
	ConflictingGPUTypes []string `json:"conflicting_gpu_types"`
	Status              string   `json:"status"`
	Source              string   `json:"source"`
	Decision            string   `json:"decision"`
}

// GPUAttachment describes machine families that take attached GPUs.
type GPUAttachment struct {
	MachinePrefix string   `json:"machine_prefix"`
	GPUTypes      []string `json:"gpu_types"`
	Counts        []int    `json:"counts"`
	Source        string   `json:"source"`
	Decision      string   `json:"decision"`
}

// GPUDriverVersion is one value of gpu_driver_version.
type GPUDriverVersion struct {
	Value       string `json:"value"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

// Label is a Kubernetes node label key GKE uses.
type Label struct {
	Key         string `json:"key"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

// Taint is a node taint GKE uses.
type Taint struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Effect      string `json:"effect"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

// Resource is an extended resource name pods request.
type Resource struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

var (
	defaultOnce    sync.Once
	defaultCatalog *Catalog
)

// Default returns the catalog built from the embedded data. It is loaded and
// indexed once, on first use.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := load(catalogJSON)
		if err != nil {
			c = &Catalog{loadErr: err}
		}
		defaultCatalog = c
	})
	return defaultCatalog
}

// Load builds a catalog from data in the embedded catalog's format: a
// smaller or a newer catalog than the embedded one, for tests and for the
// tools that refresh it. Resources use the catalog the provider hands them.
func Load(data []byte) (*Catalog, error) { return load(data) }

// Embedded returns a copy of the embedded catalog data.
func Embedded() []byte { return slices.Clone(catalogJSON) }

// load decodes and indexes catalog data.
func load(data []byte) (*Catalog, error) {
	c := &Catalog{}
	// Unknown keys are rejected by a test (strict decoding is slower).
	if err := json.Unmarshal(data, &c.data); err != nil {
		return nil, fmt.Errorf("decoding catalog data: %w", err)
	}
	if err := c.index(); err != nil {
		return nil, fmt.Errorf("indexing catalog data: %w", err)
	}
	return c, nil
}

func (c *Catalog) index() error {
	d := &c.data
	c.gens = make(map[string]*Generation, len(d.Generations))
	c.genByPrefix = make(map[string]*Generation, len(d.Generations))
	c.genByAlias = make(map[string]*Generation)
	c.tpuMachines = make(map[string]tpuMachineRef)
	for _, g := range d.Generations {
		if g.Name == "" || g.APIPrefix == "" || g.TensorCoresPerChip <= 0 {
			return fmt.Errorf("generation %q: missing name, prefix or TensorCores per chip", g.Name)
		}
		if _, dup := c.gens[g.Name]; dup {
			return fmt.Errorf("duplicate generation %q", g.Name)
		}
		c.gens[g.Name] = g
		c.genByPrefix[g.APIPrefix] = g
		for _, a := range g.Aliases {
			c.genByAlias[a] = g
		}
		g.sizeByN = make(map[int]*SliceSize, len(g.Sizes))
		g.sizeByTopo = make(map[string]*SliceSize, len(g.Sizes))
		for i := range g.Sizes {
			s := &g.Sizes[i]
			g.sizeByN[s.Size] = s
			g.sizeByTopo[s.Topology] = s
			c.typeNames = append(c.typeNames, typeName(g, s.Size))
		}
		g.zoneByName = make(map[string]*ZoneOffer, len(g.Zones))
		g.regions = make(map[string][]string)
		for i := range g.Zones {
			z := &g.Zones[i]
			g.zoneByName[z.Zone] = z
			region, ok := zoneRegion(z.Zone)
			if !ok {
				return fmt.Errorf("generation %q: malformed zone %q", g.Name, z.Zone)
			}
			g.regions[region] = append(g.regions[region], z.Zone)
		}
		if g.GKE != nil {
			for i := range g.GKE.MachineTypes {
				m := &g.GKE.MachineTypes[i]
				c.tpuMachines[m.Name] = tpuMachineRef{gen: g, mt: m}
				c.tpuMachNames = append(c.tpuMachNames, m.Name)
			}
		}
	}
	if err := c.indexComputeEngine(); err != nil {
		return err
	}
	c.runtimes = make(map[string]*Runtime, len(d.Runtimes))
	for _, r := range d.Runtimes {
		c.runtimes[r.Name] = r
		c.runtimeNames = append(c.runtimeNames, r.Name)
	}
	c.tfVersions = make(map[string]*TFVersion, len(d.TensorFlow.Versions))
	for i := range d.TensorFlow.Versions {
		v := &d.TensorFlow.Versions[i]
		c.tfVersions[v.Version] = v
	}
	c.frameworks = make(map[string]*Framework, len(d.Frameworks))
	c.fwAliases = make(map[string]string)
	for _, f := range d.Frameworks {
		c.frameworks[f.Name] = f
		for _, a := range f.Aliases {
			c.fwAliases[a] = f.Name
		}
	}
	c.gpuMachines = make(map[string]*GPUMachineType, len(d.GPU.MachineTypes))
	for i := range d.GPU.MachineTypes {
		m := &d.GPU.MachineTypes[i]
		c.gpuMachines[m.Name] = m
	}
	c.gpuTypes = make(map[string]*GPUAccelerator, len(d.GPU.Accelerators))
	for i := range d.GPU.Accelerators {
		a := &d.GPU.Accelerators[i]
		c.gpuTypes[a.Name] = a
		c.gpuNames = append(c.gpuNames, a.Name)
	}
	c.drivers = make(map[string]bool, len(d.GPU.DriverVersions))
	for _, v := range d.GPU.DriverVersions {
		c.drivers[v.Value] = true
	}
	return nil
}

// Version returns the catalog data version.
func (c *Catalog) Version() string { return c.data.Version }

// Date returns the date the catalog data was last reviewed (YYYY-MM-DD).
func (c *Catalog) Date() string { return c.data.Date }

// Err returns the error that prevented the embedded data from loading, or nil.
func (c *Catalog) Err() error { return c.loadErr }

// Source returns the general source URL for a topic such as "zones",
// "runtimes", "accelerator_types", "gke_tpu" or "gpu_machine_types".
func (c *Catalog) Source(topic string) string { return c.data.Sources[topic] }

// Generations returns the TPU generations, oldest first. The values share
// memory with the catalog and must be treated as read-only.
func (c *Catalog) Generations() []Generation {
	out := make([]Generation, 0, len(c.data.Generations))
	for _, g := range c.data.Generations {
		out = append(out, *g)
	}
	return out
}

// Generation returns one generation by name ("v2" … "v6e", "tpu7x").
func (c *Catalog) Generation(name string) (Generation, bool) {
	g, ok := c.gens[name]
	if !ok {
		return Generation{}, false
	}
	return *g, true
}

// GenerationNames returns the generation names, oldest first.
func (c *Catalog) GenerationNames() []string {
	out := make([]string, 0, len(c.data.Generations))
	for _, g := range c.data.Generations {
		out = append(out, g.Name)
	}
	return out
}

// APIPrefixes returns each generation's accelerator-type prefix (`v6e`,
// `v5litepod`, ...), in catalog order.
func (c *Catalog) APIPrefixes() []string {
	out := make([]string, 0, len(c.data.Generations))
	for _, g := range c.data.Generations {
		out = append(out, g.APIPrefix)
	}
	return out
}

// Runtimes returns the non-TensorFlow runtime versions.
func (c *Catalog) Runtimes() []Runtime {
	out := make([]Runtime, 0, len(c.data.Runtimes))
	for _, r := range c.data.Runtimes {
		out = append(out, *r)
	}
	return out
}

// TensorFlow returns the TensorFlow runtime rules.
func (c *Catalog) TensorFlow() TensorFlowRules { return c.data.TensorFlow }

// Frameworks returns the framework names accepted by ResolveRuntime.
func (c *Catalog) Frameworks() []string {
	out := make([]string, 0, len(c.data.Frameworks))
	for _, f := range c.data.Frameworks {
		out = append(out, f.Name)
	}
	return out
}

// Framework returns one framework's rules by name.
func (c *Catalog) Framework(name string) (Framework, bool) {
	f, ok := c.frameworks[name]
	if !ok {
		return Framework{}, false
	}
	return *f, true
}

// GPUMachineTypes returns the machine types with built-in GPUs.
func (c *Catalog) GPUMachineTypes() []GPUMachineType { return slices.Clone(c.data.GPU.MachineTypes) }

// GPUAttachments returns the machine families that take attached GPUs.
func (c *Catalog) GPUAttachments() []GPUAttachment { return slices.Clone(c.data.GPU.Attachable) }

// GPUVCPULimits returns the vCPU limits of machine types with attached
// GPUs, and the decision behind them.
func (c *Catalog) GPUVCPULimits() ([]GPUVCPULimit, string) {
	return slices.Clone(c.data.GPU.MaxVCPUs), c.data.GPU.MaxVCPUsDecision
}

// GPUPartitionTable returns the multi-instance GPU partition sizes per GPU
// type, and the decision behind them.
func (c *Catalog) GPUPartitionTable() ([]GPUPartition, string) {
	return slices.Clone(c.data.PoolSettings.GPUPartitions), c.data.PoolSettings.GPUPartitionsDecision
}

// GPUAccelerators returns the GPU accelerator type names GKE accepts.
func (c *Catalog) GPUAccelerators() []GPUAccelerator { return slices.Clone(c.data.GPU.Accelerators) }

// GPUDriverVersions returns the accepted gpu_driver_version values.
func (c *Catalog) GPUDriverVersions() []GPUDriverVersion {
	return slices.Clone(c.data.GPU.DriverVersions)
}

// GPUDriverVersionValues returns the accepted gpu_driver_version values as strings.
func (c *Catalog) GPUDriverVersionValues() []string {
	out := make([]string, 0, len(c.data.GPU.DriverVersions))
	for _, v := range c.data.GPU.DriverVersions {
		out = append(out, v.Value)
	}
	return out
}

// Labels returns the node label keys GKE uses.
func (c *Catalog) Labels() []Label { return slices.Clone(c.data.Labels) }

// Taints returns the node taints GKE uses.
func (c *Catalog) Taints() []Taint { return slices.Clone(c.data.Taints) }

// Resources returns the extended resource names pods request.
func (c *Catalog) Resources() []Resource { return slices.Clone(c.data.Resources) }

// Decisions returns the catalog-wide decisions on conflicting or uncertain facts.
func (c *Catalog) Decisions() []Decision { return slices.Clone(c.data.Decisions) }

// IsGPUMachineType reports whether name is a machine type with built-in
// GPUs the catalog knows (a2-highgpu-1g, g2-standard-4): its GPUs come with
// the machine, no accelerator is attached.
func (c *Catalog) IsGPUMachineType(name string) bool {
	_, ok := c.gpuMachines[name]
	return ok
}

// IsTPUMachineType reports whether name is a GKE TPU machine type the
// catalog knows (ct6e-standard-4t, tpu7x-standard-4t): a node pool of it is
// a TPU pool, with or without an accelerator type.
func (c *Catalog) IsTPUMachineType(name string) bool {
	_, ok := c.tpuMachines[name]
	_, code := c.codeOnlyTPUMachine(name)
	return ok || code || tpuMachineShaped(name)
}

// AcceleratorTypes returns the documented accelerator type names of a
// generation (or of every generation when gen is empty), smallest first.
func (c *Catalog) AcceleratorTypes(gen string) []string {
	if gen == "" {
		return slices.Clone(c.typeNames)
	}
	g, ok := c.gens[gen]
	if !ok {
		return nil
	}
	out := make([]string, 0, len(g.Sizes))
	for _, s := range g.Sizes {
		out = append(out, typeName(g, s.Size))
	}
	return out
}

func typeName(g *Generation, size int) string {
	return g.APIPrefix + "-" + itoa(size)
}

// unavailable is the finding returned when the embedded data failed to load.
func (c *Catalog) unavailable(attr string) Findings {
	return Findings{{
		Attribute: attr,
		Index:     -1,
		Summary:   "Compatibility Catalog Unavailable",
		Detail:    "The compatibility catalog could not be loaded: " + c.loadErr.Error() + ".",
		Severity:  SeverityError,
	}}
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = `"` + v + `"`
	}
	return joinOr(q)
}

func joinOr(vals []string) string {
	switch len(vals) {
	case 0:
		return ""
	case 1:
		return vals[0]
	case 2:
		return vals[0] + " or " + vals[1]
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	container "google.golang.org/api/container/v1"
)

// Scenario is the world the emulator starts from: which zones offer which
// accelerators, which GKE clusters exist, how long operations take and which
// realism switches are on. Build one with Default and change it, or load a
// JSON file with LoadScenario.
type Scenario struct {
	// Projects restricts the project IDs the APIs answer for. Empty means any
	// project ID is accepted. Requests for other projects get 403
	// PERMISSION_DENIED.
	Projects []string `json:"projects,omitempty"`
	// Zones lists the zones with what each offers.
	Zones []Zone `json:"zones"`
	// Clusters are the seeded GKE clusters. Clients can create and delete
	// more through clusters.create and clusters.delete.
	Clusters []ClusterSeed `json:"clusters"`
	// Capacity limits how many TPU nodes or GKE nodes of a type fit in a zone.
	// Types without an entry are unlimited.
	Capacity []Capacity `json:"capacity,omitempty"`
	// Quotas are the regional Compute Engine quotas regions.get reports;
	// a region reports no other metric.
	Quotas []Quota `json:"quotas,omitempty"`
	// Reservations are Compute Engine zonal reservations.
	Reservations []Reservation `json:"reservations,omitempty"`
	// Images are the Compute Engine images boot disks can be created
	// from, by name or family.
	Images []Image `json:"images,omitempty"`
	// Durations of the long-running operations.
	Durations Durations `json:"durations"`
	// SerializePoolCreates makes CREATE_NODE_POOL exclusive among the node-pool
	// operations of a cluster. GKE has been seen both ways.
	SerializePoolCreates bool `json:"serializePoolCreates"`
	// MaxConcurrentOperationsPerCluster is the per-cluster concurrent
	// operations quota; 0 means unlimited. GKE has been seen answering HTTP
	// 429 at 5 concurrent operations per cluster
	// (https://github.com/hashicorp/terraform-provider-google/issues/15205).
	MaxConcurrentOperationsPerCluster int `json:"maxConcurrentOperationsPerCluster,omitempty"`
	// GKEAdditions switches off fields GKE adds to node pools by itself.
	GKEAdditions GKEAdditions `json:"gkeAdditions"`
	// MinNodeVersions maps a GKE machine-type prefix (such as "ct6e-") to
	// the lowest GKE version that supports it.
	MinNodeVersions map[string]string `json:"minNodeVersions,omitempty"`
	// ListPageSize is the page size of list calls that do not ask for one;
	// 0 returns everything in one page.
	ListPageSize int `json:"listPageSize,omitempty"`
}

// Zone is one Compute Engine zone and the accelerators it offers.
type Zone struct {
	// Name such as "us-central1-a".
	Name string `json:"name"`
	// TPUAcceleratorTypes are the Cloud TPU API types offered, such as "v5litepod-4".
	TPUAcceleratorTypes []string `json:"tpuAcceleratorTypes,omitempty"`
	// RuntimeVersions are the TPU software versions offered.
	RuntimeVersions []string `json:"runtimeVersions,omitempty"`
	// MachineTypes are the accelerator machine types GKE can use here
	// (TPU ct*/tpu7x* and GPU a2/a3/a4/g2/g4 families) and the attachable
	// GPU accelerator types (such as "nvidia-tesla-t4"). Machine types outside
	// the accelerator families are accepted in every zone.
	MachineTypes []string `json:"machineTypes,omitempty"`
}

// ClusterSeed is a GKE cluster that exists from the start.
type ClusterSeed struct {
	// Project of the cluster; empty or "*" seeds it in every project.
	Project string `json:"project,omitempty"`
	// Location is a region (regional cluster) or a zone (zonal cluster).
	Location string `json:"location"`
	// Name of the cluster.
	Name string `json:"name"`
	// Version is the control plane version, such as "1.33.5-gke.1000000".
	Version string `json:"version"`
	// NodeVersion is the default node version; empty means Version.
	NodeVersion string `json:"nodeVersion,omitempty"`
	// Locations are the zones of the cluster's nodes.
	Locations []string `json:"locations"`
	// NodePools that exist from the start, such as a default pool.
	NodePools []*container.NodePool `json:"nodePools,omitempty"`
	// Autopilot makes it an Autopilot cluster (Cluster.autopilot.enabled):
	// GKE manages its nodes, and nodePools.create is refused.
	Autopilot bool `json:"autopilot,omitempty"`
	// Autoscaling is the cluster's Cluster.autoscaling: node
	// auto-provisioning and its resource limits (Standard clusters).
	Autoscaling *container.ClusterAutoscaling `json:"autoscaling,omitempty"`
}

// Capacity is how many TPU nodes (Cloud TPU API), GKE nodes or Compute
// Engine instances (VMs) of a type fit in a zone at once. Count -1 means
// unlimited, 0 means stocked out. For GKE the type is the machine type, or
// the GPU accelerator type when the node config attaches accelerators; for
// instances it is the machine type (GKE nodes and instances of one machine
// type share the zone's capacity).
type Capacity struct {
	Zone  string `json:"zone"`
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// GKEAdditions switches off what GKE adds to a node pool's config by itself.
// The zero value keeps every addition on, as GKE does.
type GKEAdditions struct {
	// SkipGPUTaint stops adding nvidia.com/gpu=present:NO_SCHEDULE to GPU pools.
	SkipGPUTaint bool `json:"skipGpuTaint,omitempty"`
	// SkipTPUTaint stops adding google.com/tpu=present:NO_SCHEDULE to TPU pools.
	SkipTPUTaint bool `json:"skipTpuTaint,omitempty"`
	// SkipProvisioningModelLabel stops adding the resource label
	// goog-gke-node-pool-provisioning-model.
	SkipProvisioningModelLabel bool `json:"skipProvisioningModelLabel,omitempty"`
}

// Durations are how long each kind of long-running operation takes on the
// emulator's clock. Zero means the operation is done at the next read.
type Durations struct {
	TPUCreate          time.Duration
	TPUDelete          time.Duration
	TPUStart           time.Duration
	TPUStop            time.Duration
	TPUUpdate          time.Duration
	PoolCreate         time.Duration
	PoolDelete         time.Duration
	PoolUpdate         time.Duration
	PoolSetSize        time.Duration
	PoolSetAutoscaling time.Duration
	PoolSetManagement  time.Duration
	ClusterCreate      time.Duration
	ClusterDelete      time.Duration
	// Compute Engine instances: insert, delete, and setLabels, setMetadata
	// and setTags.
	InstanceInsert time.Duration
	InstanceDelete time.Duration
	InstanceUpdate time.Duration
}

// DefaultDuration is the duration of every operation in Default: short, so
// tests that wait for operations stay fast.
const DefaultDuration = 50 * time.Millisecond

func (d *Durations) fields() []struct {
	key string
	p   *time.Duration
} {
	return []struct {
		key string
		p   *time.Duration
	}{
		{"tpuCreate", &d.TPUCreate},
		{"tpuDelete", &d.TPUDelete},
		{"tpuStart", &d.TPUStart},
		{"tpuStop", &d.TPUStop},
		{"tpuUpdate", &d.TPUUpdate},
		{"poolCreate", &d.PoolCreate},
		{"poolDelete", &d.PoolDelete},
		{"poolUpdate", &d.PoolUpdate},
		{"poolSetSize", &d.PoolSetSize},
		{"poolSetAutoscaling", &d.PoolSetAutoscaling},
		{"poolSetManagement", &d.PoolSetManagement},
		{"clusterCreate", &d.ClusterCreate},
		{"clusterDelete", &d.ClusterDelete},
		{"instanceInsert", &d.InstanceInsert},
		{"instanceDelete", &d.InstanceDelete},
		{"instanceUpdate", &d.InstanceUpdate},
	}
}

// MarshalJSON writes durations as Go duration strings, such as "50ms".
func (d Durations) MarshalJSON() ([]byte, error) {
	m := map[string]string{}
	for _, f := range d.fields() {
		m[f.key] = f.p.String()
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads Go duration strings; keys that are absent keep their
// current value, so a file can change one duration only.
func (d *Durations) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("durations: %w", err)
	}
	known := map[string]*time.Duration{}
	for _, f := range d.fields() {
		known[f.key] = f.p
	}
	for k, v := range m {
		p, ok := known[k]
		if !ok {
			return fmt.Errorf("durations: unknown key %q", k)
		}
		dur, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("durations: %s: %w", k, err)
		}
		if dur < 0 {
			return fmt.Errorf("durations: %s: negative duration %s", k, v)
		}
		*p = dur
	}
	return nil
}

func allDurations(d time.Duration) Durations {
	var out Durations
	for _, f := range out.fields() {
		*f.p = d
	}
	return out
}

// Runtime versions offered in every TPU zone of Default. Source: Cloud TPU
// runtimes, https://cloud.google.com/tpu/docs/runtimes (base images, TF names
// and the legacy images) and https://cloud.google.com/tpu/docs/supported-versions.
var defaultRuntimeVersions = []string{
	"tpu-ubuntu2204-base",
	"v2-alpha-tpuv5-lite",
	// Not on the runtimes page; Google's sample behind the tpu_vm_create
	// snippet creates v5litepod-4 with it
	// (https://github.com/GoogleCloudPlatform/python-docs-samples/blob/0ef3b45edce3b65e02853105f72107588df8d7a4/tpu/create_tpu.py).
	"v2-tpuv5-litepod",
	"v2-alpha-tpuv5",
	"v2-alpha-tpuv6e",
	"tpu-vm-tf-2.18.0-pjrt",
	"tpu-vm-tf-2.18.0-pod-pjrt",
	"tpu-vm-tf-2.17.1-pjrt",
	"tpu-vm-tf-2.17.1-pod-pjrt",
	"tpu-vm-tf-2.16.1-pjrt",
	"tpu-vm-tf-2.16.1-pod-pjrt",
	"tpu-vm-tf-2.16.1-se",
	"tpu-vm-tf-2.16.1-pod-se",
	"tpu-vm-tf-2.15.1-pjrt",
	"tpu-vm-tf-2.15.1-pod-pjrt",
	"tpu-vm-tf-2.14.1",
	"tpu-vm-tf-2.14.1-pod",
	"tpu-vm-tf-2.10.0-v4",
	"tpu-vm-tf-2.10.0-pod-v4",
	"tpu-vm-base",
	"tpu-vm-v4-base",
	"tpu-vm-pt-2.0",
	"tpu-vm-v4-pt-2.0",
}

// TPU accelerator types per generation, as documented on the generation pages
// (https://cloud.google.com/tpu/docs/v2, /v3, /v4, /v5e, /v5p, /v6e).
var (
	typesV2  = []string{"v2-8", "v2-32", "v2-128", "v2-256", "v2-512"}
	typesV3  = []string{"v3-8", "v3-32", "v3-64", "v3-128", "v3-256", "v3-512", "v3-1024", "v3-2048"}
	typesV4  = []string{"v4-8", "v4-16", "v4-32", "v4-64", "v4-128", "v4-256", "v4-512", "v4-1024", "v4-2048", "v4-4096"}
	typesV5e = []string{"v5litepod-1", "v5litepod-4", "v5litepod-8", "v5litepod-16", "v5litepod-32", "v5litepod-64", "v5litepod-128", "v5litepod-256"}
	typesV5p = []string{"v5p-8", "v5p-16", "v5p-32", "v5p-64", "v5p-128", "v5p-256", "v5p-512", "v5p-1024", "v5p-2048", "v5p-4096", "v5p-8192", "v5p-12288"}
	typesV6e = []string{"v6e-1", "v6e-4", "v6e-8", "v6e-16", "v6e-32", "v6e-64", "v6e-128", "v6e-256"}
)

// GKE TPU machine types per generation, from the TPU generation pages and
// https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/tpu-definition/main.tf.
var (
	// v3 on GKE: https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus.
	machinesV3  = []string{"ct3-hightpu-4t", "ct3p-hightpu-4t"}
	machinesV4  = []string{"ct4p-hightpu-4t"}
	machinesV5e = []string{"ct5lp-hightpu-1t", "ct5lp-hightpu-4t", "ct5lp-hightpu-8t"}
	machinesV5p = []string{"ct5p-hightpu-4t"}
	machinesV6e = []string{"ct6e-standard-1t", "ct6e-standard-4t", "ct6e-standard-8t"}
	machines7x  = []string{"tpu7x-standard-4t"}
)

// GPU machine types and accelerator types. Assumption: the per-zone GPU lists
// in Default are illustrative, not copied from the Compute Engine GPU regions
// page; the machine-type-to-GPU pairs follow
// https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/gpu-definition/main.tf.
var (
	gpusL4    = []string{"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-24", "g2-standard-32", "g2-standard-48", "g2-standard-96", "nvidia-l4"}
	gpusA100  = []string{"a2-highgpu-1g", "a2-highgpu-2g", "a2-highgpu-4g", "a2-highgpu-8g", "a2-megagpu-16g", "nvidia-tesla-a100"}
	gpusA100u = []string{"a2-ultragpu-1g", "a2-ultragpu-2g", "a2-ultragpu-4g", "a2-ultragpu-8g", "nvidia-a100-80gb"}
	gpusH100  = []string{"a3-highgpu-1g", "a3-highgpu-2g", "a3-highgpu-4g", "a3-highgpu-8g", "a3-megagpu-8g", "nvidia-h100-80gb", "nvidia-h100-mega-80gb"}
	gpusT4    = []string{"nvidia-tesla-t4"}
	// N1 attachables besides T4: https://cloud.google.com/compute/docs/gpus.
	gpusN1 = []string{"nvidia-tesla-p4", "nvidia-tesla-p100", "nvidia-tesla-v100"}
)

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Default returns the built-in scenario, modeled on the public TPU zone and
// type tables (https://cloud.google.com/tpu/docs/regions-zones and
// https://cloud.google.com/tpu/docs/types-zones; zone lists change often):
//   - us-central1-a: v5p, v5e, v3-8, v2-32…v2-512; v3 on GKE; A100/H100/L4/T4/P4/P100/V100 GPUs.
//   - us-central1-b: v6e, v3-8, v2-8; v3 on GKE; L4/T4 GPUs.
//   - us-central1-c: v2-8 on the TPU API; tpu7x-standard-4t on GKE and
//     Compute Engine only (the Cloud TPU API does not support TPU7x); A100
//     80GB and L4 GPUs.
//   - us-east5-a: v6e, v5p; H100 GPUs.
//   - us-east5-b, us-east1-d: v6e (the types-zones table).
//   - us-south1-a, us-west1-c, us-west4-a: v5e (the types-zones table).
//   - asia-northeast1-b: v6e (the flex-start page names it,
//     https://cloud.google.com/tpu/docs/request-using-flex-start).
//   - asia-east1-c: v2-8 (https://cloud.google.com/tpu/docs/regions-zones).
//   - us-central2-b: v4.
//   - europe-west4-a: v6e, v3, v2; v3 on GKE; L4 GPUs.
//
// The TPU machine types (ct5p-hightpu-4t, ct6e-standard-*,
// tpu7x-standard-4t) are machine types of their zones for GKE node pools and
// Compute Engine instances alike; instances boot from the images of
// defaultImages. Any project ID is accepted. Seeded clusters (in every project):
// us-central1/serving (1.33.5-gke.1000000, nodes in us-central1-a/b/c, with a
// default-pool), us-central1/ironwood (1.34.1-gke.1000000, us-central1-a/c),
// us-central1/autopilot (an Autopilot cluster, 1.33.5-gke.1000000),
// us-central1/autoprovisioned (Standard, 1.33.5-gke.1000000, node
// auto-provisioning with limits for cpu, memory, nvidia-l4 and
// tpu-v6e-slice), us-east5/training (1.34.1-gke.1000000, us-east5-a) and the
// old zonal us-central1-b/legacy (1.30.5-gke.1014001).
// Every operation takes DefaultDuration, capacity is unlimited, and
// GKE's own additions are on.
func Default() *Scenario {
	tpuZone := func(name string, types, machines []string) Zone {
		z := Zone{Name: name, TPUAcceleratorTypes: types, MachineTypes: machines}
		if len(types) > 0 {
			z.RuntimeVersions = append([]string(nil), defaultRuntimeVersions...)
		}
		return z
	}
	return &Scenario{
		Zones: []Zone{
			tpuZone("us-central1-a",
				concat(typesV5p, typesV5e, []string{"v3-8"}, typesV2[1:]),
				concat(machinesV5p, machinesV5e, machinesV3, gpusA100, gpusH100, gpusL4, gpusT4, gpusN1)),
			tpuZone("us-central1-b",
				concat(typesV6e, []string{"v3-8", "v2-8"}),
				concat(machinesV6e, machinesV3, gpusL4, gpusT4)),
			tpuZone("us-central1-c",
				[]string{"v2-8"},
				concat(machines7x, gpusA100u, gpusL4)),
			tpuZone("us-east5-a",
				concat(typesV6e, typesV5p),
				concat(machinesV6e, machinesV5p, gpusH100)),
			tpuZone("us-east5-b", typesV6e, machinesV6e),
			tpuZone("us-east1-d", typesV6e, machinesV6e),
			tpuZone("us-south1-a", typesV5e, machinesV5e),
			tpuZone("us-west1-c", typesV5e, machinesV5e),
			tpuZone("us-west4-a", typesV5e, machinesV5e),
			tpuZone("asia-northeast1-b", typesV6e, machinesV6e),
			tpuZone("asia-east1-c", []string{"v2-8"}, nil),
			tpuZone("us-central2-b", typesV4, machinesV4),
			tpuZone("europe-west4-a",
				concat(typesV6e, typesV3, typesV2),
				concat(machinesV6e, machinesV3, gpusL4)),
		},
		Clusters: []ClusterSeed{
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
		},
		Images:    append([]Image(nil), defaultImages...),
		Durations: allDurations(DefaultDuration),
		MinNodeVersions: map[string]string{
			// Ray's GKE TPU guide citing GKE's TPU machine-type table:
			// https://github.com/ray-project/ray/blob/02745f527856b07d09c266967b026c7a1cd60121/doc/source/cluster/kubernetes/user-guides/gcp-gke-tpu-cluster.md
			"ct6e-": "1.31.2-gke.1115000",
			// https://cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood (Standard clusters).
			"tpu7x-": "1.34.0-gke.2201000",
		},
	}
}

// LoadScenario reads a scenario from a JSON file. Fields absent from the file
// keep their Default values: lists in the file replace the defaults,
// minNodeVersions is merged with the defaults, and durations are merged key
// by key.
func LoadScenario(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read scenario: %w", err)
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(b, &present); err != nil {
		return nil, fmt.Errorf("parse scenario %s: %w", path, err)
	}
	def := Default()
	// Decode into a fresh value: decoding into Default's slices would merge
	// file elements into the default elements.
	sc := &Scenario{Durations: def.Durations}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(sc); err != nil {
		return nil, fmt.Errorf("parse scenario %s: %w", path, err)
	}
	if _, ok := present["zones"]; !ok {
		sc.Zones = def.Zones
	}
	if _, ok := present["clusters"]; !ok {
		sc.Clusters = def.Clusters
	}
	if _, ok := present["images"]; !ok {
		sc.Images = def.Images
	}
	for k, v := range def.MinNodeVersions {
		if _, ok := sc.MinNodeVersions[k]; !ok {
			if sc.MinNodeVersions == nil {
				sc.MinNodeVersions = map[string]string{}
			}
			sc.MinNodeVersions[k] = v
		}
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", path, err)
	}
	return sc, nil
}

// Validate reports the first inconsistency in the scenario.
func (sc *Scenario) Validate() error {
	zones := map[string]bool{}
	for _, z := range sc.Zones {
		if z.Name == "" {
			return fmt.Errorf("zone without a name")
		}
		if zones[z.Name] {
			return fmt.Errorf("zone %q listed twice", z.Name)
		}
		zones[z.Name] = true
		for _, t := range z.TPUAcceleratorTypes {
			if _, ok := parseTPUType(t); !ok {
				return fmt.Errorf("zone %s: unknown TPU accelerator type %q", z.Name, t)
			}
		}
	}
	if err := sc.validateClusters(); err != nil {
		return err
	}
	for _, c := range sc.Capacity {
		if c.Zone == "" || c.Type == "" || c.Count < -1 {
			return fmt.Errorf("capacity entry %+v needs a zone, a type and a count >= -1", c)
		}
	}
	for _, img := range sc.Images {
		if img.Project == "" || img.Name == "" {
			return fmt.Errorf("image %+v needs a project and a name", img)
		}
	}
	for prefix, v := range sc.MinNodeVersions {
		if !validVersion(v) {
			return fmt.Errorf("minNodeVersions[%s]: %q is not a GKE version", prefix, v)
		}
	}
	if sc.MaxConcurrentOperationsPerCluster < 0 || sc.ListPageSize < 0 {
		return fmt.Errorf("maxConcurrentOperationsPerCluster and listPageSize must not be negative")
	}
	return nil
}

// clone deep-copies the scenario through JSON, which every field supports.
func (sc *Scenario) clone() *Scenario {
	b, err := json.Marshal(sc)
	if err != nil {
		return Default()
	}
	out := &Scenario{}
	if err := json.Unmarshal(b, out); err != nil {
		return Default()
	}
	return out
}

// validateClusters checks the seeded clusters of a scenario.
func (sc *Scenario) validateClusters() error {
	seen := map[string]bool{}
	for _, c := range sc.Clusters {
		if c.Name == "" || c.Location == "" || c.Version == "" {
			return fmt.Errorf("cluster %q needs a name, a location and a version", c.Name)
		}
		if !validVersion(c.Version) {
			return fmt.Errorf("cluster %s: version %q is not of the form 1.33.5-gke.1000000", c.Name, c.Version)
		}
		if c.NodeVersion != "" && !validVersion(c.NodeVersion) {
			return fmt.Errorf("cluster %s: node version %q is not of the form 1.33.5-gke.1000000", c.Name, c.NodeVersion)
		}
		key := c.Project + "/" + c.Location + "/" + c.Name
		if seen[key] {
			return fmt.Errorf("cluster %s in %s listed twice", c.Name, c.Location)
		}
		seen[key] = true
		if len(c.Locations) == 0 {
			return fmt.Errorf("cluster %s has no node locations", c.Name)
		}
		for _, l := range c.Locations {
			if regionOf(l) != regionOf(c.Location) {
				return fmt.Errorf("cluster %s: node location %s is outside %s", c.Name, l, regionOf(c.Location))
			}
		}
		for _, np := range c.NodePools {
			if np == nil || !poolNameRE.MatchString(np.Name) {
				return fmt.Errorf("cluster %s: seeded node pool without a valid name", c.Name)
			}
		}
		if c.Autopilot && (len(c.NodePools) > 0 || c.Autoscaling != nil) {
			return fmt.Errorf("cluster %s: an Autopilot cluster takes no node pools or autoscaling settings", c.Name)
		}
		if problem := autoscalingProblem(c.Autoscaling); problem != "" {
			return fmt.Errorf("cluster %s: %s", c.Name, problem)
		}
	}
	return nil
}

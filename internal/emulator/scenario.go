// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
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
	// MachineTypes are the accelerator machine types GKE and Compute Engine
	// can use here (TPU machine types such as "ct6e-standard-4t", GPU
	// machine types of the accelerator-optimized series such as
	// "a3-highgpu-8g") and the attachable GPU accelerator types (such as
	// "nvidia-tesla-t4"). Machine types outside the accelerator series are
	// accepted in every zone.
	MachineTypes []string `json:"machineTypes,omitempty"`
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
	return &Scenario{
		Zones:           defaultZones(),
		Clusters:        defaultClusters(),
		Images:          append([]Image(nil), defaultImages...),
		Durations:       allDurations(DefaultDuration),
		MinNodeVersions: defaultMinNodeVersions(),
	}
}

// defaultZones are the zones of Default, with what each offers.
func defaultZones() []Zone {
	tpuZone := func(name string, types, machines []string) Zone {
		z := Zone{Name: name, TPUAcceleratorTypes: types, MachineTypes: machines}
		if len(types) > 0 {
			z.RuntimeVersions = append([]string(nil), defaultRuntimeVersions...)
		}
		return z
	}
	return []Zone{
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

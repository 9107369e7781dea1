// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package computeclass

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The ComputeClass custom resource.
const (
	APIVersion = "cloud.google.com/v1"
	Kind       = "ComputeClass"
)

// The spec.whenUnsatisfiable values. DoNotScaleUp leaves pods Pending when
// no priority has capacity, which is what a TPU-first/GPU-fallback class
// wants (it never lands a pod on an accelerator-less E2 node). It is the
// CRD's default from GKE 1.33; before 1.33 the default was ScaleUpAnyway,
// which is why a rendered class always sets it.
const (
	DoNotScaleUp  = "DoNotScaleUp"
	ScaleUpAnyway = "ScaleUpAnyway"
)

// WhenUnsatisfiableValues lists the accepted values, default first.
var WhenUnsatisfiableValues = []string{DoNotScaleUp, ScaleUpAnyway}

// The reservations.affinity values.
const (
	AffinitySpecific      = "Specific"
	AffinityAnyBestEffort = "AnyBestEffort"
	AffinityNone          = "None"
)

// AffinityValues lists the reservations.affinity values.
var AffinityValues = []string{AffinitySpecific, AffinityAnyBestEffort, AffinityNone}

// TaintEffects are the Kubernetes taint effects the CRD's taints take.
var TaintEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// Class is what a rendered manifest holds. Zero values are left out.
type Class struct {
	Name              string
	Priorities        []Priority
	WhenUnsatisfiable string
	ActiveMigration   bool
	// AutoCreation sets spec.nodePoolAutoCreation.enabled: true.
	AutoCreation bool
	PoolConfig   PoolConfig
}

// Priority is one spec.priorities entry.
type Priority struct {
	NodePools       []string
	MachineFamily   string
	MachineType     string
	TPU             *TPU
	GPU             *GPU
	Spot            bool
	FlexStart       bool
	Reservations    *Reservations
	Zones           []string
	PlacementPolicy string
	// MaxRunDurationSeconds is left out when 0.
	MaxRunDurationSeconds int64
	// NodeRecyclingLeadTime is flexStart.nodeRecycling.leadTimeSeconds.
	NodeRecyclingLeadTime *int64
	// MinCores, MinMemoryGb and MaxPodsPerNode are left out when 0.
	MinCores, MinMemoryGb, MaxPodsPerNode int64
	Storage                               *Storage
}

// Storage is a priority's storage.
type Storage struct {
	BootDiskKMSKey string
	BootDiskSizeGB int64
	BootDiskType   string
	LocalSSDCount  *int64
}

// TPU is a priority's tpu: GKE's accelerator label, chips per node, topology.
type TPU struct {
	Type     string
	Count    int64
	Topology string
}

// GPU is a priority's gpu.
type GPU struct {
	Type          string
	Count         int64
	DriverVersion string
}

// Reservations is a priority's reservations.
type Reservations struct {
	Affinity string
	Specific []SpecificReservation
}

// SpecificReservation names one reservation.
type SpecificReservation struct {
	Name    string
	Project string
	// Block is reservationBlock.name, "" for none.
	Block string
}

// PoolConfig is spec.nodePoolConfig: it applies to auto-created pools.
type PoolConfig struct {
	ImageType      string
	ServiceAccount string
	NodeLabels     map[string]string
	Taints         []Taint
}

// Taint is a Kubernetes taint.
type Taint struct {
	Key, Value, Effect string
}

func (p PoolConfig) empty() bool {
	return p.ImageType == "" && p.ServiceAccount == "" && len(p.NodeLabels) == 0 && len(p.Taints) == 0
}

// YAML renders the ComputeClass, deterministically: fixed key order,
// two-space indentation, map keys sorted, and every value taken from the
// configuration double-quoted (so that a pool named "on" or "null" stays a
// string).
func (c Class) YAML() string {
	w := &writer{}
	w.line(0, "apiVersion: "+APIVersion)
	w.line(0, "kind: "+Kind)
	w.line(0, "metadata:")
	w.line(1, "name: "+strconv.Quote(c.Name))
	w.line(0, "spec:")
	w.line(1, "priorities:")
	for _, p := range c.Priorities {
		p.write(w)
	}
	if c.ActiveMigration {
		w.line(1, "activeMigration:")
		w.line(2, "optimizeRulePriority: true")
	}
	if c.AutoCreation {
		w.line(1, "nodePoolAutoCreation:")
		w.line(2, "enabled: true")
	}
	if !c.PoolConfig.empty() {
		c.PoolConfig.write(w)
	}
	w.line(1, "whenUnsatisfiable: "+c.WhenUnsatisfiable)
	return w.b.String()
}

// write renders the priority as one list item under spec.priorities.
func (p Priority) write(w *writer) {
	w.item(1)
	if len(p.NodePools) > 0 {
		w.key("nodepools:")
		for _, n := range p.NodePools {
			w.line(2, "- "+strconv.Quote(n))
		}
	}
	if p.MachineFamily != "" {
		w.key("machineFamily: " + strconv.Quote(p.MachineFamily))
	}
	if p.MachineType != "" {
		w.key("machineType: " + strconv.Quote(p.MachineType))
	}
	if t := p.TPU; t != nil {
		w.key("tpu:")
		w.line(3, "type: "+strconv.Quote(t.Type))
		if t.Count > 0 {
			w.line(3, "count: "+strconv.FormatInt(t.Count, 10))
		}
		if t.Topology != "" {
			w.line(3, "topology: "+strconv.Quote(t.Topology))
		}
	}
	if g := p.GPU; g != nil {
		w.key("gpu:")
		w.line(3, "type: "+strconv.Quote(g.Type))
		if g.Count > 0 {
			w.line(3, "count: "+strconv.FormatInt(g.Count, 10))
		}
		if g.DriverVersion != "" {
			w.line(3, "driverVersion: "+strconv.Quote(g.DriverVersion))
		}
	}
	if p.Spot {
		w.key("spot: true")
	}
	if p.FlexStart {
		w.key("flexStart:")
		w.line(3, "enabled: true")
		if n := p.NodeRecyclingLeadTime; n != nil {
			w.line(3, "nodeRecycling:")
			w.line(4, "leadTimeSeconds: "+strconv.FormatInt(*n, 10))
		}
	}
	if r := p.Reservations; r != nil {
		w.key("reservations:")
		w.line(3, "affinity: "+r.Affinity)
		if len(r.Specific) > 0 {
			w.line(3, "specific:")
			for _, s := range r.Specific {
				w.line(3, "- name: "+strconv.Quote(s.Name))
				if s.Project != "" {
					w.line(4, "project: "+strconv.Quote(s.Project))
				}
				if s.Block != "" {
					w.line(4, "reservationBlock:")
					w.line(5, "name: "+strconv.Quote(s.Block))
				}
			}
		}
	}
	if len(p.Zones) > 0 {
		w.key("location:")
		w.line(3, "zones:")
		for _, z := range p.Zones {
			w.line(3, "- "+strconv.Quote(z))
		}
	}
	if p.PlacementPolicy != "" {
		w.key("placement:")
		w.line(3, "policyName: "+strconv.Quote(p.PlacementPolicy))
	}
	if p.MaxRunDurationSeconds > 0 {
		w.key("maxRunDurationSeconds: " + strconv.FormatInt(p.MaxRunDurationSeconds, 10))
	}
	for _, kv := range []struct {
		key string
		v   int64
	}{{"minCores", p.MinCores}, {"minMemoryGb", p.MinMemoryGb}, {"maxPodsPerNode", p.MaxPodsPerNode}} {
		if kv.v > 0 {
			w.key(kv.key + ": " + strconv.FormatInt(kv.v, 10))
		}
	}
	if s := p.Storage; s != nil {
		w.key("storage:")
		if s.BootDiskKMSKey != "" {
			w.line(3, "bootDiskKMSKey: "+strconv.Quote(s.BootDiskKMSKey))
		}
		if s.BootDiskSizeGB > 0 {
			w.line(3, "bootDiskSize: "+strconv.FormatInt(s.BootDiskSizeGB, 10))
		}
		if s.BootDiskType != "" {
			w.line(3, "bootDiskType: "+strconv.Quote(s.BootDiskType))
		}
		if n := s.LocalSSDCount; n != nil {
			w.line(3, "localSSDCount: "+strconv.FormatInt(*n, 10))
		}
	}
	if w.open { // a priority of nothing: the CRD's minProperties refuses it
		w.open = false
		w.line(w.indent, "- {}")
	}
}

func (p PoolConfig) write(w *writer) {
	w.line(1, "nodePoolConfig:")
	if p.ImageType != "" {
		w.line(2, "imageType: "+strconv.Quote(p.ImageType))
	}
	if p.ServiceAccount != "" {
		w.line(2, "serviceAccount: "+strconv.Quote(p.ServiceAccount))
	}
	if len(p.NodeLabels) > 0 {
		w.line(2, "nodeLabels:")
		for _, k := range slices.Sorted(maps.Keys(p.NodeLabels)) {
			w.line(3, strconv.Quote(k)+": "+strconv.Quote(p.NodeLabels[k]))
		}
	}
	if len(p.Taints) > 0 {
		w.line(2, "taints:")
		for _, t := range p.Taints {
			w.line(2, "- key: "+strconv.Quote(t.Key))
			w.line(3, "value: "+strconv.Quote(t.Value))
			w.line(3, "effect: "+t.Effect)
		}
	}
}

// writer writes indented YAML lines. A list item's first key shares the
// "- " line: item opens an item, key writes a key of the open item.
type writer struct {
	b      strings.Builder
	open   bool
	indent int
}

func (w *writer) line(indent int, s string) {
	w.b.WriteString(strings.Repeat("  ", indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func (w *writer) item(indent int) { w.open, w.indent = true, indent }

func (w *writer) key(s string) {
	if w.open {
		w.open = false
		w.line(w.indent, "- "+s)
		return
	}
	w.line(w.indent+1, s)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package computeclass

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
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

// YAML renders the ComputeClass by marshalling its CRD (the type Decode
// reads), deterministically: the CRD's field order, two-space indentation
// with list items at their key's indentation, map keys sorted, and every
// value taken from the configuration double-quoted (so that a pool named
// "on" or "null" stays a string).
func (c Class) YAML() string { return c.CRD().YAML() }

// YAML writes the ComputeClass as Class.YAML does.
func (c *CRD) YAML() string {
	var node yaml.Node
	if err := node.Encode(c); err != nil {
		panic(fmt.Sprintf("computeclass: encoding the CRD: %v", err)) // every field is a plain Go value
	}
	quoteValues(&node, "")
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(&node); err != nil {
		panic(fmt.Sprintf("computeclass: writing the CRD: %v", err))
	}
	_ = enc.Close()
	return b.String()
}

// plainKeys are the fields whose values are the CRD's own words (enums and
// constants), written unquoted; every other string came from the
// configuration.
var plainKeys = map[string]bool{"apiVersion": true, "kind": true, "whenUnsatisfiable": true, "affinity": true, "effect": true}

// quoteValues double-quotes the string scalars under n, key being the
// mapping key n is the value of: values, list items, and the keys of
// free-form maps (nodeLabels).
func quoteValues(n *yaml.Node, key string) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			quoteValues(c, key)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if key == "nodeLabels" {
				k.Style = yaml.DoubleQuotedStyle
			}
			quoteValues(v, k.Value)
		}
	case yaml.ScalarNode:
		if n.Tag == "!!str" && !plainKeys[key] {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
}

// CRD is the ComputeClass c renders.
func (c Class) CRD() *CRD {
	crd := &CRD{APIVersion: APIVersion, Kind: Kind, Metadata: CRDMetadata{Name: c.Name},
		Spec: CRDSpec{Priorities: make([]CRDPriority, 0, len(c.Priorities)), WhenUnsatisfiable: c.WhenUnsatisfiable}}
	for _, p := range c.Priorities {
		crd.Spec.Priorities = append(crd.Spec.Priorities, p.crd())
	}
	yes := true
	if c.ActiveMigration {
		crd.Spec.ActiveMigration = &CRDActiveMigration{OptimizeRulePriority: &yes}
	}
	if c.AutoCreation {
		crd.Spec.NodePoolAutoCreation = &CRDEnabled{Enabled: &yes}
	}
	if p := c.PoolConfig; !p.empty() {
		pc := &CRDNodePoolConfig{ImageType: p.ImageType, ServiceAccount: p.ServiceAccount, NodeLabels: p.NodeLabels}
		for _, t := range p.Taints {
			pc.Taints = append(pc.Taints, CRDTaint(t))
		}
		crd.Spec.NodePoolConfig = pc
	}
	return crd
}

// crd is the spec.priorities entry of p; a priority of nothing is {}, which
// the CRD's minProperties refuses (the data source refuses it first).
func (p Priority) crd() CRDPriority {
	out := CRDPriority{Nodepools: p.NodePools, MachineFamily: p.MachineFamily, MachineType: p.MachineType,
		MaxRunDurationSeconds: positive(p.MaxRunDurationSeconds), MinCores: positive(p.MinCores),
		MinMemoryGb: positive(p.MinMemoryGb), MaxPodsPerNode: positive(p.MaxPodsPerNode)}
	yes := true
	if t := p.TPU; t != nil {
		out.TPU = &CRDTPU{Type: t.Type, Count: positive(t.Count), Topology: t.Topology}
	}
	if g := p.GPU; g != nil {
		out.GPU = &CRDGPU{Type: g.Type, Count: positive(g.Count), DriverVersion: g.DriverVersion}
	}
	if p.Spot {
		out.Spot = &yes
	}
	if p.FlexStart {
		out.FlexStart = &CRDFlexStart{Enabled: &yes}
		if n := p.NodeRecyclingLeadTime; n != nil {
			out.FlexStart.NodeRecycling = &CRDNodeRecycling{LeadTimeSeconds: n}
		}
	}
	if r := p.Reservations; r != nil {
		out.Reservations = &CRDReservations{Affinity: r.Affinity}
		for _, s := range r.Specific {
			sr := CRDSpecificReservation{Name: s.Name, Project: s.Project}
			if s.Block != "" {
				sr.ReservationBlock = &CRDReservationBlock{Name: s.Block}
			}
			out.Reservations.Specific = append(out.Reservations.Specific, sr)
		}
	}
	if len(p.Zones) > 0 {
		out.Location = &CRDLocation{Zones: p.Zones}
	}
	if p.PlacementPolicy != "" {
		out.Placement = &CRDPlacement{PolicyName: p.PlacementPolicy}
	}
	if s := p.Storage; s != nil {
		out.Storage = &CRDStorage{BootDiskKMSKey: s.BootDiskKMSKey, BootDiskSize: positive(s.BootDiskSizeGB), BootDiskType: s.BootDiskType,
			LocalSSDCount: s.LocalSSDCount}
	}
	return out
}

// positive is &n, or nil for a value left out (0).
func positive(n int64) *int64 {
	if n <= 0 {
		return nil
	}
	return &n
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"maps"
	"slices"

	container "google.golang.org/api/container/v1"
)

// taint is a node taint with GKE's effect spelling (NO_SCHEDULE...).
type taint struct {
	Key, Value, Effect string
}

// toleration is a Kubernetes toleration (effect spelled NoSchedule...).
type toleration struct {
	Key, Operator, Value, Effect string
}

// Kubernetes toleration operators.
const (
	operatorExists = "Exists"
	operatorEqual  = "Equal"
)

// reservation is reservation_affinity.
type reservation struct {
	Type   string
	Key    string
	Values []string
}

// tierSpec is one tier with every value the provider derives: what the pool
// should look like in GKE, and what a workload needs to run on it.
type tierSpec struct {
	Name            string
	TPU             bool
	AcceleratorType string
	MachineType     string
	Topology        string
	Placement       string // "COMPACT" for multi-host slices, else ""
	Hosts           int64  // VMs per slice (TPU); 1 for single-host
	GPUType         string
	GPUCount        int64
	GPUDriver       string
	Locations       []string
	Autoscaling     bool
	NodeCount       int64 // fixed size per zone, when !Autoscaling
	MinNodes        int64
	MaxNodes        int64
	Spot            bool
	AutoRepair      bool
	AutoUpgrade     bool
	UserLabels      map[string]string
	UserTaints      []taint
	Reservation     *reservation

	// NodeLabels and NodeTaints are what the provider sets on the pool.
	NodeLabels map[string]string
	NodeTaints []taint
	// AcceleratorLabels are the labels GKE puts on the nodes itself.
	AcceleratorLabels map[string]string
	NodeSelector      map[string]string
	Tolerations       []toleration
}

// sameShape reports whether two specs describe the same pool as far as the
// fields GKE cannot change in place go; a difference means re-creation.
func sameShape(a, b tierSpec) bool {
	return a.TPU == b.TPU &&
		a.AcceleratorType == b.AcceleratorType &&
		a.MachineType == b.MachineType &&
		a.Topology == b.Topology &&
		a.Placement == b.Placement &&
		a.GPUType == b.GPUType &&
		a.GPUCount == b.GPUCount &&
		a.GPUDriver == b.GPUDriver &&
		slices.Equal(sortedCopy(a.Locations), sortedCopy(b.Locations)) &&
		a.Spot == b.Spot &&
		reservationEqual(a.Reservation, b.Reservation)
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

func reservationEqual(a, b *reservation) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Type == b.Type && a.Key == b.Key && slices.Equal(a.Values, b.Values)
}

// sizeEqual reports whether the size settings (autoscaling, fixed count) match.
func sizeEqual(a, b tierSpec) bool {
	if a.Autoscaling != b.Autoscaling {
		return false
	}
	if a.Autoscaling {
		return a.MinNodes == b.MinNodes && a.MaxNodes == b.MaxNodes
	}
	return a.NodeCount == b.NodeCount
}

// metadataEqual reports whether the labels and taints set on the pool match.
func metadataEqual(a, b tierSpec) bool {
	return maps.Equal(a.NodeLabels, b.NodeLabels) && slices.Equal(a.NodeTaints, b.NodeTaints)
}

// managementEqual reports whether auto-repair and auto-upgrade match.
func managementEqual(a, b tierSpec) bool {
	return a.AutoRepair == b.AutoRepair && a.AutoUpgrade == b.AutoUpgrade
}

// initialNodeCount is the per-zone node count a new pool starts with.
func (s tierSpec) initialNodeCount() int64 {
	if s.Autoscaling {
		return s.MinNodes
	}
	return s.NodeCount
}

// nodePool builds the GKE create request's node pool.
func (s tierSpec) nodePool() *container.NodePool {
	cfg := &container.NodeConfig{
		MachineType: s.MachineType,
		Labels:      maps.Clone(s.NodeLabels),
		Spot:        s.Spot,
	}
	for _, t := range s.NodeTaints {
		cfg.Taints = append(cfg.Taints, &container.NodeTaint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	if s.GPUType != "" {
		cfg.Accelerators = []*container.AcceleratorConfig{{
			AcceleratorType:             s.GPUType,
			AcceleratorCount:            s.GPUCount,
			GpuDriverInstallationConfig: &container.GPUDriverInstallationConfig{GpuDriverVersion: s.GPUDriver},
		}}
	}
	if s.Reservation != nil {
		cfg.ReservationAffinity = &container.ReservationAffinity{
			ConsumeReservationType: s.Reservation.Type,
			Key:                    s.Reservation.Key,
			Values:                 slices.Clone(s.Reservation.Values),
		}
	}
	np := &container.NodePool{
		Name:             s.Name,
		Config:           cfg,
		InitialNodeCount: s.initialNodeCount(),
		Locations:        slices.Clone(s.Locations),
		Management:       &container.NodeManagement{AutoRepair: s.AutoRepair, AutoUpgrade: s.AutoUpgrade, ForceSendFields: []string{"AutoRepair", "AutoUpgrade"}},
	}
	if np.InitialNodeCount == 0 {
		np.ForceSendFields = append(np.ForceSendFields, "InitialNodeCount")
	}
	if s.Autoscaling {
		np.Autoscaling = s.autoscaling()
	}
	if s.Placement != "" {
		np.PlacementPolicy = &container.PlacementPolicy{Type: s.Placement, TpuTopology: s.Topology}
	}
	return np
}

// autoscaling is the NodePoolAutoscaling for the spec. Multi-host slices use
// location policy ANY: a balanced spread cannot assemble a slice (vLLM CI,
// reference anchors §2.2).
func (s tierSpec) autoscaling() *container.NodePoolAutoscaling {
	if !s.Autoscaling {
		return &container.NodePoolAutoscaling{Enabled: false, ForceSendFields: []string{"Enabled"}}
	}
	as := &container.NodePoolAutoscaling{
		Enabled:         true,
		MinNodeCount:    s.MinNodes,
		MaxNodeCount:    s.MaxNodes,
		ForceSendFields: []string{"MinNodeCount"},
	}
	if s.Hosts > 1 {
		as.LocationPolicy = "ANY"
	}
	return as
}

// tolerationsFor returns the tolerations a pod needs for taints. Accelerator
// taints are tolerated with Exists (GKE may use another value than the
// provider); every other taint with Equal.
func tolerationsFor(taints []taint, existsKeys []string) []toleration {
	out := make([]toleration, 0, len(taints))
	for _, t := range taints {
		tol := toleration{Key: t.Key, Operator: operatorEqual, Value: t.Value, Effect: kubernetesEffect[t.Effect]}
		if slices.Contains(existsKeys, t.Key) {
			tol.Operator, tol.Value = operatorExists, ""
		}
		if !slices.Contains(out, tol) {
			out = append(out, tol)
		}
	}
	return out
}

// unionTolerations merges the tolerations of every tier, first seen first.
func unionTolerations(lists ...[]toleration) []toleration {
	var out []toleration
	for _, l := range lists {
		for _, t := range l {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

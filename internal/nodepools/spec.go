// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"maps"
	"slices"

	container "google.golang.org/api/container/v1"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
)

// taint is a node taint with GKE's effect spelling (NO_SCHEDULE...).
type taint struct {
	Key, Value, Effect string
}

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
	// WorkloadPolicy is the workload policy that places a multi-host TPU7x
	// slice (its name, or a URL), "" for other tiers; OwnPolicy is set when
	// the provider creates it (workload_policy is unset).
	WorkloadPolicy string
	OwnPolicy      bool
	Hosts          int64 // VMs per slice (TPU); 1 for single-host
	GPUType        string
	GPUCount       int64
	GPUDriver      string
	Locations      []string
	Autoscaling    bool
	NodeCount      int64 // fixed size per zone, when !Autoscaling
	MinNodes       int64
	MaxNodes       int64
	Spot           bool
	AutoRepair     bool
	AutoUpgrade    bool
	UserLabels     map[string]string
	UserTaints     []taint
	Reservation    *reservation
	Settings       poolSettings
	Provisioning   provisioning
	LocalSSD       localSSD
	Boot           nodeBoot
	Networks       nodeNetworks

	// NodeLabels and NodeTaints are what the provider sets on the pool.
	NodeLabels map[string]string
	NodeTaints []taint
	// AcceleratorLabels are the labels GKE puts on the nodes itself.
	AcceleratorLabels map[string]string
	NodeSelector      map[string]string
	Tolerations       []podspec.Toleration
}

// sameShape reports whether two specs describe the same pool as far as the
// fields GKE cannot change in place go; a difference means re-creation.
func sameShape(a, b tierSpec) bool { return len(shapeChanges(a, b)) == 0 }

// shapeChanges names each setting GKE cannot change in place that differs
// from a (in state) to b (planned), with both values where they are one
// value: what re-creates the pool, for the plan's warning.
func shapeChanges(a, b tierSpec) []string {
	var out []string
	diff := func(name string, was, want any) {
		if was != want {
			out = append(out, fmt.Sprintf("%s %s → %s", name, shown(was), shown(want)))
		}
	}
	if a.TPU != b.TPU {
		out = append(out, fmt.Sprintf("a %s tier becomes a %s tier", family(a.TPU), family(b.TPU)))
	}
	diff("accelerator_type", a.AcceleratorType, b.AcceleratorType)
	diff("machine_type", a.MachineType, b.MachineType)
	diff("topology", a.Topology, b.Topology)
	diff("placement", a.Placement, b.Placement)
	diff("workload_policy", a.WorkloadPolicy, b.WorkloadPolicy)
	diff("gpu_type", a.GPUType, b.GPUType)
	diff("gpu_count", a.GPUCount, b.GPUCount)
	diff("gpu_driver_version", a.GPUDriver, b.GPUDriver)
	if !slices.Equal(sortedCopy(a.Locations), sortedCopy(b.Locations)) {
		out = append(out, fmt.Sprintf("node_locations %q → %q", a.Locations, b.Locations))
	}
	diff("spot", a.Spot, b.Spot)
	if !reservationEqual(a.Reservation, b.Reservation) {
		out = append(out, "reservation_affinity")
	}
	if !fixedSettingsEqual(a.Settings, b.Settings) {
		out = append(out, "a node setting fixed at creation (service account, OAuth scopes, max pods per node, GPU partitions or sharing, Shielded VM, pod range, GPUDirect, threads per core)")
	}
	if !provisioningEqual(a.Provisioning, b.Provisioning) {
		out = append(out, "flex-start or queued provisioning")
	}
	if !localSSDEqual(a.LocalSSD, b.LocalSSD) {
		out = append(out, "Local SSDs")
	}
	if !bootEqual(a.Boot, b.Boot) {
		out = append(out, "boot_disk_kms_key, sandbox_type or secondary_boot_disks")
	}
	if !networksEqual(a.Networks, b.Networks) {
		out = append(out, "create_pod_range or the additional networks")
	}
	return out
}

func family(tpu bool) string {
	if tpu {
		return "TPU"
	}
	return "GPU"
}

// shown quotes a string value, and shows "" as unset.
func shown(v any) string {
	switch s := v.(type) {
	case string:
		if s == "" {
			return "(unset)"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
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
func (s tierSpec) nodePool(cat *catalog.Catalog) *container.NodePool {
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
	switch {
	case s.WorkloadPolicy != "":
		np.PlacementPolicy = &container.PlacementPolicy{PolicyName: s.WorkloadPolicy}
	case s.Placement != "":
		np.PlacementPolicy = &container.PlacementPolicy{Type: s.Placement, TpuTopology: s.Topology}
	}
	s.Settings.writeTo(cat, np)
	s.Provisioning.writeTo(np)
	s.LocalSSD.writeTo(np)
	s.Boot.writeTo(np)
	s.Networks.writeTo(np)
	return np
}

// adoptionMismatch returns why an existing pool of want's name is not one
// this resource instance, whose owner id is owner, created for want, or ""
// when it is: it carries the owner id (package ownership) and want's
// ComputeClass label, and GKE reports the settings it cannot change in
// place as want would create them (machine type, GPUs, TPU placement and
// topology, zones, Spot, reservation, flex-start and queued provisioning).
// Size, labels, taints and management may differ; they are updated.
func adoptionMismatch(cat *catalog.Catalog, np *container.NodePool, want tierSpec, owner string) string {
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	if owner == "" || !ownership.Owns(owner, cfg.ResourceLabels) {
		return ownership.Describe(cfg.ResourceLabels)
	}
	sent := want.nodePool(cat)
	class := want.NodeLabels[catalog.LabelComputeClass]
	if got := cfg.Labels[catalog.LabelComputeClass]; got != class {
		return fmt.Sprintf("belongs to ComputeClass %q, not %q", got, class)
	}
	if cfg.MachineType != sent.Config.MachineType {
		return fmt.Sprintf("has machine type %q, not %q", cfg.MachineType, sent.Config.MachineType)
	}
	gotGPU, wantGPU := gpuOf(cfg), gpuOf(sent.Config)
	if gotGPU.AcceleratorType != wantGPU.AcceleratorType || gotGPU.AcceleratorCount != wantGPU.AcceleratorCount {
		return fmt.Sprintf("has %d GPUs of type %q, not %d of type %q",
			gotGPU.AcceleratorCount, gotGPU.AcceleratorType, wantGPU.AcceleratorCount, wantGPU.AcceleratorType)
	}
	gotPP, wantPP := placementOf(np), placementOf(sent)
	if gotPP != wantPP {
		return fmt.Sprintf("has placement %q with TPU topology %q, not %q with %q", gotPP[0], gotPP[1], wantPP[0], wantPP[1])
	}
	if len(sent.Locations) > 0 && !slices.Equal(sortedCopy(np.Locations), sortedCopy(sent.Locations)) {
		return fmt.Sprintf("is in zones %v, not %v", np.Locations, sent.Locations)
	}
	if cfg.Spot != sent.Config.Spot {
		return fmt.Sprintf("has spot = %t, not %t", cfg.Spot, sent.Config.Spot)
	}
	if got := localSSDOfPool(np); !localSSDEqual(got, want.LocalSSD) {
		return fmt.Sprintf("has %d Local SSDs for ephemeral storage and %d as raw block devices, not %d and %d",
			valueOr(got.Ephemeral, 0), valueOr(got.RawBlock, 0), valueOr(want.LocalSSD.Ephemeral, 0), valueOr(want.LocalSSD.RawBlock, 0))
	}
	if w := sent.Config.ReservationAffinity; w != nil {
		g := cfg.ReservationAffinity
		if g == nil || g.ConsumeReservationType != w.ConsumeReservationType || g.Key != w.Key || !slices.Equal(g.Values, w.Values) {
			return "has another reservation affinity"
		}
	}
	if !bootEqual(bootOfPool(np), want.Boot) {
		return "has another boot disk key, sandbox or secondary boot disks"
	}
	if !additionalNetworksEqual(networksOfPool(np), want.Networks) {
		return "has other additional networks"
	}
	if m := identityMismatch(np, want); m != "" {
		return m
	}
	return provisioningMismatch(provisioningOfPool(np), want.Provisioning)
}

// gpuOf returns the first GPU attachment of cfg, or an empty one.
func gpuOf(cfg *container.NodeConfig) container.AcceleratorConfig {
	for _, a := range cfg.Accelerators {
		if a != nil && a.AcceleratorType != "" {
			return *a
		}
	}
	return container.AcceleratorConfig{}
}

// placementOf returns the placement type and TPU topology of np, empty when
// it has none (GKE may report TYPE_UNSPECIFIED for none).
func placementOf(np *container.NodePool) [2]string {
	pp := np.PlacementPolicy
	switch {
	case pp != nil && pp.PolicyName != "":
		return [2]string{pp.PolicyName, ""}
	case pp == nil || pp.Type == "TYPE_UNSPECIFIED":
		return [2]string{}
	}
	return [2]string{pp.Type, pp.TpuTopology}
}

// adoptedSpec is want with the size, management, and values of want's
// labels and taints that an adopted pool has, so that update changes only
// what differs. Labels and taints the tier does not set are ignored, as in
// state.
func adoptedSpec(np *container.NodePool, want tierSpec) tierSpec {
	was := want
	if as := np.Autoscaling; as != nil && as.Enabled {
		was.Autoscaling, was.MinNodes, was.MaxNodes = true, as.MinNodeCount, as.MaxNodeCount
	} else {
		was.Autoscaling, was.MinNodes, was.MaxNodes, was.NodeCount = false, 0, 0, np.InitialNodeCount
	}
	was.AutoRepair, was.AutoUpgrade = false, false
	if m := np.Management; m != nil {
		was.AutoRepair, was.AutoUpgrade = m.AutoRepair, m.AutoUpgrade
	}
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	was.NodeLabels = map[string]string{}
	for k := range want.NodeLabels {
		if v, ok := cfg.Labels[k]; ok {
			was.NodeLabels[k] = v
		}
	}
	was.Settings = poolSettingsOf(np, want.Settings.ResourceLabels)
	api := apiTaints(cfg.Taints)
	was.NodeTaints = []taint{}
	for _, t := range want.NodeTaints {
		for _, got := range api {
			if got.Key == t.Key && got.Effect == t.Effect {
				was.NodeTaints = append(was.NodeTaints, got)
				break
			}
		}
	}
	return was
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
	if s.Settings.TotalMax != nil {
		as.MinNodeCount, as.MaxNodeCount = 0, 0
		as.TotalMinNodeCount, as.TotalMaxNodeCount = valueOr(s.Settings.TotalMin, 0), *s.Settings.TotalMax
		as.ForceSendFields = []string{"TotalMinNodeCount"}
	}
	if s.Hosts > 1 {
		as.LocationPolicy = "ANY"
	}
	if s.Settings.LocationPolicy != "" {
		as.LocationPolicy = s.Settings.LocationPolicy
	}
	return as
}

// tolerationsFor returns the tolerations a pod needs for taints. Accelerator
// taints are tolerated with Exists (GKE may use another value than the
// provider); every other taint with Equal.
func tolerationsFor(taints []taint, existsKeys []string) []podspec.Toleration {
	out := make([]podspec.Toleration, 0, len(taints))
	for _, t := range taints {
		tol := podspec.Toleration{Key: t.Key, Operator: podspec.OperatorEqual, Value: t.Value, Effect: kubernetesEffect[t.Effect]}
		if slices.Contains(existsKeys, t.Key) {
			tol.Operator, tol.Value = podspec.OperatorExists, ""
		}
		if !slices.Contains(out, tol) {
			out = append(out, tol)
		}
	}
	return out
}

// specOfState rebuilds the spec of a tier recorded in state, from the values
// Read found in GKE (node_labels and node_taints included), with the catalog only to tell a TPU machine type.
func specOfState(ctx context.Context, cat *catalog.Catalog, t tierModel, diags *diag.Diagnostics) tierSpec {
	in := inputOf(ctx, t, diags)
	s := tierSpec{
		Name:            in.Name,
		TPU:             in.kind(cat) == kindTPU,
		AcceleratorType: in.AcceleratorType,
		MachineType:     in.MachineType,
		Topology:        in.Topology,
		Placement:       t.PlacementPolicy.ValueString(),
		GPUType:         in.GPUType,
		GPUCount:        in.GPUCount,
		GPUDriver:       in.GPUDriver,
		Locations:       in.Locations,
		Spot:            in.Spot,
		AutoRepair:      in.AutoRepair,
		AutoUpgrade:     in.AutoUpgrade,
		UserLabels:      in.Labels,
		UserTaints:      in.Taints,
		Reservation:     in.Reservation,
		Settings:        in.Settings,
		Provisioning:    in.Provisioning,
		LocalSSD:        in.LocalSSD,
		Boot:            in.Boot,
		Networks:        in.Networks,
	}
	if s.TPU {
		s.GPUType, s.GPUCount, s.GPUDriver = "", 0, ""
	} else {
		s.Topology = ""
	}
	if s.Placement != "" && s.Placement != catalog.PlacementCompact {
		// placement_policy names the workload policy of a TPU7x slice.
		s.WorkloadPolicy, s.OwnPolicy, s.Placement = s.Placement, in.WorkloadPolicy == "", ""
	}
	switch {
	case in.MinNodes != nil && in.MaxNodes != nil:
		s.Autoscaling, s.MinNodes, s.MaxNodes = true, *in.MinNodes, *in.MaxNodes
	case in.Settings.TotalMax != nil:
		s.Autoscaling = true
	case in.NodeCount != nil:
		s.NodeCount = *in.NodeCount
	}
	s.NodeLabels = map[string]string{}
	for k, v := range t.NodeLabels.Elements() {
		if sv, ok := v.(types.String); ok {
			s.NodeLabels[k] = sv.ValueString()
		}
	}
	s.NodeTaints = taintsOf(ctx, t.NodeTaints, diags)
	return s
}

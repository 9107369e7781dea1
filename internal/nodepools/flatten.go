// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

func taintList(ts []taint) types.List {
	if ts == nil {
		return types.ListNull(schemaTypes().taint)
	}
	elems := make([]attr.Value, len(ts))
	for i, t := range ts {
		elems[i] = types.ObjectValueMust(schemaTypes().taint.AttrTypes, map[string]attr.Value{
			"key": types.StringValue(t.Key), "value": types.StringValue(t.Value), "effect": types.StringValue(t.Effect),
		})
	}
	return types.ListValueMust(schemaTypes().taint, elems)
}

func reservationObject(r *reservation) types.Object {
	if r == nil {
		return types.ObjectNull(schemaTypes().reservation.AttrTypes)
	}
	values := types.ListNull(types.StringType)
	if r.Values != nil {
		values = tfmodel.StringList(r.Values)
	}
	return types.ObjectValueMust(schemaTypes().reservation.AttrTypes, map[string]attr.Value{
		"consume_reservation_type": types.StringValue(r.Type),
		"key":                      tfmodel.StringOrNull(r.Key),
		"values":                   values,
	})
}

// tiersOf reads the elements of a known tiers list.
// A tier unknown as a whole (known only after apply) is a tier whose every
// value is unknown.
func tiersOf(ctx context.Context, l types.List, diags *diag.Diagnostics) []tierModel {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	out := make([]tierModel, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsUnknown() {
			out = append(out, unknownTier())
			continue
		}
		var t tierModel
		diags.Append(tfmodel.As(ctx, obj, &t, tfmodel.ObjectAsOptions)...)
		out = append(out, t)
	}
	return out
}

// tierList builds the tiers list.
func tierList(ctx context.Context, tiers []tierModel, diags *diag.Diagnostics) types.List {
	v, d := tfmodel.ListOf(ctx, schemaTypes().tier, tiers)
	diags.Append(d...)
	return v
}

func taintsOf(ctx context.Context, l types.List, diags *diag.Diagnostics) []taint {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var ts []taintModel
	diags.Append(tfmodel.ElementsAs(ctx, l, &ts)...)
	out := make([]taint, 0, len(ts))
	for _, x := range ts {
		out = append(out, taint{Key: x.Key.ValueString(), Value: x.Value.ValueString(), Effect: x.Effect.ValueString()})
	}
	return out
}

// apiTaints converts GKE taints, skipping empty entries.
func apiTaints(in []*container.NodeTaint) []taint {
	out := []taint{}
	for _, t := range in {
		if t != nil {
			out = append(out, taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
		}
	}
	return out
}

// flattenPool refreshes a tier from the pool GKE reports. prior is the
// planned tier (after create or update) or the tier in state (read); it
// decides which labels and taints are the tier's own, so that what GKE adds
// never causes a diff. importing treats every label and taint the provider
// does not set itself as declared, and rebuilds the accelerator settings
// from the pool.
func flattenPool(ctx context.Context, cat *catalog.Catalog, prior tierModel, np *container.NodePool, class string, importing bool, diags *diag.Diagnostics) tierModel {
	t := prior
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	t.Name = types.StringValue(np.Name)
	t.PoolName = types.StringValue(np.Name)
	t.MachineType = types.StringValue(cfg.MachineType)
	t.Status = types.StringValue(np.Status)
	t.StatusMessage = types.StringValue(gcp.Printable(np.StatusMessage))

	isTPU := flattenAccelerators(cat, &t, prior, np, importing)

	priorLocs := inputOf(ctx, prior, diags).Locations
	if !slices.Equal(sortedCopy(priorLocs), sortedCopy(np.Locations)) {
		t.NodeLocations = tfmodel.StringList(slices.Clone(np.Locations))
	}

	flattenSize(&t, prior, np)

	flattenMetadata(ctx, &t, prior, cfg, isTPU, importing, diags)
	flattenReservation(ctx, &t, prior, cfg, importing, diags)
	flattenSettings(ctx, &t, prior, np, importing, diags)
	flattenProvisioning(&t, prior, np)
	flattenLocalSSD(&t, prior, np)
	flattenBoot(&t, np)
	flattenNetworks(&t, prior, np)
	flattenResourceLabels(&t, prior, cfg.ResourceLabels, importing)

	t.EffectiveLabels = tfmodel.StringMapOrEmpty(maps.Clone(cfg.Labels))
	t.EffectiveTaints = taintList(apiTaints(cfg.Taints))

	flattenDerived(ctx, cat, &t, class, diags)
	settle(&t)
	return t
}

// poolGPU is the GPU of a pool's nodes, nil for none.
func poolGPU(cat *catalog.Catalog, cfg *container.NodeConfig) *container.AcceleratorConfig {
	for _, a := range cfg.Accelerators {
		if a != nil && a.AcceleratorType != "" {
			return a
		}
	}
	// A machine type with built-in GPUs has them whether or not the pool
	// was created with the accelerators field (GKE then reports none): take
	// them from the catalog, so that an imported pool plans no change.
	if shape, fs := cat.GPUNodePool(catalog.GPUPoolQuery{MachineType: cfg.MachineType}); !fs.HasErrors() && shape.GPUType != "" {
		return &container.AcceleratorConfig{AcceleratorType: shape.GPUType, AcceleratorCount: int64(shape.GPUCount)}
	}
	return nil
}

// placementValue is placement_policy for a pool's placement: its type
// (COMPACT), or the name of the workload policy that places a TPU7x slice.
func placementValue(pp *container.PlacementPolicy) types.String {
	switch {
	case pp == nil || pp.Type == "TYPE_UNSPECIFIED" && pp.PolicyName == "":
		return types.StringNull()
	case pp.PolicyName != "":
		return types.StringValue(pp.PolicyName)
	}
	return tfmodel.StringOrNull(pp.Type)
}

// flattenAccelerators sets a tier's TPU or GPU values and placement policy
// from its pool, and reports whether it is a TPU pool.
func flattenAccelerators(cat *catalog.Catalog, t *tierModel, prior tierModel, np *container.NodePool, importing bool) (isTPU bool) {
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	gpu := poolGPU(cat, cfg)
	topology := ""
	if pp := np.PlacementPolicy; pp != nil {
		topology = pp.TpuTopology
	}
	t.PlacementPolicy = placementValue(np.PlacementPolicy)
	// A TPU pool: its tier names an accelerator type, or (as GKE names a
	// TPU pool) a TPU machine type.
	isTPU = (!prior.AcceleratorType.IsNull() && !prior.AcceleratorType.IsUnknown() && prior.AcceleratorType.ValueString() != "") ||
		(gpu == nil && !importing && cat.IsTPUMachineType(cfg.MachineType))
	if importing && gpu == nil {
		if shape, fs := cat.TPUNodePool(catalog.TPUPoolQuery{MachineType: cfg.MachineType, Topology: topology}); !fs.HasErrors() && shape.MachineType != "" {
			isTPU = true
			if shape.Accelerator.Type != "" { // a machine type only GKE's code names has no accelerator type
				t.AcceleratorType = types.StringValue(shape.Accelerator.Type)
			}
			if topology == "" {
				topology = shape.Topology
			}
		}
	}
	if isTPU {
		if topology != "" {
			t.Topology = types.StringValue(topology)
		}
		t.GPUType, t.GPUCount, t.GPUDriverVersion = types.StringNull(), types.Int64Null(), types.StringNull()
	} else {
		t.AcceleratorType, t.Topology = types.StringNull(), types.StringNull()
		if gpu != nil {
			t.GPUType = types.StringValue(gpu.AcceleratorType)
			t.GPUCount = tfmodel.Int64OrNull(gpu.AcceleratorCount, gpu.AcceleratorCount > 0)
			if d := gpu.GpuDriverInstallationConfig; d != nil && d.GpuDriverVersion != "" {
				t.GPUDriverVersion = types.StringValue(d.GpuDriverVersion)
			} else if importing {
				// A pool created without a driver setting gets GKE's default
				// driver (GKE 1.30.1-gke.1156000 and later).
				t.GPUDriverVersion = types.StringValue(catalog.DefaultGPUDriverVersion)
			}
		}
	}
	return isTPU
}

// flattenSize sets a tier's size, Spot and management values from its pool.
func flattenSize(t *tierModel, prior tierModel, np *container.NodePool) {
	cfg := np.Config
	if cfg == nil {
		cfg = &container.NodeConfig{}
	}
	if as := np.Autoscaling; as != nil && as.Enabled && usesTotals(as) {
		t.MinNodeCount, t.MaxNodeCount, t.NodeCount = types.Int64Null(), types.Int64Null(), types.Int64Null()
	} else if as != nil && as.Enabled {
		t.MinNodeCount, t.MaxNodeCount = types.Int64Value(as.MinNodeCount), types.Int64Value(as.MaxNodeCount)
		t.NodeCount = types.Int64Null()
	} else {
		t.MinNodeCount, t.MaxNodeCount = types.Int64Null(), types.Int64Null()
		// GKE reports only the initial size of a pool; its current size
		// lives in the instance groups. Keep the size this resource set.
		if prior.NodeCount.IsNull() || prior.NodeCount.IsUnknown() {
			t.NodeCount = types.Int64Value(np.InitialNodeCount)
		}
	}
	t.Spot = types.BoolValue(cfg.Spot)
	if m := np.Management; m != nil {
		t.AutoRepair, t.AutoUpgrade = types.BoolValue(m.AutoRepair), types.BoolValue(m.AutoUpgrade)
	} else {
		t.AutoRepair, t.AutoUpgrade = types.BoolValue(false), types.BoolValue(false)
	}
}

// flattenDerived sets the values a tier derives from its settings (its
// labels, node selector and tolerations) once they are read from its pool.
func flattenDerived(ctx context.Context, cat *catalog.Catalog, t *tierModel, class string, diags *diag.Diagnostics) {
	if spec, fs := derive(cat, inputOf(ctx, *t, diags), class, ""); !fs.HasErrors() {
		t.AcceleratorLabels = tfmodel.StringMap(spec.AcceleratorLabels)
		if spec.AcceleratorLabels == nil {
			t.AcceleratorLabels = tfmodel.StringMap(map[string]string{})
		}
		t.NodeSelector = tfmodel.StringMap(spec.NodeSelector)
		t.Tolerations = podspec.List(spec.Tolerations)
	} else if t.AcceleratorLabels.IsUnknown() || t.NodeSelector.IsUnknown() || t.Tolerations.IsUnknown() {
		t.AcceleratorLabels = tfmodel.StringMap(map[string]string{})
		t.NodeSelector = tfmodel.StringMap(map[string]string{catalog.LabelComputeClass: class})
		t.Tolerations = podspec.List(nil)
	}
}

// settle sets the values of a tier still unknown to null: after apply no
// value may stay unknown, and a tier the catalog could not derive (kept
// with validation = "warn") was planned with its derived values unknown.
func settle(t *tierModel) {
	for _, v := range []*types.String{&t.MachineType, &t.Topology, &t.GPUType, &t.GPUDriverVersion, &t.PlacementPolicy,
		&t.PoolName, &t.Status, &t.StatusMessage} {
		if v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	for _, v := range []*types.Int64{&t.GPUCount, &t.NodeCount} {
		if v.IsUnknown() {
			*v = types.Int64Null()
		}
	}
	for _, v := range []*types.Map{&t.AcceleratorLabels, &t.NodeLabels, &t.EffectiveLabels, &t.NodeSelector} {
		if v.IsUnknown() {
			*v = tfmodel.StringMap(map[string]string{})
		}
	}
	for _, v := range []*types.List{&t.NodeTaints, &t.EffectiveTaints} {
		if v.IsUnknown() {
			*v = taintList([]taint{})
		}
	}
	if t.Tolerations.IsUnknown() {
		t.Tolerations = podspec.List(nil)
	}
	settleSettings(&t.tierSettingsModel)
	settleResourceLabels(&t.tierLabelsModel)
}

// flattenMetadata sets labels, taints, node_labels and node_taints.
func flattenMetadata(ctx context.Context, t *tierModel, prior tierModel, cfg *container.NodeConfig, isTPU, importing bool, diags *diag.Diagnostics) {
	accKey := catalog.TaintGPU
	if isTPU {
		accKey = catalog.TaintTPU
	}
	provided := []string{accKey, catalog.TaintComputeClass}
	api := apiTaints(cfg.Taints)
	find := func(key, effect string) (taint, bool) {
		for _, x := range api {
			if x.Key == key && (effect == "" || x.Effect == effect) {
				return x, true
			}
		}
		return taint{}, false
	}

	var userLabels map[string]string
	var userTaints []taint
	if importing {
		userLabels, userTaints = importedMetadata(cfg.Labels, api, cfg.SandboxConfig != nil && cfg.SandboxConfig.Type == "GVISOR")
	} else {
		userLabels, userTaints = configuredMetadata(inputOf(ctx, prior, diags), cfg.Labels, find)
	}
	t.Labels = tfmodel.StringMap(userLabels)
	// taints is a block: without one, configuration and state hold an
	// empty list, never null.
	if userTaints == nil {
		userTaints = []taint{}
	}
	t.Taints = taintList(userTaints)

	nodeLabels := map[string]string{}
	for k := range userLabels {
		nodeLabels[k] = cfg.Labels[k]
	}
	if v, ok := cfg.Labels[catalog.LabelComputeClass]; ok {
		nodeLabels[catalog.LabelComputeClass] = v
	}
	t.NodeLabels = tfmodel.StringMap(nodeLabels)

	nodeTaints := []taint{}
	for _, key := range provided {
		if got, ok := find(key, ""); ok {
			nodeTaints = append(nodeTaints, got)
		}
	}
	nodeTaints = append(nodeTaints, userTaints...)
	t.NodeTaints = taintList(nodeTaints)
}

// importedMetadata is what an import takes as a tier's own labels and
// taints: every label and taint of the pool but those the resource sets and
// GKE's own (on a pool with GKE Sandbox, sandboxed, the sandbox's).
func importedMetadata(labels map[string]string, api []taint, sandboxed bool) (userLabels map[string]string, userTaints []taint) {
	for k, v := range labels {
		if k == catalog.LabelComputeClass || (sandboxed && k == catalog.SandboxKey) {
			continue
		}
		if userLabels == nil {
			userLabels = map[string]string{}
		}
		userLabels[k] = v
	}
	for _, x := range api {
		// GKE's own taints (the queued taint on queued-provisioning pools,
		// GKE Sandbox's) are not the tier's.
		own := slices.Contains([]string{catalog.TaintTPU, catalog.TaintGPU, catalog.TaintComputeClass, catalog.TaintQueued}, x.Key)
		if !own && (!sandboxed || x.Key != catalog.SandboxKey) {
			userTaints = append(userTaints, x)
		}
	}
	return userLabels, userTaints
}

// configuredMetadata is a tier's own labels and taints as the pool has
// them: the ones its configuration (in) sets, with the pool's values.
func configuredMetadata(in tierInput, labels map[string]string, find func(key, effect string) (taint, bool)) (userLabels map[string]string, userTaints []taint) {
	if in.Labels != nil {
		userLabels = map[string]string{}
		for k := range in.Labels {
			if v, ok := labels[k]; ok {
				userLabels[k] = v
			}
		}
	}
	if in.Taints != nil {
		userTaints = []taint{}
		for _, x := range in.Taints {
			if got, ok := find(x.Key, x.Effect); ok {
				userTaints = append(userTaints, got)
			}
		}
	}
	return userLabels, userTaints
}

// flattenReservation sets reservation_affinity: what GKE reports when the
// tier declares one (or an import finds a specific reservation), else null,
// so that GKE's default affinity never causes a diff.
func flattenReservation(ctx context.Context, t *tierModel, prior tierModel, cfg *container.NodeConfig, importing bool, diags *diag.Diagnostics) {
	ra := cfg.ReservationAffinity
	declared := inputOf(ctx, prior, diags).Reservation != nil
	specific := importing && ra != nil && ra.ConsumeReservationType == "SPECIFIC_RESERVATION"
	if ra == nil || (!declared && !specific) {
		if !declared {
			t.ReservationAffinity = reservationObject(nil)
		}
		return
	}
	r := &reservation{Type: ra.ConsumeReservationType, Key: ra.Key}
	if len(ra.Values) > 0 {
		r.Values = slices.Clone(ra.Values)
	}
	t.ReservationAffinity = reservationObject(r)
}

// unreadTier records a tier whose pool may exist but could not be read
// after the apply.
func unreadTier(t tierModel) tierModel {
	t = missingTier(t)
	t.Status = types.StringValue(statusUnknown)
	t.StatusMessage = types.StringValue("not read after the apply; the next refresh reads it")
	return t
}

// missingTier records a tier whose pool does not exist.
func missingTier(t tierModel) tierModel {
	t.Status = types.StringValue(statusMissing)
	t.StatusMessage = types.StringValue("")
	t.EffectiveLabels = types.MapNull(types.StringType)
	t.EffectiveTaints = types.ListNull(schemaTypes().taint)
	t.EffectiveResourceLabels = types.MapNull(types.StringType)
	t.PoolName = t.Name
	settleSettings(&t.tierSettingsModel)
	return t
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// tierInput is a tier's configuration as Go values. known is false when a
// value the catalog needs is unknown (it comes from another resource).
type tierInput struct {
	known bool

	Name            string
	AcceleratorType string
	MachineType     string
	Topology        string
	GPUType         string
	GPUCount        int64
	GPUDriver       string
	Locations       []string
	NodeCount       *int64
	MinNodes        *int64
	MaxNodes        *int64
	Spot            bool
	AutoRepair      bool
	AutoUpgrade     bool
	Labels          map[string]string
	Taints          []taint
	Reservation     *reservation
	WorkloadPolicy  string
	Settings        poolSettings
	Provisioning    provisioning
	LocalSSD        localSSD
	Boot            nodeBoot
	Networks        nodeNetworks
}

// kind is what a tier's configuration asks for.
type kind int

const (
	kindNone kind = iota
	kindTPU
	kindGPU
	kindBoth
)

func (in tierInput) kind(cat *catalog.Catalog) kind {
	// A TPU tier is named by its accelerator type, or, as GKE itself names
	// a TPU pool, by its TPU machine type (with its topology).
	tpu := in.AcceleratorType != "" || cat.IsTPUMachineType(in.MachineType)
	gpu := in.GPUType != "" || in.GPUCount != 0 || in.GPUDriver != ""
	switch {
	case tpu && gpu:
		return kindBoth
	case tpu:
		return kindTPU
	case gpu || in.MachineType != "":
		return kindGPU
	}
	return kindNone
}

// inputOf converts a tier of the configuration or plan. Computed values not
// set in the configuration are unknown in a plan and null in a configuration;
// both count as "not set".
func inputOf(ctx context.Context, t tierModel, diags *diag.Diagnostics) tierInput {
	in := tierInput{known: true}
	str := func(v types.String) string {
		if v.IsUnknown() {
			return ""
		}
		return v.ValueString()
	}
	// Values the catalog checks must be known; the rest are read when known.
	for _, v := range []attr.Value{t.Name, t.AcceleratorType, t.GPUType, t.NodeLocations, t.MinNodeCount, t.MaxNodeCount} {
		if v.IsUnknown() {
			in.known = false
		}
	}
	in.Name = str(t.Name)
	in.AcceleratorType = str(t.AcceleratorType)
	in.MachineType = str(t.MachineType)
	in.Topology = str(t.Topology)
	in.GPUType = str(t.GPUType)
	if !t.GPUCount.IsNull() && !t.GPUCount.IsUnknown() {
		in.GPUCount = t.GPUCount.ValueInt64()
	}
	in.GPUDriver = str(t.GPUDriverVersion)
	in.WorkloadPolicy = str(t.WorkloadPolicy)
	in.NodeCount, in.MinNodes, in.MaxNodes = tfmodel.Int64Ptr(t.NodeCount), tfmodel.Int64Ptr(t.MinNodeCount), tfmodel.Int64Ptr(t.MaxNodeCount)
	in.Spot = t.Spot.ValueBool()
	in.AutoRepair = t.AutoRepair.IsNull() || t.AutoRepair.IsUnknown() || t.AutoRepair.ValueBool()
	in.AutoUpgrade = t.AutoUpgrade.IsNull() || t.AutoUpgrade.IsUnknown() || t.AutoUpgrade.ValueBool()
	if !t.NodeLocations.IsNull() && !t.NodeLocations.IsUnknown() {
		var locs []types.String
		diags.Append(tfmodel.ElementsAs(ctx, t.NodeLocations, &locs)...)
		for _, l := range locs {
			if l.IsUnknown() {
				in.known = false
			}
			in.Locations = append(in.Locations, l.ValueString())
		}
	}
	if t.Labels.IsUnknown() {
		in.known = false
	} else if !t.Labels.IsNull() {
		in.Labels = map[string]string{}
		for k, v := range t.Labels.Elements() {
			s, ok := v.(types.String)
			if !ok || s.IsUnknown() {
				in.known = false
				continue
			}
			in.Labels[k] = s.ValueString()
		}
	}
	taints, taintsKnown := taintsInput(ctx, t.Taints, diags)
	res, resKnown := reservationInput(ctx, t.ReservationAffinity, diags)
	in.Taints, in.Reservation = taints, res
	in.known = in.known && taintsKnown && resKnown
	settings, known := settingsOf(ctx, t.tierSettingsModel, diags)
	in.Settings = settings
	in.known = in.known && known
	var provKnown bool
	in.Provisioning, provKnown = provisioningOf(t.tierProvisioningModel)
	in.known = in.known && provKnown
	var ssdKnown bool
	in.LocalSSD, ssdKnown = localSSDOf(t.tierLocalSSDModel)
	in.known = in.known && ssdKnown
	var bootKnown bool
	in.Boot, bootKnown = bootOf(ctx, t.tierBootModel, diags)
	in.known = in.known && bootKnown
	var netKnown bool
	in.Networks, netKnown = networksOf(ctx, t.tierNetworkModel, diags)
	in.known = in.known && netKnown
	managedResourceLabels(&in, t)
	return in
}

// taintsInput reads a tier's taints; known reports whether every one is.
func taintsInput(ctx context.Context, l types.List, diags *diag.Diagnostics) (out []taint, known bool) {
	known = true
	if l.IsUnknown() {
		known = false
	} else if !l.IsNull() {
		for _, e := range l.Elements() {
			obj, ok := e.(types.Object)
			if !ok || obj.IsUnknown() {
				known = false
				continue
			}
			var x taintModel
			diags.Append(tfmodel.As(ctx, obj, &x, tfmodel.ObjectAsOptions)...)
			if x.Key.IsUnknown() || x.Value.IsUnknown() || x.Effect.IsUnknown() {
				known = false
			}
			out = append(out, taint{Key: x.Key.ValueString(), Value: x.Value.ValueString(), Effect: x.Effect.ValueString()})
		}
	}
	return out, known
}

// reservationInput reads a tier's reservation_affinity; known reports
// whether it is known all through.
func reservationInput(ctx context.Context, o types.Object, diags *diag.Diagnostics) (out *reservation, known bool) {
	known = true
	if o.IsUnknown() {
		known = false
	} else if !o.IsNull() {
		var rm reservationModel
		diags.Append(tfmodel.As(ctx, o, &rm, tfmodel.ObjectAsOptions)...)
		r := &reservation{Type: rm.ConsumeReservationType.ValueString(), Key: rm.Key.ValueString()}
		if !rm.Values.IsNull() && !rm.Values.IsUnknown() {
			var vals []types.String
			diags.Append(tfmodel.ElementsAs(ctx, rm.Values, &vals)...)
			for _, v := range vals {
				if v.IsUnknown() {
					known = false
				}
				r.Values = append(r.Values, v.ValueString())
			}
		} else if rm.Values.IsUnknown() {
			known = false
		}
		out = r
	}
	return out, known
}

// attrWorkloadPolicy is the tier attribute that names a workload policy.
const attrWorkloadPolicy = "workload_policy"

// tierFinding builds a finding of the resource's own checks.
func tierFinding(attribute, value, summary, detail, source string) catalog.Finding {
	return catalog.Finding{Attribute: attribute, Index: -1, Value: value, Summary: summary, Detail: detail,
		Severity: catalog.SeverityError, Source: source}
}

// catalogTaint returns the catalog's taint for key, with GKE's effect spelling.
func catalogTaint(cat *catalog.Catalog, key, value string) taint {
	for _, t := range cat.Taints() {
		if t.Key == key {
			if value == "" {
				value = t.Value
			}
			return taint{Key: key, Value: value, Effect: gkeEffect(t.Effect)}
		}
	}
	return taint{Key: key, Value: value, Effect: gkeEffect(catalog.TaintEffectNoSchedule)}
}

// derive resolves one tier through the catalog: the pool it becomes and the
// findings about it. gkeVersion is the cluster's version ("" when unknown).
// The spec is complete only when the findings hold no errors.
func derive(cat *catalog.Catalog, in tierInput, class, gkeVersion string) (tierSpec, catalog.Findings) {
	s := tierSpec{
		Name:         in.Name,
		Locations:    slices.Clone(in.Locations),
		Spot:         in.Spot,
		AutoRepair:   in.AutoRepair,
		AutoUpgrade:  in.AutoUpgrade,
		UserLabels:   maps.Clone(in.Labels),
		UserTaints:   slices.Clone(in.Taints),
		Reservation:  in.Reservation,
		Settings:     in.Settings,
		Hosts:        1,
		Provisioning: in.Provisioning,
		LocalSSD:     in.LocalSSD,
		Boot:         in.Boot,
		Networks:     in.Networks,
	}
	var fs catalog.Findings
	src := cat.Source("gke_tpu")
	switch in.kind(cat) {
	case kindNone:
		return s, catalog.Findings{tierFinding(catalog.AttrAcceleratorType, "", "Tier Has No Accelerator",
			"Set accelerator_type for a TPU tier (such as \"v6e-4\"), or machine_type and/or gpu_type for a GPU tier (such as \"g2-standard-4\" with \"nvidia-l4\").", src)}
	case kindBoth:
		return s, catalog.Findings{tierFinding(catalog.AttrGPUType, in.GPUType, "Tier Is Both TPU and GPU",
			fmt.Sprintf("Tier %q sets accelerator_type (a TPU slice) and GPU settings (gpu_type, gpu_count or gpu_driver_version); a node pool is one or the other. Move the GPU pool to a tier of its own.", in.Name),
			cat.Source("gke_node_pool"))}
	case kindTPU:
		fs = deriveTPU(cat, in, gkeVersion, &s)
	case kindGPU:
		fs = deriveGPU(cat, in, &s)
	}
	fs = append(fs, sizeFindings(cat, in, &s)...)
	fs = append(fs, alwaysOnFindings(cat, in, s)...)
	fs = append(fs, metadataFindings(cat, in)...)
	fs = append(fs, settingsFindings(cat, in, s)...)
	fs = append(fs, provisioningFindings(cat, in, gkeVersion)...)
	fs = append(fs, localSSDFindings(cat, in, s, gkeVersion)...)
	fs = append(fs, bootFindings(in)...)
	fs = append(fs, networkFindings(in, cmp.Or(s.MachineType, in.MachineType))...)
	if !s.TPU {
		addGPUSharingLabels(cat, &s)
	}
	if r := in.Reservation; r != nil {
		fs = append(fs, cat.ReservationAffinity(r.Type, r.Key, r.Values)...)
	}

	accKey := catalog.TaintGPU
	if s.TPU {
		accKey = catalog.TaintTPU
	}
	s.NodeLabels = maps.Clone(in.Labels)
	if s.NodeLabels == nil {
		s.NodeLabels = map[string]string{}
	}
	s.NodeLabels[catalog.LabelComputeClass] = class
	s.NodeTaints = append([]taint{
		catalogTaint(cat, accKey, catalog.TaintValuePresent),
		catalogTaint(cat, catalog.TaintComputeClass, class),
	}, in.Taints...)
	s.NodeSelector = map[string]string{catalog.LabelComputeClass: class}
	s.Tolerations = tolerationsFor(s.NodeTaints, []string{catalog.TaintTPU, catalog.TaintGPU})
	if s.Spot {
		s.Tolerations = podspec.Union(s.Tolerations, tolerationsFor([]taint{catalogTaint(cat, catalog.TaintSpot, "")}, nil))
	}
	addProvisioningScheduling(cat, &s)
	addLocalSSDLabels(cat, &s)
	return s, fs
}

func deriveTPU(cat *catalog.Catalog, in tierInput, gkeVersion string, s *tierSpec) catalog.Findings {
	q := catalog.TPUPoolQuery{
		AcceleratorType: in.AcceleratorType,
		MachineType:     in.MachineType,
		Topology:        in.Topology,
		NodeLocations:   in.Locations,
		GKEVersion:      gkeVersion,
	}
	if in.NodeCount != nil {
		q.NodeCount = int(*in.NodeCount)
	}
	if in.MinNodes != nil {
		q.MinNodeCount = int(*in.MinNodes)
	}
	if in.MaxNodes != nil {
		q.MaxNodeCount = int(*in.MaxNodes)
	}
	shape, fs := cat.TPUNodePool(q)
	s.TPU = true
	s.AcceleratorType = in.AcceleratorType
	// With validation = "warn", a shape the catalog does not know is
	// created as written.
	s.MachineType, s.Topology = in.MachineType, in.Topology
	if fs.HasErrors() || shape.MachineType == "" {
		return fs
	}
	s.MachineType = shape.MachineType
	s.Topology = shape.Topology
	s.Placement = shape.PlacementPolicy
	s.Hosts = max(int64(shape.NodeCount), 1)
	s.AcceleratorLabels = maps.Clone(shape.NodeLabels)
	if shape.WorkloadPolicy {
		// GKE places the slice with a workload policy, not a TPU topology:
		// the named one, or one the apply creates, named like the pool.
		s.WorkloadPolicy, s.OwnPolicy = cmp.Or(in.WorkloadPolicy, in.Name), in.WorkloadPolicy == ""
	} else if in.WorkloadPolicy != "" {
		fs = append(fs, tierFinding(attrWorkloadPolicy, in.WorkloadPolicy, "Workload Policy on a Tier Without One",
			fmt.Sprintf("workload_policy = %q places a multi-host TPU7x slice; GKE places %s with a TPU topology or nothing. Remove workload_policy.",
				in.WorkloadPolicy, cmp.Or(in.AcceleratorType, in.MachineType)), cat.Source("gke_tpu")))
		fs[len(fs)-1].Basis = catalog.BasisRule
	}
	return fs
}

func deriveGPU(cat *catalog.Catalog, in tierInput, s *tierSpec) catalog.Findings {
	if in.WorkloadPolicy != "" {
		f := tierFinding(attrWorkloadPolicy, in.WorkloadPolicy, "Workload Policy on a Tier Without One",
			fmt.Sprintf("workload_policy = %q places a multi-host TPU7x slice; a GPU tier has none. Remove workload_policy.", in.WorkloadPolicy), "")
		f.Basis = catalog.BasisRule
		return catalog.Findings{f}
	}
	shape, fs := cat.GPUNodePool(catalog.GPUPoolQuery{
		MachineType:   in.MachineType,
		GPUType:       in.GPUType,
		GPUCount:      int(in.GPUCount),
		DriverVersion: in.GPUDriver,
		NodeLocations: in.Locations,
		Topology:      in.Topology,
	})
	// A machine type the catalog does not know (a warning, or an error in
	// warn mode) is created as written.
	s.MachineType = cmp.Or(shape.MachineType, in.MachineType)
	s.GPUType, s.GPUCount = shape.GPUType, int64(shape.GPUCount)
	// An explicit value wins where the catalog only warns (for example
	// sources that disagree on a GPU type label).
	if in.GPUType != "" {
		s.GPUType = in.GPUType
	}
	if in.GPUCount > 0 {
		s.GPUCount = in.GPUCount
	}
	s.GPUDriver = in.GPUDriver
	if s.GPUDriver == "" {
		s.GPUDriver = catalog.DefaultGPUDriverVersion
	}
	s.AcceleratorLabels = maps.Clone(shape.NodeLabels)
	if s.GPUType != "" {
		s.AcceleratorLabels = map[string]string{catalog.LabelGPUAccelerator: s.GPUType}
	}
	return fs
}

// sizeFindings derives the size settings and checks their bounds.
func sizeFindings(cat *catalog.Catalog, in tierInput, s *tierSpec) catalog.Findings {
	switch {
	case in.Settings.TotalMin != nil || in.Settings.TotalMax != nil:
		s.Autoscaling = in.Settings.TotalMin != nil && in.Settings.TotalMax != nil
		return cat.AutoscalingTotals(in.Settings.TotalMin, in.Settings.TotalMax, in.MinNodes != nil || in.MaxNodes != nil, in.NodeCount != nil)
	case in.MinNodes != nil && in.MaxNodes != nil:
		s.Autoscaling, s.MinNodes, s.MaxNodes = true, *in.MinNodes, *in.MaxNodes
		return cat.AutoscalingBounds(*in.MinNodes, *in.MaxNodes)
	case in.NodeCount != nil:
		s.NodeCount = *in.NodeCount
	default:
		// One slice: the hosts of a multi-host slice, else one node.
		s.NodeCount = s.Hosts
	}
	return nil
}

// alwaysOnFindings warns when a tier that sets no size gets a pool of
// costly nodes that run whether or not a workload needs them: without
// node_count or autoscaling, the pool keeps its default size (one slice, or
// one node, per zone) always on. Costly here means several GPUs a node or a
// multi-host TPU slice.
func alwaysOnFindings(cat *catalog.Catalog, in tierInput, s tierSpec) catalog.Findings {
	if in.NodeCount != nil || in.MinNodes != nil || in.MaxNodes != nil || in.Settings.TotalMax != nil {
		return nil
	}
	var what string
	switch {
	case s.TPU && s.Hosts > 1:
		what = fmt.Sprintf("a %s slice of %d %s VMs", in.AcceleratorType, s.Hosts, s.MachineType)
	case !s.TPU && s.GPUCount > 1:
		what = fmt.Sprintf("%d %s node with %d %s GPUs", s.NodeCount, s.MachineType, s.GPUCount, s.GPUType)
	default:
		return nil
	}
	zones := "in each zone of the cluster's node locations"
	if n := len(s.Locations); n == 1 {
		zones = "in " + s.Locations[0]
	} else if n > 1 {
		zones = fmt.Sprintf("in each of its %d zones (%s)", n, strings.Join(s.Locations, ", "))
	}
	f := tierFinding(catalog.AttrNodeCount, "", "Accelerators Always On",
		fmt.Sprintf("Tier %q sets neither node_count nor min_node_count and max_node_count, so its pool keeps %s running %s, "+
			"whether or not a workload uses it. Set min_node_count = 0 and max_node_count to let GKE add nodes only when pods "+
			"need them, or set node_count to the number you want always on.", in.Name, what, zones),
		cat.Source("gke_autoscaling"))
	f.Severity = catalog.SeverityWarning
	return catalog.Findings{f}
}

// metadataFindings checks the tier's labels and taints (catalog.PoolMetadata).
func metadataFindings(cat *catalog.Catalog, in tierInput) catalog.Findings {
	taints := make([]catalog.PoolTaint, len(in.Taints))
	for i, t := range in.Taints {
		taints[i] = catalog.PoolTaint{Key: t.Key, Value: t.Value, Effect: t.Effect}
	}
	return cat.PoolMetadata(in.Labels, taints)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// NewDataSource returns the accel_compute_class data source.
func NewDataSource(cat *catalog.Catalog, modes *validation.Modes) datasource.DataSource {
	return &computeClassDataSource{cat: cat, modes: modes}
}

type computeClassDataSource struct {
	cat   *catalog.Catalog
	modes *validation.Modes
	// data is nil until the provider is configured.
	data *providerdata.Data
}

func (d *computeClassDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_compute_class"
}

func (d *computeClassDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dataSourceSchema(d.cat)
}

func (d *computeClassDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerdata.From(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig runs the priority checks on what is known, errors only, so
// that `terraform validate` fails on them; Read runs them all again with
// the cluster.
func (d *computeClassDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Priority.IsUnknown() || m.Validation.IsUnknown() {
		return
	}
	var errs diag.Diagnostics
	d.render(ctx, &m, nil, d.modes.For(m.Validation), &errs)
	for _, e := range errs.Errors() {
		resp.Diagnostics.Append(e)
	}
}

func (d *computeClassDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	live := d.readCluster(ctx, m.Cluster.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	d.render(ctx, &m, live, d.modes.For(m.Validation), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// render checks the class (against live when the cluster was read) and
// sets the outputs of m. Priorities with an unknown value are left out of
// the checks (ValidateConfig sees them; Read never does).
func (d *computeClassDataSource) render(ctx context.Context, m *model, live *catalog.ClassCluster, mode validation.Mode, diags *diag.Diagnostics) {
	version := m.GKEVersion.ValueString()
	if live != nil && live.Version != "" {
		if version != "" && version != live.Version {
			diags.AddAttributeWarning(path.Root("gke_version"), "Cluster Runs Another GKE Version",
				fmt.Sprintf("gke_version is %s but %s runs %s; the class is checked against %s.", version, live.Name, live.Version, live.Version))
		}
		version = live.Version
	}
	var prios []priorityModel
	diags.Append(tfmodel.ElementsAs(ctx, m.Priority, &prios)...)
	class := computeclass.Class{Name: m.Name.ValueString(), WhenUnsatisfiable: computeclass.DoNotScaleUp,
		AutoCreation: m.AutoCreation.IsNull() || m.AutoCreation.ValueBool(), ActiveMigration: m.ActiveMigration.ValueBool()}
	if !m.WhenUnsatisfiable.IsNull() {
		class.WhenUnsatisfiable = m.WhenUnsatisfiable.ValueString()
	}
	class.PoolConfig.ImageType, class.PoolConfig.ServiceAccount = m.ImageType.ValueString(), m.ServiceAccount.ValueString()
	class.PoolConfig.NodeLabels = tfmodel.KnownStringMap(m.NodeLabels)
	fields := []string{}
	tols := []podspec.Toleration{{Key: catalog.TaintComputeClass, Operator: podspec.OperatorEqual, Value: class.Name, Effect: podspec.EffectNoSchedule}}
	needs := make([]priorityNeed, len(prios))
	for i := range prios {
		if !priorityKnown(m.Priority, i) {
			continue
		}
		p, f, t, need := d.priority(&prios[i], version, clusterLocation(m.Cluster), path.Root("priority").AtListIndex(i), mode, diags)
		class.Priorities = append(class.Priorities, p)
		fields = append(fields, f...)
		tols = podspec.Union(tols, t)
		needs[i] = need
	}
	if class.PoolConfig.ImageType != "" {
		fields = append(fields, "nodePoolConfig.imageType")
	}
	featureFs := d.cat.ComputeClassFeatures(version, fields)
	if live != nil {
		for i := range featureFs {
			featureFs[i].Attribute = catalog.AttrCluster // the version checked is the cluster's
		}
	}
	validation.Append(diags, path.Empty(), featureFs, mode)
	m.ClusterChecked, m.Autopilot = types.BoolValue(live != nil), types.BoolNull()
	if live != nil {
		m.Autopilot = types.BoolValue(live.Autopilot)
		classNeeds := make([]catalog.ClassNeed, len(needs))
		for i, n := range needs {
			classNeeds[i] = n.ClassNeed
		}
		clusterFs, prioFs := d.cat.ComputeClassOnCluster(*live, class.AutoCreation, classNeeds)
		validation.Append(diags, path.Empty(), clusterFs, mode)
		for i, fs := range prioFs {
			fs = append(fs, d.capacity(ctx, *live, needs[i], i == len(needs)-1)...)
			validation.Append(diags, path.Root("priority").AtListIndex(i), fs, mode)
			livePriorityWarnings(*live, prios[i], path.Root("priority").AtListIndex(i), diags)
		}
	}
	m.Manifest = types.StringValue(class.YAML())
	m.NodeSelector = tfmodel.StringMap(map[string]string{catalog.LabelComputeClass: class.Name})
	m.Tolerations = podspec.List(tols)
	m.Priority = priorityList(ctx, prios, diags)
}

// priorityKnown reports whether priority i of the list is wholly known.
func priorityKnown(l types.List, i int) bool {
	return tfmodel.WhollyKnown(l.Elements()[i])
}

// priority checks one priority with the catalog's node-pool checks and
// returns what it renders, the ComputeClass fields it uses and the
// tolerations its nodes need; derived TPU values are written back to p.
func (d *computeClassDataSource) priority(p *priorityModel, version, location string, at path.Path, mode validation.Mode, diags *diag.Diagnostics) (computeclass.Priority, []string, []podspec.Toleration, priorityNeed) {
	r := &priorityRender{d: d, p: p, at: at, mode: mode, diags: diags, zones: tfmodel.KnownStrings(p.NodeLocations)}
	checkShape(p, at, diags)
	if location != "" {
		r.check(d.cat.NodeLocationsInCluster(location, r.zones))
	}
	r.out = renderPriority(p, r.zones)
	r.checkNodeRecycling()
	r.need = priorityNeed{ClassNeed: catalog.ClassNeed{NodePools: len(r.out.NodePools) > 0}}
	r.machine = r.out.MachineType
	r.accelerator(version)
	r.checkMachine()
	if r.out.Spot {
		r.tols = append(r.tols, podspec.Toleration{Key: catalog.TaintSpot, Operator: podspec.OperatorEqual, Value: "true", Effect: podspec.EffectNoSchedule})
	}
	r.checkFlexStart()
	r.reservations()
	r.checkReservationBlock()
	r.need.zones, r.need.spot = r.zones, r.out.Spot
	r.usedFields()
	return r.out, r.fields, r.tols, r.need
}

// priorityRender is one priority being checked and rendered: the priority
// as configured, where its diagnostics go, and what it renders so far.
type priorityRender struct {
	d     *computeClassDataSource
	p     *priorityModel
	at    path.Path
	mode  validation.Mode
	diags *diag.Diagnostics
	// zones are the priority's known node locations.
	zones []string

	out    computeclass.Priority
	fields []string
	tols   []podspec.Toleration
	need   priorityNeed
	// machine is the priority's machine type, derived from the TPU when
	// not set.
	machine string
}

// check appends findings of the catalog on the priority.
func (r *priorityRender) check(fs catalog.Findings) {
	validation.Append(r.diags, r.at, fs, r.mode)
}

// renderPriority is the ComputeClass priority of p's plain settings, on
// zones; accelerators and reservations are rendered by their own steps.
func renderPriority(p *priorityModel, zones []string) computeclass.Priority {
	out := computeclass.Priority{MachineFamily: p.MachineFamily.ValueString(), MachineType: p.MachineType.ValueString(),
		NodePools: tfmodel.KnownStrings(p.Nodepools), Zones: zones, Spot: p.Spot.ValueBool(), FlexStart: p.FlexStart.ValueBool(),
		PlacementPolicy: p.PlacementPolicy.ValueString(), MaxRunDurationSeconds: p.MaxRunDurationSeconds.ValueInt64(),
		MinCores: p.MinCores.ValueInt64(), MinMemoryGb: p.MinMemoryGB.ValueInt64(), MaxPodsPerNode: p.MaxPodsPerNode.ValueInt64(),
		NodeRecyclingLeadTime: tfmodel.Int64Ptr(p.NodeRecyclingLead)}
	if !p.BootDiskSizeGB.IsNull() || !p.BootDiskType.IsNull() || !p.BootDiskKMSKey.IsNull() || !p.LocalSSDCount.IsNull() {
		out.Storage = &computeclass.Storage{BootDiskKMSKey: p.BootDiskKMSKey.ValueString(), BootDiskSizeGB: p.BootDiskSizeGB.ValueInt64(),
			BootDiskType: p.BootDiskType.ValueString(), LocalSSDCount: tfmodel.Int64Ptr(p.LocalSSDCount)}
	}
	return out
}

// checkNodeRecycling refuses node recycling on a priority that is not
// flex-start.
func (r *priorityRender) checkNodeRecycling() {
	if r.out.NodeRecyclingLeadTime != nil && !r.out.FlexStart {
		r.diags.AddAttributeError(r.at.AtName("node_recycling_lead_time_seconds"), "Node Recycling Without Flex-Start",
			"node_recycling_lead_time_seconds is flexStart.nodeRecycling in the CRD: it applies to flex-start nodes only. Set "+
				"flex_start = true, or remove it.")
	}
}

// accelerator checks and renders the priority's TPU or GPU (a GPU machine
// type has one too), and refuses both in one priority.
func (r *priorityRender) accelerator(version string) {
	p := r.p
	isTPU := !p.AcceleratorType.IsNull() || !p.TPUType.IsNull()
	isGPU := !p.GPUType.IsNull() || !p.GPUCount.IsNull() || !p.GPUDriverVersion.IsNull()
	switch {
	case isTPU && isGPU:
		r.diags.AddAttributeError(r.at.AtName("gpu_type"), "TPU and GPU in One Priority",
			"A node is either a TPU node or a GPU node: put the GPU in a priority of its own, after the TPU one.")
	case isTPU:
		r.tpu(version)
	case isGPU || r.d.cat.IsGPUMachineType(r.out.MachineType):
		r.gpu()
	}
}

// tpu checks and renders the priority's TPU, writes the derived TPU values
// back to the priority, and tolerates the TPU taint.
func (r *priorityRender) tpu(version string) {
	p := r.p
	shape, fs := r.d.cat.TPUPriority(catalog.TPUPriorityQuery{AcceleratorType: p.AcceleratorType.ValueString(), Type: p.TPUType.ValueString(),
		Count: int(p.TPUCount.ValueInt64()), Topology: p.Topology.ValueString(), MachineType: r.out.MachineType, NodeLocations: r.zones,
		GKEVersion: version})
	r.check(fs)
	r.machine = cmp.Or(r.machine, shape.MachineType)
	label := cmp.Or(shape.NodeLabels[catalog.LabelTPUAccelerator], p.TPUType.ValueString())
	r.out.TPU = &computeclass.TPU{Type: label, Count: int64(shape.ChipsPerNode), Topology: shape.Topology}
	r.need.Resource, r.need.TPU, r.need.PerNode, r.need.Nodes = label, true, int64(shape.ChipsPerNode), int64(shape.NodeCount)
	if shape.MachineType != "" {
		r.need.live = livecheck.TPUNeed(r.d.cat, shape.MachineType, shape.Topology)
	}
	p.TPUType, p.TPUCount, p.Topology = types.StringValue(label), types.Int64Value(int64(shape.ChipsPerNode)), types.StringValue(shape.Topology)
	r.fields = append(r.fields, "tpu")
	r.tols = append(r.tols, podspec.Toleration{Key: catalog.TaintTPU, Operator: podspec.OperatorExists, Effect: podspec.EffectNoSchedule})
}

// gpu checks and renders the priority's GPU and tolerates the GPU taint.
func (r *priorityRender) gpu() {
	p := r.p
	shape, fs := r.d.cat.GPUPriority(catalog.GPUPriorityQuery{GPUType: p.GPUType.ValueString(), GPUCount: int(p.GPUCount.ValueInt64()),
		MachineType: r.out.MachineType, MachineFamily: r.out.MachineFamily, DriverVersion: p.GPUDriverVersion.ValueString(), NodeLocations: r.zones})
	r.check(fs)
	r.out.GPU = &computeclass.GPU{Type: shape.GPUType, Count: int64(shape.GPUCount), DriverVersion: shape.DriverVersion}
	r.need.Resource, r.need.PerNode = shape.GPUType, int64(shape.GPUCount)
	if shape.GPUType != "" {
		r.need.live = livecheck.GPUNeed(r.d.cat, r.out.MachineType, shape.GPUType, int64(shape.GPUCount))
	}
	if shape.DriverVersion != "" {
		r.fields = append(r.fields, "gpu.driverVersion")
	}
	r.tols = append(r.tols, podspec.Toleration{Key: catalog.TaintGPU, Operator: podspec.OperatorExists, Effect: podspec.EffectNoSchedule})
}

// checkMachine checks the boot disk type and flex-start against the
// priority's machine type.
func (r *priorityRender) checkMachine() {
	if r.out.Storage != nil {
		r.check(r.d.cat.BootDiskType("boot_disk_type", r.machine, r.out.Storage.BootDiskType))
	}
	if r.out.FlexStart {
		r.check(r.d.cat.FlexStartMachine("flex_start", r.machine))
	}
}

// checkFlexStart refuses a flex-start priority that runs longer than a
// flex-start VM can, or that is Spot too.
func (r *priorityRender) checkFlexStart() {
	if d := r.out.MaxRunDurationSeconds; r.out.FlexStart && d > maxFlexStartSeconds {
		r.diags.AddAttributeError(r.at.AtName("max_run_duration_seconds"), "Flex-Start Runs at Most Seven Days",
			fmt.Sprintf("max_run_duration_seconds = %d is more than seven days (%d seconds), the longest a flex-start VM runs "+
				"(https://cloud.google.com/kubernetes-engine/docs/concepts/flex-start-vms). Set %d or less.", d, maxFlexStartSeconds, maxFlexStartSeconds))
	}
	if r.out.Spot && r.out.FlexStart {
		r.diags.AddAttributeError(r.at.AtName("flex_start"), "Flex-Start Excludes Spot",
			"A ComputeClass priority cannot be both flex-start and Spot (the CRD refuses flexStart.enabled with spot: true); use two priorities.")
	}
}

// reservations renders the priority's reservation affinity and names
// (naming reservations consumes those: affinity Specific), and refuses
// Spot with specific reservations and names without Specific affinity.
func (r *priorityRender) reservations() {
	names := tfmodel.KnownStrings(r.p.Reservations)
	aff := r.p.ReservationAffinity.ValueString()
	if aff == "" && len(names) > 0 {
		aff = computeclass.AffinitySpecific
	}
	if aff == "" {
		return
	}
	r.out.Reservations = &computeclass.Reservations{Affinity: aff,
		Specific: specificReservations(names, r.p.ReservationBlock.ValueString())}
	if r.out.Spot && aff == computeclass.AffinitySpecific {
		r.diags.AddAttributeError(r.at.AtName("reservations"), "Spot VMs Do Not Consume Reservations",
			"The priority is Spot and names reservations, but Spot VMs never consume reservations "+
				"(https://cloud.google.com/compute/docs/instances/reservations-overview): no node of it would ever use them. "+
				"Put the reservations in a priority of their own, without spot.")
	}
	if (aff == computeclass.AffinitySpecific) != (len(r.out.Reservations.Specific) > 0) {
		r.diags.AddAttributeError(r.at.AtName("reservations"), "Reservations Need Specific Affinity",
			"The CRD takes reservation names only with reservation_affinity = \"Specific\", and Specific needs at least one name.")
	}
	r.fields = append(r.fields, "reservations")
	if aff == computeclass.AffinitySpecific {
		r.need.reservations = names
	}
}

// specificReservations are the reservations names, each a name or
// projects/{project}/reservations/{name}, in block when it is not "".
func specificReservations(names []string, block string) []computeclass.SpecificReservation {
	var out []computeclass.SpecificReservation
	for _, r := range names {
		name, project := r, ""
		if parts := strings.Split(r, "/"); len(parts) == 4 && parts[0] == "projects" && parts[2] == "reservations" {
			name, project = parts[3], parts[1]
		}
		out = append(out, computeclass.SpecificReservation{Name: name, Project: project, Block: block})
	}
	return out
}

// checkReservationBlock refuses a reservation block unless the priority
// names exactly one reservation.
func (r *priorityRender) checkReservationBlock() {
	if r.p.ReservationBlock.IsNull() {
		return
	}
	named := 0
	if r.out.Reservations != nil {
		named = len(r.out.Reservations.Specific)
	}
	if named == 1 {
		return
	}
	r.diags.AddAttributeError(r.at.AtName("reservation_block"), "Reservation Block Needs One Reservation",
		fmt.Sprintf("reservation_block names a block of one specific reservation, and the priority names %d. Name exactly one "+
			"reservation in reservations (reservation_affinity \"Specific\").", named))
}

// usedFields adds the ComputeClass fields of the priority's plain settings
// to those it uses.
func (r *priorityRender) usedFields() {
	for f, on := range map[string]bool{"flexStart": r.out.FlexStart, "placement": r.out.PlacementPolicy != "", "location": len(r.zones) > 0,
		"maxRunDurationSeconds": r.out.MaxRunDurationSeconds > 0} {
		if on {
			r.fields = append(r.fields, f)
		}
	}
}

// livePriorityWarnings warns, with the cluster read, of a priority GKE
// cannot use as written: node pools the cluster does not have (not yet
// created, or misspelt), and AnyBestEffort reservations on Autopilot,
// which documents specific reservations only
// (https://cloud.google.com/kubernetes-engine/docs/how-to/consume-reservations#autopilot).
func livePriorityWarnings(live catalog.ClassCluster, p priorityModel, at path.Path, diags *diag.Diagnostics) {
	if !live.Autopilot {
		for _, name := range tfmodel.KnownStrings(p.Nodepools) {
			if !slices.Contains(live.Pools, name) {
				diags.AddAttributeWarning(at.AtName("nodepools"), "Node Pool Not in the Cluster",
					fmt.Sprintf("%s has no node pool %q: GKE skips the priority until one of that name exists. Check the name, or "+
						"create the pool in the same apply (accel_fallback_nodepools or google_container_node_pool).", live.Name, name))
			}
		}
	}
	if live.Autopilot && p.ReservationAffinity.ValueString() == computeclass.AffinityAnyBestEffort {
		diags.AddAttributeWarning(at.AtName("reservation_affinity"), "AnyBestEffort Reservations on Autopilot",
			"Autopilot documents consuming specific reservations only; with AnyBestEffort its nodes may not use any. Name the "+
				"reservations with reservation_affinity = \"Specific\".")
	}
}

// maxFlexStartSeconds is the longest run of a flex-start VM: seven days.
const maxFlexStartSeconds = 7 * 24 * 3600

// checkShape refuses what the ComputeClass CRD refuses in a priority's
// shape: no field at all (the CRD wants at least one property), and
// nodepools beside other fields ("Nodepool field cannot be set along with
// other fields", https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass).
func checkShape(p *priorityModel, at path.Path, diags *diag.Diagnostics) {
	others := map[string]attr.Value{"accelerator_type": p.AcceleratorType, "tpu_type": p.TPUType, "tpu_count": p.TPUCount,
		"topology": p.Topology, "gpu_type": p.GPUType, "gpu_count": p.GPUCount, "gpu_driver_version": p.GPUDriverVersion,
		"machine_type": p.MachineType, "machine_family": p.MachineFamily, "node_locations": p.NodeLocations, "spot": p.Spot,
		"flex_start": p.FlexStart, "max_run_duration_seconds": p.MaxRunDurationSeconds, "reservation_affinity": p.ReservationAffinity,
		"reservations": p.Reservations, "placement_policy": p.PlacementPolicy, "reservation_block": p.ReservationBlock,
		"node_recycling_lead_time_seconds": p.NodeRecyclingLead, "min_cores": p.MinCores, "min_memory_gb": p.MinMemoryGB,
		"max_pods_per_node": p.MaxPodsPerNode, "boot_disk_size_gb": p.BootDiskSizeGB, "boot_disk_type": p.BootDiskType,
		"boot_disk_kms_key": p.BootDiskKMSKey, "local_ssd_count": p.LocalSSDCount}
	var set []string
	for name, v := range others {
		if !v.IsNull() {
			set = append(set, name)
		}
	}
	slices.Sort(set)
	switch {
	case p.Nodepools.IsNull() && len(set) == 0:
		diags.AddAttributeError(at, "Empty Priority",
			"A ComputeClass priority needs at least one field (the CRD refuses an empty one): an accelerator (accelerator_type, "+
				"tpu_type or gpu_type), a machine_type or machine_family, or nodepools.")
	case !p.Nodepools.IsNull() && len(set) > 0:
		diags.AddAttributeError(at.AtName("nodepools"), "Node Pools With Other Fields",
			fmt.Sprintf("A priority that names nodepools takes no other field (the CRD: \"Nodepool field cannot be set along with "+
				"other fields\"), and this one sets %s. Put them in a priority of their own.", strings.Join(set, ", ")))
	}
}

// clusterLocation is the location of a cluster id, "" when unknown.
func clusterLocation(id types.String) string {
	if !tfmodel.Known(id) || id.IsNull() {
		return ""
	}
	_, location, _, err := gcp.ParseClusterID(id.ValueString())
	if err != nil {
		return ""
	}
	return location
}

func priorityList(ctx context.Context, ps []priorityModel, diags *diag.Diagnostics) types.List {
	l, d := tfmodel.ListOf(ctx, types.ObjectType{AttrTypes: priorityAttrTypes()}, ps)
	diags.Append(d...)
	return l
}

func priorityAttrTypes() map[string]attr.Type {
	s := types.StringType
	i := types.Int64Type
	b := types.BoolType
	ls := types.ListType{ElemType: types.StringType}
	return map[string]attr.Type{"accelerator_type": s, "tpu_type": s, "tpu_count": i, "topology": s, "gpu_type": s, "gpu_count": i,
		"gpu_driver_version": s, "machine_type": s, "machine_family": s, "nodepools": ls, "node_locations": ls, "spot": b,
		"flex_start": b, "max_run_duration_seconds": i, "reservation_affinity": s, "reservations": ls, "placement_policy": s,
		"reservation_block": s, "node_recycling_lead_time_seconds": i, "min_cores": i, "min_memory_gb": i, "max_pods_per_node": i,
		"boot_disk_size_gb": i, "boot_disk_type": s, "boot_disk_kms_key": s, "local_ssd_count": i}
}

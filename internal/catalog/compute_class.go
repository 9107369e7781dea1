// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Attributes of a ComputeClass priority (accel_compute_class) that the
// node-pool checks do not already name.
const (
	AttrTPUType         = "tpu_type"
	AttrTPUCount        = "tpu_count"
	AttrMachineFamily   = "machine_family"
	AttrPlacementPolicy = "placement_policy"
	AttrNodePools       = "nodepools"
)

// ComputeClassFeature is a ComputeClass field and the first GKE version
// that takes it.
type ComputeClassFeature struct {
	Field         string `json:"field"`
	MinGKEVersion string `json:"min_gke_version"`
	Source        string `json:"source"`
}

// TPUPriorityQuery is a ComputeClass TPU priority: a Cloud TPU accelerator
// type, or GKE's own form (the accelerator label, chips per node and
// topology). Empty strings and zero counts mean "not set".
type TPUPriorityQuery struct {
	AcceleratorType string
	Type            string
	Count           int
	Topology        string
	// MachineType is the priority's machineType, checked against the
	// slice as a node-pool tier's is; "" lets the shape pick it.
	MachineType   string
	NodeLocations []string
	GKEVersion    string
}

// TPUPriority resolves and checks a ComputeClass TPU priority with the
// node-pool check (TPUNodePool), so a priority and a tier of the same
// slice get the same findings. In GKE's form the count picks the machine
// type (tpu.count is chips per node, CRD reference), and findings on that
// machine type are reported on tpu_count.
func (c *Catalog) TPUPriority(q TPUPriorityQuery) (TPUPoolShape, Findings) {
	if c.loadErr != nil {
		return TPUPoolShape{}, c.unavailable(AttrTPUType)
	}
	pool := TPUPoolQuery{AcceleratorType: q.AcceleratorType, Topology: q.Topology, NodeLocations: q.NodeLocations, GKEVersion: q.GKEVersion,
		MachineType: q.MachineType}
	if q.AcceleratorType != "" {
		return c.acceleratorTypePriority(q, pool)
	}
	return c.tpuLabelPriority(q, pool)
}

// acceleratorTypePriority checks a priority set by accelerator type: the
// node-pool check of its slice, then tpu_type and tpu_count against the
// slice's nodes. A tpu_count of another node size, with no machine type
// set, lays the same slice out on nodes of that size when GKE can.
func (c *Catalog) acceleratorTypePriority(q TPUPriorityQuery, pool TPUPoolQuery) (TPUPoolShape, Findings) {
	shape, fs := c.TPUNodePool(pool)
	if fs.HasErrors() {
		return shape, fs
	}
	label := shape.NodeLabels[LabelTPUAccelerator]
	otherCount := q.Count != 0 && q.Count != shape.ChipsPerNode
	if otherCount && q.MachineType == "" {
		// The same slice on nodes of another size, as Google documents
		// v6e-8 on two 4-chip VMs: GKE's form, machine type and topology.
		if alt, ok := c.sliceOnNodesOf(pool, shape, label, q.Count); ok {
			return alt, fs
		}
	}
	if q.Type != "" && q.Type != label {
		fs = append(fs, newRule(AttrTPUType, q.Type, "TPU Type Does Not Match Accelerator Type", c.data.Sources["gke_tpu"], []string{label},
			fmt.Sprintf("%q nodes carry the GKE accelerator label %q, not %q; leave tpu_type out (it follows from accelerator_type) or set it to %q.",
				q.AcceleratorType, label, q.Type, label)))
	}
	if otherCount {
		fs = append(fs, c.tpuCountMismatch(q, pool, shape, label))
	}
	return shape, fs
}

// tpuCountMismatch is the error for a tpu_count that is not the chips per
// node of an accelerator type's slice; it suggests the slice's own count
// and those of the other node sizes the slice can be laid out on.
func (c *Catalog) tpuCountMismatch(q TPUPriorityQuery, pool TPUPoolQuery, shape TPUPoolShape, label string) Finding {
	counts := []string{itoa(shape.ChipsPerNode)}
	for _, m := range c.tpuMachinesOfLabel(label) {
		if _, ok := c.sliceOnNodesOf(pool, shape, label, m.Chips); ok && m.Chips != shape.ChipsPerNode && !slices.Contains(counts, itoa(m.Chips)) {
			counts = append(counts, itoa(m.Chips))
		}
	}
	return newRule(AttrTPUCount, itoa(q.Count), "TPU Count Does Not Match Accelerator Type", c.data.Sources["gke_tpu"], counts,
		fmt.Sprintf("%q is %s nodes of %d chips each (%s); tpu_count is chips per node: leave it out or set it to %s.",
			q.AcceleratorType, shape.MachineType, shape.ChipsPerNode, shape.Topology, joinOr(counts)))
}

// tpuLabelPriority checks a priority in GKE's form: tpu_type (the
// accelerator label) gives the machine types, machine_type and tpu_count
// narrow them, and the node-pool check picks the first that holds the
// topology.
func (c *Catalog) tpuLabelPriority(q TPUPriorityQuery, pool TPUPoolQuery) (TPUPoolShape, Findings) {
	if q.Type == "" {
		return TPUPoolShape{}, Findings{newRule(AttrTPUType, "", "Missing TPU Type", c.data.Sources["gke_tpu"], nil,
			"Set accelerator_type (such as \"v6e-4\"), or tpu_type (GKE's accelerator label, such as \"tpu-v6e-slice\") with tpu_count and topology.")}
	}
	machines := c.tpuMachinesOfLabel(q.Type)
	if len(machines) == 0 {
		if m := c.codeOnlyOfLabel(q.Type, q.Count); m != nil {
			return c.codeOnlyTPUPool(m, nil, pool)
		}
		return TPUPoolShape{}, Findings{c.unknownTPULabel(q.Type)}
	}
	machines, fs := c.keepPriorityMachineType(q, machines)
	if fs != nil {
		return TPUPoolShape{}, fs
	}
	if fs := c.checkChipsPerNode(q, pool, machines); fs != nil {
		return TPUPoolShape{}, fs
	}
	return c.firstFittingMachine(q, pool, machines)
}

// keepPriorityMachineType narrows the machine types of tpu_type to the
// priority's machine_type, when set; it is an error when that is not one
// of them.
func (c *Catalog) keepPriorityMachineType(q TPUPriorityQuery, machines []*TPUMachineType) ([]*TPUMachineType, Findings) {
	if q.MachineType == "" {
		return machines, nil
	}
	var names []string
	for _, m := range machines {
		names = append(names, m.Name)
	}
	machines = slices.DeleteFunc(machines, func(m *TPUMachineType) bool { return m.Name != q.MachineType })
	if len(machines) == 0 {
		return nil, Findings{newRule(AttrMachineType, q.MachineType, "Machine Type Does Not Match TPU Type", c.data.Sources["gke_tpu"],
			names, fmt.Sprintf("%q nodes are not of type %q: its machine types are %s. Set machine_type to one of them, or leave it out.",
				q.MachineType, q.Type, joinOr(names)))}
	}
	return machines, nil
}

// checkChipsPerNode requires tpu_count, when set, to be the chips per node
// of one of the machine types; the suggestions are the counts whose node
// pool holds the topology, else all of them.
func (c *Catalog) checkChipsPerNode(q TPUPriorityQuery, pool TPUPoolQuery, machines []*TPUMachineType) Findings {
	var counts []int
	for _, m := range machines {
		if !slices.Contains(counts, m.Chips) {
			counts = append(counts, m.Chips)
		}
	}
	slices.Sort(counts)
	if q.Count == 0 || slices.Contains(counts, q.Count) {
		return nil
	}
	fits := c.countsForTopology(machines, pool)
	if len(fits) == 0 {
		fits = counts
	}
	return Findings{newFinding(SeverityError, AttrTPUCount, itoa(q.Count), "No TPU Node With This Chip Count", c.data.Sources["gke_tpu"],
		intStrings(fits), fmt.Sprintf("%s nodes have %s chips; tpu_count is chips per node (a multi-host slice is several such nodes), so use %s.",
			q.Type, joinOr(intStrings(counts)), joinOr(intStrings(fits))))}
}

// firstFittingMachine runs the node-pool check on each machine type with
// tpu_count chips (any, when not set), its findings on the machine type
// reported on tpu_count, and returns the first that passes, else the
// first that fails.
func (c *Catalog) firstFittingMachine(q TPUPriorityQuery, pool TPUPoolQuery, machines []*TPUMachineType) (TPUPoolShape, Findings) {
	var first Findings
	var firstShape TPUPoolShape
	for _, m := range machines {
		if q.Count != 0 && m.Chips != q.Count {
			continue
		}
		pool.MachineType = m.Name
		shape, fs := c.TPUNodePool(pool)
		for j := range fs {
			if fs[j].Attribute == AttrMachineType {
				fs[j].Attribute = AttrTPUCount
			}
		}
		if !fs.HasErrors() {
			return shape, fs
		}
		if first == nil {
			first, firstShape = fs, shape
		}
	}
	return firstShape, first
}

// sliceOnNodesOf lays the slice of shape (accelerator type, label) out on
// nodes of chips chips each: GKE's form, a machine type of that size with
// the slice's topology, when the node-pool check passes.
func (c *Catalog) sliceOnNodesOf(pool TPUPoolQuery, shape TPUPoolShape, label string, chips int) (TPUPoolShape, bool) {
	for _, m := range c.tpuMachinesOfLabel(label) {
		if m.Chips != chips {
			continue
		}
		alt := pool
		alt.AcceleratorType, alt.MachineType, alt.Topology = "", m.Name, shape.Topology
		if s, fs := c.TPUNodePool(alt); !fs.HasErrors() {
			return s, true
		}
	}
	return TPUPoolShape{}, false
}

// countsForTopology lists the chip counts of machines whose node pool
// check passes with the query's topology.
func (c *Catalog) countsForTopology(machines []*TPUMachineType, pool TPUPoolQuery) []int {
	var out []int
	for _, m := range machines {
		pool.MachineType = m.Name
		if _, fs := c.TPUNodePool(pool); !fs.HasErrors() && !slices.Contains(out, m.Chips) {
			out = append(out, m.Chips)
		}
	}
	slices.Sort(out)
	return out
}

// tpuMachinesOfLabel lists the documented GKE TPU machine types whose
// nodes carry accelerator label label, largest first (the layout GKE
// picks for a topology when no count is given is the one with most chips
// per node).
func (c *Catalog) tpuMachinesOfLabel(label string) []*TPUMachineType {
	var out []*TPUMachineType
	for _, g := range c.data.Generations {
		if g.GKE == nil {
			continue
		}
		for i := range g.GKE.MachineTypes {
			if mt := &g.GKE.MachineTypes[i]; g.GKE.labelOf(mt) == label {
				out = append(out, mt)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *TPUMachineType) int { return b.Chips - a.Chips })
	return out
}

// codeOnlyOfLabel is a machine type only GKE's code lists with label and
// count chips (any count when 0).
func (c *Catalog) codeOnlyOfLabel(label string, count int) *CodeOnlyTPUMachine {
	for i := range c.data.GKEAvailability.CodeOnlyMachineTypes {
		if m := &c.data.GKEAvailability.CodeOnlyMachineTypes[i]; m.AcceleratorLabel == label && (count == 0 || m.Chips == count) {
			return m
		}
	}
	return nil
}

// TPULabels lists the GKE TPU accelerator labels the catalog knows.
func (c *Catalog) TPULabels() []string {
	var out []string
	add := func(l string) {
		if l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	for _, g := range c.data.Generations {
		if g.GKE != nil {
			for i := range g.GKE.MachineTypes {
				add(g.GKE.labelOf(&g.GKE.MachineTypes[i]))
			}
		}
	}
	for _, m := range c.data.GKEAvailability.CodeOnlyMachineTypes {
		add(m.AcceleratorLabel)
	}
	return out
}

// unknownTPULabel is an error for a near miss of a known label (a typo,
// another case, a Cloud TPU accelerator type in its place) and a warning
// for a well-formed label the catalog does not know.
func (c *Catalog) unknownTPULabel(s string) Finding {
	labels := c.TPULabels()
	src := c.data.Sources["gke_tpu"]
	if slices.Contains(c.typeNames, s) || c.knownAcceleratorShape(s) {
		return newRule(AttrTPUType, s, "Accelerator Type in Place of a TPU Type", src, nil,
			fmt.Sprintf("%q is a Cloud TPU accelerator type; set it as accelerator_type, or set tpu_type to GKE's accelerator label (%s).", s, quoteList(labels)))
	}
	if m, ok := caseMatch(s, labels); ok {
		return newFinding(SeverityError, AttrTPUType, s, "Unknown TPU Type", src, []string{m}, fmt.Sprintf("%q is not a GKE TPU type%s", s, didYouMean([]string{m})))
	}
	// A label of a generation the catalog knows, misspelt, is a near miss;
	// one of a generation it does not know may be newer than the catalog.
	var sameGen []string
	for _, l := range labels {
		if labelGeneration(l) == labelGeneration(strings.ToLower(s)) {
			sameGen = append(sameGen, l)
		}
	}
	if sugg := nearest(s, sameGen); len(sugg) > 0 {
		return newFinding(SeverityError, AttrTPUType, s, "Unknown TPU Type", src, sugg, fmt.Sprintf("%q is not a GKE TPU type%s", s, didYouMean(sugg)))
	}
	return newFinding(SeverityWarning, AttrTPUType, s, "TPU Type Not in the Catalog", src, nil,
		fmt.Sprintf("%q is not a GKE TPU accelerator label the catalog knows (%s); it may be newer than the catalog, and GKE decides.", s, quoteList(labels)))
}

// labelGeneration is the generation part of a GKE TPU label: "v6e" of
// "tpu-v6e-slice", "7x" of "tpu7x".
func labelGeneration(l string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(l, "tpu"), "-")
	gen, _, _ := strings.Cut(rest, "-")
	return gen
}

// knownAcceleratorShape reports whether s looks like a Cloud TPU
// accelerator type of a known generation ("v6e-4").
func (c *Catalog) knownAcceleratorShape(s string) bool {
	for _, g := range c.data.Generations {
		if strings.HasPrefix(s, g.APIPrefix+"-") {
			return true
		}
	}
	return false
}

// GPUPriorityQuery is a ComputeClass GPU priority: a GPU type and count,
// with or without a machine type or family.
type GPUPriorityQuery struct {
	GPUType       string
	GPUCount      int
	MachineType   string
	MachineFamily string
	DriverVersion string
	NodeLocations []string
}

// GPUPriority checks a ComputeClass GPU priority. With a machine type it is
// the node-pool check (GPUNodePool); without one, GKE picks the machine,
// and the GPU type must be known and offered in that count by some
// machine type (of machine_family when set).
func (c *Catalog) GPUPriority(q GPUPriorityQuery) (GPUPoolShape, Findings) {
	if c.loadErr != nil {
		return GPUPoolShape{}, c.unavailable(AttrGPUType)
	}
	if q.MachineType != "" {
		shape, fs := c.GPUNodePool(GPUPoolQuery{MachineType: q.MachineType, GPUType: q.GPUType, GPUCount: q.GPUCount, NodeLocations: q.NodeLocations})
		shape.DriverVersion = q.DriverVersion
		return shape, append(fs, c.classDriverVersion(q.DriverVersion)...)
	}
	src := c.data.Sources["gpu_machine_types"]
	shape := GPUPoolShape{GPUType: q.GPUType, GPUCount: q.GPUCount, DriverVersion: q.DriverVersion}
	if q.GPUType == "" {
		return shape, Findings{newRule(AttrGPUType, "", "Missing GPU Type", src, nil,
			"Set gpu_type (such as \"nvidia-l4\") and gpu_count, or a GPU machine_type (such as \"g2-standard-8\").")}
	}
	if c.gpuTypes[q.GPUType] == nil {
		return shape, Findings{c.unknownGPUType(q.GPUType)}
	}
	shape.NodeLabels = map[string]string{LabelGPUAccelerator: q.GPUType}
	var fs Findings
	counts, families := c.gpuOffers(q.GPUType, q.MachineFamily)
	switch {
	case q.MachineFamily != "" && len(counts) == 0:
		_, all := c.gpuOffers(q.GPUType, "")
		fs = append(fs, newFinding(SeverityError, AttrMachineFamily, q.MachineFamily, "Machine Family Has No Such GPU", src, all,
			fmt.Sprintf("No %s machine type takes %s; machine families with %s: %s.", q.MachineFamily, q.GPUType, q.GPUType, quoteList(all))))
	case q.GPUCount > 0 && !slices.Contains(counts, q.GPUCount):
		what := q.GPUType
		if q.MachineFamily != "" {
			what += " on " + q.MachineFamily
		}
		fs = append(fs, newFinding(SeverityError, AttrGPUCount, itoa(q.GPUCount), "No Machine Type With This GPU Count", src, intStrings(counts),
			fmt.Sprintf("Machine types with %s come with %s GPUs per node (families %s); use %s.", what, joinOr(intStrings(counts)), quoteList(families), joinOr(intStrings(counts)))))
	}
	fs = append(fs, c.classDriverVersion(q.DriverVersion)...)
	fs = append(fs, c.checkZones(nil, "", q.NodeLocations, AttrNodeLocations)...)
	return shape, fs
}

// ClassDriverVersions are the values of a ComputeClass gpu.driverVersion
// (the CRD's enum; a node pool's API takes DEFAULT and LATEST instead).
var ClassDriverVersions = []string{"default", "latest"}

// classDriverVersion checks a ComputeClass gpu.driverVersion ("" is not set).
func (c *Catalog) classDriverVersion(v string) Findings {
	if v == "" || slices.Contains(ClassDriverVersions, v) {
		return nil
	}
	sugg := []string{}
	if m, ok := caseMatch(v, ClassDriverVersions); ok {
		sugg = []string{m}
	}
	return Findings{newRule(AttrGPUDriverVersion, v, "Invalid GPU Driver Version", c.data.Sources["compute_class_crd"], sugg,
		fmt.Sprintf("%q is not a ComputeClass driverVersion (the CRD spells the values in lower case); use %s%s", v, quoteList(ClassDriverVersions), didYouMeanOrStop(sugg)))}
}

// gpuOffers lists the GPU counts per node that documented machine types
// (built-in or attached GPUs) offer for gpuType, and their families; a
// non-empty family keeps only that family's machine types.
func (c *Catalog) gpuOffers(gpuType, family string) (counts []int, families []string) {
	add := func(fam string, n ...int) {
		if family != "" && fam != family {
			return
		}
		if !slices.Contains(families, fam) {
			families = append(families, fam)
		}
		for _, x := range n {
			if !slices.Contains(counts, x) {
				counts = append(counts, x)
			}
		}
	}
	for _, m := range c.data.GPU.MachineTypes {
		if m.GPUType == gpuType && m.Status == StatusDocumented {
			add(strings.SplitN(m.Name, "-", 2)[0], m.GPUCount)
		}
	}
	for _, a := range c.data.GPU.Attachable {
		if slices.Contains(a.GPUTypes, gpuType) {
			add(strings.TrimSuffix(a.MachinePrefix, "-"), a.Counts...)
		}
	}
	slices.Sort(counts)
	return counts, families
}

// ComputeClassFeatures checks the ComputeClass fields a class uses against
// the first GKE version that takes each; an unknown version ("") is not
// checked. The findings name the field and are on gke_version.
func (c *Catalog) ComputeClassFeatures(version string, fields []string) Findings {
	if version == "" {
		return nil
	}
	fs := c.ComputeClassVersion(version)
	if fs.HasErrors() {
		return fs
	}
	for _, f := range c.data.ComputeClass.Features {
		if slices.Contains(fields, f.Field) && olderGKE(version, f.MinGKEVersion) {
			fs = append(fs, newFinding(SeverityError, AttrGKEVersion, version, "GKE Version Too Old for a ComputeClass Field", f.Source, []string{f.MinGKEVersion},
				fmt.Sprintf("The ComputeClass field %s needs GKE %s or later; the cluster runs %s. Upgrade the cluster, or leave the field out.", f.Field, f.MinGKEVersion, version)))
		}
	}
	return fs
}

// didYouMeanOrStop ends a sentence with a did-you-mean, or a full stop.
func didYouMeanOrStop(sugg []string) string {
	if len(sugg) == 0 {
		return "."
	}
	return didYouMean(sugg)
}

// AttrCluster is the attribute that names a GKE cluster.
const AttrCluster = "cluster"

// ClassCluster is what a ComputeClass's checks read of the live cluster.
type ClassCluster struct {
	// Name is the cluster's name (projects/P/locations/L/clusters/C).
	Name string
	// Autopilot is Cluster.autopilot.enabled.
	Autopilot bool
	// Version is the control plane version (Cluster.currentMasterVersion).
	Version string
	// Locations are the zones of the cluster's nodes (Cluster.locations).
	Locations []string
	// AutoProvisioning is Cluster.autoscaling.enableNodeAutoprovisioning.
	AutoProvisioning bool
	// Limits are the maxima of Cluster.autoscaling.resourceLimits by
	// resource type (cpu, memory, nvidia-l4, tpu-v6e-slice).
	Limits map[string]int64
	// Pools are the names of the cluster's node pools.
	Pools []string
}

// ClassNeed is what one priority asks of the cluster: its user-made node
// pools, or the accelerator of the nodes GKE would create for it.
type ClassNeed struct {
	// NodePools is set when the priority names node pools.
	NodePools bool
	// Resource is the accelerator's resource type (the GPU type, or the TPU
	// label), "" for none.
	Resource string
	// TPU tells a TPU label from a GPU type.
	TPU bool
	// PerNode is how many of Resource one node carries; Nodes how many
	// nodes GKE creates at once (the hosts of a TPU slice, else 1).
	PerNode, Nodes int64
}

// ComputeClassOnCluster checks a ComputeClass with node-pool auto-creation
// on (or off) against the cluster it is for: on a Standard cluster before
// AutoCreationWithoutNAP, auto-creation needs node auto-provisioning; on an
// Autopilot cluster a priority cannot name node pools (GKE manages the
// nodes); with node auto-provisioning on, its resource limits must cover
// every accelerator the priorities ask for. The findings of priority i
// carry Index i (on the attribute the caller puts under priority[i]).
func (c *Catalog) ComputeClassOnCluster(cl ClassCluster, autoCreation bool, needs []ClassNeed) (cluster Findings, priorities []Findings) {
	req := c.data.ComputeClass
	priorities = make([]Findings, len(needs))
	if !cl.Autopilot && autoCreation && !cl.AutoProvisioning && cl.Version != "" && olderGKE(cl.Version, req.AutoCreationWithoutNAP) {
		cluster = append(cluster, newFinding(SeverityError, AttrCluster, cl.Name, "Node-Pool Auto-Creation Needs Node Auto-Provisioning", req.AutoCreationSource,
			[]string{req.AutoCreationWithoutNAP},
			fmt.Sprintf("%s is a Standard cluster at GKE %s without node auto-provisioning: before GKE %s, GKE creates a ComputeClass's node pools only on "+
				"clusters with node auto-provisioning. Enable it (google_container_cluster cluster_autoscaling { enabled = true, resource_limits "+
				"for cpu, memory and each accelerator }), or upgrade the cluster to %s or later.", cl.Name, cl.Version, req.AutoCreationWithoutNAP, req.AutoCreationWithoutNAP)))
	}
	for i, n := range needs {
		switch {
		case cl.Autopilot && n.NodePools:
			priorities[i] = append(priorities[i], newRule(AttrNodePools, cl.Name, "Autopilot Clusters Have No Node Pools to Name", c.data.Sources["compute_class_crd"], nil,
				fmt.Sprintf("%s is an Autopilot cluster: GKE creates and manages its nodes, so a priority cannot name node pools. Describe the "+
					"hardware instead (tpu_type, gpu_type, machine_family), or use a Standard cluster for hand-made pools.", cl.Name)))
		case !cl.Autopilot && autoCreation && cl.AutoProvisioning && n.Resource != "" && !n.NodePools:
			priorities[i] = append(priorities[i], c.napLimit(cl, n)...)
		}
	}
	return cluster, priorities
}

// napLimit checks node auto-provisioning's resource limit for a priority's
// accelerator (see the catalog's nap_decision).
func (c *Catalog) napLimit(cl ClassCluster, n ClassNeed) Findings {
	req := c.data.ComputeClass
	attr, need := AttrGPUType, n.PerNode
	if n.TPU {
		attr, need = AttrTPUType, n.PerNode*max(n.Nodes, 1)
	}
	limit, ok := cl.Limits[n.Resource]
	documented := !n.TPU || slices.Contains(req.NAPTPUResourceTypes, n.Resource)
	fix := fmt.Sprintf("add a resource limit to the cluster's node auto-provisioning: gcloud container clusters update %s --enable-autoprovisioning "+
		"--max-accelerator type=%s,count=%d (with its cpu and memory limits), or a resource_limits { resource_type = %q, maximum = %d } block "+
		"in google_container_cluster's cluster_autoscaling", clusterShortName(cl.Name), n.Resource, need, n.Resource, need)
	switch {
	case !ok && documented:
		return Findings{newRule(attr, n.Resource, "No Auto-Provisioning Limit for This Accelerator", req.NAPSource, nil,
			fmt.Sprintf("%s has node auto-provisioning on without a resource limit for %s, so GKE creates no node with it and the priority's pods "+
				"stay Pending; %s.", cl.Name, n.Resource, fix))}
	case !ok:
		return Findings{newFinding(SeverityWarning, attr, n.Resource, "No Auto-Provisioning Limit Found for This TPU", req.NAPSource, nil,
			fmt.Sprintf("%s has node auto-provisioning on and no resource limit named %s; node auto-provisioning's page does not name the "+
				"limit of this TPU, so this is not an error. If GKE does not create the nodes, %s.", cl.Name, n.Resource, fix))}
	case limit < need:
		return Findings{newRule(attr, n.Resource, "Auto-Provisioning Limit Below One Node", req.NAPSource, []string{itoa(int(need))},
			fmt.Sprintf("%s limits %s to %d, but one %s needs %d: GKE never creates it and the priority's pods stay Pending. Raise the limit to "+
				"at least %d (%s).", cl.Name, n.Resource, limit, map[bool]string{true: "slice", false: "node"}[n.TPU], need, need, fix))}
	}
	return nil
}

// clusterShortName is the cluster ID of projects/P/locations/L/clusters/C.
func clusterShortName(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

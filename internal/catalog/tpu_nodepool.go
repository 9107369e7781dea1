// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// PlacementCompact is the only placement_policy type GKE node pools accept.
const PlacementCompact = "COMPACT"

// TPUPoolQuery describes a GKE TPU node pool. Empty strings and zero counts
// mean "not set".
type TPUPoolQuery struct {
	AcceleratorType string // Cloud TPU API form, e.g. "v6e-16"
	MachineType     string // e.g. "ct6e-standard-4t"
	Topology        string // e.g. "4x4" or "2x2x2"
	NodeLocations   []string
	NodeCount       int
	MinNodeCount    int
	MaxNodeCount    int
	GKEVersion      string // cluster or node version; "" = unknown
}

// TPUPoolShape is the node pool layout a TPUPoolQuery resolves to.
type TPUPoolShape struct {
	Accelerator Accelerator
	MachineType string
	Topology    string
	// NodeCount is the number of nodes (hosts) of one slice: the fixed node
	// count of a multi-host pool.
	NodeCount int
	MultiHost bool
	// PlacementPolicy is "COMPACT" for multi-host pools that take
	// placement_policy.tpu_topology, else "".
	PlacementPolicy string
	// PlacementTPUTopology is the value for placement_policy.tpu_topology ("" when not set).
	PlacementTPUTopology string
	// WorkloadPolicy is true when a multi-host pool needs a workload policy
	// (a resource policy with the accelerator topology) instead of tpu_topology (TPU7x).
	WorkloadPolicy bool
	// NodeLabels are the GKE selector labels of the pool's nodes.
	NodeLabels   map[string]string
	ChipsPerNode int
}

// TPUNodePool validates a GKE TPU node pool: machine type against topology
// and node count, the generation in each node location, the minimum GKE
// version, and autoscaling bounds that cannot hold whole slices.
func (c *Catalog) TPUNodePool(q TPUPoolQuery) (TPUPoolShape, Findings) {
	if c.loadErr != nil {
		return TPUPoolShape{}, c.unavailable(AttrMachineType)
	}
	p := &tpuPoolCheck{c: c, q: q}
	if !p.resolveAcceleratorType() {
		return p.shape, p.fs
	}
	if !p.resolveMachineType() {
		return p.shape, p.fs
	}
	if !p.checkGenerationOnGKE() {
		return p.shape, p.fs
	}
	if !p.resolveTopology() {
		return p.shape, p.fs
	}
	if !p.resolveLayout() {
		return p.shape, p.fs
	}
	p.checkSliceNodeCounts()
	p.checkLocationsAndVersion()
	return p.poolShape(), p.fs
}

// tpuPoolCheck carries one TPUNodePool call: the query, what has been
// resolved of it so far, and the findings. Each resolving step reports
// whether the check goes on; a step that ends it leaves the shape to
// return (zero, unless the step describes the pool itself).
type tpuPoolCheck struct {
	c     *Catalog
	q     TPUPoolQuery
	fs    Findings
	shape TPUPoolShape

	g   *Generation
	acc *Accelerator // the accelerator type's slice, nil when not set
	mt  *TPUMachineType

	topo  string
	chips int
	// nodes is the number of nodes of one slice.
	nodes int
}

// resolveAcceleratorType resolves accelerator_type, when set, to its slice
// and generation.
func (p *tpuPoolCheck) resolveAcceleratorType() bool {
	if p.q.AcceleratorType == "" {
		return true
	}
	a, f := p.c.accelerator(p.q.AcceleratorType)
	p.fs = append(p.fs, f...)
	if f.HasErrors() {
		return false
	}
	p.acc = &a
	p.g = p.c.gens[a.Generation]
	return true
}

// resolveMachineType looks machine_type up, when set: a machine type of
// the catalog's tables sets the generation, which must be the accelerator
// type's; one the tables do not list ends the check (see
// resolveUnlistedMachine).
func (p *tpuPoolCheck) resolveMachineType() bool {
	name := p.q.MachineType
	if name == "" {
		return true
	}
	ref, ok := p.c.tpuMachines[name]
	if !ok {
		p.resolveUnlistedMachine()
		return false
	}
	if p.g != nil && ref.gen != p.g {
		p.machineOfOtherGeneration(ref.mt.Source, fmt.Sprintf("a %s machine type", ref.gen.Name))
		return false
	}
	p.g, p.mt = ref.gen, ref.mt
	if p.mt.Status == StatusUnverified {
		p.fs = append(p.fs, newFinding(SeverityWarning, AttrMachineType, name, "Unverified TPU Machine Type", p.mt.Source, nil,
			fmt.Sprintf("%q is not confirmed by Google docs. %s", name, p.mt.Decision)))
	}
	return true
}

// resolveUnlistedMachine handles a machine type the catalog's tables do
// not list: one only GKE's code names describes the pool (when it is of the
// accelerator type's generation); any other is unknown.
func (p *tpuPoolCheck) resolveUnlistedMachine() {
	name := p.q.MachineType
	switch m, code := p.c.codeOnlyTPUMachine(name); {
	case code && p.g != nil && m.Generation != p.g.Name:
		p.machineOfOtherGeneration(m.Source, fmt.Sprintf("a machine type of TPU type %s (GKE's table)", m.AcceleratorLabel))
	case code:
		shape, f := p.c.codeOnlyTPUPool(m, p.acc, p.q)
		p.shape = shape
		p.fs = append(p.fs, f...)
	default:
		// Unknown: an error, or, for a well-formed name that is no near
		// miss of a known one, a warning and the pool created as written.
		p.fs = append(p.fs, p.c.unknownTPUMachine(p.g, p.acc, name))
	}
}

// machineOfOtherGeneration is the error for a machine type of another
// generation than the accelerator type's; what says what the machine type
// is ("a v5e machine type").
func (p *tpuPoolCheck) machineOfOtherGeneration(source, what string) {
	names := p.g.machineNames()
	p.fs = append(p.fs, newFinding(SeverityError, AttrMachineType, p.q.MachineType, "Machine Type Does Not Match Accelerator Type", source, names,
		fmt.Sprintf("%q is %s, but %q is %s; use %s.", p.q.MachineType, what, p.q.AcceleratorType, p.g.Name, quoteList(names))))
}

// checkGenerationOnGKE requires a generation, from accelerator_type or
// machine_type, that GKE offers.
func (p *tpuPoolCheck) checkGenerationOnGKE() bool {
	c, g := p.c, p.g
	if g == nil {
		p.fs = append(p.fs, newRule(AttrAcceleratorType, "", "Missing TPU Shape", c.data.Sources["gke_tpu"], nil,
			"Set accelerator_type (e.g. \"v6e-16\") or machine_type (e.g. \"ct6e-standard-4t\") to describe the TPU node pool."))
		return false
	}
	if g.GKE != nil {
		return true
	}
	var offered []string
	for _, x := range c.data.Generations {
		if x.GKE != nil {
			offered = append(offered, x.Name)
		}
	}
	p.fs = append(p.fs, newFinding(SeverityError, AttrAcceleratorType, p.q.AcceleratorType, "TPU Generation Not Offered in GKE", c.data.Sources["gke_tpu"], nil,
		fmt.Sprintf("%s has no GKE TPU machine types; GKE offers %s.", g.Name, joinAnd(offered))))
	return false
}

// resolveTopology takes the topology as set, else the accelerator type's,
// else the one a single-host machine type implies. Without one, the pool
// is described as a single node and the check ends.
func (p *tpuPoolCheck) resolveTopology() bool {
	switch {
	case p.q.Topology != "":
		if !p.checkGivenTopology() {
			return false
		}
	case p.acc != nil:
		p.topo, p.chips = p.acc.Topology, p.acc.Chips
	case p.mt != nil:
		p.chips = p.mt.Chips
		if s := p.g.sizeWithChips(p.chips); s != nil {
			p.topo = s.Topology
		}
	}
	if p.topo == "" {
		// Only unverified machine types without a documented shape get
		// here: describe the single node and leave the topology unset.
		p.shape = TPUPoolShape{MachineType: p.mt.Name, NodeCount: 1, ChipsPerNode: p.mt.Chips,
			NodeLabels: map[string]string{LabelTPUAccelerator: p.g.GKE.labelOf(p.mt)}}
		return false
	}
	return true
}

// checkGivenTopology checks the topology that is set against the
// generation and against the accelerator type's chip count.
func (p *tpuPoolCheck) checkGivenTopology() bool {
	g, acc, topo := p.g, p.acc, p.q.Topology
	chips, f := p.c.checkTopology(g, topo)
	p.fs = append(p.fs, f...)
	if f.HasErrors() {
		return false
	}
	p.topo, p.chips = topo, chips
	if acc == nil || chips == acc.Chips {
		return true
	}
	sugg := g.topologiesWithChips(acc.Chips)
	detail := fmt.Sprintf("Topology %q has %d chips, but %q has %d", topo, chips, acc.Type, acc.Chips)
	if len(sugg) > 0 {
		detail += fmt.Sprintf("; use %s.", quoteList(sugg))
	} else {
		detail += "."
	}
	p.fs = append(p.fs, newFinding(SeverityError, AttrTopology, topo, "Topology Does Not Match Accelerator Type", g.sourceOf(), sugg, detail))
	return false
}

// resolveLayout lays the topology out on GKE nodes: the machine type that
// is set must hold it; without one, the first layout (documented, fewest
// nodes) chooses the machine type.
func (p *tpuPoolCheck) resolveLayout() bool {
	g := p.g
	layouts := gkeLayouts(g, p.chips)
	if p.mt == nil {
		if len(layouts) == 0 {
			p.fs = append(p.fs, newFinding(SeverityError, AttrTopology, p.topo, "No GKE Machine Type for Topology", g.GKE.LabelSource, nil,
				fmt.Sprintf("No %s GKE machine type holds topology %q (%d chips).", g.Name, p.topo, p.chips)))
			return false
		}
		p.mt, p.nodes = layouts[0].mt, layouts[0].nodes
		return true
	}
	i := slices.IndexFunc(layouts, func(l layout) bool { return l.mt == p.mt })
	if i < 0 {
		p.fs = append(p.fs, p.c.machineTopologyMismatch(p.mt, p.topo, p.chips, layouts))
		return false
	}
	p.nodes = layouts[i].nodes
	return true
}

// multiHost reports whether one slice spans several nodes.
func (p *tpuPoolCheck) multiHost() bool { return p.nodes > 1 }

// checkSliceNodeCounts requires a multi-host pool's node_count to be one
// slice and its autoscaling bounds to be whole slices.
func (p *tpuPoolCheck) checkSliceNodeCounts() {
	if !p.multiHost() {
		return
	}
	q, nodes := p.q, p.nodes
	if q.NodeCount != 0 && q.NodeCount != nodes {
		p.fs = append(p.fs, newFinding(SeverityError, AttrNodeCount, itoa(q.NodeCount), "Node Count Does Not Match Slice", p.c.data.Sources["gke_tpu"], []string{itoa(nodes)},
			fmt.Sprintf("node_count %d does not fit: a multi-host %s pool with topology %s on %s is one slice of exactly %d nodes; set node_count to %d.",
				q.NodeCount, p.g.Name, p.topo, p.mt.Name, nodes, nodes)))
	}
	p.checkAutoscalingBound(AttrMinNodeCount, q.MinNodeCount)
	p.checkAutoscalingBound(AttrMaxNodeCount, q.MaxNodeCount)
}

// checkAutoscalingBound checks one autoscaling bound (attr, n; 0 is not
// set) of a multi-host pool: a whole number of slices, and a maximum of
// one slice.
func (p *tpuPoolCheck) checkAutoscalingBound(attr string, n int) {
	nodes, src := p.nodes, p.c.data.Sources["gke_tpu"]
	switch {
	case n == 0:
	case n%nodes != 0:
		lo, hi := n/nodes*nodes, (n/nodes+1)*nodes
		sugg := []string{itoa(hi)}
		if lo > 0 {
			sugg = []string{itoa(lo), itoa(hi)}
		}
		p.fs = append(p.fs, newFinding(SeverityError, attr, itoa(n), "Autoscaling Bounds Do Not Hold Whole Slices", src, sugg,
			fmt.Sprintf("GKE scales a multi-host TPU pool a whole slice (%d nodes of %s for %s) at a time, so %s %d is not a multiple of %d; use 0 or %d.",
				nodes, p.mt.Name, p.topo, attr, n, nodes, nodes)))
	case attr == AttrMaxNodeCount && n > nodes:
		p.fs = append(p.fs, newFinding(SeverityWarning, attr, itoa(n), "Autoscaling Bound Above One Slice", src, []string{itoa(nodes)},
			fmt.Sprintf("A multi-host TPU node pool holds one slice of %d nodes, so max_node_count %d cannot be reached; use %d and add a node pool per extra slice.",
				nodes, n, nodes)))
	}
}

// checkLocationsAndVersion checks the node locations (the generation in
// each zone, a multi-host slice in one zone) and the GKE version.
func (p *tpuPoolCheck) checkLocationsAndVersion() {
	c, q := p.c, p.q
	p.fs = append(p.fs, c.checkGKEZones(p.g, q.NodeLocations)...)
	if p.multiHost() && len(q.NodeLocations) > 1 {
		f := newFinding(SeverityError, AttrNodeLocations, q.NodeLocations[1], "Multi-Host Slice Needs One Zone", c.data.Sources["gke_tpu"], []string{q.NodeLocations[0]},
			fmt.Sprintf("A multi-host TPU slice (%s, %d nodes of %s) is placed compactly in one zone; set node_locations to exactly one zone, and add a node pool per extra zone.",
				p.topo, p.nodes, p.mt.Name))
		f.Index = 1
		p.fs = append(p.fs, f)
	}
	p.fs = append(p.fs, c.checkGKEVersion(p.g, q.GKEVersion)...)
}

// poolShape is the resolved pool: its slice, nodes, labels and, for a
// multi-host pool, how its slice is placed.
func (p *tpuPoolCheck) poolShape() TPUPoolShape {
	g, mt, topo := p.g, p.mt, p.topo
	shape := TPUPoolShape{
		Accelerator:  p.c.accForChips(g, p.chips, topo),
		MachineType:  mt.Name,
		Topology:     topo,
		NodeCount:    p.nodes,
		MultiHost:    p.multiHost(),
		ChipsPerNode: mt.Chips,
		NodeLabels: map[string]string{
			LabelTPUAccelerator: g.GKE.labelOf(mt),
			LabelTPUTopology:    topo,
		},
	}
	switch {
	case p.multiHost() && g.GKE.WorkloadPolicyMultiHost:
		shape.WorkloadPolicy = true
	case p.multiHost():
		shape.PlacementPolicy = PlacementCompact
		shape.PlacementTPUTopology = topo
	}
	return shape
}

func (g *Generation) sourceOf() string {
	if g.CubeRule != nil {
		return g.CubeRule.Source
	}
	return g.Source
}

// labelOf is the GKE accelerator label of mt's nodes.
func (k *GKETPU) labelOf(mt *TPUMachineType) string {
	if mt != nil && mt.AcceleratorLabel != "" {
		return mt.AcceleratorLabel
	}
	return k.AcceleratorLabel
}

func (g *Generation) machineNames() []string {
	if g.GKE == nil {
		return nil
	}
	var out []string
	for _, m := range g.GKE.MachineTypes {
		if m.Status == StatusDocumented {
			out = append(out, m.Name)
		}
	}
	return out
}

func (g *Generation) sizeWithChips(chips int) *SliceSize {
	for i := range g.Sizes {
		if g.Sizes[i].Chips == chips {
			return &g.Sizes[i]
		}
	}
	return nil
}

func (g *Generation) topologiesWithChips(chips int) []string {
	var out []string
	for _, s := range g.Sizes {
		if s.Chips == chips {
			out = append(out, s.Topology)
		}
	}
	return out
}

// accForChips describes the slice of the given chips and topology.
func (c *Catalog) accForChips(g *Generation, chips int, topo string) Accelerator {
	if s := g.sizeWithChips(chips); s != nil {
		return c.accFromSize(g, s.Size, s.Chips, s.VMs, s.ChipsPerVM, topo)
	}
	cpv := g.multiHostChipsPerVM()
	vms := max(chips/cpv, 1)
	return c.accFromSize(g, chips*g.TensorCoresPerChip, chips, vms, cpv, topo)
}

// unknownTPUMachine is the finding for a machine type that is neither a
// GKE TPU machine type nor one GKE's code names: a warning when the name
// has a TPU machine type's form and is no near miss of a known one (a type
// newer than the catalog), else an error. With an accelerator type
// (acc), the suggestions are the documented machine types of that slice, so
// that they are valid with it; else the nearest names.
func (c *Catalog) unknownTPUMachine(g *Generation, acc *Accelerator, s string) Finding {
	pool := c.tpuMachNames
	if g != nil {
		pool = g.machineNames()
	}
	var sugg []string
	var forSlice []string
	if acc != nil && g != nil {
		for _, l := range gkeLayouts(g, acc.Chips) {
			if l.mt.Status == StatusDocumented {
				forSlice = append(forSlice, l.mt.Name)
			}
		}
	}
	if m, ok := caseMatch(s, c.tpuMachNames); ok && (acc == nil || slices.Contains(forSlice, m)) {
		sugg = []string{m}
	} else if len(forSlice) > 0 {
		sugg = forSlice
	} else {
		sugg = keepChips(s, nearest(s, pool), c.tpuMachines)
	}
	_, upper := caseMatch(s, c.tpuMachNames)
	if !upper && len(nearest(s, c.tpuMachNames)) == 0 && tpuMachineShaped(s) {
		// Well formed, and no typo of a known name: a TPU machine type
		// newer than the catalog, created as written.
		detail := fmt.Sprintf("%q has the form of a GKE TPU machine type, but the catalog (%s) does not know it; known: %s. "+
			"It is created as written, and the API decides.", s, c.data.Date, strings.Join(c.tpuMachNames, ", "))
		if len(forSlice) > 0 {
			detail += fmt.Sprintf(" The machine type the catalog knows for %s is %s.", acc.Type, quoteList(forSlice))
		}
		return newFinding(SeverityWarning, AttrMachineType, s, "Unknown TPU Machine Type", c.data.Sources["gke_tpu"], forSlice, detail)
	}
	detail := fmt.Sprintf("%q is not a GKE TPU machine type", s)
	switch {
	case len(forSlice) > 0 && len(sugg) > 0 && sugg[0] == forSlice[0]:
		detail += fmt.Sprintf("; the machine type of %s (topology %s) is %s.", acc.Type, acc.Topology, quoteList(forSlice))
	case len(sugg) > 0:
		detail += didYouMean(sugg)
	case g != nil:
		detail += fmt.Sprintf("; %s machine types: %s.", g.Name, strings.Join(pool, ", "))
	default:
		detail += fmt.Sprintf("; known: %s.", strings.Join(pool, ", "))
	}
	return newFinding(SeverityError, AttrMachineType, s, "Invalid GKE TPU Machine Type", c.data.Sources["gke_tpu"], sugg, detail)
}

func (c *Catalog) machineTopologyMismatch(mt *TPUMachineType, topo string, chips int, layouts []layout) Finding {
	var sugg []string
	var uses []string
	for _, l := range layouts {
		if l.mt.Status != StatusDocumented {
			continue
		}
		sugg = append(sugg, l.mt.Name)
		if l.nodes == 1 {
			uses = append(uses, fmt.Sprintf("%q", l.mt.Name))
		} else {
			uses = append(uses, fmt.Sprintf("%q (%d nodes)", l.mt.Name, l.nodes))
		}
	}
	var why string
	switch {
	case chips < mt.Chips:
		why = fmt.Sprintf("%q has %d chips per node, more than topology %q (%d chips)", mt.Name, mt.Chips, topo, chips)
	case !mt.MultiHost:
		why = fmt.Sprintf("%q is single-host only (%d chips per node), and topology %q has %d chips", mt.Name, mt.Chips, topo, chips)
	case mt.MultiHostOnly && chips == mt.Chips:
		why = fmt.Sprintf("%q is for multi-host slices only: GKE gives it no single-host topology, and topology %q (%d chips) is one node", mt.Name, topo, chips)
	default:
		why = fmt.Sprintf("topology %q (%d chips) is not a whole number of %q nodes (%d chips each)", topo, chips, mt.Name, mt.Chips)
	}
	detail := why
	if len(uses) > 0 {
		detail += "; use " + joinOr(uses) + "."
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrMachineType, mt.Name, "Machine Type Does Not Match Topology", mt.Source, sugg, detail)
}

// checkTopology validates a GKE TPU topology for generation g and returns its chip count.
func (c *Catalog) checkTopology(g *Generation, s string) (int, Findings) {
	src := g.sourceOf()
	dims, ok := parseTopology(s)
	if !ok {
		var sugg []string
		if guess := strings.ReplaceAll(normalizeGuess(s), "*", "x"); guess != s {
			if d, ok := parseTopology(guess); ok && len(d) == g.TopologyDims {
				sugg = []string{guess}
			}
		}
		detail := fmt.Sprintf("%q is not a topology; %s topologies look like %q", s, g.Name, g.Sizes[0].Topology)
		if len(sugg) > 0 {
			detail += didYouMean(sugg)
		} else {
			detail += "."
		}
		return 0, Findings{newFinding(SeverityError, AttrTopology, s, "Invalid TPU Topology", src, sugg, detail)}
	}
	chips := product(dims)
	if len(dims) != g.TopologyDims {
		sugg := g.topologiesWithChips(chips)
		form := "AxB"
		if g.TopologyDims == 3 {
			form = "AxBxC"
		}
		detail := fmt.Sprintf("%q is not a %s topology: %s topologies are %dD (%s)", s, g.Name, g.Name, g.TopologyDims, form)
		if len(sugg) > 0 {
			detail += didYouMean(sugg)
		} else {
			detail += "."
		}
		return 0, Findings{newFinding(SeverityError, AttrTopology, s, "Invalid TPU Topology", src, sugg, detail)}
	}
	if sz := g.sizeByTopo[s]; sz != nil {
		if sz.Status == StatusUnverified {
			return chips, Findings{newFinding(SeverityWarning, AttrTopology, s, "Unverified TPU Topology", sz.Source, nil,
				fmt.Sprintf("Topology %q of %s is not confirmed by Google docs. %s", s, g.Name, sz.Decision))}
		}
		return chips, nil
	}
	cr := g.CubeRule
	if cr == nil {
		sugg := g.topologiesWithChips(chips)
		if len(sugg) == 0 {
			var all []string
			for _, sz := range g.Sizes {
				all = append(all, sz.Topology)
			}
			sugg = nearest(s, all)
		}
		var valid []string
		for _, sz := range g.Sizes {
			valid = append(valid, sz.Topology)
		}
		detail := fmt.Sprintf("%q is not a %s topology; valid: %s", s, g.Name, strings.Join(valid, ", "))
		if len(sugg) > 0 {
			detail += didYouMean(sugg)
		} else {
			detail += "."
		}
		return 0, Findings{newFinding(SeverityError, AttrTopology, s, "Invalid TPU Topology", src, sugg, detail)}
	}
	return c.checkCubeTopology(g, s, dims)
}

// checkCubeTopology applies the 3D rule: each dimension at most the cube
// edge or a multiple of it, whole cubes above the small shapes, within the
// generation's cube limit, dimensions in ascending order.
func (c *Catalog) checkCubeTopology(g *Generation, s string, dims []int) (int, Findings) {
	cr := g.CubeRule
	chips := product(dims)
	cube := cr.CubeEdge * cr.CubeEdge * cr.CubeEdge
	sortedName := g.canonicalTopology(dims)
	bad := func(why string, sugg []string) (int, Findings) {
		detail := fmt.Sprintf("%q is not a valid %s topology: %s", s, g.Name, why)
		if len(sugg) > 0 {
			detail += didYouMean(sugg)
		} else {
			detail += "."
		}
		return 0, Findings{newFinding(SeverityError, AttrTopology, s, "Invalid TPU Topology", cr.Source, sugg, detail)}
	}
	for _, d := range dims {
		if d > cr.CubeEdge && d%cr.CubeEdge != 0 {
			return bad(fmt.Sprintf("each dimension must be at most %d or a multiple of %d", cr.CubeEdge, cr.CubeEdge), g.topologiesWithChips(chips))
		}
	}
	small := slices.ContainsFunc(cr.SmallTopologies, func(t string) bool { return sameDims(t, dims) })
	whole := true
	for _, d := range dims {
		if d%cr.CubeEdge != 0 {
			whole = false
		}
	}
	if !small && !whole {
		return bad(fmt.Sprintf("shapes other than %s must be whole %s cubes (every dimension a multiple of %d)",
			strings.Join(cr.SmallTopologies, ", "), cubeName(cr.CubeEdge), cr.CubeEdge), g.topologiesWithChips(chips))
	}
	if whole && chips/cube > cr.MaxCubes {
		return bad(fmt.Sprintf("%d cubes of %s exceed the %s maximum of %d", chips/cube, cubeName(cr.CubeEdge), g.Name, cr.MaxCubes), nil)
	}
	var fs Findings
	if whole && chips/cube > cr.DocumentedMaxCubes {
		fs = append(fs, newFinding(SeverityWarning, AttrTopology, s, "Unverified TPU Slice Size", cr.Source, nil,
			fmt.Sprintf("Topology %q (%d cubes) is larger than the largest documented %s slice (%d cubes). %s", s, chips/cube, g.Name, cr.DocumentedMaxCubes, cr.Decision)))
	}
	if sortedName != s {
		fs = append(fs, newFinding(parseSeverity(cr.SortedDims), AttrTopology, s, "Unsorted TPU Topology", cr.Source, []string{sortedName},
			fmt.Sprintf("%q orders the dimensions differently from the documented form %q; use %q.", s, sortedName, sortedName)))
	}
	return chips, fs
}

// checkGKEVersion compares a GKE version with the generation's minimum.
func (c *Catalog) checkGKEVersion(g *Generation, s string) Findings {
	if s == "" || s == "latest" || s == "-" || g.GKE == nil || g.GKE.MinVersion == "" {
		return nil
	}
	v, ok := parseGKEVersion(s)
	if !ok {
		return Findings{newFinding(SeverityWarning, AttrGKEVersion, s, "Unrecognized GKE Version", g.GKE.MinVersionSource, nil,
			fmt.Sprintf("%q is not a GKE version such as \"1.31.2-gke.1115000\", so the %s minimum (%s) is not checked.", s, g.Name, g.GKE.MinVersion))}
	}
	minV, _ := parseGKEVersion(g.GKE.MinVersion)
	if compareGKE(v, minV) < 0 {
		detail := fmt.Sprintf("GKE %s is older than %s, the first version with %s node pools; upgrade the cluster.", s, g.GKE.MinVersion, g.DisplayName)
		if g.GKE.MinVersionDecision != "" {
			detail += " " + g.GKE.MinVersionDecision
		}
		return Findings{newFinding(SeverityError, AttrGKEVersion, s, "GKE Version Too Old for TPU Generation", g.GKE.MinVersionSource,
			[]string{g.GKE.MinVersion}, detail)}
	}
	if g.GKE.RecommendedVersion != "" {
		rec, _ := parseGKEVersion(g.GKE.RecommendedVersion)
		if compareGKE(v, rec) < 0 {
			detail := fmt.Sprintf("GKE %s is older than %s, which some guides require for %s.", s, g.GKE.RecommendedVersion, g.DisplayName)
			if g.GKE.MinVersionDecision != "" {
				detail += " " + g.GKE.MinVersionDecision
			}
			return Findings{newFinding(SeverityWarning, AttrGKEVersion, s, "GKE Version Below Recommended for TPU Generation", g.GKE.MinVersionSource,
				[]string{g.GKE.RecommendedVersion}, detail)}
		}
	}
	return nil
}

// canonicalTopology returns the documented spelling of a shape with the
// same dimensions (e.g. "2x2x1"), or the dimensions in ascending order.
func (g *Generation) canonicalTopology(dims []int) string {
	for _, sz := range g.Sizes {
		if sameDims(sz.Topology, dims) {
			return sz.Topology
		}
	}
	sorted := slices.Clone(dims)
	slices.Sort(sorted)
	return formatTopology(sorted)
}

// sameDims reports whether topology t has the same dimensions as dims in any order.
func sameDims(t string, dims []int) bool {
	td, ok := parseTopology(t)
	if !ok || len(td) != len(dims) {
		return false
	}
	a, b := slices.Clone(td), slices.Clone(dims)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// keepChips orders machine-type suggestions so that those with the chip
// count the input names ("-8t") come first and drops those with another
// count, unless none has it: a did-you-mean must not change the slice.
func keepChips(input string, sugg []string, machines map[string]tpuMachineRef) []string {
	want := machineChips(input)
	if want == 0 || len(sugg) == 0 {
		return sugg
	}
	var same []string
	for _, s := range sugg {
		if ref, ok := machines[s]; ok && ref.mt.Chips == want {
			same = append(same, s)
		}
	}
	if len(same) == 0 {
		return sugg
	}
	return same
}

// machineChips is the chip count a TPU machine type name ends with
// ("ct6e-standard-4t" is 4), or 0.
func machineChips(name string) int {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || !strings.HasSuffix(name, "t") {
		return 0
	}
	n, ok := parseUint(name[i+1:len(name)-1], 3)
	if !ok {
		return 0
	}
	return n
}

// tpuMachineShaped reports whether name has the form of GKE's TPU machine
// types: a ct<digit>… or tpu<digit>… series, a kind, and a chip count
// ending in t ("ct6e-standard-4t", "tpu7x-standard-1t").
func tpuMachineShaped(name string) bool {
	parts := strings.Split(name, "-")
	if len(parts) != 3 || !strings.HasSuffix(parts[2], "t") || !allDigits(strings.TrimSuffix(parts[2], "t")) || parts[2] == "t" || !allLower(parts[1]) {
		return false
	}
	series := parts[0]
	for _, p := range []string{"ct", "tpu"} {
		if rest, ok := strings.CutPrefix(series, p); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			for _, r := range rest {
				if (r < '0' || r > '9') && (r < 'a' || r > 'z') {
					return false
				}
			}
			return true
		}
	}
	return false
}

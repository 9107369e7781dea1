// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Attribute names used in findings.
const (
	AttrAcceleratorType  = "accelerator_type"
	AttrRuntimeVersion   = "runtime_version"
	AttrFramework        = "framework"
	AttrFrameworkVersion = "framework_version"
	AttrZones            = "zones"
	AttrMachineType      = "machine_type"
	AttrTopology         = "topology"
	AttrGPUType          = "gpu_type"
	AttrGPUCount         = "gpu_count"
	AttrGPUDriverVersion = "gpu_driver_version"
	AttrNodeLocations    = "node_locations"
	AttrMinNodeCount     = "min_node_count"
	AttrMaxNodeCount     = "max_node_count"
	AttrNodeCount        = "node_count"
	AttrGKEVersion       = "gke_version"
)

// Accelerator describes one TPU accelerator type: a slice of one generation.
type Accelerator struct {
	// Type is the Cloud TPU API accelerator type, e.g. "v6e-8".
	Type string
	// Generation is the generation name, e.g. "v5e" for "v5litepod-4".
	Generation   string
	TensorCores  int
	Chips        int
	Hosts        int // TPU VMs (workers) in the slice
	ChipsPerHost int // chips per TPU VM
	Topology     string
	// MultiHost is true when the slice spans more than one TPU VM.
	MultiHost bool
	// TPUAPISupported says whether the Cloud TPU API can create the generation.
	TPUAPISupported bool
	// TPUAPIType is the AcceleratorConfig.Type enum value ("" when unsupported).
	TPUAPIType string
	// GKEMachineType and GKENodeCount give the default GKE layout of the
	// slice (empty and 0 when GKE does not offer the generation).
	GKEMachineType string
	GKEAccelerator string // value of the cloud.google.com/gke-tpu-accelerator label
	GKENodeCount   int
}

func newFinding(sev Severity, attr, value, summary, source string, sugg []string, detail string) Finding {
	if len(value) > maxShownValue {
		// A value no name is as long as (a pasted file, say) is quoted by
		// its beginning: the diagnostic stays readable and small.
		short := shownPrefix(value)
		for _, r := range [][2]string{{strconv.Quote(value), strconv.Quote(short)}, {value, short}} {
			detail, summary = strings.ReplaceAll(detail, r[0], r[1]), strings.ReplaceAll(summary, r[0], r[1])
		}
		detail += fmt.Sprintf(" The value is %d bytes long; its first %d are shown.", len(value), len(short)-len("…"))
		value = short
	}
	return Finding{
		Attribute:   attr,
		Index:       -1,
		Value:       value,
		Summary:     summary,
		Detail:      detail,
		Suggestions: sugg,
		Severity:    sev,
		Source:      source,
	}
}

// maxShownValue bounds how many bytes of a value a finding quotes: more
// than any name or image URL the catalog checks has.
const maxShownValue = 256

// shownPrefix is the first maxShownValue bytes of v (cut at a character
// boundary) followed by "…".
func shownPrefix(v string) string {
	n := maxShownValue
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return v[:n] + "…"
}

// Accelerator parses and validates a Cloud TPU accelerator type such as
// "v6e-4", "v5litepod-16", "v4-8" or "tpu7x-8". Findings use the attribute
// "accelerator_type". Case is never folded: "V6E-4" is an error with a
// did-you-mean.
func (c *Catalog) Accelerator(acceleratorType string) (Accelerator, Findings) {
	if c.loadErr != nil {
		return Accelerator{}, c.unavailable(AttrAcceleratorType)
	}
	return c.accelerator(acceleratorType)
}

func (c *Catalog) accelerator(s string) (Accelerator, Findings) {
	src := c.data.Sources["accelerator_types"]
	if s == "" {
		return Accelerator{}, Findings{newFinding(SeverityError, AttrAcceleratorType, s,
			"Missing TPU Accelerator Type", src, nil,
			`No TPU accelerator type is set; use <generation>-<size> such as "v6e-8" or "v5litepod-4".`)}
	}
	if prefix, n, ok := parseAcceleratorType(s); ok {
		if g := c.genByPrefix[prefix]; g != nil {
			return c.sizeOf(g, s, n)
		}
		if g := c.genByAlias[prefix]; g != nil {
			want := typeName(g, n)
			sugg := []string{want}
			if _, fs := c.sizeOf(g, want, n); fs.HasErrors() {
				sugg = c.closestTypes(g, n)
			}
			return Accelerator{}, Findings{newFinding(SeverityError, AttrAcceleratorType, s,
				"Invalid TPU Accelerator Type", g.Source, sugg,
				fmt.Sprintf("%q is not a Cloud TPU API accelerator type: %s types are named %s-<%s>%s",
					s, g.Name, g.APIPrefix, sizeWord(g), didYouMean(sugg)))}
		}
	}
	if guess := normalizeGuess(s); guess != s {
		if prefix, n, ok := parseAcceleratorType(guess); ok {
			g := c.genByPrefix[prefix]
			if g == nil {
				g = c.genByAlias[prefix]
			}
			if g != nil {
				want := typeName(g, n)
				if _, fs := c.sizeOf(g, want, n); !fs.HasErrors() {
					return Accelerator{}, Findings{newFinding(SeverityError, AttrAcceleratorType, s,
						"Invalid TPU Accelerator Type", g.Source, []string{want},
						fmt.Sprintf("%q is not a TPU accelerator type (names are lower case, without spaces)%s",
							s, didYouMean([]string{want})))}
				}
			}
		}
	}
	sugg := nearest(s, c.typeNames)
	prefixes := make([]string, 0, len(c.data.Generations))
	for _, g := range c.data.Generations {
		prefixes = append(prefixes, g.APIPrefix)
	}
	detail := fmt.Sprintf("%q is not a TPU accelerator type; use <generation>-<size> with a generation prefix of %s, such as \"v6e-8\" or \"v5litepod-4\"",
		s, joinOr(prefixes))
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return Accelerator{}, Findings{newFinding(SeverityError, AttrAcceleratorType, s,
		"Invalid TPU Accelerator Type", src, sugg, detail)}
}

func sizeWord(g *Generation) string {
	if g.SizeUnit == "chips" {
		return "chips"
	}
	return "TensorCores"
}

// sizeOf validates size n of generation g; s is the type as written.
func (c *Catalog) sizeOf(g *Generation, s string, n int) (Accelerator, Findings) {
	if sz := g.sizeByN[n]; sz != nil {
		a := c.accFromSize(g, sz.Size, sz.Chips, sz.VMs, sz.ChipsPerVM, sz.Topology)
		if sz.Status == StatusUnverified {
			return a, Findings{newFinding(SeverityWarning, AttrAcceleratorType, s,
				"Unverified TPU Accelerator Type", sz.Source, nil,
				fmt.Sprintf("%q (%s) is not confirmed by Google docs. %s", s, sz.Topology, sz.Decision))}
		}
		return a, nil
	}
	if cr := g.CubeRule; cr != nil && n%g.TensorCoresPerChip == 0 && cr.CubeEdge > 0 {
		chips := n / g.TensorCoresPerChip
		cube := cr.CubeEdge * cr.CubeEdge * cr.CubeEdge
		if chips%cube == 0 && chips/cube >= 1 && chips/cube <= cr.MaxCubes {
			k := chips / cube
			cpv := g.multiHostChipsPerVM()
			a := c.accFromSize(g, n, chips, chips/cpv, cpv, formatTopology(cubeTopology(k, cr.CubeEdge)))
			if k > cr.DocumentedMaxCubes {
				return a, Findings{newFinding(SeverityWarning, AttrAcceleratorType, s,
					"Unverified TPU Slice Size", cr.Source, nil,
					fmt.Sprintf("%q (%d cubes of %s) is larger than the largest documented %s slice (%d cubes). %s",
						s, k, cubeName(cr.CubeEdge), g.Name, cr.DocumentedMaxCubes, cr.Decision))}
			}
			return a, nil
		}
	}
	sugg := c.closestTypes(g, n)
	detail := fmt.Sprintf("%q is not a %s size; valid: %s", s, g.Name, strings.Join(c.AcceleratorTypes(g.Name), ", "))
	if cr := g.CubeRule; cr != nil {
		cube := cr.CubeEdge * cr.CubeEdge * cr.CubeEdge * g.TensorCoresPerChip
		detail += fmt.Sprintf(", or any whole number of %s cubes (a multiple of %s) up to %s",
			cubeName(cr.CubeEdge), typeName(g, cube), typeName(g, cube*cr.MaxCubes))
	}
	detail += "."
	src := g.Source
	if g.CubeRule != nil {
		src = g.CubeRule.Source
	}
	return Accelerator{}, Findings{newFinding(SeverityError, AttrAcceleratorType, s,
		"Invalid TPU Accelerator Type", src, sugg, detail)}
}

func cubeName(edge int) string { return formatTopology([]int{edge, edge, edge}) }

// multiHostChipsPerVM is the chips per VM of the generation's multi-host slices.
func (g *Generation) multiHostChipsPerVM() int {
	cpv := 4
	for _, s := range g.Sizes {
		if s.VMs > 1 {
			cpv = s.ChipsPerVM
		}
	}
	return cpv
}

func (c *Catalog) closestTypes(g *Generation, n int) []string {
	sizes := make([]int, 0, len(g.Sizes))
	for _, s := range g.Sizes {
		if s.Status == StatusDocumented {
			sizes = append(sizes, s.Size)
		}
	}
	var out []string
	for _, v := range closestInts(n, sizes) {
		out = append(out, typeName(g, v))
	}
	return out
}

func (c *Catalog) accFromSize(g *Generation, size, chips, vms, cpv int, topo string) Accelerator {
	a := Accelerator{
		Type:            typeName(g, size),
		Generation:      g.Name,
		TensorCores:     chips * g.TensorCoresPerChip,
		Chips:           chips,
		Hosts:           vms,
		ChipsPerHost:    cpv,
		Topology:        topo,
		MultiHost:       vms > 1,
		TPUAPISupported: g.TPUAPI.Supported,
		TPUAPIType:      g.TPUAPI.Type,
	}
	if g.GKE != nil {
		a.GKEAccelerator = g.GKE.AcceleratorLabel
		if l := gkeLayouts(g, chips); len(l) > 0 {
			a.GKEAccelerator = g.GKE.labelOf(l[0].mt)
			a.GKEMachineType = l[0].mt.Name
			a.GKENodeCount = l[0].nodes
		}
	}
	return a
}

// cubeTopology returns the most cubic A<=B<=C shape of k cubes.
func cubeTopology(k, edge int) []int {
	best := []int{1, 1, k}
	for a := 1; a*a*a <= k; a++ {
		if k%a != 0 {
			continue
		}
		for b := a; a*b*b <= k; b++ {
			if (k/a)%b != 0 {
				continue
			}
			c := k / a / b
			if c < best[2] || (c == best[2] && a > best[0]) {
				best = []int{a, b, c}
			}
		}
	}
	return []int{best[0] * edge, best[1] * edge, best[2] * edge}
}

// layout is one way to build a slice from GKE nodes.
type layout struct {
	mt    *TPUMachineType
	nodes int
}

// gkeLayouts lists the GKE layouts of a slice with the given chips:
// documented machine types first, fewest nodes first.
func gkeLayouts(g *Generation, chips int) []layout {
	if g.GKE == nil || chips <= 0 {
		return nil
	}
	var docs, unverified []layout
	for i := range g.GKE.MachineTypes {
		m := &g.GKE.MachineTypes[i]
		var l layout
		switch {
		case chips == m.Chips && !m.MultiHostOnly:
			l = layout{m, 1}
		case m.MultiHost && chips > m.Chips && chips%m.Chips == 0:
			l = layout{m, chips / m.Chips}
		default:
			continue
		}
		if m.Status == StatusUnverified {
			unverified = append(unverified, l)
		} else {
			docs = append(docs, l)
		}
	}
	sortLayouts(docs)
	sortLayouts(unverified)
	return append(docs, unverified...)
}

func sortLayouts(l []layout) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j].nodes < l[j-1].nodes; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

// GKELayout is one way GKE builds a TPU slice from nodes.
type GKELayout struct {
	MachineType string
	Nodes       int
	// Unverified is true when only code or third-party sources name the machine type.
	Unverified bool
}

// GKELayouts lists the GKE node pool layouts of an accelerator type, best
// first (documented machine types, fewest nodes). It is empty for invalid
// types and generations GKE does not offer.
func (c *Catalog) GKELayouts(acceleratorType string) []GKELayout {
	if c.loadErr != nil {
		return nil
	}
	a, fs := c.accelerator(acceleratorType)
	if fs.HasErrors() {
		return nil
	}
	var out []GKELayout
	for _, l := range gkeLayouts(c.gens[a.Generation], a.Chips) {
		out = append(out, GKELayout{MachineType: l.mt.Name, Nodes: l.nodes, Unverified: l.mt.Status == StatusUnverified})
	}
	return out
}

// TPUAPIType returns the Cloud TPU API AcceleratorConfig.Type enum value of
// an accelerator type (such as "V6E" for "v6e-8"). A generation without an
// enum value is an error that says why and what to use instead.
func (c *Catalog) TPUAPIType(acceleratorType string) (string, Findings) {
	a, fs := c.Accelerator(acceleratorType)
	if fs.HasErrors() {
		return "", fs
	}
	if a.TPUAPIType != "" {
		return a.TPUAPIType, fs
	}
	g := c.gens[a.Generation]
	instead := fmt.Sprintf("set accelerator_type = %q instead of accelerator_config", a.Type)
	if !g.TPUAPI.Supported && g.TPUAPI.ConflictSource == "" {
		instead = "create the slice in GKE"
	}
	if a.GKEMachineType != "" {
		instead += fmt.Sprintf(", or use a GKE node pool with accel_fallback_nodepools (machine type %s)", a.GKEMachineType)
	}
	return "", append(fs, newFinding(SeverityError, AttrAcceleratorType, acceleratorType, "No Cloud TPU API Type Enum",
		c.data.Sources["tpu_api_type"], nil,
		fmt.Sprintf("The Cloud TPU API's AcceleratorConfig.Type enum has no value for %s (%q); %s.", g.DisplayName, acceleratorType, instead)))
}

// AcceleratorTypeHint says what a Cloud TPU accelerator type looks like,
// for a diagnostic about a missing or empty one.
func (c *Catalog) AcceleratorTypeHint() string {
	return fmt.Sprintf("Set a Cloud TPU accelerator type, <generation>-<size> as the TPU API names it, such as \"v6e-4\" or "+
		"\"v5litepod-8\" (generation prefixes: %s).", strings.Join(c.APIPrefixes(), ", "))
}

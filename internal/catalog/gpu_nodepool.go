// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GPUPoolQuery describes a GKE GPU node pool. Empty strings and zero counts mean "not set".
type GPUPoolQuery struct {
	MachineType   string
	GPUType       string
	GPUCount      int
	DriverVersion string
	NodeLocations []string
	// Topology is a TPU topology set on the pool; GKE's placement policy
	// takes one only for TPU slices.
	Topology string
}

// GPUPoolShape is the GPU node pool a GPUPoolQuery resolves to.
type GPUPoolShape struct {
	MachineType   string
	GPUType       string
	GPUCount      int
	DriverVersion string
	// NodeLabels are the GKE selector labels of the pool's nodes.
	NodeLabels map[string]string
}

// GPUNodePool validates a GKE GPU node pool: the machine type against the
// GPU type and count (derived when omitted for machine types with built-in
// GPUs), the driver version value, and the form of each node location.
func (c *Catalog) GPUNodePool(q GPUPoolQuery) (GPUPoolShape, Findings) {
	var shape GPUPoolShape
	if c.loadErr != nil {
		return shape, c.unavailable(AttrMachineType)
	}
	var fs Findings
	src := c.data.Sources["gpu_machine_types"]
	if q.GPUType != "" && c.gpuTypes[q.GPUType] == nil {
		fs = append(fs, c.unknownGPUType(q.GPUType))
	}
	gpuTypeOK := q.GPUType == "" || c.gpuTypes[q.GPUType] != nil
	if q.Topology != "" {
		fs = append(fs, newRule(AttrTopology, q.Topology, "Topology Set on a GPU Tier", c.data.Sources["gke_tpu"], nil,
			"topology describes TPU slices; remove it from the GPU tier, or set accelerator_type to make the tier a TPU tier."))
	}
	if q.GPUCount < 0 {
		fs = append(fs, newRule(AttrGPUCount, itoa(q.GPUCount), "Invalid GPU Count", src, nil,
			fmt.Sprintf("gpu_count %d is negative; use a positive count.", q.GPUCount)))
	}
	switch m, att := c.gpuMachines[q.MachineType], c.attachmentFor(q.MachineType, q.GPUType); {
	case q.MachineType == "":
		fs = append(fs, newRule(AttrMachineType, "", "Missing Machine Type", src, nil,
			"Set machine_type to a GPU machine type such as \"g2-standard-4\" or \"a3-highgpu-8g\"."))
	case m != nil:
		shape.MachineType, shape.GPUType, shape.GPUCount = m.Name, m.GPUType, m.GPUCount
		fs = append(fs, c.checkFixedGPU(m, q, gpuTypeOK)...)
	case att != nil:
		shape.MachineType, shape.GPUType, shape.GPUCount = q.MachineType, q.GPUType, q.GPUCount
		fs = append(fs, c.checkAttachedGPU(att, q, gpuTypeOK)...)
		fs = append(fs, c.checkVCPULimit(att, q)...)
	default:
		f := c.unknownGPUMachine(q.MachineType)
		if f.Severity == SeverityWarning {
			// Newer than the catalog: created as written.
			shape.MachineType, shape.GPUType, shape.GPUCount = q.MachineType, q.GPUType, q.GPUCount
		}
		fs = append(fs, f)
	}
	fs = append(fs, c.checkDriverVersion(q.DriverVersion)...)
	shape.DriverVersion = q.DriverVersion
	fs = append(fs, c.checkZones(nil, "", q.NodeLocations, AttrNodeLocations)...)
	if shape.GPUType != "" {
		shape.NodeLabels = map[string]string{LabelGPUAccelerator: shape.GPUType}
	}
	return shape, fs
}

// attachmentFor returns the attachment rule of a machine family for a GPU
// type: the family's entry that lists gpuType, else one entry with every
// GPU type the family takes (for the findings that list them).
func (c *Catalog) attachmentFor(machine, gpuType string) *GPUAttachment {
	var family []*GPUAttachment
	for i := range c.data.GPU.Attachable {
		a := &c.data.GPU.Attachable[i]
		if strings.HasPrefix(machine, a.MachinePrefix) && len(machine) > len(a.MachinePrefix) {
			if slices.Contains(a.GPUTypes, gpuType) {
				return a
			}
			family = append(family, a)
		}
	}
	switch len(family) {
	case 0:
		return nil
	case 1:
		return family[0]
	}
	all := *family[0]
	all.GPUTypes = slices.Clone(all.GPUTypes)
	for _, a := range family[1:] {
		all.GPUTypes = append(all.GPUTypes, a.GPUTypes...)
		all.Decision += " " + a.Decision
		for _, n := range a.Counts {
			if !slices.Contains(all.Counts, n) {
				all.Counts = append(all.Counts, n)
			}
		}
	}
	slices.Sort(all.Counts)
	return &all
}

// checkFixedGPU checks gpu_type and gpu_count against a machine type with built-in GPUs.
func (c *Catalog) checkFixedGPU(m *GPUMachineType, q GPUPoolQuery, gpuTypeOK bool) Findings {
	var fs Findings
	if m.Status == StatusUnverified {
		fs = append(fs, newFinding(SeverityWarning, AttrMachineType, m.Name, "Unverified GPU Machine Type", m.Source, nil,
			fmt.Sprintf("The GPU count of %q is uncertain. %s", m.Name, m.Decision)))
	}
	if q.GPUType != "" && gpuTypeOK && q.GPUType != m.GPUType {
		if slices.Contains(m.ConflictingGPUTypes, q.GPUType) {
			fs = append(fs, newFinding(SeverityWarning, AttrGPUType, q.GPUType, "Conflicting GPU Type Label", m.Source, []string{m.GPUType},
				fmt.Sprintf("gpu_type %q: %q comes with %s; sources disagree on the label, and %q is sent as written. %s", q.GPUType, m.Name, m.GPUType, q.GPUType, m.Decision)))
		} else {
			sugg := []string{m.GPUType}
			detail := fmt.Sprintf("%q comes with %s, not %s; remove gpu_type or set it to %q.", m.Name, m.GPUType, q.GPUType, m.GPUType)
			if alt := c.gpuMachinesFor(q.GPUType, q.GPUCount); len(alt) > 0 {
				detail += fmt.Sprintf(" For %s use %s.", q.GPUType, quoteList(alt))
			}
			fs = append(fs, newFinding(SeverityError, AttrGPUType, q.GPUType, "GPU Type Does Not Match Machine Type", m.Source, sugg, detail))
		}
	}
	if q.GPUCount > 0 && q.GPUCount != m.GPUCount {
		detail := fmt.Sprintf("%q has %d built-in %s, not %d; remove gpu_count or set it to %d.", m.Name, m.GPUCount, plural(m.GPUCount, "GPU"), q.GPUCount, m.GPUCount)
		if alt := c.gpuMachinesFor(m.GPUType, q.GPUCount); len(alt) > 0 {
			detail += fmt.Sprintf(" For %d %s %s use %s.", q.GPUCount, m.GPUType, plural(q.GPUCount, "GPU"), quoteList(alt))
		}
		fs = append(fs, newFinding(SeverityError, AttrGPUCount, itoa(q.GPUCount), "GPU Count Does Not Match Machine Type", m.Source,
			[]string{itoa(m.GPUCount)}, detail))
	}
	return fs
}

// gpuMachinesFor lists documented machine types with count GPUs of gpuType
// (any count when count is 0) in the same family as the catalog order.
func (c *Catalog) gpuMachinesFor(gpuType string, count int) []string {
	var out []string
	for _, m := range c.data.GPU.MachineTypes {
		if m.GPUType == gpuType && (count == 0 || m.GPUCount == count) && m.Status == StatusDocumented {
			out = append(out, m.Name)
		}
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// n1Sizes are the vCPU counts of the predefined N1 machine types
// (https://cloud.google.com/compute/docs/general-purpose-machines#n1_machines).
var n1Sizes = []int{96, 64, 32, 16, 8, 4, 2, 1}

// machineVCPUs reads the vCPU count from a predefined or custom machine
// type name ("n1-standard-32", "n1-custom-8-30720"); false when the name
// does not give it.
func machineVCPUs(name string) (int, bool) {
	parts := strings.Split(name, "-")
	if len(parts) < 3 {
		return 0, false
	}
	field := parts[len(parts)-1]
	if parts[1] == "custom" {
		field = parts[2]
	}
	n, err := strconv.Atoi(field)
	return n, err == nil && n > 0
}

// checkVCPULimit reports more vCPUs than the machine family takes with the
// attached GPUs (GPUCatalog.MaxVCPUs): an error on machine_type naming the
// largest predefined machine type of the same series within the limit and
// the GPU counts that allow the configured one.
func (c *Catalog) checkVCPULimit(a *GPUAttachment, q GPUPoolQuery) Findings {
	vcpus, ok := machineVCPUs(q.MachineType)
	if !ok || q.GPUCount <= 0 {
		return nil
	}
	for _, l := range c.data.GPU.MaxVCPUs {
		if l.GPUType != q.GPUType || !strings.HasPrefix(q.MachineType, l.MachinePrefix) {
			continue
		}
		limit, known := l.PerCount[itoa(q.GPUCount)]
		if !known || vcpus <= limit {
			return nil
		}
		var counts []string
		for _, n := range a.Counts {
			if m, ok := l.PerCount[itoa(n)]; ok && m >= vcpus {
				counts = append(counts, itoa(n))
			}
		}
		var sugg []string
		series := strings.Join(strings.Split(q.MachineType, "-")[:2], "-")
		for _, n := range n1Sizes {
			if series != "n1-custom" && n <= limit && (n != 1 || series == "n1-standard") {
				sugg = append(sugg, fmt.Sprintf("%s-%d", series, n))
				break
			}
		}
		detail := fmt.Sprintf("%q has %d vCPUs, but an N1 VM with %d %s %s takes at most %d vCPUs.", q.MachineType, vcpus, q.GPUCount, q.GPUType, plural(q.GPUCount, "GPU"), limit)
		fix := fmt.Sprintf(" Use a machine type with at most %d vCPUs", limit)
		if len(sugg) > 0 {
			fix = fmt.Sprintf(" Use %q", sugg[0])
		}
		if len(counts) > 0 {
			fix += fmt.Sprintf(", or keep %q with gpu_count %s", q.MachineType, joinOr(counts))
		}
		detail += fix + "."
		return Findings{newFinding(SeverityError, AttrMachineType, q.MachineType, "Too Many vCPUs for the GPUs", l.Source, sugg, detail+" "+c.data.GPU.MaxVCPUsDecision)}
	}
	return nil
}

// checkAttachedGPU checks attached GPUs on a machine family such as N1.
func (c *Catalog) checkAttachedGPU(a *GPUAttachment, q GPUPoolQuery, gpuTypeOK bool) Findings {
	var fs Findings
	family := strings.TrimSuffix(a.MachinePrefix, "-")
	switch {
	case q.GPUType == "":
		fs = append(fs, newRule(AttrGPUType, "", "Missing GPU Type", a.Source, a.GPUTypes,
			fmt.Sprintf("%q has no built-in GPUs; set gpu_type to %s.", q.MachineType, quoteList(a.GPUTypes))))
	case !gpuTypeOK || slices.Contains(a.GPUTypes, q.GPUType):
	case len(c.gpuMachinesFor(q.GPUType, 0)) > 0:
		builtin := c.gpuMachinesFor(q.GPUType, 0)
		fs = append(fs, newFinding(SeverityError, AttrGPUType, q.GPUType, "GPU Type Not Attachable", c.gpuMachines[builtin[0]].Source, a.GPUTypes,
			fmt.Sprintf("%s is built into other machine types (such as %s) and cannot be attached to %s machine types; use one of those machine types, or attach %s.",
				q.GPUType, quoteList(builtin), family, quoteList(a.GPUTypes))))
	default:
		fs = append(fs, newFinding(SeverityWarning, AttrGPUType, q.GPUType, "Unverified GPU Attachment", a.Source, a.GPUTypes,
			fmt.Sprintf("The catalog knows only %s on %s machine types. %s", joinAnd(a.GPUTypes), family, a.Decision)))
	}
	switch {
	case q.GPUCount == 0:
		fs = append(fs, newRule(AttrGPUCount, "", "Missing GPU Count", a.Source, intStrings(a.Counts),
			fmt.Sprintf("%q has no built-in GPUs; set gpu_count to %s.", q.MachineType, joinOr(intStrings(a.Counts)))))
	case q.GPUCount > 0 && !slices.Contains(a.Counts, q.GPUCount) && slices.Contains(a.GPUTypes, q.GPUType):
		// Compute Engine's GPU table lists the counts of this very GPU type.
		fs = append(fs, newFinding(SeverityError, AttrGPUCount, itoa(q.GPUCount), "Invalid GPU Count", a.Source,
			intStrings(closestInts(q.GPUCount, a.Counts)),
			fmt.Sprintf("Compute Engine attaches %s to %s VMs %s at a time, not %d. %s",
				q.GPUType, family, joinOr(intStrings(a.Counts)), q.GPUCount, a.Decision)))
	case q.GPUCount > 0 && !slices.Contains(a.Counts, q.GPUCount):
		fs = append(fs, newFinding(SeverityWarning, AttrGPUCount, itoa(q.GPUCount), "Unverified GPU Count", a.Source,
			intStrings(closestInts(q.GPUCount, a.Counts)),
			fmt.Sprintf("%d is not a GPU count the catalog knows for %s machine types (%s). %s",
				q.GPUCount, family, joinOr(intStrings(a.Counts)), a.Decision)))
	}
	return fs
}

func (c *Catalog) unknownGPUType(s string) Finding {
	var sugg []string
	if m, ok := caseMatch(s, c.gpuNames); ok {
		sugg = []string{m}
	} else if sugg = sameModel(s, c.gpuNames); len(sugg) == 0 {
		sugg = nearest(s, c.gpuNames)
	}
	detail := fmt.Sprintf("%q is not a GKE GPU type; known: %s", s, strings.Join(c.gpuNames, ", "))
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrGPUType, s, "Unknown GPU Type", c.data.Sources["gpu_machine_types"], sugg, detail)
}

func (c *Catalog) unknownGPUMachine(s string) Finding {
	names := make([]string, 0, len(c.data.GPU.MachineTypes))
	for _, m := range c.data.GPU.MachineTypes {
		names = append(names, m.Name)
	}
	var sugg []string
	if m, ok := caseMatch(s, names); ok {
		sugg = []string{m}
	} else {
		sugg = nearest(s, names)
	}
	if _, upper := caseMatch(s, names); !upper && len(sugg) == 0 && gpuMachineShaped(s) {
		return newFinding(SeverityWarning, AttrMachineType, s, "Unknown GPU Machine Type", c.data.Sources["gpu_machine_types"], nil,
			fmt.Sprintf("%q has the form of an accelerator-optimized GPU machine type, but the catalog (%s) does not know it, nor its GPUs; "+
				"it is created as written (set gpu_type and gpu_count for the node labels and the ComputeClass), and the API decides.", s, c.data.Date))
	}
	detail := fmt.Sprintf("%q is not a GPU machine type the catalog knows; use a machine type with built-in GPUs (g2, g4, a2, a3, a4, a4x) or an N1 machine type with attached GPUs", s)
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrMachineType, s, "Invalid GPU Machine Type", c.data.Sources["gpu_machine_types"], sugg, detail)
}

func intStrings(v []int) []string {
	out := make([]string, len(v))
	for i, n := range v {
		out[i] = itoa(n)
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// sameModel returns the GPU types that name the same model as s: those that
// contain the last part of s ("a100" of "nvidia-a100") as one of their own
// parts, so that a model name never suggests another model that happens to
// be fewer edits away.
func sameModel(s string, names []string) []string {
	t := normalizeGuess(s)
	model := t[strings.LastIndexByte(t, '-')+1:]
	if len(model) < 2 {
		return nil
	}
	var out []string
	for _, n := range names {
		if slices.Contains(strings.Split(n, "-"), model) {
			out = append(out, n)
		}
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// gpuMachineShaped reports whether name has the form of Compute Engine's
// accelerator-optimized machine types: a series of a letter and digits
// (a3, a4x, a5x), a kind ending in "gpu" (highgpu, ultragpu, maxgpu) and a
// GPU count ending in g, with optional suffixes ("a4x-maxgpu-4g-metal").
func gpuMachineShaped(name string) bool {
	parts := strings.Split(name, "-")
	if len(parts) < 3 || len(parts[0]) < 2 || !isLower(parts[0][0]) || !isDigit(parts[0][1]) {
		return false
	}
	for i := 2; i < len(parts[0]); i++ {
		if !isLower(parts[0][i]) && !isDigit(parts[0][i]) {
			return false
		}
	}
	count, ok := strings.CutSuffix(parts[2], "g")
	return ok && allDigits(count) && strings.HasSuffix(parts[1], "gpu") && allLower(parts[1])
}

// checkDriverVersion checks a GKE GPU driver version value ("" is not set).
func (c *Catalog) checkDriverVersion(v string) Findings {
	if v == "" || c.drivers[v] {
		return nil
	}
	vals := c.GPUDriverVersionValues()
	var sugg []string
	if m, ok := caseMatch(v, vals); ok {
		sugg = []string{m}
	} else {
		sugg = nearest(v, vals)
	}
	detail := fmt.Sprintf("%q is not a GKE GPU driver version; use %s", v, quoteList(vals))
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return Findings{newFinding(SeverityError, AttrGPUDriverVersion, v, "Invalid GPU Driver Version",
		c.data.Sources["gpu_driver_versions"], sugg, detail)}
}

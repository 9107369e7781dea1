// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command catalogdoc writes the compatibility catalog as a Markdown page
// (a tfplugindocs template without template actions), with a source link
// for every fact and the catalog version and date.
//
// Usage:
//
//	go run ./internal/catalog/cmd/catalogdoc -out templates/guides/compatibility.md.tmpl
//	go run ./internal/catalog/cmd/catalogdoc -out templates/guides/compatibility.md.tmpl -check
//
// With -check it writes nothing and fails when the file differs from the catalog.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
)

// errStale is returned by -check when the file differs from the catalog.
var errStale = errors.New("compatibility page is stale; regenerate it with catalogdoc")

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "catalogdoc:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("catalogdoc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "path of the Markdown page to write (required)")
	check := fs.Bool("check", false, "do not write; fail when the file at -out differs from the generated page")
	dates := fs.String("dates", "", "comma-separated pages whose \"catalog's date (YYYY-MM-DD)\" is set to the catalog's date")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return errors.New("-out is required")
	}
	cat := catalog.Default()
	page, err := render(cat)
	if err != nil {
		return err
	}
	for _, p := range strings.FieldsFunc(*dates, func(r rune) bool { return r == ',' }) {
		cur, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		stamped := stampDate(cur, cat.Date())
		switch {
		case bytes.Equal(cur, stamped):
		case *check:
			return fmt.Errorf("%s: %w", p, errStale)
		default:
			if err := os.WriteFile(p, stamped, 0o644); err != nil {
				return fmt.Errorf("writing %s: %w", p, err)
			}
		}
	}
	if *check {
		cur, err := os.ReadFile(*out)
		if err != nil {
			return fmt.Errorf("reading %s: %w", *out, err)
		}
		if !bytes.Equal(cur, page) {
			return fmt.Errorf("%s: %w", *out, errStale)
		}
		return nil
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
}

// render builds the page. It fails if the text would contain a template
// action delimiter, which tfplugindocs would try to execute.
func render(c *catalog.Catalog) ([]byte, error) {
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("loading the catalog: %w", err)
	}
	var b bytes.Buffer
	w := &writer{b: &b}
	w.frontMatter(c)
	w.generations(c)
	w.acceleratorTypes(c)
	w.runtimes(c)
	w.tensorflow(c)
	w.frameworks(c)
	w.zones(c)
	w.gke(c)
	w.computeEngine(c)
	w.gpus(c)
	w.nodeSettings(c)
	w.labels(c)
	w.decisions(c)
	page := b.Bytes()
	if bytes.Contains(page, []byte("{{")) || bytes.Contains(page, []byte("}}")) {
		return nil, errors.New("generated page contains a template delimiter")
	}
	return page, nil
}

type writer struct{ b *bytes.Buffer }

func (w *writer) p(format string, args ...any) { fmt.Fprintf(w.b, format+"\n", args...) }

// row writes a Markdown table row, escaping pipes and line breaks.
func (w *writer) row(cells ...string) {
	for i, c := range cells {
		c = strings.ReplaceAll(c, "|", `\|`)
		c = strings.ReplaceAll(c, "\n", " ")
		if c == "" {
			c = "–"
		}
		cells[i] = c
	}
	w.p("| %s |", strings.Join(cells, " | "))
}

func (w *writer) header(cells ...string) {
	w.row(cells...)
	seps := make([]string, len(cells))
	for i := range seps {
		seps[i] = "---"
	}
	w.p("|%s|", strings.Join(seps, "|"))
}

// text escapes free text for Markdown: angle brackets would start HTML tags.
func text(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}

func link(url string) string {
	if url == "" {
		return ""
	}
	return "[source](" + url + ")"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func status(s string) string {
	if s == "" {
		return "documented"
	}
	return s
}

// sizeStatus marks sizes whose name or shape the catalog derives from a rule.
func sizeStatus(s catalog.SliceSize) string {
	if s.Status == "" && s.Decision != "" {
		return "derived"
	}
	return status(s.Status)
}

func (w *writer) frontMatter(c *catalog.Catalog) {
	w.p("---")
	w.p(`page_title: "Compatibility catalog"`)
	w.p(`subcategory: ""`)
	w.p("description: |-")
	w.p("  TPU generations, accelerator types, runtime versions, frameworks, zones, GKE TPU and GPU machine types")
	w.p("  that the accel provider checks at plan time, each with its source.")
	w.p("---")
	w.p("")
	w.p("# Compatibility catalog")
	w.p("")
	w.p("The provider checks accelerator configurations against this catalog at plan time, so that a configuration")
	w.p("that would fail at apply time fails at plan time instead. Catalog version **%s**, reviewed **%s**.", c.Version(), c.Date())
	w.p("")
	w.p("Every fact links to the public source that backs it. The rule every check follows:")
	w.p("")
	w.p("- An **error** needs positive evidence that Google refuses the value: a documented limit (a size, a count, a")
	w.p("  version floor), a malformed name, or a near miss of a known name (a typo, with the name it is close to).")
	w.p("- A well-formed name the catalog does not know is a **warning** that says what the catalog knows and its date.")
	w.p("  Derived, conflicting or unverified facts are warnings too. Where Google's sources disagree, the catalog says so")
	w.p("  and takes the side that rejects nothing Google accepts.")
	w.p("- When the APIs can be reached at plan time, their live answer decides (a zone's accelerator types, its machine")
	w.p("  types, quota); offline, zone lists give warnings only.")
	w.p("- A suggestion is valid for the rest of the configuration: a machine type for the slice that is configured, a")
	w.p("  runtime for the generation that is configured.")
	w.p("")
	w.p("Zone lists, version floors and runtime lists change often: they are true as of the review date. In `warn` mode")
	w.p("every error that rests on the catalog (or on a live answer) becomes a warning, for hardware or regions newer than")
	w.p("the catalog. Errors that rest on a format or rule of the API itself (a malformed zone or duration, two settings the")
	w.p("API takes only one of) and on what this provider creates stay errors in `warn` mode, and their message does not")
	w.p("offer it.")
	w.p("")
}

func (w *writer) generations(c *catalog.Catalog) {
	w.p("## TPU generations")
	w.p("")
	w.header("Generation", "Accelerator type", "Size counts", "TensorCores per chip", "Cloud TPU API", "Default runtime", "GKE accelerator label", "Source")
	for _, g := range c.Generations() {
		api := "no"
		if g.TPUAPI.Supported {
			api = "yes (" + schemadoc.Code(g.TPUAPI.Type) + ")"
		}
		label := ""
		if g.GKE != nil {
			label = schemadoc.Code(g.GKE.AcceleratorLabel)
		}
		w.row(g.DisplayName, schemadoc.Code(g.APIPrefix+"-N"), g.SizeUnit, fmt.Sprint(g.TensorCoresPerChip), api, schemadoc.Code(g.DefaultRuntime), label, link(g.Source))
	}
	w.p("")
	var disks []string
	for _, g := range c.Generations() {
		if g.MaxDisks > 0 {
			disks = append(disks, fmt.Sprintf("%s %d", g.DisplayName, g.MaxDisks))
		}
	}
	w.p("Most disks per Cloud TPU VM, the boot disk included (so `data_disks` holds one fewer): %s. %s", strings.Join(disks, ", "), link(c.Source("tpu_persistent_disk")))
	w.p("")
	for _, g := range c.Generations() {
		if g.TPUAPI.Decision != "" {
			w.p("- %s and the Cloud TPU API: %s %s", g.DisplayName, text(g.TPUAPI.Decision), link(g.TPUAPI.Source))
		}
	}
	w.p("")
}

func (w *writer) acceleratorTypes(c *catalog.Catalog) {
	w.p("## Accelerator types")
	w.p("")
	w.p("Hosts are the TPU VMs of a slice (GKE nodes in the default layout). A slice is multi-host when it has more than one host.")
	w.p("")
	for _, g := range c.Generations() {
		w.p("### %s", g.DisplayName)
		w.p("")
		w.header("Type", "Topology", "Chips", "Hosts", "Chips per host", "Multi-host", "GKE layouts", "Status", "Source")
		for _, s := range g.Sizes {
			name := fmt.Sprintf("%s-%d", g.APIPrefix, s.Size)
			var layouts []string
			for _, l := range c.GKELayouts(name) {
				layouts = append(layouts, fmt.Sprintf("%d × %s", l.Nodes, schemadoc.Code(l.MachineType)))
			}
			w.row(schemadoc.Code(name), schemadoc.Code(s.Topology), fmt.Sprint(s.Chips), fmt.Sprint(s.VMs), fmt.Sprint(s.ChipsPerVM),
				yesNo(s.VMs > 1), strings.Join(layouts, " or "), sizeStatus(s), link(s.Source))
		}
		w.p("")
		if cr := g.CubeRule; cr != nil {
			w.p("Other sizes: whole %dx%dx%d cubes up to %d cubes (topologies %s and multiples of %d in every dimension). %s %s",
				cr.CubeEdge, cr.CubeEdge, cr.CubeEdge, cr.MaxCubes, schemadoc.Codes(cr.SmallTopologies), cr.CubeEdge, text(cr.Decision), link(cr.Source))
			w.p("")
		}
		seen := map[string]bool{}
		for _, s := range g.Sizes {
			if s.Decision != "" && !seen[s.Decision] {
				seen[s.Decision] = true
				w.p("- %s %s", text(s.Decision), link(s.Source))
			}
		}
		for _, d := range g.Decisions {
			w.p("- %s: %s %s", d.Topic, text(d.Decision), link(d.Source))
		}
		if len(seen) > 0 || len(g.Decisions) > 0 {
			w.p("")
		}
	}
}

func (w *writer) runtimes(c *catalog.Catalog) {
	w.p("## Runtime versions")
	w.p("")
	w.p("For JAX, PyTorch/XLA and vLLM the runtime is a base image; install the framework on the VM. Only TensorFlow runtimes embed the framework version.")
	w.p("")
	w.header("Runtime", "Generations", "Frameworks", "Status", "Notes", "Source")
	for _, r := range c.Runtimes() {
		note := text(r.Decision)
		if r.Replacement != "" {
			note = strings.TrimSpace("Use " + schemadoc.Code(r.Replacement) + " instead. " + note)
		}
		w.row(schemadoc.Code(r.Name), strings.Join(r.Generations, ", "), strings.Join(r.Frameworks, ", "), status(r.Status), note, link(r.Source))
	}
	w.p("")
}

func (w *writer) tensorflow(c *catalog.Catalog) {
	tf := c.TensorFlow()
	w.p("## TensorFlow runtimes")
	w.p("")
	w.p("- Name: `%sX.Y.Z[-pod][-pjrt|-se][-v4]`; `-pod` marks a multi-host slice (required there). %s %s", tf.NamePrefix, text(tf.PodDecision), link(tf.PodSource))
	w.p("- From TensorFlow %s on, the name ends in `-pjrt` or `-se` (device API); earlier versions have no suffix. %s", tf.DeviceAPIFrom, link(tf.DeviceAPISource))
	w.p("- %s need TensorFlow %s or later and the PJRT device API. %s", strings.Join(tf.PJRTGenerations, ", "), tf.PJRTMinVersion, link(tf.PJRTSource))
	w.p("- v4 with TensorFlow %s or older needs the `-v4` names (from %s); later versions follow the v2/v3 rules. %s", tf.V4SuffixThrough, tf.V4MinVersion, link(tf.V4Source))
	defaultSrc := ""
	for _, v := range tf.Versions {
		if v.Version == tf.DefaultVersion {
			defaultSrc = v.Source
		}
	}
	w.p("- Default: TensorFlow %s. %s %s", tf.DefaultVersion, text(tf.DefaultDecision), link(defaultSrc))
	for _, u := range tf.UnverifiedSuffixes {
		w.p("- Suffix %s: %s %s", schemadoc.Code(u.Suffix), text(u.Decision), link(u.Source))
	}
	w.p("")
	w.header("TensorFlow", "libtpu", "Listed as a runtime name", "Source")
	for _, v := range tf.Versions {
		w.row(v.Version, v.Libtpu, yesNo(v.RuntimeListed), link(v.Source))
	}
	w.p("")
	w.p("Runtime names quoted by the docs: %s.", schemadoc.Codes(exampleNames(tf.Examples)))
	w.p("")
}

func exampleNames(ex []catalog.TFExample) []string {
	out := make([]string, len(ex))
	for i, e := range ex {
		out[i] = e.Name
	}
	return out
}

func (w *writer) frameworks(c *catalog.Catalog) {
	gens := c.GenerationNames()
	w.p("## Frameworks")
	w.p("")
	w.p("Values of `framework`: %s. Experimental support gives a warning, unsupported an error.", schemadoc.Codes(c.Frameworks()))
	w.p("")
	w.header(append([]string{"Framework"}, gens...)...)
	for _, name := range c.Frameworks() {
		f, _ := c.Framework(name)
		cells := []string{f.DisplayName}
		for _, g := range gens {
			cell := ""
			for _, s := range f.Support {
				if s.Generation == g {
					cell = fmt.Sprintf("[%s](%s)", s.Status, s.Source)
				}
			}
			cells = append(cells, cell)
		}
		w.row(cells...)
	}
	w.p("")
	w.header("Framework", "Generation", "Minimum version", "Severity", "Why", "Source")
	for _, name := range c.Frameworks() {
		f, _ := c.Framework(name)
		for _, m := range f.MinVersions {
			w.row(f.DisplayName, m.Generation, m.Version, m.Severity, text(m.Decision), link(m.Source))
		}
	}
	w.p("")
	for _, name := range c.Frameworks() {
		f, _ := c.Framework(name)
		for _, s := range f.Support {
			if s.Decision != "" {
				w.p("- %s on %s: %s %s", f.DisplayName, s.Generation, text(s.Decision), link(s.Source))
			}
		}
		if f.MultiHost != nil {
			w.p("- %s on multi-host slices (%s): %s %s", f.DisplayName, f.MultiHost.Severity, text(f.MultiHost.Decision), link(f.MultiHost.Source))
		}
	}
	w.p("")
}

func (w *writer) zones(c *catalog.Catalog) {
	w.p("## Zones")
	w.p("")
	w.p("A zone whose region offers nothing of the generation is an error; an unlisted zone in a region that offers it, a zone from an older page, or a zone listed for other sizes is a warning.")
	w.p("")
	w.header("Generation", "Zone", "Kind", "Only for", "Status", "Source")
	for _, g := range c.Generations() {
		for _, z := range g.Zones {
			w.row(g.Name, schemadoc.Code(z.Zone), z.Kind, schemadoc.Codes(z.AcceleratorTypes), status(z.Status), link(z.Source))
		}
	}
	w.p("")
	for _, g := range c.Generations() {
		for _, a := range g.UnlistedAreas {
			w.p("- %s in `%s*`: %s %s", g.Name, a.Prefix, text(a.Decision), link(a.Source))
		}
	}
	w.p("")
}

func (w *writer) gke(c *catalog.Catalog) {
	w.p("## GKE TPU node pools")
	w.p("")
	w.p("A multi-host pool is one slice: its node count equals the slice's hosts, and autoscaling bounds must be multiples of it. Multi-host pools use `placement_policy` `COMPACT` with `tpu_topology`, except TPU7x, which uses a workload policy.")
	w.p("")
	w.header("Generation", "Machine type", "Chips per node", "Multi-host slices", "Status", "Source")
	for _, g := range c.Generations() {
		if g.GKE == nil {
			continue
		}
		for _, m := range g.GKE.MachineTypes {
			w.row(g.Name, schemadoc.Code(m.Name), fmt.Sprint(m.Chips), yesNo(m.MultiHost), status(m.Status), link(m.Source))
		}
	}
	w.p("")
	w.header("Generation", "`cloud.google.com/gke-tpu-accelerator`", "Minimum GKE version", "Notes", "Source")
	for _, g := range c.Generations() {
		if g.GKE == nil {
			continue
		}
		note := text(strings.TrimSpace(g.GKE.LabelDecision + " " + g.GKE.MinVersionDecision))
		src := g.GKE.MinVersionSource
		if src == "" {
			src = g.GKE.LabelSource
		}
		w.row(g.Name, schemadoc.Code(g.GKE.AcceleratorLabel), g.GKE.MinVersion, note, link(src))
	}
	w.p("")
	for _, g := range c.Generations() {
		if g.GKE != nil && g.GKE.WorkloadPolicyMultiHost {
			w.p("- %s multi-host pools use a workload policy instead of `tpu_topology`. %s", g.DisplayName, link(g.GKE.WorkloadPolicySource))
		}
	}
	cc := c.ComputeClassRequirement()
	w.p("- Custom ComputeClasses need GKE %s or later. %s %s", cc.MinGKEVersion, text(cc.Decision), link(cc.Source))
	w.p("")
	av := c.GKEAvailabilityTable()
	w.p("### GKE TPU availability")
	w.p("")
	w.p("%s %s", text(av.Decision), link(av.Source))
	w.p("")
	w.header("Generation", "Regions", "Notes", "Source")
	for _, r := range av.Generations {
		w.row(r.Generation, strings.Join(r.Regions, ", "), text(r.Decision), link(r.Source))
	}
	w.p("")
	w.p("Offline, a node location in a listed region that the Cloud TPU zones page does not list for the generation is a warning naming the zones that are listed (GKE's table names regions only).")
	w.p("")
	w.p("### TPU machine types only GKE's code names")
	w.p("")
	w.p("%s", text(av.CodeOnlyDecision))
	w.p("")
	w.header("Machine type", "Generation", "Chips", "Single-host topology", "`cloud.google.com/gke-tpu-accelerator`", "Source")
	for _, m := range av.CodeOnlyMachineTypes {
		w.row(schemadoc.Code(m.Name), m.Generation, fmt.Sprint(m.Chips), m.SingleHostTopology, schemadoc.Code(m.AcceleratorLabel), link(m.Source))
	}
	w.p("")
}

func (w *writer) computeEngine(c *catalog.Catalog) {
	rules := c.ComputeEngineRules()
	w.p("## Compute Engine TPU VMs")
	w.p("")
	w.p("With `api = \"compute_engine\"`, `accel_tpu_vm` creates the TPU VM as one Compute Engine instance with a TPU machine type, and `runtime_version` is its boot image. %s", link(rules.Source))
	w.p("")
	w.header("Accelerator type", "Machine type", "Default boot image", "Image status", "Source")
	for _, g := range c.Generations() {
		if g.ComputeEngine == nil {
			continue
		}
		for _, at := range c.AcceleratorTypes(g.Name) {
			shape, fs := c.ComputeEngineTPU(at)
			if fs.HasErrors() {
				continue
			}
			w.row(schemadoc.Code(at), schemadoc.Code(shape.MachineType), schemadoc.Code(shape.DefaultImage), status(g.ComputeEngine.Image.Status), link(shape.Source))
		}
	}
	w.p("")
	for _, g := range c.Generations() {
		if g.ComputeEngine != nil {
			w.p("- %s image: %s %s", g.DisplayName, text(g.ComputeEngine.Image.Decision), link(g.ComputeEngine.Image.Source))
		}
	}
	w.p("- Single-host only: %s %s", text(rules.SingleHostDecision), link(rules.SingleHostSource))
	w.p("- Boot images: %s %s", text(rules.ImageFormsDecision), link(rules.ImageFormsSource))
	w.p("- Default `api`: %s %s", text(rules.DefaultAPIDecision), link(rules.Source))
	w.p("")
}

func (w *writer) gpus(c *catalog.Catalog) {
	w.p("## GKE GPU machine types")
	w.p("")
	w.p("Machine types with built-in GPUs; `gpu_type` and `gpu_count` are derived when omitted.")
	w.p("")
	w.header("Machine type", "GPU type", "GPUs", "Status", "Notes", "Source")
	for _, m := range c.GPUMachineTypes() {
		note := text(m.Decision)
		if m.Arch != "" {
			note = strings.TrimSpace(m.Arch + ". " + note)
		}
		w.row(schemadoc.Code(m.Name), schemadoc.Code(m.GPUType), fmt.Sprint(m.GPUCount), status(m.Status), note, link(m.Source))
	}
	w.p("")
	for _, a := range c.GPUAttachments() {
		counts := make([]string, len(a.Counts))
		for i, n := range a.Counts {
			counts[i] = fmt.Sprint(n)
		}
		w.p("- `%s*` machine types take attached %s, %s per node. %s %s", a.MachinePrefix, schemadoc.Codes(a.GPUTypes), strings.Join(counts, ", "), text(a.Decision), link(a.Source))
	}
	w.p("")
	limits, decision := c.GPUVCPULimits()
	w.p("Most vCPUs per node with attached GPUs. %s", text(decision))
	w.p("")
	w.header("Machine types", "GPU type", "Most vCPUs per GPU count", "Source")
	for _, l := range limits {
		keys := make([]string, 0, len(l.PerCount))
		for k := range l.PerCount {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
		per := make([]string, len(keys))
		for i, k := range keys {
			per[i] = fmt.Sprintf("%s: %d", k, l.PerCount[k])
		}
		w.row(schemadoc.Code(l.MachinePrefix+"*"), schemadoc.Code(l.GPUType), strings.Join(per, ", "), link(l.Source))
	}
	w.p("")
	parts, pdecision := c.GPUPartitionTable()
	w.p("Multi-instance GPU partition sizes (`gpu_partition_size`). %s", text(pdecision))
	w.p("")
	w.header("GPU type", "Partition sizes", "Notes", "Source")
	for _, p := range parts {
		w.row(schemadoc.Code(p.GPUType), schemadoc.Codes(p.Sizes), text(p.Decision), link(p.Source))
	}
	w.p("")
	var accs []string
	for _, a := range c.GPUAccelerators() {
		accs = append(accs, a.Name)
	}
	w.p("GPU types (also the `cloud.google.com/gke-accelerator` label value): %s.", schemadoc.Codes(accs))
	w.p("")
	w.header("`gpu_driver_version`", "Meaning", "Source")
	for _, d := range c.GPUDriverVersions() {
		w.row(schemadoc.Code(d.Value), text(d.Description), link(d.Source))
	}
	w.p("")
}

func (w *writer) nodeSettings(c *catalog.Catalog) {
	w.p("## Boot disks, flex-start and labels")
	w.p("")
	fams, decision := c.BootDiskFamilies()
	w.p("Boot disk types per machine family (`disk_type` of a node-pool tier, `boot_disk_type` of a ComputeClass priority; a Compute Engine TPU VM boots on its family's default). %s", text(decision))
	w.p("")
	w.header("Machine types", "Boot disk types", "Default", "Outside the list", "Source")
	for _, f := range fams {
		outside := "warning"
		if f.Documented {
			outside = "error"
		}
		if len(f.Refused) > 0 {
			outside += "; " + schemadoc.Codes(f.Refused) + " an error " + link(f.RefusedSource)
		}
		w.row(schemadoc.Code(f.MachinePrefix+"*"), schemadoc.Codes(f.Allowed), schemadoc.Code(f.Default), outside, link(f.Source))
	}
	w.p("")
	if types, src := c.FlexStartNotOffered(); len(types) > 0 {
		w.p("Flex-start is not offered on %s according to GKE's machine table, so flex-start on them is a warning. %s", schemadoc.Codes(types), link(src))
		w.p("")
	}
	l := c.LabelLimits()
	w.p("Labels (`labels` of `accel_tpu_vm`, `resource_labels` of a tier, `default_labels`), counting `default_labels` and the ownership label: %s %s",
		c.LabelRules(), link(l.Source))
	w.p("")
}

func (w *writer) labels(c *catalog.Catalog) {
	w.p("## Labels, taints and resources")
	w.p("")
	w.header("Label", "Meaning", "Source")
	for _, l := range c.Labels() {
		w.row(schemadoc.Code(l.Key), text(l.Description), link(l.Source))
	}
	w.p("")
	w.header("Taint", "Meaning", "Source")
	for _, t := range c.Taints() {
		w.row(schemadoc.Code(t.Key+"="+t.Value+":"+t.Effect), text(t.Description), link(t.Source))
	}
	w.p("")
	w.header("Resource", "Meaning", "Source")
	for _, r := range c.Resources() {
		w.row(schemadoc.Code(r.Name), text(r.Description), link(r.Source))
	}
	w.p("")
}

func (w *writer) decisions(c *catalog.Catalog) {
	w.p("## Decisions")
	w.p("")
	for _, d := range c.Decisions() {
		w.p("- **%s**: %s %s", d.Topic, text(d.Decision), link(d.Source))
	}
}

// catalogDateRE is how a page quotes the catalog's date, in a sample of the
// warn-mode advice the provider prints.
var catalogDateRE = regexp.MustCompile(`catalog's date \(\d{4}-\d{2}-\d{2}\)`)

// stampDate sets every quoted catalog date of page to date.
func stampDate(page []byte, date string) []byte {
	return catalogDateRE.ReplaceAll(page, []byte("catalog's date ("+date+")"))
}

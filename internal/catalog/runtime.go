// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Framework names accepted by ResolveRuntime.
const (
	FrameworkJAX        = "jax"
	FrameworkPyTorch    = "pytorch"
	FrameworkTensorFlow = "tensorflow"
	FrameworkVLLM       = "vllm"
)

// RuntimeQuery asks for a TPU VM runtime version. Empty strings mean "not given".
type RuntimeQuery struct {
	AcceleratorType  string
	Framework        string // jax, pytorch, tensorflow or vllm
	FrameworkVersion string
	RuntimeVersion   string
	Zones            []string
	// ForTPUAPI is true when the VM is created through the Cloud TPU API
	// (accel_tpu_vm with api = "cloud_tpu"): a generation the Cloud TPU docs
	// say it does not support (TPU7x) then gets a finding that points to
	// api = "compute_engine".
	ForTPUAPI bool
	// ForComputeEngine is true when the VM is created as a Compute Engine
	// instance (api = "compute_engine"): RuntimeVersion is then the boot
	// image. Empty chooses the generation's default image; a Cloud TPU
	// software version or a value that is not an image reference is an
	// error; an image family of another generation is a warning. Whether
	// Compute Engine offers the accelerator type is ComputeEngineTPU's
	// finding, not this query's.
	ForComputeEngine bool
}

// RuntimeResult is the answer to a RuntimeQuery.
type RuntimeResult struct {
	Accelerator Accelerator
	// RuntimeVersion is the validated runtime when one was given, else the
	// chosen one ("" when none can be chosen).
	RuntimeVersion string
	// Candidates lists every compatible runtime version, best first.
	Candidates []string
	// Reason says in one sentence why RuntimeVersion was chosen or accepted.
	Reason string
	// Source is the URL of the fact behind a RuntimeVersion the catalog
	// chose ("" when the query gave one or none was chosen).
	Source   string
	Findings Findings
}

// ResolveRuntime validates a runtime query and picks the best runtime
// version when none is given. It checks the framework (jax, pytorch,
// tensorflow, vllm) and its version, the runtime against the generation and
// framework (TensorFlow names are checked for -pod, -pjrt/-se and -v4), and
// each zone (attribute "zones", with its index).
func (c *Catalog) ResolveRuntime(q RuntimeQuery) RuntimeResult {
	if c.loadErr != nil {
		return RuntimeResult{Findings: c.unavailable(AttrRuntimeVersion)}
	}
	s := &runtimeResolve{c: c, q: q}
	s.resolveAccelerator()
	s.resolveFramework()
	s.parseRuntimeName()
	if s.g != nil && s.fw != "" {
		s.add(c.checkFrameworkGen(s.g, s.fw, s.r.Accelerator)...)
	}
	s.checkFrameworkVersion()
	s.checkOrChooseRuntime()
	s.listCandidates()
	if len(q.Zones) > 0 {
		s.add(c.checkZones(s.g, s.r.Accelerator.Type, q.Zones, AttrZones)...)
	}
	s.r.Reason = c.runtimeReason(q, s.g, s.fw, s.r)
	return s.r
}

// runtimeResolve carries one ResolveRuntime call: the query, what has been
// resolved of it so far, and the result with its findings.
type runtimeResolve struct {
	c *Catalog
	q RuntimeQuery
	r RuntimeResult

	// g is the accelerator type's generation, nil when it is not known.
	g *Generation
	// givenFW is the valid framework the query sets, "" when none; fw is
	// the framework in effect, which a TensorFlow runtime name implies
	// when none is set.
	givenFW, fw string
	// tf is the parsed TensorFlow runtime name, rt the known runtime that
	// runtime_version names (at most one of them is set).
	tf *tfName
	rt *Runtime
	// tfVer is the TensorFlow version framework_version names.
	tfVer *TFVersion
}

func (s *runtimeResolve) add(fs ...Finding) { s.r.Findings = append(s.r.Findings, fs...) }

// resolveAccelerator resolves accelerator_type to its slice and generation
// and checks that the API the VM is created through takes it.
func (s *runtimeResolve) resolveAccelerator() {
	c, q := s.c, s.q
	if q.AcceleratorType == "" {
		return
	}
	acc, fs := c.accelerator(q.AcceleratorType)
	s.add(fs...)
	if fs.HasErrors() {
		return
	}
	s.r.Accelerator = acc
	s.g = c.gens[acc.Generation]
	if q.ForTPUAPI && !s.g.TPUAPI.Supported {
		s.add(c.tpuAPIUnsupported(q.AcceleratorType, s.g, acc))
	}
	if q.ForComputeEngine {
		// The shapes Compute Engine creates (single-host, its generations).
		_, cfs := c.computeEngineShape(q.AcceleratorType, acc)
		s.add(cfs...)
	}
}

// tpuAPIUnsupported is the finding for an accelerator type of generation g
// that the Cloud TPU docs say the Cloud TPU API does not support: an error,
// or a warning when the catalog records a conflicting source.
func (c *Catalog) tpuAPIUnsupported(acceleratorType string, g *Generation, acc Accelerator) Finding {
	sev, detail := SeverityError, ""
	if g.TPUAPI.ConflictSource != "" {
		sev, detail = SeverityWarning, " "+g.TPUAPI.Decision
	}
	return newFinding(sev, AttrAcceleratorType, acceleratorType,
		"TPU Generation Not Supported by the Cloud TPU API", g.TPUAPI.Source, nil,
		fmt.Sprintf("%q is %s, which the Cloud TPU API (api = %q) does not support according to the Cloud TPU docs. %s%s",
			acceleratorType, g.DisplayName, APICloudTPU, c.tpuAPIAlternative(acc), detail))
}

// resolveFramework keeps the query's framework when the catalog knows it,
// and reports it when it does not.
func (s *runtimeResolve) resolveFramework() {
	fw := s.q.Framework
	if fw != "" && s.c.frameworks[fw] == nil {
		s.add(s.c.unknownFramework(fw))
		fw = ""
	}
	s.givenFW, s.fw = fw, fw
}

// parseRuntimeName reads runtime_version: on Compute Engine a boot image,
// else a TensorFlow runtime name or a runtime the catalog knows. A
// TensorFlow runtime name implies the TensorFlow framework when none is
// set.
func (s *runtimeResolve) parseRuntimeName() {
	c, q := s.c, s.q
	switch {
	case q.RuntimeVersion == "":
	case q.ForComputeEngine:
		s.add(c.checkBootImage(s.g, q.RuntimeVersion)...)
	case isTFName(q.RuntimeVersion):
		if t, ok := parseTFName(q.RuntimeVersion, c.tfExtras()); ok {
			s.tf = &t
		} else {
			s.add(c.invalidTFName(s.g, s.r.Accelerator, q.RuntimeVersion))
		}
	case c.runtimes[q.RuntimeVersion] != nil:
		s.rt = c.runtimes[q.RuntimeVersion]
	default:
		s.add(c.unknownRuntime(s.g, q.RuntimeVersion))
	}
	if s.tf != nil && q.Framework == "" {
		s.fw = FrameworkTensorFlow
	}
}

// checkFrameworkVersion checks framework_version: it needs a framework,
// must be a version of it (for TensorFlow, one with runtimes) and at least
// the generation's minimum.
func (s *runtimeResolve) checkFrameworkVersion() {
	c, q := s.c, s.q
	switch {
	case q.FrameworkVersion == "":
	case s.fw == "":
		if q.Framework == "" {
			s.add(newFinding(SeverityError, AttrFrameworkVersion, q.FrameworkVersion,
				"Framework Version Without Framework", c.data.Sources["frameworks"], c.Frameworks(),
				fmt.Sprintf("framework_version %q names a version of no framework; set framework to one of %s, or remove framework_version.",
					q.FrameworkVersion, quoteList(c.Frameworks()))))
		}
	case s.fw == FrameworkTensorFlow:
		var fs Findings
		s.tfVer, fs = c.resolveTFVersion(q.FrameworkVersion)
		s.add(fs...)
		if s.tfVer != nil {
			v, _ := parseVersion(s.tfVer.Version)
			s.checkFrameworkMinVersion("TensorFlow", v)
		}
	default:
		if v, ok := parseVersion(q.FrameworkVersion); !ok {
			s.add(c.invalidFrameworkVersion(s.fw, q.FrameworkVersion))
		} else {
			s.checkFrameworkMinVersion(c.frameworks[s.fw].DisplayName, v)
		}
	}
}

// checkFrameworkMinVersion checks framework_version (v, of the framework
// named display) against the generation's minimum, when the generation is
// known.
func (s *runtimeResolve) checkFrameworkMinVersion(display string, v version) {
	if s.g == nil {
		return
	}
	s.add(s.c.checkMinVersion(s.g, s.fw, AttrFrameworkVersion, s.q.FrameworkVersion,
		display+" "+s.q.FrameworkVersion, "Framework Version Too Old", v, s.r.Accelerator.MultiHost)...)
}

// checkOrChooseRuntime checks the given runtime against the generation and
// the framework, or chooses one when none is given.
func (s *runtimeResolve) checkOrChooseRuntime() {
	c, q, g := s.c, s.q, s.g
	s.r.RuntimeVersion = q.RuntimeVersion
	switch {
	case q.ForComputeEngine:
		if imgs := computeEngineCandidates(g); q.RuntimeVersion == "" && len(imgs) > 0 {
			s.r.RuntimeVersion, s.r.Source = imgs[0], g.ComputeEngine.Image.Source
		}
	case s.tf != nil:
		s.add(c.checkTFRuntime(g, s.r.Accelerator, *s.tf, q.RuntimeVersion, s.givenFW, q.FrameworkVersion, s.tfVer)...)
	case s.rt != nil:
		s.add(c.checkBaseRuntime(g, s.rt, s.fw, s.r.Accelerator.MultiHost)...)
	case q.RuntimeVersion != "":
		// A runtime the catalog does not know, reported as it was read.
	case g == nil:
		// Nothing to choose for.
	case s.fw == FrameworkTensorFlow:
		s.chooseTFRuntime()
	default:
		s.r.RuntimeVersion, s.r.Source = g.DefaultRuntime, g.DefaultRuntimeSrc
	}
}

// chooseTFRuntime chooses the TensorFlow runtime of framework_version's
// version, or of the default version when framework_version is not set.
func (s *runtimeResolve) chooseTFRuntime() {
	c := s.c
	v := s.tfVer
	if v == nil && s.q.FrameworkVersion == "" {
		v = c.tfVersions[c.data.TensorFlow.DefaultVersion]
	}
	if v == nil {
		return
	}
	if name, ok := c.tfNameFor(s.g, s.r.Accelerator.MultiHost, v); ok {
		s.r.RuntimeVersion, s.r.Source = name.String(), c.data.TensorFlow.NameSource
	}
}

// listCandidates lists the runtimes (on Compute Engine, the boot images)
// that fit the generation and the framework, best first.
func (s *runtimeResolve) listCandidates() {
	c, g := s.c, s.g
	switch {
	case g == nil:
	case s.q.ForComputeEngine:
		s.r.Candidates = computeEngineCandidates(g)
	case s.fw == FrameworkTensorFlow:
		s.r.Candidates = c.tfCandidates(g, s.r.Accelerator.MultiHost, s.tfVer)
	default:
		s.r.Candidates = c.baseCandidates(g)
	}
}

func (c *Catalog) runtimeReason(q RuntimeQuery, g *Generation, fw string, r RuntimeResult) string {
	switch {
	case r.Findings.HasErrors():
		return "The configuration has errors; see the findings."
	case g == nil && r.RuntimeVersion == "":
		return "Set accelerator_type to choose a runtime version."
	case g == nil && q.ForComputeEngine:
		return fmt.Sprintf("%q is a boot image reference; set accelerator_type to check it against a generation.", r.RuntimeVersion)
	case g == nil:
		return fmt.Sprintf("%q is a known runtime version; set accelerator_type to check it against a generation.", r.RuntimeVersion)
	case r.RuntimeVersion == "" && q.ForComputeEngine:
		return fmt.Sprintf("Compute Engine does not create %s TPU VMs, so no boot image is chosen.", g.Name)
	case r.RuntimeVersion == "":
		return fmt.Sprintf("No runtime version fits %s with the given framework.", g.Name)
	case q.ForComputeEngine:
		return c.bootImageReason(q, g, fw, r.RuntimeVersion)
	case q.RuntimeVersion != "":
		return fmt.Sprintf("%q is compatible with %s.", r.RuntimeVersion, r.Accelerator.Type)
	case fw == FrameworkTensorFlow:
		hosts := "single-host"
		if r.Accelerator.MultiHost {
			hosts = "multi-host"
		}
		if t, ok := parseTFName(r.RuntimeVersion, nil); ok && q.FrameworkVersion != "" {
			return fmt.Sprintf("%q is the TensorFlow %s runtime for %s %s slices.", r.RuntimeVersion, t.version, hosts, g.Name)
		}
		return fmt.Sprintf("%q is the newest TensorFlow runtime the docs list as a runtime name, in its %s form for %s.", r.RuntimeVersion, hosts, g.Name)
	}
	install := "install your framework"
	if f := c.frameworks[fw]; f != nil {
		install = "install " + f.DisplayName
	}
	if rt := c.runtimes[r.RuntimeVersion]; rt != nil && rt.Status == StatusUnverified {
		return fmt.Sprintf("%q is the %s image seen in use (Google documents no Cloud TPU API runtime for %s); %s on the VM after it starts.", r.RuntimeVersion, g.Name, g.Name, install)
	}
	return fmt.Sprintf("%q is the documented base image for %s; %s on the VM after it starts.", r.RuntimeVersion, g.Name, install)
}

// tpuAPIAlternative says how to create a generation the Cloud TPU API does
// not support: api = "compute_engine" for the types Compute Engine creates,
// and a GKE node pool.
func (c *Catalog) tpuAPIAlternative(acc Accelerator) string {
	if shape, ok := c.ceByType[acc.Type]; ok {
		return fmt.Sprintf("Google documents Compute Engine for it: set api = %q (machine type %s), or use a GKE node pool with accel_fallback_nodepools (machine type %s).",
			APIComputeEngine, shape.MachineType, acc.GKEMachineType)
	}
	return fmt.Sprintf("Use a GKE node pool with accel_fallback_nodepools (machine type %s).", acc.GKEMachineType)
}

// CheckFramework reports a framework name the catalog does not know, with
// the did-you-mean ResolveRuntime gives it, for a caller that cannot run
// ResolveRuntime yet (the accelerator type is unknown).
func (c *Catalog) CheckFramework(fw string) Findings {
	if c.loadErr != nil || fw == "" || c.frameworks[fw] != nil {
		return nil
	}
	return Findings{c.unknownFramework(fw)}
}

func (c *Catalog) unknownFramework(fw string) Finding {
	names := c.Frameworks()
	var sugg []string
	if m, ok := caseMatch(fw, names); ok {
		sugg = []string{m}
	} else if canon, ok := c.fwAliases[normalizeGuess(fw)]; ok {
		sugg = []string{canon}
	} else {
		sugg = nearest(fw, names)
	}
	detail := fmt.Sprintf("%q is not a supported framework; use one of %s", fw, quoteList(names))
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrFramework, fw, "Unsupported Framework", c.data.Sources["frameworks"], sugg, detail)
}

func (c *Catalog) invalidFrameworkVersion(fw, s string) Finding {
	f := c.frameworks[fw]
	var sugg []string
	if t := strings.TrimPrefix(strings.TrimSpace(s), "v"); t != s {
		if _, ok := parseVersion(t); ok {
			sugg = []string{t}
		}
	}
	detail := fmt.Sprintf("%q is not a version of %s; use a version such as \"2.5.0\"", s, f.VersionOf)
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrFrameworkVersion, s, "Invalid Framework Version", f.Source, sugg, detail)
}

func (f *Framework) support(gen string) *FrameworkSupport {
	for i := range f.Support {
		if f.Support[i].Generation == gen {
			return &f.Support[i]
		}
	}
	return nil
}

// supportedOn returns the display names of the frameworks usable on g.
func (c *Catalog) supportedOn(g *Generation) (names, displays []string) {
	for _, f := range c.data.Frameworks {
		if s := f.support(g.Name); s != nil && s.Status != SupportUnsupported && s.Status != SupportUnlisted {
			names = append(names, f.Name)
			displays = append(displays, f.DisplayName)
		}
	}
	return names, displays
}

func (c *Catalog) checkFrameworkGen(g *Generation, fw string, acc Accelerator) Findings {
	f := c.frameworks[fw]
	s := f.support(g.Name)
	var fs Findings
	switch {
	case s == nil:
		fs = append(fs, newFinding(SeverityWarning, AttrFramework, fw, "Unknown Framework Support", f.Source, nil,
			fmt.Sprintf("The catalog has no %s support facts for %s.", f.DisplayName, g.Name)))
	case s.Status == SupportUnsupported:
		names, displays := c.supportedOn(g)
		detail := fmt.Sprintf("%s is not supported on %s; use %s.", f.DisplayName, g.Name, joinOr(displays))
		if s.Decision != "" {
			detail += " " + s.Decision
		}
		fs = append(fs, newFinding(SeverityError, AttrFramework, fw, "Framework Not Supported on Generation", s.Source, names, detail))
	case s.Status == SupportUnlisted:
		fs = append(fs, newFinding(SeverityWarning, AttrFramework, fw, "Framework Support Not Listed", s.Source, nil,
			fmt.Sprintf("%s does not list %s. %s", f.DisplayName, g.Name, s.Decision)))
	case s.Status == SupportExperimental:
		var rec []string
		for _, x := range f.Support {
			if x.Status == SupportRecommended {
				rec = append(rec, x.Generation)
			}
		}
		fs = append(fs, newFinding(SeverityWarning, AttrFramework, fw, "Experimental Framework Support", s.Source, nil,
			fmt.Sprintf("%s support for %s is experimental; the recommended generations are %s.", f.DisplayName, g.Name, joinAnd(rec))))
	}
	if f.MultiHost != nil && acc.MultiHost {
		fs = append(fs, newFinding(parseSeverity(f.MultiHost.Severity), AttrFramework, fw, "Multi-Host Framework Support", f.MultiHost.Source, nil,
			fmt.Sprintf("%s on a multi-host slice (%s, %d hosts) may not work. %s", f.DisplayName, acc.Type, acc.Hosts, f.MultiHost.Decision)))
	}
	return fs
}

// checkMinVersion reports a framework version below the generation's
// minimum. subject names the checked value in the detail. For TensorFlow,
// suggestions are versions, or runtime names when attr is runtime_version.
func (c *Catalog) checkMinVersion(g *Generation, fw, attr, raw, subject, summary string, v version, multi bool) Findings {
	f := c.frameworks[fw]
	var fs Findings
	for _, m := range f.MinVersions {
		if m.Generation != g.Name {
			continue
		}
		mv, ok := parseVersion(m.Version)
		if !ok || compareVersion(v, mv) >= 0 {
			continue
		}
		detail := fmt.Sprintf("%s is below %s, the minimum %s version on %s; use %s or later.", subject, m.Version, f.DisplayName, g.Name, m.Version)
		if m.Decision != "" {
			detail += " " + m.Decision
		}
		var sugg []string
		if fw == FrameworkTensorFlow {
			sugg = c.tfVersionsFrom(mv)
			if attr == AttrRuntimeVersion {
				sugg = c.tfCandidatesFrom(g, multi, sugg)
			}
		}
		fs = append(fs, newFinding(parseSeverity(m.Severity), attr, raw, summary, m.Source, sugg, detail))
	}
	return fs
}

// tfVersionsFrom suggests TF versions at or above minV: the default
// version first (when it qualifies), then the oldest qualifying version.
func (c *Catalog) tfVersionsFrom(minV version) []string {
	var out []string
	tfr := &c.data.TensorFlow
	if d, ok := parseVersion(tfr.DefaultVersion); ok && compareVersion(d, minV) >= 0 {
		out = append(out, tfr.DefaultVersion)
	}
	for i := len(tfr.Versions) - 1; i >= 0; i-- {
		v, _ := parseVersion(tfr.Versions[i].Version)
		if tfr.Versions[i].RuntimeListed && compareVersion(v, minV) >= 0 {
			if tfr.Versions[i].Version != tfr.DefaultVersion {
				out = append(out, tfr.Versions[i].Version)
			}
			break
		}
	}
	return out
}

func (c *Catalog) tfExtras() []string {
	out := make([]string, 0, len(c.data.TensorFlow.UnverifiedSuffixes))
	for _, u := range c.data.TensorFlow.UnverifiedSuffixes {
		out = append(out, u.Suffix)
	}
	return out
}

func (c *Catalog) tfVersionNames() []string {
	out := make([]string, 0, len(c.data.TensorFlow.Versions))
	for _, v := range c.data.TensorFlow.Versions {
		out = append(out, v.Version)
	}
	return out
}

// resolveTFVersion maps a TensorFlow framework_version ("2.16.1" or "2.16")
// to a catalog version.
func (c *Catalog) resolveTFVersion(s string) (*TFVersion, Findings) {
	tfr := &c.data.TensorFlow
	if v := c.tfVersions[s]; v != nil {
		return v, nil
	}
	pv, ok := parseVersion(s)
	if !ok {
		return nil, Findings{c.invalidFrameworkVersion(FrameworkTensorFlow, s)}
	}
	if pv.parts == 2 && pv.suffix == "" {
		var unlisted *TFVersion
		for i := range tfr.Versions {
			v := &tfr.Versions[i]
			x, _ := parseVersion(v.Version)
			if x.nums[0] == pv.nums[0] && x.nums[1] == pv.nums[1] {
				if v.RuntimeListed {
					return v, nil
				}
				if unlisted == nil {
					unlisted = v
				}
			}
		}
		if unlisted != nil {
			return unlisted, nil
		}
	}
	if c.newerThanCatalogTF(pv) {
		// Newer than the catalog: names follow the documented rules, unchecked.
		var guess *TFVersion
		if pv.parts == 3 && pv.suffix == "" {
			guess = &TFVersion{Version: s}
		}
		return guess, Findings{newFinding(SeverityWarning, AttrFrameworkVersion, s, "Unknown TensorFlow Version", tfr.NameSource, nil,
			fmt.Sprintf("TensorFlow %s is newer than the catalog (newest known: %s), so its runtime names are not checked.", s, tfr.Versions[0].Version))}
	}
	sugg := nearest(s, c.tfVersionNames())
	return nil, Findings{newFinding(SeverityError, AttrFrameworkVersion, s, "Unsupported TensorFlow Version", tfr.NameSource, sugg,
		fmt.Sprintf("TensorFlow %s has no TPU VM runtime; versions with runtimes: %s.", s, strings.Join(c.tfVersionNames(), ", ")))}
}

func (c *Catalog) tfSupported(g *Generation) bool {
	f := c.frameworks[FrameworkTensorFlow]
	if f == nil {
		return false
	}
	s := f.support(g.Name)
	return s != nil && s.Status != SupportUnsupported
}

// tfNameFor builds the canonical TensorFlow runtime name of version v for
// generation g (first device API: PJRT).
func (c *Catalog) tfNameFor(g *Generation, multi bool, v *TFVersion) (tfName, bool) {
	names := c.tfNamesFor(g, multi, v)
	if len(names) == 0 {
		return tfName{}, false
	}
	return names[0], true
}

// tfNamesFor lists the TensorFlow runtime names of version v valid for g,
// best first.
func (c *Catalog) tfNamesFor(g *Generation, multi bool, v *TFVersion) []tfName {
	if !c.tfSupported(g) {
		return nil
	}
	tfr := &c.data.TensorFlow
	ver, ok := parseVersion(v.Version)
	if !ok {
		return nil
	}
	deviceFrom, _ := parseVersion(tfr.DeviceAPIFrom)
	base := tfName{version: v.Version, ver: ver, pod: multi}
	if slices.Contains(tfr.PJRTGenerations, g.Name) {
		pjrtMin, _ := parseVersion(tfr.PJRTMinVersion)
		if compareVersion(ver, pjrtMin) < 0 {
			return nil
		}
		base.api = "pjrt"
		return []tfName{base}
	}
	if g.Name == "v4" {
		through, _ := parseVersion(tfr.V4SuffixThrough)
		v4min, _ := parseVersion(tfr.V4MinVersion)
		if compareVersion(ver, v4min) < 0 {
			return nil
		}
		if compareVersion(ver, through) <= 0 {
			base.v4 = true
			return []tfName{base}
		}
	}
	if compareVersion(ver, deviceFrom) >= 0 {
		pj, se := base, base
		pj.api, se.api = "pjrt", "se"
		return []tfName{pj, se}
	}
	return []tfName{base}
}

// tfCandidates lists TF runtime names for g, best first: the default
// version (or only) first, then newest to oldest.
func (c *Catalog) tfCandidates(g *Generation, multi bool, only *TFVersion) []string {
	var out []string
	add := func(v *TFVersion) {
		for _, n := range c.tfNamesFor(g, multi, v) {
			if s := n.String(); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	if only != nil {
		add(only)
		return out
	}
	if d := c.tfVersions[c.data.TensorFlow.DefaultVersion]; d != nil {
		add(d)
	}
	for i := range c.data.TensorFlow.Versions {
		add(&c.data.TensorFlow.Versions[i])
	}
	return out
}

// baseCandidates lists the generation's default runtime, then the other
// runtimes the docs list for it: a deprecated one, or one seen only in use
// (accepted, not offered), is left out.
func (c *Catalog) baseCandidates(g *Generation) []string {
	out := []string{g.DefaultRuntime}
	for _, r := range c.data.Runtimes {
		if r.Status != StatusDeprecated && r.Status != StatusUnverified && r.Name != g.DefaultRuntime && slices.Contains(r.Generations, g.Name) {
			out = append(out, r.Name)
		}
	}
	return out
}

func (c *Catalog) bestTF(g *Generation, multi bool) string {
	if g == nil {
		return ""
	}
	if d := c.tfVersions[c.data.TensorFlow.DefaultVersion]; d != nil {
		if n, ok := c.tfNameFor(g, multi, d); ok {
			return n.String()
		}
	}
	return ""
}

// unknownRuntime is the error for a runtime version the catalog does not
// know. With a generation (g), it suggests only runtimes that run on it,
// so that a suggestion is valid with the configured accelerator type.
func (c *Catalog) unknownRuntime(g *Generation, s string) Finding {
	src := c.data.Sources["runtimes"]
	pool := c.runtimeNames
	if g != nil {
		pool = nil
		for _, n := range c.runtimeNames {
			if r := c.runtimes[n]; slices.Contains(r.Generations, g.Name) && r.Status != StatusDeprecated {
				pool = append(pool, n)
			}
		}
	}
	sugg := []string{}
	if m, ok := caseMatch(s, pool); ok {
		sugg = append(sugg, m)
	} else {
		sugg = nearest(s, pool)
	}
	detail := fmt.Sprintf("%q is not a known TPU runtime version", s)
	switch {
	case len(sugg) > 0:
		detail += didYouMean(sugg)
	case g != nil:
		detail += fmt.Sprintf("; for %s use %q.", g.Name, g.DefaultRuntime)
		sugg = []string{g.DefaultRuntime}
	default:
		detail += "; use a base image such as \"tpu-ubuntu2204-base\" or a TensorFlow runtime such as \"tpu-vm-tf-2.16.1-pjrt\"."
	}
	if len(sugg) == 0 {
		sugg = nil
	}
	return newFinding(SeverityError, AttrRuntimeVersion, s, "Unknown Runtime Version", src, sugg, detail)
}

func (c *Catalog) invalidTFName(g *Generation, acc Accelerator, s string) Finding {
	tfr := &c.data.TensorFlow
	var pool []string
	if g != nil {
		pool = c.tfCandidates(g, acc.MultiHost, nil)
	} else {
		for _, e := range tfr.Examples {
			pool = append(pool, e.Name)
		}
	}
	var sugg []string
	if m, ok := caseMatch(s, pool); ok {
		sugg = []string{m}
	} else {
		sugg = nearest(s, pool)
	}
	detail := fmt.Sprintf("%q is not a valid TensorFlow runtime name; the form is tpu-vm-tf-X.Y.Z[-pod][-pjrt|-se][-v4]", s)
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newFinding(SeverityError, AttrRuntimeVersion, s, "Invalid TensorFlow Runtime Name", tfr.NameSource, sugg, detail)
}

// checkTFRuntime validates a parsed TensorFlow runtime name against the
// generation, the slice's host count and the framework version.
func (c *Catalog) checkTFRuntime(g *Generation, acc Accelerator, t tfName, raw, framework, fwVersion string, fwVer *TFVersion) Findings {
	k := &tfRuntimeCheck{c: c, tfr: &c.data.TensorFlow, g: g, acc: acc, t: t, raw: raw, fwVer: fwVer}
	known := c.tfVersions[t.version]
	if known == nil {
		k.versionWithoutRuntime()
		return k.fs
	}
	k.checkFramework(framework)
	k.checkDeviceAPISuffix()
	if g == nil || !c.tfSupported(g) {
		return k.fs
	}
	k.want, k.wantOK = k.canonicalName(known)
	k.checkPJRTOnly()
	k.checkV4Suffix()
	k.checkPodSuffix()
	k.checkUnverifiedSuffix()
	k.checkFrameworkVersion(fwVersion)
	return k.fs
}

// tfRuntimeCheck carries one checkTFRuntime call: the parsed name (t, as
// written: raw), the slice it is for, the TensorFlow version
// framework_version names (fwVer), the canonical name for the slice (want,
// when wantOK) and the findings, all on runtime_version.
type tfRuntimeCheck struct {
	c     *Catalog
	tfr   *TensorFlowRules
	g     *Generation
	acc   Accelerator
	t     tfName
	raw   string
	fwVer *TFVersion

	want   tfName
	wantOK bool

	fs Findings
}

func (k *tfRuntimeCheck) add(sev Severity, summary, src string, sugg []string, detail string) {
	k.fs = append(k.fs, newFinding(sev, AttrRuntimeVersion, k.raw, summary, src, sugg, detail))
}

// versionWithoutRuntime reports a TensorFlow version the catalog has no
// runtime for: a warning when it is newer than the catalog, else an error.
func (k *tfRuntimeCheck) versionWithoutRuntime() {
	tfr, t, raw := k.tfr, k.t, k.raw
	if k.c.newerThanCatalogTF(t.ver) {
		k.add(SeverityWarning, "Unknown TensorFlow Version", tfr.NameSource, nil,
			fmt.Sprintf("%q names TensorFlow %s, which is newer than the catalog (newest known: %s), so it is not checked further.", raw, t.version, tfr.Versions[0].Version))
		return
	}
	var sugg []string
	if k.g != nil {
		sugg = nearest(raw, k.c.tfCandidates(k.g, k.acc.MultiHost, nil))
	}
	k.add(SeverityError, "Unsupported TensorFlow Version", tfr.NameSource, sugg,
		fmt.Sprintf("%q names TensorFlow %s, which has no TPU VM runtime; versions with runtimes: %s.", raw, t.version, strings.Join(k.c.tfVersionNames(), ", ")))
}

// checkFramework warns about a TensorFlow runtime set for another
// framework (the valid framework the query sets, "" when none).
func (k *tfRuntimeCheck) checkFramework(framework string) {
	if framework == "" || framework == FrameworkTensorFlow {
		return
	}
	alt := ""
	var sugg []string
	if g := k.g; g != nil {
		alt = fmt.Sprintf("; for %s on %s use %q", k.c.frameworks[framework].DisplayName, g.Name, g.DefaultRuntime)
		sugg = []string{g.DefaultRuntime}
	}
	k.add(SeverityWarning, "TensorFlow Runtime for Another Framework", k.tfr.NameSource, sugg,
		fmt.Sprintf("%q is a TensorFlow image%s.", k.raw, alt))
}

// checkDeviceAPISuffix requires the device API suffix (-pjrt or -se) from
// the version that introduced it on, and none before.
func (k *tfRuntimeCheck) checkDeviceAPISuffix() {
	tfr, t, raw := k.tfr, k.t, k.raw
	deviceFrom, _ := parseVersion(tfr.DeviceAPIFrom)
	switch newer := compareVersion(t.ver, deviceFrom) >= 0; {
	case newer && t.api == "":
		fix := t
		fix.api = "pjrt"
		alt := t
		alt.api = "se"
		k.add(SeverityError, "Invalid TensorFlow Runtime Name", tfr.DeviceAPISource, []string{fix.String(), alt.String()},
			fmt.Sprintf("%q lacks the device API suffix that TensorFlow %s and later require; use %q or %q.", raw, tfr.DeviceAPIFrom, fix.String(), alt.String()))
	case !newer && t.api != "":
		fix := t
		fix.api = ""
		k.add(SeverityError, "Invalid TensorFlow Runtime Name", tfr.DeviceAPISource, []string{fix.String()},
			fmt.Sprintf("%q has a device API suffix, but TensorFlow runtimes before %s have none; use %q.", raw, tfr.DeviceAPIFrom, fix.String()))
	}
}

// canonicalName is the runtime name of version known for this slice, when
// there is one. A name written with the stream executor (-se) keeps it when
// the generation takes it, framework_version names no TensorFlow version
// and the name has no unverified suffix.
func (k *tfRuntimeCheck) canonicalName(known *TFVersion) (tfName, bool) {
	t := k.t
	want, ok := k.c.tfNameFor(k.g, k.acc.MultiHost, known)
	if ok && k.fwVer == nil && t.extra == "" && t.api == "se" && !slices.Contains(k.tfr.PJRTGenerations, k.g.Name) {
		want.api = "se"
	}
	return want, ok
}

// wantList suggests the canonical name, when there is one.
func (k *tfRuntimeCheck) wantList() []string {
	if k.wantOK {
		return []string{k.want.String()}
	}
	return nil
}

// checkPJRTOnly rejects the stream executor on a generation that supports
// only PJRT.
func (k *tfRuntimeCheck) checkPJRTOnly() {
	if slices.Contains(k.tfr.PJRTGenerations, k.g.Name) && k.t.api == "se" {
		k.add(SeverityError, "Invalid TensorFlow Runtime Name", k.tfr.PJRTSource, k.wantList(),
			fmt.Sprintf("%q uses the stream executor, but %s supports only the PJRT device API%s", k.raw, k.g.Name, useSuffix(k.wantOK, k.want)))
	}
}

// checkV4Suffix requires -v4 on v4 runtimes of the versions that have it,
// and rejects it elsewhere.
func (k *tfRuntimeCheck) checkV4Suffix() {
	tfr, t, raw, g := k.tfr, k.t, k.raw, k.g
	through, _ := parseVersion(tfr.V4SuffixThrough)
	oldForV4 := compareVersion(t.ver, through) <= 0
	switch {
	case g.Name == "v4" && oldForV4 && !t.v4:
		k.add(SeverityError, "Invalid TensorFlow Runtime Name", tfr.V4Source, k.wantList(),
			fmt.Sprintf("%q lacks -v4: TensorFlow %s and older on v4 need the v4 runtime%s", raw, tfr.V4SuffixThrough, useSuffix(k.wantOK, k.want)))
	case t.v4 && (g.Name != "v4" || !oldForV4):
		k.add(SeverityError, "Invalid TensorFlow Runtime Name", tfr.V4Source, k.wantList(),
			fmt.Sprintf("%q has -v4, but -v4 runtimes exist only for v4 with TensorFlow %s or older%s", raw, tfr.V4SuffixThrough, useSuffix(k.wantOK, k.want)))
	}
}

// checkPodSuffix requires -pod on a multi-host slice and warns about it on
// a single host.
func (k *tfRuntimeCheck) checkPodSuffix() {
	tfr, t, raw, acc := k.tfr, k.t, k.raw, k.acc
	switch {
	case acc.MultiHost && !t.pod:
		k.add(SeverityError, "TensorFlow Runtime Missing -pod", tfr.PodSource, k.wantList(),
			fmt.Sprintf("%q is for single-host slices, but %s spans %d hosts%s", raw, acc.Type, acc.Hosts, useSuffix(k.wantOK, k.want)))
	case !acc.MultiHost && t.pod:
		k.add(SeverityWarning, "TensorFlow -pod Runtime on a Single Host", tfr.PodSource, k.wantList(),
			fmt.Sprintf("%q is a -pod runtime for multi-host slices, but %s is single-host%s", raw, acc.Type, useSuffix(k.wantOK, k.want)))
	}
}

// checkUnverifiedSuffix reports a suffix seen in use but not documented:
// a warning on v5e and v6e, which it is for, else an error.
func (k *tfRuntimeCheck) checkUnverifiedSuffix() {
	if k.t.extra == "" {
		return
	}
	for _, u := range k.tfr.UnverifiedSuffixes {
		switch {
		case u.Suffix != k.t.extra:
			// Another suffix.
		case k.g.Name == "v5e" || k.g.Name == "v6e":
			k.add(SeverityWarning, "Unverified TensorFlow Runtime Name", u.Source, k.wantList(),
				fmt.Sprintf("%q is not a documented runtime name. %s", k.raw, u.Decision))
		default:
			k.add(SeverityError, "Invalid TensorFlow Runtime Name", u.Source, k.wantList(),
				fmt.Sprintf("%q uses the %s suffix, which is for v5e and v6e only%s", k.raw, u.Suffix, useSuffix(k.wantOK, k.want)))
		}
	}
}

// checkFrameworkVersion requires framework_version (fwVersion as written)
// to name the runtime's TensorFlow version; without it, the runtime's own
// version is checked against the generation's minimum.
func (k *tfRuntimeCheck) checkFrameworkVersion(fwVersion string) {
	c, t, raw, fwVer := k.c, k.t, k.raw, k.fwVer
	if fwVer != nil && fwVer.Version != t.version {
		var sugg []string
		if n, ok := c.tfNameFor(k.g, k.acc.MultiHost, fwVer); ok {
			sugg = []string{n.String()}
		}
		detail := fmt.Sprintf("framework_version %q does not match %q (TensorFlow %s)", fwVersion, raw, t.version)
		if len(sugg) > 0 {
			detail += fmt.Sprintf("; use %q or remove framework_version.", sugg[0])
		} else {
			detail += "."
		}
		k.add(SeverityError, "Framework Version Mismatch", k.tfr.NameSource, sugg, detail)
	}
	if fwVer == nil && fwVersion == "" {
		k.fs = append(k.fs, c.checkMinVersion(k.g, FrameworkTensorFlow, AttrRuntimeVersion, raw,
			fmt.Sprintf("%q (TensorFlow %s)", raw, t.version), "TensorFlow Version Too Old for Generation", t.ver, k.acc.MultiHost)...)
	}
}

// newerThanCatalogTF reports whether TensorFlow version v is newer than the
// newest version the catalog knows.
func (c *Catalog) newerThanCatalogTF(v version) bool {
	newest, _ := parseVersion(c.data.TensorFlow.Versions[0].Version)
	return compareVersion(v, newest) > 0
}

func useSuffix(ok bool, want tfName) string {
	if ok {
		return fmt.Sprintf("; use %q.", want.String())
	}
	return "."
}

// tfCandidatesFrom maps TF versions to runtime names for g.
func (c *Catalog) tfCandidatesFrom(g *Generation, multi bool, versions []string) []string {
	var out []string
	for _, v := range versions {
		if tv := c.tfVersions[v]; tv != nil {
			if n, ok := c.tfNameFor(g, multi, tv); ok {
				out = append(out, n.String())
			}
		}
	}
	return out
}

// checkBaseRuntime validates a non-TensorFlow runtime.
func (c *Catalog) checkBaseRuntime(g *Generation, rt *Runtime, fw string, multi bool) Findings {
	var fs Findings
	add := func(sev Severity, summary string, sugg []string, detail string) {
		fs = append(fs, newFinding(sev, AttrRuntimeVersion, rt.Name, summary, rt.Source, sugg, detail))
	}
	if g != nil && !slices.Contains(rt.Generations, g.Name) {
		add(SeverityError, "Runtime Version Does Not Support Generation", []string{g.DefaultRuntime},
			fmt.Sprintf("%q does not support %s; use %q.", rt.Name, g.Name, g.DefaultRuntime))
	}
	if rt.Status == StatusDeprecated {
		repl := rt.Replacement
		if g != nil {
			repl = g.DefaultRuntime
		}
		add(SeverityWarning, "Deprecated Runtime Version", []string{repl},
			fmt.Sprintf("%q is a legacy image that the current runtime list no longer shows; use %q.", rt.Name, repl))
	}
	switch {
	case fw == FrameworkTensorFlow:
		var sugg []string
		example := "tpu-vm-tf-2.16.1-pjrt"
		if best := c.bestTF(g, multi); best != "" {
			sugg = []string{best}
			example = best
		}
		add(SeverityError, "TensorFlow Needs a TensorFlow Runtime", sugg,
			fmt.Sprintf("%q is a base image without TensorFlow; TensorFlow runtimes name the version, e.g. %q.", rt.Name, example))
	case fw != "" && !slices.Contains(rt.Frameworks, fw):
		alt := rt.Replacement
		if g != nil {
			alt = g.DefaultRuntime
		}
		add(SeverityWarning, "Runtime Built for Another Framework", []string{alt},
			fmt.Sprintf("%q was built for %s; for %s use %q.", rt.Name, c.frameworkDisplays(rt.Frameworks), c.frameworks[fw].DisplayName, alt))
	}
	return fs
}

func (c *Catalog) frameworkDisplays(names []string) string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if f := c.frameworks[n]; f != nil {
			out = append(out, f.DisplayName)
		}
	}
	return joinAnd(out)
}

// RuntimeFramework returns the framework a runtime version implies and, for
// a TensorFlow runtime, its TensorFlow version: "tensorflow" and "2.18.0"
// for "tpu-vm-tf-2.18.0-pjrt"; the only framework of a base runtime that
// lists one. Both are "" when the runtime implies none (a base image that
// serves several frameworks, or a name the catalog does not know), so that
// what reads a VM back from the API can tell the framework it was created
// for whenever the runtime says it.
func (c *Catalog) RuntimeFramework(runtimeVersion string) (framework, version string) {
	if c.loadErr != nil {
		return "", ""
	}
	if isTFName(runtimeVersion) {
		if t, ok := parseTFName(runtimeVersion, c.tfExtras()); ok {
			return FrameworkTensorFlow, t.version
		}
		return "", ""
	}
	if rt := c.runtimes[runtimeVersion]; rt != nil && len(rt.Frameworks) == 1 {
		return rt.Frameworks[0], ""
	}
	return "", ""
}

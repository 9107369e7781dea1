// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"regexp"
	"strings"
)

// APICloudTPU and APIComputeEngine are the values of accel_tpu_vm's api.
const (
	APICloudTPU      = "cloud_tpu"
	APIComputeEngine = "compute_engine"
)

// APINames lists the values of accel_tpu_vm's api.
var APINames = []string{APICloudTPU, APIComputeEngine}

// ComputeEngineRules holds the catalog-wide rules of TPU VMs created as
// Compute Engine instances.
type ComputeEngineRules struct {
	// Source lists the TPU generations Compute Engine offers.
	Source string `json:"source"`
	// SingleHostSource and SingleHostDecision say why one instance is one
	// single-host slice.
	SingleHostSource   string `json:"single_host_source"`
	SingleHostDecision string `json:"single_host_decision"`
	// ImageFormsSource documents the boot image reference forms.
	ImageFormsSource   string `json:"image_forms_source"`
	ImageFormsDecision string `json:"image_forms_decision"`
	// DefaultAPIDecision says which api accel_tpu_vm uses when none is set.
	DefaultAPIDecision string `json:"default_api_decision"`
}

// ComputeEngineOffer says how Compute Engine offers a generation as TPU VM
// instances.
type ComputeEngineOffer struct {
	// MachineTypes name machine types of the generation's GKE list
	// (gke.machine_types), which holds their chips and status.
	MachineTypes []string           `json:"machine_types"`
	Source       string             `json:"source"`
	Image        ComputeEngineImage `json:"image"`
}

// ComputeEngineImage is the boot image family of a generation's Compute
// Engine TPU VMs.
type ComputeEngineImage struct {
	Project  string `json:"project"`
	Family   string `json:"family"`
	Status   string `json:"status"`
	Source   string `json:"source"`
	Decision string `json:"decision"`
}

// ComputeEngineTPU is what the catalog knows about creating an accelerator type as a Compute Engine instance.
type ComputeEngineTPU struct {
	MachineType  string // "tpu7x-standard-4t"
	ImageProject string // "ubuntu-os-accelerator-images"
	ImageFamily  string
	DefaultImage string // "projects/<ImageProject>/global/images/family/<ImageFamily>"
	Source       string
}

// familyImage is the image reference of an image family.
func familyImage(project, family string) string {
	return "projects/" + project + "/global/images/family/" + family
}

// indexComputeEngine maps each Compute Engine machine type to the
// single-host accelerator type with its chips. It runs after the
// generations are indexed.
func (c *Catalog) indexComputeEngine() error {
	c.ceByType = make(map[string]ComputeEngineTPU)
	c.ceByMachine = make(map[string]string)
	for _, g := range c.data.Generations {
		ce := g.ComputeEngine
		if ce == nil {
			continue
		}
		if ce.Image.Project == "" || ce.Image.Family == "" {
			return fmt.Errorf("generation %q: Compute Engine image without project or family", g.Name)
		}
		for _, name := range ce.MachineTypes {
			ref, ok := c.tpuMachines[name]
			if !ok || ref.gen != g {
				return fmt.Errorf("generation %q: Compute Engine machine type %q is not one of its GKE machine types", g.Name, name)
			}
			var size *SliceSize
			for i := range g.Sizes {
				if s := &g.Sizes[i]; s.VMs == 1 && s.Chips == ref.mt.Chips {
					size = s
					break
				}
			}
			if size == nil {
				return fmt.Errorf("generation %q: no single-host accelerator type has the %d chips of %q", g.Name, ref.mt.Chips, name)
			}
			at := typeName(g, size.Size)
			if _, dup := c.ceByType[at]; dup {
				return fmt.Errorf("generation %q: two Compute Engine machine types for %q", g.Name, at)
			}
			c.ceByType[at] = ComputeEngineTPU{
				MachineType:  name,
				ImageProject: ce.Image.Project,
				ImageFamily:  ce.Image.Family,
				DefaultImage: familyImage(ce.Image.Project, ce.Image.Family),
				Source:       ce.Source,
			}
			c.ceByMachine[name] = at
		}
	}
	return nil
}

// ComputeEngineRules returns the rules of TPU VMs created as Compute Engine instances.
func (c *Catalog) ComputeEngineRules() ComputeEngineRules { return c.data.ComputeEngine }

// ComputeEngineGenerations returns the generations Compute Engine creates
// as TPU VM instances, oldest first.
func (c *Catalog) ComputeEngineGenerations() []string {
	var out []string
	for _, g := range c.data.Generations {
		if g.ComputeEngine != nil {
			out = append(out, g.Name)
		}
	}
	return out
}

// computeEngineTypes lists the accelerator types of g that Compute Engine
// creates as one instance, smallest first.
func (c *Catalog) computeEngineTypes(g *Generation) []string {
	var out []string
	for _, s := range g.Sizes {
		if at := typeName(g, s.Size); c.ceByType[at].MachineType != "" {
			out = append(out, at)
		}
	}
	return out
}

// ComputeEngineTPU returns the Compute Engine shape of acceleratorType. Findings are on attribute "accelerator_type": an error for a generation Compute Engine does not create as TPU VM instances (naming the api = "cloud_tpu" fix), and for a multi-host type (naming the fixes: api = "cloud_tpu" where the Cloud TPU API offers it, or a GKE node pool with accel_fallback_nodepools).
func (c *Catalog) ComputeEngineTPU(acceleratorType string) (ComputeEngineTPU, Findings) {
	if c.loadErr != nil {
		return ComputeEngineTPU{}, c.unavailable(AttrAcceleratorType)
	}
	acc, fs := c.accelerator(acceleratorType)
	if fs.HasErrors() {
		return ComputeEngineTPU{}, fs
	}
	shape, sfs := c.computeEngineShape(acceleratorType, acc)
	return shape, append(fs, sfs...)
}

// computeEngineShape is ComputeEngineTPU for a type already found in the
// catalog (acc): the shape, or the finding that Compute Engine does not
// create it, without the accelerator type's own findings.
func (c *Catalog) computeEngineShape(acceleratorType string, acc Accelerator) (ComputeEngineTPU, Findings) {
	var fs Findings
	g := c.gens[acc.Generation]
	rules := &c.data.ComputeEngine
	if g.ComputeEngine == nil {
		return ComputeEngineTPU{}, append(fs, newFinding(SeverityError, AttrAcceleratorType, acceleratorType,
			"TPU Generation Not Offered on Compute Engine", rules.Source, nil,
			fmt.Sprintf("%q is %s, which Compute Engine does not create as TPU VM instances (it offers %s); set api = %q to create it through the Cloud TPU API.",
				acceleratorType, g.DisplayName, joinAnd(c.ComputeEngineGenerations()), APICloudTPU)))
	}
	if shape, ok := c.ceByType[acc.Type]; ok {
		return shape, fs
	}
	single := c.computeEngineTypes(g)
	var fixes []string
	if g.TPUAPI.Supported {
		fixes = append(fixes, fmt.Sprintf("set api = %q to create it through the Cloud TPU API", APICloudTPU))
	}
	switch {
	case acc.GKEMachineType != "" && acc.MultiHost && g.GKE != nil && g.GKE.WorkloadPolicyMultiHost:
		fixes = append(fixes, fmt.Sprintf("create it as a GKE node pool with accel_fallback_nodepools (a tier with accelerator_type = %q: "+
			"machine type %s, %d nodes, placed by a workload policy the resource creates)", acceleratorType, acc.GKEMachineType, acc.GKENodeCount))
	case acc.GKEMachineType != "":
		fixes = append(fixes, fmt.Sprintf("use a GKE node pool with accel_fallback_nodepools (machine type %s, %d nodes)", acc.GKEMachineType, acc.GKENodeCount))
	}
	summary, why := "No Compute Engine Machine Type", fmt.Sprintf("it has no Compute Engine machine type of %d chips", acc.Chips)
	if acc.MultiHost {
		summary, why = "Multi-Host Slice Not Supported on Compute Engine", fmt.Sprintf("it is a multi-host slice (%d VMs), and accel_tpu_vm creates one Compute Engine instance, a single-host slice (Compute Engine builds multi-host slices as managed instance groups)", acc.Hosts)
	}
	detail := fmt.Sprintf("%q cannot be created with api = %q: %s. Single-host %s types on Compute Engine: %s.",
		acceleratorType, APIComputeEngine, why, g.Name, strings.Join(single, ", "))
	if len(fixes) > 0 {
		detail += " Or " + strings.Join(fixes, ", or ") + "."
	}
	f := newFinding(SeverityError, AttrAcceleratorType, acceleratorType, summary, rules.SingleHostSource, single, detail)
	// accel_tpu_vm creates one instance: a multi-host slice is beyond what
	// it does, whatever the catalog's date.
	if acc.MultiHost {
		f.Basis = BasisLimit
	}
	return ComputeEngineTPU{}, append(fs, f)
}

// DefaultAPI is the api accel_tpu_vm uses when none is set: APIComputeEngine for generations the Cloud TPU API docs say it does not support (TPU7x), APICloudTPU otherwise.
func (c *Catalog) DefaultAPI(acceleratorType string) string {
	if c.loadErr != nil {
		return APICloudTPU
	}
	prefix, _, ok := parseAcceleratorType(acceleratorType)
	if !ok {
		return APICloudTPU
	}
	if g := c.genByPrefix[prefix]; g != nil && !g.TPUAPI.Supported && g.ComputeEngine != nil {
		return APIComputeEngine
	}
	return APICloudTPU
}

// AcceleratorTypeOfMachineType maps a Compute Engine TPU machine type back to the accelerator type ("ct6e-standard-4t" -> "v6e-4"), for import and read-back.
func (c *Catalog) AcceleratorTypeOfMachineType(machineType string) (string, bool) {
	at, ok := c.ceByMachine[machineType]
	return at, ok
}

// Boot image references, as AttachedDiskInitializeParams.sourceImage takes
// them: [https URL prefix][projects/P/]global/images/(NAME|family/F).
var (
	imageURLPrefixes = []string{"https://www.googleapis.com/compute/v1/", "https://compute.googleapis.com/compute/v1/"}
	imageRefRe       = regexp.MustCompile(`^(?:projects/([a-z0-9](?:[a-z0-9.:-]*[a-z0-9])?)/)?global/images/(family/)?([a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)$`)
)

// imageRef is a parsed boot image reference.
type imageRef struct {
	project string // "" for the project-relative global/images/... forms
	family  bool
	name    string // image or family name
}

func parseImageRef(s string) (imageRef, bool) {
	rest := s
	for _, p := range imageURLPrefixes {
		if strings.HasPrefix(s, p) {
			rest = strings.TrimPrefix(s, p)
			if !strings.HasPrefix(rest, "projects/") {
				return imageRef{}, false
			}
			break
		}
	}
	m := imageRefRe.FindStringSubmatch(rest)
	if m == nil {
		return imageRef{}, false
	}
	return imageRef{project: m[1], family: m[2] != "", name: m[3]}, true
}

// checkBootImage validates runtime_version as the boot image of a Compute
// Engine TPU VM of generation g (nil when unknown).
func (c *Catalog) checkBootImage(g *Generation, s string) Findings {
	rules := &c.data.ComputeEngine
	var def string
	var sugg []string
	if g != nil && g.ComputeEngine != nil {
		def = familyImage(g.ComputeEngine.Image.Project, g.ComputeEngine.Image.Family)
		sugg = []string{def}
	}
	use := "leave runtime_version unset to boot the generation's default image"
	if def != "" {
		use = fmt.Sprintf("use %q or leave runtime_version unset", def)
	}
	if c.runtimes[s] != nil || isTFName(s) {
		return Findings{newFinding(SeverityError, AttrRuntimeVersion, s, "Cloud TPU Software Version on Compute Engine",
			rules.ImageFormsSource, sugg,
			fmt.Sprintf("%q is a Cloud TPU software version, which only the Cloud TPU API (api = %q) uses; a Compute Engine TPU VM (api = %q) boots an image: %s.",
				s, APICloudTPU, APIComputeEngine, use))}
	}
	ref, ok := parseImageRef(s)
	if !ok {
		return Findings{newFinding(SeverityError, AttrRuntimeVersion, s, "Invalid Boot Image", rules.ImageFormsSource, sugg,
			fmt.Sprintf("%q is not a Compute Engine image; with api = %q, runtime_version is the boot image: projects/PROJECT/global/images/IMAGE, projects/PROJECT/global/images/family/FAMILY, global/images/IMAGE or global/images/family/FAMILY (the VM's project), or the https://www.googleapis.com/compute/v1/ URL of a projects/... form; %s.",
				s, APIComputeEngine, use))}
	}
	if g == nil || g.ComputeEngine == nil || !ref.family {
		return nil
	}
	own := g.ComputeEngine.Image
	if ref.project == own.Project && ref.name == own.Family {
		return nil
	}
	var others []string
	for _, o := range c.data.Generations {
		if o.ComputeEngine != nil && o.ComputeEngine.Image.Project == ref.project && o.ComputeEngine.Image.Family == ref.name {
			others = append(others, o.Name)
		}
	}
	if len(others) == 0 {
		return nil
	}
	return Findings{newFinding(SeverityWarning, AttrRuntimeVersion, s, "Boot Image for Another Generation", own.Source, sugg,
		fmt.Sprintf("%q is the image family of %s TPU VMs, not of %s; for %s use %q.",
			s, joinAnd(others), g.Name, g.Name, def))}
}

// bootImageReason says why the catalog chose or accepted a Compute Engine
// boot image.
func (c *Catalog) bootImageReason(q RuntimeQuery, g *Generation, fw, image string) string {
	install := "install your framework"
	if f := c.frameworks[fw]; f != nil {
		install = "install " + f.DisplayName
	}
	if q.RuntimeVersion != "" {
		return fmt.Sprintf("%q is the boot image of the Compute Engine TPU VM; %s on the VM after it starts.", image, install)
	}
	img := g.ComputeEngine.Image
	seen := "the"
	if img.Status == StatusUnverified {
		seen = "the (unverified)"
	}
	return fmt.Sprintf("%q is %s image family for %s Compute Engine TPU VMs (%s); %s on the VM after it starts.",
		image, seen, g.Name, img.Source, install)
}

// computeEngineCandidates lists the boot images for g: its default image.
func computeEngineCandidates(g *Generation) []string {
	if g == nil || g.ComputeEngine == nil {
		return nil
	}
	return []string{familyImage(g.ComputeEngine.Image.Project, g.ComputeEngine.Image.Family)}
}

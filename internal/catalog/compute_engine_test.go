// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	srcComputeTPUs   = "https://cloud.google.com/compute/docs/tpus/tpu-machines"
	srcComputeTPURes = "https://docs.cloud.google.com/compute/docs/tpus/tpu-resources-in-compute-engine"
	srcSourceImage   = "https://cloud.google.com/compute/docs/reference/rest/v1/instances"
	srcVLLMSetup     = "https://github.com/vllm-project/tpu-inference/blob/b8692ff01fa191343836996c27a39dc95f008b88/docs/mkdocs/javascripts/interactive.js"
	srcSkyPilot      = "https://github.com/skypilot-org/skypilot"

	imageV6 = "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e"
	imageV7 = "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2404-amd64-tpu-tpu7x"
)

func TestComputeEngineTPUShapes(t *testing.T) {
	t.Parallel()
	v6 := func(mt string) ComputeEngineTPU {
		return ComputeEngineTPU{MachineType: mt, ImageProject: "ubuntu-os-accelerator-images",
			ImageFamily: "ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e", DefaultImage: imageV6, Source: srcComputeTPUs}
	}
	v7 := func(mt string) ComputeEngineTPU {
		return ComputeEngineTPU{MachineType: mt, ImageProject: "ubuntu-os-accelerator-images",
			ImageFamily: "ubuntu-accel-2404-amd64-tpu-tpu7x", DefaultImage: imageV7, Source: srcComputeTPUs}
	}
	tests := []struct {
		acceleratorType string
		want            ComputeEngineTPU
		findings        Findings
	}{
		{"v6e-1", v6("ct6e-standard-1t"), nil},
		{"v6e-4", v6("ct6e-standard-4t"), nil},
		{"v6e-8", v6("ct6e-standard-8t"), nil},
		{"v5p-8", v6("ct5p-hightpu-4t"), nil},
		{"tpu7x-8", v7("tpu7x-standard-4t"), nil},
		// The 1x1x1 TPU7x shape is only in xpk: accepted with the accelerator type's warning.
		{"tpu7x-2", v7("tpu7x-standard-1t"), nil},
	}
	c := Default()
	for _, tt := range tests {
		got, fs := c.ComputeEngineTPU(tt.acceleratorType)
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ComputeEngineTPU(%q) shape (-want +got):\n%s", tt.acceleratorType, d)
		}
		if d := diffFindings(tt.findings, fs); d != "" {
			t.Errorf("ComputeEngineTPU(%q) findings (-want +got):\n%s", tt.acceleratorType, d)
		}
	}
}

func TestComputeEngineTPURefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		acceleratorType string
		want            Findings
	}{
		{"v5e is Cloud TPU API only", "v5litepod-4", Findings{errAt(AttrAcceleratorType, "v5litepod-4", "TPU Generation Not Offered on Compute Engine",
			`"v5litepod-4" is TPU v5e, which Compute Engine does not create as TPU VM instances (it offers v5p, v6e and tpu7x); set api = "cloud_tpu" to create it through the Cloud TPU API.`, srcComputeTPUs)}},
		{"v4 is Cloud TPU API only", "v4-8", Findings{errAt(AttrAcceleratorType, "v4-8", "TPU Generation Not Offered on Compute Engine",
			`"v4-8" is TPU v4, which Compute Engine does not create as TPU VM instances (it offers v5p, v6e and tpu7x); set api = "cloud_tpu" to create it through the Cloud TPU API.`, srcComputeTPUs)}},
		{"multi-host v6e", "v6e-16", Findings{limit(errAt(AttrAcceleratorType, "v6e-16", "Multi-Host Slice Not Supported on Compute Engine",
			`"v6e-16" cannot be created with api = "compute_engine": it is a multi-host slice (4 VMs), and accel_tpu_vm creates one Compute Engine instance, a single-host slice (Compute Engine builds multi-host slices as managed instance groups). Single-host v6e types on Compute Engine: v6e-1, v6e-4, v6e-8. Or set api = "cloud_tpu" to create it through the Cloud TPU API, or use a GKE node pool with accel_fallback_nodepools (machine type ct6e-standard-4t, 4 nodes).`,
			srcComputeTPURes, "v6e-1", "v6e-4", "v6e-8"))}},
		{"multi-host v5p", "v5p-16", Findings{limit(errAt(AttrAcceleratorType, "v5p-16", "Multi-Host Slice Not Supported on Compute Engine",
			`"v5p-16" cannot be created with api = "compute_engine": it is a multi-host slice (2 VMs), and accel_tpu_vm creates one Compute Engine instance, a single-host slice (Compute Engine builds multi-host slices as managed instance groups). Single-host v5p types on Compute Engine: v5p-8. Or set api = "cloud_tpu" to create it through the Cloud TPU API, or use a GKE node pool with accel_fallback_nodepools (machine type ct5p-hightpu-4t, 2 nodes).`,
			srcComputeTPURes, "v5p-8"))}},
		// The Cloud TPU API does not officially offer TPU7x, and GKE places a
		// multi-host TPU7x pool with a workload policy, which
		// accel_fallback_nodepools does not create: the advice is not to use it.
		{"multi-host TPU7x", "tpu7x-16", Findings{limit(errAt(AttrAcceleratorType, "tpu7x-16", "Multi-Host Slice Not Supported on Compute Engine",
			`"tpu7x-16" cannot be created with api = "compute_engine": it is a multi-host slice (2 VMs), and accel_tpu_vm creates one Compute Engine instance, a single-host slice (Compute Engine builds multi-host slices as managed instance groups). Single-host tpu7x types on Compute Engine: tpu7x-2, tpu7x-8. Or create it as a GKE node pool with accel_fallback_nodepools (a tier with accelerator_type = "tpu7x-16": machine type tpu7x-standard-4t, 2 nodes, placed by a workload policy the resource creates).`,
			srcComputeTPURes, "tpu7x-2", "tpu7x-8"))}},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, fs := c.ComputeEngineTPU(tt.acceleratorType)
			if got != (ComputeEngineTPU{}) {
				t.Errorf("shape = %+v, want none", got)
			}
			if d := diffFindings(tt.want, fs); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

func TestComputeEngineTPUInvalidType(t *testing.T) {
	t.Parallel()
	c := Default()
	got, fs := c.ComputeEngineTPU("v6e-3")
	_, want := c.Accelerator("v6e-3")
	if got != (ComputeEngineTPU{}) || !want.HasErrors() {
		t.Fatalf("shape = %+v, accelerator findings %v", got, want)
	}
	if d := diffFindings(want, fs); d != "" {
		t.Errorf("an invalid type gets the accelerator type's own findings (-want +got):\n%s", d)
	}
}

func TestDefaultAPI(t *testing.T) {
	t.Parallel()
	c := Default()
	for at, want := range map[string]string{
		"tpu7x-8":     APIComputeEngine,
		"tpu7x-16":    APIComputeEngine, // refused by ComputeEngineTPU with the GKE fix
		"tpu7x-3":     APIComputeEngine, // an invalid size keeps its generation's api
		"v6e-8":       APICloudTPU,
		"v5p-8":       APICloudTPU,
		"v5litepod-4": APICloudTPU,
		"v2-8":        APICloudTPU,
		"":            APICloudTPU,
		"nonsense":    APICloudTPU,
	} {
		if got := c.DefaultAPI(at); got != want {
			t.Errorf("DefaultAPI(%q) = %q, want %q", at, got, want)
		}
	}
}

func TestAcceleratorTypeOfMachineType(t *testing.T) {
	t.Parallel()
	c := Default()
	for mt, want := range map[string]string{
		"ct6e-standard-1t":  "v6e-1",
		"ct6e-standard-4t":  "v6e-4",
		"ct6e-standard-8t":  "v6e-8",
		"ct5p-hightpu-4t":   "v5p-8",
		"tpu7x-standard-4t": "tpu7x-8",
		"tpu7x-standard-1t": "tpu7x-2",
	} {
		got, ok := c.AcceleratorTypeOfMachineType(mt)
		if !ok || got != want {
			t.Errorf("AcceleratorTypeOfMachineType(%q) = %q, %v; want %q", mt, got, ok, want)
		}
		// Both directions agree.
		if shape, _ := c.ComputeEngineTPU(want); shape.MachineType != mt {
			t.Errorf("ComputeEngineTPU(%q).MachineType = %q, want %q", want, shape.MachineType, mt)
		}
	}
	// Unknown, GKE-only and unverified-without-a-type machine types have no accelerator type.
	for _, mt := range []string{"", "n2-standard-8", "ct5lp-hightpu-4t", "ct4p-hightpu-4t", "ct5p-hightpu-1t", "CT6E-STANDARD-4T"} {
		if got, ok := c.AcceleratorTypeOfMachineType(mt); ok {
			t.Errorf("AcceleratorTypeOfMachineType(%q) = %q, want none", mt, got)
		}
	}
}

func TestComputeEngineBootImage(t *testing.T) {
	t.Parallel()
	const useV6 = `use "` + imageV6 + `" or leave runtime_version unset`
	formsErr := func(v, use string, sugg ...string) Findings {
		return Findings{errAt(AttrRuntimeVersion, v, "Invalid Boot Image",
			`"`+v+`" is not a Compute Engine image; with api = "compute_engine", runtime_version is the boot image: projects/PROJECT/global/images/IMAGE, projects/PROJECT/global/images/family/FAMILY, global/images/IMAGE or global/images/family/FAMILY (the VM's project), or the https://www.googleapis.com/compute/v1/ URL of a projects/... form; `+use+`.`,
			srcSourceImage, sugg...)}
	}
	softwareErr := func(v string) Findings {
		return Findings{errAt(AttrRuntimeVersion, v, "Cloud TPU Software Version on Compute Engine",
			`"`+v+`" is a Cloud TPU software version, which only the Cloud TPU API (api = "cloud_tpu") uses; a Compute Engine TPU VM (api = "compute_engine") boots an image: `+useV6+`.`,
			srcSourceImage, imageV6)}
	}
	tests := []struct {
		name, acceleratorType, image string
		want                         Findings
	}{
		{"own family", "v6e-8", imageV6, nil},
		{"full URL of the family", "v6e-4", "https://www.googleapis.com/compute/v1/" + imageV6, nil},
		{"compute.googleapis.com URL", "v5p-8", "https://compute.googleapis.com/compute/v1/projects/my-proj/global/images/my-image", nil},
		{"a named image", "v6e-8", "projects/my-project/global/images/my-tpu-image-20260101", nil},
		{"a project-relative family", "v6e-8", "global/images/family/my-family", nil},
		{"a project-relative image", "tpu7x-8", "global/images/my-image", nil},
		{"a family of another project", "tpu7x-8", "projects/my-project/global/images/family/ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e", nil},
		{"v5p and v6e share a family", "v5p-8", imageV6, nil},
		{"TPU7x family on v6e", "v6e-8", imageV7, Findings{warnAt(AttrRuntimeVersion, imageV7, "Boot Image for Another Generation",
			`"`+imageV7+`" is the image family of tpu7x TPU VMs, not of v6e; for v6e use "`+imageV6+`".`, srcVLLMSetup, imageV6)}},
		{"v6e family on TPU7x", "tpu7x-8", "https://www.googleapis.com/compute/v1/" + imageV6, Findings{warnAt(AttrRuntimeVersion, "https://www.googleapis.com/compute/v1/"+imageV6, "Boot Image for Another Generation",
			`"https://www.googleapis.com/compute/v1/`+imageV6+`" is the image family of v5p and v6e TPU VMs, not of tpu7x; for tpu7x use "`+imageV7+`".`, srcSkyPilot, imageV7)}},
		{"Cloud TPU runtime", "v6e-8", "v2-alpha-tpuv6e", softwareErr("v2-alpha-tpuv6e")},
		{"Cloud TPU base runtime", "v6e-8", "tpu-ubuntu2204-base", softwareErr("tpu-ubuntu2204-base")},
		{"TensorFlow runtime", "v6e-8", "tpu-vm-tf-2.18.0-pjrt", softwareErr("tpu-vm-tf-2.18.0-pjrt")},
		{"bare family name", "v6e-8", "ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e", formsErr("ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e", useV6, imageV6)},
		{"upper case", "v6e-8", "projects/P/global/images/X", formsErr("projects/P/global/images/X", useV6, imageV6)},
		{"http URL", "v6e-8", "http://www.googleapis.com/compute/v1/" + imageV6, formsErr("http://www.googleapis.com/compute/v1/"+imageV6, useV6, imageV6)},
		{"URL without project", "v6e-8", "https://www.googleapis.com/compute/v1/global/images/x", formsErr("https://www.googleapis.com/compute/v1/global/images/x", useV6, imageV6)},
		{"zonal path", "v6e-8", "projects/p1234/zones/us-central1-b/images/x", formsErr("projects/p1234/zones/us-central1-b/images/x", useV6, imageV6)},
		{"empty family", "v6e-8", "projects/p1234/global/images/family/", formsErr("projects/p1234/global/images/family/", useV6, imageV6)},
		{"no generation", "", "not an image", formsErr("not an image", "leave runtime_version unset to boot the generation's default image")},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: tt.acceleratorType, RuntimeVersion: tt.image, ForComputeEngine: true})
			fs := r.Findings
			if tt.acceleratorType == "" {
				fs = fs[:0:0]
				for _, f := range r.Findings {
					if f.Attribute == AttrRuntimeVersion {
						fs = append(fs, f)
					}
				}
			}
			if d := diffFindings(tt.want, fs); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			if r.RuntimeVersion != tt.image {
				t.Errorf("RuntimeVersion = %q, want the given %q", r.RuntimeVersion, tt.image)
			}
			if r.Source != "" {
				t.Errorf("Source = %q for a given image, want empty", r.Source)
			}
		})
	}
}

func TestComputeEngineDefaultImage(t *testing.T) {
	t.Parallel()
	c := Default()
	tests := []struct {
		q                   RuntimeQuery
		image, source, text string
	}{
		{RuntimeQuery{AcceleratorType: "tpu7x-8", Framework: "jax", ForComputeEngine: true}, imageV7, srcSkyPilot,
			`"` + imageV7 + `" is the (unverified) image family for tpu7x Compute Engine TPU VMs (` + srcSkyPilot + `); install JAX on the VM after it starts.`},
		{RuntimeQuery{AcceleratorType: "v6e-4", ForComputeEngine: true}, imageV6, srcVLLMSetup,
			`"` + imageV6 + `" is the (unverified) image family for v6e Compute Engine TPU VMs (` + srcVLLMSetup + `); install your framework on the VM after it starts.`},
		// TensorFlow: the boot image still, not a TensorFlow runtime name.
		{RuntimeQuery{AcceleratorType: "v5p-8", Framework: "tensorflow", ForComputeEngine: true}, imageV6, srcVLLMSetup,
			`"` + imageV6 + `" is the (unverified) image family for v5p Compute Engine TPU VMs (` + srcVLLMSetup + `); install TensorFlow on the VM after it starts.`},
	}
	for _, tt := range tests {
		r := c.ResolveRuntime(tt.q)
		mustNoFindings(t, tt.q.AcceleratorType, r.Findings)
		if r.RuntimeVersion != tt.image || r.Source != tt.source || r.Reason != tt.text {
			t.Errorf("%+v: got %q from %q (%q), want %q from %q (%q)", tt.q, r.RuntimeVersion, r.Source, r.Reason, tt.image, tt.source, tt.text)
		}
		if d := cmp.Diff([]string{tt.image}, r.Candidates); d != "" {
			t.Errorf("%+v candidates (-want +got):\n%s", tt.q, d)
		}
	}
	// A generation Compute Engine does not offer chooses no image, and the
	// query says why, once, as ComputeEngineTPU does.
	r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v5litepod-4", ForComputeEngine: true})
	_, want := c.ComputeEngineTPU("v5litepod-4")
	if d := cmp.Diff(want.Errors(), r.Findings.Errors()); d != "" || len(want.Errors()) != 1 {
		t.Errorf("v5litepod-4 errors (-ComputeEngineTPU +ResolveRuntime):\n%s", d)
	}
	if r.RuntimeVersion != "" || len(r.Candidates) != 0 {
		t.Errorf("v5litepod-4: got %q %v (%q), want no image", r.RuntimeVersion, r.Candidates, r.Reason)
	}
	// The TPU API's chosen runtime carries its source too.
	r = c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v6e-4", ForTPUAPI: true})
	if r.RuntimeVersion != "v2-alpha-tpuv6e" || r.Source != srcRuntimes {
		t.Errorf("v6e-4 on the Cloud TPU API: %q from %q", r.RuntimeVersion, r.Source)
	}
}

// TestComputeEngineFrameworkChecksStay checks that framework and
// framework_version rules apply on the Compute Engine path as on the Cloud
// TPU API, and that the TPU7x Cloud TPU API warning does not.
func TestComputeEngineFrameworkChecksStay(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, q := range []RuntimeQuery{
		{AcceleratorType: "tpu7x-8", Framework: "tensorflow"},
		{AcceleratorType: "v6e-8", Framework: "jaxx"},
		{AcceleratorType: "v6e-8", Framework: "pytorch", FrameworkVersion: "2.0.0"},
		{AcceleratorType: "v6e-8", FrameworkVersion: "2.5.0"},
	} {
		want := c.ResolveRuntime(q).Findings
		if len(want) == 0 {
			t.Fatalf("%+v: the case needs a finding", q)
		}
		q.ForComputeEngine = true
		if d := diffFindings(want, c.ResolveRuntime(q).Findings); d != "" {
			t.Errorf("%+v (-without +with ForComputeEngine):\n%s", q, d)
		}
	}
	r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: "tpu7x-8", Framework: "jax", ForComputeEngine: true})
	mustNoFindings(t, "tpu7x-8 on Compute Engine", r.Findings)
}

func TestComputeEngineUnavailableCatalog(t *testing.T) {
	t.Parallel()
	c := &Catalog{loadErr: errors.New("broken data")}
	if _, fs := c.ComputeEngineTPU("v6e-8"); len(fs) != 1 || fs[0].Attribute != AttrAcceleratorType || !fs.HasErrors() {
		t.Errorf("ComputeEngineTPU on an unloaded catalog: %v", fs)
	}
	if got := c.DefaultAPI("tpu7x-8"); got != APICloudTPU {
		t.Errorf("DefaultAPI on an unloaded catalog = %q", got)
	}
	if _, ok := c.AcceleratorTypeOfMachineType("ct6e-standard-4t"); ok {
		t.Error("AcceleratorTypeOfMachineType on an unloaded catalog found a type")
	}
}

func TestParseImageRefForms(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]imageRef{
		"projects/p-1/global/images/img":                                   {project: "p-1", name: "img"},
		"projects/google.com:p/global/images/family/f1":                    {project: "google.com:p", family: true, name: "f1"},
		"global/images/family/f":                                           {family: true, name: "f"},
		"https://www.googleapis.com/compute/v1/projects/p/global/images/i": {project: "p", name: "i"},
	} {
		got, ok := parseImageRef(s)
		if !ok || got != want {
			t.Errorf("parseImageRef(%q) = %+v, %v; want %+v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "projects//global/images/i", "projects/p/global/images/family/", "projects/p/global/images/i/extra",
		"https://www.googleapis.com/compute/v1/global/images/i", "projects/p/global/images/" + strings.Repeat("a", 64), "images/i"} {
		if got, ok := parseImageRef(s); ok {
			t.Errorf("parseImageRef(%q) = %+v, want no match", s, got)
		}
	}
}

// TestLoadComputeEngineMinimal is the control for the Compute Engine cases
// of TestLoadRejectsBadData: the same data, made whole, loads and maps.
func TestLoadComputeEngineMinimal(t *testing.T) {
	t.Parallel()
	c, err := load([]byte(`{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1,"sizes":[{"size":4,"chips":4,"vms":1}],` +
		`"gke":{"machine_types":[{"name":"x-4t","chips":4}]},"compute_engine":{"machine_types":["x-4t"],"image":{"project":"p","family":"f"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if at, ok := c.AcceleratorTypeOfMachineType("x-4t"); !ok || at != "x-4" {
		t.Errorf("x-4t maps to %q, %v", at, ok)
	}
	if shape, _ := c.ComputeEngineTPU("x-4"); shape.DefaultImage != "projects/p/global/images/family/f" {
		t.Errorf("x-4 shape %+v", shape)
	}
}

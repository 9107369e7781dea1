// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDefaultLoads(t *testing.T) {
	t.Parallel()
	c := Default()
	if err := c.Err(); err != nil {
		t.Fatalf("embedded catalog does not load: %v", err)
	}
	if c != Default() {
		t.Error("Default returns a different catalog on the second call")
	}
	if c.Version() == "" {
		t.Error("catalog version is empty")
	}
	if _, err := time.Parse(time.DateOnly, c.Date()); err != nil {
		t.Errorf("catalog date %q is not YYYY-MM-DD: %v", c.Date(), err)
	}
	want := []string{"v2", "v3", "v4", "v5e", "v5p", "v6e", "tpu7x"}
	if got := c.GenerationNames(); !slices.Equal(got, want) {
		t.Errorf("generations = %v, want %v", got, want)
	}
	if got, want := c.Frameworks(), []string{"jax", "pytorch", "tensorflow", "vllm", "vllm-torchtpu"}; !slices.Equal(got, want) {
		t.Errorf("frameworks = %v, want %v", got, want)
	}
}

func TestLoadRejectsBadData(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"syntax":    `{`,
		"bad zone":  `{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1,"zones":[{"zone":"nowhere"}]}]}`,
		"no prefix": `{"generations":[{"name":"x","tensorcores_per_chip":1}]}`,
		"duplicate": `{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1},{"name":"x","api_prefix":"y","tensorcores_per_chip":1}]}`,
		"Compute Engine machine type not in GKE": `{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1,"sizes":[{"size":4,"chips":4,"vms":1}],` +
			`"compute_engine":{"machine_types":["x-4t"],"image":{"project":"p","family":"f"}}}]}`,
		"Compute Engine machine type without a single-host size": `{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1,"sizes":[{"size":8,"chips":8,"vms":2}],` +
			`"gke":{"machine_types":[{"name":"x-4t","chips":4}]},"compute_engine":{"machine_types":["x-4t"],"image":{"project":"p","family":"f"}}}]}`,
		"Compute Engine image without family": `{"generations":[{"name":"x","api_prefix":"x","tensorcores_per_chip":1,"sizes":[{"size":4,"chips":4,"vms":1}],` +
			`"gke":{"machine_types":[{"name":"x-4t","chips":4}]},"compute_engine":{"machine_types":["x-4t"],"image":{"project":"p"}}}]}`,
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := load([]byte(data)); err == nil {
				t.Errorf("load(%s) succeeded, want an error", data)
			}
		})
	}
}

func TestUnavailableCatalogReportsFindings(t *testing.T) {
	t.Parallel()
	c := &Catalog{loadErr: errors.New("broken data")}
	want := Findings{errAt(AttrAcceleratorType, "", "Compatibility Catalog Unavailable",
		"The compatibility catalog could not be loaded: broken data.", "")}
	if _, got := c.Accelerator("v6e-4"); diffFindings(want, got) != "" {
		t.Errorf("Accelerator findings (-want +got):\n%s", diffFindings(want, got))
	}
	if r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v6e-4"}); !r.Findings.HasErrors() {
		t.Error("ResolveRuntime on an unavailable catalog has no error")
	}
	if _, fs := c.TPUNodePool(TPUPoolQuery{AcceleratorType: "v6e-4"}); !fs.HasErrors() {
		t.Error("TPUNodePool on an unavailable catalog has no error")
	}
	if _, fs := c.GPUNodePool(GPUPoolQuery{MachineType: "g2-standard-4"}); !fs.HasErrors() {
		t.Error("GPUNodePool on an unavailable catalog has no error")
	}
}

func TestDataHasNoUnknownKeys(t *testing.T) {
	t.Parallel()
	dec := json.NewDecoder(bytes.NewReader(catalogJSON))
	dec.DisallowUnknownFields()
	var d catalogData
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("catalog data has a key the Go types do not know: %v", err)
	}
	if dec.More() {
		t.Fatal("trailing data after the catalog object")
	}
}

// TestEveryFactHasSource walks the raw data: every object in a list is a
// fact and needs a source, every *source field is an https URL, and every
// decision is a sentence.
func TestEveryFactHasSource(t *testing.T) {
	t.Parallel()
	var raw any
	if err := json.Unmarshal(catalogJSON, &raw); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any, inList bool)
	walk = func(path string, v any, inList bool) {
		switch x := v.(type) {
		case map[string]any:
			if inList {
				if s, _ := x["source"].(string); s == "" {
					t.Errorf("%s: fact without a source", path)
				}
			}
			for k, val := range x {
				if strings.HasSuffix(k, "source") {
					s, _ := val.(string)
					if !strings.HasPrefix(s, "https://") {
						t.Errorf("%s.%s = %q, want an https URL", path, k, s)
					}
				}
				if strings.HasSuffix(k, "decision") {
					s, _ := val.(string)
					if s == "" || !strings.HasSuffix(s, ".") {
						t.Errorf("%s.%s = %q, want a sentence", path, k, s)
					}
				}
				walk(path+"."+k, val, false)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e, true)
			}
		}
	}
	walk("catalog", raw, false)
	for _, topic := range []string{"accelerator_types", "zones", "runtimes", "tensorflow", "gke_tpu", "gke_node_pool",
		"gpu_machine_types", "gpu_driver_versions", "frameworks", "tpu_api"} {
		if Default().Source(topic) == "" {
			t.Errorf("no general source for topic %q", topic)
		}
	}
}

func TestGenerationsConsistent(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, g := range c.Generations() {
		t.Run(g.Name, func(t *testing.T) {
			t.Parallel()
			if g.SizeUnit != "chips" && g.SizeUnit != "tensorcores" {
				t.Errorf("size unit %q", g.SizeUnit)
			}
			if g.TopologyDims != 2 && g.TopologyDims != 3 {
				t.Errorf("topology dims %d", g.TopologyDims)
			}
			if g.TPUAPI.Supported != (g.TPUAPI.Type != "") {
				t.Errorf("TPU API supported=%v but enum %q", g.TPUAPI.Supported, g.TPUAPI.Type)
			}
			rt, ok := c.runtimes[g.DefaultRuntime]
			if !ok || !slices.Contains(rt.Generations, g.Name) || rt.Status == StatusDeprecated {
				t.Errorf("default runtime %q is not a current runtime of %s", g.DefaultRuntime, g.Name)
			}
			if len(g.Sizes) == 0 {
				t.Fatal("no sizes")
			}
			prev := 0
			for _, s := range g.Sizes {
				name := typeName(&g, s.Size)
				if s.Size <= prev {
					t.Errorf("%s: sizes not ascending", name)
				}
				prev = s.Size
				if s.Chips*g.TensorCoresPerChip != s.Size {
					t.Errorf("%s: %d chips x %d TensorCores != size", name, s.Chips, g.TensorCoresPerChip)
				}
				if s.VMs*s.ChipsPerVM != s.Chips {
					t.Errorf("%s: %d VMs x %d chips != %d chips", name, s.VMs, s.ChipsPerVM, s.Chips)
				}
				dims, ok := parseTopology(s.Topology)
				if !ok || len(dims) != g.TopologyDims || product(dims) != s.Chips {
					t.Errorf("%s: topology %q does not match %d chips in %dD", name, s.Topology, s.Chips, g.TopologyDims)
				}
				if s.Status != StatusDocumented && s.Status != StatusUnverified {
					t.Errorf("%s: status %q", name, s.Status)
				}
				a, fs := c.Accelerator(name)
				if fs.HasErrors() || a.Type != name || a.Chips != s.Chips {
					t.Errorf("%s: Accelerator = %+v, %v", name, a, fs)
				}
				if g.GKE != nil && len(gkeLayouts(&g, s.Chips)) == 0 {
					t.Errorf("%s: no GKE layout", name)
				}
			}
			if cr := g.CubeRule; cr != nil {
				if g.TopologyDims != 3 || cr.CubeEdge <= 0 || cr.DocumentedMaxCubes > cr.MaxCubes {
					t.Errorf("cube rule inconsistent: %+v", cr)
				}
				for _, st := range cr.SmallTopologies {
					if _, ok := g.sizeByTopo[st]; !ok {
						t.Errorf("small topology %q is not a listed size", st)
					}
				}
			}
			if len(g.Zones) == 0 {
				t.Error("empty zone list")
			}
			seen := map[string]bool{}
			for _, z := range g.Zones {
				if _, ok := zoneRegion(z.Zone); !ok {
					t.Errorf("malformed zone %q", z.Zone)
				}
				if seen[z.Zone] {
					t.Errorf("duplicate zone %q", z.Zone)
				}
				seen[z.Zone] = true
				for _, at := range z.AcceleratorTypes {
					if _, fs := c.Accelerator(at); fs.HasErrors() || !strings.HasPrefix(at, g.APIPrefix+"-") {
						t.Errorf("zone %s lists %q, not a %s type", z.Zone, at, g.Name)
					}
				}
				if z.Status != StatusDocumented && z.Status != StatusOld {
					t.Errorf("zone %s: status %q", z.Zone, z.Status)
				}
			}
			if g.GKE != nil {
				if g.GKE.AcceleratorLabel == "" || len(g.GKE.MachineTypes) == 0 {
					t.Errorf("GKE info incomplete: %+v", g.GKE)
				}
				for _, m := range g.GKE.MachineTypes {
					if m.Chips <= 0 {
						t.Errorf("machine type %s: %d chips", m.Name, m.Chips)
					}
				}
				for _, v := range []string{g.GKE.MinVersion, g.GKE.RecommendedVersion} {
					if _, ok := parseGKEVersion(v); v != "" && !ok {
						t.Errorf("GKE version %q does not parse", v)
					}
				}
			}
		})
	}
}

func TestRuntimesConsistent(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, r := range c.Runtimes() {
		if len(r.Generations) == 0 {
			t.Errorf("runtime %s names no generation", r.Name)
		}
		for _, g := range r.Generations {
			if _, ok := c.Generation(g); !ok {
				t.Errorf("runtime %s names unknown generation %q", r.Name, g)
			}
		}
		for _, f := range r.Frameworks {
			if _, ok := c.Framework(f); !ok || f == FrameworkTensorFlow {
				t.Errorf("runtime %s names framework %q", r.Name, f)
			}
		}
		if isTFName(r.Name) {
			t.Errorf("runtime %s uses the TensorFlow prefix", r.Name)
		}
		if r.Status == StatusDeprecated && c.runtimes[r.Replacement] == nil {
			t.Errorf("deprecated runtime %s has no valid replacement (%q)", r.Name, r.Replacement)
		}
	}
}

func TestTensorFlowRulesConsistent(t *testing.T) {
	t.Parallel()
	c := Default()
	tf := c.TensorFlow()
	for _, v := range []string{tf.DeviceAPIFrom, tf.PJRTMinVersion, tf.V4SuffixThrough, tf.V4MinVersion, tf.DefaultVersion} {
		if _, ok := c.tfVersions[v]; !ok {
			t.Errorf("rule version %q is not a listed TensorFlow version", v)
		}
	}
	if !c.tfVersions[tf.DefaultVersion].RuntimeListed {
		t.Errorf("default TensorFlow version %s is not runtime-listed", tf.DefaultVersion)
	}
	var prev version
	for i, v := range tf.Versions {
		pv, ok := parseVersion(v.Version)
		if !ok || pv.parts != 3 {
			t.Errorf("TensorFlow version %q does not parse as X.Y.Z", v.Version)
		}
		if i > 0 && compareVersion(pv, prev) >= 0 {
			t.Errorf("TensorFlow versions not newest first at %s", v.Version)
		}
		prev = pv
	}
	// Every generated runtime name parses back to itself.
	for _, g := range c.data.Generations {
		for _, multi := range []bool{false, true} {
			names := c.tfCandidates(g, multi, nil)
			if c.tfSupported(g) && len(names) == 0 {
				t.Errorf("%s multi=%v: no TensorFlow runtime names", g.Name, multi)
			}
			for _, n := range names {
				p, ok := parseTFName(n, c.tfExtras())
				if !ok || p.String() != n {
					t.Errorf("%s: generated name %q does not round-trip", g.Name, n)
				}
			}
		}
	}
	// Every name a source quotes parses and fits some documented type without errors.
	for _, e := range tf.Examples {
		if _, ok := parseTFName(e.Name, c.tfExtras()); !ok {
			t.Errorf("example %q does not parse", e.Name)
			continue
		}
		fits := false
		for _, at := range c.AcceleratorTypes("") {
			if r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, RuntimeVersion: e.Name}); !r.Findings.HasErrors() {
				fits = true
				break
			}
		}
		if !fits {
			t.Errorf("example %q fits no documented accelerator type", e.Name)
		}
	}
}

func TestFrameworksConsistent(t *testing.T) {
	t.Parallel()
	c := Default()
	statuses := []string{SupportRecommended, SupportSupported, SupportExperimental, SupportUnsupported, SupportUnlisted}
	for _, name := range c.Frameworks() {
		f, _ := c.Framework(name)
		for _, g := range c.GenerationNames() {
			s := f.support(g)
			if s == nil {
				t.Errorf("%s: no support entry for %s", name, g)
				continue
			}
			if !slices.Contains(statuses, s.Status) {
				t.Errorf("%s on %s: status %q", name, g, s.Status)
			}
		}
		for _, m := range f.MinVersions {
			if _, ok := parseVersion(m.Version); !ok {
				t.Errorf("%s: minimum %q does not parse", name, m.Version)
			}
			if m.Severity != "error" && m.Severity != "warning" {
				t.Errorf("%s: severity %q", name, m.Severity)
			}
			if _, ok := c.Generation(m.Generation); !ok {
				t.Errorf("%s: minimum for unknown generation %q", name, m.Generation)
			}
		}
		for _, a := range f.Aliases {
			if c.frameworks[a] != nil {
				t.Errorf("%s: alias %q is itself a framework", name, a)
			}
		}
	}
}

func TestGPUConsistent(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, m := range c.GPUMachineTypes() {
		if m.GPUCount <= 0 {
			t.Errorf("%s: GPU count %d", m.Name, m.GPUCount)
		}
		if c.gpuTypes[m.GPUType] == nil {
			t.Errorf("%s: unknown GPU type %q", m.Name, m.GPUType)
		}
		if m.Status != StatusDocumented && m.Status != StatusUnverified {
			t.Errorf("%s: status %q", m.Name, m.Status)
		}
		for _, alt := range m.ConflictingGPUTypes {
			if c.gpuTypes[alt] == nil {
				t.Errorf("%s: conflicting type %q unknown", m.Name, alt)
			}
		}
		if c.attachmentFor(m.Name, "") != nil {
			t.Errorf("%s is both a built-in and an attachable machine type", m.Name)
		}
	}
	for _, a := range c.GPUAttachments() {
		if len(a.Counts) == 0 || len(a.GPUTypes) == 0 {
			t.Errorf("attachment %s: empty counts or types", a.MachinePrefix)
		}
		for _, n := range a.Counts {
			if n <= 0 {
				t.Errorf("attachment %s: count %d", a.MachinePrefix, n)
			}
		}
		for _, g := range a.GPUTypes {
			if c.gpuTypes[g] == nil {
				t.Errorf("attachment %s: unknown GPU type %q", a.MachinePrefix, g)
			}
		}
	}
	want := []string{"GPU_DRIVER_VERSION_UNSPECIFIED", "INSTALLATION_DISABLED", "DEFAULT", "LATEST"}
	if got := c.GPUDriverVersionValues(); !slices.Equal(got, want) {
		t.Errorf("driver versions = %v, want %v", got, want)
	}
}

func TestLabelAndTaintConstantsMatchData(t *testing.T) {
	t.Parallel()
	c := Default()
	var labels []string
	for _, l := range c.Labels() {
		labels = append(labels, l.Key)
	}
	for _, k := range []string{LabelTPUAccelerator, LabelTPUTopology, LabelGPUAccelerator, LabelMachineType,
		LabelComputeClass, LabelDefaultComputeClass, LabelSpot} {
		if !slices.Contains(labels, k) {
			t.Errorf("label %q is not in the data", k)
		}
	}
	taints := map[string]Taint{}
	for _, tt := range c.Taints() {
		taints[tt.Key] = tt
	}
	for _, k := range []string{TaintTPU, TaintGPU} {
		if got := taints[k]; got.Value != TaintValuePresent || got.Effect != TaintEffectNoSchedule {
			t.Errorf("taint %s = %+v, want %s:%s", k, got, TaintValuePresent, TaintEffectNoSchedule)
		}
	}
	for _, k := range []string{TaintComputeClass, TaintSpot} {
		if taints[k].Effect != TaintEffectNoSchedule {
			t.Errorf("taint %s missing or not NoSchedule", k)
		}
	}
	var res []string
	for _, r := range c.Resources() {
		res = append(res, r.Name)
	}
	if !slices.Contains(res, ResourceTPU) || !slices.Contains(res, ResourceGPU) {
		t.Errorf("resources %v lack %s or %s", res, ResourceTPU, ResourceGPU)
	}
	if len(c.Decisions()) == 0 {
		t.Error("no catalog-wide decisions")
	}
}

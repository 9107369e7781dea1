// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// Pages the valid-configuration corpus cites.
const (
	pagePlanTPUs    = "https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus"
	pageTPUIronwood = "https://docs.cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood"
	pageTPURuntimes = "https://cloud.google.com/tpu/docs/runtimes"
	pageTPUTypes    = "https://cloud.google.com/tpu/docs/types-topologies"
	pageTPUv5p      = "https://cloud.google.com/tpu/docs/v5p"
	pageTPUv5e      = "https://cloud.google.com/tpu/docs/v5e"
	pageGKEPlanTPUs = "https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus"
	// pageGKEMachineTable is GKE's own table of the machine types it provisions.
	pageGKEMachineTable = "https://github.com/GoogleCloudPlatform/cluster-autoscaler/blob/a181d5ac557aee2ad99b5531acf879f13d1bf9f9/pkg/cloudprovider/gke/machinetypes/deprecated_machine_types_config.go"
	// pagePythonSamplesTPU is Google's sample behind the tpu_vm_create snippet.
	pagePythonSamplesTPU = "https://github.com/GoogleCloudPlatform/python-docs-samples/blob/0ef3b45edce3b65e02853105f72107588df8d7a4/tpu/create_tpu.py"
	pageTPUv6e           = "https://cloud.google.com/tpu/docs/v6e"
	pageTPUZones         = "https://cloud.google.com/tpu/docs/regions-zones"
	pageComputeGPUs      = "https://cloud.google.com/compute/docs/gpus"
	pageAcceleratorM     = "https://cloud.google.com/compute/docs/accelerator-optimized-machines"
	pageComputeTPUs      = "https://cloud.google.com/compute/docs/tpus/tpu-machines"
	pageComputeTPURes    = "https://docs.cloud.google.com/compute/docs/tpus/tpu-resources-in-compute-engine"
	// pageGKETPUTable and pageGKEGPUTable are GKE's own TPU and GPU tables.
	pageGKETPUTable = "https://github.com/GoogleCloudPlatform/cluster-autoscaler/blob/b37dc8a67ec09a8e3dd5b6fc7597e498a718b79c/pkg/cloudprovider/gke/machinetypes/deprecated_tpu_config.go"
	pageGKEGPUTable = "https://github.com/GoogleCloudPlatform/cluster-autoscaler/blob/a181d5ac557aee2ad99b5531acf879f13d1bf9f9/pkg/cloudprovider/gke/machinetypes/deprecated_machine_types_gpu_config.go"
	pageFlexStart   = "https://cloud.google.com/tpu/docs/request-using-flex-start"
	pageLocalSSDAdd = "https://cloud.google.com/compute/docs/disks/add-local-ssd"
	pageCRDRef      = "https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass"
)

// gkeTPURow is a documented GKE TPU machine type with its topologies.
type gkeTPURow struct {
	machine    string
	topologies []string
	page       string
}

// validGKETPUs are the TPU machine types and topologies Google documents
// for GKE node pools. Each row cites its page; none may be rejected.
var validGKETPUs = []gkeTPURow{
	{"ct3-hightpu-4t", []string{"2x2"}, pagePlanTPUs},
	{"ct3p-hightpu-4t", []string{"4x4", "4x8", "8x8", "8x16", "16x16", "16x32", "32x32"}, pagePlanTPUs},
	{"ct4p-hightpu-4t", []string{"2x2x1", "2x2x2", "2x2x4", "2x4x4", "4x4x4", "4x4x8", "4x8x8", "8x8x8", "8x8x12", "8x8x16", "8x16x16", "16x16x16"}, pagePlanTPUs},
	{"ct5lp-hightpu-1t", []string{"1x1"}, pagePlanTPUs},
	{"ct5lp-hightpu-4t", []string{"2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"}, pagePlanTPUs},
	{"ct5lp-hightpu-8t", []string{"2x4"}, pagePlanTPUs},
	{"ct5p-hightpu-4t", []string{"2x2x1", "2x2x2", "2x2x4", "2x4x4", "4x4x4", "4x4x8", "4x8x8", "8x8x8", "8x8x16", "8x16x16", "16x16x16", "16x16x24"}, pagePlanTPUs},
	{"ct6e-standard-1t", []string{"1x1"}, pagePlanTPUs},
	{"ct6e-standard-4t", []string{"2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"}, pagePlanTPUs},
	{"ct6e-standard-8t", []string{"2x4"}, pagePlanTPUs},
	{"tpu7x-standard-4t", []string{"2x2x1", "2x2x2", "2x2x4", "2x4x4", "4x4x4", "4x4x8", "4x8x8", "8x8x8", "8x8x16", "8x16x16", "16x16x16"}, pageTPUIronwood},
	// Google's Ironwood vLLM recipe uses it; GKE's TPU table gives it 1x1x1.
	{"tpu7x-standard-1t", []string{"1x1x1"}, pageGKETPUTable},
	// GKE writes a TPU pool as machine type and topology, without an accelerator type.
	{"ct6e-standard-4t", []string{"2x2"}, pageGKETPUTable},
}

// tpuAPIRow is a documented Cloud TPU API accelerator type with the
// runtime versions documented for its generation.
type tpuAPIRow struct {
	types    []string
	runtimes []string
	page     string
}

var validTPUAPI = []tpuAPIRow{
	{[]string{"v2-8", "v2-32", "v2-128", "v2-256", "v2-512"}, []string{"tpu-ubuntu2204-base"}, pageTPUZones},
	{[]string{"v3-8", "v3-32", "v3-64", "v3-128", "v3-256", "v3-512", "v3-1024", "v3-2048"}, []string{"tpu-ubuntu2204-base"}, pageTPUZones},
	{[]string{"v4-8", "v4-16", "v4-32", "v4-64", "v4-128", "v4-256", "v4-512", "v4-1024", "v4-2048", "v4-4096"}, []string{"tpu-ubuntu2204-base"}, pageTPUTypes},
	{[]string{"v5litepod-1", "v5litepod-4", "v5litepod-8", "v5litepod-16", "v5litepod-32", "v5litepod-64", "v5litepod-128", "v5litepod-256"}, []string{"v2-alpha-tpuv5-lite"}, pageTPUv5e},
	{[]string{"v5p-8", "v5p-16", "v5p-32", "v5p-64", "v5p-128", "v5p-256", "v5p-512", "v5p-1024", "v5p-2048", "v5p-4096", "v5p-8192", "v5p-12288"}, []string{"v2-alpha-tpuv5"}, pageTPUv5p},
	{[]string{"v6e-1", "v6e-4", "v6e-8", "v6e-16", "v6e-32", "v6e-64", "v6e-128", "v6e-256"}, []string{"v2-alpha-tpuv6e"}, pageTPUv6e},
	// Not on the runtimes page; Google's own samples create v5e with it.
	{[]string{"v5litepod-4"}, []string{"v2-tpuv5-litepod"}, pagePythonSamplesTPU},
}

// validTFRuntimes are TensorFlow runtime names the runtimes page lists,
// with an accelerator type each runs on.
var validTFRuntimes = []struct {
	acceleratorType, runtime, page string
}{
	{"v5litepod-4", "tpu-vm-tf-2.18.0-pjrt", pageTPURuntimes},
	{"v5litepod-16", "tpu-vm-tf-2.18.0-pod-pjrt", pageTPURuntimes},
	{"v6e-8", "tpu-vm-tf-2.17.1-pjrt", pageTPURuntimes},
	{"v5p-16", "tpu-vm-tf-2.17.1-pod-pjrt", pageTPURuntimes},
	{"v3-8", "tpu-vm-tf-2.18.0-pjrt", pageTPURuntimes},
	{"v3-32", "tpu-vm-tf-2.18.0-pod-se", pageTPURuntimes},
	{"v2-8", "tpu-vm-tf-2.17.0-se", pageTPURuntimes},
}

// validComputeEngine are the TPU machine types Compute Engine documents
// ("TPU machines in the accelerator-optimized machine family"), each with
// the accelerator type of its single-host slice.
var validComputeEngine = []struct {
	acceleratorType, machine, page string
}{
	{"tpu7x-8", "tpu7x-standard-4t", pageComputeTPUs},
	{"v6e-1", "ct6e-standard-1t", pageComputeTPUs},
	{"v6e-4", "ct6e-standard-4t", pageComputeTPUs},
	{"v6e-8", "ct6e-standard-8t", pageComputeTPUs},
	{"v5p-8", "ct5p-hightpu-4t", pageComputeTPUs},
}

// refusedGKETPUs are GKE TPU node pools Google documents as refused, each
// with the attribute the error is on and the fix it must name.
var refusedGKETPUs = []struct {
	query     TPUPoolQuery
	attr, fix string
	page      string
}{
	// ct3p-hightpu-4t has no single-host topology; v3-8 is the device.
	{TPUPoolQuery{AcceleratorType: "v3-8", MachineType: "ct3p-hightpu-4t"}, AttrMachineType, `for multi-host slices only: GKE gives it no single-host topology, and topology "2x2" (4 chips) is one node; use "ct3-hightpu-4t"`, pageGKEPlanTPUs},
	{TPUPoolQuery{MachineType: "ct3p-hightpu-4t", Topology: "2x2"}, AttrMachineType, `use "ct3-hightpu-4t"`, pageGKEPlanTPUs},
}

// refusedComputeEngine are accelerator types accel_tpu_vm cannot create as
// one Compute Engine instance, with the fix the error must name.
var refusedComputeEngine = []struct {
	acceleratorType, fix, page string
}{
	{"v6e-16", `api = "cloud_tpu"`, pageComputeTPURes},
	{"v6e-256", "accel_fallback_nodepools", pageComputeTPURes},
	{"v5p-16", `api = "cloud_tpu"`, pageComputeTPURes},
	// GKE places these with a workload policy, which accel_fallback_nodepools
	// does not create: the fix names the policy, not that resource.
	{"tpu7x-16", "placed by a workload policy the resource creates", pageComputeTPURes},
	{"tpu7x-128", "placed by a workload policy the resource creates", pageComputeTPURes},
	{"v5litepod-4", `api = "cloud_tpu"`, pageComputeTPUs},
	{"v5litepod-8", `api = "cloud_tpu"`, pageComputeTPUs},
	{"v4-8", `api = "cloud_tpu"`, pageComputeTPUs},
	{"v3-8", `api = "cloud_tpu"`, pageComputeTPUs},
	{"v2-8", `api = "cloud_tpu"`, pageComputeTPUs},
}

// gpuRow is a machine type with the GPUs Google lists for it.
type gpuRow struct {
	machine string
	gpu     string
	counts  []int
	page    string
}

var validGPUs = []gpuRow{
	// GKE's own machine table lists the variants without built-in Local SSDs.
	{"a2-ultragpu-1g-nolssd", "nvidia-a100-80gb", []int{1}, pageGKEMachineTable},
	{"a2-ultragpu-8g-nolssd", "nvidia-a100-80gb", []int{8}, pageGKEMachineTable},
	{"a3-highgpu-1g-nolssd", "nvidia-h100-80gb", []int{1}, pageGKEMachineTable},
	{"a3-highgpu-2g-nolssd", "nvidia-h100-80gb", []int{2}, pageGKEMachineTable},
	{"a3-highgpu-4g-nolssd", "nvidia-h100-80gb", []int{4}, pageGKEMachineTable},
	{"a3-highgpu-8g-nolssd", "nvidia-h100-80gb", []int{8}, pageGKEMachineTable},
	{"a3-edgegpu-8g-nolssd", "nvidia-h100-80gb", []int{8}, pageGKEMachineTable},
	{"a3-megagpu-8g-nolssd", "nvidia-h100-mega-80gb", []int{8}, pageGKEMachineTable},
	{"a3-ultragpu-8g-nolssd", "nvidia-h200-141gb", []int{8}, pageGKEMachineTable},
	{"a4-highgpu-8g-nolssd", "nvidia-b200", []int{8}, pageGKEMachineTable},
	// The fractional G4 shapes: GKE takes gpu_count 1.
	{"g4-standard-6", "nvidia-rtx-pro-6000", []int{1}, pageGKEMachineTable},
	{"g4-standard-12", "nvidia-rtx-pro-6000", []int{1}, pageGKEMachineTable},
	{"g4-standard-24", "nvidia-rtx-pro-6000", []int{1}, pageGKEMachineTable},
	// N1 within GKE's vCPU limits per attached GPU.
	{"n1-standard-8", "nvidia-tesla-v100", []int{1}, pageGKEGPUTable},
	{"n1-standard-16", "nvidia-tesla-v100", []int{2}, pageGKEGPUTable},
	{"n1-standard-96", "nvidia-tesla-v100", []int{8}, pageGKEGPUTable},
	{"g2-standard-4", "nvidia-l4", []int{1}, pageComputeGPUs},
	{"g2-standard-8", "nvidia-l4", []int{1}, pageComputeGPUs},
	{"g2-standard-12", "nvidia-l4", []int{1}, pageComputeGPUs},
	{"g2-standard-16", "nvidia-l4", []int{1}, pageComputeGPUs},
	{"g2-standard-24", "nvidia-l4", []int{2}, pageComputeGPUs},
	{"g2-standard-32", "nvidia-l4", []int{1}, pageComputeGPUs},
	{"g2-standard-48", "nvidia-l4", []int{4}, pageComputeGPUs},
	{"g2-standard-96", "nvidia-l4", []int{8}, pageComputeGPUs},
	{"a2-highgpu-1g", "nvidia-tesla-a100", []int{1}, pageAcceleratorM},
	{"a2-highgpu-2g", "nvidia-tesla-a100", []int{2}, pageAcceleratorM},
	{"a2-highgpu-4g", "nvidia-tesla-a100", []int{4}, pageAcceleratorM},
	{"a2-highgpu-8g", "nvidia-tesla-a100", []int{8}, pageAcceleratorM},
	{"a2-megagpu-16g", "nvidia-tesla-a100", []int{16}, pageAcceleratorM},
	{"a2-ultragpu-1g", "nvidia-a100-80gb", []int{1}, pageAcceleratorM},
	{"a2-ultragpu-2g", "nvidia-a100-80gb", []int{2}, pageAcceleratorM},
	{"a2-ultragpu-4g", "nvidia-a100-80gb", []int{4}, pageAcceleratorM},
	{"a2-ultragpu-8g", "nvidia-a100-80gb", []int{8}, pageAcceleratorM},
	{"a3-highgpu-1g", "nvidia-h100-80gb", []int{1}, pageAcceleratorM},
	{"a3-highgpu-2g", "nvidia-h100-80gb", []int{2}, pageAcceleratorM},
	{"a3-highgpu-4g", "nvidia-h100-80gb", []int{4}, pageAcceleratorM},
	{"a3-highgpu-8g", "nvidia-h100-80gb", []int{8}, pageAcceleratorM},
	{"a3-edgegpu-8g", "nvidia-h100-80gb", []int{8}, pageAcceleratorM},
	{"a3-megagpu-8g", "nvidia-h100-mega-80gb", []int{8}, pageAcceleratorM},
	{"a3-ultragpu-8g", "nvidia-h200-141gb", []int{8}, pageAcceleratorM},
	{"a4-highgpu-8g", "nvidia-b200", []int{8}, pageAcceleratorM},
	{"a4x-highgpu-4g", "nvidia-gb200", []int{4}, pageAcceleratorM},
	{"n1-standard-8", "nvidia-tesla-t4", []int{1, 2, 4}, pageComputeGPUs},
	{"n1-standard-8", "nvidia-tesla-p4", []int{1, 2, 4}, pageComputeGPUs},
	{"n1-standard-8", "nvidia-tesla-p100", []int{1, 2, 4}, pageComputeGPUs},
	{"n1-standard-8", "nvidia-tesla-v100", []int{1, 2, 4, 8}, pageComputeGPUs},
}

// TestValidConfigurationCorpus checks that no configuration Google
// documents as valid gets a finding: every TPU machine type and topology
// on GKE, every accelerator type with its generation's runtime on the
// Cloud TPU API, the listed TensorFlow runtimes, and every GPU machine type
// with its GPUs (including the N1 attachables).
func TestValidConfigurationCorpus(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, row := range validGKETPUs {
		for _, topo := range row.topologies {
			shape, fs := c.TPUNodePool(TPUPoolQuery{MachineType: row.machine, Topology: topo})
			if len(fs) > 0 {
				t.Errorf("GKE %s %s (%s): %v", row.machine, topo, row.page, fs)
				continue
			}
			if _, fs := c.TPUNodePool(TPUPoolQuery{MachineType: row.machine, Topology: topo, NodeCount: shape.NodeCount}); len(fs) > 0 {
				t.Errorf("GKE %s %s with node_count %d (%s): %v", row.machine, topo, shape.NodeCount, row.page, fs)
			}
		}
	}
	for _, row := range validTPUAPI {
		for _, at := range row.types {
			for _, rv := range row.runtimes {
				r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, RuntimeVersion: rv, ForTPUAPI: true})
				if len(r.Findings) > 0 {
					t.Errorf("TPU API %s with %s (%s): %v", at, rv, row.page, r.Findings)
				}
			}
			if r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, ForTPUAPI: true}); len(r.Findings) > 0 || r.RuntimeVersion == "" {
				t.Errorf("TPU API %s, runtime chosen (%s): %q %v", at, row.page, r.RuntimeVersion, r.Findings)
			}
		}
	}
	for _, row := range validComputeEngine {
		shape, fs := c.ComputeEngineTPU(row.acceleratorType)
		if len(fs) > 0 || shape.MachineType != row.machine {
			t.Errorf("Compute Engine %s (%s): machine type %q, %v", row.acceleratorType, row.page, shape.MachineType, fs)
		}
		if at, ok := c.AcceleratorTypeOfMachineType(row.machine); !ok || at != row.acceleratorType {
			t.Errorf("Compute Engine %s (%s): read back as %q", row.machine, row.page, at)
		}
		r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: row.acceleratorType, ForComputeEngine: true})
		if len(r.Findings) > 0 || r.RuntimeVersion != shape.DefaultImage {
			t.Errorf("Compute Engine %s (%s), image chosen: %q %v", row.acceleratorType, row.page, r.RuntimeVersion, r.Findings)
		}
		r = c.ResolveRuntime(RuntimeQuery{AcceleratorType: row.acceleratorType, RuntimeVersion: shape.DefaultImage, ForComputeEngine: true})
		if len(r.Findings) > 0 {
			t.Errorf("Compute Engine %s with %s (%s): %v", row.acceleratorType, shape.DefaultImage, row.page, r.Findings)
		}
	}
	for _, row := range refusedGKETPUs {
		_, fs := c.TPUNodePool(row.query)
		errs := fs.Errors()
		if len(errs) != 1 || errs[0].Attribute != row.attr || !strings.Contains(errs[0].Detail, row.fix) {
			t.Errorf("GKE %+v (%s): want one error on %s naming %s, got %v", row.query, row.page, row.attr, row.fix, fs)
		}
	}
	for _, row := range refusedComputeEngine {
		_, fs := c.ComputeEngineTPU(row.acceleratorType)
		errs := fs.Errors()
		if len(errs) != 1 || errs[0].Attribute != AttrAcceleratorType || !strings.Contains(errs[0].Detail, row.fix) ||
			!strings.Contains(errs[0].Detail, `"`+row.acceleratorType+`"`) {
			t.Errorf("Compute Engine %s (%s): want one error naming it and %s, got %v", row.acceleratorType, row.page, row.fix, fs)
		}
	}
	for _, row := range validTFRuntimes {
		r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: row.acceleratorType, RuntimeVersion: row.runtime, ForTPUAPI: true})
		if len(r.Findings) > 0 {
			t.Errorf("TensorFlow %s on %s (%s): %v", row.runtime, row.acceleratorType, row.page, r.Findings)
		}
	}
	for _, row := range validGPUs {
		for _, n := range row.counts {
			name := fmt.Sprintf("%s with %d %s (%s)", row.machine, n, row.gpu, row.page)
			shape, fs := c.GPUNodePool(GPUPoolQuery{MachineType: row.machine, GPUType: row.gpu, GPUCount: n})
			if len(fs) > 0 {
				t.Errorf("%s: %v", name, fs)
			}
			if shape.GPUType != row.gpu || shape.GPUCount != n {
				t.Errorf("%s: shape %s x%d", name, shape.GPUType, shape.GPUCount)
			}
		}
	}
}

// TestGKECodeOnlyTPUMachines: the TPU machine types only GKE's own machine
// tables name plan with one warning and no error, as single-host pools
// labelled as GKE's table says; with another generation's accelerator type
// they are an error naming that generation's machine types.
func TestGKECodeOnlyTPUMachines(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, m := range c.data.GKEAvailability.CodeOnlyMachineTypes {
		shape, fs := c.TPUNodePool(TPUPoolQuery{MachineType: m.Name})
		if len(fs) != 1 || fs[0].Severity != SeverityWarning || fs[0].Summary != "TPU Machine Type Only in GKE's Code" || fs[0].Source != m.Source {
			t.Errorf("%s: want the one GKE-code warning, got %v", m.Name, fs)
		}
		if shape.MachineType != m.Name || shape.NodeCount != 1 || shape.Topology != m.SingleHostTopology ||
			shape.NodeLabels[LabelTPUAccelerator] != m.AcceleratorLabel || !c.IsTPUMachineType(m.Name) {
			t.Errorf("%s: shape %+v", m.Name, shape)
		}
	}
	_, fs := c.TPUNodePool(TPUPoolQuery{AcceleratorType: "v6e-8", MachineType: "ct5l-hightpu-8t"})
	if len(fs) != 1 || fs[0].Summary != "Machine Type Does Not Match Accelerator Type" || !strings.Contains(fs[0].Detail, `"ct6e-standard-8t"`) {
		t.Errorf("ct5l-hightpu-8t with v6e-8: %v", fs)
	}
	if shape, fs := c.TPUNodePool(TPUPoolQuery{AcceleratorType: "v5litepod-8", MachineType: "ct5l-hightpu-8t"}); fs.HasErrors() || shape.Accelerator.Type != "v5litepod-8" || shape.Topology != "2x4" {
		t.Errorf("ct5l-hightpu-8t with v5litepod-8: %+v %v", shape, fs)
	}
}

// TestSuggestionsValidForConfiguration: a suggestion, put in place of the
// value it replaces, gives no error with the rest of the configuration.
func TestSuggestionsValidForConfiguration(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, q := range []TPUPoolQuery{
		{AcceleratorType: "v5litepod-4", MachineType: "ct5lp-hightpu-2t"},
		{AcceleratorType: "v6e-16", MachineType: "ct6e-standard-2t"},
		{AcceleratorType: "v5p-8", MachineType: "ct5p-hightpu-8t"},
	} {
		_, fs := c.TPUNodePool(q)
		if len(fs) == 0 || len(fs[0].Suggestions) == 0 {
			t.Fatalf("%+v: want an error with suggestions, got %v", q, fs)
		}
		for _, s := range fs[0].Suggestions {
			fixed := q
			fixed.MachineType = s
			if _, again := c.TPUNodePool(fixed); again.HasErrors() {
				t.Errorf("%+v: suggestion %q still fails: %v", q, s, again)
			}
		}
	}
	for _, q := range []RuntimeQuery{
		{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6"},
		{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lit"},
		{AcceleratorType: "v5p-8", RuntimeVersion: "v2-alpha-tpu5"},
	} {
		fs := c.ResolveRuntime(q).Findings
		if len(fs) == 0 || len(fs[0].Suggestions) == 0 {
			t.Fatalf("%+v: want an error with suggestions, got %v", q, fs)
		}
		for _, s := range fs[0].Suggestions {
			fixed := q
			fixed.RuntimeVersion = s
			if again := c.ResolveRuntime(fixed).Findings; again.HasErrors() {
				t.Errorf("%+v: suggestion %q still fails: %v", q, s, again)
			}
		}
	}
}

// TestN1VCPULimits: GKE's GPU table bounds the vCPUs of an N1 VM by its
// attached GPUs; within the bound plans clean, past it is an error whose
// suggested machine type plans clean with the same GPUs.
func TestN1VCPULimits(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, q := range []GPUPoolQuery{
		{MachineType: "n1-standard-8", GPUType: "nvidia-tesla-v100", GPUCount: 1},
		{MachineType: "n1-standard-96", GPUType: "nvidia-tesla-v100", GPUCount: 8},
		{MachineType: "n1-standard-32", GPUType: "nvidia-tesla-t4", GPUCount: 1},
		{MachineType: "n1-custom-16-61440", GPUType: "nvidia-tesla-p100", GPUCount: 1},
	} {
		_, fs := c.GPUNodePool(q)
		mustNoFindings(t, fmt.Sprintf("%+v", q), fs)
	}
	for _, tc := range []struct {
		q    GPUPoolQuery
		sugg string
	}{
		{GPUPoolQuery{MachineType: "n1-standard-32", GPUType: "nvidia-tesla-v100", GPUCount: 1}, "n1-standard-8"},
		{GPUPoolQuery{MachineType: "n1-highmem-64", GPUType: "nvidia-tesla-p100", GPUCount: 2}, "n1-highmem-32"},
		{GPUPoolQuery{MachineType: "n1-custom-20-76800", GPUType: "nvidia-tesla-p100", GPUCount: 1}, ""},
	} {
		_, fs := c.GPUNodePool(tc.q)
		if len(fs) != 1 || fs[0].Summary != "Too Many vCPUs for the GPUs" || fs[0].Attribute != AttrMachineType || fs[0].Severity != SeverityError {
			t.Errorf("%+v: want one vCPU error, got %v", tc.q, fs)
			continue
		}
		if tc.sugg == "" {
			if len(fs[0].Suggestions) != 0 {
				t.Errorf("%+v: a custom machine type gets no named suggestion, got %v", tc.q, fs[0].Suggestions)
			}
			continue
		}
		if len(fs[0].Suggestions) != 1 || fs[0].Suggestions[0] != tc.sugg {
			t.Errorf("%+v: suggestions %v, want %s", tc.q, fs[0].Suggestions, tc.sugg)
		}
		fixed := tc.q
		fixed.MachineType = tc.sugg
		if _, again := c.GPUNodePool(fixed); again.HasErrors() {
			t.Errorf("%+v: suggestion %s fails: %v", tc.q, tc.sugg, again)
		}
	}
}

// TestUnknownTPUMachineTypes: a well-formed TPU machine type name that is
// no near miss of a known one is a warning and no shape (created as
// written, a TPU tier); a near miss or a malformed name is an error.
func TestUnknownTPUMachineTypes(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, name := range []string{"tpu9x-superpod-16t", "ct9q-megatpu-32t"} {
		shape, fs := c.TPUNodePool(TPUPoolQuery{MachineType: name, Topology: "4x4"})
		if len(fs) != 1 || fs[0].Severity != SeverityWarning || fs[0].Summary != "Unknown TPU Machine Type" || shape.MachineType != "" || !c.IsTPUMachineType(name) {
			t.Errorf("%s: want one warning and no shape, got %+v %v", name, shape, fs)
		}
	}
	for _, name := range []string{"ct6e-standard-2t", "ct5lp-hightpu-2t", "ct6e_standard_4t", "CT6E-STANDARD-4T"} {
		if _, fs := c.TPUNodePool(TPUPoolQuery{MachineType: name}); !fs.HasErrors() {
			t.Errorf("%s: want an error, got %v", name, fs)
		}
	}
	for _, name := range []string{"n1-standard-4", "g2-standard-8", "ct6e", "tpu-standard-4t", "ctx-standard-4t"} {
		if c.IsTPUMachineType(name) {
			t.Errorf("%s taken for a TPU machine type", name)
		}
	}
	for name, want := range map[string]bool{"g2-standard-8": true, "a3-highgpu-8g": true, "n1-standard-4": false, "ct6e-standard-4t": false, "g2": false} {
		if c.IsGPUMachineType(name) != want {
			t.Errorf("IsGPUMachineType(%s) = %v, want %v", name, !want, want)
		}
	}
}

// validSettings are node-pool settings and capacity requests Google
// documents or ships, each with its page; none may get an error.
var validSettings = []struct {
	name  string
	check func(c *Catalog) Findings
	page  string
}{
	{"H200 partition 1g.18gb", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-h200-141gb", GPUPartitionSize: "1g.18gb"})
	}, pageGKEGPUTable},
	{"B200 partition 3g.90gb", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-b200", GPUPartitionSize: "3g.90gb"})
	}, pageGKEGPUTable},
	{"GB200 partition 1g.23gb", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-gb200", GPUPartitionSize: "1g.23gb"})
	}, pageGKEGPUTable},
	{"H100 Mega partition 7g.80gb", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-h100-mega-80gb", GPUPartitionSize: "7g.80gb"})
	}, pageGKEGPUTable},
	{"G4 partitions", func(c *Catalog) Findings {
		var fs Findings
		for _, s := range []string{"1g.24gb", "2g.48gb", "4g.96gb"} {
			fs = append(fs, c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-rtx-pro-6000", GPUPartitionSize: s})...)
		}
		return fs
	}, pageCRDRef},
	{"flex-start v6e in its zones", func(c *Catalog) Findings {
		return append(c.CheckCapacity(CapacityRequest{Mode: CapacityFlexStart, Generation: "v6e", MaxRunDuration: "24h"}),
			c.FlexStartZones("v6e", []string{"asia-northeast1-b", "us-east5-a"})...)
	}, pageFlexStart},
	{"flex-start v5e in its zones", func(c *Catalog) Findings {
		return append(c.CheckCapacity(CapacityRequest{Mode: CapacityFlexStart, Generation: "v5e", MaxRunDuration: "168h"}),
			c.FlexStartZones("v5e", []string{"us-west4-a", "us-central1-a"})...)
	}, pageFlexStart},
	{"v6e in asia-northeast1-b", func(c *Catalog) Findings {
		return c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v6e-8", Zones: []string{"asia-northeast1-b"}, ForTPUAPI: true}).Findings
	}, pageFlexStart},
	{"built-in Local SSDs with count 0", func(c *Catalog) Findings {
		zero := int64(0)
		var fs Findings
		for _, m := range []string{"z4m-highmem-192-cd", "a4x-maxgpu-4g-metal", "z3-highmem-88-highlssd"} {
			fs = append(fs, c.LocalSSD(LocalSSDQuery{MachineType: m, Ephemeral: &zero})...)
		}
		return fs
	}, pageLocalSSDAdd},
}

// refusedSettings are settings Google documents as refused, each with the
// attribute the error is on and the fix it must name.
var refusedSettings = []struct {
	name      string
	check     func(c *Catalog) Findings
	attr, fix string
	page      string
}{
	{"flex-start on v5p", func(c *Catalog) Findings {
		return c.CheckCapacity(CapacityRequest{Mode: CapacityFlexStart, Generation: "v5p", MaxRunDuration: "1h"})
	}, AttrCapacityMode, "v5e or v6e", pageFlexStart},
	{"N1 with one V100 and 32 vCPUs", func(c *Catalog) Findings {
		_, fs := c.GPUNodePool(GPUPoolQuery{MachineType: "n1-standard-32", GPUType: "nvidia-tesla-v100", GPUCount: 1})
		return fs
	}, AttrMachineType, `"n1-standard-8"`, pageGKEGPUTable},
	{"an A100 partition on H200", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-h200-141gb", GPUPartitionSize: "1g.10gb"})
	}, AttrGPUPartitionSize, "1g.18gb", pageGKEGPUTable},
	{"one client per GPU", func(c *Catalog) Findings {
		return c.PoolSettings(PoolSettingsQuery{GPUType: "nvidia-l4", GPUSharingStrategy: GPUSharingTimeSharing, MaxSharedClientsPerGPU: 1})
	}, AttrGPUSharingConfig, "2", pageCRDRef},
}

// TestSettingsCorpus: no documented setting gets an error, and every
// documented refusal is one error on its attribute naming the fix.
func TestSettingsCorpus(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, row := range validSettings {
		if errs := row.check(c).Errors(); len(errs) > 0 {
			t.Errorf("%s (%s): %v", row.name, row.page, errs)
		}
	}
	for _, row := range refusedSettings {
		errs := row.check(c).Errors()
		if len(errs) != 1 || errs[0].Attribute != row.attr || !strings.Contains(errs[0].Detail, row.fix) {
			t.Errorf("%s (%s): want one error on %s naming %s, got %v", row.name, row.page, row.attr, row.fix, errs)
		}
	}
}

// TestUnknownGPUMachineTypes: a well-formed accelerator-optimized machine
// type the catalog does not know (a new series) is a warning, created as
// written with the configured GPUs; a near miss or another form is an error.
func TestUnknownGPUMachineTypes(t *testing.T) {
	t.Parallel()
	c := Default()
	shape, fs := c.GPUNodePool(GPUPoolQuery{MachineType: "a9z-hypergpu-16g", GPUType: "nvidia-b200", GPUCount: 16})
	if len(fs) != 1 || fs[0].Severity != SeverityWarning || fs[0].Summary != "Unknown GPU Machine Type" ||
		shape.MachineType != "a9z-hypergpu-16g" || shape.GPUType != "nvidia-b200" || shape.GPUCount != 16 {
		t.Errorf("new series: %+v %v", shape, fs)
	}
	for _, name := range []string{"a3-highgpu-3g", "a3-hihgpu-8g", "A3-HIGHGPU-8G", "e2-standard-4", "a3highgpu8g"} {
		if _, fs := c.GPUNodePool(GPUPoolQuery{MachineType: name}); !fs.HasErrors() {
			t.Errorf("%s: want an error, got %v", name, fs)
		}
	}
}

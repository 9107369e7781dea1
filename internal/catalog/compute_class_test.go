// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTPUPriority resolves ComputeClass TPU priorities in both forms and
// checks that wrong ones get an error naming the right attribute and a fix
// that is itself valid.
func TestTPUPriority(t *testing.T) {
	t.Parallel()
	c := Default()
	tests := map[string]struct {
		q                 TPUPriorityQuery
		typ, topo         string
		count             int
		errAttr, warnAttr string
		fix               string
	}{
		"accelerator type":                     {q: TPUPriorityQuery{AcceleratorType: "v6e-4"}, typ: "tpu-v6e-slice", count: 4, topo: "2x2"},
		"GKE form single host":                 {q: TPUPriorityQuery{Type: "tpu-v6e-slice", Count: 4, Topology: "2x2"}, typ: "tpu-v6e-slice", count: 4, topo: "2x2"},
		"GKE form multi host":                  {q: TPUPriorityQuery{Type: "tpu-v5p-slice", Count: 4, Topology: "4x4x4"}, typ: "tpu-v5p-slice", count: 4, topo: "4x4x4"},
		"GKE form without count":               {q: TPUPriorityQuery{Type: "tpu-v6e-slice", Topology: "2x4"}, typ: "tpu-v6e-slice", count: 8, topo: "2x4"},
		"v5e label":                            {q: TPUPriorityQuery{Type: "tpu-v5-lite-podslice", Count: 8, Topology: "2x4"}, typ: "tpu-v5-lite-podslice", count: 8, topo: "2x4"},
		"typo of a label":                      {q: TPUPriorityQuery{Type: "tpu-v6e-slices", Count: 4, Topology: "2x2"}, errAttr: AttrTPUType, fix: "tpu-v6e-slice"},
		"accelerator type as the type":         {q: TPUPriorityQuery{Type: "v6e-4"}, errAttr: AttrTPUType},
		"count no node has":                    {q: TPUPriorityQuery{Type: "tpu-v6e-slice", Count: 3, Topology: "2x2"}, errAttr: AttrTPUCount, fix: "4"},
		"label of a known generation misspelt": {q: TPUPriorityQuery{Type: "tpu-v6e-podslice", Count: 4, Topology: "2x2"}, errAttr: AttrTPUType, fix: "tpu-v6e-slice"},
		"topology of another count":            {q: TPUPriorityQuery{Type: "tpu-v6e-slice", Count: 1, Topology: "4x4x4"}, errAttr: AttrTopology},
		"count against accelerator":            {q: TPUPriorityQuery{AcceleratorType: "v6e-8", Count: 3}, errAttr: AttrTPUCount, fix: "4"},
		"slice on smaller nodes":               {q: TPUPriorityQuery{AcceleratorType: "v6e-8", Count: 4}, typ: "tpu-v6e-slice", count: 4, topo: "2x4"},
		"machine type of the slice":            {q: TPUPriorityQuery{AcceleratorType: "v6e-4", MachineType: "ct6e-standard-4t"}, typ: "tpu-v6e-slice", count: 4, topo: "2x2"},
		"machine type of another generation":   {q: TPUPriorityQuery{AcceleratorType: "v6e-4", MachineType: "ct5lp-hightpu-4t"}, errAttr: AttrMachineType},
		"machine type against the label":       {q: TPUPriorityQuery{Type: "tpu-v6e-slice", Count: 4, Topology: "2x2", MachineType: "ct5lp-hightpu-4t"}, errAttr: AttrMachineType, fix: "ct6e-standard-4t"},
		"type against accelerator":             {q: TPUPriorityQuery{AcceleratorType: "v6e-8", Type: "tpu-v5p-slice"}, errAttr: AttrTPUType, fix: "tpu-v6e-slice"},
		"well-formed unknown label":            {q: TPUPriorityQuery{Type: "tpu-v9-slice", Count: 4, Topology: "2x2"}, warnAttr: AttrTPUType},
		"old GKE":                              {q: TPUPriorityQuery{AcceleratorType: "v6e-4", GKEVersion: "1.30.5-gke.1014001"}, errAttr: AttrGKEVersion},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			shape, fs := c.TPUPriority(tc.q)
			switch {
			case tc.errAttr != "":
				f, ok := firstError(fs)
				if !ok || f.Attribute != tc.errAttr {
					t.Fatalf("want an error on %s, got %v", tc.errAttr, fs)
				}
				if tc.fix != "" && !slices.Contains(f.Suggestions, tc.fix) {
					t.Errorf("suggestions %v, want %q", f.Suggestions, tc.fix)
				}
				return
			case tc.warnAttr != "":
				if fs.HasErrors() || len(fs) == 0 || fs[0].Attribute != tc.warnAttr {
					t.Fatalf("want only a warning on %s, got %v", tc.warnAttr, fs)
				}
				return
			}
			if fs.HasErrors() {
				t.Fatalf("unexpected errors: %v", fs)
			}
			if got := shape.NodeLabels[LabelTPUAccelerator]; got != tc.typ || shape.ChipsPerNode != tc.count || shape.Topology != tc.topo {
				t.Errorf("type %q count %d topology %q, want %q %d %q", got, shape.ChipsPerNode, shape.Topology, tc.typ, tc.count, tc.topo)
			}
		})
	}
	// Every count suggested against an accelerator type is valid with it.
	_, fs := c.TPUPriority(TPUPriorityQuery{AcceleratorType: "v6e-8", Count: 3})
	f, _ := firstError(fs)
	for _, n := range f.Suggestions {
		if _, again := c.TPUPriority(TPUPriorityQuery{AcceleratorType: "v6e-8", Count: atoi(t, n)}); again.HasErrors() {
			t.Errorf("the suggested count %s is refused: %v", n, again)
		}
	}
	// A suggested count is valid for the rest of the priority.
	_, fs = c.TPUPriority(TPUPriorityQuery{Type: "tpu-v6e-slice", Count: 3, Topology: "2x2"})
	f, _ = firstError(fs)
	if _, again := c.TPUPriority(TPUPriorityQuery{Type: "tpu-v6e-slice", Count: atoi(t, f.Suggestions[0]), Topology: "2x2"}); again.HasErrors() {
		t.Errorf("the suggested count %s is refused: %v", f.Suggestions[0], again)
	}
}

func TestGPUPriority(t *testing.T) {
	t.Parallel()
	c := Default()
	tests := map[string]struct {
		q       GPUPriorityQuery
		errAttr string
		fix     string
	}{
		"L4 alone":                  {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 1}},
		"L4 on g2":                  {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 2, MachineFamily: "g2", DriverVersion: "latest"}},
		"L4 on a machine type":      {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 1, MachineType: "g2-standard-8"}},
		"GPU type typo":             {q: GPUPriorityQuery{GPUType: "nvidia-l4s", GPUCount: 1}, errAttr: AttrGPUType, fix: "nvidia-l4"},
		"count no machine has":      {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 3}, errAttr: AttrGPUCount, fix: "2"},
		"family without the GPU":    {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 1, MachineFamily: "a3"}, errAttr: AttrMachineFamily, fix: "g2"},
		"machine type count":        {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 2, MachineType: "g2-standard-8"}, errAttr: AttrGPUCount},
		"driver version":            {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 1, DriverVersion: "newest"}, errAttr: AttrGPUDriverVersion},
		"node pool driver spelling": {q: GPUPriorityQuery{GPUType: "nvidia-l4", GPUCount: 1, DriverVersion: "LATEST"}, errAttr: AttrGPUDriverVersion, fix: "latest"},
		"no GPU type or machine":    {q: GPUPriorityQuery{GPUCount: 1}, errAttr: AttrGPUType},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, fs := c.GPUPriority(tc.q)
			if tc.errAttr == "" {
				if fs.HasErrors() {
					t.Fatalf("unexpected errors: %v", fs)
				}
				return
			}
			f, ok := firstError(fs)
			if !ok || f.Attribute != tc.errAttr {
				t.Fatalf("want an error on %s, got %v", tc.errAttr, fs)
			}
			if tc.fix != "" && !slices.Contains(f.Suggestions, tc.fix) {
				t.Errorf("suggestions %v, want %q", f.Suggestions, tc.fix)
			}
		})
	}
}

func TestComputeClassFeatures(t *testing.T) {
	t.Parallel()
	c := Default()
	if fs := c.ComputeClassFeatures("1.33.5-gke.1000000", []string{"tpu", "flexStart", "placement"}); len(fs) != 0 {
		t.Errorf("1.33.5 takes tpu, flexStart and placement: %v", fs)
	}
	fs := c.ComputeClassFeatures("1.32.3-gke.1000000", []string{"tpu", "placement"})
	if len(fs) != 1 || fs[0].Suggestions[0] != "1.33.2-gke.1335000" {
		t.Errorf("1.32.3 lacks placement only: %v", fs)
	}
	if fs := c.ComputeClassFeatures("", []string{"placement"}); fs != nil {
		t.Errorf("an unknown version is not checked: %v", fs)
	}
}

func TestComputeClassOnCluster(t *testing.T) {
	t.Parallel()
	c := Default()
	l4 := ClassNeed{Resource: "nvidia-l4", PerNode: 1, Nodes: 1}
	v6e := ClassNeed{Resource: "tpu-v6e-slice", TPU: true, PerNode: 4, Nodes: 4} // 4x4: four hosts of four chips
	v7 := ClassNeed{Resource: "tpu7x", TPU: true, PerNode: 4, Nodes: 1}
	pools := ClassNeed{NodePools: true}
	nap := ClassCluster{Name: "projects/p/locations/l/clusters/c", Version: "1.33.5-gke.1000000", AutoProvisioning: true,
		Limits: map[string]int64{"cpu": 100, "memory": 400, "nvidia-l4": 8, "tpu-v6e-slice": 8}}
	summaries := func(fs Findings) (out []string) {
		for _, f := range fs {
			out = append(out, f.Severity.String()+" "+f.Attribute+" "+f.Summary)
		}
		return out
	}
	tests := []struct {
		name  string
		cl    ClassCluster
		auto  bool
		needs []ClassNeed
		want  [][]string // cluster findings, then each priority's
	}{
		{"limits cover the L4", nap, true, []ClassNeed{l4}, [][]string{nil, nil}},
		{"a 16-chip slice above a limit of 8", nap, true, []ClassNeed{v6e}, [][]string{nil, {"error tpu_type Auto-Provisioning Limit Below One Node"}}},
		{"no limit for the H100", nap, true, []ClassNeed{{Resource: "nvidia-h100-80gb", PerNode: 8}}, [][]string{nil, {"error gpu_type No Auto-Provisioning Limit for This Accelerator"}}},
		{"an undocumented TPU limit name is a warning", nap, true, []ClassNeed{v7}, [][]string{nil, {"warning tpu_type No Auto-Provisioning Limit Found for This TPU"}}},
		{"auto-creation off checks no limit", nap, false, []ClassNeed{{Resource: "nvidia-h100-80gb", PerNode: 8}}, [][]string{nil, nil}},
		{"Standard 1.30 without auto-provisioning", ClassCluster{Name: "c", Version: "1.30.5-gke.1014001"}, true, []ClassNeed{l4},
			[][]string{{"error cluster Node-Pool Auto-Creation Needs Node Auto-Provisioning"}, nil}},
		{"Standard 1.33.5 without auto-provisioning", ClassCluster{Name: "c", Version: "1.33.5-gke.1000000"}, true, []ClassNeed{l4, v6e}, [][]string{nil, nil, nil}},
		{"Autopilot with named pools", ClassCluster{Name: "c", Version: "1.33.5-gke.1000000", Autopilot: true}, true, []ClassNeed{pools, l4},
			[][]string{nil, {"error nodepools Autopilot Clusters Have No Node Pools to Name"}, nil}},
	}
	for _, tt := range tests {
		cluster, prios := c.ComputeClassOnCluster(tt.cl, tt.auto, tt.needs)
		got := [][]string{summaries(cluster)}
		for _, fs := range prios {
			got = append(got, summaries(fs))
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.name, got, tt.want)
		}
	}
	_, prios := c.ComputeClassOnCluster(nap, true, []ClassNeed{v6e})
	if f := prios[0][0]; f.Suggestions[0] != "16" || !strings.Contains(f.Detail, "type=tpu-v6e-slice,count=16") {
		t.Errorf("the fix names the limit one slice needs: %+v", f)
	}
}

// firstError is the first error of fs.
func firstError(fs Findings) (Finding, bool) {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return f, true
		}
	}
	return Finding{}, false
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

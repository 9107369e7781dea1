// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package computeclass

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// TestYAMLDecodesStrictly renders classes of every kind of priority and
// decodes each against the CRD's fields (Decode refuses any other key):
// the values come back as configured, in order, and every value taken from
// the configuration stays a YAML string whatever it looks like.
func TestYAMLDecodesStrictly(t *testing.T) {
	t.Parallel()
	tests := map[string]Class{
		"node pools in order with active migration": {Name: "vllm-fallback", WhenUnsatisfiable: DoNotScaleUp, ActiveMigration: true,
			Priorities: []Priority{{NodePools: []string{"v6e-spot"}}, {NodePools: []string{"l4"}}}},
		"names YAML would read as other types stay strings": {Name: "on", WhenUnsatisfiable: ScaleUpAnyway,
			Priorities: []Priority{{NodePools: []string{"yes", "null"}}, {NodePools: []string{"1e3"}}, {NodePools: []string{"true"}}}},
		"hardware priorities with auto-creation": {Name: "tpu-first", WhenUnsatisfiable: DoNotScaleUp, AutoCreation: true,
			PoolConfig: PoolConfig{ImageType: "cos_containerd", ServiceAccount: "sa@p.iam.gserviceaccount.com",
				NodeLabels: map[string]string{"team": "serving", "a": "on"}, Taints: []Taint{{Key: "dedicated", Value: "ml", Effect: "NoSchedule"}}},
			Priorities: []Priority{
				{TPU: &TPU{Type: "tpu-v6e-slice", Count: 4, Topology: "2x2"}, Spot: true, Zones: []string{"us-east5-b"}},
				{TPU: &TPU{Type: "tpu-v5p-slice", Count: 4, Topology: "4x4x4"}, PlacementPolicy: "my-policy",
					Reservations: &Reservations{Affinity: AffinitySpecific, Specific: []SpecificReservation{{Name: "r1", Project: "p"}, {Name: "r2"}}}},
				{TPU: &TPU{Type: "tpu-v6e-slice", Count: 1, Topology: "1x1"}, FlexStart: true, MaxRunDurationSeconds: 3600},
				{GPU: &GPU{Type: "nvidia-l4", Count: 1, DriverVersion: "latest"}, MachineFamily: "g2"},
				{GPU: &GPU{Type: "nvidia-l4", Count: 2}, MachineType: "g2-standard-24", Reservations: &Reservations{Affinity: AffinityAnyBestEffort}},
				{MachineFamily: "n2"},
			}},
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := in.YAML()
			got, err := Decode(out)
			if err != nil {
				t.Fatalf("the manifest is not a ComputeClass: %v\n%s", err, out)
			}
			if got.Metadata.Name != in.Name || got.Spec.WhenUnsatisfiable != in.WhenUnsatisfiable {
				t.Errorf("metadata.name %q, whenUnsatisfiable %q; want %q, %q", got.Metadata.Name, got.Spec.WhenUnsatisfiable, in.Name, in.WhenUnsatisfiable)
			}
			if len(got.Spec.Priorities) != len(in.Priorities) {
				t.Fatalf("%d priorities, want %d:\n%s", len(got.Spec.Priorities), len(in.Priorities), out)
			}
			for i, want := range in.Priorities {
				p := got.Spec.Priorities[i]
				if diff := cmp.Diff(want.NodePools, p.Nodepools); diff != "" {
					t.Errorf("priorities[%d].nodepools (-want +got):\n%s", i, diff)
				}
				if p.MachineFamily != want.MachineFamily || p.MachineType != want.MachineType {
					t.Errorf("priorities[%d] machine %q/%q, want %q/%q", i, p.MachineFamily, p.MachineType, want.MachineFamily, want.MachineType)
				}
				if (p.TPU != nil) != (want.TPU != nil) || p.TPU != nil && (p.TPU.Type != want.TPU.Type || *p.TPU.Count != want.TPU.Count || p.TPU.Topology != want.TPU.Topology) {
					t.Errorf("priorities[%d].tpu = %+v, want %+v", i, p.TPU, want.TPU)
				}
				if (p.GPU != nil) != (want.GPU != nil) || p.GPU != nil && (p.GPU.Type != want.GPU.Type || *p.GPU.Count != want.GPU.Count || p.GPU.DriverVersion != want.GPU.DriverVersion) {
					t.Errorf("priorities[%d].gpu = %+v, want %+v", i, p.GPU, want.GPU)
				}
				if (p.Spot != nil && *p.Spot) != want.Spot || (p.FlexStart != nil && *p.FlexStart.Enabled) != want.FlexStart {
					t.Errorf("priorities[%d] spot/flexStart wrong:\n%s", i, out)
				}
				if (p.Location != nil) != (len(want.Zones) > 0) || p.Location != nil && !cmp.Equal(p.Location.Zones, want.Zones) {
					t.Errorf("priorities[%d].location = %+v, want zones %v", i, p.Location, want.Zones)
				}
				if (p.Placement != nil) != (want.PlacementPolicy != "") || p.Placement != nil && p.Placement.PolicyName != want.PlacementPolicy {
					t.Errorf("priorities[%d].placement = %+v, want %q", i, p.Placement, want.PlacementPolicy)
				}
				if (p.Reservations != nil) != (want.Reservations != nil) || p.Reservations != nil && (p.Reservations.Affinity != want.Reservations.Affinity || len(p.Reservations.Specific) != len(want.Reservations.Specific)) {
					t.Errorf("priorities[%d].reservations = %+v, want %+v", i, p.Reservations, want.Reservations)
				}
				if (p.MaxRunDurationSeconds != nil) != (want.MaxRunDurationSeconds > 0) {
					t.Errorf("priorities[%d].maxRunDurationSeconds = %v, want %d", i, p.MaxRunDurationSeconds, want.MaxRunDurationSeconds)
				}
			}
			if (got.Spec.ActiveMigration != nil) != in.ActiveMigration || (got.Spec.NodePoolAutoCreation != nil) != in.AutoCreation {
				t.Errorf("activeMigration/nodePoolAutoCreation set without being asked for, or missing:\n%s", out)
			}
			if pc := got.Spec.NodePoolConfig; (pc != nil) != !in.PoolConfig.empty() ||
				pc != nil && (pc.ImageType != in.PoolConfig.ImageType || !cmp.Equal(pc.NodeLabels, in.PoolConfig.NodeLabels) || len(pc.Taints) != len(in.PoolConfig.Taints)) {
				t.Errorf("nodePoolConfig = %+v, want %+v", pc, in.PoolConfig)
			}
			// Every configured value is a YAML string (a typed decode would
			// turn null into "" and hide it).
			var untyped struct {
				Metadata map[string]any `yaml:"metadata"`
				Spec     struct {
					Priorities []map[string]any `yaml:"priorities"`
				} `yaml:"spec"`
			}
			if err := yaml.Unmarshal([]byte(out), &untyped); err != nil {
				t.Fatal(err)
			}
			if _, ok := untyped.Metadata["name"].(string); !ok {
				t.Errorf("metadata.name is a %T, want a string", untyped.Metadata["name"])
			}
			for i, p := range untyped.Spec.Priorities {
				if l, ok := p["nodepools"].([]any); ok {
					for _, v := range l {
						if _, ok := v.(string); !ok {
							t.Errorf("spec.priorities[%d].nodepools holds %v, a %T, want a string", i, v, v)
						}
					}
				}
			}
			if again := in.YAML(); again != out {
				t.Errorf("YAML() is not deterministic")
			}
			// One definition serves both directions: the decoded CRD
			// writes the same manifest.
			if back := got.YAML(); back != out {
				t.Errorf("the decoded manifest writes back differently (-rendered +decoded):\n%s", cmp.Diff(out, back))
			}
		})
	}
}

// TestDecodeRefuses shows that the decoder is strict: a key the CRD does
// not have, a wrong type, and values outside the CRD's enums are errors.
func TestDecodeRefuses(t *testing.T) {
	t.Parallel()
	const head = "apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata:\n  name: c\nspec:\n"
	for name, doc := range map[string]string{
		"unknown priority key":   head + "  priorities:\n  - tpus:\n      type: tpu-v6e-slice\n",
		"misspelt spec key":      head + "  whenUnsatisfied: DoNotScaleUp\n",
		"count as a string":      head + "  priorities:\n  - tpu:\n      count: four\n",
		"whenUnsatisfiable enum": head + "  whenUnsatisfiable: Never\n",
		"reservation affinity":   head + "  priorities:\n  - reservations:\n      affinity: Any\n",
		"taint effect":           head + "  nodePoolConfig:\n    taints:\n    - key: k\n      value: v\n      effect: NO_SCHEDULE\n",
		"kind":                   strings.Replace(head, "ComputeClass", "ComputeClasses", 1),
		"flexStart as a bool":    head + "  priorities:\n  - flexStart: true\n",
		"zones outside location": head + "  priorities:\n  - zones: [us-central1-a]\n",
	} {
		if _, err := Decode(doc); err == nil {
			t.Errorf("%s: decoded without an error:\n%s", name, doc)
		}
	}
}

func TestNameRE(t *testing.T) {
	for name, want := range map[string]bool{"vllm-fallback": true, "a": true, "class.v2": true, "0serving": true,
		"Vllm": false, "-a": false, "a-": false, "a..b": false, "a.-b": false, "under_score": false, "": false} {
		if NameRE.MatchString(name) != want {
			t.Errorf("NameRE(%q) = %v, want %v", name, !want, want)
		}
	}
}

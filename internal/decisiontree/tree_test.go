// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package decisiontree

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

var (
	v6e   = Candidate{Family: TPU, AcceleratorType: "v6e-4"}
	v5e   = Candidate{Family: TPU, AcceleratorType: "v5litepod-4"}
	a100  = Candidate{Family: GPU, MachineType: "a2-ultragpu-1g"}
	l4x4  = Candidate{Family: GPU, MachineType: "g2-standard-48"}
	l4x1  = Candidate{Family: GPU, MachineType: "g2-standard-8", Smaller: true}
	t4att = Candidate{Family: GPU, MachineType: "n1-standard-8", GPUType: "nvidia-tesla-t4", GPUCount: 1, Smaller: true}
)

// having answers capacity from a set of candidate labels, checked live.
func having(labels ...string) func(Candidate) Evidence {
	return func(c Candidate) Evidence {
		ok := slices.Contains(labels, c.Label())
		return Evidence{Offered: true, Available: ok, Checked: true, Zones: []string{"us-central1-b"}, Detail: map[bool]string{true: "quota", false: "no quota"}[ok]}
	}
}

func TestWalk(t *testing.T) {
	cases := map[string]struct {
		in        Input
		have      []string
		want      Outcome
		convert   bool
		tiers     []string
		questions []string
	}{
		"tpu first, TPU capacity": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e, v5e}, GPU: []Candidate{a100}, RunsOnOther: true},
			have: []string{"TPU v5litepod-4", "a2-ultragpu-1g"}, want: OutcomeTPU,
			tiers:     []string{"TPU v6e-4", "TPU v5litepod-4", "a2-ultragpu-1g"},
			questions: []string{"Do you have access to the required TPUs?"},
		},
		"tpu first, TPU capacity, model only on TPU: no GPU fallback tiers": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}},
			have: []string{"TPU v6e-4", "a2-ultragpu-1g"}, want: OutcomeTPU, tiers: []string{"TPU v6e-4"},
			questions: []string{"Do you have access to the required TPUs?"},
		},
		"tpu first, no TPU, runs on GPU with capacity": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100, l4x4}, RunsOnOther: true},
			have: []string{"g2-standard-48"}, want: OutcomeGPU, tiers: []string{"TPU v6e-4", "a2-ultragpu-1g", "g2-standard-48"},
			questions: []string{"Do you have access to the required TPUs?", "Does the model run on GPUs?", "Do you have access to the required GPUs?"},
		},
		"tpu first, no TPU, runs on GPU without capacity": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, RunsOnOther: true},
			want: OutcomeStuck, tiers: []string{"TPU v6e-4", "a2-ultragpu-1g"},
			questions: []string{"Do you have access to the required TPUs?", "Does the model run on GPUs?",
				"Do you have access to the required GPUs?", "Decision"},
		},
		"tpu first, TPU only, conversion feasible": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, ConversionFeasible: true},
			have: []string{"a2-ultragpu-1g"}, want: OutcomeGPU, convert: true, tiers: []string{"TPU v6e-4"},
			questions: []string{"Do you have access to the required TPUs?", "Does the model run on GPUs?",
				"Is converting the model to GPUs feasible?", "Do you have access to the required GPUs?"},
		},
		"tpu first, TPU only, conversion not feasible": {
			in:   Input{Start: TPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}},
			have: []string{"a2-ultragpu-1g"}, want: OutcomeStuck, tiers: []string{"TPU v6e-4"},
			questions: []string{"Do you have access to the required TPUs?", "Does the model run on GPUs?",
				"Is converting the model to GPUs feasible?", "Decision"},
		},
		"gpu first, GPU capacity, smaller and TPU as fallbacks": {
			in: Input{Start: GPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, SmallerGPU: []Candidate{l4x1, t4att},
				RunsOnOther: true},
			have: []string{"a2-ultragpu-1g", "g2-standard-8", "TPU v6e-4"}, want: OutcomeGPU,
			tiers:     []string{"a2-ultragpu-1g", "g2-standard-8", "n1-standard-8 with 1 x nvidia-tesla-t4", "TPU v6e-4"},
			questions: []string{"Do you have access to the required GPUs?"},
		},
		"gpu first, smaller GPUs": {
			in:   Input{Start: GPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, SmallerGPU: []Candidate{l4x1, t4att}},
			have: []string{"n1-standard-8 with 1 x nvidia-tesla-t4"}, want: OutcomeSmallerGPU,
			tiers: []string{"a2-ultragpu-1g", "g2-standard-8", "n1-standard-8 with 1 x nvidia-tesla-t4"},
			questions: []string{"Do you have access to the required GPUs?", "Can you use smaller GPUs?",
				"Do you have access to the smaller GPUs?"},
		},
		"gpu first, no GPU, no smaller, runs on TPU with capacity": {
			in:   Input{Start: GPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, RunsOnOther: true},
			have: []string{"TPU v6e-4"}, want: OutcomeTPU, tiers: []string{"a2-ultragpu-1g", "TPU v6e-4"},
			questions: []string{"Do you have access to the required GPUs?", "Can you use smaller GPUs?",
				"Does the model run on TPUs?", "Do you have access to the required TPUs?"},
		},
		"gpu first, smaller GPUs without capacity, conversion to TPU": {
			in: Input{Start: GPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}, SmallerGPU: []Candidate{l4x1},
				ConversionFeasible: true},
			have: []string{"TPU v6e-4"}, want: OutcomeTPU, convert: true, tiers: []string{"a2-ultragpu-1g", "g2-standard-8"},
			questions: []string{"Do you have access to the required GPUs?", "Can you use smaller GPUs?",
				"Do you have access to the smaller GPUs?", "Does the model run on TPUs?",
				"Is converting the model to TPUs feasible?", "Do you have access to the required TPUs?"},
		},
		"gpu first, stuck": {
			in:   Input{Start: GPU, TPU: []Candidate{v6e}, GPU: []Candidate{a100}},
			want: OutcomeStuck, tiers: []string{"a2-ultragpu-1g"},
			questions: []string{"Do you have access to the required GPUs?", "Can you use smaller GPUs?",
				"Does the model run on TPUs?", "Is converting the model to TPUs feasible?", "Decision"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			calls := map[string]int{}
			ev := having(tc.have...)
			res := Walk(tc.in, func(c Candidate) Evidence {
				calls[c.Label()]++
				return ev(c)
			})
			if res.Decision != tc.want || res.ConvertModel != tc.convert {
				t.Errorf("decision %s (convert %v), want %s (convert %v); steps %+v", res.Decision, res.ConvertModel, tc.want, tc.convert, res.Steps)
			}
			var tiers, questions []string
			for _, c := range res.Tiers {
				tiers = append(tiers, c.Candidate.Label())
			}
			for _, s := range res.Steps {
				questions = append(questions, s.Question)
				if s.Answer == "" || s.Evidence == "" {
					t.Errorf("step %q has answer %q and evidence %q", s.Question, s.Answer, s.Evidence)
				}
			}
			if !slices.Equal(tiers, tc.tiers) {
				t.Errorf("tiers %v, want %v", tiers, tc.tiers)
			}
			if !slices.Equal(questions, tc.questions) {
				t.Errorf("questions %q, want %q", questions, tc.questions)
			}
			for label, n := range calls {
				if n != 1 {
					t.Errorf("capacity of %s asked %d times, want once", label, n)
				}
			}
			if !res.CapacityChecked {
				t.Error("every answer was live, yet CapacityChecked is false")
			}
		})
	}
}

// TestWalkTiersIgnoreQuota: the tiers are the same whether the quota has
// room or the tiers' own pools fill it (a pool created from the tiers must
// not be dropped by the next plan); only each tier's Available changes. A
// candidate Google does not offer in the zones is no tier.
func TestWalkTiersIgnoreQuota(t *testing.T) {
	in := Input{Start: TPU, TPU: []Candidate{v6e, v5e}, GPU: []Candidate{a100}, RunsOnOther: true}
	notOffered := func(c Candidate) bool { return c == v6e }
	walk := func(quota bool) Result {
		return Walk(in, func(c Candidate) Evidence {
			if notOffered(c) {
				return Evidence{Checked: true, Detail: "offered in none of the zones"}
			}
			return Evidence{Offered: true, Available: quota, Checked: true, Zones: []string{"us-central1-a"}, Detail: "quota"}
		})
	}
	withRoom, full := walk(true), walk(false)
	labels := func(r Result) (out []string) {
		for _, c := range r.Tiers {
			out = append(out, fmt.Sprintf("%s available=%v", c.Candidate.Label(), c.Evidence.Available))
		}
		return out
	}
	if got, want := labels(withRoom), []string{"TPU v5litepod-4 available=true", "a2-ultragpu-1g available=true"}; !slices.Equal(got, want) {
		t.Errorf("tiers with quota: %q, want %q", got, want)
	}
	if got, want := labels(full), []string{"TPU v5litepod-4 available=false", "a2-ultragpu-1g available=false"}; !slices.Equal(got, want) {
		t.Errorf("tiers with the quota full: %q, want %q", got, want)
	}
	if withRoom.Decision != OutcomeTPU || full.Decision != OutcomeStuck {
		t.Errorf("decisions %s and %s, want tpu and stuck", withRoom.Decision, full.Decision)
	}
}

func TestWalkOfflineSaysCapacityNotChecked(t *testing.T) {
	res := Walk(Input{Start: TPU, TPU: []Candidate{v6e}}, func(Candidate) Evidence {
		return Evidence{Available: true, Detail: "capacity not checked"}
	})
	if res.Decision != OutcomeTPU || res.CapacityChecked {
		t.Fatalf("decision %s, checked %v; want tpu, not checked", res.Decision, res.CapacityChecked)
	}
	if !strings.Contains(res.Steps[0].Evidence, "capacity not checked") {
		t.Errorf("evidence %q does not say capacity was not checked", res.Steps[0].Evidence)
	}
}

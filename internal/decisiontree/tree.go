// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package decisiontree answers the first question of both accelerator decision
// trees, "do you have access to the required TPUs (GPUs)?", and walks the
// trees to a decision: TPU, GPU, smaller GPU, or stuck. It is pure Go: the
// evidence for each candidate comes from a caller-supplied function (the
// catalog offline, the live APIs online).
package decisiontree

import (
	"fmt"
	"strings"
)

// Family is an accelerator family.
type Family string

const (
	TPU Family = "tpu"
	GPU Family = "gpu"
)

// Families lists the families, for validators and docs.
var Families = []string{string(TPU), string(GPU)}

// Outcome is where a walk ends.
type Outcome string

const (
	OutcomeTPU        Outcome = "tpu"
	OutcomeGPU        Outcome = "gpu"
	OutcomeSmallerGPU Outcome = "smaller_gpu"
	OutcomeStuck      Outcome = "stuck"
)

// Outcomes lists the outcomes, for docs.
var Outcomes = []string{string(OutcomeTPU), string(OutcomeGPU), string(OutcomeSmallerGPU), string(OutcomeStuck)}

// Candidate is one accelerator configuration the model could run on.
type Candidate struct {
	Family Family
	// Smaller marks a GPU candidate of the "smaller GPUs" step.
	Smaller bool
	// TPU: AcceleratorType (Cloud TPU form, e.g. v6e-4). GPU: MachineType,
	// and for attachable GPUs GPUType and GPUCount.
	AcceleratorType string
	MachineType     string
	GPUType         string
	GPUCount        int
}

// Label names the candidate as a user would.
func (c Candidate) Label() string {
	switch {
	case c.Family == TPU:
		return "TPU " + c.AcceleratorType
	case c.GPUType != "" && c.GPUCount > 0:
		return fmt.Sprintf("%s with %d x %s", c.MachineType, c.GPUCount, c.GPUType)
	case c.GPUType != "":
		return fmt.Sprintf("%s with %s", c.MachineType, c.GPUType)
	}
	return c.MachineType
}

// Evidence is what is known about a candidate's capacity.
type Evidence struct {
	// Offered: the candidate is a valid configuration offered in Zones,
	// whatever its quota. Only offered candidates become tiers.
	Offered bool
	// Available: the candidate can be provisioned in Zones, as far as the
	// evidence goes (it is offered, and the quota has room). Available
	// implies Offered.
	Available bool
	// Checked: the evidence comes from the live APIs (quota, reservations,
	// zone offer). Unchecked evidence comes from the catalog alone.
	Checked bool
	// Zones are the zones where the candidate is offered.
	Zones []string
	// Detail says why, in one or two sentences.
	Detail string
}

// Input is what a walk starts from.
type Input struct {
	// Start is the family the model code was written for.
	Start Family
	// Candidates per family, in order of preference; SmallerGPU are the
	// GPU candidates of the "can you use smaller GPUs?" step.
	TPU, GPU, SmallerGPU []Candidate
	// RunsOnOther: the model also runs on the other family as it is.
	RunsOnOther bool
	// ConversionFeasible: converting the model to the other family is.
	ConversionFeasible bool
}

// Step is one question of a walk with its answer.
type Step struct {
	Question string
	Answer   string
	Evidence string
}

// Choice is a candidate a walk keeps, with its evidence.
type Choice struct {
	Candidate Candidate
	Evidence  Evidence
}

// Result is where a walk ends and how it got there.
type Result struct {
	Decision Outcome
	// ConvertModel: the decision needs the model converted to the other
	// family first.
	ConvertModel bool
	// CapacityChecked: every capacity answer came from live evidence.
	CapacityChecked bool
	Steps           []Step
	// Tiers are the candidates to provision, in priority order: every
	// offered candidate the model runs on as it is, in the order of the
	// tree's groups (the start family first), whatever its quota. They
	// depend on the configuration and on where Google offers the
	// candidates, never on the capacity answers, so that pools created from
	// them are not deleted when their own nodes fill the quota; each
	// Choice's Evidence.Available says whether it has headroom now.
	Tiers []Choice
}

// walker asks each capacity question once.
type walker struct {
	in       Input
	evidence func(Candidate) Evidence
	res      Result
	asked    map[string][]Choice
	checked  bool
	anyAsked bool
	// answered caches the evidence of each candidate, by label.
	answered map[string]Evidence
}

// Walk walks the tree that starts at in.Start. evidence answers the
// capacity of one candidate; it is called at most once per candidate.
func Walk(in Input, evidence func(Candidate) Evidence) Result {
	w := &walker{in: in, evidence: evidence, asked: map[string][]Choice{}, checked: true, answered: map[string]Evidence{}}
	if in.Start == GPU {
		w.gpuFirst()
	} else {
		w.tpuFirst()
	}
	w.res.CapacityChecked = w.checked && w.anyAsked
	w.res.Tiers = w.tiers()
	return w.res
}

// evidenceOf answers c's capacity, once per candidate.
func (w *walker) evidenceOf(c Candidate) Evidence {
	key := string(c.Family) + "/" + c.Label()
	if ev, ok := w.answered[key]; ok {
		return ev
	}
	ev := w.evidence(c)
	w.answered[key] = ev
	return ev
}

// tiers are the offered candidates of the groups the model runs on as it
// is, in the tree's order (see Result.Tiers). A model that must be
// converted gets no tiers of the other family: they serve it only once it
// is converted (then runs_on_other is true).
func (w *walker) tiers() []Choice {
	var out []Choice
	for _, g := range w.groups() {
		for _, c := range w.candidates(g) {
			if ev := w.evidenceOf(c); ev.Offered || ev.Available {
				out = append(out, Choice{Candidate: c, Evidence: ev})
			}
		}
	}
	return out
}

// tpuFirst is tree 1: TPU capacity? yes -> TPU. No -> does the model run
// on GPU? yes -> GPU capacity? yes -> GPU. Runs only on TPU -> is
// converting it feasible? yes -> plan GPU capacity; no -> stuck.
func (w *walker) tpuFirst() {
	if tpus := w.capacity("tpu", "Do you have access to the required TPUs?", w.in.TPU); len(tpus) > 0 {
		w.decide(OutcomeTPU, false)
		return
	}
	w.otherFamily("GPUs", "gpu", w.in.GPU, OutcomeGPU)
}

// gpuFirst is tree 2: GPU capacity? yes -> GPU. No -> are smaller GPUs
// viable? yes -> smaller GPUs. No -> does it run on TPU? yes -> TPU
// capacity. Runs only on GPU -> is converting it feasible? yes -> plan TPU
// capacity; no -> stuck.
func (w *walker) gpuFirst() {
	if gpus := w.capacity("gpu", "Do you have access to the required GPUs?", w.in.GPU); len(gpus) > 0 {
		w.decide(OutcomeGPU, false)
		return
	}
	if len(w.in.SmallerGPU) == 0 {
		w.step("Can you use smaller GPUs?", "no", "no smaller GPU candidate is given")
	} else {
		w.step("Can you use smaller GPUs?", "yes", "candidates: "+labels(w.in.SmallerGPU))
		if small := w.capacity("smaller", "Do you have access to the smaller GPUs?", w.in.SmallerGPU); len(small) > 0 {
			w.decide(OutcomeSmallerGPU, false)
			return
		}
	}
	w.otherFamily("TPUs", "tpu", w.in.TPU, OutcomeTPU)
}

// otherFamily is the second half of both trees: does the model run on the
// other family, or can it be converted, and does that family have capacity?
func (w *walker) otherFamily(plural, key string, cands []Candidate, out Outcome) {
	question := "Does the model run on " + plural + "?"
	if w.in.RunsOnOther {
		w.step(question, "yes", "runs_on_other = true")
		if got := w.capacity(key, "Do you have access to the required "+plural+"?", cands); len(got) > 0 {
			w.decide(out, false)
			return
		}
		w.stuck("no candidate of either family has capacity")
		return
	}
	w.step(question, "no", "runs_on_other = false")
	if !w.in.ConversionFeasible {
		w.step("Is converting the model to "+plural+" feasible?", "no", "conversion_feasible = false")
		w.stuck("the model runs only on the family without capacity, and converting it is not feasible")
		return
	}
	w.step("Is converting the model to "+plural+" feasible?", "yes", "conversion_feasible = true: plan capacity for the converted model")
	if got := w.capacity(key, "Do you have access to the required "+plural+"?", cands); len(got) > 0 {
		w.decide(out, true)
		return
	}
	w.stuck("the converted model would have no capacity either")
}

// The answers of a capacity question that are not "no".
const (
	// AnswerYes: the live APIs say the project can provision a candidate.
	AnswerYes = "yes"
	// AnswerUnknown: a candidate is offered where the catalog lists it,
	// but nothing checked the project's access (offline, or an API that
	// cannot say, such as quota regions.get does not report). The walk
	// goes on as if it were available, and capacity_checked is false.
	AnswerUnknown = "unknown"
)

// answerFor is the answer for one available candidate's evidence.
func answerFor(ev Evidence) string {
	if ev.Checked {
		return AnswerYes
	}
	return AnswerUnknown
}

// capacity asks the capacity question for cands once and records the step.
func (w *walker) capacity(key, question string, cands []Candidate) []Choice {
	if got, ok := w.asked[key]; ok {
		return got
	}
	var got []Choice
	var lines []string
	for _, c := range cands {
		w.anyAsked = true
		ev := w.evidenceOf(c)
		if !ev.Checked {
			w.checked = false
		}
		mark := "no"
		if ev.Available {
			mark = answerFor(ev)
			got = append(got, Choice{Candidate: c, Evidence: ev})
		}
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", c.Label(), mark, ev.Detail))
	}
	answer := "no"
	switch {
	case len(cands) == 0:
		lines = []string{"no candidate is given"}
	case len(got) > 0:
		// "yes" only when the live APIs said so for a candidate taken;
		// the catalog alone cannot say the project has access.
		answer = AnswerUnknown
		for _, ch := range got {
			if ch.Evidence.Checked {
				answer = AnswerYes
			}
		}
	}
	w.asked[key] = got
	w.step(question, answer, strings.Join(lines, "; "))
	return got
}

// groups are the candidate groups the model runs on as it is, in the
// order of the walk's tree.
func (w *walker) groups() []string {
	if w.in.Start == GPU {
		if w.in.RunsOnOther {
			return []string{"gpu", "smaller", "tpu"}
		}
		return []string{"gpu", "smaller"}
	}
	if w.in.RunsOnOther {
		return []string{"tpu", "gpu", "smaller"}
	}
	return []string{"tpu"}
}

func (w *walker) candidates(key string) []Candidate {
	return map[string][]Candidate{"tpu": w.in.TPU, "gpu": w.in.GPU, "smaller": w.in.SmallerGPU}[key]
}

func (w *walker) step(q, a, e string) {
	w.res.Steps = append(w.res.Steps, Step{Question: q, Answer: a, Evidence: e})
}

// decide ends the walk at out.
func (w *walker) decide(out Outcome, convert bool) {
	w.res.Decision, w.res.ConvertModel = out, convert
}

func (w *walker) stuck(why string) {
	w.res.Decision = OutcomeStuck
	w.step("Decision", "stuck", why+": revisit the model or the capacity strategy (a reservation, Spot, other regions)")
}

func labels(cs []Candidate) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Label()
	}
	return strings.Join(out, ", ")
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"unicode/utf8"
)

// Node label keys, taint keys and values, and extended resource names GKE
// uses for accelerators. The catalog data lists each with its source; a test
// keeps these constants and the data in sync.
const (
	// LabelTPUAccelerator is the GKE accelerator label of TPU slice nodes (e.g. tpu-v6e-slice).
	LabelTPUAccelerator = "cloud.google.com/gke-tpu-accelerator"
	// LabelTPUTopology is the slice topology label of TPU nodes (e.g. 2x2).
	LabelTPUTopology = "cloud.google.com/gke-tpu-topology"
	// LabelGPUAccelerator is the GPU type label of GPU nodes (e.g. nvidia-l4).
	LabelGPUAccelerator = "cloud.google.com/gke-accelerator"
	// LabelMachineType is the Compute Engine machine type label of nodes.
	LabelMachineType = "cloud.google.com/gce-machine-type"
	// LabelComputeClass binds nodes (label and taint) and pods (nodeSelector) to a ComputeClass.
	LabelComputeClass = "cloud.google.com/compute-class"
	// LabelDefaultComputeClass is the namespace label naming the default ComputeClass.
	LabelDefaultComputeClass = "cloud.google.com/default-compute-class"
	// LabelSpot marks Spot nodes.
	LabelSpot = "cloud.google.com/gke-spot"

	// TaintTPU is the taint key GKE puts on TPU slice nodes.
	TaintTPU = "google.com/tpu"
	// TaintGPU is the taint key GKE puts on GPU nodes.
	TaintGPU = "nvidia.com/gpu"
	// TaintComputeClass is the taint key binding a manual node pool to a ComputeClass.
	TaintComputeClass = LabelComputeClass
	// TaintSpot is the taint key of Spot nodes in a ComputeClass tier.
	TaintSpot = LabelSpot
	// TaintValuePresent is the value of the TPU and GPU taints.
	TaintValuePresent = "present"
	// TaintEffectNoSchedule is the effect of every accelerator taint.
	TaintEffectNoSchedule = "NoSchedule"

	// ResourceTPU is the extended resource pods request for TPU chips.
	ResourceTPU = "google.com/tpu"
	// ResourceGPU is the extended resource pods request for GPUs.
	ResourceGPU = "nvidia.com/gpu"
)

// labelKeyRE and labelValueRE are Google Cloud's label rules
// (https://cloud.google.com/compute/docs/labeling-resources#requirements):
// keys start with a lowercase letter or an international character; keys
// and values hold lowercase letters, international characters, digits,
// underscores and dashes. Lengths are counted in characters, against the
// catalog's pool_settings.resource_labels.max_length.
var (
	labelKeyRE   = regexp.MustCompile(`^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]*$`)
	labelValueRE = regexp.MustCompile(`^[\p{Ll}\p{Lo}\p{N}_-]*$`)
)

// fits reports whether s matches re in at most lim.MaxLength
// characters.
func (lim LabelLimits) fits(re *regexp.Regexp, s string) bool {
	return utf8.RuneCountInString(s) <= lim.MaxLength && re.MatchString(s)
}

// LabelRules says what LabelFindings accepts, for schema descriptions.
func (c *Catalog) LabelRules() string {
	lim := c.data.PoolSettings.ResourceLabels
	return fmt.Sprintf("Keys: 1 to %d lowercase letters (international ones included), digits, `_` and `-`, starting with a "+
		"letter; values: at most %d of the same characters; at most %d labels.", lim.MaxLength, lim.MaxLength, lim.MaxLabels)
}

// LabelFindings is the one label rule of every resource: labels are the labels
// the resource writes on the object under attr (the provider's
// default_labels included), reserved the keys the provider adds itself.
// Together they may hold at most Compute Engine's number of labels; a
// reserved key in labels, and a key or value Google refuses, is an error.
func (c *Catalog) LabelFindings(attr string, labels map[string]string, reserved []string) Findings {
	lim := c.data.PoolSettings.ResourceLabels
	noun := "Label"
	if attr == AttrResourceLabels {
		noun = "Resource Label"
	}
	var fs Findings
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	added := 0
	for _, k := range reserved {
		if _, ok := labels[k]; !ok {
			added++
		}
	}
	if n := len(keys) + added; n > lim.MaxLabels {
		fs = append(fs, newRule(attr, fmt.Sprint(len(keys)), "Too Many "+noun+"s", lim.Source, nil,
			fmt.Sprintf("A Compute Engine resource has at most %d labels; %s (with the provider's default_labels) has %d, and the provider adds %d (%v): remove at least %d.",
				lim.MaxLabels, attr, len(keys), added, reserved, n-lim.MaxLabels)))
	}
	for _, k := range keys {
		v := labels[k]
		switch {
		case slices.Contains(reserved, k):
			fs = append(fs, newLimit(attr, k, noun+" Set by the Provider", lim.Source, nil,
				fmt.Sprintf("The provider sets the label %q on every object it creates, to mark the object as its own; remove it from %s.", k, attr)))
		case !lim.fits(labelKeyRE, k):
			fs = append(fs, newRule(attr, k, "Invalid "+noun+" Key", lim.Source, nil,
				fmt.Sprintf("Label key %q must start with a lowercase letter and hold at most %d lowercase letters, digits, underscores and dashes (international characters are allowed).", k, lim.MaxLength)))
		case !lim.fits(labelValueRE, v):
			fs = append(fs, newRule(attr, v, "Invalid "+noun+" Value", lim.Source, nil,
				fmt.Sprintf("The value %q of label %q must hold at most %d lowercase letters, digits, underscores and dashes (international characters are allowed).", v, k, lim.MaxLength)))
		}
	}
	return fs
}

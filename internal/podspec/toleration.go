// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package podspec holds what a pod needs to run on the nodes the provider
// describes, in Kubernetes' own spelling, and its Terraform value: the
// tolerations of accel_fallback_nodepools and accel_compute_class.
package podspec

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Toleration is a Kubernetes toleration (effect spelled NoSchedule...).
type Toleration struct {
	Key, Operator, Value, Effect string
}

// Kubernetes toleration operators, and the taint effect of every taint the
// provider puts on accelerator nodes.
const (
	OperatorExists   = "Exists"
	OperatorEqual    = "Equal"
	EffectNoSchedule = "NoSchedule"
)

// Union merges lists of tolerations, first seen first, each once.
func Union(lists ...[]Toleration) []Toleration {
	var out []Toleration
	for _, l := range lists {
		for _, t := range l {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// AttrTypes and ObjectType are the Terraform type of one toleration.
var (
	AttrTypes = map[string]attr.Type{
		"key":      types.StringType,
		"operator": types.StringType,
		"value":    types.StringType,
		"effect":   types.StringType,
	}
	ObjectType = types.ObjectType{AttrTypes: AttrTypes}
)

// List is ts as a Terraform list of ObjectType (empty, not null, for none).
func List(ts []Toleration) types.List {
	elems := make([]attr.Value, len(ts))
	for i, t := range ts {
		elems[i] = types.ObjectValueMust(AttrTypes, map[string]attr.Value{
			"key": types.StringValue(t.Key), "operator": types.StringValue(t.Operator),
			"value": types.StringValue(t.Value), "effect": types.StringValue(t.Effect),
		})
	}
	return types.ListValueMust(ObjectType, elems)
}

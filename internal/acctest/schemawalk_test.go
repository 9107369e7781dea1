// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnknownConfigBlocks checks how cases render blocks: a map as one
// block, a list of maps as repeated blocks, an unknown block as a dynamic
// block over the unknown value, and attributes as arguments.
func TestUnknownConfigBlocks(t *testing.T) {
	t.Parallel()
	attrs := []Attribute{
		{Path: "name", String: true},
		{Path: "labels", Collection: true},
		{Path: "network_config", Block: true},
		{Path: "network_config.network", String: true},
		{Path: "data_disks", Block: true, Collection: true},
		{Path: "data_disks.source_disk", String: true},
	}
	full := map[string]any{
		"name":           "vm",
		"labels":         map[string]any{"team": "ml"},
		"network_config": map[string]any{"network": "default"},
		"data_disks":     []any{map[string]any{"source_disk": "a"}, map[string]any{"source_disk": "b"}},
	}
	cases, missing := UnknownCases(attrs, full, nil, nil)
	if len(missing) > 0 {
		t.Fatalf("missing %v", missing)
	}
	byName := map[string]Case{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	if _, ok := byName["data_disks[*]"]; ok {
		t.Error("a case makes the elements of a repeated block unknown one by one")
	}
	tests := map[string][]string{
		"name": {
			"name = terraform_data.unknown.output.v1",
			"  network_config {\n    network = \"default\"\n  }",
			"  data_disks {\n    source_disk = \"a\"\n  }\n  data_disks {\n    source_disk = \"b\"\n  }",
			"labels = {\n    \"team\" = \"ml\"\n  }",
		},
		"network_config": {
			"dynamic \"network_config\" {\n    for_each = terraform_data.unknown.output.v",
			"content {\n      network = network_config.value.network\n    }",
		},
		"network_config.network": {"network_config {\n    network = terraform_data.unknown.output.v"},
		"data_disks":             {"dynamic \"data_disks\" {", "source_disk = data_disks.value.source_disk"},
	}
	for name, wants := range tests {
		c, ok := byName[name]
		if !ok {
			t.Errorf("no case %s", name)
			continue
		}
		got := UnknownConfig(Resource, "accel_tpu_vm", []Case{c})
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("case %s: config lacks %q:\n%s", name, want, got)
			}
		}
	}
	// The input of a single unknown block is a one-element list.
	got := UnknownConfig(Resource, "accel_tpu_vm", []Case{byName["network_config"]})
	if !strings.Contains(got, "= [{\n    \"network\" = \"default\"\n  }]") {
		t.Errorf("the unknown single block's value is not a one-element list:\n%s", got)
	}
}

// TestUnknownConfigNestedBlocks checks the content of an unknown repeated
// block whose elements hold blocks and leave some arguments out: nested
// blocks are dynamic blocks over the iterator, and an argument or block an
// element leaves out is read with lookup.
func TestUnknownConfigNestedBlocks(t *testing.T) {
	t.Parallel()
	attrs := []Attribute{
		{Path: "tiers", Block: true, Collection: true},
		{Path: "tiers.name", String: true},
		{Path: "tiers.gpu_type", String: true},
		{Path: "tiers.taints", Block: true, Collection: true},
		{Path: "tiers.taints.key", String: true},
		{Path: "tiers.reservation_affinity", Block: true},
		{Path: "tiers.reservation_affinity.key", String: true},
	}
	full := map[string]any{"tiers": []any{
		map[string]any{"name": "tpu", "taints": []any{map[string]any{"key": "k"}}, "reservation_affinity": map[string]any{"key": "r"}},
		map[string]any{"name": "gpu", "gpu_type": "nvidia-l4"},
	}}
	cases, _ := UnknownCases(attrs, full, nil, nil)
	var whole Case
	for _, c := range cases {
		if c.Name == "tiers" {
			whole = c
		}
	}
	got := UnknownConfig(Resource, "accel_fallback_nodepools", []Case{whole})
	for _, want := range []string{
		"dynamic \"tiers\" {\n    for_each = terraform_data.unknown.output.v",
		"name = tiers.value.name",
		"gpu_type = lookup(tiers.value, \"gpu_type\", null)",
		"dynamic \"taints\" {\n        for_each = lookup(tiers.value, \"taints\", [])\n        content {\n          key = taints.value.key\n        }",
		"dynamic \"reservation_affinity\" {\n        for_each = [for x in [lookup(tiers.value, \"reservation_affinity\", null)] : x if x != null]",
		"key = reservation_affinity.value.key",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("config lacks %q:\n%s", want, got)
		}
	}
}

// TestUnknownCasesKeepTheElementsThatSetTheAttribute: a case of an
// attribute inside a list of objects keeps only the elements that set it,
// and every element when all of them do.
func TestUnknownCasesKeepTheElementsThatSetTheAttribute(t *testing.T) {
	t.Parallel()
	attrs := []Attribute{
		{Path: "tiers", Block: true, Collection: true},
		{Path: "tiers.name", String: true},
		{Path: "tiers.gpu_type", String: true},
		{Path: "tiers.taints", Block: true, Collection: true},
		{Path: "tiers.taints.key", String: true},
	}
	full := map[string]any{"zone": "z", "tiers": []any{
		map[string]any{"name": "tpu", "taints": []any{map[string]any{"key": "k"}, map[string]any{"effect": "e"}}},
		map[string]any{"name": "gpu", "gpu_type": "nvidia-l4"},
	}}
	minimal := map[string]any{"tiers": []any{map[string]any{"name": "only"}, map[string]any{"name": "other"}}}
	cases, _ := UnknownCases(attrs, full, minimal, nil)
	tiers := map[string][]string{}
	for _, c := range cases {
		list, ok := c.Body["tiers"].([]any)
		if !ok { // the case of tiers itself
			continue
		}
		var names []string
		for _, e := range list {
			tier, _ := e.(map[string]any)
			name := tier["name"]
			if u, ok := name.(Unknown); ok {
				name = u.Value
			}
			names = append(names, fmt.Sprint(name))
		}
		tiers[c.Name] = names
		if c.Name == "tiers.taints.key" {
			first, _ := list[0].(map[string]any)
			taints, _ := first["taints"].([]any)
			if len(taints) != 1 {
				t.Errorf("tiers.taints.key: %d taints kept, want the one that sets key", len(taints))
			}
		}
		if c.Body["zone"] != nil && c.Body["zone"] != "z" {
			t.Errorf("%s: the other attributes changed", c.Name)
		}
	}
	for name, want := range map[string]string{
		"tiers.name":                         "tpu gpu",
		"tiers.gpu_type":                     "gpu",
		"tiers.taints":                       "tpu",
		"tiers.taints.key":                   "tpu",
		"tiers.gpu_type (with few others)":   "only other",
		"tiers.taints.key (with few others)": "only other",
	} {
		if got := strings.Join(tiers[name], " "); got != want {
			t.Errorf("case %s keeps tiers %q, want %q", name, got, want)
		}
	}
}

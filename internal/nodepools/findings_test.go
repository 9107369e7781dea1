// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// TestFindingPaths derives many misconfigured tiers and checks that every
// finding lands on a path of the schema that a configuration sets, with the
// list index where the finding has one.
func TestFindingPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var sresp resource.SchemaResponse
	(&fallbackNodePoolsResource{catalog: catalog.Default()}).Schema(ctx, resource.SchemaRequest{}, &sresp)
	sch := sresp.Schema
	n := func(v int64) *int64 { return &v }
	tpu := func(acc string, zones ...string) tierInput {
		return tierInput{Name: "t", AcceleratorType: acc, Locations: zones, AutoRepair: true, AutoUpgrade: true}
	}
	gpu := func(machine, gpuType string, count int64, zones ...string) tierInput {
		return tierInput{Name: "g", MachineType: machine, GPUType: gpuType, GPUCount: count, Locations: zones, AutoRepair: true, AutoUpgrade: true}
	}
	with := func(in tierInput, f func(*tierInput)) tierInput { f(&in); return in }
	inputs := map[string]struct {
		in      tierInput
		version string
	}{
		"unknown accelerator type":        {in: tpu("v6e-3", "us-central1-b")},
		"accelerator type in upper case":  {in: tpu("V6E-4", "us-central1-b")},
		"zone not listed for generation":  {in: tpu("v6e-4", "us-central1-b", "asia-east1-b")},
		"zone without the generation":     {in: tpu("v6e-4", "asia-east1-c")},
		"region instead of zone":          {in: tpu("v6e-4", "us-central1")},
		"malformed zone":                  {in: tpu("v6e-4", "US Central1 B")},
		"multi-host slice in two zones":   {in: tpu("v6e-16", "us-east5-a", "us-east5-b")},
		"multi-host node count":           {in: with(tpu("v6e-16", "us-east5-a"), func(in *tierInput) { in.NodeCount = n(2) })},
		"autoscaling without whole slice": {in: with(tpu("v6e-16", "us-east5-a"), func(in *tierInput) { in.MinNodes, in.MaxNodes = n(0), n(3) })},
		"autoscaling above one slice":     {in: with(tpu("v6e-16", "us-east5-a"), func(in *tierInput) { in.MinNodes, in.MaxNodes = n(0), n(8) })},
		"bounds out of order":             {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.MinNodes, in.MaxNodes = n(3), n(1) })},
		"machine type for another shape":  {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.MachineType = "ct6e-standard-8t" })},
		"unknown machine type":            {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.MachineType = "ct6e-huge" })},
		"topology for another size":       {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.Topology = "4x4" })},
		"malformed topology":              {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.Topology = "2by2" })},
		"GKE too old for the generation":  {in: tpu("v6e-4", "us-central1-b"), version: "1.28.3-gke.1000000"},
		"both TPU and GPU":                {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) { in.GPUType = "nvidia-l4" })},
		"no accelerator":                  {in: tierInput{Name: "x", Locations: []string{"us-central1-b"}}},
		"GPU type of another machine":     {in: gpu("g2-standard-4", "nvidia-h100-80gb", 0, "us-central1-a")},
		"GPU count of another machine":    {in: gpu("a3-highgpu-8g", "", 4, "us-central1-a")},
		"unknown GPU type":                {in: gpu("n1-standard-8", "nvidia-tesla-x", 1, "us-central1-a")},
		"N1 without a GPU":                {in: gpu("n1-standard-8", "", 0, "us-central1-a")},
		"unknown GPU machine type":        {in: gpu("g9-standard-4", "", 0, "us-central1-a")},
		"bad driver version":              {in: with(gpu("g2-standard-4", "", 0, "us-central1-a"), func(in *tierInput) { in.GPUDriver = "newest" })},
		"topology on a GPU tier":          {in: with(gpu("g2-standard-4", "", 0, "us-central1-a"), func(in *tierInput) { in.Topology = "2x2" })},
		"GPU tier with a malformed zone":  {in: gpu("g2-standard-4", "", 0, "us-central1", "useast1b")},
		"provider label and taints": {in: with(tpu("v6e-4", "us-central1-b"), func(in *tierInput) {
			in.Labels = map[string]string{catalog.LabelComputeClass: "x"}
			in.Taints = []taint{{Key: "a", Value: "1", Effect: effectNoSchedule}, {Key: "a", Value: "2", Effect: effectNoSchedule},
				{Key: catalog.TaintTPU, Value: "present", Effect: effectNoSchedule}}
		})},
	}
	seen := map[string]bool{}
	for name, tc := range inputs {
		_, fs := derive(catalog.Default(), tc.in, "cc", tc.version)
		if len(fs) == 0 {
			t.Errorf("%s: no finding; the input is not misconfigured", name)
			continue
		}
		var diags diag.Diagnostics
		appendTierFindings(&diags, 2, tc.in.Name, fs, validation.Mode{Mode: catalog.ModeStrict}, false)
		// Findings with one summary on several elements of a list make one diagnostic.
		groups := map[string]bool{}
		for i, f := range fs {
			key := fmt.Sprint(i)
			if f.Index >= 0 {
				key = f.Attribute + "|" + f.Summary + "|" + f.Severity.String()
			}
			groups[key] = true
		}
		if len(diags) != len(groups) {
			t.Errorf("%s: %d diagnostics for %d findings in %d groups", name, len(diags), len(fs), len(groups))
		}
		for _, d := range diags {
			wp, ok := d.(diag.DiagnosticWithPath)
			if !ok {
				t.Errorf("%s: %q has no attribute path", name, d.Summary())
				continue
			}
			p := wp.Path()
			seen[p.String()] = true
			if _, diags := sch.TypeAtPath(ctx, p); diags.HasError() {
				t.Errorf("%s: %q is on %s, which is not in the schema: %v", name, d.Summary(), p, diags)
				continue
			}
			attrPath := p
			if last, _ := p.Steps().LastStep(); last != nil {
				if _, isIndex := last.(path.PathStepElementKeyInt); isIndex {
					attrPath = p.ParentPath()
				}
			}
			// A finding about one element of a repeated block (a taint) is
			// on that block, which Terraform shows at its line.
			settable := blockAt(sch, attrPath)
			if !settable {
				a, diags := sch.AttributeAtPath(ctx, attrPath)
				if diags.HasError() {
					t.Errorf("%s: %q is on %s, not on an attribute or a block: %v", name, d.Summary(), p, diags)
					continue
				}
				settable = a.IsOptional() || a.IsRequired()
			}
			if !settable {
				t.Errorf("%s: %q is on %s, which a configuration cannot set", name, d.Summary(), p)
			}
			if !strings.HasPrefix(attrPath.String(), "tiers[2].") {
				t.Errorf("%s: %q is on %s, not on the tier", name, d.Summary(), p)
			}
			if !strings.Contains(d.Detail(), `Tier "`+tc.in.Name+`"`) {
				t.Errorf("%s: the detail of %q does not name the tier: %s", name, d.Summary(), d.Detail())
			}
		}
	}
	for _, want := range []string{"tiers[2].node_locations[1]", "tiers[2].node_locations[0]", "tiers[2].accelerator_type",
		"tiers[2].gpu_type", "tiers[2].max_node_count", "tiers[2].taints[2]"} {
		if !seen[want] {
			t.Errorf("no finding on %s; paths seen: %v", want, seen)
		}
	}
}

// TestTierFindingAttribute: the catalog's names for a pool's zones and for
// the cluster's GKE version map to tier attributes.
func TestTierFindingAttribute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		want      string
		keepIndex bool
	}{
		{catalog.AttrNodeLocations, "node_locations", true},
		{catalog.AttrZones, "node_locations", true},
		{catalog.AttrGKEVersion, "accelerator_type", false},
		{catalog.AttrMaxNodeCount, "max_node_count", true},
		{catalog.AttrRuntimeVersion, "name", false},
	}
	for _, tt := range tests {
		got, keep := tierFindingAttribute(tt.in)
		if got != tt.want || keep != tt.keepIndex {
			t.Errorf("tierFindingAttribute(%q) = %q, %v; want %q, %v", tt.in, got, keep, tt.want, tt.keepIndex)
		}
	}
}

// blockAt reports whether p (names and list indexes) leads to a nested
// block of s.
func blockAt(s schema.Schema, p path.Path) bool {
	blocks := s.Blocks
	found := false
	for _, step := range p.Steps() {
		switch st := step.(type) {
		case path.PathStepAttributeName:
			b, ok := blocks[string(st)]
			if !ok {
				return false
			}
			found = true
			blocks = map[string]schema.Block{}
			for n, nb := range b.GetNestedObject().GetBlocks() {
				if sb, ok := nb.(schema.Block); ok {
					blocks[n] = sb
				}
			}
		case path.PathStepElementKeyInt:
		default:
			return false
		}
	}
	return found
}

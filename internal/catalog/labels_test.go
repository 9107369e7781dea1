// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// TestLabelFindings: one label rule for every resource: international
// characters are labels Google accepts; the labels written and the keys
// the provider adds count together against 64; a reserved key written by
// the user is refused and not counted twice.
func TestLabelFindings(t *testing.T) {
	t.Parallel()
	c := Default()
	many := func(n int) map[string]string {
		out := map[string]string{}
		for i := range n {
			out[fmt.Sprintf("k%d", i)] = "v"
		}
		return out
	}
	reserved := []string{"accel-managed"}
	tests := []struct {
		name    string
		labels  map[string]string
		summary string // "" for no finding
	}{
		{"international characters", map[string]string{"équipe": "données", "团队": "推理"}, ""},
		{"63 and the provider's own", many(63), ""},
		{"64 and the provider's own", many(64), "Too Many Labels"},
		{"reserved key", map[string]string{"accel-managed": "x"}, "Label Set by the Provider"},
		{"capital letter", map[string]string{"Team": "x"}, "Invalid Label Key"},
		{"key starting with a digit", map[string]string{"1team": "x"}, "Invalid Label Key"},
		{"64 characters", map[string]string{"k": strings.Repeat("é", 64)}, "Invalid Label Value"},
		{"63 international characters", map[string]string{"k": strings.Repeat("é", 63)}, ""},
		{"dot in value", map[string]string{"k": "1.2"}, "Invalid Label Value"},
	}
	for _, tt := range tests {
		fs := c.LabelFindings("labels", tt.labels, reserved)
		switch {
		case tt.summary == "" && len(fs) > 0:
			t.Errorf("%s: want no finding, got %v", tt.name, fs)
		case tt.summary != "" && (len(fs) != 1 || fs[0].Summary != tt.summary || !fs.HasErrors()):
			t.Errorf("%s: want one error %q, got %v", tt.name, tt.summary, fs)
		}
	}
	withOwn := many(63)
	withOwn["accel-managed"] = "x"
	if fs := c.LabelFindings("labels", withOwn, reserved); len(fs) != 1 || fs[0].Summary != "Label Set by the Provider" {
		t.Errorf("63 labels and the reserved key: want only the reserved-key error, got %v", fs)
	}
	if fs := c.LabelFindings(AttrResourceLabels, many(64), reserved); len(fs) != 1 || fs[0].Summary != "Too Many Resource Labels" ||
		!strings.Contains(fs[0].Detail, "has 64, and the provider adds 1") {
		t.Errorf("resource_labels: want the node pool's summary and the count, got %v", fs)
	}
}

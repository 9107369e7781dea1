// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestCheckSliceCount(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, tc := range []struct {
		name       string
		generation string
		count      int64
		want       string
	}{
		{"one slice of v2", "v2", 1, ""},
		{"multislice v4", "v4", 2, ""},
		{"multislice v5e", "v5e", 4, ""},
		{"multislice v6e", "v6e", 64, ""},
		{"multislice v3", "v3", 2, "slice_count=2: Multislice Not Offered for This Generation"},
		{"multislice v2", "v2", 3, "slice_count=3: Multislice Not Offered for This Generation"},
		{"generation unknown", "", 3, ""},
		{"zero", "v5e", 0, "slice_count=0: Invalid Slice Count"},
		{"negative", "", -2, "slice_count=-2: Invalid Slice Count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range c.CheckSliceCount(tc.generation, tc.count) {
				got = append(got, f.Attribute+"="+f.Value+": "+f.Summary)
				if !strings.HasPrefix(f.Source, "https://cloud.google.com/") || f.Severity != SeverityError {
					t.Errorf("%s: source %q, severity %s", f.Summary, f.Source, f.Severity)
				}
				if tc.count > 0 && !strings.Contains(f.Detail, tc.generation) {
					t.Errorf("detail %q does not name %s", f.Detail, tc.generation)
				}
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("findings = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMultisliceRules pins the multislice facts to the catalog's
// generations: every listed one exists, each decision has a source, and the
// API's lower bound holds.
func TestMultisliceRules(t *testing.T) {
	t.Parallel()
	c := Default()
	r := c.Multislice()
	var names []string
	for _, g := range c.Generations() {
		names = append(names, g.Name)
	}
	for _, g := range r.Generations {
		if !slices.Contains(names, g) {
			t.Errorf("multislice generation %q is not a catalog generation", g)
		}
	}
	if r.MinSlices != 2 || r.Source == "" || r.CountSource == "" || len(r.Decisions) == 0 {
		t.Errorf("rules %+v", r)
	}
	for _, d := range r.Decisions {
		if d.Source == "" || d.Decision == "" {
			t.Errorf("decision %+v", d)
		}
	}
}

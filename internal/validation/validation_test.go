// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

type shown struct {
	Path     string
	Severity diag.Severity
	Summary  string
}

func summarize(diags diag.Diagnostics) []shown {
	var out []shown
	for _, d := range diags {
		s := shown{Severity: d.Severity(), Summary: d.Summary()}
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			s.Path = wp.Path().String()
		}
		out = append(out, s)
	}
	return out
}

func TestAppend(t *testing.T) {
	t.Parallel()
	findings := catalog.Findings{
		{Attribute: "runtime_version", Index: -1, Value: "x", Summary: "Invalid Runtime Version", Detail: "d1", Severity: catalog.SeverityError, Source: "https://example.com/a"},
		{Attribute: "zones", Index: 2, Value: "z", Summary: "Zone Not Listed", Detail: "d2", Severity: catalog.SeverityWarning},
	}
	cases := map[string]struct {
		base path.Path
		mode catalog.Mode
		want []shown
	}{
		"root attributes, strict": {
			base: path.Empty(), mode: catalog.ModeStrict,
			want: []shown{
				{Path: "runtime_version", Severity: diag.SeverityError, Summary: "Invalid Runtime Version"},
				{Path: "zones[2]", Severity: diag.SeverityWarning, Summary: "Zone Not Listed"},
			},
		},
		"nested list element, warn mode downgrades errors": {
			base: path.Root("tiers").AtListIndex(1), mode: catalog.ModeWarn,
			want: []shown{
				{Path: "tiers[1].runtime_version", Severity: diag.SeverityWarning, Summary: "Invalid Runtime Version"},
				{Path: "tiers[1].zones[2]", Severity: diag.SeverityWarning, Summary: "Zone Not Listed"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			Append(&diags, tc.base, findings, Mode{Mode: tc.mode, CatalogDate: "2026-11-30"})
			if diff := cmp.Diff(tc.want, summarize(diags)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(diags[0].Detail(), "Source: https://example.com/a") {
				t.Errorf("detail %q does not cite the source", diags[0].Detail())
			}
			escape := strings.Contains(diags[0].Detail(), `validation = "warn"`)
			if escape != (tc.mode == catalog.ModeStrict) {
				t.Errorf("escape hatch hint shown=%v in mode %v: %q", escape, tc.mode, diags[0].Detail())
			}
			if escape && !strings.Contains(diags[0].Detail(), "catalog's date (2026-11-30)") {
				t.Errorf("escape hatch hint does not name the catalog's date: %q", diags[0].Detail())
			}
		})
	}
}

func TestModes(t *testing.T) {
	var m Modes
	if got := m.Provider().Mode; got != catalog.ModeStrict {
		t.Errorf("unset provider mode = %v, want strict", got)
	}
	m.Set(catalog.ModeWarn)
	if got := m.Provider().Mode; got != catalog.ModeWarn {
		t.Errorf("recorded mode = %v, want warn", got)
	}
	m.Set(catalog.ModeStrict)
	if got := m.Provider().Mode; got != catalog.ModeStrict {
		t.Errorf("recorded mode = %v, want strict", got)
	}
	if got := m.For(types.StringValue("warn")).Mode; got != catalog.ModeWarn {
		t.Errorf("resource override = %v, want warn", got)
	}
	if got := m.For(types.StringNull()).Mode; got != catalog.ModeStrict {
		t.Errorf("no override = %v, want the provider's strict", got)
	}
	if got := m.For(types.StringUnknown()).Mode; got != catalog.ModeStrict {
		t.Errorf("unknown override = %v, want the provider's strict", got)
	}
}

// TestAppendGroupsListElements checks that findings with one summary on
// several elements of a list become one diagnostic on the list that names
// each value once, and that other findings stay on their element.
func TestAppendGroupsListElements(t *testing.T) {
	t.Parallel()
	var findings catalog.Findings
	for i := range 50 {
		findings = append(findings, catalog.Finding{Attribute: "zones", Index: i, Value: fmt.Sprintf("zz-%d-a", i),
			Summary: "Zone Does Not Offer TPU Generation", Detail: "long explanation with the generation's zones", Severity: catalog.SeverityError})
	}
	findings = append(findings,
		catalog.Finding{Attribute: "zones", Index: 50, Value: "us-east5-q", Summary: "Zone Not Listed", Detail: "d", Severity: catalog.SeverityWarning},
		catalog.Finding{Attribute: "accelerator_type", Index: -1, Value: "v6e-3", Summary: "Invalid TPU Accelerator Type", Detail: "d", Severity: catalog.SeverityError})
	var diags diag.Diagnostics
	Append(&diags, path.Empty(), findings, Mode{Mode: catalog.ModeStrict})
	want := []shown{
		{Path: "zones", Severity: diag.SeverityError, Summary: "Zone Does Not Offer TPU Generation"},
		{Path: "zones[50]", Severity: diag.SeverityWarning, Summary: "Zone Not Listed"},
		{Path: "accelerator_type", Severity: diag.SeverityError, Summary: "Invalid TPU Accelerator Type"},
	}
	if diff := cmp.Diff(want, summarize(diags)); diff != "" {
		t.Fatalf("diagnostics mismatch (-want +got):\n%s", diff)
	}
	d := diags[0].Detail()
	if !strings.HasPrefix(d, "50 values of zones have this problem: \"zz-0-a\", \"zz-1-a\"") ||
		strings.Count(d, "zz-49-a") != 1 || strings.Count(d, "long explanation") != 1 {
		t.Errorf("grouped detail does not name each value once and explain once:\n%s", d)
	}
}

// TestAppendKeepsLimits: a finding about the provider's own limits or an
// API rule stays an error in warn mode, and its detail does not offer warn
// mode as the way out; a live finding is relaxed by warn mode, and its
// advice says it is the API's answer, not the catalog's date.
func TestAppendKeepsLimits(t *testing.T) {
	t.Parallel()
	for _, basis := range []catalog.Basis{catalog.BasisLimit, catalog.BasisRule} {
		firm := catalog.Findings{{Attribute: "accelerator_type", Index: -1, Value: "v6e-16", Summary: "Multi-Host Slice Not Supported on Compute Engine",
			Detail: "d", Severity: catalog.SeverityError, Basis: basis}}
		for _, mode := range []catalog.Mode{catalog.ModeStrict, catalog.ModeWarn} {
			var diags diag.Diagnostics
			Append(&diags, path.Empty(), firm, Mode{Mode: mode})
			if len(diags) != 1 || diags[0].Severity() != diag.SeverityError || strings.Contains(diags[0].Detail(), `validation = "warn"`) {
				t.Errorf("basis %v, mode %v: %v, want one error without the warn-mode advice", basis, mode, diags)
			}
		}
	}
	live := catalog.Findings{{Attribute: "zones", Index: -1, Value: "us-central1-a", Summary: "Zone Does Not Offer Accelerator Type",
		Detail: "d", Severity: catalog.SeverityError, Basis: catalog.BasisLive}}
	var strict, warn diag.Diagnostics
	Append(&strict, path.Empty(), live, Mode{Mode: catalog.ModeStrict})
	Append(&warn, path.Empty(), live, Mode{Mode: catalog.ModeWarn})
	if len(strict) != 1 || !strings.Contains(strict[0].Detail(), "the API's answer for the project") || strings.Contains(strict[0].Detail(), "catalog's date") {
		t.Errorf("live error in strict mode: %v", strict)
	}
	if len(warn) != 1 || warn[0].Severity() != diag.SeverityWarning {
		t.Errorf("live error in warn mode: %v, want one warning", warn)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package validation turns catalog findings into Terraform diagnostics on the
// right attribute paths, under the validation mode in force.
//
// Catalog checks run twice per resource: in ValidateConfig, so that
// `terraform validate` catches what the configuration already fixes, and in
// ModifyPlan (Read for data sources), for values only known at plan time.
// Terraform validates a configuration in its validate walk and again in its
// plan walk, so ValidateConfig reports errors only (AppendErrors) and the
// plan reports every finding (Append): a warning is shown once, and an error
// found at validation stops Terraform before the plan could repeat it. Terraform validates a
// resource before it configures the provider, so the provider-level
// `validation` setting is recorded here by the provider's own ValidateConfig
// (which Terraform runs first, on the same provider instance) and by
// Configure; resources read it through a shared *Modes.
package validation

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// Modes holds the provider-level validation mode, shared by the provider and
// every resource and data source it serves: the one way the mode reaches
// them. The provider resolves the mode once (its `validation` argument, then
// ACCEL_VALIDATION, then strict) and records it both in its ValidateConfig,
// which Terraform calls before it validates the provider's resources (they
// get no provider data then), and in Configure, before they are planned.
// Provider data cannot carry it: resources have none while Terraform
// validates them. The zero value is ready to use (its findings' advice
// then names no catalog date); NewModes records the catalog's.
type Modes struct {
	set         atomic.Bool
	mode        atomic.Int64
	catalogDate string
}

// NewModes returns the Modes of a provider that serves the catalog cat.
func NewModes(cat *catalog.Catalog) *Modes {
	return &Modes{catalogDate: cat.Date()}
}

// Mode is the validation mode in force for one resource or data source,
// with the date of the catalog its findings come from (the advice of an
// error that warn mode relaxes names it).
type Mode struct {
	catalog.Mode
	CatalogDate string
}

// Strict is the strict mode, whatever the provider-level one: for findings
// that no setting relaxes.
func (m *Modes) Strict() Mode { return m.with(catalog.ModeStrict) }

func (m *Modes) with(mode catalog.Mode) Mode {
	if m == nil {
		return Mode{Mode: mode}
	}
	return Mode{Mode: mode, CatalogDate: m.catalogDate}
}

// Set records the provider-level mode.
func (m *Modes) Set(mode catalog.Mode) {
	m.mode.Store(int64(mode))
	m.set.Store(true)
}

// Provider returns the provider-level mode: the recorded one, else strict.
func (m *Modes) Provider() Mode {
	if m != nil && m.set.Load() {
		return m.with(catalog.Mode(m.mode.Load()))
	}
	return m.with(catalog.ModeStrict)
}

// For returns the mode for one resource: its own `validation` argument when
// set and valid, else the provider-level mode.
func (m *Modes) For(override types.String) Mode {
	if !override.IsNull() && !override.IsUnknown() {
		if mode, err := catalog.ParseMode(override.ValueString()); err == nil {
			return m.with(mode)
		}
	}
	return m.Provider()
}

// Append adds findings to diags under base (the path of the object whose
// attributes the findings name), after applying mode. A finding's Attribute
// is an attribute name relative to base; Index >= 0 selects a list element.
// Findings with the same summary on elements of one list become one
// diagnostic on the list that names every value concerned: Terraform shows
// each diagnostic with the list's source, so one per element repeats a long
// list as often as it has bad elements.
func Append(diags *diag.Diagnostics, base path.Path, findings catalog.Findings, mode Mode) {
	findings = findings.WithMode(mode.Mode)
	for i, f := range findings {
		p := base.AtName(f.Attribute)
		if base.Equal(path.Empty()) {
			p = path.Root(f.Attribute)
		}
		detail := f.Detail
		if f.Index >= 0 {
			group := sameOnList(findings, i)
			if group == nil {
				continue // reported with the first finding of its group
			}
			if len(group) > 1 {
				detail = groupDetail(f, group)
			} else {
				p = p.AtListIndex(f.Index)
			}
		}
		if f.Source != "" {
			detail += "\n\nSource: " + f.Source
		}
		if f.Severity == catalog.SeverityError {
			detail += warnAdvice(f.Basis, mode.CatalogDate)
			diags.AddAttributeError(p, f.Summary, detail)
		} else {
			diags.AddAttributeWarning(p, f.Summary, detail)
		}
	}
}

// warnAdvice is the way out an error offers through validation = "warn":
// only where warn mode relaxes the finding (catalog.Basis.Relaxable), and
// worded for what the finding rests on.
func warnAdvice(b catalog.Basis, catalogDate string) string {
	switch b {
	case catalog.BasisCatalog:
		since := "the catalog's date"
		if catalogDate != "" {
			since += " (" + catalogDate + ")"
		}
		return "\n\nIf Google Cloud supports this since " + since +
			", set validation = \"warn\" on the resource or the provider to report catalog errors as warnings."
	case catalog.BasisLive:
		return "\n\nThis is the API's answer for the project at plan time. To plan anyway (for example to keep a zone for later), " +
			"set validation = \"warn\" on the resource or the provider to report it as a warning."
	}
	return ""
}

// sameOnList returns the list-element findings with the same attribute,
// summary and severity as findings[i], when findings[i] is the first of
// them, else nil.
func sameOnList(findings catalog.Findings, i int) catalog.Findings {
	f := findings[i]
	var group catalog.Findings
	for j, g := range findings {
		if g.Index < 0 || g.Attribute != f.Attribute || g.Summary != f.Summary || g.Severity != f.Severity {
			continue
		}
		if j < i {
			return nil
		}
		group = append(group, g)
	}
	return group
}

// groupDetail is the detail of one diagnostic for several list elements:
// which values, then the first element's explanation, which says what to
// use instead.
func groupDetail(first catalog.Finding, group catalog.Findings) string {
	vals := make([]string, len(group))
	for i, g := range group {
		vals[i] = fmt.Sprintf("%q", g.Value)
	}
	return fmt.Sprintf("%d values of %s have this problem: %s.\n\nFor the first of them: %s",
		len(group), first.Attribute, strings.Join(vals, ", "), first.Detail)
}

// AppendErrors adds only the findings that are errors under mode; it is what
// ValidateConfig reports (see the package documentation).
func AppendErrors(diags *diag.Diagnostics, base path.Path, findings catalog.Findings, mode Mode) {
	Append(diags, base, findings.WithMode(mode.Mode).Errors(), mode)
}

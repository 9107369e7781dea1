// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Severity says whether a finding blocks the plan.
type Severity int

const (
	// SeverityError blocks the plan: the configuration fails at apply time.
	SeverityError Severity = iota
	// SeverityWarning reports an uncertain or discouraged configuration.
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

func parseSeverity(s string) Severity {
	if s == "warning" {
		return SeverityWarning
	}
	return SeverityError
}

// Finding is one compatibility problem in a configuration.
type Finding struct {
	// Attribute is the schema attribute name, e.g. "accelerator_type" or "zones".
	Attribute string
	// Index is the element index for list attributes (zones, node_locations), else -1.
	Index int
	// Value is the offending value as the user wrote it.
	Value string
	// Summary is a short Title Case summary.
	Summary string
	// Detail says what is wrong, why, and what to use instead.
	Detail string
	// Suggestions are the nearest valid values, best first.
	Suggestions []string
	// Severity is SeverityError or SeverityWarning.
	Severity Severity
	// Basis says what the finding rests on, and so whether ModeWarn
	// relaxes it: the zero value is a catalog fact about Google's hardware.
	Basis Basis
	// Source is the URL of the fact that decided the finding.
	Source string
	// ZoneList marks a warning that rests on the catalog's zone lists
	// alone: a live answer about the same zone replaces it
	// (Findings.WithoutZoneListsFor).
	ZoneList bool
}

// WithoutZoneListsFor drops the zone-list warnings (Finding.ZoneList) about
// the zones a live check answered for: the API's own list of what the zone
// offers replaces the catalog's, so one plan does not show both.
func (f Findings) WithoutZoneListsFor(answered []string) Findings {
	if len(answered) == 0 {
		return f
	}
	var out Findings
	for _, x := range f {
		if x.ZoneList && slices.Contains(answered, x.Value) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// zoneList marks f as resting on a zone list (Finding.ZoneList).
func zoneList(f Finding) Finding {
	f.ZoneList = true
	return f
}

// String formats the finding for logs and test failures.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Severity.String())
	b.WriteString(": ")
	b.WriteString(f.Attribute)
	if f.Index >= 0 {
		fmt.Fprintf(&b, "[%d]", f.Index)
	}
	b.WriteString(": ")
	b.WriteString(f.Summary)
	b.WriteString(": ")
	b.WriteString(f.Detail)
	return b.String()
}

// Basis is what a finding rests on. The catalog's rule: an error needs
// positive evidence that Google refuses the value. A fact about hardware
// can be overtaken by a later launch, so ModeWarn (validation = "warn")
// reports it as a warning; a format or a rule of the API's own schema, and
// what this provider can create, no launch changes, so ModeWarn keeps them.
type Basis int

const (
	// BasisCatalog is a fact from Google's pages or code as of the
	// catalog's date (an unknown size, a generation without a runtime, a
	// zone list): ModeWarn downgrades it.
	BasisCatalog Basis = iota
	// BasisRule is a format or a rule of the API itself (a malformed zone
	// or duration, two fields the API takes only one of, bounds out of
	// order): it stays an error in ModeWarn.
	BasisRule
	// BasisLimit is what this provider can create (a multi-host slice as
	// one Compute Engine instance): it stays an error in ModeWarn.
	BasisLimit
	// BasisLive is the API's own answer at plan time: ModeWarn downgrades
	// it (a fallback zone the project cannot use today, kept on purpose).
	BasisLive
)

// Relaxable reports whether ModeWarn reports a finding of this basis as a
// warning.
func (b Basis) Relaxable() bool { return b == BasisCatalog || b == BasisLive }

// Findings is a list of findings in the order the checks ran.
type Findings []Finding

// HasErrors reports whether any finding is an error.
func (f Findings) HasErrors() bool {
	for _, x := range f {
		if x.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Errors returns the findings with SeverityError.
func (f Findings) Errors() Findings { return f.filter(SeverityError) }

// Warnings returns the findings with SeverityWarning.
func (f Findings) Warnings() Findings { return f.filter(SeverityWarning) }

func (f Findings) filter(s Severity) Findings {
	var out Findings
	for _, x := range f {
		if x.Severity == s {
			out = append(out, x)
		}
	}
	return out
}

// Mode selects how strictly catalog findings are enforced.
type Mode int

const (
	// ModeStrict keeps errors as errors (the default).
	ModeStrict Mode = iota
	// ModeWarn turns every error into a warning: the escape hatch for
	// hardware, zones or versions newer than the catalog.
	ModeWarn
)

// ModeNames lists the accepted mode names, default first.
var ModeNames = []string{"strict", "warn"}

// String returns "strict" or "warn".
func (m Mode) String() string {
	switch m {
	case ModeStrict:
		return "strict"
	case ModeWarn:
		return "warn"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ErrUnknownMode is returned (wrapped) by ParseMode for names other than "strict" and "warn".
var ErrUnknownMode = errors.New("unknown catalog mode")

// ParseMode parses "strict" or "warn"; the empty string means strict.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", "strict":
		return ModeStrict, nil
	case "warn":
		return ModeWarn, nil
	}
	return ModeStrict, fmt.Errorf("%w %q: use \"strict\" or \"warn\"", ErrUnknownMode, s)
}

// WithMode returns the findings adjusted to the mode: ModeWarn downgrades
// errors to warnings, except those whose Basis it does not relax (the
// API's rules and the provider's own limits). The receiver is not
// modified.
func (f Findings) WithMode(m Mode) Findings {
	if m != ModeWarn || f == nil {
		return f
	}
	out := make(Findings, len(f))
	copy(out, f)
	for i := range out {
		if out[i].Basis.Relaxable() {
			out[i].Severity = SeverityWarning
		}
	}
	return out
}

// newRule is an error that rests on a format or a rule of the API itself
// (BasisRule): no launch changes it, so ModeWarn keeps it an error.
func newRule(attr, value, summary, source string, sugg []string, detail string) Finding {
	f := newFinding(SeverityError, attr, value, summary, source, sugg, detail)
	f.Basis = BasisRule
	return f
}

// newLimit is an error about what this provider creates or manages
// (BasisLimit): ModeWarn keeps it an error.
func newLimit(attr, value, summary, source string, sugg []string, detail string) Finding {
	f := newFinding(SeverityError, attr, value, summary, source, sugg, detail)
	f.Basis = BasisLimit
	return f
}

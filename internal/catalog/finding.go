package catalog

import (
	"errors"
	"fmt"
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
	// Limit marks an error about what this provider can create (not a fact
	// about Google that may be out of date): it stays an error in ModeWarn,
	// since the apply could never do it.
	Limit bool
	// Source is the URL of the fact that decided the finding.
	Source string
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
// errors to warnings, except the provider's own limits (Limit). The
// receiver is not modified.
func (f Findings) WithMode(m Mode) Findings {
	if m != ModeWarn || f == nil {
		return f
	}
	out := make(Findings, len(f))
	copy(out, f)
	for i := range out {
		if !out[i].Limit {
			out[i].Severity = SeverityWarning
		}
	}
	return out
}

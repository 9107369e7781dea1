// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// CapacityModes are the ways to get TPU capacity for a TPU VM (catalog.json
// capacity_modes), each with its source.
type CapacityModes struct {
	Modes      []CapacityMode  `json:"modes"`
	FlexStart  FlexStartRules  `json:"flex_start"`
	Multislice MultisliceRules `json:"multislice"`
}

// CapacityMode is one way to get capacity.
type CapacityMode struct {
	Name string `json:"name"`
	// Queued is set for the modes created through a queued resource.
	Queued  bool   `json:"queued"`
	Summary string `json:"summary"`
	Source  string `json:"source"`
}

// FlexStartRules bound a flex-start request.
type FlexStartRules struct {
	MaxRunHours         int             `json:"max_run_hours"`
	Generations         []string        `json:"generations"`
	GenerationsDecision string          `json:"generations_decision"`
	Zones               []FlexStartZone `json:"zones"`
	ZonesDecision       string          `json:"zones_decision"`
	Source              string          `json:"source"`
}

// FlexStartZone is a zone the flex-start page lists for a generation.
type FlexStartZone struct {
	Zone       string `json:"zone"`
	Generation string `json:"generation"`
	Use        string `json:"use"`
	Source     string `json:"source"`
}

// The capacity mode names, as catalog.json spells them.
const (
	CapacityOnDemand  = "on-demand"
	CapacitySpot      = "spot"
	CapacityReserved  = "reserved"
	CapacityFlexStart = "flex-start"
)

// Attributes of the capacity block that findings name.
const (
	AttrCapacityMode   = "mode"
	AttrReservation    = "reservation"
	AttrMaxWait        = "max_wait"
	AttrMaxRunDuration = "max_run_duration"
)

// CapacityModeNames lists the capacity modes, on-demand first.
func (c *Catalog) CapacityModeNames() []string {
	out := make([]string, len(c.data.Capacity.Modes))
	for i, m := range c.data.Capacity.Modes {
		out[i] = m.Name
	}
	return out
}

// CapacityMode returns the mode called name.
func (c *Catalog) CapacityMode(name string) (CapacityMode, bool) {
	for _, m := range c.data.Capacity.Modes {
		if m.Name == name {
			return m, true
		}
	}
	return CapacityMode{}, false
}

// FlexStart returns the flex-start rules.
func (c *Catalog) FlexStart() FlexStartRules { return c.data.Capacity.FlexStart }

// CapacityRequest is what a configuration asks of its capacity; empty
// strings are settings left out.
type CapacityRequest struct {
	Mode           string
	Generation     string // "" when unknown
	Reservation    string
	MaxWait        string
	MaxRunDuration string
}

// CheckCapacity checks a capacity request: the mode exists, a reserved one
// names its reservation, flex-start has a run duration of at most the
// documented limit on a generation that offers it, and the durations are
// positive Go durations. Findings name the capacity block's attributes.
func (c *Catalog) CheckCapacity(r CapacityRequest) Findings {
	var fs Findings
	mode, ok := c.CapacityMode(r.Mode)
	if !ok {
		names := c.CapacityModeNames()
		return Findings{newRule(AttrCapacityMode, r.Mode, "Unknown Capacity Mode", c.Source("queued_resources"), names,
			fmt.Sprintf("%q is not a capacity mode; use one of %s.", r.Mode, strings.Join(names, ", ")))}
	}
	if r.MaxWait != "" {
		switch {
		case !mode.Queued:
			fs = append(fs, newRule(AttrMaxWait, r.MaxWait, "Max Wait Needs a Queued Mode", c.Source("queued_resources"), nil,
				fmt.Sprintf("max_wait bounds how long a queued resource waits for capacity; mode %q creates the VM at once or fails. "+
					"Remove max_wait, or use a queued mode (spot, reserved or flex-start).", r.Mode)))
		default:
			if f, bad := positiveDuration(AttrMaxWait, r.MaxWait, c.Source("queued_resources")); bad {
				fs = append(fs, f)
			}
		}
	}
	if r.Mode == CapacityReserved && r.Reservation == "" {
		fs = append(fs, newRule(AttrReservation, "", "Missing Reservation", mode.Source, nil,
			"mode \"reserved\" creates the VM in a named reservation: set reservation to its name (or "+
				"projects/{project}/locations/{zone}/reservations/{name}). For the project's TPU reservation without a name, use "+
				"scheduling_config { reserved = true } with mode \"on-demand\"."))
	}
	if r.Mode != CapacityReserved && r.Reservation != "" {
		fs = append(fs, newRule(AttrReservation, r.Reservation, "Reservation Needs Mode Reserved", c.Source("consume_reservation"), nil,
			fmt.Sprintf("reservation is used only by mode \"reserved\", not %q. Set mode = \"reserved\" or remove reservation.", r.Mode)))
	}
	fs = append(fs, c.checkFlexStart(r)...)
	return fs
}

func (c *Catalog) checkFlexStart(r CapacityRequest) Findings {
	rules := c.FlexStart()
	if r.Mode != CapacityFlexStart {
		if r.MaxRunDuration != "" {
			return Findings{newRule(AttrMaxRunDuration, r.MaxRunDuration, "Max Run Duration Needs Flex-Start", rules.Source, nil,
				fmt.Sprintf("max_run_duration is the run time of a flex-start VM; mode %q has none. Set mode = \"flex-start\" or remove max_run_duration.", r.Mode))}
		}
		return nil
	}
	var fs Findings
	limit := time.Duration(rules.MaxRunHours) * time.Hour
	switch r.MaxRunDuration {
	case "":
		fs = append(fs, newRule(AttrMaxRunDuration, "", "Missing Max Run Duration", rules.Source, nil,
			fmt.Sprintf("A flex-start VM runs for a duration you choose, up to %d hours (7 days): set max_run_duration, for example \"24h\".", rules.MaxRunHours)))
	default:
		if f, bad := positiveDuration(AttrMaxRunDuration, r.MaxRunDuration, rules.Source); bad {
			fs = append(fs, f)
		} else if d, _ := time.ParseDuration(r.MaxRunDuration); d > limit {
			fs = append(fs, newFinding(SeverityError, AttrMaxRunDuration, r.MaxRunDuration, "Max Run Duration Too Long", rules.Source, []string{"168h"},
				fmt.Sprintf("%q is longer than flex-start allows: at most %d hours (7 days).", r.MaxRunDuration, rules.MaxRunHours)))
		}
	}
	if r.Generation != "" && !slices.Contains(rules.Generations, r.Generation) {
		fs = append(fs, newFinding(SeverityError, AttrCapacityMode, r.Mode, "Flex-Start Not Offered for This Generation", rules.Source, nil,
			fmt.Sprintf("Flex-start TPUs are offered for %s only, not %s. Use a %s accelerator_type, or mode \"spot\" or \"on-demand\".",
				joinAnd(rules.Generations), r.Generation, strings.Join(rules.Generations, " or "))))
	}
	return fs
}

// FlexStartZones checks the zones of a flex-start TPU VM of generation gen
// against the zones the flex-start page lists for it: a zone it does not
// list is a warning on zones naming those it does (zone lists change; see
// FlexStartRules.ZonesDecision). Nothing is said for a generation without
// flex-start (CheckCapacity's error covers it) or an unknown one.
func (c *Catalog) FlexStartZones(gen string, zones []string) Findings {
	rules := c.FlexStart()
	var listed []string
	for _, z := range rules.Zones {
		if z.Generation == gen {
			listed = append(listed, z.Zone)
		}
	}
	if len(listed) == 0 {
		return nil
	}
	var fs Findings
	for i, z := range zones {
		if slices.Contains(listed, z) {
			continue
		}
		if _, ok := zoneRegion(z); !ok {
			continue // the zone check reports a malformed zone
		}
		f := newFinding(SeverityWarning, AttrZones, z, "Zone Not Listed for Flex-Start", rules.Source, listed,
			fmt.Sprintf("The flex-start page lists %s flex-start TPUs only in %s, not in %q. %s", gen, joinAnd(listed), z, rules.ZonesDecision))
		f.Index = i
		fs = append(fs, f)
	}
	return fs
}

// positiveDuration reports a value that is not a positive Go duration.
func positiveDuration(attr, v, source string) (Finding, bool) {
	d, err := time.ParseDuration(v)
	if err == nil && d > 0 && d%time.Second == 0 {
		return Finding{}, false
	}
	return newRule(attr, v, "Invalid Duration", source, nil,
		fmt.Sprintf("%q is not a positive duration in whole seconds; use a Go duration such as \"90m\" or \"6h\".", v)), true
}

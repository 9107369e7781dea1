// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath

import (
	"fmt"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/capacity"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// shape checks a candidate as a configuration, whatever the zone: its
// findings name the candidate block's attributes. multiHost reports a
// multi-host TPU slice (its tier gets one zone).
func shape(cat *catalog.Catalog, c capacity.Candidate) (fs catalog.Findings, multiHost bool) {
	all := zoneFindings(cat, c, nil)
	for _, f := range all.fs {
		if f.Attribute != catalog.AttrNodeLocations {
			fs = append(fs, f)
		}
	}
	return fs, all.multiHost
}

type checked struct {
	fs        catalog.Findings
	multiHost bool
}

// zoneFindings checks c as a node pool in zones with the catalog.
func zoneFindings(cat *catalog.Catalog, c capacity.Candidate, zones []string) checked {
	if c.Family == capacity.TPU {
		s, fs := cat.TPUNodePool(catalog.TPUPoolQuery{AcceleratorType: c.AcceleratorType, NodeLocations: zones})
		return checked{fs: fs, multiHost: s.MultiHost}
	}
	_, fs := cat.GPUNodePool(catalog.GPUPoolQuery{MachineType: c.MachineType, GPUType: c.GPUType, GPUCount: c.GPUCount,
		NodeLocations: zones})
	return checked{fs: fs}
}

// catalogEvidence answers a candidate's capacity from the catalog alone: it
// is available in the zones the catalog lists for it, and its capacity is
// not checked.
func catalogEvidence(cat *catalog.Catalog, c capacity.Candidate, zones []string) capacity.Evidence {
	if fs, _ := shape(cat, c); fs.HasErrors() {
		return capacity.Evidence{Detail: "not a valid configuration: " + firstError(fs)}
	}
	// Zones the catalog lists come first; a zone it does not list, in a
	// region that offers the accelerator (a warning: zone lists change),
	// is used only when no zone is listed.
	var avail, unlisted, notes, refusals []string
	for _, z := range zones {
		var fs catalog.Findings
		for _, f := range zoneFindings(cat, c, []string{z}).fs {
			if f.Attribute == catalog.AttrNodeLocations {
				fs = append(fs, f)
			}
		}
		switch {
		case fs.HasErrors():
			refusals = append(refusals, firstError(fs))
		case len(fs) == 0:
			avail = append(avail, z)
		default:
			unlisted = append(unlisted, z)
			notes = append(notes, fs[0].Detail)
		}
	}
	if len(avail) > 0 {
		notes = nil
	} else {
		avail = unlisted
	}
	if len(avail) == 0 {
		return capacity.Evidence{Detail: "the catalog lists it in none of the zones: " + strings.Join(refusals, " ")}
	}
	detail := fmt.Sprintf("capacity not checked; the catalog lists it in %s", strings.Join(avail, ", "))
	if len(notes) > 0 {
		detail += ", with a warning: " + strings.Join(dedupe(notes), " ")
	}
	return capacity.Evidence{Available: true, Zones: avail, Detail: detail}
}

func firstError(fs catalog.Findings) string {
	for _, f := range fs {
		if f.Severity == catalog.SeverityError {
			return f.Detail
		}
	}
	return ""
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

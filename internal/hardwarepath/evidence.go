// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/decisiontree"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
)

// shape checks a candidate as a configuration, whatever the zone: its
// findings name the candidate block's attributes. multiHost reports a
// multi-host TPU slice (its tier gets one zone).
func shape(cat *catalog.Catalog, c decisiontree.Candidate) (fs catalog.Findings, multiHost bool) {
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
func zoneFindings(cat *catalog.Catalog, c decisiontree.Candidate, zones []string) checked {
	if c.Family == decisiontree.TPU {
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
func catalogEvidence(cat *catalog.Catalog, c decisiontree.Candidate, zones []string) decisiontree.Evidence {
	if fs, _ := shape(cat, c); fs.HasErrors() {
		return decisiontree.Evidence{Detail: "not a valid configuration: " + firstError(fs)}
	}
	// A zone the catalog does not list for the candidate (an error, or a
	// warning: lists change, so plans only warn) answers no here: the
	// walk's evidence says so, and an online plan asks the live APIs.
	var avail, refusals []string
	for _, z := range zones {
		var fs catalog.Findings
		for _, f := range zoneFindings(cat, c, []string{z}).fs {
			if f.Attribute == catalog.AttrNodeLocations {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			avail = append(avail, z)
		} else {
			refusals = append(refusals, fs[0].Detail)
		}
	}
	if len(avail) == 0 {
		return decisiontree.Evidence{Detail: "the catalog lists it in none of the zones: " + strings.Join(dedupe(refusals), " ")}
	}
	detail := fmt.Sprintf("capacity not checked; the catalog lists it in %s", strings.Join(avail, ", "))
	if c.Family != decisiontree.TPU {
		// The catalog has no GPU zone lists: it cannot say where a GPU is.
		detail = fmt.Sprintf("capacity not checked, nor zones (the catalog lists no zones for GPUs); zones kept: %s", strings.Join(avail, ", "))
	}
	return decisiontree.Evidence{Offered: true, Available: true, Zones: avail, Detail: detail}
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

// needOf is what one node of a candidate asks of the live APIs.
func needOf(cat *catalog.Catalog, c decisiontree.Candidate) livecheck.Need {
	if c.Family == decisiontree.TPU {
		s, _ := cat.TPUNodePool(catalog.TPUPoolQuery{AcceleratorType: c.AcceleratorType})
		return livecheck.TPUNeed(cat, s.MachineType, s.Topology)
	}
	return livecheck.GPUNeed(cat, c.MachineType, c.GPUType, int64(c.GPUCount))
}

// liveEvidence refines the catalog's evidence with the live APIs: the zones
// Compute Engine offers the candidate in, and per region the quota (when
// regions.get reports it) and the matching reservations. Warnings about
// reads the caller may not make are added to diags once per plan.
func liveEvidence(ctx context.Context, cat *catalog.Catalog, live *livecheck.Checker, project string, c decisiontree.Candidate,
	ev decisiontree.Evidence, warn func(catalog.Findings)) decisiontree.Evidence {
	n := needOf(cat, c)
	fs, _ := live.PoolZones(ctx, n.Pool(project, "", ev.Zones))
	offered := slices.Clone(ev.Zones)
	zoneChecked := true
	for _, f := range fs {
		if f.Severity == catalog.SeverityError {
			offered = slices.DeleteFunc(offered, func(z string) bool { return z == f.Value })
		} else {
			zoneChecked = false
		}
	}
	warn(fs.Warnings())
	if len(offered) == 0 {
		return decisiontree.Evidence{Checked: true, Detail: "Compute Engine offers it in none of the zones: " + firstError(fs)}
	}
	// The zones stay those that offer the candidate whatever its quota: a
	// tier's node_locations must not change when its own nodes fill it.
	var withRoom, notes []string
	checked := zoneChecked
	for _, region := range regionsOf(offered) {
		rz := zonesIn(offered, region)
		cp := live.Capacity(ctx, cat, "zones", livecheck.CapacityQuery{Project: project, Region: region, Accelerator: n.Accelerator,
			PerNode: n.PerNode, MachineType: cmp.Or(n.MachineType, c.MachineType), Zones: rz})
		warn(cp.Findings)
		checked = checked && cp.QuotaChecked
		notes = append(notes, cp.Summary)
		if !cp.QuotaShort {
			withRoom = append(withRoom, rz...)
		}
	}
	if len(withRoom) == 0 {
		return decisiontree.Evidence{Offered: true, Checked: true, Zones: offered,
			Detail: "offered in " + strings.Join(offered, ", ") + " (checked live), but no quota left: " + strings.Join(notes, "; ")}
	}
	detail := "offered in " + strings.Join(offered, ", ") + " (checked live); " + strings.Join(notes, "; ")
	if !checked {
		detail = "capacity not fully checked: " + detail
	}
	return decisiontree.Evidence{Offered: true, Available: true, Checked: checked, Zones: offered, Detail: detail}
}

func regionsOf(zones []string) []string {
	var out []string
	for _, z := range zones {
		if r := catalog.RegionOf(z); !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func zonesIn(zones []string, region string) []string {
	var out []string
	for _, z := range zones {
		if catalog.RegionOf(z) == region {
			out = append(out, z)
		}
	}
	return out
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// checkZones validates each zone: its form always, and, when g is not nil,
// whether it offers generation g (and the accelerator type accType, when
// the zone lists only some sizes). Findings carry attr and the list index.
//
// Zone lists change month to month, so offline every availability finding
// is a warning (the live check decides when the API is reachable); only a
// malformed zone is an error.
func (c *Catalog) checkZones(g *Generation, accType string, zones []string, attr string) Findings {
	var fs Findings
	for i, z := range zones {
		if f, ok := c.checkZone(g, accType, z, attr); ok {
			f.Index = i
			fs = append(fs, f)
		}
	}
	return fs
}

func (c *Catalog) checkZone(g *Generation, accType, z, attr string) (Finding, bool) {
	src := c.data.Sources["zones"]
	var genZones []string
	if g != nil {
		genZones = g.zoneNames()
	}
	region, ok := zoneRegion(z)
	if !ok {
		return c.badZoneForm(g, z, attr, genZones), true
	}
	if g == nil {
		return Finding{}, false
	}
	if o := g.zoneByName[z]; o != nil {
		if len(o.AcceleratorTypes) > 0 && accType != "" && !slices.Contains(o.AcceleratorTypes, accType) {
			var alt []string
			for _, other := range g.Zones {
				if len(other.AcceleratorTypes) == 0 || slices.Contains(other.AcceleratorTypes, accType) {
					alt = append(alt, other.Zone)
				}
			}
			detail := fmt.Sprintf("%q lists only %s for %s", z, strings.Join(o.AcceleratorTypes, ", "), g.Name)
			if len(alt) > 0 {
				detail += fmt.Sprintf("; zones listing %s: %s.", accType, strings.Join(alt, ", "))
			} else {
				detail += "."
			}
			return zoneList(newFinding(SeverityWarning, attr, z, "Zone Not Listed for Accelerator Type", o.Source, alt, detail)), true
		}
		if o.Status == StatusOld {
			return zoneList(newFinding(SeverityWarning, attr, z, "Zone Listed Only on an Older Page", o.Source, nil,
				fmt.Sprintf("%q offers %s only according to an older docs page; check with \"gcloud compute tpus accelerator-types list --zone=%s\".",
					z, g.Name, z))), true
		}
		return Finding{}, false
	}
	if same := g.regions[region]; len(same) > 0 {
		return zoneList(newFinding(SeverityWarning, attr, z, "Zone Not Listed for TPU Generation", src, same,
			fmt.Sprintf("%q is not listed for %s, but region %s offers %s in %s; zone lists change, so check with \"gcloud compute tpus accelerator-types list --zone=%s\".",
				z, g.Name, region, g.Name, joinAnd(same), z))), true
	}
	for _, a := range g.UnlistedAreas {
		if strings.HasPrefix(z, a.Prefix) {
			return zoneList(newFinding(SeverityWarning, attr, z, "Zone Not Listed for TPU Generation", a.Source, nil,
				fmt.Sprintf("%q is not listed for %s. %s", z, g.Name, a.Decision))), true
		}
	}
	sugg := nearest(z, genZones)
	return zoneList(newFinding(SeverityWarning, attr, z, "Zone Not Listed for TPU Generation", src, sugg,
		fmt.Sprintf("%q is not listed for %s: no zone in region %s is. %s zones: %s. Zone lists change month to month; with the API reachable at plan time the provider checks the zone's live list, and offline this is a warning only.",
			z, g.Name, region, g.Name, strings.Join(genZones, ", ")))), true
}

// badZoneForm is the error for a value that is not a zone name. Its
// source is the TPU zones page for a TPU generation (g), else Compute
// Engine's regions and zones page (a GPU tier's node locations).
func (c *Catalog) badZoneForm(g *Generation, z, attr string, genZones []string) Finding {
	src := c.data.Sources["zones"]
	if g == nil {
		src = c.data.Sources["compute_zones"]
	}
	if guess := normalizeGuess(z); guess != z {
		if _, ok := zoneRegion(guess); ok {
			return newRule(attr, z, "Invalid Zone", src, []string{guess},
				fmt.Sprintf("%q is not a zone name (zone names are lower case, without spaces)%s", z, didYouMean([]string{guess})))
		}
	}
	if looksLikeRegion(z) {
		var sugg []string
		if g != nil {
			sugg = g.regions[z]
		}
		example := z + "-a"
		if len(sugg) > 0 {
			example = sugg[0]
		}
		return newRule(attr, z, "Invalid Zone", src, sugg,
			fmt.Sprintf("%q is a region, not a zone; use a zone such as %q.", z, example))
	}
	sugg := nearest(z, genZones)
	detail := fmt.Sprintf("%q is not a zone name; zones look like \"us-central1-a\"", z)
	if len(sugg) > 0 {
		detail += didYouMean(sugg)
	} else {
		detail += "."
	}
	return newRule(attr, z, "Invalid Zone", src, sugg, detail)
}

// zoneNames lists the zones of the generation, in the catalog's order.
func (g *Generation) zoneNames() []string {
	out := make([]string, 0, len(g.Zones))
	for _, o := range g.Zones {
		out = append(out, o.Zone)
	}
	return out
}

func joinAnd(vals []string) string {
	switch len(vals) {
	case 0:
		return ""
	case 1:
		return vals[0]
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " and " + vals[len(vals)-1]
}

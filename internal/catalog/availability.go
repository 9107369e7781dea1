// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// GKEAvailability is GKE's TPU availability table: the regions where GKE
// offers each generation, with its own source. It is kept apart from the
// Cloud TPU API's zone lists, which describe TPU VMs, not GKE nodes.
type GKEAvailability struct {
	Source      string            `json:"source"`
	Decision    string            `json:"decision"`
	Generations []GKEAvailableGen `json:"generations"`
	// CodeOnlyMachineTypes are TPU machine types only GKE's own machine
	// tables name (see CodeOnlyDecision).
	CodeOnlyMachineTypes []CodeOnlyTPUMachine `json:"code_only_machine_types"`
	CodeOnlyDecision     string               `json:"code_only_decision"`
}

// CodeOnlyTPUMachine is a TPU machine type GKE's machine tables list and
// no Google page documents: a single-host node of Chips chips.
type CodeOnlyTPUMachine struct {
	Name string `json:"name"`
	// Generation is the catalog's generation of the machine type, "" when
	// the catalog has none (tpu7-*).
	Generation         string `json:"generation"`
	Chips              int    `json:"chips"`
	SingleHostTopology string `json:"single_host_topology"`
	AcceleratorLabel   string `json:"accelerator_label"`
	Source             string `json:"source"`
}

// codeOnlyTPUMachine returns the GKE-code-only TPU machine type name.
func (c *Catalog) codeOnlyTPUMachine(name string) (*CodeOnlyTPUMachine, bool) {
	for i := range c.data.GKEAvailability.CodeOnlyMachineTypes {
		if m := &c.data.GKEAvailability.CodeOnlyMachineTypes[i]; m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// codeOnlyTPUPool is the shape and the warning of a node pool on a machine
// type only GKE's code names: one node of its chips, labelled as GKE's
// table says; the topology is the configured one, else the accelerator
// type's (acc, nil when none is set), else the table's.
func (c *Catalog) codeOnlyTPUPool(m *CodeOnlyTPUMachine, acc *Accelerator, q TPUPoolQuery) (TPUPoolShape, Findings) {
	a := Accelerator{Generation: m.Generation, Chips: m.Chips, Topology: m.SingleHostTopology}
	if acc != nil {
		a = *acc
	}
	topo := q.Topology
	if topo == "" {
		topo = a.Topology
	}
	f := newFinding(SeverityWarning, AttrMachineType, m.Name, "TPU Machine Type Only in GKE's Code", m.Source, nil,
		fmt.Sprintf("%q (%d %s, single-host topology %s, accelerator label %s) is listed by GKE's own machine tables, not by a Google page. %s",
			m.Name, m.Chips, plural(m.Chips, "chip"), m.SingleHostTopology, m.AcceleratorLabel, c.data.GKEAvailability.CodeOnlyDecision))
	shape := TPUPoolShape{
		Accelerator:  a,
		MachineType:  m.Name,
		Topology:     topo,
		NodeCount:    1,
		ChipsPerNode: m.Chips,
		NodeLabels:   map[string]string{LabelTPUAccelerator: m.AcceleratorLabel, LabelTPUTopology: topo},
	}
	return shape, Findings{f}
}

// GKEAvailableGen is one row of GKE's TPU availability table.
type GKEAvailableGen struct {
	Generation string   `json:"generation"`
	Regions    []string `json:"regions"`
	Source     string   `json:"source"`
	Decision   string   `json:"decision"`
}

// ComputeClassReq is what a custom ComputeClass needs from the cluster.
type ComputeClassReq struct {
	MinGKEVersion string `json:"min_gke_version"`
	// Features are the fields newer than custom ComputeClasses themselves.
	Features []ComputeClassFeature `json:"features"`
	// AutoCreationWithoutNAP is the first GKE version whose Standard
	// clusters create a ComputeClass's node pools without cluster-level
	// node auto-provisioning.
	AutoCreationWithoutNAP string `json:"auto_creation_without_nap"`
	AutoCreationSource     string `json:"auto_creation_source"`
	AutoCreationDecision   string `json:"auto_creation_decision"`
	// NAPSource, NAPTPUResourceTypes and NAPDecision are node
	// auto-provisioning's resource limits for accelerators.
	NAPSource           string   `json:"nap_source"`
	NAPTPUResourceTypes []string `json:"nap_tpu_resource_types"`
	NAPDecision         string   `json:"nap_decision"`
	Source              string   `json:"source"`
	Decision            string   `json:"decision"`
}

// GKERegions returns the regions GKE's availability table lists for a
// generation (nil when the table has no row for it).
func (c *Catalog) GKERegions(gen string) []string {
	for _, r := range c.data.GKEAvailability.Generations {
		if r.Generation == gen {
			return slices.Clone(r.Regions)
		}
	}
	return nil
}

// checkGKEZones checks a TPU node pool's node locations against GKE's
// availability table and the generation's zones: a malformed zone is an
// error; a zone in a region the table does not list, or in a listed region
// but not among the zones the Cloud TPU zones page lists for the
// generation, is a warning naming the zones that offer it (zone lists
// change; the live check, when the API is reachable, decides). GKE's table
// names regions only; its TPU nodes are the same hardware as Cloud TPU
// VMs, so the zone-level facts are the Cloud TPU page's.
func (c *Catalog) checkGKEZones(g *Generation, zones []string) Findings {
	var fs Findings
	var row *GKEAvailableGen
	for i := range c.data.GKEAvailability.Generations {
		if r := &c.data.GKEAvailability.Generations[i]; r.Generation == g.Name {
			row = r
		}
	}
	for i, z := range zones {
		region, ok := zoneRegion(z)
		var f Finding
		switch {
		case !ok:
			f = c.badZoneForm(g, z, AttrNodeLocations, nil)
		case g.zoneByName[z] != nil:
			continue
		case row == nil || slices.Contains(row.Regions, region):
			same := g.regions[region]
			offered := same
			where := fmt.Sprintf("zones of %s that offer it: %s", region, joinAnd(same))
			if len(same) == 0 {
				offered = g.zoneNames()
				where = fmt.Sprintf("no zone of %s is listed; zones that offer it: %s", region, joinAnd(offered))
			}
			f = newFinding(SeverityWarning, AttrNodeLocations, z, "Zone Not Listed for TPU Generation", c.data.Sources["zones"], offered[:min(len(offered), 3)],
				fmt.Sprintf("%q is not a zone listed for %s; %s. GKE lists %s by region only, so the zones are the Cloud TPU zones page's (the same TPU hardware). "+
					"Zone lists change; with the Compute Engine API reachable at plan time, the provider checks the zone's live machine types.",
					z, g.Name, where, g.Name))
		default:
			var offered []string
			for _, r := range row.Regions {
				offered = append(offered, g.regions[r]...)
			}
			where := ""
			if len(offered) > 0 {
				where = fmt.Sprintf(" Zones of those regions that offer it: %s.", joinAnd(offered))
			}
			f = newFinding(SeverityWarning, AttrNodeLocations, z, "Region Not Listed for TPU Generation on GKE", row.Source, offered[:min(len(offered), 3)],
				fmt.Sprintf("GKE's TPU availability lists %s in %s, not in region %s.%s Availability changes; with the Compute Engine API reachable at plan time, the provider checks the zone's live machine types.",
					g.Name, joinAnd(row.Regions), region, where))
		}
		if ok {
			f = zoneList(f)
		}
		f.Index = i
		fs = append(fs, f)
	}
	return fs
}

// NodeLocationsInCluster checks that each node location is a zone of the
// cluster's region: GKE places a node pool only in zones of its cluster's
// region. clusterLocation is a region (regional cluster) or a zone (zonal
// cluster). Findings carry the zone's index.
func (c *Catalog) NodeLocationsInCluster(clusterLocation string, zones []string) Findings {
	region := RegionOf(clusterLocation)
	if region == "" {
		return nil
	}
	var fs Findings
	for i, z := range zones {
		zr, ok := zoneRegion(z)
		if !ok || zr == region {
			continue
		}
		var sugg []string
		if suffix := strings.TrimPrefix(z, zr); suffix != z {
			sugg = []string{region + suffix}
		}
		f := newRule(AttrNodeLocations, z, "Node Location Outside the Cluster's Region", c.data.Sources["gke_node_pool"], sugg,
			fmt.Sprintf("%q is in region %s, but the cluster is in %s; GKE places node pools only in zones of the cluster's region. Use zones of %s such as %q.",
				z, zr, region, region, region+"-a"))
		f.Index = i
		fs = append(fs, f)
	}
	return fs
}

// ComputeClassVersion checks a known cluster version against the minimum
// GKE version of custom ComputeClasses; "" (unknown) is not checked.
func (c *Catalog) ComputeClassVersion(version string) Findings {
	req := c.data.ComputeClass
	if !olderGKE(version, req.MinGKEVersion) {
		return nil
	}
	return Findings{newFinding(SeverityError, AttrGKEVersion, version, "GKE Version Too Old for ComputeClass", req.Source,
		[]string{req.MinGKEVersion},
		fmt.Sprintf("GKE %s is older than %s, the first version with custom ComputeClasses, which this resource renders; upgrade the cluster.", version, req.MinGKEVersion))}
}

// Reservation type values of reservation_affinity.consume_reservation_type.
const (
	ReservationSpecific = "SPECIFIC_RESERVATION"
	// ReservationNameKey is the label key that selects a reservation by name.
	ReservationNameKey = "compute.googleapis.com/reservation-name"
)

// AttrReservationAffinity is the attribute of a node pool's reservation block.
const AttrReservationAffinity = "reservation_affinity"

// ReservationAffinity checks a node pool's reservation affinity: a
// SPECIFIC_RESERVATION needs the key and at least one value (the
// reservation names), as GKE's ReservationAffinity requires.
func (c *Catalog) ReservationAffinity(typ, key string, values []string) Findings {
	if typ != ReservationSpecific {
		return nil
	}
	named := slices.ContainsFunc(values, func(v string) bool { return v != "" })
	if key != "" && named {
		return nil
	}
	return Findings{newRule(AttrReservationAffinity, typ, "Specific Reservation Without a Name", c.data.Sources["gke_node_pool"], nil,
		fmt.Sprintf("consume_reservation_type %s consumes only the reservations named in values; set key = %q and values = [\"<reservation name>\"], or use ANY_RESERVATION.",
			ReservationSpecific, ReservationNameKey))}
}

// RegionOf returns the region of a zone ("us-central1" for
// "us-central1-a"), or location itself when it is not a zone (a region).
func RegionOf(location string) string {
	if r, ok := zoneRegion(location); ok {
		return r
	}
	return location
}

// GKEAvailabilityTable returns GKE's TPU availability table.
func (c *Catalog) GKEAvailabilityTable() GKEAvailability {
	a := c.data.GKEAvailability
	a.Generations = slices.Clone(a.Generations)
	return a
}

// ComputeClassRequirement returns what a custom ComputeClass needs from the cluster.
func (c *Catalog) ComputeClassRequirement() ComputeClassReq { return c.data.ComputeClass }

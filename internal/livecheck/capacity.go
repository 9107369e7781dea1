// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// regionQuotas is the region's Compute Engine quotas, asked once.
func (c *Checker) regionQuotas(ctx context.Context, project, region string) (map[string]gcp.QuotaValue, error) {
	v, err := c.ask(ctx, "compute/regionQuotas/"+project+"/"+region, func(ctx context.Context) (any, error) {
		cc, err := c.clients.ComputeCatalog(ctx)
		if err != nil {
			return nil, err
		}
		return cc.RegionQuotas(ctx, project, region)
	})
	q, _ := v.(map[string]gcp.QuotaValue)
	return q, err
}

// reservations is the project's zonal reservations, asked once.
func (c *Checker) reservations(ctx context.Context, project string) ([]gcp.ZoneReservation, error) {
	v, err := c.ask(ctx, "compute/reservations/"+project, func(ctx context.Context) (any, error) {
		cc, err := c.clients.ComputeCatalog(ctx)
		if err != nil {
			return nil, err
		}
		return cc.Reservations(ctx, project)
	})
	r, _ := v.([]gcp.ZoneReservation)
	return r, err
}

// CapacityQuery is what one node of a tier (or candidate) needs.
type CapacityQuery struct {
	Project string
	Region  string
	// Accelerator is the GKE GPU type ("nvidia-l4") or TPU generation
	// ("v5e") whose quota counts the node.
	Accelerator string
	Spot        bool
	// PerNode is how many quota units (GPUs or chips) one node takes.
	PerNode int64
	// MachineType and Zones select the reservations that match.
	MachineType string
	Zones       []string
	// SpecificReservations names the reservations the tier must consume
	// (reservation affinity SPECIFIC_RESERVATION); nil for none.
	SpecificReservations []string
}

// Capacity is the live evidence for a CapacityQuery.
type Capacity struct {
	// QuotaChecked: regions.get reported the quota's metric.
	QuotaChecked bool
	Metric       string
	Quota        gcp.QuotaValue
	// QuotaShort: the quota's headroom is below one node.
	QuotaShort bool
	// ReservationsChecked: reservations.aggregatedList answered.
	ReservationsChecked bool
	// Reservations are the reservations in Zones of MachineType.
	Reservations []gcp.ZoneReservation
	// MissingReservations are named reservations that do not exist in
	// Zones; FullReservations are named ones without a free VM.
	MissingReservations, FullReservations []string
	// Summary says what was found, in one sentence.
	Summary string
	// Findings are warnings about what could not be checked.
	Findings catalog.Findings
}

// Checked reports whether any live evidence was read: the quota or the
// reservations.
func (c Capacity) Checked() bool { return c.QuotaChecked || c.ReservationsChecked }

// ReservationsFree is the free VMs of the matching reservations.
func (c Capacity) ReservationsFree() int64 {
	var free int64
	for _, r := range c.Reservations {
		free += r.Free()
	}
	return free
}

// Headroom is the quota left.
func (c Capacity) Headroom() float64 { return max(c.Quota.Limit-c.Quota.Usage, 0) }

// CanProvision reports whether the evidence leaves room for one node: the
// quota (when checked) has room, and a named reservation exists and has a
// free VM.
func (c Capacity) CanProvision() bool {
	return !c.QuotaShort && len(c.MissingReservations) == 0 && len(c.FullReservations) == 0
}

// Capacity reads the quota and reservations evidence for q: one regions.get
// per region and one reservations.aggregatedList per project, whatever the
// number of tiers. attr names the attribute warnings are reported on.
func (c *Checker) Capacity(ctx context.Context, cat *catalog.Catalog, attr string, q CapacityQuery) Capacity {
	var out Capacity
	var parts []string
	rule, known := cat.ComputeQuota(q.Accelerator)
	switch {
	case !known:
		parts = append(parts, fmt.Sprintf("quota not checked (regions.get reports no quota for %s)", q.Accelerator))
	default:
		out.Metric = rule.Metric(q.Spot)
		quotas, err := c.regionQuotas(ctx, q.Project, q.Region)
		v, reported := quotas[out.Metric]
		switch {
		case err != nil:
			out.Findings = append(out.Findings, unansweredCapacity(attr, q.Region, "compute.regions.get", err)...)
			parts = append(parts, fmt.Sprintf("quota %s not checked (%s)", out.Metric, failedBecause("regions.get", "compute.regions.get", err)))
		case !reported:
			parts = append(parts, fmt.Sprintf("quota %s not checked (regions.get does not report it for %s)", out.Metric, q.Region))
		default:
			out.QuotaChecked, out.Quota = true, v
			out.QuotaShort = out.Headroom() < float64(max(q.PerNode, 1))
			parts = append(parts, fmt.Sprintf("quota %s in %s: limit %g, usage %g, %g free, %d %s a node",
				out.Metric, q.Region, v.Limit, v.Usage, out.Headroom(), max(q.PerNode, 1), rule.Unit))
		}
	}
	if q.MachineType != "" {
		all, err := c.reservations(ctx, q.Project)
		if err != nil {
			out.Findings = append(out.Findings, unansweredCapacity(attr, q.Project, "compute.reservations.list", err)...)
			parts = append(parts, fmt.Sprintf("reservations not checked (%s)", failedBecause("reservations.aggregatedList", "compute.reservations.list", err)))
		}
		out.ReservationsChecked = err == nil
		for _, r := range all {
			if slices.Contains(q.Zones, r.Zone) && r.MachineType == q.MachineType {
				out.Reservations = append(out.Reservations, r)
			}
		}
		for _, name := range q.SpecificReservations {
			i := slices.IndexFunc(out.Reservations, func(r gcp.ZoneReservation) bool { return r.Name == name })
			switch {
			case err != nil:
			case i < 0:
				out.MissingReservations = append(out.MissingReservations, name)
			case out.Reservations[i].Free() == 0:
				out.FullReservations = append(out.FullReservations, name)
			}
		}
		if err == nil {
			parts = append(parts, fmt.Sprintf("%d matching reservation(s) with %d free VM(s)", len(out.Reservations), out.ReservationsFree()))
		}
		for _, name := range out.MissingReservations {
			parts = append(parts, fmt.Sprintf("reservation %q not found", name))
		}
		for _, name := range out.FullReservations {
			parts = append(parts, fmt.Sprintf("reservation %q full", name))
		}
	}
	out.Summary = strings.Join(parts, "; ")
	return out
}

// failedBecause says why a capacity read has no answer: refused for lack
// of a permission, or failed.
func failedBecause(method, permission string, err error) string {
	if gcp.Classify(err) == gcp.ClassPermission {
		return fmt.Sprintf("%s refused: permission %s needed", method, permission)
	}
	return method + " failed"
}

// unansweredCapacity is a warning for a capacity read the caller may not
// make; other errors leave the evidence unchecked without a warning.
func unansweredCapacity(attr, value, permission string, err error) catalog.Findings {
	if gcp.Classify(err) != gcp.ClassPermission {
		return nil
	}
	return catalog.Findings{{Attribute: attr, Index: -1, Value: value, Severity: catalog.SeverityWarning,
		Summary: "Capacity Not Checked",
		Detail: fmt.Sprintf("Compute Engine refused a capacity read (%s), so quota and reservations were not checked. Grant the permission %s to check them at plan time.",
			shortError(err), permission)}}
}

// Unit names what a CapacityQuery is for, in the findings of
// Capacity.Blocking: "tier" (a node pool) or "priority" (a ComputeClass
// priority whose pools GKE creates).
type Unit struct {
	Name string // "tier", "priority"
	// QuotaAttr and ReservationAttr are the attributes the findings are on.
	QuotaAttr, ReservationAttr string
	// Then says what happens to the pods when this unit gets no node.
	Then string
}

// Blocking are the warnings of evidence c for q when the unit can never
// provision a node: its regional quota has no room for one node (one slice
// for a multi-host TPU), or a specific reservation it must consume does not
// exist or is full.
func (c Capacity) Blocking(q CapacityQuery, u Unit) catalog.Findings {
	var fs catalog.Findings
	title := strings.ToUpper(u.Name[:1]) + u.Name[1:]
	if c.QuotaShort {
		fs = append(fs, catalog.Finding{Attribute: u.QuotaAttr, Index: -1, Value: q.Region, Severity: catalog.SeverityWarning,
			Summary: title + " Has No Quota",
			Detail: fmt.Sprintf("The regional quota %s in %s has %g of %g left, and one node of this %s needs %d: GKE cannot add a node, "+
				"so %s. Request more quota (IAM & Admin > Quotas, metric %s) or use another region.",
				c.Metric, q.Region, c.Headroom(), c.Quota.Limit, u.Name, q.PerNode, u.Then, c.Metric)})
	}
	for _, name := range c.MissingReservations {
		fs = append(fs, catalog.Finding{Attribute: u.ReservationAttr, Index: -1, Value: name, Severity: catalog.SeverityWarning,
			Summary: "Reservation Not Found",
			Detail: fmt.Sprintf("The %s consumes only the reservation %q, but no reservation of that name for %s exists in %s: GKE cannot "+
				"add a node, so %s.", u.Name, name, q.MachineType, strings.Join(q.Zones, ", "), u.Then)})
	}
	for _, name := range c.FullReservations {
		fs = append(fs, catalog.Finding{Attribute: u.ReservationAttr, Index: -1, Value: name, Severity: catalog.SeverityWarning,
			Summary: "Reservation Full",
			Detail: fmt.Sprintf("The %s consumes only the reservation %q, and every VM it reserves is in use: GKE cannot add a node until "+
				"one is freed, so %s.", u.Name, name, u.Then)})
	}
	return fs
}

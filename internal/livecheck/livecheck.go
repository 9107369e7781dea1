// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package livecheck asks the live APIs at plan time which zones offer an
// accelerator: the facts that change month to month, which the catalog
// only warns about offline. Every answer is asked for once per provider
// process (Terraform starts one per plan) and cached; every call is bounded
// by Timeout; an API that cannot be reached leaves the catalog's warnings in
// place, and a permission error is a warning naming the permission, never a
// failed plan.
//
// When a plan may call the APIs follows accel_runtime_version: a project is
// set and the API's endpoint or a credential is configured
// (gcp.Clients.TPUConfigured, gcp.Clients.ComputeConfigured). Offline plans
// make no call.
package livecheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// Timeout bounds one live answer, retries included, so that a slow or
// unreachable API cannot hold a plan up for long.
const Timeout = 15 * time.Second

// Checker holds the live answers of one provider process. It is safe for
// concurrent use; concurrent askers of one answer share its one call.
type Checker struct {
	clients *gcp.Clients

	mu      sync.Mutex
	answers map[string]*answer
}

// answer is one cached call: done is closed once value and err are set.
type answer struct {
	done  chan struct{}
	value any
	err   error
}

// New returns a checker over clients.
func New(clients *gcp.Clients) *Checker {
	return &Checker{clients: clients, answers: map[string]*answer{}}
}

// ask returns the cached answer of key, calling fn (bounded by Timeout)
// when no call for key was made yet.
func (c *Checker) ask(ctx context.Context, key string, fn func(ctx context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	a, ok := c.answers[key]
	if !ok {
		a = &answer{done: make(chan struct{})}
		c.answers[key] = a
	}
	c.mu.Unlock()
	if !ok {
		cctx, cancel := gcp.Detach(ctx, Timeout)
		a.value, a.err = fn(cctx)
		cancel()
		close(a.done)
	}
	select {
	case <-a.done:
		return a.value, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Calls reports how many distinct answers were asked for (for tests).
func (c *Checker) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.answers)
}

// TPUConfigured reports whether the Cloud TPU API may be called for project.
func (c *Checker) TPUConfigured(project string) bool {
	return c != nil && project != "" && c.clients.TPUConfigured()
}

// ComputeConfigured reports whether Compute Engine may be called for project.
func (c *Checker) ComputeConfigured(project string) bool {
	return c != nil && project != "" && c.clients.ComputeConfigured()
}

// TPUZoneOffer is what the Cloud TPU API lists for project in zone, asked
// for once.
func (c *Checker) TPUZoneOffer(ctx context.Context, project, zone string) (gcp.TPUZoneOffer, error) {
	v, err := c.ask(ctx, "tpu/"+project+"/"+zone, func(ctx context.Context) (any, error) {
		return c.clients.ListTPUZoneOffer(ctx, project, zone)
	})
	offer, _ := v.(gcp.TPUZoneOffer)
	return offer, err
}

// machineTypeZones lists the zones where Compute Engine offers a machine type.
func (c *Checker) machineTypeZones(ctx context.Context, project, machineType string) ([]string, error) {
	v, err := c.ask(ctx, "compute/machineType/"+project+"/"+machineType, func(ctx context.Context) (any, error) {
		cc, err := c.clients.ComputeCatalog(ctx)
		if err != nil {
			return nil, err
		}
		mts, err := cc.MachineTypeZones(ctx, project, machineType)
		zones := make([]string, 0, len(mts))
		for _, m := range mts {
			zones = append(zones, m.Zone)
		}
		return zones, err
	})
	zones, _ := v.([]string)
	return zones, err
}

// acceleratorTypeZones lists the zones where Compute Engine offers a GPU type.
func (c *Checker) acceleratorTypeZones(ctx context.Context, project, gpuType string) ([]string, error) {
	v, err := c.ask(ctx, "compute/acceleratorType/"+project+"/"+gpuType, func(ctx context.Context) (any, error) {
		cc, err := c.clients.ComputeCatalog(ctx)
		if err != nil {
			return nil, err
		}
		return cc.AcceleratorTypeZones(ctx, project, gpuType)
	})
	zones, _ := v.([]string)
	return zones, err
}

// permissionWarning is the finding for an API call the caller may not make:
// a warning that names the permission, so the plan goes on with the
// catalog's offline answer.
func permissionWarning(attr, value, api, permission string, err error) catalog.Finding {
	return catalog.Finding{Attribute: attr, Index: -1, Value: value, Severity: catalog.SeverityWarning,
		Summary: "Live Availability Not Checked",
		Detail: fmt.Sprintf("The %s refused to list what the zone offers (%v), so only the catalog's zone lists were checked. Grant the permission %s to check availability live at plan time.",
			api, shortError(err), permission)}
}

// unanswered turns a failed call into findings: a warning for a permission
// error, nothing otherwise (the API is not reachable; the catalog decides).
func unanswered(attr, value, api, permission string, err error) catalog.Findings {
	if gcp.Classify(err) == gcp.ClassPermission {
		return catalog.Findings{permissionWarning(attr, value, api, permission, err)}
	}
	return nil
}

func shortError(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// PoolQuery is what a GKE node pool needs from its zones.
type PoolQuery struct {
	Project string
	// MachineType is checked when it is an accelerator machine type (TPU, or
	// GPU with built-in GPUs); "" skips it.
	MachineType string
	// GPUType is an attached GPU type ("" for none).
	GPUType string
	// Zones are the node locations; findings carry their index.
	Zones []string
	// Region is the cluster's region: zones of it that offer the
	// accelerator are named first.
	Region string
	// Attr is the attribute the zones are in: node_locations when empty
	// (accel_tpu_vm's zones for a VM created through Compute Engine).
	Attr string
}

// PoolZones checks live that each zone offers the pool's machine type and
// attached GPU type: an error on node_locations[i] naming the zones that
// have it, a warning when the caller may not list them. answered are the
// zones Compute Engine answered for (every list the pool needs was read):
// the catalog's zone-list warnings about them are replaced
// (catalog.Findings.WithoutZoneListsFor).
func (c *Checker) PoolZones(ctx context.Context, q PoolQuery) (fs catalog.Findings, answered []string) {
	attr := q.Attr
	if attr == "" {
		attr = catalog.AttrNodeLocations
	}
	var asked, failed bool
	check := func(kind, name, permission string, list func(context.Context, string, string) ([]string, error)) {
		if name == "" || len(q.Zones) == 0 {
			return
		}
		have, err := list(ctx, q.Project, name)
		if err != nil {
			fs = append(fs, unanswered(attr, q.Zones[0], "Compute Engine API", permission, err)...)
			failed = true
			return
		}
		asked = true
		for i, z := range q.Zones {
			if slices.Contains(have, z) {
				continue
			}
			f := missing(attr, z, "Compute Engine", kind, name, have, q.Region)
			f.Index = i
			fs = append(fs, f)
		}
	}
	check("machine type", q.MachineType, "compute.machineTypes.list", c.machineTypeZones)
	check("accelerator type", q.GPUType, "compute.acceleratorTypes.list", c.acceleratorTypeZones)
	if asked && !failed {
		answered = slices.Clone(q.Zones)
	}
	return fs, answered
}

// TPUZones checks live, with the Cloud TPU API, that each zone offers the
// accelerator type of res, and whether it lists the runtime version; the
// findings carry attr and, with several zones, the zone's index. See
// TPUZoneFindings.
func (c *Checker) TPUZones(ctx context.Context, cat *catalog.Catalog, project, attr string, zones []string, res catalog.RuntimeResult) (catalog.Findings, []string) {
	return TPUZoneFindings(ctx, c, cat, project, attr, zones, res)
}

// TPUOffers answers what the Cloud TPU API offers project in a zone:
// *Checker (cached), or a fake in a caller's tests.
type TPUOffers interface {
	TPUZoneOffer(ctx context.Context, project, zone string) (gcp.TPUZoneOffer, error)
}

// TPUZoneFindings compares each zone's offer, asked of offers, with res: an
// error on attr for a zone that does not offer the accelerator type
// (ZoneOfferFindings), a warning when it does not list the runtime version,
// a warning naming the permission when the API refuses the list, and
// nothing when it cannot be reached (the catalog's warnings stand). With
// several zones the findings on attr carry the zone's index. answered are
// the zones the API listed: the catalog's zone-list warnings about them are
// replaced (catalog.Findings.WithoutZoneListsFor).
func TPUZoneFindings(ctx context.Context, offers TPUOffers, cat *catalog.Catalog, project, attr string, zones []string, res catalog.RuntimeResult) (fs catalog.Findings, answered []string) {
	for i, z := range zones {
		offer, err := offers.TPUZoneOffer(ctx, project, z)
		if err != nil {
			fs = append(fs, unanswered(attr, z, "Cloud TPU API", "tpu.acceleratorTypes.list", err)...)
			continue
		}
		answered = append(answered, z)
		var offering []string
		if acc := res.Accelerator.Type; acc != "" && !slices.Contains(offer.AcceleratorTypes, acc) {
			offering = zonesOffering(ctx, offers, cat, project, acc, res.Accelerator.Generation, z, zones)
		}
		for _, f := range ZoneOfferFindings(cat, attr, z, offer, res, offering) {
			if len(zones) > 1 && f.Attribute == attr {
				f.Index = i
			}
			fs = append(fs, f)
		}
	}
	return fs, answered
}

// zonesOffering asks the Cloud TPU API, for the other configured zones and
// the zones the catalog lists for the generation (in that order, without
// missed), which of them offer accType to project, asking each zone once. A zone
// it cannot ask is left out.
func zonesOffering(ctx context.Context, offers TPUOffers, cat *catalog.Catalog, project, accType, gen, missed string, configured []string) []string {
	candidates := slices.Clone(configured)
	if g, ok := cat.Generation(gen); ok {
		for _, z := range g.Zones {
			candidates = append(candidates, z.Zone)
		}
	}
	var out []string
	asked := map[string]bool{missed: true}
	for _, z := range candidates {
		if asked[z] {
			continue
		}
		asked[z] = true
		if offer, err := offers.TPUZoneOffer(ctx, project, z); err == nil && slices.Contains(offer.AcceleratorTypes, accType) {
			out = append(out, z)
		}
	}
	return out
}

// missing is the error for a zone the live API says lacks name.
func missing(attr, zone, api, kind, name string, have []string, region string) catalog.Finding {
	var near, far []string
	for _, z := range have {
		if region != "" && strings.HasPrefix(z, region+"-") {
			near = append(near, z)
		} else {
			far = append(far, z)
		}
	}
	detail := fmt.Sprintf("%s does not offer %s %q in zone %q to this project", api, kind, name, zone)
	switch {
	case len(have) == 0:
		detail += ", nor in any other zone."
	case len(near) > 0:
		detail += fmt.Sprintf("; zones of %s that offer it: %s.", region, strings.Join(near, ", "))
	default:
		detail += fmt.Sprintf("; zones that offer it: %s.", strings.Join(listHead(far, 12), ", "))
	}
	sugg := near
	if len(sugg) == 0 {
		sugg = far
	}
	return catalog.Finding{Attribute: attr, Index: -1, Value: zone, Severity: catalog.SeverityError, Basis: catalog.BasisLive,
		Summary: "Zone Does Not Offer Accelerator", Suggestions: slices.Clone(sugg[:min(len(sugg), 3)]), Detail: detail}
}

func listHead(vals []string, n int) []string {
	if len(vals) > n {
		return append(slices.Clone(vals[:n]), fmt.Sprintf("and %d more", len(vals)-n))
	}
	return vals
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// liveTimeout bounds the whole live zone check, retries included, so that a
// slow or unreachable API cannot hold a plan up for long. The check is
// advisory: when it does not finish in time, the plan goes on without it.
const liveTimeout = 15 * time.Second

// zoneOffer is what the Cloud TPU API lists for one zone.
type zoneOffer = gcp.TPUZoneOffer

// liveChecker compares the catalog's answer with a zone's live offer.
type liveChecker struct {
	clients *gcp.Clients
	cat     *catalog.Catalog
}

func newLiveChecker(clients *gcp.Clients, cat *catalog.Catalog) *liveChecker {
	return &liveChecker{clients: clients, cat: cat}
}

// check lists the zone's accelerator types and runtime versions and reports
// where they contradict res. Failing to list is logged at debug level only.
func (lc *liveChecker) check(ctx context.Context, project, zone string, res catalog.RuntimeResult, mode catalog.Mode) diag.Diagnostics {
	ctx, cancel := context.WithTimeout(ctx, liveTimeout)
	defer cancel()
	offer, err := lc.clients.ListTPUZoneOffer(ctx, project, zone)
	if err != nil {
		tflog.Debug(ctx, "live zone check skipped: the Cloud TPU API did not answer", map[string]any{
			"project": project, "zone": zone, "error_class": gcp.Classify(err).String(), "error": err.Error(),
		})
		return nil
	}
	tflog.Debug(ctx, "listed the zone's live TPU offer", map[string]any{
		"project": project, "zone": zone,
		"accelerator_types": len(offer.AcceleratorTypes), "runtime_versions": len(offer.RuntimeVersions),
	})
	var diags diag.Diagnostics
	for _, f := range liveFindings(lc.cat, zone, offer, res) {
		if mode == catalog.ModeWarn {
			f.Severity = catalog.SeverityWarning
		}
		detail := f.Detail
		if f.Severity == catalog.SeverityError {
			detail += "\n\nThe Cloud TPU API's list for the project is authoritative; to report this as a warning, set validation = \"warn\"."
			diags.AddAttributeError(path.Root(f.Attribute), f.Summary, detail)
		} else {
			diags.AddAttributeWarning(path.Root(f.Attribute), f.Summary, detail)
		}
	}
	return diags
}

// liveFindings compares the catalog's answer res with a zone's live offer:
// an error when the zone does not offer the accelerator type, a warning when
// it does not list the runtime version (naming the compatible candidates it
// does list). Findings carry the data source's attribute names.
func liveFindings(cat *catalog.Catalog, zone string, offer zoneOffer, res catalog.RuntimeResult) catalog.Findings {
	acc := res.Accelerator
	if acc.Type == "" {
		return nil // the accelerator type is invalid; the catalog already said so
	}
	var fs catalog.Findings
	if !slices.Contains(offer.AcceleratorTypes, acc.Type) {
		var sameGen []string
		for _, t := range cat.AcceleratorTypes(acc.Generation) {
			if slices.Contains(offer.AcceleratorTypes, t) {
				sameGen = append(sameGen, t)
			}
		}
		detail := fmt.Sprintf("The Cloud TPU API does not list %q in zone %q", acc.Type, zone)
		switch {
		case len(offer.AcceleratorTypes) == 0:
			detail += ", which offers no TPU accelerator types to this project."
		case len(sameGen) > 0:
			detail += fmt.Sprintf("; %s types it lists: %s.", acc.Generation, strings.Join(sameGen, ", "))
		default:
			detail += fmt.Sprintf(", which offers no %s types to this project.", acc.Generation)
		}
		if g, ok := cat.Generation(acc.Generation); ok && len(g.Zones) > 0 {
			zones := make([]string, 0, len(g.Zones))
			for _, z := range g.Zones {
				zones = append(zones, z.Zone)
			}
			detail += fmt.Sprintf(" Zones the catalog lists for %s: %s.", acc.Generation, strings.Join(zones, ", "))
		}
		fs = append(fs, catalog.Finding{
			Attribute: attrZone, Index: -1, Value: zone,
			Summary:     "Zone Does Not Offer Accelerator Type",
			Detail:      detail,
			Suggestions: sameGen,
			Severity:    catalog.SeverityError,
		})
		return fs
	}
	rv := res.RuntimeVersion
	if rv == "" || slices.Contains(offer.RuntimeVersions, rv) {
		return nil
	}
	var live []string
	for _, c := range res.Candidates {
		if c != rv && slices.Contains(offer.RuntimeVersions, c) {
			live = append(live, c)
		}
	}
	detail := fmt.Sprintf("The Cloud TPU API does not list runtime version %q in zone %q, although the catalog considers it compatible with %s.", rv, zone, acc.Type)
	if len(live) > 0 {
		detail += fmt.Sprintf(" Compatible runtime versions the zone lists: %s; consider runtime_version = %q.", quoted(live), live[0])
	} else {
		detail += " The zone lists none of the compatible candidates, so creating a TPU VM there with this runtime version will probably fail."
	}
	fs = append(fs, catalog.Finding{
		Attribute: catalog.AttrRuntimeVersion, Index: -1, Value: rv,
		Summary:     "Runtime Version Not Offered in Zone",
		Detail:      detail,
		Suggestions: live,
		Severity:    catalog.SeverityWarning,
	})
	return fs
}

func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

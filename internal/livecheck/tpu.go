// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// ZoneOfferFindings compares the catalog's answer res with a zone's live
// Cloud TPU offer: an error on attr when the zone does not offer the
// accelerator type, naming the zones that do (offering: the other zones the
// caller asked live, in order, that list it), a warning on runtime_version
// when it does not list the runtime version (naming the compatible
// candidates it does list).
func ZoneOfferFindings(cat *catalog.Catalog, attr, zone string, offer gcp.TPUZoneOffer, res catalog.RuntimeResult, offering []string) catalog.Findings {
	acc := res.Accelerator
	if acc.Type == "" {
		return nil // the accelerator type is invalid; the catalog already said so
	}
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
		if len(offering) > 0 {
			detail += fmt.Sprintf(" Zones whose live list has %s for this project: %s.", acc.Type, strings.Join(offering, ", "))
		} else {
			detail += fmt.Sprintf(" No other zone the catalog lists for %s has it in its live list for this project either.", acc.Generation)
		}
		return catalog.Findings{{
			Attribute: attr, Index: -1, Value: zone,
			Summary:     "Zone Does Not Offer Accelerator Type",
			Detail:      detail,
			Suggestions: slices.Clone(offering[:min(len(offering), 3)]),
			Severity:    catalog.SeverityError,
			Basis:       catalog.BasisLive,
		}}
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
	return catalog.Findings{{
		Attribute: catalog.AttrRuntimeVersion, Index: -1, Value: rv,
		Summary:     "Runtime Version Not Offered in Zone",
		Detail:      detail,
		Suggestions: live,
		Severity:    catalog.SeverityWarning,
	}}
}

func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

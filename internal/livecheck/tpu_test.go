// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

func TestZoneOfferFindings(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	v6e := cat.ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-4"})
	tf := cat.ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow"})
	if len(tf.Candidates) < 2 || tf.RuntimeVersion != tf.Candidates[0] {
		t.Fatalf("the TensorFlow case needs several candidates, the first chosen: %v", tf.Candidates)
	}
	others := slices.DeleteFunc(slices.Clone(tf.Candidates), func(s string) bool { return s == tf.RuntimeVersion })

	tests := map[string]struct {
		res      catalog.RuntimeResult
		offer    gcp.TPUZoneOffer
		offering []string
		want     catalog.Findings
	}{
		"zone offers type and runtime": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-1", "v6e-4"}, RuntimeVersions: []string{"v2-alpha-tpuv6e"}},
		},
		"invalid accelerator type is not checked": {
			res:   cat.ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-3"}),
			offer: gcp.TPUZoneOffer{},
		},
		"zone offers other sizes of the generation": {
			res:      v6e,
			offer:    gcp.TPUZoneOffer{AcceleratorTypes: []string{"v5p-8", "v6e-8", "v6e-1"}, RuntimeVersions: []string{"v2-alpha-tpuv6e"}},
			offering: []string{"us-east5-a", "us-east1-d", "europe-west4-a", "us-central1-b"},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:     "Zone Does Not Offer Accelerator Type",
				Detail:      `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a"; v6e types it lists: v6e-1, v6e-8. Zones whose live list has v6e-4 for this project: us-east5-a, us-east1-d, europe-west4-a, us-central1-b.`,
				Suggestions: []string{"us-east5-a", "us-east1-d", "europe-west4-a"},
				Severity:    catalog.SeverityError, Basis: catalog.BasisLive,
			}},
		},
		"zone offers no type of the generation": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v5p-8"}},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:  "Zone Does Not Offer Accelerator Type",
				Detail:   `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a", which offers no v6e types to this project. No other zone the catalog lists for v6e has it in its live list for this project either.`,
				Severity: catalog.SeverityError, Basis: catalog.BasisLive,
			}},
		},
		"zone offers no TPU at all": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:  "Zone Does Not Offer Accelerator Type",
				Detail:   `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a", which offers no TPU accelerator types to this project. No other zone the catalog lists for v6e has it in its live list for this project either.`,
				Severity: catalog.SeverityError, Basis: catalog.BasisLive,
			}},
		},
		"chosen runtime missing, another candidate live": {
			res:   tf,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-4"}, RuntimeVersions: []string{"v2-alpha-tpuv6e", others[1], others[0]}},
			want: catalog.Findings{{
				Attribute: "runtime_version", Index: -1, Value: tf.RuntimeVersion,
				Summary: "Runtime Version Not Offered in Zone",
				Detail: `The Cloud TPU API does not list runtime version "` + tf.RuntimeVersion + `" in zone "us-central1-a", although the catalog considers it compatible with v6e-4.` +
					` Compatible runtime versions the zone lists: "` + others[0] + `", "` + others[1] + `"; consider runtime_version = "` + others[0] + `".`,
				Suggestions: []string{others[0], others[1]},
				Severity:    catalog.SeverityWarning,
			}},
		},
		"chosen runtime missing, no candidate live": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-4"}, RuntimeVersions: []string{"tpu-ubuntu2204-base"}},
			want: catalog.Findings{{
				Attribute: "runtime_version", Index: -1, Value: "v2-alpha-tpuv6e",
				Summary: "Runtime Version Not Offered in Zone",
				Detail: `The Cloud TPU API does not list runtime version "v2-alpha-tpuv6e" in zone "us-central1-a", although the catalog considers it compatible with v6e-4.` +
					" The zone lists none of the compatible candidates, so creating a TPU VM there with this runtime version will probably fail.",
				Severity: catalog.SeverityWarning,
			}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := ZoneOfferFindings(cat, "zone", "us-central1-a", tc.offer, tc.res, tc.offering)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// offersByZone is a Cloud TPU API that offers each zone's listed types.
type offersByZone map[string][]string

func (o offersByZone) TPUZoneOffer(_ context.Context, _, zone string) (gcp.TPUZoneOffer, error) {
	types, ok := o[zone]
	if !ok {
		return gcp.TPUZoneOffer{}, errors.New("zone not answered")
	}
	return gcp.TPUZoneOffer{AcceleratorTypes: types, RuntimeVersions: []string{"v2-alpha-tpuv6e"}}, nil
}

// TestTPUZoneFindingsNamesLiveZones: the error for a zone without the type
// names the zones whose live list has it (the other configured zones
// first, then the catalog's), never the zone it rejects or one whose live
// list lacks the type, and it is a live finding.
func TestTPUZoneFindingsNamesLiveZones(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	res := cat.ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-4"})
	offers := offersByZone{
		"us-central1-a":  {"v5litepod-4"},
		"us-central1-b":  {"v6e-1"},
		"us-east5-b":     {"v6e-4"},
		"europe-west4-a": {"v6e-4", "v6e-8"},
	}
	fs, _ := TPUZoneFindings(context.Background(), offers, cat, "p", "zones", []string{"us-central1-a", "europe-west4-a"}, res)
	if len(fs) != 1 {
		t.Fatalf("want one finding, got %v", fs)
	}
	f := fs[0]
	if f.Index != 0 || f.Basis != catalog.BasisLive || f.Severity != catalog.SeverityError ||
		!strings.HasSuffix(f.Detail, " Zones whose live list has v6e-4 for this project: europe-west4-a, us-east5-b.") ||
		!slices.Equal(f.Suggestions, []string{"europe-west4-a", "us-east5-b"}) {
		t.Errorf("finding %+v", f)
	}
}

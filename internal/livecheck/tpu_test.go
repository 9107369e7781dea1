// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
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
	v6eZones := "us-central1-b"
	if g, ok := cat.Generation("v6e"); ok {
		var zs []string
		for _, z := range g.Zones {
			zs = append(zs, z.Zone)
		}
		v6eZones = strings.Join(zs, ", ")
	}

	tests := map[string]struct {
		res   catalog.RuntimeResult
		offer gcp.TPUZoneOffer
		want  catalog.Findings
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
			res:   v6e,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v5p-8", "v6e-8", "v6e-1"}, RuntimeVersions: []string{"v2-alpha-tpuv6e"}},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:     "Zone Does Not Offer Accelerator Type",
				Detail:      `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a"; v6e types it lists: v6e-1, v6e-8. Zones the catalog lists for v6e: ` + v6eZones + ".",
				Suggestions: []string{"v6e-1", "v6e-8"},
				Severity:    catalog.SeverityError,
			}},
		},
		"zone offers no type of the generation": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v5p-8"}},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:  "Zone Does Not Offer Accelerator Type",
				Detail:   `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a", which offers no v6e types to this project. Zones the catalog lists for v6e: ` + v6eZones + ".",
				Severity: catalog.SeverityError,
			}},
		},
		"zone offers no TPU at all": {
			res:   v6e,
			offer: gcp.TPUZoneOffer{},
			want: catalog.Findings{{
				Attribute: "zone", Index: -1, Value: "us-central1-a",
				Summary:  "Zone Does Not Offer Accelerator Type",
				Detail:   `The Cloud TPU API does not list "v6e-4" in zone "us-central1-a", which offers no TPU accelerator types to this project. Zones the catalog lists for v6e: ` + v6eZones + ".",
				Severity: catalog.SeverityError,
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
			got := ZoneOfferFindings(cat, "zone", "us-central1-a", tc.offer, tc.res)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

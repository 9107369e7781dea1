// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const srcComputeClass = "https://cloud.google.com/kubernetes-engine/docs/concepts/about-custom-compute-classes"

func TestV3OnGKE(t *testing.T) {
	t.Parallel()
	c := Default()
	tests := []struct {
		q    TPUPoolQuery
		want TPUPoolShape
	}{
		{TPUPoolQuery{AcceleratorType: "v3-8", NodeLocations: []string{"us-central1-a"}},
			TPUPoolShape{MachineType: "ct3-hightpu-4t", Topology: "2x2", NodeCount: 1, ChipsPerNode: 4,
				NodeLabels: map[string]string{LabelTPUAccelerator: "tpu-v3-device", LabelTPUTopology: "2x2"}}},
		{TPUPoolQuery{MachineType: "ct3p-hightpu-4t", Topology: "8x8", NodeLocations: []string{"europe-west4-a"}},
			TPUPoolShape{MachineType: "ct3p-hightpu-4t", Topology: "8x8", NodeCount: 16, MultiHost: true, ChipsPerNode: 4,
				PlacementPolicy: PlacementCompact, PlacementTPUTopology: "8x8",
				NodeLabels: map[string]string{LabelTPUAccelerator: "tpu-v3-slice", LabelTPUTopology: "8x8"}}},
	}
	for _, tt := range tests {
		got, fs := c.TPUNodePool(tt.q)
		mustNoFindings(t, tt.q.MachineType+tt.q.AcceleratorType, fs)
		got.Accelerator = Accelerator{}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("TPUNodePool(%+v) (-want +got):\n%s", tt.q, d)
		}
	}
}

func TestZoneAvailabilityOffline(t *testing.T) {
	t.Parallel()
	c := Default()
	// v6e in Asia-Pacific: the flex-start page names asia-northeast1-b; the
	// regions page lists a block without zone names, so other asia zones warn.
	mustNoFindings(t, "v6e-8 in asia-northeast1-b", c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v6e-8", Zones: []string{"asia-northeast1-b"}, ForTPUAPI: true}).Findings)
	r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v6e-8", Zones: []string{"asia-southeast1-b"}, ForTPUAPI: true})
	want := Findings{atIndex(warnAt(AttrZones, "asia-southeast1-b", "Zone Not Listed for TPU Generation",
		`"asia-southeast1-b" is not listed for v6e. The TPU regions page has an Asia-Pacific v6e block whose zone names were not captured; the flex-start page names asia-northeast1-b (listed above). Any other well-formed asia-* zone gets a warning instead of an error.`,
		srcZonesOld), 0)}
	if d := diffFindings(want, r.Findings); d != "" {
		t.Errorf("v6e in asia-southeast1-b (-want +got):\n%s", d)
	}
	// v5e in us-west4-b: listed by the calendar-mode reservation page only.
	mustNoFindings(t, "v5litepod-4 in us-west4-b", c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v5litepod-4", Zones: []string{"us-west4-b"}}).Findings)
	// v2 and v3 zones the regions page lists: no finding.
	for _, q := range []RuntimeQuery{
		{AcceleratorType: "v2-8", Zones: []string{"asia-east1-c"}},
		{AcceleratorType: "v3-2048", Zones: []string{"europe-west4-a"}},
	} {
		mustNoFindings(t, q.AcceleratorType+" "+q.Zones[0], c.ResolveRuntime(q).Findings)
	}
	// A zone in a region without the generation is a warning offline.
	r = c.ResolveRuntime(RuntimeQuery{AcceleratorType: "v4-8", Zones: []string{"us-east1-b"}})
	if len(r.Findings) != 1 || r.Findings[0].Severity != SeverityWarning {
		t.Errorf("v4-8 in us-east1-b: want one warning, got %v", r.Findings)
	}
}

func TestNodeLocationsInCluster(t *testing.T) {
	t.Parallel()
	c := Default()
	got := c.NodeLocationsInCluster("us-central1", []string{"us-central1-a", "us-east5-a", "europe-west4-b"})
	want := Findings{
		atIndex(rule(errAt(AttrNodeLocations, "us-east5-a", "Node Location Outside the Cluster's Region",
			`"us-east5-a" is in region us-east5, but the cluster is in us-central1; GKE places node pools only in zones of the cluster's region. Use zones of us-central1 such as "us-central1-a".`,
			srcGKENodePool, "us-central1-a")), 1),
		atIndex(rule(errAt(AttrNodeLocations, "europe-west4-b", "Node Location Outside the Cluster's Region",
			`"europe-west4-b" is in region europe-west4, but the cluster is in us-central1; GKE places node pools only in zones of the cluster's region. Use zones of us-central1 such as "us-central1-a".`,
			srcGKENodePool, "us-central1-b")), 2),
	}
	if d := diffFindings(want, got); d != "" {
		t.Errorf("regional cluster (-want +got):\n%s", d)
	}
	mustNoFindings(t, "zonal cluster", c.NodeLocationsInCluster("us-central1-b", []string{"us-central1-b", "us-central1-c"}))
	if fs := c.NodeLocationsInCluster("us-central1-b", []string{"us-west1-b"}); len(fs) != 1 || !fs.HasErrors() {
		t.Errorf("zonal cluster, zone in another region: want one error, got %v", fs)
	}
}

func TestComputeClassVersion(t *testing.T) {
	t.Parallel()
	c := Default()
	want := Findings{errAt(AttrGKEVersion, "1.30.2-gke.1000000", "GKE Version Too Old for ComputeClass",
		"GKE 1.30.2-gke.1000000 is older than 1.30.3-gke.1451000, the first version with custom ComputeClasses, which this resource renders; upgrade the cluster.",
		srcComputeClass, "1.30.3-gke.1451000")}
	if d := diffFindings(want, c.ComputeClassVersion("1.30.2-gke.1000000")); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, v := range []string{"", "1.30.3-gke.1451000", "1.33.5-gke.1000000"} {
		mustNoFindings(t, "version "+v, c.ComputeClassVersion(v))
	}
}

func TestReservationAffinity(t *testing.T) {
	t.Parallel()
	c := Default()
	want := Findings{rule(errAt(AttrReservationAffinity, "SPECIFIC_RESERVATION", "Specific Reservation Without a Name",
		`consume_reservation_type SPECIFIC_RESERVATION consumes only the reservations named in values; set key = "compute.googleapis.com/reservation-name" and values = ["<reservation name>"], or use ANY_RESERVATION.`,
		srcGKENodePool))}
	for _, in := range []struct {
		key    string
		values []string
	}{{"", nil}, {ReservationNameKey, nil}, {ReservationNameKey, []string{""}}, {"", []string{"r1"}}} {
		if d := diffFindings(want, c.ReservationAffinity(ReservationSpecific, in.key, in.values)); d != "" {
			t.Errorf("%+v (-want +got):\n%s", in, d)
		}
	}
	mustNoFindings(t, "named", c.ReservationAffinity(ReservationSpecific, ReservationNameKey, []string{"r1"}))
	mustNoFindings(t, "any", c.ReservationAffinity("ANY_RESERVATION", "", nil))
}

func TestV5PLargestSlice(t *testing.T) {
	t.Parallel()
	c := Default()
	if _, fs := c.TPUNodePool(TPUPoolQuery{MachineType: "ct5p-hightpu-4t", Topology: "16x16x28"}); !fs.HasErrors() {
		t.Errorf("16x16x28 (112 cubes): want an error, got %v", fs)
	}
	if _, fs := c.Accelerator("v5p-12288"); len(fs) > 0 {
		t.Errorf("v5p-12288: want no findings, got %v", fs)
	}
}

// TestGKEZonesOffline: offline, a TPU tier in a zone of a region GKE lists
// that the generation's zone list does not name is a warning naming the
// zones that do offer it; a listed zone plans clean.
func TestGKEZonesOffline(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, tc := range []struct {
		acc, zone string
		want      []string // suggested zones; nil: no finding
	}{
		{"v6e-4", "us-central1-b", nil},
		{"v5litepod-4", "us-central1-a", nil},
		{"tpu7x-8", "us-central1-c", nil},
		{"v6e-4", "us-central1-a", []string{"us-central1-b", "us-central1-ai1"}},
		{"tpu7x-8", "us-central1-a", []string{"us-central1-c", "us-central1-ai1a"}},
		{"v4-8", "us-central2-a", []string{"us-central2-b"}},
		{"v6e-4", "us-east5-z", []string{"us-east5-a", "us-east5-b", "us-east5-c"}},
	} {
		_, fs := c.TPUNodePool(TPUPoolQuery{AcceleratorType: tc.acc, NodeLocations: []string{tc.zone}})
		var zf Findings
		for _, f := range fs {
			if f.Attribute == AttrNodeLocations {
				zf = append(zf, f)
			}
		}
		if tc.want == nil {
			mustNoFindings(t, tc.acc+" in "+tc.zone, zf)
			continue
		}
		if len(zf) != 1 || zf[0].Severity != SeverityWarning || zf[0].Summary != "Zone Not Listed for TPU Generation" ||
			!slices.Equal(zf[0].Suggestions, tc.want) || !strings.Contains(zf[0].Detail, joinAnd(tc.want)) {
			t.Errorf("%s in %s: want one warning naming %v, got %v", tc.acc, tc.zone, tc.want, zf)
		}
	}
}

// TestZoneListWarningsAreMarked: the warnings that rest on the catalog's
// zone lists alone carry Finding.ZoneList, and only they do, so a live
// answer about the zone replaces exactly them (Findings.WithoutZoneListsFor).
func TestZoneListWarningsAreMarked(t *testing.T) {
	t.Parallel()
	c := Default()
	var fs Findings
	for _, q := range []RuntimeQuery{
		{AcceleratorType: "v6e-8", Zones: []string{"asia-southeast1-b"}, ForTPUAPI: true},
		{AcceleratorType: "v5litepod-4", Zones: []string{"europe-west4-b"}},
		{AcceleratorType: "v2-32", Zones: []string{"us-central1-b", "us-central1-a", "asia-east1-c"}},
		{AcceleratorType: "v4-8", Zones: []string{"us-east1-b"}},
		{AcceleratorType: "v6e-8", Zones: []string{"us-central1"}}, // not a zone: a rule, not a list
	} {
		fs = append(fs, c.ResolveRuntime(q).Findings...)
	}
	_, pool := c.TPUNodePool(TPUPoolQuery{AcceleratorType: "v6e-8", NodeLocations: []string{"us-east1-b", "europe-west1-b"}})
	fs = append(fs, pool...)
	fs = append(fs, c.NodeLocationsInCluster("us-central1", []string{"us-east5-a"})...)
	listed := 0
	for _, f := range fs {
		want := strings.HasPrefix(f.Summary, "Zone Not Listed") || strings.HasPrefix(f.Summary, "Zone Listed Only") ||
			strings.HasPrefix(f.Summary, "Region Not Listed")
		if f.ZoneList != want {
			t.Errorf("%v: ZoneList = %v, want %v", f, f.ZoneList, want)
		}
		if want {
			listed++
		}
	}
	if listed < 5 || len(fs) == listed {
		t.Fatalf("want several zone-list warnings and other findings, got %d of %d: %v", listed, len(fs), fs)
	}
	left := fs.WithoutZoneListsFor([]string{"asia-southeast1-b", "us-east1-b"})
	for _, f := range left {
		if f.ZoneList && (f.Value == "asia-southeast1-b" || f.Value == "us-east1-b") {
			t.Errorf("WithoutZoneListsFor kept %v", f)
		}
	}
	if len(left) >= len(fs) || len(left) < len(fs)-3 {
		t.Errorf("WithoutZoneListsFor dropped %d of %d findings, want the three about the answered zones", len(fs)-len(left), len(fs))
	}
}

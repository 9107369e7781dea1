// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strings"
	"testing"
)

func TestCheckCapacity(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, tc := range []struct {
		name string
		req  CapacityRequest
		// want is "attribute: summary" of each finding, in order.
		want []string
	}{
		{"on-demand", CapacityRequest{Mode: CapacityOnDemand}, nil},
		{"spot with a wait", CapacityRequest{Mode: CapacitySpot, MaxWait: "2h"}, nil},
		{"unknown mode", CapacityRequest{Mode: "cheap"}, []string{"mode: Unknown Capacity Mode"}},
		{"wait on on-demand", CapacityRequest{Mode: CapacityOnDemand, MaxWait: "1h"}, []string{"max_wait: Max Wait Needs a Queued Mode"}},
		{"bad wait", CapacityRequest{Mode: CapacitySpot, MaxWait: "-5m"}, []string{"max_wait: Invalid Duration"}},
		{"fractional wait", CapacityRequest{Mode: CapacitySpot, MaxWait: "1.5s"}, []string{"max_wait: Invalid Duration"}},
		{"reserved without name", CapacityRequest{Mode: CapacityReserved}, []string{"reservation: Missing Reservation"}},
		{"reservation on spot", CapacityRequest{Mode: CapacitySpot, Reservation: "r"}, []string{"reservation: Reservation Needs Mode Reserved"}},
		{"flex without run", CapacityRequest{Mode: CapacityFlexStart, Generation: "v6e"}, []string{"max_run_duration: Missing Max Run Duration"}},
		{"flex 7 days", CapacityRequest{Mode: CapacityFlexStart, Generation: "v6e", MaxRunDuration: "168h"}, nil},
		{"flex too long", CapacityRequest{Mode: CapacityFlexStart, Generation: "v5e", MaxRunDuration: "169h"}, []string{"max_run_duration: Max Run Duration Too Long"}},
		{"flex on v4", CapacityRequest{Mode: CapacityFlexStart, Generation: "v4", MaxRunDuration: "1h"}, []string{"mode: Flex-Start Not Offered for This Generation"}},
		// The flex-start page: "You can only request Flex-start TPU v6e and v5e".
		{"flex on v5p", CapacityRequest{Mode: CapacityFlexStart, Generation: "v5p", MaxRunDuration: "1h"}, []string{"mode: Flex-Start Not Offered for This Generation"}},
		{"run on spot", CapacityRequest{Mode: CapacitySpot, MaxRunDuration: "1h"}, []string{"max_run_duration: Max Run Duration Needs Flex-Start"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := c.CheckCapacity(tc.req)
			var got []string
			for _, f := range fs {
				got = append(got, f.Attribute+": "+f.Summary)
				if f.Source == "" || !strings.HasPrefix(f.Source, "https://cloud.google.com/") {
					t.Errorf("%s: source %q", f.Summary, f.Source)
				}
				if f.Severity != SeverityError {
					t.Errorf("%s: severity %s", f.Summary, f.Severity)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("findings = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCapacityModesHaveSources(t *testing.T) {
	t.Parallel()
	c := Default()
	names := c.CapacityModeNames()
	if strings.Join(names, ",") != "on-demand,spot,reserved,flex-start" {
		t.Fatalf("modes = %v", names)
	}
	for _, n := range names {
		m, _ := c.CapacityMode(n)
		if m.Source == "" || m.Summary == "" || m.Queued != (n != CapacityOnDemand) {
			t.Errorf("mode %+v", m)
		}
	}
}

// TestFlexStartZones: the zones the flex-start page lists for a generation
// plan clean; another well-formed zone is a warning naming them.
func TestFlexStartZones(t *testing.T) {
	t.Parallel()
	c := Default()
	mustNoFindings(t, "v6e in the listed zones", c.FlexStartZones("v6e", []string{"asia-northeast1-b", "us-east5-a"}))
	mustNoFindings(t, "v5e in the listed zones", c.FlexStartZones("v5e", []string{"us-west4-a", "us-central1-a"}))
	mustNoFindings(t, "a generation without flex-start", c.FlexStartZones("v5p", []string{"us-east5-a"}))
	mustNoFindings(t, "a malformed zone is the zone check's", c.FlexStartZones("v6e", []string{"US-EAST5-A"}))
	want := Findings{atIndex(warnAt(AttrZones, "us-central1-b", "Zone Not Listed for Flex-Start",
		`The flex-start page lists v6e flex-start TPUs only in asia-northeast1-b and us-east5-a, not in "us-central1-b". `+c.FlexStart().ZonesDecision,
		"https://cloud.google.com/tpu/docs/request-using-flex-start", "asia-northeast1-b", "us-east5-a"), 1)}
	if d := diffFindings(want, c.FlexStartZones("v6e", []string{"us-east5-a", "us-central1-b"})); d != "" {
		t.Errorf("v6e in us-central1-b (-want +got):\n%s", d)
	}
}

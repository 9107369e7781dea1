// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"testing"
)

func TestPoolProvisioning(t *testing.T) {
	t.Parallel()
	c := Default()
	ok := PoolProvisioningQuery{Autoscaling: true, GKEVersion: "1.33.2-gke.1000000"}
	with := func(f func(*PoolProvisioningQuery)) PoolProvisioningQuery { q := ok; f(&q); return q }
	for _, tc := range []struct {
		name string
		q    PoolProvisioningQuery
		want []string // "attribute: summary", in order
	}{
		{"neither", PoolProvisioningQuery{Spot: true}, nil},
		{"flex gpu", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.MaxRunDuration = true, "24h" }), nil},
		{"flex 7 days", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.MaxRunDuration = true, "168h" }), nil},
		{"flex 8 days", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.MaxRunDuration = true, "192h" }),
			[]string{"max_run_duration: Max Run Duration Too Long"}},
		{"bad duration", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.MaxRunDuration = true, "soon" }),
			[]string{"max_run_duration: Invalid Duration"}},
		{"flex old gke", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.GKEVersion = true, "1.32.1-gke.100" }),
			[]string{"gke_version: Flex-start Needs a Newer GKE"}},
		{"flex tpu needs 1.33", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.TPU, q.GKEVersion = true, true, "1.32.9-gke.1" }),
			[]string{"gke_version: Flex-start Needs a Newer GKE"}},
		{"flex v4", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.TPU, q.Generation = true, true, "v4" }),
			[]string{"flex_start: Flex-Start Not Offered for This Generation"}},
		{"flex v6e", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.TPU, q.Generation = true, true, "v6e" }), nil},
		{"flex spot", with(func(q *PoolProvisioningQuery) { q.FlexStart, q.Spot = true, true }), []string{"spot: Flex-start Excludes Spot"}},
		{"queued fixed size", with(func(q *PoolProvisioningQuery) { q.Queued, q.Autoscaling, q.NodeCountSet = true, false, true }),
			[]string{"min_node_count: Queued provisioning Needs Autoscaling From Zero"}},
		{"queued min 1", with(func(q *PoolProvisioningQuery) { q.Queued, q.MinNodes = true, 1 }),
			[]string{"min_node_count: Queued provisioning Needs Autoscaling From Zero"}},
		{"queued reservation", with(func(q *PoolProvisioningQuery) { q.Queued, q.ReservationType = true, "ANY_RESERVATION" }),
			[]string{"reservation_affinity: Queued provisioning Consumes No Reservation"}},
		{"queued no reservation", with(func(q *PoolProvisioningQuery) { q.Queued, q.ReservationType = true, ReservationNone }), nil},
		{"queued auto-repair", with(func(q *PoolProvisioningQuery) { q.Queued, q.AutoRepair = true, true }),
			[]string{"auto_repair: Auto-Repair on a Queued Pool"}},
		{"queued old gke", with(func(q *PoolProvisioningQuery) { q.Queued, q.GKEVersion = true, "1.27.9-gke.1" }),
			[]string{"gke_version: Queued provisioning Needs a Newer GKE"}},
	} {
		var got []string
		for _, f := range c.PoolProvisioning(tc.q) {
			got = append(got, f.Attribute+": "+f.Summary)
			if f.Source == "" {
				t.Errorf("%s: finding %q has no source", tc.name, f.Summary)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

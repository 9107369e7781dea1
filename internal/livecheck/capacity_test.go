// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
	"context"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestCapacity reads quota and reservations from the emulator's Compute
// Engine API, as a plan does: one regions.get per region and one
// reservations.aggregatedList per project, however many queries.
func TestCapacity(t *testing.T) {
	t.Parallel()
	srv, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	srv.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8, Usage: 7})
	srv.SetQuota(emulator.Quota{Region: "us-central1", Metric: "PREEMPTIBLE_NVIDIA_L4_GPUS", Limit: 16})
	srv.SetReservation(emulator.Reservation{Zone: "us-central1-b", Name: "l4-full", MachineType: "g2-standard-8", Count: 2, InUseCount: 2})
	srv.SetReservation(emulator.Reservation{Zone: "us-central1-b", Name: "l4-free", MachineType: "g2-standard-8", Count: 4, InUseCount: 1})
	srv.SetReservation(emulator.Reservation{Zone: "us-central1-a", Name: "elsewhere", MachineType: "g2-standard-8", Count: 4})
	c := New(gcp.NewClients(gcp.Config{Project: "p", ComputeEndpoint: srv.ComputeEndpoint(), AccessToken: "t"}))
	cat := catalog.Default()
	ctx := context.Background()
	base := CapacityQuery{Project: "p", Region: "us-central1", Accelerator: "nvidia-l4", MachineType: "g2-standard-8",
		Zones: []string{"us-central1-b"}}

	tests := map[string]struct {
		q                func(CapacityQuery) CapacityQuery
		short, provision bool
		missing, full    int
		reservations     int
		summaryContains  string
	}{
		"one free GPU, one a node": {q: func(q CapacityQuery) CapacityQuery { q.PerNode = 1; return q },
			provision: true, reservations: 2, summaryContains: "quota NVIDIA_L4_GPUS in us-central1: limit 8, usage 7, 1 free"},
		"two GPUs a node do not fit": {q: func(q CapacityQuery) CapacityQuery { q.PerNode = 2; return q },
			short: true, reservations: 2, summaryContains: "1 free, 2 GPUs a node"},
		"Spot has its own quota": {q: func(q CapacityQuery) CapacityQuery { q.PerNode = 2; q.Spot = true; return q },
			provision: true, reservations: 2, summaryContains: "PREEMPTIBLE_NVIDIA_L4_GPUS in us-central1: limit 16, usage 0"},
		"a named reservation that is full": {q: func(q CapacityQuery) CapacityQuery {
			q.PerNode = 1
			q.SpecificReservations = []string{"l4-full"}
			return q
		}, full: 1, reservations: 2, summaryContains: "2 matching reservation(s) with 3 free VM(s)"},
		"a named reservation in another zone is missing": {q: func(q CapacityQuery) CapacityQuery {
			q.PerNode = 1
			q.SpecificReservations = []string{"elsewhere", "l4-free"}
			return q
		}, missing: 1, reservations: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := c.Capacity(ctx, cat, "zones", tc.q(base))
			if got.QuotaShort != tc.short || got.CanProvision() != tc.provision || len(got.MissingReservations) != tc.missing ||
				len(got.FullReservations) != tc.full || len(got.Reservations) != tc.reservations {
				t.Errorf("got short %v, can provision %v, missing %v, full %v, %d reservations; want %v, %v, %d, %d, %d",
					got.QuotaShort, got.CanProvision(), got.MissingReservations, got.FullReservations, len(got.Reservations),
					tc.short, tc.provision, tc.missing, tc.full, tc.reservations)
			}
			if !got.QuotaChecked || !strings.Contains(got.Summary, tc.summaryContains) {
				t.Errorf("summary %q (checked %v), want it to contain %q", got.Summary, got.QuotaChecked, tc.summaryContains)
			}
		})
	}
	counters := srv.Counters()
	if n := counters[emulator.MethodComputeRegionsGet]; n != 1 {
		t.Errorf("regions.get called %d times for one region, want once", n)
	}
	if n := counters[emulator.MethodComputeReservationsAggregatedList]; n != 1 {
		t.Errorf("reservations.aggregatedList called %d times for one project, want once", n)
	}
}

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

// benchTier is one tier of the benchmark's plan.
type benchTier struct {
	need   Need
	region string
	zones  []string
	spot   bool
}

// planTiers is the flagship example's tiers (v6e TPU, A100 80GB, Spot L4),
// with each repeated in a second region and zone, as a plan of two
// accel_fallback_nodepools resources would ask.
func planTiers(cat *catalog.Catalog) []benchTier {
	var out []benchTier
	for _, r := range []struct{ region, zone string }{{"us-central1", "us-central1-b"}, {"us-east5", "us-east5-a"}} {
		out = append(out,
			benchTier{need: TPUNeed(cat, "ct6e-standard-4t", "2x2"), region: r.region, zones: []string{r.zone}},
			benchTier{need: GPUNeed(cat, "a2-ultragpu-1g", "", 0), region: r.region, zones: []string{r.zone}},
			benchTier{need: GPUNeed(cat, "g2-standard-8", "", 0), region: r.region, zones: []string{r.zone}, spot: true},
		)
	}
	return out
}

// checkPlan runs the live zone and capacity checks of every tier, as one
// plan does, with a checker of its own (a plan's cache).
func checkPlan(ctx context.Context, c *Checker, cat *catalog.Catalog, tiers []benchTier) {
	for _, t := range tiers {
		if !c.ComputeConfigured("p") {
			continue
		}
		_, _ = c.PoolZones(ctx, t.need.Pool("p", t.region, t.zones))
		c.Capacity(ctx, cat, catalog.AttrNodeLocations, CapacityQuery{Project: "p", Region: t.region, Accelerator: t.need.Accelerator,
			Spot: t.spot, PerNode: t.need.PerNode, MachineType: t.need.MachineType, Zones: t.zones})
	}
}

// computeCalls sums the emulator's Compute Engine call counters.
func computeCalls(srv *emulator.Server) int64 {
	var n int64
	for m, v := range srv.Counters() {
		if strings.HasPrefix(m, "compute.") {
			n += v
		}
	}
	return n
}

// BenchmarkPlanCapacityChecks measures what the live capacity checks add
// to a plan against the emulator: "offline" makes no call (neither
// credentials nor a Compute Engine endpoint), "live" asks quotas, reservations and zone offers. It
// reports the Compute Engine calls per plan and fails if a plan makes more
// than one call per distinct (API, region or zone, or name) it asks about:
// one regions.get per region, one reservations.aggregatedList per project,
// one machine-type and one accelerator-type lookup per name.
func BenchmarkPlanCapacityChecks(b *testing.B) {
	srv, err := emulator.Start(emulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	srv.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_A100_80GB_GPUS", Limit: 0})
	srv.SetQuota(emulator.Quota{Region: "us-central1", Metric: "PREEMPTIBLE_NVIDIA_L4_GPUS", Limit: 16})
	srv.SetReservation(emulator.Reservation{Zone: "us-central1-b", Name: "l4", MachineType: "g2-standard-8", Count: 2})
	cat := catalog.Default()
	tiers := planTiers(cat)
	regions, names := map[string]bool{}, map[string]bool{}
	for _, t := range tiers {
		regions[t.region] = true
		names["machineType/"+t.need.MachineType] = true
		if t.need.GPUType != "" {
			names["acceleratorType/"+t.need.GPUType] = true
		}
	}
	bound := int64(len(regions) + 1 + len(names))
	ctx := context.Background()
	for _, mode := range []struct {
		name     string
		endpoint string
	}{{"offline", ""}, {"live", srv.ComputeEndpoint()}} {
		b.Run(mode.name, func(b *testing.B) {
			cfg := gcp.Config{Project: "p"}
			if mode.endpoint != "" {
				cfg.ComputeEndpoint, cfg.AccessToken = mode.endpoint, "t"
			}
			clients := gcp.NewClients(cfg)
			before := computeCalls(srv)
			b.ResetTimer()
			for range b.N {
				checkPlan(ctx, New(clients), cat, tiers)
			}
			b.StopTimer()
			perPlan := float64(computeCalls(srv)-before) / float64(b.N)
			b.ReportMetric(perPlan, "calls/plan")
			b.ReportMetric(float64(bound), "distinct-keys")
			if perPlan > float64(bound) {
				b.Fatalf("%.1f Compute Engine calls per plan, more than the %d distinct (API, region or name) keys it asks about", perPlan, bound)
			}
			if mode.endpoint == "" && perPlan != 0 {
				b.Fatalf("an offline plan made %.1f calls", perPlan)
			}
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// BenchmarkCreatePools measures the create path of an apply (the steps the
// resource runs for new tiers) against the emulator, with every pool create
// taking a fixed time. It reports the wall time per apply relative to the
// ideal: the sum of the create durations when GKE serializes pool creates,
// the longest one when it runs them concurrently ("x-ideal", 1.0 is ideal;
// polling and retry backoff add the rest), and the GKE API calls per apply.
func BenchmarkCreatePools(b *testing.B) {
	const createTime = 100 * time.Millisecond
	for _, serialize := range []bool{true, false} {
		for _, n := range []int{2, 4} {
			mode := "concurrent"
			ideal := createTime
			if serialize {
				mode = "serialized"
				ideal = time.Duration(n) * createTime
			}
			b.Run(fmt.Sprintf("%s/pools=%d", mode, n), func(b *testing.B) {
				sc := emulator.Default()
				sc.SerializePoolCreates = serialize
				sc.Durations.PoolCreate = createTime
				srv, err := emulator.Start(emulator.Options{Scenario: sc})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = srv.Close() })
				clients := gcp.NewClients(gcp.Config{
					ContainerEndpoint: srv.ContainerEndpoint(),
					Polling:           gcp.Polling{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 1.5},
				})
				cluster := gcp.ClusterID("bench", "us-central1", "serving")
				specs := make([]tierSpec, n)
				for i := range specs {
					s, fs := derive(catalog.Default(), tierInput{
						Name: fmt.Sprintf("pool-%d", i), MachineType: "g2-standard-4", GPUType: "nvidia-l4",
						Locations: []string{"us-central1-a"}, AutoRepair: true, AutoUpgrade: true,
					}, "bench", "")
					if fs.HasErrors() {
						b.Fatal(fs)
					}
					specs[i] = s
				}
				ctx := context.Background()
				var elapsed time.Duration
				var calls int64
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					srv.Reset()
					ops, err := newPoolOps(ctx, clients, gcp.NewLimiter(poolConcurrency), cluster)
					if err != nil {
						b.Fatal(err)
					}
					steps := planSteps(specs, nil, nil, nil)
					b.StartTimer()
					start := time.Now()
					failed := ops.execute(ctx, steps)
					elapsed += time.Since(start)
					b.StopTimer()
					if len(failed) > 0 {
						b.Fatalf("creates failed: %v", failed)
					}
					for _, c := range srv.Counters() {
						calls += c
					}
				}
				b.ReportMetric(float64(elapsed)/float64(b.N)/float64(ideal), "x-ideal")
				b.ReportMetric(float64(calls)/float64(b.N), "calls/apply")
			})
		}
	}
}

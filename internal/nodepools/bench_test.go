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
// taking createTime, long next to the poll interval so that the engine is
// measured rather than the polling granularity. The emulator enforces GKE's
// quota of gcp.OperationsPerCluster concurrent operations per cluster.
//
// It reports the wall time per apply relative to the ideal ("x-ideal", 1.0
// is ideal): GKE's own operation time, the sum of the create durations when
// GKE serializes pool creates, else the longest create per round of at most
// gcp.OperationsPerCluster operations. It also reports the GKE API calls per apply.
// Any failed create fails the benchmark.
//
// Run it with -benchtime=1x: one apply of six serialized pools takes 12 s.
func BenchmarkCreatePools(b *testing.B) {
	const createTime = 2 * time.Second
	poll := gcp.Polling{Initial: 20 * time.Millisecond, Max: 50 * time.Millisecond, Multiplier: 1.5}
	for _, serialize := range []bool{true, false} {
		for _, n := range []int{1, 3, 6} {
			mode := "concurrent"
			rounds := (n + gcp.OperationsPerCluster - 1) / gcp.OperationsPerCluster
			if serialize {
				mode = "serialized"
				rounds = n
			}
			ideal := time.Duration(rounds) * createTime
			b.Run(fmt.Sprintf("%s/pools=%d", mode, n), func(b *testing.B) {
				sc := emulator.Default()
				sc.SerializePoolCreates = serialize
				sc.MaxConcurrentOperationsPerCluster = gcp.OperationsPerCluster
				sc.Durations.PoolCreate = createTime
				srv, err := emulator.Start(emulator.Options{Scenario: sc})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = srv.Close() })
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
					// New clients, so that each apply starts with the cluster's full limit.
					clients := gcp.NewClients(gcp.Config{ContainerEndpoint: srv.ContainerEndpoint(), Polling: poll})
					ops, err := newPoolOps(ctx, catalog.Default(), clients, cluster)
					if err != nil {
						b.Fatal(err)
					}
					steps := planSteps(specs, nil, nil, nil)
					b.StartTimer()
					start := time.Now()
					failed := ops.execute(ctx, steps, nil)
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

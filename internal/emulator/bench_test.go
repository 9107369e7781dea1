// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"testing"
	"time"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
)

// BenchmarkTPUNodesGet measures loopback requests per second of nodes.get
// through the real tpu/v2 client, with parallel callers.
func BenchmarkTPUNodesGet(b *testing.B) {
	srv, err := Start(Options{Scenario: instant()})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = srv.Close() }()
	ctx := context.Background()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(srv.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		b.Fatal(err)
	}
	parent := zoneParent("us-central1-b")
	if _, err := svc.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-8", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("bench").Do(); err != nil {
		b.Fatal(err)
	}
	name := parent + "/nodes/bench"
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := svc.Projects.Locations.Nodes.Get(name).Do(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkNodePoolCreateDelete measures a node-pool create and delete
// cycle (two operations, zero durations) through the real container/v1
// client.
func BenchmarkNodePoolCreateDelete(b *testing.B) {
	srv, err := Start(Options{Scenario: instant()})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = srv.Close() }()
	svc, err := container.NewService(context.Background(), option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		b.Fatal(err)
	}
	pools := svc.Projects.Locations.Clusters.NodePools
	b.ResetTimer()
	for range b.N {
		if _, err := pools.Create(serving, &container.CreateNodePoolRequest{NodePool: gpuPool("bench")}).Do(); err != nil {
			b.Fatal(err)
		}
		if _, err := pools.Delete(serving + "/nodePools/bench").Do(); err != nil {
			b.Fatal(err)
		}
	}
}

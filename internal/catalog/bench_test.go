// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import "testing"

// BenchmarkLoad measures the first-use cost: decoding and indexing the
// embedded data, as Default does once.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(catalogJSON)))
	for b.Loop() {
		if _, err := load(catalogJSON); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAccelerator(b *testing.B) {
	c := Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := c.Accelerator("v5litepod-16"); len(fs) > 0 {
			b.Fatal(fs)
		}
	}
}

func BenchmarkAcceleratorInvalid(b *testing.B) {
	c := Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := c.Accelerator("V6E-4"); !fs.HasErrors() {
			b.Fatal("no error")
		}
	}
}

func BenchmarkResolveRuntime(b *testing.B) {
	c := Default()
	q := RuntimeQuery{AcceleratorType: "v6e-16", Framework: "tensorflow", Zones: []string{"us-east5-b"}, ForTPUAPI: true}
	b.ReportAllocs()
	for b.Loop() {
		if r := c.ResolveRuntime(q); len(r.Findings) > 0 {
			b.Fatal(r.Findings)
		}
	}
}

func BenchmarkTPUNodePool(b *testing.B) {
	c := Default()
	q := TPUPoolQuery{AcceleratorType: "v6e-16", NodeLocations: []string{"us-east5-b"}, NodeCount: 4, GKEVersion: "1.32.1-gke.1000"}
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := c.TPUNodePool(q); len(fs) > 0 {
			b.Fatal(fs)
		}
	}
}

func BenchmarkGPUNodePool(b *testing.B) {
	c := Default()
	q := GPUPoolQuery{MachineType: "a3-highgpu-8g", DriverVersion: "LATEST"}
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := c.GPUNodePool(q); len(fs) > 0 {
			b.Fatal(fs)
		}
	}
}

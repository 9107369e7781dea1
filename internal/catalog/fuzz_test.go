// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strconv"
	"strings"
	"testing"
)

// Fuzz targets for every parser of user strings. The seeds run in every
// `go test`; explore further with e.g.
//
//	go test ./internal/catalog -run '^$' -fuzz FuzzAccelerator -fuzztime 30s

func FuzzAccelerator(f *testing.F) {
	for _, s := range []string{"v6e-4", "v5litepod-16", "v4-8", "tpu7x-8", "V6E-4", "v6e4", "v5e-4", "v5p-100", "v5p-16384", "", " v2-8", "v6e-04", "tpu7x-2", "x-1", "-", "v4-999999"} {
		f.Add(s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, s string) {
		prefix, n, ok := parseAcceleratorType(s)
		if ok && prefix+"-"+itoa(n) != s {
			t.Fatalf("parseAcceleratorType(%q) = %q, %d does not round-trip", s, prefix, n)
		}
		a, fs := c.Accelerator(s)
		checkFindings(t, fs)
		if !fs.HasErrors() {
			if a.Type != s || a.Chips <= 0 || a.Hosts <= 0 || a.Hosts*a.ChipsPerHost != a.Chips {
				t.Fatalf("Accelerator(%q) = %+v without errors", s, a)
			}
		} else if a != (Accelerator{}) {
			t.Fatalf("Accelerator(%q) returned %+v with errors", s, a)
		}
	})
}

func FuzzParseTopology(f *testing.F) {
	for _, s := range []string{"2x4", "2x2x1", "16x16x24", "4x2", "2X4", "0x1", "1x1x1x1", "", "x", "9999x9999x9999"} {
		f.Add(s)
	}
	c := Default()
	v5p := c.gens["v5p"]
	v6e := c.gens["v6e"]
	f.Fuzz(func(t *testing.T, s string) {
		dims, ok := parseTopology(s)
		if ok {
			if formatTopology(dims) != s {
				t.Fatalf("parseTopology(%q) = %v does not round-trip", s, dims)
			}
			for _, d := range dims {
				if d <= 0 {
					t.Fatalf("parseTopology(%q) = %v has a non-positive dimension", s, dims)
				}
			}
		}
		for _, g := range []*Generation{v5p, v6e} {
			chips, fs := c.checkTopology(g, s)
			checkFindings(t, fs)
			if !fs.HasErrors() && (!ok || chips != product(dims)) {
				t.Fatalf("checkTopology(%s, %q) = %d chips without errors", g.Name, s, chips)
			}
		}
		_, fs := c.TPUNodePool(TPUPoolQuery{MachineType: "ct6e-standard-4t", Topology: s})
		checkFindings(t, fs)
	})
}

func FuzzParseGKEVersion(f *testing.F) {
	for _, s := range []string{"1.31.2-gke.1115000", "1.31", "1.31.2", "1.31-gke.1", "v1.31", "", "1..2", "latest", "1.34.0-gke.2201000"} {
		f.Add(s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := parseGKEVersion(s)
		if ok {
			if v.String() != s {
				t.Fatalf("parseGKEVersion(%q) = %v does not round-trip", s, v)
			}
			if compareGKE(v, v) != 0 {
				t.Fatalf("%q is not equal to itself", s)
			}
		}
		checkFindings(t, c.checkGKEVersion(c.gens["tpu7x"], s))
	})
}

func FuzzRuntimeVersion(f *testing.F) {
	for _, s := range []string{"tpu-vm-tf-2.16.1-pjrt", "tpu-vm-tf-2.16.0-pod-pjrt", "tpu-vm-tf-2.10.0-pod-v4", "tpu-vm-tf-2.16.1-pjrt-pod",
		"tpu-vm-tf-2.18.0-pjrt-v5e-and-v6", "tpu-ubuntu2204-base", "v2-alpha-tpuv6e", "tpu-vm-tf-", "tpu-vm-tf-9.9.9", "TPU-VM-TF-2.16.1", ""} {
		f.Add(s, "v6e-16", "tensorflow", "2.16.1")
	}
	f.Add("v2-alpha-tpuv5", "v5p-8", "jax", "0.4.37rc1")
	f.Add("", "v4-16", "tensorflow", "2.10")
	c := Default()
	extras := c.tfExtras()
	f.Fuzz(func(t *testing.T, runtime, accel, framework, fwVersion string) {
		if n, ok := parseTFName(runtime, extras); ok && n.String() != runtime {
			t.Fatalf("parseTFName(%q) does not round-trip: %q", runtime, n.String())
		}
		if v, ok := parseVersion(fwVersion); ok && v.String() != fwVersion {
			t.Fatalf("parseVersion(%q) does not round-trip: %q", fwVersion, v.String())
		}
		r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: accel, Framework: framework, FrameworkVersion: fwVersion,
			RuntimeVersion: runtime, Zones: []string{accel, runtime}})
		checkFindings(t, r.Findings)
		if r.Reason == "" {
			t.Fatal("empty reason")
		}
	})
}

func FuzzZone(f *testing.F) {
	for _, s := range []string{"us-central1-a", "us-central1-ai1a", "US-CENTRAL1-A", "us-central1", "europe-west4-b", "", "a-b1-c", "us-west2-a"} {
		f.Add(s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, s string) {
		region, ok := zoneRegion(s)
		if ok && !strings.HasPrefix(s, region+"-") {
			t.Fatalf("zoneRegion(%q) = %q is not a prefix", s, region)
		}
		fs := c.checkZones(c.gens["v6e"], "v6e-4", []string{s}, AttrZones)
		checkFindings(t, fs)
		if !ok && !fs.HasErrors() {
			t.Fatalf("malformed zone %q has no error", s)
		}
	})
}

func FuzzGPUNodePool(f *testing.F) {
	f.Add("g2-standard-4", "nvidia-l4", 1, "LATEST")
	f.Add("n1-standard-8", "nvidia-tesla-t4", 3, "latest")
	f.Add("A2-HIGHGPU-1G", "", -1, "")
	c := Default()
	f.Fuzz(func(t *testing.T, machine, gpu string, count int, driver string) {
		_, fs := c.GPUNodePool(GPUPoolQuery{MachineType: machine, GPUType: gpu, GPUCount: count, DriverVersion: driver})
		checkFindings(t, fs)
	})
}

// checkFindings asserts the invariants every finding keeps.
func checkFindings(t *testing.T, fs Findings) {
	t.Helper()
	for _, f := range fs {
		if f.Attribute == "" || f.Summary == "" || f.Detail == "" || f.Source == "" {
			t.Fatalf("incomplete finding %+v", f)
		}
		if f.Severity != SeverityError && f.Severity != SeverityWarning {
			t.Fatalf("bad severity in %+v", f)
		}
		if !strings.HasSuffix(f.Detail, ".") && !strings.HasSuffix(f.Detail, "?") {
			t.Fatalf("detail is not a sentence: %q", f.Detail)
		}
		quoted := strconv.Quote(f.Value)
		if f.Value != "" && f.Attribute != AttrFramework && !strings.Contains(f.Detail, f.Value) && !strings.Contains(f.Detail, quoted) {
			// The offending value appears in the detail, except for framework support findings that name the framework.
			t.Fatalf("detail %q does not mention the value %q", f.Detail, f.Value)
		}
	}
}

func FuzzComputeEngineImage(f *testing.F) {
	for _, s := range []string{imageV6, imageV7, "global/images/x", "https://www.googleapis.com/compute/v1/projects/p/global/images/i",
		"v2-alpha-tpuv6e", "tpu-vm-tf-2.18.0-pjrt", "projects/p/global/images/family/", "", "projects/P/global/images/x"} {
		f.Add(s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, s string) {
		if ref, ok := parseImageRef(s); ok && (ref.name == "" || !strings.HasSuffix(s, ref.name)) {
			t.Fatalf("parseImageRef(%q) = %+v", s, ref)
		}
		for _, at := range []string{"v6e-8", "tpu7x-8", ""} {
			r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, RuntimeVersion: s, ForComputeEngine: true})
			checkFindings(t, r.Findings)
			if s != "" && r.RuntimeVersion != s {
				t.Fatalf("ResolveRuntime(%q, %q) chose %q instead of the given image", at, s, r.RuntimeVersion)
			}
		}
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseAcceleratorType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		prefix string
		size   int
		ok     bool
	}{
		{"v6e-4", "v6e", 4, true},
		{"v5litepod-256", "v5litepod", 256, true},
		{"tpu7x-8", "tpu7x", 8, true},
		{"v2-0", "v2", 0, true},
		{"v6e-04", "", 0, false},
		{"V6E-4", "", 0, false},
		{"v6e4", "", 0, false},
		{"-4", "", 0, false},
		{"v6e-", "", 0, false},
		{"v6e-1234567", "", 0, false},
		{"v6e--4", "", 0, false},
		{"v6e-4 ", "", 0, false},
	}
	for _, tt := range tests {
		p, n, ok := parseAcceleratorType(tt.in)
		if p != tt.prefix || n != tt.size || ok != tt.ok {
			t.Errorf("parseAcceleratorType(%q) = %q, %d, %v; want %q, %d, %v", tt.in, p, n, ok, tt.prefix, tt.size, tt.ok)
		}
	}
}

func TestParseTopology(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []int
	}{
		{"2x4", []int{2, 4}},
		{"2x2x1", []int{2, 2, 1}},
		{"16x16x24", []int{16, 16, 24}},
		{"2", nil},
		{"2x2x2x2", nil},
		{"2X4", nil},
		{"0x4", nil},
		{"02x4", nil},
		{"2x", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got, ok := parseTopology(tt.in)
		if ok != (tt.want != nil) || !cmp.Equal(got, tt.want) {
			t.Errorf("parseTopology(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
		}
	}
}

func TestParseGKEVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"1.31.2-gke.1115000", "1.31.2-gke.1115000", 0},
		{"1.31.2-gke.1114999", "1.31.2-gke.1115000", -1},
		{"1.31.3", "1.31.2-gke.1115000", 1},
		{"1.31.2", "1.31.2-gke.1115000", 0}, // same precision only
		{"1.31", "1.31.4-gke.1256000", 0},
		{"1.30", "1.31.4-gke.1256000", -1},
		{"2.0", "1.99.99-gke.9", 1},
	}
	for _, tt := range tests {
		a, okA := parseGKEVersion(tt.a)
		b, okB := parseGKEVersion(tt.b)
		if !okA || !okB {
			t.Fatalf("parse %q/%q failed", tt.a, tt.b)
		}
		if got := compareGKE(a, b); got != tt.want {
			t.Errorf("compareGKE(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if a.String() != tt.a {
			t.Errorf("round trip %q -> %q", tt.a, a.String())
		}
	}
	for _, bad := range []string{"", "1", "v1.31", "1.31-gke.5", "1.31.2-gke.", "1.31.2-gke.x", "1.31.2.4", "latest", "1..2"} {
		if _, ok := parseGKEVersion(bad); ok {
			t.Errorf("parseGKEVersion(%q) succeeded", bad)
		}
	}
}

func TestParseVersion(t *testing.T) {
	t.Parallel()
	good := map[string][3]int{
		"2.5":                {2, 5, 0},
		"0.4.37":             {0, 4, 37},
		"2.9.0rc1":           {2, 9, 0},
		"0.4.37.dev20240101": {0, 4, 37},
		"2.5+cpu":            {2, 5, 0},
		"3":                  {3, 0, 0},
	}
	for in, want := range good {
		v, ok := parseVersion(in)
		if !ok || v.nums != want || v.String() != in {
			t.Errorf("parseVersion(%q) = %+v, %v; want %v", in, v, ok, want)
		}
	}
	for _, bad := range []string{"", "v2.5", "2.", ".5", "2..5", "2.5 ", "2.5_1", "latest", "2.5-", "2.5+", "2.5.+x", "2.5-.x"} {
		if _, ok := parseVersion(bad); ok {
			t.Errorf("parseVersion(%q) succeeded", bad)
		}
	}
	a, _ := parseVersion("2.4.9")
	b, _ := parseVersion("2.5")
	if compareVersion(a, b) != -1 || compareVersion(b, a) != 1 || compareVersion(b, b) != 0 {
		t.Error("compareVersion ordering is wrong")
	}
}

func TestParseTFName(t *testing.T) {
	t.Parallel()
	extras := []string{"-v5e-and-v6"}
	tests := []struct {
		in   string
		want tfName
		ok   bool
	}{
		{"tpu-vm-tf-2.16.1-pjrt", tfName{version: "2.16.1", api: "pjrt"}, true},
		{"tpu-vm-tf-2.16.0-pod-pjrt", tfName{version: "2.16.0", pod: true, api: "pjrt"}, true},
		{"tpu-vm-tf-2.15.1-se", tfName{version: "2.15.1", api: "se"}, true},
		{"tpu-vm-tf-2.10.0-pod-v4", tfName{version: "2.10.0", pod: true, v4: true}, true},
		{"tpu-vm-tf-2.14.1", tfName{version: "2.14.1"}, true},
		{"tpu-vm-tf-2.18.0-pod-pjrt-v5e-and-v6", tfName{version: "2.18.0", pod: true, api: "pjrt", extra: "-v5e-and-v6"}, true},
		{"tpu-vm-tf-2.16.1-pjrt-pod", tfName{}, false},
		{"tpu-vm-tf-2.16-pjrt", tfName{}, false},
		{"tpu-vm-tf-2.16.1.0", tfName{}, false},
		{"tpu-vm-tf-2.16.1-PJRT", tfName{}, false},
		{"tpu-vm-tf-", tfName{}, false},
		{"tpu-vm-base", tfName{}, false},
	}
	for _, tt := range tests {
		got, ok := parseTFName(tt.in, extras)
		if ok != tt.ok {
			t.Errorf("parseTFName(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.version != tt.want.version || got.pod != tt.want.pod || got.api != tt.want.api || got.v4 != tt.want.v4 || got.extra != tt.want.extra {
			t.Errorf("parseTFName(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if got.String() != tt.in {
			t.Errorf("round trip %q -> %q", tt.in, got.String())
		}
	}
}

func TestZoneRegion(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"us-central1-a":             "us-central1",
		"europe-west4-a":            "europe-west4",
		"northamerica-northeast1-b": "northamerica-northeast1",
		"us-central1-ai1a":          "us-central1",
		"us-central1-ai1":           "us-central1",
	}
	for z, want := range good {
		if got, ok := zoneRegion(z); !ok || got != want {
			t.Errorf("zoneRegion(%q) = %q, %v; want %q", z, got, ok, want)
		}
	}
	for _, bad := range []string{"", "us-central1", "US-CENTRAL1-A", "us-central-a", "us-central1-ab", "us-central1-ai", "us-central1-aia", "us-1-a", "us-central1-a-b", "-central1-a"} {
		if _, ok := zoneRegion(bad); ok {
			t.Errorf("zoneRegion(%q) succeeded", bad)
		}
	}
}

func TestDistanceAndNearest(t *testing.T) {
	t.Parallel()
	dist := []struct {
		a, b string
		want int
	}{{"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"JAX", "jax", 0}, {"v6e4", "v6e-4", 1}, {"ü", "u", 1}}
	for _, tt := range dist {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	cands := []string{"tpu-ubuntu2204-base", "v2-alpha-tpuv6e", "v2-alpha-tpuv5", "v2-alpha-tpuv5-lite"}
	if got, want := nearest("v2-alpha-tpuv5e", cands), []string{"v2-alpha-tpuv6e", "v2-alpha-tpuv5", "v2-alpha-tpuv5-lite"}; !cmp.Equal(got, want) {
		t.Errorf("nearest = %v, want %v", got, want)
	}
	if got := nearest("completely-unrelated-thing", cands); got != nil {
		t.Errorf("nearest for an unrelated value = %v, want none", got)
	}
	if got := nearest(strings.Repeat("x", 300), cands); got != nil {
		t.Errorf("nearest for a huge value = %v, want none", got)
	}
	if got, want := closestInts(3, []int{1, 4, 8, 16}), []int{4, 1, 8}; !cmp.Equal(got, want) {
		t.Errorf("closestInts = %v, want %v", got, want)
	}
	if got, want := closestInts(6, []int{8, 4}), []int{4, 8}; !cmp.Equal(got, want) {
		t.Errorf("closestInts tie = %v, want %v", got, want)
	}
	if !utf8.ValidString(didYouMean([]string{"a"})) || didYouMean(nil) != "" {
		t.Error("didYouMean")
	}
}

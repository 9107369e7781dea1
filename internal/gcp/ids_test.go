// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNodeID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"projects/p/locations/us-east5-a/nodes/n1", []string{"p", "us-east5-a", "n1"}, false},
		{"projects/my-proj/locations/europe-west4-a/nodes/v6e", []string{"my-proj", "europe-west4-a", "v6e"}, false},
		{"", nil, true},
		{"n1", nil, true},
		{"projects/p/locations/z/nodes/", nil, true},
		{"projects//locations/z/nodes/n", nil, true},
		{"projects/p/zones/z/nodes/n", nil, true},
		{"projects/p/locations/z/clusters/n", nil, true},
		{"projects/p/locations/z/nodes/n/extra", nil, true},
		{"/projects/p/locations/z/nodes/n", nil, true},
		{"projects/p/locations/z/nodes/n ", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			p, z, n, err := ParseNodeID(tt.in)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), nodeIDFormat) {
					t.Fatalf("want an error naming %q, got %v", nodeIDFormat, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, []string{p, z, n}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseClusterID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"projects/p/locations/us-east5/clusters/c1", []string{"p", "us-east5", "c1"}, false},
		{"projects/p/locations/us-east5-a/clusters/c1", []string{"p", "us-east5-a", "c1"}, false},
		{"p/us-east5/c1", nil, true},
		{"projects/p/locations/us-east5/clusters/c1/nodePools/np", nil, true},
		{"projects/p/locations//clusters/c1", nil, true},
		{"projects/p/locations/l/nodes/c1", nil, true},
		{"projects/p/locations/l/clusters/c\t1", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			p, l, c, err := ParseClusterID(tt.in)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), clusterIDFormat) {
					t.Fatalf("want an error naming %q, got %v", clusterIDFormat, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, []string{p, l, c}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseNodeID(f *testing.F) {
	for _, s := range []string{"projects/p/locations/z/nodes/n", "projects//locations/z/nodes/n", "", "////////"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, z, n, err := ParseNodeID(s)
		if err != nil {
			if !strings.Contains(err.Error(), nodeIDFormat) {
				t.Fatalf("error does not name the format: %v", err)
			}
			return
		}
		if got := NodeID(p, z, n); got != s {
			t.Fatalf("round trip: %q became %q", s, got)
		}
	})
}

func FuzzParseClusterID(f *testing.F) {
	for _, s := range []string{"projects/p/locations/l/clusters/c", "projects/p/locations/l/clusters/c/", "", "projects"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, l, c, err := ParseClusterID(s)
		if err != nil {
			if !strings.Contains(err.Error(), clusterIDFormat) {
				t.Fatalf("error does not name the format: %v", err)
			}
			return
		}
		if got := ClusterID(p, l, c); got != s {
			t.Fatalf("round trip: %q became %q", s, got)
		}
	})
}

func TestParseInstanceID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"projects/p/zones/us-central1-c/instances/tpu7x", []string{"p", "us-central1-c", "tpu7x"}, false},
		{"projects/p/locations/us-central1-c/nodes/tpu7x", nil, true},
		{"projects/p/zones/z/instances/", nil, true},
		{"projects/p/zones/z/instances/n/extra", nil, true},
		{"p/z/n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			p, z, n, err := ParseInstanceID(tt.in)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), instanceIDFormat) {
					t.Fatalf("want an error naming %q, got %v", instanceIDFormat, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, []string{p, z, n}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got := InstanceID(p, z, n); got != tt.in {
				t.Errorf("InstanceID = %q, want %q", got, tt.in)
			}
		})
	}
}

func TestParseCryptoKeyName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"projects/p/locations/us-central1/keyRings/r/cryptoKeys/k", []string{"p", "us-central1", "r", "k"}, false},
		{"projects/p/locations/global/keyRings/ring-1/cryptoKeys/disk_key", []string{"p", "global", "ring-1", "disk_key"}, false},
		{"", nil, true},
		{"k", nil, true},
		{"projects/p/locations/l/keyRings/r/cryptoKeys/", nil, true},
		{"projects/p/locations/l/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1", nil, true},
		{"projects/p/locations/l/keyRings/r/keys/k", nil, true},
		{"projects/p/locations/l/keyrings/r/cryptoKeys/k", nil, true},
		{"//cloudkms.googleapis.com/projects/p/locations/l/keyRings/r/cryptoKeys/k", nil, true},
		{"projects/p/locations/l/keyRings/r/cryptoKeys/k ", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			p, l, r, k, err := ParseCryptoKeyName(tt.in)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), CryptoKeyNameFormat) {
					t.Fatalf("want an error naming %q, got %v", CryptoKeyNameFormat, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, []string{p, l, r, k}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got := CryptoKeyName(p, l, r, k); got != tt.in {
				t.Errorf("CryptoKeyName = %q, want %q", got, tt.in)
			}
		})
	}
}

func TestCryptoKeyOfVersion(t *testing.T) {
	t.Parallel()
	const key = "projects/p/locations/l/keyRings/r/cryptoKeys/k"
	tests := []struct {
		in      string
		want    string
		version bool
	}{
		{key + "/cryptoKeyVersions/1", key, true},
		{key, key, false},
		{key + "/cryptoKeyVersions/", key + "/cryptoKeyVersions/", false},
		{key + "/cryptoKeyVersions/1/x", key + "/cryptoKeyVersions/1/x", false},
		{"k/cryptoKeyVersions/1", "k/cryptoKeyVersions/1", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, version := CryptoKeyOfVersion(tt.in)
		if got != tt.want || version != tt.version {
			t.Errorf("CryptoKeyOfVersion(%q) = %q, %v; want %q, %v", tt.in, got, version, tt.want, tt.version)
		}
	}
	if !SameCryptoKey(key, key+"/cryptoKeyVersions/3") || SameCryptoKey(key, key+"2") {
		t.Error("SameCryptoKey does not compare keys")
	}
}

func FuzzParseCryptoKeyName(f *testing.F) {
	for _, s := range []string{"projects/p/locations/l/keyRings/r/cryptoKeys/k", "projects/p/locations/l/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1", "", "////////"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if key, ok := CryptoKeyOfVersion(s); ok {
			if _, _, _, _, err := ParseCryptoKeyName(key); err != nil {
				t.Fatalf("CryptoKeyOfVersion(%q) returned a key that does not parse: %v", s, err)
			}
		}
		p, l, r, k, err := ParseCryptoKeyName(s)
		if err != nil {
			if !strings.Contains(err.Error(), CryptoKeyNameFormat) {
				t.Fatalf("error does not name the format: %v", err)
			}
			return
		}
		if got := CryptoKeyName(p, l, r, k); got != s {
			t.Fatalf("round trip: %q became %q", s, got)
		}
	})
}

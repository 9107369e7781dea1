// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

func TestParseImportID(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		id, project string
		want        string
		wantErr     string
	}{
		"full id":                              {id: "projects/p/locations/us-east5-a/nodes/vm", want: "projects/p/locations/us-east5-a/nodes/vm"},
		"full id ignores the provider project": {id: "projects/p/locations/z/nodes/vm", project: "other", want: "projects/p/locations/z/nodes/vm"},
		"project/zone/name":                    {id: "p/us-east5-a/vm", want: "projects/p/locations/us-east5-a/nodes/vm"},
		"zone/name":                            {id: "us-east5-a/vm", project: "p", want: "projects/p/locations/us-east5-a/nodes/vm"},
		"zone/name without a provider project": {id: "us-east5-a/vm", wantErr: "has no project"},
		"name alone":                           {id: "vm", project: "p", wantErr: "expected one of"},
		"empty":                                {id: "", project: "p", wantErr: "expected one of"},
		"bad full id":                          {id: "projects/p/zones/z/nodes/vm", wantErr: "expected one of"},
		"empty segment":                        {id: "p//vm", wantErr: "expected one of"},
		"white space":                          {id: "p/z /vm", wantErr: "expected one of"},
		"invalid name":                         {id: "p/z/VM_1", wantErr: "is not a TPU VM name"},
		"too many segments":                    {id: "a/b/c/d", wantErr: "expected one of"},
		"bytes that are not UTF-8":             {id: "p\xff/z/vm", wantErr: "not valid UTF-8"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := parseImportID(tc.id, tc.project)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseImportID(%q) error = %v, want one containing %q", tc.id, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("parseImportID(%q) = %q, %v; want %q", tc.id, got, err, tc.want)
			}
		})
	}
}

// FuzzParseImportID checks that any accepted import id is a valid node id
// whose parts round-trip, and that errors never echo unbounded input.
func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{"projects/p/locations/z/nodes/vm", "p/z/vm", "z/vm", "vm", "", "//", "projects/p/locations//nodes/vm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		got, err := parseImportID(id, "default-project")
		if err != nil {
			if !utf8.ValidString(err.Error()) {
				t.Errorf("error for %q is not valid UTF-8: %q", id, err)
			}
			// The id and one part of it, each shortened to gcp.MaxShownID
			// bytes, each byte quoted as up to four characters.
			if len(err.Error()) > 2*4*gcp.MaxShownID+300 {
				t.Errorf("error of %d bytes for an id of %d bytes", len(err.Error()), len(id))
			}
			return
		}
		p, z, n, perr := gcp.ParseNodeID(got)
		if perr != nil {
			t.Fatalf("parseImportID(%q) = %q, which is not a node id: %v", id, got, perr)
		}
		if !utf8.ValidString(got) {
			t.Errorf("parseImportID(%q) = %q, which is not valid UTF-8", id, got)
		}
		if gcp.NodeID(p, z, n) != got || !nameRE.MatchString(n) {
			t.Errorf("parseImportID(%q) = %q does not round-trip", id, got)
		}
	})
}

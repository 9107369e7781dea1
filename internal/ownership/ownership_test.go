// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package ownership

import (
	"regexp"
	"strings"
	"testing"
)

// labelValue is what the Cloud TPU API and Compute Engine accept as a label
// value: lowercase letters, digits, '-' and '_', at most 63 characters.
var labelValue = regexp.MustCompile(`^[a-z0-9_-]{0,63}$`)

func TestNewID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if len(id) != 2*idBytes || !labelValue.MatchString(id) {
			t.Fatalf("NewID() = %q, want %d lowercase hexadecimal digits", id, 2*idBytes)
		}
		if seen[id] {
			t.Fatalf("NewID() returned %q twice", id)
		}
		seen[id] = true
	}
}

func TestOwns(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		id     string
		labels map[string]string
		want   bool
	}{
		"own id":                          {id: "a1", labels: map[string]string{LabelKey: "a1"}, want: true},
		"another instance's id":           {id: "a1", labels: map[string]string{LabelKey: "b2"}},
		"no label":                        {id: "a1", labels: map[string]string{"team": "ml"}},
		"no labels at all":                {id: "a1"},
		"imported without label, none":    {id: "", labels: nil, want: true},
		"imported without label, labeled": {id: "", labels: map[string]string{LabelKey: "b2"}},
	}
	for name, tt := range tests {
		if got := Owns(tt.id, tt.labels); got != tt.want {
			t.Errorf("%s: Owns(%q, %v) = %v, want %v", name, tt.id, tt.labels, got, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	if got := Describe(nil); !strings.Contains(got, "has no accel-managed label") {
		t.Errorf("Describe(nil) = %q", got)
	}
	if got := Describe(map[string]string{LabelKey: "b2"}); !strings.Contains(got, `accel-managed = "b2"`) ||
		!strings.Contains(got, "another resource instance") {
		t.Errorf("Describe(labelled) = %q", got)
	}
}

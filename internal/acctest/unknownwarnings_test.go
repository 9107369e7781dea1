// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"reflect"
	"testing"
)

// TestKnownCases: every Unknown, nested ones included, becomes its value,
// and the cases given are left as they were.
func TestKnownCases(t *testing.T) {
	t.Parallel()
	in := []Case{{Name: "x", Body: map[string]any{
		"a": Unknown{Key: "v1", Value: "one"},
		"b": []any{Unknown{Key: "v2", Value: map[string]any{"c": Unknown{Key: "v3", Value: 3}}}},
		"d": map[string]any{"e": true},
	}}}
	got := KnownCases(in)
	want := map[string]any{"a": "one", "b": []any{map[string]any{"c": 3}}, "d": map[string]any{"e": true}}
	if !reflect.DeepEqual(got[0].Body, want) {
		t.Errorf("KnownCases = %#v, want %#v", got[0].Body, want)
	}
	if _, ok := in[0].Body["a"].(Unknown); !ok {
		t.Errorf("the case given was changed: %#v", in[0].Body)
	}
}

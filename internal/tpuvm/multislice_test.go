// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestSliceIDs(t *testing.T) {
	t.Parallel()
	id := "projects/p/locations/us-central1-a/nodes/vm"
	for count, want := range map[int64]string{
		0: id,
		1: id,
		3: id + "-0," + id + "-1," + id + "-2",
	} {
		if got := strings.Join(sliceIDs(id, count), ","); got != want {
			t.Errorf("sliceIDs(%d) = %s, want %s", count, got, want)
		}
	}
}

func TestDurationOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"7200s": "2h", "5400s": "1h30m", "90s": "1m30s", "3630s": "1h0m30s", "600s": "10m"} {
		if got, ok := durationOf(in); !ok || got != want {
			t.Errorf("durationOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := durationOf(""); ok {
		t.Error(`durationOf("") is ok`)
	}
}

func TestSameCapacity(t *testing.T) {
	t.Parallel()
	block := func(mode, wait, run string) types.Object {
		str := func(s string) types.String {
			if s == "" {
				return types.StringNull()
			}
			return types.StringValue(s)
		}
		return types.ObjectValueMust(schemaTypes().capacity.AttrTypes, map[string]attr.Value{
			"mode": str(mode), "reservation": types.StringNull(), "max_wait": str(wait), "max_run_duration": str(run),
		})
	}
	for _, tc := range []struct {
		name string
		a, b types.Object
		want bool
	}{
		{"equal", block("spot", "2h", ""), block("spot", "2h", ""), true},
		{"spelling of max_wait", block("spot", "120m", ""), block("spot", "2h", ""), true},
		{"spelling of max_run_duration", block("flex-start", "", "2h0m0s"), block("flex-start", "", "2h"), true},
		{"other wait", block("spot", "3h", ""), block("spot", "2h", ""), false},
		{"wait removed", block("spot", "", ""), block("spot", "2h", ""), false},
		{"other mode", block("reserved", "2h", ""), block("spot", "2h", ""), false},
		{"block removed", types.ObjectNull(schemaTypes().capacity.AttrTypes), block("spot", "", ""), false},
	} {
		if got := sameCapacity(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: sameCapacity = %v, want %v", tc.name, got, tc.want)
		}
	}
}

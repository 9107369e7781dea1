// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGarbageCollector(t *testing.T) {
	// Restore the test binary's settings, whatever a case did.
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	cases := []struct {
		name        string
		env         map[string]string
		tuned       bool
		wantPercent int
		wantLimit   int64
	}{
		{"neither set", nil, true, gcPercent, memoryLimit},
		{"empty values are unset", map[string]string{"GOGC": "", "GOMEMLIMIT": ""}, true, gcPercent, memoryLimit},
		{"GOGC set", map[string]string{"GOGC": "100"}, false, 100, math.MaxInt64},
		{"GOGC off", map[string]string{"GOGC": "off"}, false, 100, math.MaxInt64},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "2GiB"}, false, 100, math.MaxInt64},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The settings the runtime would have read from tc.env.
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			if got := TuneGarbageCollector(func(k string) string { return tc.env[k] }); got != tc.tuned {
				t.Errorf("TuneGarbageCollector = %v, want %v", got, tc.tuned)
			}
			if got := debug.SetGCPercent(100); got != tc.wantPercent {
				t.Errorf("GC percent = %d, want %d", got, tc.wantPercent)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
				t.Errorf("memory limit = %d, want %d", got, tc.wantLimit)
			}
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import "runtime/debug"

// Garbage collector settings of the provider process when the user sets
// neither GOGC nor GOMEMLIMIT.
//
// The provider keeps little between calls (a few MiB), while each plan call
// of the framework allocates a few MiB and throws them away, so with Go's
// default (GOGC=100, a collection whenever the heap doubles) it collects
// about once per call and a third of its CPU in a large plan is the
// collector's. Collecting when the heap has grown fivefold (400) instead cut
// the provider's CPU in a plan of 300 TPU VMs with state by about a third;
// the memory limit bounds what that costs: past it the collector runs as
// often as it must to stay under it (https://go.dev/doc/gc-guide).
const (
	gcPercent   = 400
	memoryLimit = 1 << 30
)

// TuneGarbageCollector applies gcPercent and memoryLimit unless the user set
// GOGC or GOMEMLIMIT, whose values, read by the Go runtime at start, are
// then left alone; it reports whether it changed them. getenv is os.Getenv.
func TuneGarbageCollector(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	return true
}

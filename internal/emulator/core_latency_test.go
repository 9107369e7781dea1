// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestLatency: a call waits out its method's latency before it is counted
// or served, side by side with calls of methods without one; a client that
// gives up ends its call uncounted; a method's own latency wins over the
// one of every method, and 0 removes it.
func TestLatency(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	node := zoneParent("us-central1-b") + "/nodes/n"
	if err := e.srv.SetLatency("", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.SetLatency(MethodTPUNodesList, 0); err != nil { // no override: removes nothing
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.tpu.Projects.Locations.Nodes.Get(node).Context(ctx).Do()
		done <- err
	}()
	for e.srv.delayed.Load() == 0 { // held by the latency, not by a clock
		runtime.Gosched()
	}
	if n := e.srv.Counters()[MethodTPUNodesGet]; n != 0 {
		t.Errorf("%s counted %d times while its latency ran, want 0", MethodTPUNodesGet, n)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("get given up during its latency: %v, want context.Canceled", err)
	}
	if n := e.srv.Counters()[MethodTPUNodesGet]; n != 0 {
		t.Errorf("%s counted %d times after the client gave up, want 0", MethodTPUNodesGet, n)
	}

	// A method's own latency wins: the list has none, the get keeps an hour.
	if err := e.srv.SetLatency("", 0); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.SetLatency(MethodTPUNodesGet, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := e.tpu.Projects.Locations.Nodes.List(zoneParent("us-central1-b")).Do(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]time.Duration{MethodTPUNodesGet: time.Hour}, e.srv.Latencies()); diff != "" {
		t.Errorf("Latencies (-want +got):\n%s", diff)
	}
	if err := e.srv.SetLatency(MethodTPUNodesGet, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.tpu.Projects.Locations.Nodes.Get(node).Do(); err == nil || e.srv.Counters()[MethodTPUNodesGet] != 1 {
		t.Errorf("get without latency: err %v (want the node's 404), counted %d times, want 1", err, e.srv.Counters()[MethodTPUNodesGet])
	}
	if err := e.srv.SetLatency("no.such.method", time.Second); err == nil {
		t.Error("SetLatency of an unknown method succeeded")
	}
	if err := e.srv.SetLatency("", -time.Second); err == nil {
		t.Error("SetLatency of a negative latency succeeded")
	}
}

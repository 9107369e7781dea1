// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

// TestPollGroupWakesOtherWaiters: a waiter whose next poll is an hour away
// polls at once when another waiter of its group sees its operation end.
func TestPollGroupWakesOtherWaiters(t *testing.T) {
	t.Parallel()
	fast := &opServer{t: t, path: tpuOpPath, replies: []reply{{200, tpuRunning}, {200, tpuDone}}}
	slow := &opServer{t: t, path: tpuOpPath, replies: []reply{{200, tpuDone}}}
	fastSrv, slowSrv := httptest.NewServer(fast), httptest.NewServer(slow)
	defer fastSrv.Close()
	defer slowSrv.Close()
	quick := NewClients(Config{TPUEndpoint: fastSrv.URL, Polling: Polling{Initial: time.Millisecond, Max: time.Millisecond, Multiplier: 1}})
	hourly := NewClients(Config{TPUEndpoint: slowSrv.URL, Polling: Polling{Initial: time.Hour, Max: time.Hour, Multiplier: 1}})

	// The test's own deadline is far below the slow waiter's hour: it can
	// only finish if the group wakes it.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	ctx = WithPollGroup(ctx, NewPollGroup())

	// The slow waiter announces the start of its first wait.
	waiting := make(chan struct{})
	hourly.poller.jitter = func(d time.Duration) time.Duration {
		select {
		case <-waiting:
		default:
			close(waiting)
		}
		return d
	}
	slowDone := make(chan error, 1)
	go func() {
		_, err := hourly.WaitTPUOperation(ctx, &tpu.Operation{Name: tpuOpName})
		slowDone <- err
	}()
	<-waiting
	if _, err := quick.WaitTPUOperation(ctx, &tpu.Operation{Name: tpuOpName}); err != nil {
		t.Fatalf("fast waiter: %v", err)
	}
	if err := <-slowDone; err != nil {
		t.Fatalf("slow waiter was not woken: %v", err)
	}
	if got := slow.count(); got != 1 {
		t.Errorf("slow waiter polled %d times, want 1 (woken once, then done)", got)
	}
}

// TestPollGroupWithoutWaiters: waking an empty group, or twice, is harmless,
// and a waiter that looked before a wake does not wait.
func TestPollGroupWithoutWaiters(t *testing.T) {
	t.Parallel()
	g := NewPollGroup()
	wake := g.channel()
	g.Wake()
	g.Wake()
	c := NewPoller(Polling{}, nil)
	if err := c.pause(t.Context(), wake, time.Hour); err != nil {
		t.Errorf("pause after a wake: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.pause(ctx, g.channel(), time.Hour); err == nil {
		t.Error("pause on a cancelled context returned nil")
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLimiterBoundsHoldersPerKey(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3} {
		l := NewLimiter(n)
		var cur, peak atomic.Int32
		var wg sync.WaitGroup
		for range 30 {
			wg.Go(func() {
				release, err := l.Acquire(t.Context(), "projects/p/locations/l/clusters/c")
				if err != nil {
					t.Error(err)
					return
				}
				v := cur.Add(1)
				for {
					p := peak.Load()
					if v <= p || peak.CompareAndSwap(p, v) {
						break
					}
				}
				for range 20 {
					runtime.Gosched()
				}
				cur.Add(-1)
				release()
				release() // a second call must not free another slot
			})
		}
		wg.Wait()
		if p := peak.Load(); p > int32(n) || p < 1 {
			t.Errorf("limit %d: peak holders = %d", n, p)
		}
	}
}

// mustBlock asserts that Acquire on key does not succeed before a short deadline.
func mustBlock(t *testing.T, l *Limiter, key string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if release, err := l.Acquire(ctx, key); !errors.Is(err, context.DeadlineExceeded) {
		if release != nil {
			release()
		}
		t.Fatalf("Acquire(%q) = %v, want it to block until the deadline", key, err)
	}
}

func TestLimiterKeysIndependent(t *testing.T) {
	t.Parallel()
	l := NewLimiter(1)
	relA, err := l.Acquire(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	mustBlock(t, l, "a")
	relB, err := l.Acquire(t.Context(), "b")
	if err != nil {
		t.Fatalf("key b blocked by key a: %v", err)
	}
	relB()
	relA()
	relA2, err := l.Acquire(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	relA2()
}

func TestLimiterCancelUnblocks(t *testing.T) {
	t.Parallel()
	l := NewLimiter(1)
	rel, err := l.Acquire(t.Context(), "k")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan error)
	go func() {
		r, err := l.Acquire(ctx, "k")
		if r != nil {
			r()
		}
		got <- err
	}()
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	rel()
	// The cancelled waiter must not have kept or leaked a slot.
	rel2, err := l.Acquire(t.Context(), "k")
	if err != nil {
		t.Fatal(err)
	}
	mustBlock(t, l, "k")
	rel2()
	if _, err := l.Acquire(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestLimiterSetLimit(t *testing.T) {
	t.Parallel()
	l := NewLimiter(3)
	r1, _ := l.Acquire(t.Context(), "k")
	l.SetLimit("k", 1)
	mustBlock(t, l, "k")

	// Raising the limit admits a waiter.
	got := make(chan func())
	go func() {
		r, err := l.Acquire(t.Context(), "k")
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	l.SetLimit("k", 2)
	r2 := <-got
	mustBlock(t, l, "k")
	r1()
	r2()

	l.SetLimit("other", 0) // clamps to 1
	r3, err := l.Acquire(t.Context(), "other")
	if err != nil {
		t.Fatal(err)
	}
	mustBlock(t, l, "other")
	r3()
}

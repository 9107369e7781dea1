// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"slices"
	"sync"
)

// Limiter bounds how many operations run at once per key (for example one GKE
// cluster). Waiters are served in arrival order. It is safe for concurrent use.
type Limiter struct {
	perKey int

	mu   sync.Mutex
	keys map[string]*limiterKey
}

type limiterKey struct {
	limit   int
	held    int
	waiters []chan struct{}
}

// NewLimiter returns a limiter that allows perKey holders per key (at least 1).
func NewLimiter(perKey int) *Limiter {
	return &Limiter{perKey: max(perKey, 1), keys: map[string]*limiterKey{}}
}

func (l *Limiter) key(k string) *limiterKey {
	e, ok := l.keys[k]
	if !ok {
		e = &limiterKey{limit: l.perKey}
		l.keys[k] = e
	}
	return e
}

// Acquire blocks until a slot for key is free or ctx ends. The returned
// release frees the slot; calling it more than once has no further effect.
func (l *Limiter) Acquire(ctx context.Context, key string) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.mu.Lock()
	e := l.key(key)
	if e.held < e.limit && len(e.waiters) == 0 {
		e.held++
		l.mu.Unlock()
		return l.releaser(key), nil
	}
	ready := make(chan struct{})
	e.waiters = append(e.waiters, ready)
	l.mu.Unlock()

	select {
	case <-ready:
		return l.releaser(key), nil
	case <-ctx.Done():
		l.mu.Lock()
		select {
		case <-ready: // granted while giving up: hand the slot on
			l.mu.Unlock()
			l.releaser(key)()
		default:
			e.waiters = slices.DeleteFunc(e.waiters, func(c chan struct{}) bool { return c == ready })
			l.mu.Unlock()
		}
		return nil, ctx.Err()
	}
}

func (l *Limiter) releaser(key string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			e := l.keys[key]
			e.held--
			e.grant()
		})
	}
}

// grant hands free slots to waiters; l.mu must be held.
func (e *limiterKey) grant() {
	for e.held < e.limit && len(e.waiters) > 0 {
		e.held++
		close(e.waiters[0])
		e.waiters = e.waiters[1:]
	}
}

// SetLimit changes the number of holders allowed for key (at least 1), for
// example down to 1 after a conflict. Current holders keep their slots.
func (l *Limiter) SetLimit(key string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.key(key)
	e.limit = max(n, 1)
	e.grant()
}

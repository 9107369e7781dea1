// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"sync"
)

// PollGroup links the waiters of operations that tend to end together, such
// as node pools created at the same moment on one cluster: when a waiter in
// the group sees its operation end, every other waiter in the group polls at
// once instead of finishing its current wait. Without it, an apply waiting
// for several operations ends when the last of them happens to be polled;
// with it, shortly after the first poll that sees any of them done.
type PollGroup struct {
	mu   sync.Mutex
	wake chan struct{}
}

// NewPollGroup returns an empty group.
func NewPollGroup() *PollGroup { return &PollGroup{wake: make(chan struct{})} }

// Wake makes every waiter of the group poll now.
func (g *PollGroup) Wake() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.wake)
	g.wake = make(chan struct{})
}

func (g *PollGroup) channel() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.wake
}

type pollGroupKey struct{}

// WithPollGroup returns a context whose operation waits belong to g.
func WithPollGroup(ctx context.Context, g *PollGroup) context.Context {
	return context.WithValue(ctx, pollGroupKey{}, g)
}

func pollGroupOf(ctx context.Context) *PollGroup {
	g, _ := ctx.Value(pollGroupKey{}).(*PollGroup)
	return g
}

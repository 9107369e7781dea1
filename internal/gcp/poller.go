// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
)

// Poller paces every wait of the clients: the schedule of Config.Polling,
// each wait jittered (see pollJitter), and cut short when the context's
// PollGroup is woken. Clients holds one, built from the configuration.
type Poller struct {
	schedule Polling
	log      *slog.Logger
	sleep    func(ctx context.Context, d time.Duration) error
	jitter   func(d time.Duration) time.Duration
}

// NewPoller returns a poller on the schedule p (normalized like
// Config.Polling). sleep, when not nil, replaces the timer of waits outside
// a PollGroup, and waits are then not jittered: tests pass one that returns
// at once.
func NewPoller(p Polling, sleep func(ctx context.Context, d time.Duration) error) *Poller {
	return newPoller(p, nil, sleep)
}

func newPoller(p Polling, log *slog.Logger, sleep func(context.Context, time.Duration) error) *Poller {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	poller := &Poller{schedule: p.normalized(), log: log, sleep: sleep, jitter: pollJitter}
	if sleep == nil {
		poller.sleep = sleepCtx
	} else {
		poller.jitter = func(d time.Duration) time.Duration { return d }
	}
	return poller
}

// pause waits for d, until ctx ends, or, when wake is not nil, until it is
// closed: the operation's group was woken since the waiter's last poll.
func (p *Poller) pause(ctx context.Context, wake <-chan struct{}, d time.Duration) error {
	if wake == nil {
		return p.sleep(ctx, d)
	}
	return sleepUntilWoken(ctx, wake, d)
}

// StateWait describes a wait for something to reach a state: a
// long-running operation to be done, a TPU VM to leave CREATING, a node
// pool to stop reconciling.
//
// A state in Target ends the wait; a state in Pending continues it. When
// only Pending is given, any other state ends the wait; when only Target is
// given, any other state continues it; when both are, a state in neither is
// an *UnexpectedStateError.
type StateWait[T any] struct {
	// What names what is waited for in errors and logs, for example
	// "operation projects/p/locations/l/operations/o".
	What string
	// Refresh reads the object and returns it with its state. Its errors
	// are classified: retryable ones (Class.Retryable) are read again at
	// the next poll, others end the wait.
	Refresh func(ctx context.Context) (T, string, error)
	Pending []string
	Target  []string
	// NotFoundRetries is how many not-found answers in a row are read
	// again: an operation read right after it was started can briefly be
	// not found.
	NotFoundRetries int
}

// UnexpectedStateError means a wait saw a state that is neither pending
// nor a target.
type UnexpectedStateError struct {
	What   string
	State  string
	Target []string
}

func (e *UnexpectedStateError) Error() string {
	return fmt.Sprintf("waiting for %s: unexpected state %q, want %s", e.What, e.State, strings.Join(e.Target, " or "))
}

// ends reports whether state ends the wait.
func (w *StateWait[T]) ends(state string) (bool, error) {
	switch {
	case slices.Contains(w.Target, state):
		return true, nil
	case slices.Contains(w.Pending, state):
		return false, nil
	case len(w.Target) == 0:
		return true, nil
	case len(w.Pending) == 0:
		return false, nil
	}
	return false, &UnexpectedStateError{What: w.What, State: state, Target: w.Target}
}

// WaitFor is the one waiter of the provider: it polls w.Refresh on p's
// schedule until the state ends the wait, ctx ends, or a refresh fails with
// an error that is not retryable. last and state are the object as last
// read; an empty state means it is not known, and the first refresh comes
// at once instead of after the first wait. WaitFor returns the object as
// last read and, when the wait did not end at a state that ends it, why.
// Answers of ClassNotAPI are read NotAPIAttempts times in all. When the
// wait ends, the other waiters of ctx's PollGroup poll at once.
func WaitFor[T any](ctx context.Context, p *Poller, w StateWait[T], last T, state string) (T, error) {
	if w.Refresh == nil {
		return last, fmt.Errorf("waiting for %s: nothing to read", w.What)
	}
	c := newStateWaitCall(ctx, p, &w, last, state)
	for n := 1; ; n++ {
		if n > 1 || state != "" { // an unknown state is read at once
			if done, err := c.next(ctx); done {
				return c.last, err
			}
		}
		if err := c.poll(ctx, n); err != nil {
			return c.last, err
		}
	}
}

// stateWaitCall is the state of one call of WaitFor: the object and its
// state as last read, the error of the last poll when it failed, the next
// wait, and the failed polls counted against their limits.
type stateWaitCall[T any] struct {
	p *Poller
	w *StateWait[T]
	// group is ctx's PollGroup, nil for none; wake is its channel as of
	// the last poll.
	group *PollGroup
	wake  <-chan struct{}
	wait  time.Duration
	last  T
	state string
	// lastErr is the error of the last poll; nil when it read the object.
	lastErr          error
	notFound, notAPI int
}

func newStateWaitCall[T any](ctx context.Context, p *Poller, w *StateWait[T], last T, state string) *stateWaitCall[T] {
	c := &stateWaitCall[T]{p: p, w: w, group: pollGroupOf(ctx), wait: p.schedule.Initial, last: last, state: state}
	if c.group != nil {
		c.wake = c.group.channel()
	}
	return c
}

// next reports whether the wait ends before the next poll: at the state as
// last read, when the last poll read it, or when ctx ends during the pause
// before the poll.
func (c *stateWaitCall[T]) next(ctx context.Context) (bool, error) {
	if c.lastErr == nil { // the state is as last read
		if done, err := c.finished(); done || err != nil {
			return true, err
		}
	}
	if err := c.pause(ctx); err != nil {
		return true, err
	}
	return false, nil
}

// finished reports whether the state as last read ends the wait, with the
// error when it ends it as unexpected; a wait that ends wakes its group.
func (c *stateWaitCall[T]) finished() (bool, error) {
	done, err := c.w.ends(c.state)
	if err != nil {
		return true, err
	}
	if done && c.group != nil {
		c.group.Wake()
	}
	return done, nil
}

// pause waits before the next poll and moves the wait after it on the
// schedule. It fails when ctx ends first.
func (c *stateWaitCall[T]) pause(ctx context.Context) error {
	if err := c.p.pause(ctx, c.wake, c.p.jitter(c.wait)); err != nil {
		return c.stopped(err, c.lastErr)
	}
	c.wait = c.p.schedule.next(c.wait)
	if c.group != nil {
		c.wake = c.group.channel() // a wake from now on cuts the next wait short
	}
	return nil
}

// stopped is the error of a wait that cause ended, with pollErr, the error
// of the last poll, when it failed.
func (c *stateWaitCall[T]) stopped(cause, pollErr error) error {
	if pollErr != nil {
		return fmt.Errorf("waiting for %s: %w (last poll error: %w)", c.w.What, cause, pollErr)
	}
	return fmt.Errorf("waiting for %s: %w", c.w.What, cause)
}

// poll reads the object once, poll number n. A failed read that is
// retried is kept as the last poll error; one that is not ends the wait.
func (c *stateWaitCall[T]) poll(ctx context.Context, n int) error {
	got, st, err := c.w.Refresh(ctx)
	if err != nil {
		return c.pollFailed(ctx, n, Compact(err))
	}
	c.notFound, c.lastErr, c.last, c.state = 0, nil, got, st
	c.p.log.DebugContext(ctx, "polled", "waiting_for", c.w.What, "poll", n, "state", c.state, "next_wait", c.wait)
	return nil
}

// pollFailed handles the error err of poll n: it ends the wait when ctx
// has ended or err is not read again, and else keeps it as the last poll
// error.
func (c *stateWaitCall[T]) pollFailed(ctx context.Context, n int, err error) error {
	if ctx.Err() != nil {
		return c.stopped(ctx.Err(), err)
	}
	class := Classify(err)
	if gaveUp := c.giveUp(class, err); gaveUp != nil {
		return gaveUp
	}
	c.lastErr = err
	c.p.log.DebugContext(ctx, "polling failed, will retry",
		"waiting_for", c.w.What, "poll", n, "class", class.String(), "error", err.Error(), "next_wait", c.wait)
	return nil
}

// giveUp counts a failed poll of class and returns why the wait ends, or
// nil when the object is read again: not found NotFoundRetries times in a
// row, ClassNotAPI until NotAPIAttempts, and any retryable class.
func (c *stateWaitCall[T]) giveUp(class Class, err error) error {
	switch {
	case class == ClassNotFound && c.notFound < c.w.NotFoundRetries:
		c.notFound++
	case class == ClassNotAPI:
		if c.notAPI++; c.notAPI >= NotAPIAttempts {
			return fmt.Errorf("polling %s: %w (after %d attempts)", c.w.What, err, c.notAPI)
		}
	case !class.Retryable():
		return fmt.Errorf("polling %s: %w", c.w.What, err)
	}
	return nil
}

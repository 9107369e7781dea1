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
	group := pollGroupOf(ctx)
	var wake <-chan struct{}
	if group != nil {
		wake = group.channel()
	}
	wait := p.schedule.Initial
	notFound, notAPI := 0, 0
	var lastErr error
	readNow := state == ""
	for n := 1; ; n++ {
		if !readNow {
			if lastErr == nil { // state is as last read
				done, err := w.ends(state)
				if err != nil {
					return last, err
				}
				if done {
					if group != nil {
						group.Wake()
					}
					return last, nil
				}
			}
			if err := p.pause(ctx, wake, p.jitter(wait)); err != nil {
				if lastErr != nil {
					return last, fmt.Errorf("waiting for %s: %w (last poll error: %w)", w.What, err, lastErr)
				}
				return last, fmt.Errorf("waiting for %s: %w", w.What, err)
			}
			wait = p.schedule.next(wait)
			if group != nil {
				wake = group.channel() // a wake from now on cuts the next wait short
			}
		}
		readNow = false
		got, st, err := w.Refresh(ctx)
		if err != nil {
			err = Compact(err)
			if ctx.Err() != nil {
				return last, fmt.Errorf("waiting for %s: %w (last poll error: %w)", w.What, ctx.Err(), err)
			}
			class := Classify(err)
			switch {
			case class == ClassNotFound && notFound < w.NotFoundRetries:
				notFound++
			case class == ClassNotAPI:
				if notAPI++; notAPI >= NotAPIAttempts {
					return last, fmt.Errorf("polling %s: %w (after %d attempts)", w.What, err, notAPI)
				}
			case !class.Retryable():
				return last, fmt.Errorf("polling %s: %w", w.What, err)
			}
			lastErr = err
			p.log.DebugContext(ctx, "polling failed, will retry",
				"waiting_for", w.What, "poll", n, "class", class.String(), "error", err.Error(), "next_wait", wait)
			continue
		}
		notFound, lastErr, last, state = 0, nil, got, st
		p.log.DebugContext(ctx, "polled", "waiting_for", w.What, "poll", n, "state", state, "next_wait", wait)
	}
}

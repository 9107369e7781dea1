// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/api/googleapi"
)

// read is one scripted answer of a refresh: a state, or an error.
type read struct {
	state string
	err   error
}

func apiError(code int) error { return &googleapi.Error{Code: code, Message: http.StatusText(code)} }

// TestWaitFor: the one waiter ends at a target state, continues in a
// pending one, reads at once when the state is not known, retries what is
// retryable, and waits on the poller's schedule. Waits are recorded, not
// slept.
func TestWaitFor(t *testing.T) {
	t.Parallel()
	schedule := Polling{Initial: 100 * time.Millisecond, Max: 300 * time.Millisecond, Multiplier: 2}
	tests := map[string]struct {
		pending, target []string
		notFoundRetries int
		start           string // the state known before the wait
		reads           []read
		wantState       string // the state of the object returned
		wantErr         string // substring; "" for none
		wantReads       int
		wantWaits       []time.Duration
	}{
		"already at a target state reads nothing": {
			target: []string{"DONE"}, start: "DONE",
			wantState: "DONE", wantReads: 0,
		},
		"pending until a target state, waits growing to the cap": {
			target: []string{"DONE"}, start: "RUNNING",
			reads:     []read{{state: "RUNNING"}, {state: "RUNNING"}, {state: "RUNNING"}, {state: "DONE"}},
			wantState: "DONE", wantReads: 4,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond},
		},
		"an unknown state is read at once": {
			target: []string{"DONE"},
			reads:  []read{{state: "DONE"}}, wantState: "DONE", wantReads: 1,
		},
		"only pending states: any other state ends the wait": {
			pending: []string{"CREATING", "DELETING"}, start: "CREATING",
			reads:     []read{{state: "DELETING"}, {state: "FAILED"}},
			wantState: "FAILED", wantReads: 2,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		"only target states: any other state continues": {
			target: []string{"DONE"}, start: "PENDING",
			reads:     []read{{state: "STATUS_UNSPECIFIED"}, {state: "DONE"}},
			wantState: "DONE", wantReads: 2,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		"both: a state in neither is unexpected": {
			pending: []string{"RUNNING"}, target: []string{"DONE"}, start: "RUNNING",
			reads:     []read{{state: "ABORTING"}},
			wantState: "ABORTING", wantErr: `unexpected state "ABORTING", want DONE`, wantReads: 1,
			wantWaits: []time.Duration{100 * time.Millisecond},
		},
		"both: the start state is checked too": {
			pending: []string{"RUNNING"}, target: []string{"DONE"}, start: "ABORTING",
			wantState: "ABORTING", wantErr: "unexpected state", wantReads: 0,
		},
		"retryable errors are read again, after a wait": {
			target:    []string{"DONE"},
			reads:     []read{{err: apiError(http.StatusServiceUnavailable)}, {err: apiError(http.StatusTooManyRequests)}, {state: "DONE"}},
			wantState: "DONE", wantReads: 3,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		"an error that is not retryable ends the wait": {
			target: []string{"DONE"}, start: "RUNNING",
			reads:     []read{{err: apiError(http.StatusForbidden)}},
			wantState: "RUNNING", wantErr: "polling thing: ", wantReads: 1,
			wantWaits: []time.Duration{100 * time.Millisecond},
		},
		"not found is read again NotFoundRetries times": {
			target: []string{"DONE"}, notFoundRetries: 2, start: "RUNNING",
			reads:     []read{{err: apiError(http.StatusNotFound)}, {err: apiError(http.StatusNotFound)}, {state: "DONE"}},
			wantState: "DONE", wantReads: 3,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond},
		},
		"not found once too often ends the wait": {
			target: []string{"DONE"}, notFoundRetries: 1, start: "RUNNING",
			reads:     []read{{err: apiError(http.StatusNotFound)}, {err: apiError(http.StatusNotFound)}},
			wantState: "RUNNING", wantErr: "Not Found", wantReads: 2,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var waits []time.Duration
			p := NewPoller(schedule, func(ctx context.Context, d time.Duration) error {
				waits = append(waits, d)
				return ctx.Err()
			})
			reads := 0
			got, err := WaitFor(t.Context(), p, StateWait[string]{
				What: "thing", Pending: tt.pending, Target: tt.target, NotFoundRetries: tt.notFoundRetries,
				Refresh: func(context.Context) (string, string, error) {
					if reads >= len(tt.reads) {
						t.Fatalf("read %d, but only %d answers are scripted", reads+1, len(tt.reads))
					}
					r := tt.reads[reads]
					reads++
					return r.state, r.state, r.err
				},
			}, tt.start, tt.start)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("WaitFor: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("WaitFor error = %v, want one containing %q", err, tt.wantErr)
			}
			if got != tt.wantState {
				t.Errorf("returned state %q, want %q", got, tt.wantState)
			}
			if reads != tt.wantReads {
				t.Errorf("%d reads, want %d", reads, tt.wantReads)
			}
			if diff := cmp.Diff(tt.wantWaits, waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWaitForStopsWithContext: a wait whose context ends during a pause
// returns the object as last read, the context's error and the last poll
// error.
func TestWaitForStopsWithContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	p := NewPoller(Polling{}, func(ctx context.Context, _ time.Duration) error {
		cancel() // the context ends during the first pause
		return ctx.Err()
	})
	got, err := WaitFor(ctx, p, StateWait[string]{
		What: "thing", Target: []string{"DONE"},
		Refresh: func(context.Context) (string, string, error) {
			return "", "", apiError(http.StatusServiceUnavailable)
		},
	}, "old", "")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "last poll error") {
		t.Fatalf("err = %v, want the cancellation with the last poll error", err)
	}
	if got != "old" {
		t.Errorf("returned %q, want the object as last read", got)
	}
}

// TestWaitForWakesItsGroup: a wait that ends wakes the other waiters of
// its poll group.
func TestWaitForWakesItsGroup(t *testing.T) {
	t.Parallel()
	g := NewPollGroup()
	wake := g.channel()
	p := NewPoller(Polling{}, func(ctx context.Context, _ time.Duration) error { return ctx.Err() })
	if _, err := WaitFor(WithPollGroup(t.Context(), g), p, StateWait[string]{
		What: "thing", Target: []string{"DONE"},
		Refresh: func(context.Context) (string, string, error) { return "DONE", "DONE", nil },
	}, "", ""); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	default:
		t.Error("the group was not woken")
	}
}

// TestPollingNormalized: the one normalisation of the polling settings.
func TestPollingNormalized(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in, want Polling
	}{
		"zero is the default":                      {Polling{}, DefaultPolling()},
		"a cap alone starts at 1/20":               {Polling{Max: 200 * time.Millisecond}, Polling{Initial: 10 * time.Millisecond, Max: 200 * time.Millisecond, Multiplier: 1.5}},
		"a long cap starts at most at the default": {Polling{Max: time.Minute}, Polling{Initial: 500 * time.Millisecond, Max: time.Minute, Multiplier: 1.5}},
		"a tiny cap starts at a millisecond":       {Polling{Max: time.Microsecond}, Polling{Initial: time.Millisecond, Max: time.Millisecond, Multiplier: 1.5}},
		"a cap below the first wait is raised":     {Polling{Initial: time.Second, Max: time.Millisecond, Multiplier: 2}, Polling{Initial: time.Second, Max: time.Second, Multiplier: 2}},
		"set values are kept":                      {Polling{Initial: time.Millisecond, Max: time.Hour, Multiplier: 1}, Polling{Initial: time.Millisecond, Max: time.Hour, Multiplier: 1}},
	}
	for name, tt := range tests {
		if got := tt.in.normalized(); got != tt.want {
			t.Errorf("%s: normalized(%+v) = %+v, want %+v", name, tt.in, got, tt.want)
		}
	}
	if got := NewClients(Config{Polling: Polling{Max: 200 * time.Millisecond}}).Config().Polling; got.Initial != 10*time.Millisecond {
		t.Errorf("NewClients did not complete the polling settings: %+v", got)
	}
}

// TestPollingBackoff: the one retry backoff is DefaultBackoff with the
// default polling, and scales down with a short cap.
func TestPollingBackoff(t *testing.T) {
	t.Parallel()
	if got, want := DefaultPolling().backoff(), DefaultBackoff(); got != want {
		t.Errorf("default polling backoff = %+v, want DefaultBackoff %+v", got, want)
	}
	short := Polling{Initial: time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 1.5}.backoff()
	if want := (Backoff{Initial: 2 * time.Millisecond, Max: 60 * time.Millisecond, Multiplier: 2}); short != want {
		t.Errorf("short polling backoff = %+v, want %+v", short, want)
	}
}

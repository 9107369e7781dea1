// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/api/googleapi"
)

var (
	errUnavailable  = &googleapi.Error{Code: 503, Body: body503}
	errRateLimited  = &googleapi.Error{Code: 429, Body: body429Rate}
	errIncompatible = &googleapi.Error{Code: 400, Body: body400Precondition}
	errNotFound     = &googleapi.Error{Code: 404, Body: body404}
)

type retryCall struct {
	Class   Class
	Attempt int
}

func TestRetry(t *testing.T) {
	t.Parallel()
	b := Backoff{Initial: 10 * time.Millisecond, Max: 40 * time.Millisecond, Multiplier: 2}
	tests := []struct {
		name      string
		errs      []error // returned by attempts in turn; after the end, nil
		wantErr   error
		wantCalls []retryCall
	}{
		{
			name:      "retryable classes then success",
			errs:      []error{errUnavailable, errRateLimited, errIncompatible},
			wantCalls: []retryCall{{ClassTransient, 1}, {ClassRateLimited, 2}, {ClassConflict, 3}},
		},
		{
			name:      "non-retryable stops at once",
			errs:      []error{errUnavailable, errNotFound, errUnavailable},
			wantErr:   errNotFound,
			wantCalls: []retryCall{{ClassTransient, 1}},
		},
		{
			name: "first try succeeds",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			attempts := 0
			var calls []retryCall
			var waits []time.Duration
			onRetry := func(err error, class Class, attempt int, wait time.Duration) {
				if err == nil {
					t.Error("onRetry got a nil error")
				}
				if wait < 0 || wait > b.ceiling(attempt) {
					t.Errorf("attempt %d: wait %v outside [0, %v]", attempt, wait, b.ceiling(attempt))
				}
				calls = append(calls, retryCall{class, attempt})
			}
			sleep := func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
			err := retry(t.Context(), b, onRetry, func(context.Context) error {
				attempts++
				if attempts <= len(tt.errs) {
					return tt.errs[attempts-1]
				}
				return nil
			}, sleep)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantCalls, calls); diff != "" {
				t.Errorf("onRetry calls (-want +got):\n%s", diff)
			}
			if len(waits) != len(tt.wantCalls) {
				t.Errorf("waits = %d, want %d", len(waits), len(tt.wantCalls))
			}
		})
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	attempts := 0
	err := Retry(ctx, Backoff{Initial: time.Millisecond, Max: time.Millisecond, Multiplier: 1}, nil, func(context.Context) error {
		attempts++
		if attempts == 3 {
			cancel()
		}
		return errUnavailable
	})
	if attempts != 3 {
		t.Errorf("attempts = %d, want 3", attempts)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errUnavailable) {
		t.Errorf("want the last error wrapped with the context error, got %v", err)
	}
}

// TestRetryCutShortNamesTheAnswerBefore: when ctx ends during a call, the
// error says what the API answered before, not only that time ran out.
func TestRetryCutShortNamesTheAnswerBefore(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	attempts := 0
	err := Retry(ctx, Backoff{Initial: time.Millisecond, Max: time.Millisecond, Multiplier: 1}, nil, func(ctx context.Context) error {
		if attempts++; attempts < 3 {
			return errUnavailable
		}
		cancel()
		return ctx.Err()
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "the answer before was: HTTP 503") {
		t.Errorf("want the context's end with the answer before it, got %v", err)
	}
}

func TestRetryStopsAtDeadlineDuringWait(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	err := Retry(ctx, Backoff{Initial: time.Hour, Max: time.Hour, Multiplier: 1}, nil, func(context.Context) error {
		return errRateLimited
	})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errRateLimited) {
		t.Errorf("want the last error wrapped with the deadline, got %v", err)
	}
	if Classify(err) != ClassDeadline {
		t.Errorf("Classify = %v, want deadline", Classify(err))
	}
}

func TestBackoffCeiling(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		b    Backoff
		want []time.Duration // attempts 1..n
	}{
		{DefaultBackoff(), []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s}},
		{Backoff{Initial: s, Max: 3 * s, Multiplier: 1.5}, []time.Duration{s, 1500 * time.Millisecond, 2250 * time.Millisecond, 3 * s}},
		{Backoff{}, []time.Duration{s, s}},
	}
	for _, tt := range tests {
		var got []time.Duration
		for a := 1; a <= len(tt.want); a++ {
			got = append(got, tt.b.ceiling(a))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.b, diff)
		}
	}
}

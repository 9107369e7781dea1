// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

var errProxyPage = &EndpointError{API: "GKE API", Endpoint: "http://proxy/", Setting: ContainerEndpointSetting,
	Env: ContainerEndpointEnv, Method: "GET", Path: "/v1/x", Status: 502, ContentType: "text/html", Body: "<html>", Problem: "not JSON"}

// TestRetryBounds checks how many calls Retry makes for each kind of
// failure that does not end by itself. The sleep is recorded, not slept,
// and ctx never ends, so the bound comes from the attempt budgets alone.
func TestRetryBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		b         Backoff
		errs      []error // by attempt; the last one repeats
		wantCalls int
		wantClass Class
	}{
		{"not the API: three attempts", Backoff{}, []error{errProxyPage}, NotAPIAttempts, ClassNotAPI},
		{"not the API between transient errors counts in all", Backoff{},
			[]error{errProxyPage, errUnavailable, errProxyPage, errUnavailable, errProxyPage, nil}, 5, ClassNotAPI},
		{"max attempts bounds transient errors", Backoff{MaxAttempts: 2}, []error{errUnavailable}, 2, ClassTransient},
		{"max attempts bounds conflicts", Backoff{MaxAttempts: 1}, []error{errIncompatible}, 1, ClassConflict},
		{"not found is never retried", Backoff{}, []error{errNotFound}, 1, ClassNotFound},
		{"success after a proxy page", Backoff{}, []error{errProxyPage, nil}, 2, ClassUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
			defer cancel()
			calls := 0
			err := retry(ctx, tt.b, nil, func(context.Context) error {
				calls++
				return tt.errs[min(calls, len(tt.errs))-1]
			}, func(context.Context, time.Duration) error { return nil })
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
			if got := Classify(err); (err == nil) != (tt.wantClass == ClassUnknown) || got != tt.wantClass {
				t.Errorf("err = %v (class %v), want class %v", err, got, tt.wantClass)
			}
		})
	}
}

// TestRetryWithoutDeadlineIsBounded checks that Retry gives a context
// without a deadline one of NoDeadlineTimeout, and keeps an existing one.
func TestRetryWithoutDeadlineIsBounded(t *testing.T) {
	t.Parallel()
	check := func(ctx context.Context, want time.Duration) {
		t.Helper()
		var left time.Duration
		_ = Retry(ctx, Backoff{}, nil, func(ctx context.Context) error {
			d, ok := ctx.Deadline()
			if !ok {
				t.Fatal("the call's context has no deadline")
			}
			left = time.Until(d)
			return nil
		})
		if left <= 0 || left > want {
			t.Errorf("time left = %v, want in (0, %v]", left, want)
		}
	}
	check(t.Context(), NoDeadlineTimeout)
	ctx, cancel := context.WithTimeout(t.Context(), time.Hour+NoDeadlineTimeout)
	defer cancel()
	check(ctx, time.Hour+NoDeadlineTimeout)
}

// TestAfterDeadline checks that the final-read context outlives the
// cancellation of its parent, keeps its values, and ends within
// FinalReadTimeout.
func TestAfterDeadline(t *testing.T) {
	t.Parallel()
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(t.Context(), key{}, "v"))
	cancel()
	ctx, done := AfterDeadline(parent)
	defer done()
	if ctx.Err() != nil {
		t.Fatalf("the final-read context ended with its parent: %v", ctx.Err())
	}
	if ctx.Value(key{}) != "v" {
		t.Error("the final-read context lost the parent's values")
	}
	d, ok := ctx.Deadline()
	if !ok || time.Until(d) > FinalReadTimeout {
		t.Errorf("deadline = %v (set %v), want within %v", d, ok, FinalReadTimeout)
	}
	done()
	if ctx.Err() == nil {
		t.Error("the cancel function does not end the context")
	}
}

// TestWaitStopsOnNotAPI checks that an operation waiter gives up after
// NotAPIAttempts polls answered with a proxy's page.
func TestWaitStopsOnNotAPI(t *testing.T) {
	t.Parallel()
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		polls.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(body502HTML))
	}))
	defer srv.Close()
	c, _ := newWaitClients(t, srv)
	_, err := c.WaitTPUOperation(t.Context(), &tpu.Operation{Name: tpuOpName})
	var ee *EndpointError
	if !errors.As(err, &ee) || Classify(err) != ClassNotAPI {
		t.Fatalf("want a not-the-API error, got %v", err)
	}
	if got := polls.Load(); got != NotAPIAttempts {
		t.Errorf("polls = %d, want %d", got, NotAPIAttempts)
	}
}

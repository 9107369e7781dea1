// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Backoff is a capped exponential backoff: the cap for attempt n (from 1) is
// Initial*Multiplier^(n-1), at most Max; the actual wait is drawn uniformly
// from [0, cap] ("full jitter").
//
// MaxAttempts, when positive, bounds the number of calls; zero means calls
// go on until ctx ends. Lookups that have a fallback use it, so that a
// failing lookup does not hold up the call it serves.
type Backoff struct {
	Initial     time.Duration
	Max         time.Duration
	Multiplier  float64
	MaxAttempts int
}

// NotAPIAttempts is how many calls in all Retry and the operation waiters
// make while the endpoint answers like something that is not the API
// (ClassNotAPI): a proxy or a load balancer may answer an odd page once, but
// an endpoint that keeps doing so is misconfigured.
const NotAPIAttempts = 3

// NoDeadlineTimeout bounds Retry when ctx has no deadline of its own (a
// refresh, a plan-time read): retries of rate limits and transient errors
// stop after this long, so that a refresh fails in bounded time.
const NoDeadlineTimeout = 2 * time.Minute

// ClusterReadTimeout bounds the optional plan-time read of a GKE cluster
// (its version, node pools, Autopilot and auto-provisioning): a plan that
// cannot read it in this time goes on without it.
const ClusterReadTimeout = 15 * time.Second

// SharedListTimeout bounds a list whose answer a refresh shares among the
// objects it holds (see sharedList): every read waiting for it goes on with
// a read of its own after this long.
const SharedListTimeout = 30 * time.Second

// FinalReadTimeout bounds the calls made after a resource's deadline passed
// or Terraform asked the provider to stop: the read that records in state
// what exists, or the deletion of what a failed create left. See
// [AfterDeadline].
const FinalReadTimeout = 30 * time.Second

// AfterDeadline returns a context for the calls made once ctx may have
// ended: it keeps ctx's values, not its cancellation, and ends
// FinalReadTimeout from now. Operations run to the resource's timeout; the
// read that records their result gets this short margin beyond it.
func AfterDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return Detach(ctx, FinalReadTimeout)
}

// Detach returns a context with ctx's values that neither ctx's deadline
// nor its cancellation ends, bounded by timeout instead: for a call whose
// answer outlives the request that started it (a read after the deadline,
// an answer cached for every resource of a plan).
func Detach(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}

// DefaultBackoff returns Initial 1s, Max 30s, Multiplier 2: GKE rejects a
// node-pool change with FAILED_PRECONDITION while another operation runs on
// the cluster, and such operations take minutes, so waits grow quickly to a
// cap that still notices the end of the blocking operation within half a
// minute. Full jitter spreads concurrent retries apart
// (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
func DefaultBackoff() Backoff {
	return Backoff{Initial: time.Second, Max: 30 * time.Second, Multiplier: 2}
}

// ceiling returns the upper bound of the wait before retry number attempt.
func (b Backoff) ceiling(attempt int) time.Duration {
	d := DefaultBackoff()
	if b.Initial <= 0 {
		b.Initial = d.Initial
	}
	if b.Max < b.Initial {
		b.Max = b.Initial
	}
	if b.Multiplier < 1 {
		b.Multiplier = d.Multiplier
	}
	c := float64(b.Initial)
	for i := 1; i < attempt && c < float64(b.Max); i++ {
		c *= b.Multiplier
	}
	if c > float64(b.Max) {
		return b.Max
	}
	return time.Duration(c)
}

// Retry calls fn until it succeeds, returns an error whose Class is not
// Retryable, b.MaxAttempts calls were made, or ctx ends; in the last case it
// returns the last error of fn wrapped together with the cause of ctx's end
// (and, when ctx ended during a call, with the answer of the call before).
// When ctx has no deadline, it ends after NoDeadlineTimeout. Answers of
// ClassNotAPI are retried NotAPIAttempts times in all. Waits use full
// jitter. onRetry, when not nil, is called before each wait so that callers
// can log which operation blocks them. Errors are returned through Compact.
func Retry(ctx context.Context, b Backoff, onRetry func(err error, class Class, attempt int, wait time.Duration), fn func(context.Context) error) error {
	return retry(ctx, b, onRetry, fn, sleepCtx)
}

func retry(ctx context.Context, b Backoff, onRetry func(error, Class, int, time.Duration), fn func(context.Context) error, sleep func(context.Context, time.Duration) error) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, NoDeadlineTimeout,
			fmt.Errorf("gave up retrying after %s: %w", NoDeadlineTimeout, context.DeadlineExceeded))
		defer cancel()
	}
	notAPI := 0
	var last error // the answer of the call before, for an error cut short by ctx
	for attempt := 1; ; attempt++ {
		actx, silent := withSilentHolder(ctx)
		err := fn(actx)
		if err == nil {
			return nil
		}
		if e := silent.get(); e != nil && last == nil && ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			// The endpoint never answered any call: say which endpoint,
			// which call and what limit ended it. (After an answer, the
			// answer before says more; see below.)
			err = e
		}
		err = Compact(err)
		if last != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			// The call itself was cut short: say what the API answered
			// before, not only that time ran out.
			return fmt.Errorf("%w (stopped retrying; the answer before was: %s)", err, last.Error())
		}
		last = err
		class := Classify(err)
		switch {
		case class == ClassNotAPI:
			if notAPI++; notAPI >= NotAPIAttempts {
				return fmt.Errorf("%w (after %d attempts)", err, notAPI)
			}
		case !class.Retryable():
			return err
		}
		if b.MaxAttempts > 0 && attempt >= b.MaxAttempts {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w (stopped retrying: %w)", err, context.Cause(ctx))
		}
		wait := rand.N(b.ceiling(attempt) + 1)
		if onRetry != nil {
			onRetry(err, class, attempt, wait)
		}
		if serr := sleep(ctx, wait); serr != nil {
			if ctx.Err() != nil {
				serr = context.Cause(ctx)
			}
			return fmt.Errorf("%w (stopped retrying: %w)", err, serr)
		}
	}
}

// withRetry is Retry with the clients' backoff, sleeping like their poller: at
// most maxAttempts calls (0: until ctx ends). onRetry, when nil, logs each
// retry at debug level.
func (c *Clients) withRetry(ctx context.Context, what string, maxAttempts int,
	onRetry func(err error, class Class, attempt int, wait time.Duration), fn func(context.Context) error,
) error {
	if onRetry == nil {
		onRetry = func(err error, class Class, attempt int, wait time.Duration) {
			c.log.DebugContext(ctx, "retrying a call", "call", what, "class", class.String(),
				"attempt", attempt, "wait", wait.String(), "error", err.Error())
		}
	}
	b := c.backoff
	b.MaxAttempts = maxAttempts
	return retry(ctx, b, onRetry, fn, c.poller.sleep)
}

// retryValue is Clients.withRetry, until ctx ends, for a call that returns a value.
func retryValue[T any](ctx context.Context, c *Clients, what string, fn func(context.Context) (T, error)) (T, error) {
	var v T
	err := c.withRetry(ctx, what, 0, nil, func(ctx context.Context) error {
		var err error
		v, err = fn(ctx)
		return err
	})
	return v, err
}

// Sleep waits the full-jitter wait of b before retry number attempt (from
// 1), or until ctx ends, returning ctx.Err() then: for a caller that
// retries a sequence of calls of its own, such as a list of zones.
func Sleep(ctx context.Context, b Backoff, attempt int) error {
	return sleepCtx(ctx, rand.N(b.ceiling(attempt)+1))
}

// sleepCtx waits for d or until ctx ends, returning ctx.Err() in that case.
func sleepCtx(ctx context.Context, d time.Duration) error {
	return sleepUntilWoken(ctx, nil, d)
}

// sleepUntilWoken waits for d, until ctx ends (returning ctx.Err()), or
// until wake is closed; a nil wake never is.
func sleepUntilWoken(ctx context.Context, wake <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	case <-wake:
	}
	return nil
}

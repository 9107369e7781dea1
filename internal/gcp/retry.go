package gcp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// Backoff is a capped exponential backoff: the cap for attempt n (from 1) is
// Initial*Multiplier^(n-1), at most Max; the actual wait is drawn uniformly
// from [0, cap] ("full jitter").
type Backoff struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
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
// Retryable, or ctx ends; in the last case it returns the last error of fn
// wrapped together with ctx.Err(). Waits use full jitter. onRetry, when not
// nil, is called before each wait so that callers can log which operation
// blocks them.
func Retry(ctx context.Context, b Backoff, onRetry func(err error, class Class, attempt int, wait time.Duration), fn func(context.Context) error) error {
	return retry(ctx, b, onRetry, fn, sleepCtx)
}

func retry(ctx context.Context, b Backoff, onRetry func(error, Class, int, time.Duration), fn func(context.Context) error, sleep func(context.Context, time.Duration) error) error {
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		if err == nil {
			return nil
		}
		class := Classify(err)
		if !class.Retryable() {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w (stopped retrying: %w)", err, ctx.Err())
		}
		wait := rand.N(b.ceiling(attempt) + 1)
		if onRetry != nil {
			onRetry(err, class, attempt, wait)
		}
		if serr := sleep(ctx, wait); serr != nil {
			return fmt.Errorf("%w (stopped retrying: %w)", err, serr)
		}
	}
}

// sleepCtx waits for d or until ctx ends, returning ctx.Err() in that case.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

package gcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
	tpu "google.golang.org/api/tpu/v2"
)

// maxOperationNotFound is how many 404 answers in a row a waiter tolerates:
// an operation read right after it was started can briefly be not found. The
// google provider retries such 404s too (tpgresource.OperationWait).
const maxOperationNotFound = 3

// WaitTPUOperation polls a google.longrunning operation of the TPU API until
// it is done, ctx ends, or polling fails with an error that is not retryable.
// Waits follow Config.Polling; 429 and 5xx answers while polling are retried.
// It returns the final operation; when that carries an error, the error is an
// *OperationError (Code, Message, and Reasons and Metadata from ErrorInfo).
func (c *Clients) WaitTPUOperation(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	if op == nil {
		return nil, errors.New("waiting for a TPU operation: no operation")
	}
	svc, err := c.TPU(ctx)
	if err != nil {
		return op, err
	}
	name := op.Name
	done := func(o *tpu.Operation) bool { return o.Done }
	get := func(ctx context.Context) (*tpu.Operation, error) {
		return svc.Projects.Locations.Operations.Get(name).Context(ctx).Do()
	}
	state := func(o *tpu.Operation) string {
		if o.Done {
			return "DONE"
		}
		return "RUNNING"
	}
	final, err := poll(ctx, c, name, op, done, state, get)
	if err != nil {
		return final, err
	}
	if final.Error != nil {
		return final, newOperationError(name, int(final.Error.Code), final.Error.Message, rawDetails(final.Error.Details))
	}
	return final, nil
}

// WaitContainerOperation polls a GKE operation until its Status is DONE, ctx
// ends, or polling fails with an error that is not retryable. op.Name is the
// bare operation id GKE returns; the operation is read as
// projects/{project}/locations/{location}/operations/{id}. When the finished
// operation carries Error, or only StatusMessage (older GKE: Code 2 UNKNOWN),
// the returned error is an *OperationError; the deprecated condition codes of
// the operation (for example GCE_STOCKOUT) are added to its Reasons.
func (c *Clients) WaitContainerOperation(ctx context.Context, project, location string, op *container.Operation) (*container.Operation, error) {
	if op == nil {
		return nil, errors.New("waiting for a GKE operation: no operation")
	}
	svc, err := c.Container(ctx)
	if err != nil {
		return op, err
	}
	name := op.Name
	if !strings.HasPrefix(name, "projects/") {
		name = fmt.Sprintf("projects/%s/locations/%s/operations/%s", project, location, op.Name)
	}
	done := func(o *container.Operation) bool { return o.Status == "DONE" }
	get := func(ctx context.Context) (*container.Operation, error) {
		return svc.Projects.Locations.Operations.Get(name).Context(ctx).Do()
	}
	state := func(o *container.Operation) string { return o.Status }
	final, err := poll(ctx, c, name, op, done, state, get)
	if err != nil {
		return final, err
	}
	var oe *OperationError
	switch {
	case final.Error != nil:
		oe = newOperationError(name, int(final.Error.Code), final.Error.Message, rawDetails(final.Error.Details))
	case final.StatusMessage != "":
		oe = newOperationError(name, codeUnknown, final.StatusMessage, nil)
	default:
		return final, nil
	}
	for _, cond := range slices.Concat(final.ClusterConditions, final.NodepoolConditions) {
		if cond != nil && cond.Code != "" && cond.Code != "UNKNOWN" {
			info := apiErrorInfo{reasons: oe.Reasons}
			info.addReason(cond.Code)
			oe.Reasons = info.reasons
		}
	}
	return final, oe
}

func rawDetails(in []googleapi.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(in))
	for i, r := range in {
		out[i] = json.RawMessage(r)
	}
	return out
}

// poll is the shared waiter loop. It returns the last operation read and,
// when polling stops before the operation is done, the reason.
func poll[Op any](ctx context.Context, c *Clients, name string, op Op,
	done func(Op) bool, state func(Op) string, get func(context.Context) (Op, error),
) (Op, error) {
	if !done(op) && name == "" {
		return op, errors.New("waiting for an operation: the operation has no name")
	}
	wait := c.poll.Initial
	group := pollGroupOf(ctx)
	var wake <-chan struct{}
	if group != nil {
		wake = group.channel()
	}
	notFound, notAPI := 0, 0
	var lastErr error
	for n := 1; !done(op); n++ {
		if err := c.pause(ctx, wake, c.jitter(wait)); err != nil {
			if lastErr != nil {
				return op, fmt.Errorf("waiting for operation %s: %w (last poll error: %w)", name, err, lastErr)
			}
			return op, fmt.Errorf("waiting for operation %s: %w", name, err)
		}
		wait = c.poll.next(wait)
		if group != nil {
			wake = group.channel() // a wake from now on cuts the next wait short
		}
		got, err := get(ctx)
		if err != nil {
			err = Compact(err)
			if ctx.Err() != nil {
				return op, fmt.Errorf("waiting for operation %s: %w (last poll error: %w)", name, ctx.Err(), err)
			}
			class := Classify(err)
			switch {
			case class == ClassNotFound && notFound < maxOperationNotFound:
				notFound++
			case class == ClassNotAPI:
				if notAPI++; notAPI >= NotAPIAttempts {
					return op, fmt.Errorf("polling operation %s: %w (after %d attempts)", name, err, notAPI)
				}
			case !class.Retryable():
				return op, fmt.Errorf("polling operation %s: %w", name, err)
			}
			lastErr = err
			c.log.DebugContext(ctx, "polling operation failed, will retry",
				"operation", name, "poll", n, "class", class.String(), "error", err.Error(), "next_wait", wait)
			continue
		}
		notFound, lastErr, op = 0, nil, got
		c.log.DebugContext(ctx, "polled operation", "operation", name, "poll", n, "state", state(op), "next_wait", wait)
	}
	if group != nil {
		group.Wake()
	}
	return op, nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

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
	defer c.written() // what the operation changed is not in answers read while it ran
	if op == nil {
		return nil, errors.New("waiting for a TPU operation: no operation")
	}
	svc, err := c.TPU(ctx)
	if err != nil {
		return op, err
	}
	name := op.Name
	state := func(o *tpu.Operation) string {
		if o.Done {
			return operationDone
		}
		return "RUNNING"
	}
	final, err := waitOperation(ctx, c.poller, name, op, state(op), func(ctx context.Context) (*tpu.Operation, string, error) {
		o, err := svc.Projects.Locations.Operations.Get(name).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return o, state(o), nil
	})
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
	final, err := waitOperation(ctx, c.poller, name, op, op.Status, func(ctx context.Context) (*container.Operation, string, error) {
		o, err := svc.Projects.Locations.Operations.Get(name).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return o, o.Status, nil
	})
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

// operationDone is the state of a finished operation: GKE's Status DONE,
// and the state WaitTPUOperation gives a TPU operation whose Done is set.
const operationDone = "DONE"

// waitOperation waits with WaitFor until the operation name is done. state
// is the state of op, the operation as the call that started it returned.
func waitOperation[Op any](ctx context.Context, p *Poller, name string, op Op, state string,
	refresh func(context.Context) (Op, string, error),
) (Op, error) {
	if state != operationDone && name == "" {
		return op, errors.New("waiting for an operation: the operation has no name")
	}
	return WaitFor(ctx, p, StateWait[Op]{
		What: "operation " + name, Refresh: refresh, Target: []string{operationDone},
		NotFoundRetries: maxOperationNotFound,
	}, op, state)
}

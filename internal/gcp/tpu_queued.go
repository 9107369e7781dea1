// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
	tpualpha "google.golang.org/api/tpu/v2alpha1"
)

// Queued resource states (QueuedResourceState.State, TPU v2 REST reference).
const (
	QueuedCreating     = "CREATING"
	QueuedAccepted     = "ACCEPTED"
	QueuedWaiting      = "WAITING_FOR_RESOURCES"
	QueuedProvisioning = "PROVISIONING"
	QueuedActive       = "ACTIVE"
	QueuedFailed       = "FAILED"
	QueuedSuspending   = "SUSPENDING"
	QueuedSuspended    = "SUSPENDED"
	QueuedDeleting     = "DELETING"
)

// queuedPending are the states a queued resource leaves by itself on its
// way to ACTIVE.
var queuedPending = []string{QueuedCreating, QueuedAccepted, QueuedWaiting, QueuedProvisioning}

// TPUQueued calls the Cloud TPU API's queued resources: v2, and v2alpha1
// where only it has the fields (flex-start's provisioningModel and
// runDuration). Every call is retried with [Retry] and the clients' backoff
// until its context ends; waits follow the clients' [Poller].
type TPUQueued struct {
	c     *Clients
	svc   *tpu.Service
	alpha *tpualpha.Service
}

// TPUQueued returns the queued-resources client, building the Cloud TPU
// clients on first use.
func (c *Clients) TPUQueued(ctx context.Context) (*TPUQueued, error) {
	svc, err := c.TPU(ctx)
	if err != nil {
		return nil, err
	}
	alpha, err := c.tpuAlphaService(ctx)
	if err != nil {
		return nil, err
	}
	return &TPUQueued{c: c, svc: svc, alpha: alpha}, nil
}

// tpuAlphaService returns the Cloud TPU v2alpha1 client, built on first use
// with the same endpoint and credentials as the v2 one.
func (c *Clients) tpuAlphaService(ctx context.Context) (*tpualpha.Service, error) {
	c.tpuAlphaMu.Lock()
	defer c.tpuAlphaMu.Unlock()
	if c.tpuAlpha != nil {
		return c.tpuAlpha, nil
	}
	opts, err := c.tpuOptions(ctx)
	if err != nil {
		return nil, err
	}
	svc, err := tpualpha.NewService(context.WithoutCancel(ctx), opts...)
	if err != nil {
		return nil, fmt.Errorf("creating the Cloud TPU v2alpha1 client: %w", err)
	}
	c.tpuAlpha = svc
	return svc, nil
}

// tpuOptions are the client options of both Cloud TPU API versions: one
// endpoint, one credential.
func (c *Clients) tpuOptions(ctx context.Context) ([]option.ClientOption, error) {
	return c.serviceOptions(ctx, endpointRef{api: "Cloud TPU API", url: c.cfg.TPUEndpoint,
		setting: TPUEndpointSetting, env: TPUEndpointEnv}, defaultTPUEndpoint)
}

// ProtoDuration formats d as a google.protobuf.Duration in JSON ("3600s").
func ProtoDuration(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// Create starts creating the queued resource id under parent
// (projects/P/locations/Z). With flexStartRun > 0 it is a flex-start request
// (v2alpha1 provisioningModel FLEX_START, runDuration.maxRunDuration
// flexStartRun), which only v2alpha1 accepts.
func (q *TPUQueued) Create(ctx context.Context, parent, id string, qr *tpu.QueuedResource, flexStartRun time.Duration) (*tpu.Operation, error) {
	q.c.written()
	if flexStartRun <= 0 {
		return retryValue(ctx, q.c, "queuedResources.create", func(ctx context.Context) (*tpu.Operation, error) {
			return q.svc.Projects.Locations.QueuedResources.Create(parent, qr).QueuedResourceId(id).Context(ctx).Do()
		})
	}
	alpha, err := alphaQueued(qr)
	if err != nil {
		return nil, err
	}
	alpha.ProvisioningModel = "FLEX_START"
	alpha.RunDuration = &tpualpha.RunDuration{MaxRunDuration: ProtoDuration(flexStartRun)}
	return retryValue(ctx, q.c, "queuedResources.create", func(ctx context.Context) (*tpu.Operation, error) {
		op, err := q.alpha.Projects.Locations.QueuedResources.Create(parent, alpha).QueuedResourceId(id).Context(ctx).Do()
		if err != nil {
			return nil, err
		}
		return v2Operation(op)
	})
}

// alphaQueued converts a v2 request to v2alpha1, where multisliceParams is
// called multiNodeParams.
func alphaQueued(qr *tpu.QueuedResource) (*tpualpha.QueuedResource, error) {
	b, err := json.Marshal(qr)
	if err != nil {
		return nil, fmt.Errorf("encoding the queued resource: %w", err)
	}
	var out tpualpha.QueuedResource
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("converting the queued resource to v2alpha1: %w", err)
	}
	if qr.Tpu != nil && out.Tpu != nil {
		for i, ns := range qr.Tpu.NodeSpec {
			if ns != nil && ns.MultisliceParams != nil && i < len(out.Tpu.NodeSpec) {
				out.Tpu.NodeSpec[i].MultiNodeParams = &tpualpha.MultiNodeParams{
					NodeCount: ns.MultisliceParams.NodeCount, NodeIdPrefix: ns.MultisliceParams.NodeIdPrefix,
				}
			}
		}
	}
	return &out, nil
}

func v2Operation(op *tpualpha.Operation) (*tpu.Operation, error) {
	b, err := json.Marshal(op)
	if err != nil {
		return nil, fmt.Errorf("decoding the operation: %w", err)
	}
	var out tpu.Operation
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decoding the operation: %w", err)
	}
	return &out, nil
}

// Get reads the queued resource name
// (projects/P/locations/Z/queuedResources/Q) through v2alpha1, whose view
// includes the flex-start fields.
func (q *TPUQueued) Get(ctx context.Context, name string) (*tpualpha.QueuedResource, error) {
	return retryValue(ctx, q.c, "queuedResources.get", func(ctx context.Context) (*tpualpha.QueuedResource, error) {
		return q.alpha.Projects.Locations.QueuedResources.Get(name).Context(ctx).Do()
	})
}

// Delete starts deleting the queued resource name; with force, its nodes
// are deleted first.
func (q *TPUQueued) Delete(ctx context.Context, name string, force bool) (*tpu.Operation, error) {
	q.c.written()
	return retryValue(ctx, q.c, "queuedResources.delete", func(ctx context.Context) (*tpu.Operation, error) {
		return q.svc.Projects.Locations.QueuedResources.Delete(name).Force(force).Context(ctx).Do()
	})
}

// Reset puts a FAILED or SUSPENDED queued resource back in the queue.
func (q *TPUQueued) Reset(ctx context.Context, name string) (*tpu.Operation, error) {
	q.c.written()
	return retryValue(ctx, q.c, "queuedResources.reset", func(ctx context.Context) (*tpu.Operation, error) {
		return q.svc.Projects.Locations.QueuedResources.Reset(name, &tpu.ResetQueuedResourceRequest{}).Context(ctx).Do()
	})
}

// Wait polls op until it is done; see [Clients.WaitTPUOperation].
func (q *TPUQueued) Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	return q.c.WaitTPUOperation(ctx, op)
}

// QueuedState returns the state of qr, "" when it has none.
func QueuedState(qr *tpualpha.QueuedResource) string {
	if qr == nil || qr.State == nil {
		return ""
	}
	return qr.State.State
}

// WaitActive reads the queued resource name until it leaves the pending
// states (ACTIVE, or FAILED, SUSPENDED and the like, which end the wait
// without error: the caller decides), or ctx ends. Every change of state is
// logged at info level, so that a long wait shows its progress. last is the
// queued resource as last read, if any.
func (q *TPUQueued) WaitActive(ctx context.Context, name string, last *tpualpha.QueuedResource) (*tpualpha.QueuedResource, error) {
	defer q.c.written() // the queue creates the nodes while it is waited for
	seen := QueuedState(last)
	started := time.Now()
	return WaitFor(ctx, q.c.poller, StateWait[*tpualpha.QueuedResource]{
		What:    "queued resource " + name,
		Pending: queuedPending,
		Refresh: func(ctx context.Context) (*tpualpha.QueuedResource, string, error) {
			got, err := q.Get(ctx, name)
			if err != nil {
				return nil, "", err
			}
			if st := QueuedState(got); st != seen {
				q.c.log.InfoContext(ctx, "queued resource changed state", "queued_resource", name,
					"from", seen, "to", st, "waited", time.Since(started).Round(time.Second).String())
				seen = st
			}
			return got, QueuedState(got), nil
		},
	}, last, QueuedState(last))
}

// Poller is the schedule for reading a queued resource that is changing state.
func (q *TPUQueued) Poller() *Poller { return q.c.poller }

// QueuedPending reports whether state is one a queued resource leaves by
// itself (creating, accepted, waiting for resources, provisioning).
func QueuedPending(state string) bool { return slices.Contains(queuedPending, state) }

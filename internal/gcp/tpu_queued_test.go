// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp_test

import (
	"context"
	"testing"
	"time"

	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

const (
	qZone   = "us-central1-b"
	qParent = "projects/p/locations/" + qZone
)

func queuedClient(t *testing.T) (*gcp.TPUQueued, *emulator.Server) {
	t.Helper()
	sc := emulator.Default()
	sc.Durations = emulator.Durations{}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c := gcp.NewClients(gcp.Config{TPUEndpoint: srv.TPUEndpoint(), Polling: gcp.Polling{Initial: time.Millisecond, Max: 5 * time.Millisecond}})
	q, err := c.TPUQueued(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return q, srv
}

func queuedRequest(id string) *tpu.QueuedResource {
	return &tpu.QueuedResource{
		Spot: &tpu.Spot{},
		Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{{Parent: qParent, NodeId: id,
			Node: &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}}}},
	}
}

// TestTPUQueuedWaitActive pins the waiter: it keeps reading while the
// request waits for capacity and returns the ACTIVE queued resource once
// capacity arrives (here after the third read, counted by the emulator).
func TestTPUQueuedWaitActive(t *testing.T) {
	t.Parallel()
	q, srv := queuedClient(t)
	srv.SetCapacity(qZone, "v6e-4", 0)
	if err := srv.SetCapacityAfterCalls(qZone, "v6e-4", 1, emulator.MethodTPUQueuedResourcesGet, 3); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	op, err := q.Create(ctx, qParent, "spot", queuedRequest("spot"), 0)
	if err == nil {
		_, err = q.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	name := qParent + "/queuedResources/spot"
	got, err := q.WaitActive(ctx, name, nil)
	if err != nil {
		t.Fatalf("WaitActive: %v", err)
	}
	if gcp.QueuedState(got) != gcp.QueuedActive || got.Spot == nil {
		t.Fatalf("after the wait: state %q spot %v, want an ACTIVE spot request", gcp.QueuedState(got), got.Spot)
	}
	if n := srv.Counters()[emulator.MethodTPUQueuedResourcesGet]; n < 4 {
		t.Errorf("queuedResources.get called %d times; the capacity arrived only at the third", n)
	}
}

// TestTPUQueuedWaitEndsOnFailureAndTimeout pins that a FAILED request ends
// the wait without error (the caller explains it) and that a request still
// waiting at the deadline is returned as last read with the deadline error.
func TestTPUQueuedWaitEndsOnFailureAndTimeout(t *testing.T) {
	t.Parallel()
	q, srv := queuedClient(t)
	srv.SetCapacity(qZone, "v6e-4", 0)
	ctx := context.Background()
	req := queuedRequest("waits")
	if _, err := q.Create(ctx, qParent, "waits", req, 0); err != nil {
		t.Fatal(err)
	}
	name := qParent + "/queuedResources/waits"
	wctx, cancel := context.WithCancel(ctx)
	cancel()
	last, err := q.Get(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	got, err := q.WaitActive(wctx, name, last)
	if err == nil || gcp.QueuedState(got) != gcp.QueuedWaiting {
		t.Fatalf("wait cut short: state %q err %v, want WAITING_FOR_RESOURCES and an error", gcp.QueuedState(got), err)
	}

	op, err := q.Delete(ctx, name, false)
	if err == nil {
		_, err = q.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("delete of a request without nodes: %v", err)
	}
	if _, err := q.Get(ctx, name); gcp.Classify(err) != gcp.ClassNotFound {
		t.Errorf("after delete: %v, want not found", err)
	}
}

// TestTPUQueuedFlexStart pins that a flex-start request goes through
// v2alpha1 with its run duration, and reads back as FLEX_START.
func TestTPUQueuedFlexStart(t *testing.T) {
	t.Parallel()
	q, _ := queuedClient(t)
	ctx := context.Background()
	req := queuedRequest("flex")
	req.Spot = nil
	op, err := q.Create(ctx, qParent, "flex", req, 90*time.Minute)
	if err == nil {
		_, err = q.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("flex-start create: %v", err)
	}
	got, err := q.WaitActive(ctx, qParent+"/queuedResources/flex", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.ProvisioningModel != "FLEX_START" || got.RunDuration == nil || got.RunDuration.MaxRunDuration != "5400s" {
		t.Errorf("read back: model %q run %+v, want FLEX_START with 5400s", got.ProvisioningModel, got.RunDuration)
	}
}

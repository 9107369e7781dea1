// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
	tpualpha "google.golang.org/api/tpu/v2alpha1"
)

const qrZone = "us-central1-b"

func v6eNode() *tpu.Node {
	return &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}
}

func qrRequest(nodeID string, node *tpu.Node) *tpu.QueuedResource {
	return &tpu.QueuedResource{Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{{Parent: zoneParent(qrZone), NodeId: nodeID, Node: node}}}}
}

func (e *env) createQR(t *testing.T, id string, qr *tpu.QueuedResource) *tpu.Operation {
	t.Helper()
	op, err := e.tpu.Projects.Locations.QueuedResources.Create(zoneParent(qrZone), qr).QueuedResourceId(id).Do()
	if err != nil {
		t.Fatalf("queuedResources.create %s: %v", id, err)
	}
	return op
}

func (e *env) qrState(t *testing.T, id string) *tpu.QueuedResourceState {
	t.Helper()
	qr, err := e.tpu.Projects.Locations.QueuedResources.Get(zoneParent(qrZone) + "/queuedResources/" + id).Do()
	if err != nil {
		t.Fatalf("queuedResources.get %s: %v", id, err)
	}
	return qr.State
}

func (e *env) nodeState(t *testing.T, id string) string {
	t.Helper()
	n, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent(qrZone) + "/nodes/" + id).Do()
	if err != nil {
		return "absent"
	}
	return n.State
}

// TestQueuedResourceLifecycle steps one request through the queue: accepted,
// waiting while its zone has no capacity, provisioning once capacity
// arrives, active with its node, and deleted with force.
func TestQueuedResourceLifecycle(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	e.srv.SetCapacity(qrZone, "v6e-4", 0)
	node := v6eNode()
	node.Labels = map[string]string{"team": "ml"}
	op := e.createQR(t, "serve", qrRequest("serve", node))
	if got := e.qrState(t, "serve").State; got != qrAccepted && got != qrWaiting {
		t.Fatalf("state right after create = %s", got)
	}
	op, err := e.tpu.Projects.Locations.Operations.Get(op.Name).Do()
	if err != nil || !op.Done || op.Error != nil {
		t.Fatalf("create op = %+v, %v; want done at once (it ends when the request is queued)", op, err)
	}
	var resp map[string]any
	if err := json.Unmarshal(op.Response, &resp); err != nil {
		t.Fatal(err)
	}
	if resp["@type"] != "type.googleapis.com/google.cloud.tpu.v2.QueuedResource" {
		t.Errorf("op response type = %v", resp["@type"])
	}
	e.clock.Advance(time.Hour)
	if got := e.qrState(t, "serve").State; got != qrWaiting {
		t.Fatalf("with no capacity after an hour: state %s, want %s", got, qrWaiting)
	}
	if got := e.nodeState(t, "serve"); got != "absent" {
		t.Fatalf("node while waiting: %s, want none", got)
	}

	e.srv.SetCapacity(qrZone, "v6e-4", 1)
	if got := e.qrState(t, "serve").State; got != qrProvisioning {
		t.Fatalf("after capacity arrived: %s, want %s", got, qrProvisioning)
	}
	if got := e.nodeState(t, "serve"); got != stateCreating {
		t.Fatalf("node while provisioning: %s", got)
	}
	e.tick()
	if got := e.qrState(t, "serve").State; got != qrActive {
		t.Fatalf("after provisioning: %s, want %s", got, qrActive)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent(qrZone) + "/nodes/serve").Do()
	if err != nil {
		t.Fatal(err)
	}
	want := zoneParent(qrZone) + "/queuedResources/serve"
	if n.State != stateReady || n.QueuedResource != want || n.Labels["team"] != "ml" || n.MultisliceNode {
		t.Errorf("node = state %s queuedResource %q labels %v multislice %v", n.State, n.QueuedResource, n.Labels, n.MultisliceNode)
	}

	// A second request waits: the one unit of capacity is taken.
	e.createQR(t, "second", qrRequest("second", v6eNode()))
	e.tick()
	if got := e.qrState(t, "second").State; got != qrWaiting {
		t.Fatalf("second request with the capacity taken: %s", got)
	}

	_, err = e.tpu.Projects.Locations.QueuedResources.Delete(want).Do()
	checkErr(t, err, wantErr{code: http.StatusBadRequest, status: statusFailedPrecondition, msg: "existing TPU nodes"})
	if _, err := e.tpu.Projects.Locations.QueuedResources.Delete(want).Force(true).Do(); err != nil {
		t.Fatalf("delete with force: %v", err)
	}
	if got := e.qrState(t, "serve").State; got != qrDeleting {
		t.Errorf("while deleting: %s", got)
	}
	e.tick()
	if _, err := e.tpu.Projects.Locations.QueuedResources.Get(want).Do(); err == nil {
		t.Error("queued resource still there after its delete operation")
	}
	if got := e.nodeState(t, "serve"); got != "absent" {
		t.Errorf("node after the delete: %s, want gone", got)
	}
	// Its capacity went to the request that waited.
	e.tick()
	if got := e.qrState(t, "second").State; got != qrActive {
		t.Errorf("second request after the first was deleted: %s, want %s", got, qrActive)
	}
}

// TestQueuedResourceValidUntilFails pins the queueing policy: a request not
// provisioned before validUntilDuration fails, with the reason, and reset
// puts it back in the queue.
func TestQueuedResourceValidUntilFails(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	e.srv.SetCapacity(qrZone, "v6e-4", 0)
	req := qrRequest("late", v6eNode())
	req.Spot = &tpu.Spot{}
	req.QueueingPolicy = &tpu.QueueingPolicy{ValidUntilDuration: "600s"}
	e.createQR(t, "late", req)
	e.clock.Advance(599 * time.Second)
	if got := e.qrState(t, "late").State; got != qrWaiting {
		t.Fatalf("before validUntil: %s", got)
	}
	e.clock.Advance(time.Second)
	st := e.qrState(t, "late")
	if st.State != qrFailed || st.FailedData == nil || st.FailedData.Error == nil || st.FailedData.Error.Code != 4 {
		t.Fatalf("after validUntil: %+v, want FAILED with DEADLINE_EXCEEDED", st)
	}
	name := zoneParent(qrZone) + "/queuedResources/late"
	if _, err := e.tpu.Projects.Locations.QueuedResources.Reset(name, &tpu.ResetQueuedResourceRequest{}).Do(); err != nil {
		t.Fatalf("reset: %v", err)
	}
	e.srv.SetCapacity(qrZone, "v6e-4", 1)
	if got := e.qrState(t, "late").State; got != qrProvisioning {
		t.Fatalf("after reset with capacity: %s", got)
	}
	e.tick()
	if got := e.qrState(t, "late").State; got != qrActive {
		t.Fatalf("after reset with capacity: %s", got)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent(qrZone) + "/nodes/late").Do()
	if err != nil {
		t.Fatal(err)
	}
	if n.SchedulingConfig == nil || !n.SchedulingConfig.Spot {
		t.Errorf("node of a spot request: schedulingConfig %+v, want spot", n.SchedulingConfig)
	}
	_, err = e.tpu.Projects.Locations.QueuedResources.Reset(name, &tpu.ResetQueuedResourceRequest{}).Do()
	checkErr(t, err, wantErr{code: http.StatusBadRequest, status: statusFailedPrecondition, msg: "reset is not supported while in state ACTIVE"})
}

// TestQueuedResourcePreemptionSuspends pins what happens to an active Spot
// request whose node is preempted, and to one whose node is deleted: the
// request is suspended and its nodes go away.
func TestQueuedResourcePreemptionSuspends(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	spot := qrRequest("spot", v6eNode())
	spot.Spot = &tpu.Spot{}
	e.createQR(t, "spot", spot)
	e.createQR(t, "plain", qrRequest("plain", v6eNode()))
	if a, b := e.qrState(t, "spot").State, e.qrState(t, "plain").State; a != qrActive || b != qrActive {
		t.Fatalf("states = %s, %s; want both ACTIVE", a, b)
	}
	if err := e.srv.PreemptNode(zoneParent(qrZone) + "/nodes/plain"); err == nil {
		t.Error("PreemptNode of an on-demand node: no error")
	}
	if err := e.srv.PreemptNode(zoneParent(qrZone) + "/nodes/spot"); err != nil {
		t.Fatal(err)
	}
	st := e.qrState(t, "spot")
	if st.State != qrSuspended || st.StateInitiator != initiatorService {
		t.Errorf("after preemption: %s by %s, want SUSPENDED by SERVICE", st.State, st.StateInitiator)
	}
	if got := e.nodeState(t, "spot"); got != "absent" {
		t.Errorf("preempted node: %s, want gone once suspended", got)
	}
	if err := e.srv.DeleteNode(zoneParent(qrZone) + "/nodes/plain"); err != nil {
		t.Fatal(err)
	}
	st = e.qrState(t, "plain")
	if st.State != qrSuspended || st.StateInitiator != initiatorUser {
		t.Errorf("after its node was deleted: %s by %s, want SUSPENDED by USER", st.State, st.StateInitiator)
	}
}

// TestQueuedResourceMultislice pins multisliceParams: nodeCount nodes named
// prefix-0…, all provisioned together or not at all.
func TestQueuedResourceMultislice(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	e.srv.SetCapacity(qrZone, "v6e-4", 2)
	req := &tpu.QueuedResource{Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{{
		Parent: zoneParent(qrZone), Node: v6eNode(),
		MultisliceParams: &tpu.MultisliceParams{NodeCount: 3, NodeIdPrefix: "ms"},
	}}}}
	e.createQR(t, "ms", req)
	if got := e.qrState(t, "ms").State; got != qrWaiting {
		t.Fatalf("3 slices with room for 2: %s, want WAITING_FOR_RESOURCES", got)
	}
	if got := e.nodeState(t, "ms-0"); got != "absent" {
		t.Fatalf("a slice was created before all fit: %s", got)
	}
	e.srv.SetCapacity(qrZone, "v6e-4", 3)
	if got := e.qrState(t, "ms").State; got != qrActive {
		t.Fatalf("with room for 3: %s", got)
	}
	var got []string
	for _, n := range e.srv.Nodes() {
		if !n.MultisliceNode {
			t.Errorf("%s: multisliceNode false", n.Name)
		}
		got = append(got, n.Name)
	}
	want := []string{zoneParent(qrZone) + "/nodes/ms-0", zoneParent(qrZone) + "/nodes/ms-1", zoneParent(qrZone) + "/nodes/ms-2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

// TestQueuedResourceMultisliceParams pins MultisliceParams as the v2
// reference has it: nodeCount must be above 1, the prefix defaults to the
// queued resource's id, and v2alpha1 shows the same request as
// multiNodeParams.
func TestQueuedResourceMultisliceParams(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	one := &tpu.QueuedResource{Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{{
		Parent: zoneParent(qrZone), Node: v6eNode(), MultisliceParams: &tpu.MultisliceParams{NodeCount: 1, NodeIdPrefix: "one"},
	}}}}
	if _, err := e.tpu.Projects.Locations.QueuedResources.Create(zoneParent(qrZone), one).QueuedResourceId("one").Do(); err == nil ||
		!strings.Contains(err.Error(), "greater than 1") {
		t.Errorf("nodeCount 1: %v, want INVALID_ARGUMENT", err)
	}
	req := &tpu.QueuedResource{Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{{
		Parent: zoneParent(qrZone), Node: v6eNode(), MultisliceParams: &tpu.MultisliceParams{NodeCount: 2},
	}}}}
	e.createQR(t, "pair", req)
	if got := e.qrState(t, "pair").State; got != qrActive {
		t.Fatalf("state %s", got)
	}
	for _, id := range []string{"pair-0", "pair-1"} {
		if got := e.nodeState(t, id); got != stateReady {
			t.Errorf("node %s: %s, want READY", id, got)
		}
	}
	alpha, err := tpualpha.NewService(context.Background(), option.WithEndpoint(e.srv.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	got, err := alpha.Projects.Locations.QueuedResources.Get(zoneParent(qrZone) + "/queuedResources/pair").Do()
	if err != nil {
		t.Fatal(err)
	}
	if mp := got.Tpu.NodeSpec[0].MultiNodeParams; mp == nil || mp.NodeCount != 2 {
		t.Errorf("v2alpha1 multiNodeParams = %+v, want nodeCount 2", mp)
	}
	v2, err := e.tpu.Projects.Locations.QueuedResources.Get(zoneParent(qrZone) + "/queuedResources/pair").Do()
	if err != nil {
		t.Fatal(err)
	}
	if mp := v2.Tpu.NodeSpec[0].MultisliceParams; mp == nil || mp.NodeCount != 2 {
		t.Errorf("v2 multisliceParams = %+v, want nodeCount 2", mp)
	}
}

// TestQueuedResourceFlexStart pins v2alpha1's FLEX_START: maxRunDuration is
// required and at most 7 days, and the run ends with the request
// SUSPENDED and its node deleted.
func TestQueuedResourceFlexStart(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	alpha, err := tpualpha.NewService(context.Background(), option.WithEndpoint(e.srv.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	req := func(maxRun string) *tpualpha.QueuedResource {
		qr := &tpualpha.QueuedResource{
			ProvisioningModel: provisioningFlexStart,
			Tpu: &tpualpha.Tpu{NodeSpec: []*tpualpha.NodeSpec{{Parent: zoneParent(qrZone), NodeId: "flex",
				Node: &tpualpha.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}}}},
		}
		if maxRun != "" {
			qr.RunDuration = &tpualpha.RunDuration{MaxRunDuration: maxRun}
		}
		return qr
	}
	for _, bad := range []string{"", "604801s", "0s"} {
		_, err := alpha.Projects.Locations.QueuedResources.Create(zoneParent(qrZone), req(bad)).QueuedResourceId("flex").Do()
		checkErr(t, err, wantErr{code: http.StatusBadRequest, status: statusInvalidArgument, msg: "max_run_duration"})
	}
	if _, err := alpha.Projects.Locations.QueuedResources.Create(zoneParent(qrZone), req("7200s")).QueuedResourceId("flex").Do(); err != nil {
		t.Fatal(err)
	}
	if got := e.qrState(t, "flex").State; got != qrActive {
		t.Fatalf("flex-start with capacity: %s", got)
	}
	e.clock.Advance(2*time.Hour - time.Second)
	if got := e.nodeState(t, "flex"); got != stateReady {
		t.Fatalf("node before its run ends: %s", got)
	}
	e.clock.Advance(time.Second)
	st := e.qrState(t, "flex")
	if st.State != qrSuspended || st.StateInitiator != initiatorService {
		t.Errorf("after maxRunDuration: %s by %s", st.State, st.StateInitiator)
	}
	if got := e.nodeState(t, "flex"); got != "absent" {
		t.Errorf("node after its run: %s", got)
	}
}

// TestQueuedResourceValidation pins the refusals of queuedResources.create.
func TestQueuedResourceValidation(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	create := func(id string, qr *tpu.QueuedResource) error {
		_, err := e.tpu.Projects.Locations.QueuedResources.Create(zoneParent(qrZone), qr).QueuedResourceId(id).Do()
		return err
	}
	bad := v6eNode()
	bad.AcceleratorType = "v5p-8"
	wrongParent := qrRequest("x", v6eNode())
	wrongParent.Tpu.NodeSpec[0].Parent = zoneParent("us-central1-a")
	twoTiers := qrRequest("x", v6eNode())
	twoTiers.Spot, twoTiers.Guaranteed = &tpu.Spot{}, &tpu.Guaranteed{}
	otherZone := qrRequest("x", v6eNode())
	otherZone.ReservationName = "projects/" + project + "/locations/us-central1-a/reservations/r"
	past := qrRequest("x", v6eNode())
	past.QueueingPolicy = &tpu.QueueingPolicy{ValidUntilTime: t0.Add(-time.Hour).Format(time.RFC3339)}
	for _, tc := range []struct {
		name string
		qr   *tpu.QueuedResource
		msg  string
	}{
		{"type not in zone", qrRequest("x", bad), "v5p-8"},
		{"parent of another zone", wrongParent, "parent"},
		{"two tiers", twoTiers, "Only one of spot"},
		{"reservation in another zone", otherZone, "not in the queued resource's zone"},
		{"expired policy", past, "not in the future"},
		{"no node id", qrRequest("", v6eNode()), "One of node_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, create("x", tc.qr), wantErr{code: http.StatusBadRequest, status: statusInvalidArgument, msg: tc.msg})
		})
	}
	if len(e.srv.QueuedResources()) != 0 {
		t.Errorf("refused requests left queued resources: %v", e.srv.QueuedResources())
	}
}

// TestQueuedResourceReservationCapacity pins named reservations: capacity
// set for "reservations/NAME" in the zone is what the request draws from.
func TestQueuedResourceReservationCapacity(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	e.srv.SetCapacity(qrZone, "v6e-4", 0)
	e.srv.SetCapacity(qrZone, "reservations/res", 1)
	req := qrRequest("reserved", v6eNode())
	req.ReservationName = "projects/" + project + "/locations/" + qrZone + "/reservations/res"
	e.createQR(t, "reserved", req)
	if got := e.qrState(t, "reserved").State; got != qrActive {
		t.Fatalf("reserved request with the zone stocked out but room in the reservation: %s", got)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent(qrZone) + "/nodes/reserved").Do()
	if err != nil || n.SchedulingConfig == nil || !n.SchedulingConfig.Reserved {
		t.Errorf("reserved node: %+v, %v; want schedulingConfig.reserved", n, err)
	}
}

// TestCapacityAfterCalls pins the hook that lets capacity arrive while a
// client waits: nothing changes until the counted call.
func TestCapacityAfterCalls(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	e.srv.SetCapacity(qrZone, "v6e-4", 0)
	if err := e.srv.SetCapacityAfterCalls(qrZone, "v6e-4", 1, MethodTPUQueuedResourcesGet, 2); err != nil {
		t.Fatal(err)
	}
	e.createQR(t, "w", qrRequest("w", v6eNode()))
	// The first get is counted and still waits; the second releases the
	// capacity before it is served, and the next one sees the result.
	for i, want := range []string{qrWaiting, qrWaiting, qrActive} {
		if got := e.qrState(t, "w").State; got != want {
			t.Errorf("get %d: %s, want %s", i+1, got, want)
		}
	}
	if err := e.srv.SetCapacityAfterCalls(qrZone, "v6e-4", 1, "nope", 1); err == nil {
		t.Error("unknown method accepted")
	}
}

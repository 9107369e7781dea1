// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	compute "google.golang.org/api/compute/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

const (
	ciZone    = "us-central1-c"
	ciMachine = "tpu7x-standard-4t"
)

func fastPolling() gcp.Polling {
	return gcp.Polling{Initial: time.Millisecond, Max: 5 * time.Millisecond}
}

func instancesClient(t *testing.T, endpoint string) *gcp.ComputeInstances {
	t.Helper()
	c := gcp.NewClients(gcp.Config{ComputeEndpoint: endpoint, Polling: fastPolling()})
	ci, err := c.ComputeInstances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ci
}

func ironwood(name string) *compute.Instance {
	return &compute.Instance{
		Name:        name,
		MachineType: "zones/" + ciZone + "/machineTypes/" + ciMachine,
		Disks: []*compute.AttachedDisk{{Boot: true, AutoDelete: true, InitializeParams: &compute.AttachedDiskInitializeParams{
			SourceImage: "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2404-amd64-tpu-tpu7x",
			DiskType:    "hyperdisk-balanced"}}},
	}
}

// TestComputeInstancesLifecycle drives the client against the emulator: a
// stockout is ClassCapacity, capacity raised lets the same insert through,
// a duplicate is ClassAlreadyExists, a stale fingerprint is returned after
// one call (not retried), and a deleted instance is ClassNotFound.
func TestComputeInstancesLifecycle(t *testing.T) {
	t.Parallel()
	sc := emulator.Default()
	sc.Durations = emulator.Durations{}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ci := instancesClient(t, srv.ComputeEndpoint())
	ctx := context.Background()
	insert := func(name string) error {
		op, err := ci.Insert(ctx, "p", ciZone, ironwood(name))
		if err == nil {
			_, err = ci.Wait(ctx, op)
		}
		return err
	}

	srv.SetCapacity(ciZone, ciMachine, 0)
	err = insert("tpu")
	var oe *gcp.OperationError
	if gcp.Classify(err) != gcp.ClassCapacity || !errors.As(err, &oe) || oe.Reasons[0] != "ZONE_RESOURCE_POOL_EXHAUSTED" {
		t.Fatalf("insert in a stocked-out zone: %v (class %s), want a capacity error", err, gcp.Classify(err))
	}
	srv.SetCapacity(ciZone, ciMachine, 1)
	if err := insert("tpu"); err != nil {
		t.Fatalf("insert once capacity arrived: %v", err)
	}
	if err := insert("tpu"); gcp.Classify(err) != gcp.ClassAlreadyExists {
		t.Errorf("insert of a taken name: %v, want already exists", err)
	}

	found, err := ci.ListNamed(ctx, "p", "tpu")
	if err != nil || len(found) != 1 || !strings.HasSuffix(found[0].Zone, "/zones/"+ciZone) || found[0].Status != "RUNNING" {
		t.Fatalf("ListNamed: %v %+v", err, found)
	}
	for _, zone := range []string{ciZone, "-"} {
		all, err := ci.List(ctx, "p", zone)
		if err != nil || len(all) != 1 || all[0].Name != "tpu" {
			t.Fatalf("List(%q): %v %+v, want the one instance", zone, err, all)
		}
	}
	if other, err := ci.List(ctx, "other-project", "-"); err != nil || len(other) != 0 {
		t.Fatalf("List of another project: %v %+v, want none", err, other)
	}
	inst, err := ci.Get(ctx, "p", ciZone, "tpu")
	if err != nil {
		t.Fatal(err)
	}

	calls := srv.Counters()[emulator.MethodComputeInstancesSetLabels]
	_, err = ci.SetLabels(ctx, "p", ciZone, "tpu", &compute.InstancesSetLabelsRequest{Labels: map[string]string{"a": "b"}, LabelFingerprint: "stale"})
	if !gcp.IsStaleFingerprint(err) || gcp.Classify(err) != gcp.ClassConflict {
		t.Fatalf("setLabels with a stale fingerprint: %v, want a stale fingerprint", err)
	}
	if n := srv.Counters()[emulator.MethodComputeInstancesSetLabels] - calls; n != 1 {
		t.Errorf("setLabels with a stale fingerprint was called %d times, want once (no blind retry)", n)
	}
	op, err := ci.SetLabels(ctx, "p", ciZone, "tpu", &compute.InstancesSetLabelsRequest{Labels: map[string]string{"a": "b"}, LabelFingerprint: inst.LabelFingerprint})
	if err == nil {
		_, err = ci.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("setLabels: %v", err)
	}
	op, err = ci.SetMetadata(ctx, "p", ciZone, "tpu", &compute.Metadata{Fingerprint: inst.Metadata.Fingerprint})
	if err == nil {
		op, err = ci.SetTags(ctx, "p", ciZone, "tpu", &compute.Tags{Fingerprint: inst.Tags.Fingerprint, Items: []string{"tpu"}})
	}
	if err == nil {
		_, err = ci.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("setMetadata and setTags: %v", err)
	}
	if got, err := ci.Get(ctx, "p", ciZone, "tpu"); err != nil || got.Labels["a"] != "b" || len(got.Tags.Items) != 1 {
		t.Fatalf("after the changes: %v %+v", err, got)
	}

	op, err = ci.Delete(ctx, "p", ciZone, "tpu")
	if err == nil {
		_, err = ci.Wait(ctx, op)
	}
	if err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := ci.Get(ctx, "p", ciZone, "tpu"); gcp.Classify(err) != gcp.ClassNotFound {
		t.Errorf("get after delete: %v, want not found", err)
	}
}

// zoneOpServer answers every zoneOperations.get with op.
func zoneOpServer(t *testing.T, op func() *compute.Operation) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var gets atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/zones/"+ciZone+"/operations/op-1") {
			http.Error(w, `{"error":{"code":501,"message":"unexpected"}}`, http.StatusNotImplemented)
			return
		}
		gets.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(op())
	}))
	t.Cleanup(srv.Close)
	return srv, &gets
}

func runningOp(endpoint string) *compute.Operation {
	return &compute.Operation{Kind: "compute#operation", Name: "op-1", Status: "RUNNING",
		SelfLink: endpoint + "projects/p/zones/" + ciZone + "/operations/op-1"}
}

// expiring is a context whose deadline passes when expire is called, not
// at a time: a test of what happens at a deadline that does not depend on
// how fast the machine is.
type expiring struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiring() *expiring {
	return &expiring{Context: context.Background(), done: make(chan struct{})}
}

func (c *expiring) expire()                     { c.once.Do(func() { close(c.done) }) }
func (c *expiring) Deadline() (time.Time, bool) { return time.Now().Add(time.Hour), true }
func (c *expiring) Done() <-chan struct{}       { return c.done }
func (c *expiring) Value(key any) any           { return c.Context.Value(key) }
func (c *expiring) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// TestComputeInstancesWaitEndsAtDeadline pins that Wait on an operation
// that never finishes returns at the context's deadline, with a deadline
// error and the operation as last read. The deadline passes once the
// operation has been read.
func TestComputeInstancesWaitEndsAtDeadline(t *testing.T) {
	t.Parallel()
	var endpoint string
	ctx := newExpiring()
	srv, gets := zoneOpServer(t, func() *compute.Operation {
		ctx.expire()
		return runningOp(endpoint)
	})
	endpoint = srv.URL + "/compute/v1/"
	ci := instancesClient(t, endpoint)
	last, err := ci.Wait(ctx, runningOp(endpoint))
	if gcp.Classify(err) != gcp.ClassDeadline || last == nil || last.Status != "RUNNING" {
		t.Fatalf("Wait past the deadline: %v (class %s), last %+v; want a deadline error", err, gcp.Classify(err), last)
	}
	if gets.Load() == 0 {
		t.Error("Wait never read the operation")
	}
}

// TestComputeOperationErrorClasses pins how a failed Compute Engine
// operation is classified: by its error codes (stockouts), then by its
// HTTP status.
func TestComputeOperationErrorClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code   string
		status int64
		want   gcp.Class
	}{
		{"ZONE_RESOURCE_POOL_EXHAUSTED", 503, gcp.ClassCapacity},
		{"ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS", 503, gcp.ClassCapacity},
		{"RESOURCE_NOT_FOUND", 404, gcp.ClassNotFound},
		{"INVALID_FIELD_VALUE", 400, gcp.ClassInvalidArgument},
		{"SOMETHING_NEW", 0, gcp.ClassUnknown},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			var endpoint string
			srv, _ := zoneOpServer(t, func() *compute.Operation {
				op := runningOp(endpoint)
				op.Status, op.HttpErrorStatusCode = "DONE", tc.status
				op.Error = &compute.OperationError{Errors: []*compute.OperationErrorErrors{{Code: tc.code, Message: "failed"}}}
				return op
			})
			endpoint = srv.URL + "/compute/v1/"
			_, err := instancesClient(t, endpoint).Wait(context.Background(), runningOp(endpoint))
			var oe *gcp.OperationError
			if !errors.As(err, &oe) || gcp.Classify(err) != tc.want || oe.Reasons[0] != tc.code || oe.Message != "failed" {
				t.Errorf("Wait = %v (class %s), want an *OperationError of class %s", err, gcp.Classify(err), tc.want)
			}
		})
	}
}

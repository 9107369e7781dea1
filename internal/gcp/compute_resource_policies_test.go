// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp_test

import (
	"context"
	"testing"

	compute "google.golang.org/api/compute/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestResourcePolicies: insert waits for its operation, a taken name is
// ClassAlreadyExists, delete waits and a missing policy is no error.
func TestResourcePolicies(t *testing.T) {
	t.Parallel()
	srv, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c := gcp.NewClients(gcp.Config{ComputeEndpoint: srv.ComputeEndpoint(), Polling: fastPolling()})
	rp, err := c.ResourcePolicies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	p := &compute.ResourcePolicy{Name: "slice", WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "HIGH_THROUGHPUT", AcceleratorTopology: "2x2x2"}}
	if err := rp.Insert(ctx, "p", "us-central1", p); err != nil {
		t.Fatalf("insert: %v", err)
	}
	got, err := rp.Get(ctx, "p", "us-central1", "slice")
	if err != nil || got.Status != "READY" || got.WorkloadPolicy.AcceleratorTopology != "2x2x2" {
		t.Fatalf("get after insert: %v %+v, want READY", err, got)
	}
	if err := rp.Insert(ctx, "p", "us-central1", p); gcp.Classify(err) != gcp.ClassAlreadyExists {
		t.Errorf("insert of a taken name: %v (%v), want ClassAlreadyExists", err, gcp.Classify(err))
	}
	if err := rp.Delete(ctx, "p", "us-central1", "slice"); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := rp.Get(ctx, "p", "us-central1", "slice"); gcp.Classify(err) != gcp.ClassNotFound {
		t.Errorf("get after delete: %v, want not found", err)
	}
	if err := rp.Delete(ctx, "p", "us-central1", "slice"); err != nil {
		t.Errorf("delete of a missing policy: %v", err)
	}
}

func TestParseResourcePolicyName(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string][3]string{
		"slice": {"", "", "slice"},
		"projects/p/regions/us-central1/resourcePolicies/slice":                                    {"p", "us-central1", "slice"},
		"https://compute.googleapis.com/compute/v1/projects/p/regions/us-east5/resourcePolicies/s": {"p", "us-east5", "s"},
	} {
		p, r, n, err := gcp.ParseResourcePolicyName(ref)
		if err != nil || [3]string{p, r, n} != want {
			t.Errorf("ParseResourcePolicyName(%q) = %q %q %q, %v; want %v", ref, p, r, n, err, want)
		}
	}
	for _, bad := range []string{"", "projects/p/zones/z/resourcePolicies/s", "projects/p/regions/r/resourcePolicies/", "a/b"} {
		if _, _, _, err := gcp.ParseResourcePolicyName(bad); err == nil {
			t.Errorf("ParseResourcePolicyName(%q) accepted", bad)
		}
	}
}

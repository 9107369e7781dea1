// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package livecheck

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

func startEmulator(t *testing.T) (*emulator.Server, *Checker) {
	t.Helper()
	srv, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	clients := gcp.NewClients(gcp.Config{Project: "p", TPUEndpoint: srv.TPUEndpoint(), ComputeEndpoint: srv.ComputeEndpoint()})
	return srv, New(clients)
}

// TestPoolZonesAsksOncePerType: the live answer for a machine type is one
// aggregated list call per provider process, whatever the number of
// tiers and zones asking.
func TestPoolZonesAsksOncePerType(t *testing.T) {
	t.Parallel()
	srv, c := startEmulator(t)
	q := PoolQuery{Project: "p", MachineType: "a2-ultragpu-4g", Zones: []string{"us-central1-a", "us-central1-c"}, Region: "us-central1"}
	for range 3 {
		fs, answered := c.PoolZones(context.Background(), q)
		if !slices.Equal(answered, q.Zones) {
			t.Fatalf("answered = %v, want every zone asked, %v", answered, q.Zones)
		}
		if len(fs) != 1 || fs[0].Severity != catalog.SeverityError || fs[0].Index != 0 ||
			!strings.Contains(fs[0].Detail, "zones of us-central1 that offer it: us-central1-c.") {
			t.Fatalf("findings = %v, want one error on node_locations[0] naming us-central1-c", fs)
		}
	}
	if n := srv.Counters()[emulator.MethodComputeMachineTypesAggregatedList]; n != 1 {
		t.Errorf("machineTypes.aggregatedList called %d times, want 1", n)
	}
	// An attached GPU type is asked for by accelerator type.
	fs, _ := c.PoolZones(context.Background(), PoolQuery{Project: "p", GPUType: "nvidia-tesla-p100", Zones: []string{"us-central1-a"}})
	if len(fs) != 0 {
		t.Errorf("P100 in us-central1-a: want no finding, got %v", fs)
	}
}

// TestPoolZonesPermissionDenied: a refused list is a warning naming the
// permission, never an error.
func TestPoolZonesPermissionDenied(t *testing.T) {
	t.Parallel()
	srv, c := startEmulator(t)
	if err := srv.FailNext(emulator.MethodComputeMachineTypesAggregatedList, 1, http.StatusForbidden); err != nil {
		t.Fatal(err)
	}
	fs, answered := c.PoolZones(context.Background(), PoolQuery{Project: "p", MachineType: "ct6e-standard-4t", Zones: []string{"us-central1-b"}})
	if len(answered) != 0 {
		t.Errorf("answered = %v after a refused list, want none: the catalog's zone lists stand", answered)
	}
	if len(fs) != 1 || fs[0].Severity != catalog.SeverityWarning || !strings.Contains(fs[0].Detail, "compute.machineTypes.list") {
		t.Errorf("findings = %v, want one warning naming compute.machineTypes.list", fs)
	}
}

// TestTPUZonesNamesTheZone: a zone whose Cloud TPU API lacks the type is an
// error on its index; a zone that has it is not.
func TestTPUZonesNamesTheZone(t *testing.T) {
	t.Parallel()
	_, c := startEmulator(t)
	res := catalog.Default().ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-8"})
	fs, answered := c.TPUZones(context.Background(), catalog.Default(), "p", catalog.AttrZones, []string{"us-central1-b", "us-central1-a"}, res)
	if !slices.Equal(answered, []string{"us-central1-b", "us-central1-a"}) {
		t.Errorf("answered = %v, want both zones", answered)
	}
	if len(fs) != 1 || fs[0].Index != 1 || fs[0].Severity != catalog.SeverityError || fs[0].Value != "us-central1-a" {
		t.Errorf("findings = %v, want one error on zones[1]", fs)
	}
}

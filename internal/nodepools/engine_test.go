// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// startEmulator starts an emulator with fast polling clients for it.
func startEmulator(t *testing.T, sc *emulator.Scenario) (*emulator.Server, *gcp.Clients) {
	t.Helper()
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	clients := gcp.NewClients(gcp.Config{
		ContainerEndpoint: srv.ContainerEndpoint(),
		Polling:           gcp.Polling{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 1.5},
	})
	return srv, clients
}

func gpuSpecs(t *testing.T, names ...string) []tierSpec {
	t.Helper()
	var out []tierSpec
	for _, n := range names {
		s, fs := derive(catalog.Default(), tierInput{Name: n, MachineType: "g2-standard-4", GPUType: "nvidia-l4",
			Locations: []string{"us-central1-a"}, AutoRepair: true, AutoUpgrade: true}, "cc", "")
		if fs.HasErrors() {
			t.Fatal(fs)
		}
		out = append(out, s)
	}
	return out
}

// createOrder lists the pools of the CREATE_NODE_POOL operations, oldest first.
func createOrder(t *testing.T, srv *emulator.Server, project string) []string {
	t.Helper()
	svc, err := container.NewService(context.Background(), option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := svc.Projects.Locations.Operations.List("projects/" + project + "/locations/us-central1").Do()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, op := range resp.Operations {
		if op.OperationType == "CREATE_NODE_POOL" {
			out = append(out, op.TargetLink[strings.LastIndex(op.TargetLink, "/")+1:])
		}
	}
	return out
}

// TestExecuteOrder: whether GKE serializes pool creates or not, and even
// when an operation outside Terraform holds the cluster first, every pool is
// created, and the creates start in tier order.
func TestExecuteOrder(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		serialize bool
		hold      bool
	}{
		"serialized":               {serialize: true},
		"concurrent":               {},
		"concurrent, cluster held": {hold: true},
		"serialized, cluster held": {serialize: true, hold: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := emulator.Default()
			sc.SerializePoolCreates = tt.serialize
			sc.Durations.PoolCreate = 60 * time.Millisecond
			srv, clients := startEmulator(t, sc)
			const project = "order"
			if tt.hold {
				if _, err := srv.HoldCluster(project, "us-central1", "serving", 150*time.Millisecond); err != nil {
					t.Fatal(err)
				}
			}
			ops, err := newPoolOps(t.Context(), clients, gcp.NewLimiter(poolConcurrency), gcp.ClusterID(project, "us-central1", "serving"))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"tier-d", "tier-c", "tier-b", "tier-a"}
			if failed := ops.execute(t.Context(), planSteps(gpuSpecs(t, names...), nil, nil, nil)); len(failed) > 0 {
				t.Fatalf("execute failed: %v", failed)
			}
			if got := createOrder(t, srv, project); !slices.Equal(got, names) {
				t.Errorf("creates started in order %v, want %v", got, names)
			}
			pools, err := ops.list(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				if p := pools[n]; p == nil || p.Status != statusRunning {
					t.Errorf("pool %s: %+v", n, p)
				}
			}
		})
	}
}

// TestExecuteFailures: a stocked-out pool and a failing delete are reported
// per pool, and the other steps still run.
func TestExecuteFailures(t *testing.T) {
	t.Parallel()
	sc := emulator.Default()
	srv, clients := startEmulator(t, sc)
	const project = "fail"
	ops, err := newPoolOps(t.Context(), clients, gcp.NewLimiter(poolConcurrency), gcp.ClusterID(project, "us-central1", "serving"))
	if err != nil {
		t.Fatal(err)
	}
	srv.SetCapacity("us-central1-a", "nvidia-l4", 1)
	failed := ops.execute(t.Context(), planSteps(gpuSpecs(t, "first", "second"), nil, nil, nil))
	if len(failed) != 1 || gcp.Classify(failed["second"]) != gcp.ClassCapacity {
		t.Fatalf("failures = %v, want a stockout of the second pool", failed)
	}
	pools, err := ops.list(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if pools["first"] == nil || pools["first"].Status != statusRunning || pools["second"] == nil || pools["second"].Status != statusError {
		t.Fatalf("pools after the stockout: first %v, second %v", pools["first"], pools["second"])
	}
	if zones := gcp.ZonesAvailable(failed["second"]); len(zones) == 0 {
		t.Errorf("the stockout names no zones with capacity: %v", failed["second"])
	}
	if err := srv.FailNextOperations(emulator.MethodNodePoolsDelete, 1, 13); err != nil {
		t.Fatal(err)
	}
	state := map[string]tierModel{}
	specs := map[string]tierSpec{}
	for _, s := range gpuSpecs(t, "first", "second") {
		specs[s.Name] = s
	}
	failed = ops.execute(t.Context(), planSteps(nil, state, specs, []string{"first", "second"}))
	if len(failed) != 1 {
		t.Fatalf("failures = %v, want one failed delete", failed)
	}
	for k, err := range failed {
		if !strings.HasPrefix(k, "-") || gcp.Classify(err) == gcp.ClassNotFound {
			t.Errorf("failure %s: %v", k, err)
		}
	}
}

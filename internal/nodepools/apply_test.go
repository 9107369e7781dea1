// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
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
			sc.Durations.PoolCreate = 20 * time.Millisecond
			srv, clients := startEmulator(t, sc)
			const project = "order"
			if tt.hold {
				// Held until the first create, refused, waits for the hold.
				if _, err := srv.HoldClusterUntilCalls(project, "us-central1", "serving", emulator.MethodContainerOperationsGet, 1); err != nil {
					t.Fatal(err)
				}
			}
			ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID(project, "us-central1", "serving"))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"tier-d", "tier-c", "tier-b", "tier-a"}
			if failed := ops.execute(t.Context(), planSteps(gpuSpecs(t, names...), nil, nil, nil), nil); len(failed) > 0 {
				t.Fatalf("execute failed: %v", failed)
			}
			if got := createOrder(t, srv, project); !slices.Equal(got, names) {
				t.Errorf("creates started in order %v, want %v", got, names)
			}
			pools, err := ops.api.List(t.Context())
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
	ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID(project, "us-central1", "serving"))
	if err != nil {
		t.Fatal(err)
	}
	ops.owner = poolOwner{id: "0123456789abcdef0123"}
	srv.SetCapacity("us-central1-a", "nvidia-l4", 1)
	failed := ops.execute(t.Context(), planSteps(gpuSpecs(t, "first", "second"), nil, nil, nil), nil)
	if len(failed) != 1 || gcp.Classify(failed["second"]) != gcp.ClassCapacity {
		t.Fatalf("failures = %v, want a stockout of the second pool", failed)
	}
	pools, err := ops.api.List(t.Context())
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
	ops.evidence = evidenceOf(nil, true) // the plan drops both pools
	failed = ops.execute(t.Context(), planSteps(nil, state, specs, []string{"first", "second"}), nil)
	if len(failed) != 1 {
		t.Fatalf("failures = %v, want one failed delete", failed)
	}
	for k, err := range failed {
		if !strings.HasPrefix(k, "-") || gcp.Classify(err) == gcp.ClassNotFound {
			t.Errorf("failure %s: %v", k, err)
		}
	}
}

// containerService is a GKE client for the emulator, for changes made
// behind the resource's back.
func containerService(t *testing.T, srv *emulator.Server) *container.Service {
	t.Helper()
	svc, err := container.NewService(context.Background(), option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestCreateAdopts: a pool this resource created in an apply that never
// recorded it (Terraform killed mid-apply) is adopted by the next create,
// whatever state it is in, and brought to the tier's settings; a pool of
// the same name that another party created, or that has another shape, is
// refused.
func TestCreateAdopts(t *testing.T) {
	t.Parallel()
	const owner = "0123456789abcdef0123"
	mine, fs := derive(catalog.Default(), tierInput{Name: "pool", MachineType: "g2-standard-4", GPUType: "nvidia-l4",
		Locations: []string{"us-central1-a"}, AutoRepair: true, AutoUpgrade: true, Labels: map[string]string{"team": "new"}}, "cc", "")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	// owned is the pool an apply of this resource instance created and
	// did not record (an update killed after GKE accepted the create).
	owned := func() *container.NodePool {
		np := mine.nodePool(catalog.Default())
		np.Config.ResourceLabels = map[string]string{"accel-managed": owner}
		return np
	}
	other := func(mutate func(np *container.NodePool)) func() *container.NodePool {
		return func() *container.NodePool {
			np := owned()
			mutate(np)
			return np
		}
	}
	tests := map[string]struct {
		existing    func() *container.NodePool
		capacity    int // L4 capacity in the zone, -1 for unlimited
		wantAdopted bool
		wantClass   gcp.Class // of the create's error; ClassUnknown for none
		wantRefusal string    // in the poolExistsError's reason
		wantUpdates int64
	}{
		"still provisioning": {existing: owned, capacity: -1, wantAdopted: true},
		"with other labels and size": {existing: other(func(np *container.NodePool) {
			np.Config.Labels["team"] = "old"
			np.InitialNodeCount = 2
		}), capacity: -1, wantAdopted: true, wantUpdates: 2},
		"left in ERROR by a stockout": {existing: owned, capacity: 0, wantAdopted: true, wantClass: gcp.ClassCapacity},
		"created by someone else": {existing: other(func(np *container.NodePool) { np.Config.ResourceLabels = nil }),
			capacity: -1, wantRefusal: "has no accel-managed label"},
		"created by another resource instance": {existing: other(func(np *container.NodePool) {
			np.Config.ResourceLabels["accel-managed"] = "fedcba9876543210fedc"
		}), capacity: -1, wantRefusal: "owner id of another resource instance"},
		"of another ComputeClass": {existing: other(func(np *container.NodePool) { np.Config.Labels[catalog.LabelComputeClass] = "other" }),
			capacity: -1, wantRefusal: `belongs to ComputeClass "other"`},
		"of another machine type": {existing: other(func(np *container.NodePool) { np.Config.MachineType = "g2-standard-8" }),
			capacity: -1, wantRefusal: `has machine type "g2-standard-8"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := emulator.Default()
			sc.Durations.PoolCreate = 20 * time.Millisecond
			srv, clients := startEmulator(t, sc)
			srv.SetCapacity("us-central1-a", "nvidia-l4", tt.capacity)
			const project = "adopt"
			cluster := gcp.ClusterID(project, "us-central1", "serving")
			if tt.wantClass != gcp.ClassCapacity {
				// The pool is still being created when the resource's own
				// create reaches GKE: the killed apply's create hangs until
				// the emulator has counted that second create.
				if err := srv.HangOperationsUntilCalls(emulator.MethodNodePoolsCreate, emulator.MethodNodePoolsCreate, 2); err != nil {
					t.Fatal(err)
				}
			}
			// The apply that was killed: its create was accepted, nothing recorded.
			op, err := containerService(t, srv).Projects.Locations.Clusters.NodePools.Create(cluster,
				&container.CreateNodePoolRequest{NodePool: tt.existing()}).Do()
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantClass == gcp.ClassCapacity {
				// The stockout has happened before the next apply.
				if _, err := clients.WaitContainerOperation(t.Context(), project, "us-central1", op); gcp.Classify(err) != gcp.ClassCapacity {
					t.Fatalf("setting up the stockout: %v", err)
				}
			}
			before := srv.Counters()
			ops, err := newPoolOps(t.Context(), catalog.Default(), clients, cluster)
			if err != nil {
				t.Fatal(err)
			}
			ops.owner = poolOwner{id: owner}
			steps := planSteps([]tierSpec{mine}, nil, nil, nil)
			failed := ops.execute(t.Context(), steps, nil)
			err = failed["pool"]

			var refused *poolExistsError
			switch {
			case tt.wantRefusal != "":
				if !errors.As(err, &refused) || !strings.Contains(refused.reason, tt.wantRefusal) {
					t.Fatalf("error = %v, want a refusal that %s", err, tt.wantRefusal)
				}
			case tt.wantClass != gcp.ClassUnknown:
				if gcp.Classify(err) != tt.wantClass {
					t.Fatalf("error = %v (class %v), want class %v", err, gcp.Classify(err), tt.wantClass)
				}
			case err != nil:
				t.Fatalf("create failed: %v", err)
			}
			if steps[0].adopted != tt.wantAdopted {
				t.Errorf("adopted = %v, want %v", steps[0].adopted, tt.wantAdopted)
			}
			after := srv.Counters()
			if got := after[emulator.MethodNodePoolsCreate] - before[emulator.MethodNodePoolsCreate]; got != 1 {
				t.Errorf("%d create calls, want 1 (answered ALREADY_EXISTS)", got)
			}
			if got := after[emulator.MethodNodePoolsUpdate] + after[emulator.MethodNodePoolsSetSize] -
				before[emulator.MethodNodePoolsUpdate] - before[emulator.MethodNodePoolsSetSize]; got != tt.wantUpdates {
				t.Errorf("%d update calls, want %d", got, tt.wantUpdates)
			}
			pools, err := ops.api.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			np := pools["pool"]
			if np == nil {
				t.Fatal("the pool is gone")
			}
			if tt.wantAdopted && tt.wantClass == gcp.ClassUnknown {
				nodes := 0
				for _, p := range srv.NodePools() {
					if strings.HasSuffix(p.Name, "/nodePools/pool") {
						nodes = p.NodesPerZone["us-central1-a"]
					}
				}
				if np.Status != statusRunning || np.Config.Labels["team"] != "new" || int64(nodes) != mine.NodeCount {
					t.Errorf("adopted pool: status %s, labels %v, %d nodes; want RUNNING with the tier's labels and %d nodes",
						np.Status, np.Config.Labels, nodes, mine.NodeCount)
				}
			}
		})
	}
}

// TestCallWaitsForBlockingOperation: a create refused because another
// operation runs on the cluster (GKE serializing pool creates, or an
// operation started outside Terraform) waits for that operation and is
// retried once, instead of polling GKE with blind retries; rate limits are
// still retried with backoff.
func TestCallWaitsForBlockingOperation(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		serialize bool
		// hold holds the cluster, outside Terraform, until the first
		// operations.get: the wait of the create it refused.
		hold bool
		// hangCreates, when > 0, makes creates hang until the emulator has
		// counted that many creates: the create that reaches the count
		// arrives while the ones before it still run.
		hangCreates int
		rateEvery   int
		// wantCreates is the exact number of create calls, 0 to skip.
		wantCreates int64
	}{
		// a is created; b, refused while a runs, waits for it and is
		// retried once; c follows b, one operation at a time.
		"serialized creates": {serialize: true, hangCreates: 2, wantCreates: 4},
		// a, refused while the cluster is held, waits for the hold and is
		// retried once; b and c follow.
		"cluster held outside Terraform": {hold: true, wantCreates: 4},
		// Both of the above: a twice, b twice, c once.
		"serialized, cluster held":  {serialize: true, hold: true, hangCreates: 3, wantCreates: 5},
		"every other create is 429": {rateEvery: 2},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := emulator.Default()
			sc.SerializePoolCreates = tt.serialize
			sc.Durations.PoolCreate = 20 * time.Millisecond
			srv, clients := startEmulator(t, sc)
			const project = "block"
			if tt.hold {
				if _, err := srv.HoldClusterUntilCalls(project, "us-central1", "serving", emulator.MethodContainerOperationsGet, 1); err != nil {
					t.Fatal(err)
				}
			}
			if tt.hangCreates > 0 {
				if err := srv.HangOperationsUntilCalls(emulator.MethodNodePoolsCreate, emulator.MethodNodePoolsCreate, tt.hangCreates); err != nil {
					t.Fatal(err)
				}
			}
			if tt.rateEvery > 0 {
				if err := srv.SetRateLimit(emulator.MethodNodePoolsCreate, tt.rateEvery); err != nil {
					t.Fatal(err)
				}
			}
			ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID(project, "us-central1", "serving"))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"a", "b", "c"}
			if failed := ops.execute(t.Context(), planSteps(gpuSpecs(t, names...), nil, nil, nil), nil); len(failed) > 0 {
				t.Fatalf("execute failed: %v", failed)
			}
			counters := srv.Counters()
			if got := counters[emulator.MethodNodePoolsCreate]; tt.wantCreates > 0 && got != tt.wantCreates {
				t.Errorf("%d create calls, want %d: each refused create waits for the operation that blocks it", got, tt.wantCreates)
			}
			if tt.wantCreates > 0 && counters[emulator.MethodContainerOperationsList] == 0 {
				t.Error("the blocking operation was never looked up")
			}
			pools, err := ops.api.List(t.Context())
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

// createForeign creates pool name on the emulator's cluster through the GKE
// API, as someone outside this resource would, with the ownership label
// value owner ("" for none), and waits until GKE finished.
func createForeign(t *testing.T, srv *emulator.Server, clients *gcp.Clients, project, name, owner string) {
	t.Helper()
	svc, err := container.NewService(t.Context(), option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	np := gpuSpecs(t, name)[0].nodePool(catalog.Default())
	if owner != "" {
		np.Config.ResourceLabels = map[string]string{"accel-managed": owner}
	}
	op, err := svc.Projects.Locations.Clusters.NodePools.Create(gcp.ClusterID(project, "us-central1", "serving"),
		&container.CreateNodePoolRequest{NodePool: np}).Context(t.Context()).Do()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clients.WaitContainerOperation(t.Context(), project, "us-central1", op); err != nil {
		t.Fatal(err)
	}
}

// TestOwnershipGuards: whatever the state says, a pool that carries no
// ownership label or another instance's owner id is never deleted, re-created
// or changed, and a create refused for it is never recorded; pools imported
// without the label are this resource's.
func TestOwnershipGuards(t *testing.T) {
	t.Parallel()
	srv, clients := startEmulator(t, emulator.Default())
	const project = "owners"
	const mine, other = "0123456789abcdef0123", "fedcba9876543210fedc"
	createForeign(t, srv, clients, project, "unlabelled", "")
	createForeign(t, srv, clients, project, "other", other)
	createForeign(t, srv, clients, project, "imported", "")
	newOps := func() *poolOps {
		ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID(project, "us-central1", "serving"))
		if err != nil {
			t.Fatal(err)
		}
		ops.owner = poolOwner{id: mine, imported: []string{"imported"}}
		ops.evidence = destroyEvidence()
		return ops
	}
	before := srv.Counters()
	mutations := func() int64 {
		now := srv.Counters()
		var n int64
		for _, m := range []string{emulator.MethodNodePoolsDelete, emulator.MethodNodePoolsUpdate, emulator.MethodNodePoolsCreate,
			emulator.MethodNodePoolsSetSize, emulator.MethodNodePoolsSetManagement} {
			n += now[m] - before[m]
		}
		return n
	}

	t.Run("delete", func(t *testing.T) {
		res, err := newOps().deleteOwned(t.Context(), []string{"unlabelled", "other", "absent"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.notOwned) != 2 || !strings.Contains(res.notOwned[0], "has no accel-managed label") ||
			!strings.Contains(res.notOwned[1], `"`+other+`"`) || len(res.errs) != 0 {
			t.Errorf("deleteOwned = %+v, want the first two left alone with why", res)
		}
		if n := mutations(); n != 0 {
			t.Errorf("%d mutating calls, want none", n)
		}
	})

	t.Run("update, replace and remove", func(t *testing.T) {
		ops := newOps()
		specs := gpuSpecs(t, "unlabelled", "other")
		resized := specs[0]
		resized.NodeCount = 3
		replaced := specs[1]
		replaced.Spot = true
		steps := []*step{
			{action: actionUpdate, was: specs[0], want: resized},
			{action: actionReplace, was: specs[1], want: replaced},
			{action: actionDelete, was: gpuSpecs(t, "unlabelled")[0]},
		}
		ops.guard(t.Context(), steps)
		failed := ops.execute(t.Context(), steps, nil)
		for _, key := range []string{"unlabelled", "other", "-unlabelled"} {
			if !isForeign(failed[key]) {
				t.Errorf("step %s: error %v, want a refusal for someone else's pool", key, failed[key])
			}
		}
		if n := mutations(); n != 0 {
			t.Errorf("%d mutating calls, want none", n)
		}
	})

	t.Run("refused create is not recorded", func(t *testing.T) {
		ctx := t.Context()
		tiers := make([]tierModel, 0, 2)
		for _, name := range []string{"other", "fresh"} {
			tm := nullTier()
			tm.Name = types.StringValue(name)
			tm.MachineType = types.StringValue("g2-standard-4")
			tm.GPUType = types.StringValue("nvidia-l4")
			tm.NodeLocations = tfmodel.StringList([]string{"us-central1-a"})
			tiers = append(tiers, tm)
		}
		plan := resourceModel{
			Cluster: types.StringValue(gcp.ClusterID(project, "us-central1", "serving")), ComputeClass: types.StringValue("cc"),
			Tiers: tierList(ctx, tiers, checked(t)), OnStockout: types.StringValue(onStockoutFail),
		}
		var diags diag.Diagnostics
		r := &fallbackNodePoolsResource{catalog: catalog.Default()}
		out, exists, created, _ := r.applyTiers(ctx, newOps(), plan, nil, &diags)
		if !exists || len(out) != 1 || out[0].Name.ValueString() != "fresh" {
			t.Errorf("recorded %d tiers (%v), want only the created one", len(out), out)
		}
		if len(created) != 1 || !created["fresh"] {
			t.Errorf("created %v, want only fresh", created)
		}
		if diags.ErrorsCount() != 1 || diags.Errors()[0].Summary() != "Node Pool Already Exists" {
			t.Errorf("diagnostics %v, want one Node Pool Already Exists", diags)
		}
	})

	t.Run("imported without the label", func(t *testing.T) {
		res, err := newOps().deleteOwned(t.Context(), []string{"imported"}, nil)
		if err != nil || len(res.notOwned) != 0 || len(res.errs) != 0 {
			t.Fatalf("deleteOwned = %+v, %v", res, err)
		}
		pools, err := newOps().api.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if pools["imported"] != nil {
			t.Error("the imported pool was not deleted")
		}
	})
}

// TestConcurrentCreatesNeedConcurrency: the emulator lets no create
// operation finish until it has counted four create calls, so the four
// creates of one apply finish only if they run at once. With the clients'
// limit of concurrent operations per cluster they do; with a limit of one
// the first create waits for calls that never come, and the apply ends at
// its deadline. This is what the acceptance test "concurrent creates"
// relies on: it cannot pass with creates run one at a time.
func TestConcurrentCreatesNeedConcurrency(t *testing.T) {
	t.Parallel()
	for name, limit := range map[string]int{"default limit": 0, "one at a time": 1} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, err := emulator.Start(emulator.Options{Scenario: emulator.Default()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Close() })
			clients := gcp.NewClients(gcp.Config{
				ContainerEndpoint:    srv.ContainerEndpoint(),
				Polling:              gcp.Polling{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Multiplier: 1.5},
				OperationsPerCluster: limit,
			})
			create := emulator.MethodNodePoolsCreate
			if err := srv.HangOperationsUntilCalls(create, create, 4); err != nil {
				t.Fatal(err)
			}
			ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID("overlap", "us-central1", "serving"))
			if err != nil {
				t.Fatal(err)
			}
			// One at a time can never finish; give it a short deadline. The
			// default limit must finish well within the longer one.
			deadline := 2 * time.Minute
			if limit == 1 {
				deadline = 2 * time.Second
			}
			ctx, cancel := context.WithTimeout(t.Context(), deadline)
			defer cancel()
			failed := ops.execute(ctx, planSteps(gpuSpecs(t, "a", "b", "c", "d"), nil, nil, nil), nil)
			creates := srv.Counters()[create]
			switch {
			case limit == 1 && (len(failed) == 0 || creates != 1):
				t.Errorf("one at a time: %d creates, failures %v; want the first create stuck and the apply failed", creates, failed)
			case limit != 1 && (len(failed) != 0 || creates != 4):
				t.Errorf("default limit: %d creates, failures %v; want 4 overlapping creates that all finish", creates, failed)
			}
		})
	}
}

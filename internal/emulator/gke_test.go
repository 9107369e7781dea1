// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	container "google.golang.org/api/container/v1"
)

const serving = "projects/" + project + "/locations/us-central1/clusters/serving"

var gkeOpName = regexp.MustCompile(`^operation-\d+-[0-9a-f]{8}$`)

func (e *env) gkeOp(t *testing.T, location, name string) *container.Operation {
	t.Helper()
	op, err := e.gke.Projects.Locations.Operations.Get("projects/" + project + "/locations/" + location + "/operations/" + name).Do()
	if err != nil {
		t.Fatalf("operations.get %s: %v", name, err)
	}
	return op
}

func (e *env) pool(t *testing.T, cluster, name string) *container.NodePool {
	t.Helper()
	np, err := e.gke.Projects.Locations.Clusters.NodePools.Get(cluster + "/nodePools/" + name).Do()
	if err != nil {
		t.Fatalf("nodePools.get %s: %v", name, err)
	}
	return np
}

func (e *env) createPool(cluster string, np *container.NodePool) (*container.Operation, error) {
	return e.gke.Projects.Locations.Clusters.NodePools.Create(cluster, &container.CreateNodePoolRequest{NodePool: np}).Do()
}

func gpuPool(name string) *container.NodePool {
	return &container.NodePool{
		Name:             name,
		InitialNodeCount: 1,
		Locations:        []string{"us-central1-a", "us-central1-b"},
		Config:           &container.NodeConfig{MachineType: "g2-standard-8", Labels: map[string]string{"tier": "gpu"}},
	}
}

func TestClusters(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	c, err := e.gke.Projects.Locations.Clusters.Get(serving).Do()
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != "RUNNING" || c.CurrentMasterVersion != "1.33.5-gke.1000000" || c.CurrentNodeVersion != "1.33.5-gke.1000000" || c.Location != "us-central1" {
		t.Errorf("cluster = status %s master %s node %s location %s", c.Status, c.CurrentMasterVersion, c.CurrentNodeVersion, c.Location)
	}
	if diff := cmp.Diff([]string{"us-central1-a", "us-central1-b", "us-central1-c"}, c.Locations); diff != "" {
		t.Errorf("locations (-want +got):\n%s", diff)
	}
	if len(c.NodePools) != 1 || c.NodePools[0].Name != "default-pool" || c.NodePools[0].Status != "RUNNING" {
		t.Errorf("seeded pools = %+v", c.NodePools)
	}
	tests := []struct {
		location string
		want     []string
	}{
		{"us-central1", []string{"autopilot", "autoprovisioned", "ironwood", "serving"}},
		{"us-central1-b", []string{"legacy"}},
		{"-", []string{"autopilot", "autoprovisioned", "ironwood", "legacy", "serving", "training"}},
		{"asia-east1", nil},
	}
	for _, tt := range tests {
		list, err := e.gke.Projects.Locations.Clusters.List("projects/" + project + "/locations/" + tt.location).Do()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range list.Clusters {
			got = append(got, c.Name)
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("clusters in %s (-want +got):\n%s", tt.location, diff)
		}
	}
	// Any project ID has the seeded clusters.
	if _, err := e.gke.Projects.Locations.Clusters.Get("projects/another-project/locations/us-east5/clusters/training").Do(); err != nil {
		t.Errorf("seeded cluster in another project: %v", err)
	}
	_, err = e.gke.Projects.Locations.Clusters.Get("projects/" + project + "/locations/us-central1/clusters/nope").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "Not found: projects/accel-sandbox/locations/us-central1/clusters/nope."})
	// The deprecated zonal form.
	zl, err := e.gke.Projects.Zones.Clusters.NodePools.List(project, "us-central1-b", "legacy").Do()
	if err != nil || len(zl.NodePools) != 0 {
		t.Errorf("zonal node pool list = %+v, %v", zl, err)
	}
}

func TestNodePoolLifecycle(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	op, err := e.createPool(serving, gpuPool("l4"))
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !gkeOpName.MatchString(op.Name) || op.OperationType != "CREATE_NODE_POOL" || op.Status != "RUNNING" || op.Location != "us-central1" {
		t.Errorf("create op = %+v", op)
	}
	if !strings.HasSuffix(op.TargetLink, "/v1/"+serving+"/nodePools/l4") || !strings.Contains(op.SelfLink, "/operations/"+op.Name) || op.StartTime == "" {
		t.Errorf("links: target %s self %s", op.TargetLink, op.SelfLink)
	}
	if np := e.pool(t, serving, "l4"); np.Status != "PROVISIONING" {
		t.Errorf("status while creating = %s", np.Status)
	}
	e.tick()
	if op = e.gkeOp(t, "us-central1", op.Name); op.Status != "DONE" || op.Error != nil || op.EndTime == "" {
		t.Fatalf("create op after its duration = %+v", op)
	}
	np := e.pool(t, serving, "l4")
	if np.Status != "RUNNING" || np.Version != "1.33.5-gke.1000000" || np.Config.ImageType != "COS_CONTAINERD" || np.Config.DiskSizeGb != 100 {
		t.Errorf("pool = status %s version %s image %s disk %d", np.Status, np.Version, np.Config.ImageType, np.Config.DiskSizeGb)
	}
	wantTaints := []*container.NodeTaint{{Key: "nvidia.com/gpu", Value: "present", Effect: "NO_SCHEDULE"}}
	if diff := cmp.Diff(wantTaints, np.Config.Taints); diff != "" {
		t.Errorf("GKE-added taints (-want +got):\n%s", diff)
	}
	if got := np.Config.ResourceLabels["goog-gke-node-pool-provisioning-model"]; got != "on-demand" {
		t.Errorf("provisioning model label = %q", got)
	}
	if len(np.InstanceGroupUrls) != 2 || np.Etag == "" || !np.Management.AutoRepair {
		t.Errorf("instance groups %v etag %q management %+v", np.InstanceGroupUrls, np.Etag, np.Management)
	}
	list, err := e.gke.Projects.Locations.Clusters.NodePools.List(serving).Do()
	if err != nil || len(list.NodePools) != 2 || list.NodePools[1].Name != "l4" {
		t.Fatalf("list = %+v, %v", list, err)
	}

	// Update labels and taints: RECONCILING, then applied; the GPU taint comes back.
	op, err = e.gke.Projects.Locations.Clusters.NodePools.Update(serving+"/nodePools/l4", &container.UpdateNodePoolRequest{
		Labels: &container.NodeLabels{Labels: map[string]string{"tier": "gpu2"}},
		Taints: &container.NodeTaints{Taints: []*container.NodeTaint{{Key: "dedicated", Value: "ml", Effect: "NO_EXECUTE"}}},
		Etag:   np.Etag,
	}).Do()
	if err != nil || op.OperationType != "UPDATE_NODE_POOL" {
		t.Fatalf("update = %+v, %v", op, err)
	}
	if np = e.pool(t, serving, "l4"); np.Status != "RECONCILING" || np.Config.Labels["tier"] != "gpu" {
		t.Errorf("during update: status %s labels %v", np.Status, np.Config.Labels)
	}
	e.tick()
	np = e.pool(t, serving, "l4")
	if np.Status != "RUNNING" || np.Config.Labels["tier"] != "gpu2" || len(np.Config.Taints) != 2 {
		t.Errorf("after update: status %s labels %v taints %v", np.Status, np.Config.Labels, np.Config.Taints)
	}
	_, err = e.gke.Projects.Locations.Clusters.NodePools.Update(serving+"/nodePools/l4", &container.UpdateNodePoolRequest{Etag: "stale"}).Do()
	checkErr(t, err, wantErr{409, statusAborted, "", "does not match the current etag"})

	// setSize, setAutoscaling, setManagement.
	steps := []struct {
		opType string
		call   func() (*container.Operation, error)
		check  func(np *container.NodePool) bool
	}{
		{"SET_NODE_POOL_SIZE", func() (*container.Operation, error) {
			return e.gke.Projects.Locations.Clusters.NodePools.SetSize(serving+"/nodePools/l4", &container.SetNodePoolSizeRequest{NodeCount: 3}).Do()
		}, func(*container.NodePool) bool {
			return cmp.Equal(e.srv.NodePools()[1].NodesPerZone, map[string]int{"us-central1-a": 3, "us-central1-b": 3})
		}},
		{"UPDATE_CLUSTER", func() (*container.Operation, error) {
			return e.gke.Projects.Locations.Clusters.NodePools.SetAutoscaling(serving+"/nodePools/l4", &container.SetNodePoolAutoscalingRequest{
				Autoscaling: &container.NodePoolAutoscaling{Enabled: true, MinNodeCount: 1, MaxNodeCount: 5},
			}).Do()
		}, func(np *container.NodePool) bool { return np.Autoscaling != nil && np.Autoscaling.MaxNodeCount == 5 }},
		{"SET_NODE_POOL_MANAGEMENT", func() (*container.Operation, error) {
			return e.gke.Projects.Locations.Clusters.NodePools.SetManagement(serving+"/nodePools/l4", &container.SetNodePoolManagementRequest{
				Management: &container.NodeManagement{AutoRepair: false, AutoUpgrade: true},
			}).Do()
		}, func(np *container.NodePool) bool { return !np.Management.AutoRepair && np.Management.AutoUpgrade }},
	}
	for _, st := range steps {
		op, err := st.call()
		if err != nil || op.OperationType != st.opType {
			t.Fatalf("%s: %+v, %v", st.opType, op, err)
		}
		if np := e.pool(t, serving, "l4"); np.Status != "RECONCILING" || st.check(np) {
			t.Errorf("%s applied before its operation ended (status %s)", st.opType, np.Status)
		}
		e.tick()
		if done := e.gkeOp(t, "us-central1", op.Name); done.Status != "DONE" || done.Error != nil {
			t.Errorf("%s op = %+v", st.opType, done)
		}
		if np := e.pool(t, serving, "l4"); np.Status != "RUNNING" || !st.check(np) {
			t.Errorf("%s not applied (status %s)", st.opType, np.Status)
		}
	}

	// Delete: STOPPING, then gone.
	op, err = e.gke.Projects.Locations.Clusters.NodePools.Delete(serving + "/nodePools/l4").Do()
	if err != nil || op.OperationType != "DELETE_NODE_POOL" {
		t.Fatalf("delete = %+v, %v", op, err)
	}
	if np := e.pool(t, serving, "l4"); np.Status != "STOPPING" {
		t.Errorf("status while deleting = %s", np.Status)
	}
	e.tick()
	_, err = e.gke.Projects.Locations.Clusters.NodePools.Get(serving + "/nodePools/l4").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "Not found: " + serving + "/nodePools/l4."})
	ops, err := e.gke.Projects.Locations.Operations.List("projects/" + project + "/locations/us-central1").Do()
	if err != nil || len(ops.Operations) != 6 {
		t.Errorf("operations.list = %d, %v; want 6", len(ops.Operations), err)
	}
}

func TestNodePoolValidation(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	training := "projects/" + project + "/locations/us-east5/clusters/training"
	legacy := "projects/" + project + "/locations/us-central1-b/clusters/legacy"
	if _, err := e.createPool(serving, gpuPool("taken")); err != nil {
		t.Fatal(err)
	}
	tpuPool := func(name, mt, topo string, nodes int64, zones ...string) *container.NodePool {
		np := &container.NodePool{Name: name, InitialNodeCount: nodes, Locations: zones, Config: &container.NodeConfig{MachineType: mt}}
		if topo != "" {
			np.PlacementPolicy = &container.PlacementPolicy{Type: "COMPACT", TpuTopology: topo}
		}
		return np
	}
	tests := []struct {
		name    string
		cluster string
		pool    *container.NodePool
		want    *wantErr // nil: accepted
	}{
		{"name with uppercase", serving, gpuPool("GPU"), &wantErr{400, statusInvalidArgument, "", `Invalid value for field "node_pool.name": "GPU". Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)'`}},
		{"name of 41 characters", serving, gpuPool("a" + strings.Repeat("b", 40)), &wantErr{400, statusInvalidArgument, "", "must be no longer than 40 characters"}},
		{"name ending with a hyphen", serving, gpuPool("gpu-"), &wantErr{400, statusInvalidArgument, "", "Must be a match of regex"}},
		{"duplicate", serving, gpuPool("taken"), &wantErr{409, statusAlreadyExists, "", "Already exists: " + serving + "/nodePools/taken."}},
		{"missing cluster", "projects/" + project + "/locations/us-central1/clusters/nope", gpuPool("x"), &wantErr{404, statusNotFound, "", "Not found: projects/accel-sandbox/locations/us-central1/clusters/nope."}},
		{"v6e 4x4 on 4t needs 4 nodes", training, tpuPool("v6e-slice", "ct6e-standard-4t", "4x4", 3, "us-east5-a"), &wantErr{400, statusInvalidArgument, "", "Initial node count 3 is not a valid size of TPU pod slice with topology 4x4"}},
		{"v6e 4x4 on 4t with 4 nodes", training, tpuPool("v6e-ok", "ct6e-standard-4t", "4x4", 4, "us-east5-a"), nil},
		{"v6e 2x4 on two 4t VMs", training, tpuPool("v6e-2vm", "ct6e-standard-4t", "2x4", 2, "us-east5-a"), nil},
		{"v6e 2x2 single host, any count", training, tpuPool("v6e-single", "ct6e-standard-4t", "2x2", 3, "us-east5-a"), nil},
		{"v6e single host without topology", training, tpuPool("v6e-notopo", "ct6e-standard-8t", "", 2, "us-east5-a"), nil},
		{"8t is single-host only", training, tpuPool("v6e-8t", "ct6e-standard-8t", "4x4", 2, "us-east5-a"), &wantErr{400, statusInvalidArgument, "", `"4x4" is not a valid TPU slice topology for machine type "ct6e-standard-8t"`}},
		{"2D machine with 3D topology", training, tpuPool("v6e-3d", "ct6e-standard-4t", "2x2x1", 1, "us-east5-a"), &wantErr{400, statusInvalidArgument, "", "needs a 2D topology such as 2x2"}},
		{"non-canonical 2D shape", training, tpuPool("v6e-2x8", "ct6e-standard-4t", "2x8", 4, "us-east5-a"), &wantErr{400, statusInvalidArgument, "", "is not a valid TPU slice topology"}},
		{"v5p 2x2x2 on 2 nodes", training, tpuPool("v5p", "ct5p-hightpu-4t", "2x2x2", 2, "us-east5-a"), nil},
		{"v5p 3D shape out of order", training, tpuPool("v5p-bad", "ct5p-hightpu-4t", "4x2x2", 4, "us-east5-a"), &wantErr{400, statusInvalidArgument, "", "is not a valid TPU slice topology"}},
		{"multi-host needs one zone", serving, tpuPool("v5e", "ct5lp-hightpu-4t", "4x4", 4, "us-central1-a", "us-central1-b"), &wantErr{400, statusInvalidArgument, "", "must be in exactly one zone"}},
		{"TPU machine type not in zone", serving, tpuPool("v6e-a", "ct6e-standard-4t", "2x2", 1, "us-central1-a"), &wantErr{400, statusInvalidArgument, "", `Invalid machine type "ct6e-standard-4t" in zone "us-central1-a": GCE_NOT_FOUND`}},
		{"GPU machine type not in zone", training, &container.NodePool{Name: "g2", InitialNodeCount: 1, Config: &container.NodeConfig{MachineType: "g2-standard-8"}}, &wantErr{400, statusInvalidArgument, "", `Invalid machine type "g2-standard-8" in zone "us-east5-a"`}},
		{"attached GPU not in zone", training, &container.NodePool{Name: "t4", InitialNodeCount: 1, Config: &container.NodeConfig{MachineType: "n1-standard-8", Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-tesla-t4", AcceleratorCount: 1}}}}, &wantErr{400, statusInvalidArgument, "", "acceleratorTypes/nvidia-tesla-t4' was not found"}},
		{"three T4s on N1", serving, &container.NodePool{Name: "t4x3", InitialNodeCount: 1, Config: &container.NodeConfig{MachineType: "n1-standard-16", Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-tesla-t4", AcceleratorCount: 3}}}}, &wantErr{400, statusInvalidArgument, "", "Accelerator count 3 of type nvidia-tesla-t4 is not supported on N1 machine types"}},
		{"zone outside the region", serving, &container.NodePool{Name: "far", InitialNodeCount: 1, Locations: []string{"europe-west4-a"}}, &wantErr{400, statusInvalidArgument, "", `zone "europe-west4-a" is not in the cluster's region "us-central1"`}},
		{"v6e on an old cluster", legacy, tpuPool("v6e-old", "ct6e-standard-4t", "2x2", 1), &wantErr{400, statusInvalidArgument, "", `Machine type "ct6e-standard-4t" requires GKE version 1.31.2-gke.1115000 or later`}},
		{"node version newer than the control plane", serving, &container.NodePool{Name: "newer", InitialNodeCount: 1, Version: "1.34.0-gke.1"}, &wantErr{400, statusInvalidArgument, "", "must not be newer than the cluster control plane"}},
		{"topology on a CPU machine", serving, tpuPool("cpu", "e2-standard-4", "2x2", 1), &wantErr{400, statusInvalidArgument, "", "TPU topology can only be set for TPU machine types"}},
		{"negative node count", serving, &container.NodePool{Name: "neg", InitialNodeCount: -1}, &wantErr{400, statusInvalidArgument, "", "Must be non-negative"}},
		{"autoscaling max below min", serving, &container.NodePool{Name: "as", InitialNodeCount: 1, Autoscaling: &container.NodePoolAutoscaling{Enabled: true, MinNodeCount: 3, MaxNodeCount: 2}}, &wantErr{400, statusInvalidArgument, "", "max_node_count"}},
		{"multi-host autoscaling not in whole slices", training, func() *container.NodePool {
			np := tpuPool("v6e-as", "ct6e-standard-4t", "4x4", 0, "us-east5-a")
			np.Autoscaling = &container.NodePoolAutoscaling{Enabled: true, TotalMaxNodeCount: 8}
			return np
		}(), &wantErr{400, statusInvalidArgument, "", "Maximum node count 0 is not a valid size of TPU pod slice with topology 4x4"}},
		{"multi-host autoscaling in whole slices", training, func() *container.NodePool {
			np := tpuPool("v6e-as2", "ct6e-standard-4t", "4x4", 0, "us-east5-a")
			np.Autoscaling = &container.NodePoolAutoscaling{Enabled: true, MaxNodeCount: 8}
			return np
		}(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, err := e.createPool(tt.cluster, tt.pool)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if done := e.gkeOp(t, op.Location, op.Name); done.Error != nil {
					t.Errorf("operation failed: %+v", done.Error)
				}
				return
			}
			body := checkErr(t, err, *tt.want)
			if len(body.Details) == 0 {
				t.Errorf("GKE errors carry a RequestInfo detail; got none")
			}
		})
	}
}

func TestGKEAdditions(t *testing.T) {
	t.Parallel()
	training := "projects/" + project + "/locations/us-east5/clusters/training"
	spotTPU := &container.NodePool{
		Name: "v6e-spot", InitialNodeCount: 1,
		Config:          &container.NodeConfig{MachineType: "ct6e-standard-4t", Spot: true},
		PlacementPolicy: &container.PlacementPolicy{TpuTopology: "2x2"},
	}
	tests := []struct {
		name       string
		additions  GKEAdditions
		wantTaints []*container.NodeTaint
		wantLabel  string
	}{
		{"on", GKEAdditions{}, []*container.NodeTaint{{Key: "google.com/tpu", Value: "present", Effect: "NO_SCHEDULE"}}, "spot"},
		{"off", GKEAdditions{SkipTPUTaint: true, SkipGPUTaint: true, SkipProvisioningModelLabel: true}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := start(t, instant())
			e.srv.SetGKEAdditions(tt.additions)
			if _, err := e.createPool(training, spotTPU); err != nil {
				t.Fatal(err)
			}
			np := e.pool(t, training, "v6e-spot")
			if diff := cmp.Diff(tt.wantTaints, np.Config.Taints); diff != "" {
				t.Errorf("taints (-want +got):\n%s", diff)
			}
			if got := np.Config.ResourceLabels["goog-gke-node-pool-provisioning-model"]; got != tt.wantLabel {
				t.Errorf("provisioning model = %q, want %q", got, tt.wantLabel)
			}
		})
	}
}

// createTwo starts two pool creates at the same moment from two goroutines.
func createTwo(e *env, a, b *container.NodePool) ([2]*container.Operation, [2]error) {
	var ops [2]*container.Operation
	var errs [2]error
	var wg sync.WaitGroup
	for i, np := range []*container.NodePool{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ops[i], errs[i] = e.createPool(serving, np)
		}()
	}
	wg.Wait()
	return ops, errs
}

func TestSerializePoolCreates(t *testing.T) {
	t.Parallel()
	t.Run("on", func(t *testing.T) {
		t.Parallel()
		sc := Default()
		sc.SerializePoolCreates = true
		e := start(t, sc)
		ops, errs := createTwo(e, gpuPool("first"), gpuPool("second"))
		winner, loser := 0, 1
		if errs[0] != nil {
			winner, loser = 1, 0
		}
		if errs[winner] != nil || errs[loser] == nil {
			t.Fatalf("want exactly one refusal, got %v", errs)
		}
		checkErr(t, errs[loser], wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION",
			"Cluster is running incompatible operation " + ops[winner].Name + "."})
		wantBody := map[string]any{
			"code":    float64(400),
			"message": "Cluster is running incompatible operation " + ops[winner].Name + ".",
			"status":  "FAILED_PRECONDITION",
			"details": []any{map[string]any{
				"@type":  "type.googleapis.com/google.rpc.ErrorInfo",
				"reason": "CLUSTER_ALREADY_HAS_OPERATION",
				"domain": "container.googleapis.com",
			}},
		}
		if diff := cmp.Diff(wantBody, rawBody(t, errs[loser])); diff != "" {
			t.Errorf("error body (-want +got):\n%s", diff)
		}
		// Other pool operations are refused too while the create runs.
		_, err := e.gke.Projects.Locations.Clusters.NodePools.SetSize(serving+"/nodePools/default-pool", &container.SetNodePoolSizeRequest{NodeCount: 2}).Do()
		checkErr(t, err, wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION", ops[winner].Name})
		e.tick()
		if op := e.gkeOp(t, "us-central1", ops[winner].Name); op.Status != "DONE" {
			t.Fatalf("first create not done: %s", op.Status)
		}
		names := []string{"first", "second"}
		if _, err := e.createPool(serving, gpuPool(names[loser])); err != nil {
			t.Errorf("retry after the first create finished: %v", err)
		}
	})
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		e := start(t, nil)
		ops, errs := createTwo(e, gpuPool("first"), gpuPool("second"))
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("concurrent creates without the switch: %v", errs)
		}
		e.tick()
		for _, op := range ops {
			if done := e.gkeOp(t, "us-central1", op.Name); done.Status != "DONE" || done.Error != nil {
				t.Errorf("op %s = %+v", op.Name, done)
			}
		}
	})
}

func TestOperationConflictsAndQuota(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	create, err := e.createPool(serving, gpuPool("busy"))
	if err != nil {
		t.Fatal(err)
	}
	// One operation per node pool.
	calls := []struct {
		name string
		call func() error
	}{
		{"delete", func() error {
			_, err := e.gke.Projects.Locations.Clusters.NodePools.Delete(serving + "/nodePools/busy").Do()
			return err
		}},
		{"setSize", func() error {
			_, err := e.gke.Projects.Locations.Clusters.NodePools.SetSize(serving+"/nodePools/busy", &container.SetNodePoolSizeRequest{NodeCount: 2}).Do()
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			checkErr(t, c.call(), wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION", "Cluster is running incompatible operation " + create.Name + "."})
		})
	}
	// Other pools are free without SerializePoolCreates, up to the quota.
	e.srv.SetMaxConcurrentOperations(2)
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.SetSize(serving+"/nodePools/default-pool", &container.SetNodePoolSizeRequest{NodeCount: 2}).Do(); err != nil {
		t.Fatalf("second operation within quota: %v", err)
	}
	_, err = e.createPool(serving, gpuPool("third"))
	checkErr(t, err, wantErr{429, statusResourceExhausted, "", `Too many operations: cluster "serving" hits the concurrent operations quota 2, please try again later.`})
	e.tick()
	if _, err := e.createPool(serving, gpuPool("third")); err != nil {
		t.Errorf("after the operations finished: %v", err)
	}
}

func TestHoldCluster(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	id, err := e.srv.HoldCluster(project, "us-central1", "serving", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := e.gke.Projects.Locations.Clusters.Get(serving).Do(); c.Status != "RECONCILING" {
		t.Errorf("held cluster status = %s", c.Status)
	}
	if op := e.gkeOp(t, "us-central1", id); op.OperationType != "UPGRADE_MASTER" || op.Status != "RUNNING" {
		t.Errorf("hold op = %+v", op)
	}
	_, err = e.createPool(serving, gpuPool("blocked"))
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION", "Cluster is running incompatible operation " + id + "."})
	if _, err := e.srv.HoldCluster(project, "us-central1", "serving", time.Minute); err == nil {
		t.Error("a second hold on a held cluster was accepted")
	}
	e.clock.Advance(time.Minute)
	if _, err := e.createPool(serving, gpuPool("blocked")); err != nil {
		t.Errorf("create after the hold ended: %v", err)
	}
	if c, _ := e.gke.Projects.Locations.Clusters.Get(serving).Do(); c.Status != "RUNNING" {
		t.Errorf("cluster status after the hold = %s", c.Status)
	}
	if _, err := e.srv.HoldCluster(project, "us-central1", "nope", time.Minute); err == nil {
		t.Error("hold on a missing cluster was accepted")
	}
}

// TestHoldClusterUntilCalls: the hold lasts, however much time passes,
// until the emulator has counted the given call; that call still sees it
// running, the next one sees it done.
func TestHoldClusterUntilCalls(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	id, err := e.srv.HoldClusterUntilCalls(project, "us-central1", "serving", MethodContainerOperationsGet, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour)
	for range 2 {
		_, err := e.createPool(serving, gpuPool("held"))
		checkErr(t, err, wantErr{400, statusFailedPrecondition, "CLUSTER_ALREADY_HAS_OPERATION", id})
	}
	if op := e.gkeOp(t, "us-central1", id); op.Status != "RUNNING" {
		t.Errorf("hold at the call that ends it: %+v, want RUNNING", op)
	}
	if op := e.gkeOp(t, "us-central1", id); op.Status != "DONE" {
		t.Errorf("hold after the call that ends it: %+v, want DONE", op)
	}
	if _, err := e.createPool(serving, gpuPool("held")); err != nil {
		t.Errorf("create after the hold ended: %v", err)
	}
	if _, err := e.srv.HoldClusterUntilCalls(project, "us-central1", "serving", "nope", 1); err == nil {
		t.Error("a hold until an unknown method was accepted")
	}
	if _, err := e.srv.HoldClusterUntilCalls(project, "us-central1", "serving", MethodContainerOperationsGet, 0); err == nil {
		t.Error("a hold until 0 calls was accepted")
	}
}

func TestGKEStockout(t *testing.T) {
	t.Parallel()
	e := start(t, instant())

	// Partial: zone a has no L4 VMs, zone b has room.
	e.srv.SetCapacity("us-central1-a", "g2-standard-8", 0)
	op, err := e.createPool(serving, gpuPool("l4"))
	if err != nil {
		t.Fatal(err)
	}
	op = e.gkeOp(t, "us-central1", op.Name)
	if op.Status != "DONE" || op.Error == nil || op.Error.Code != 8 {
		t.Fatalf("stockout op = %+v", op)
	}
	for _, want := range []string{"GCE_STOCKOUT", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS", "The zone 'projects/accel-sandbox/zones/us-central1-a' does not have enough resources available to fulfill the request", "Expected 2, running 1"} {
		if !strings.Contains(op.StatusMessage, want) || !strings.Contains(op.Error.Message, want) {
			t.Errorf("status message %q lacks %q", op.StatusMessage, want)
		}
	}
	if len(op.Error.Details) != 1 {
		t.Fatalf("details = %s", op.Error.Details)
	}
	var info struct {
		Type     string            `json:"@type"`
		Reason   string            `json:"reason"`
		Metadata map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(op.Error.Details[0], &info); err != nil {
		t.Fatal(err)
	}
	if info.Type != typeErrorInfo || info.Reason != "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS" || info.Metadata["zones_available"] != "us-central1-b,us-central1-c" {
		t.Errorf("ErrorInfo = %+v", info)
	}
	np := e.pool(t, serving, "l4")
	if np.Status != "RUNNING_WITH_ERROR" || len(np.Conditions) != 1 || np.Conditions[0].Code != "GCE_STOCKOUT" {
		t.Errorf("partial stockout pool = status %s conditions %+v", np.Status, np.Conditions)
	}

	// Atomic: a multi-host TPU slice that does not fully fit gets no nodes.
	training := "projects/" + project + "/locations/us-east5/clusters/training"
	e.srv.SetCapacity("us-east5-a", "ct6e-standard-4t", 3)
	op, err = e.createPool(training, &container.NodePool{
		Name: "slice", InitialNodeCount: 4, Locations: []string{"us-east5-a"},
		Config:          &container.NodeConfig{MachineType: "ct6e-standard-4t"},
		PlacementPolicy: &container.PlacementPolicy{Type: "COMPACT", TpuTopology: "4x4"},
	})
	if err != nil {
		t.Fatal(err)
	}
	op = e.gkeOp(t, "us-east5", op.Name)
	if op.Error == nil || op.Error.Code != 8 || !strings.Contains(op.StatusMessage, "Expected 4, running 0") {
		t.Errorf("slice stockout op = %+v", op)
	}
	if np := e.pool(t, training, "slice"); np.Status != "ERROR" {
		t.Errorf("slice pool status = %s, want ERROR", np.Status)
	}
	for _, p := range e.srv.NodePools() {
		if strings.HasSuffix(p.Name, "/slice") && p.NodesPerZone["us-east5-a"] != 0 {
			t.Errorf("slice kept %d nodes", p.NodesPerZone["us-east5-a"])
		}
	}
	// The ERROR pool can be deleted, and a smaller single-host pool then fits.
	if _, err := e.gke.Projects.Locations.Clusters.NodePools.Delete(training + "/nodePools/slice").Do(); err != nil {
		t.Fatal(err)
	}
	op, err = e.createPool(training, &container.NodePool{
		Name: "small", InitialNodeCount: 3, Config: &container.NodeConfig{MachineType: "ct6e-standard-4t"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if op = e.gkeOp(t, "us-east5", op.Name); op.Error != nil {
		t.Errorf("3 nodes within capacity 3: %+v", op.Error)
	}
	// Growing beyond capacity with setSize fails the same way.
	op, err = e.gke.Projects.Locations.Clusters.NodePools.SetSize(training+"/nodePools/small", &container.SetNodePoolSizeRequest{NodeCount: 5}).Do()
	if err != nil {
		t.Fatal(err)
	}
	if op = e.gkeOp(t, "us-east5", op.Name); op.Error == nil || op.Error.Code != 8 {
		t.Errorf("setSize beyond capacity = %+v", op)
	}
	if np := e.pool(t, training, "small"); np.Status != "RUNNING_WITH_ERROR" {
		t.Errorf("pool after a partial resize = %s", np.Status)
	}
}

// TestGKEStockoutByMachineTypeWithBuiltInGPUs: a pool of a machine type with
// built-in GPUs whose request also lists its GPUs (as the provider and the
// google provider send them) counts against the machine type's capacity and
// the GPU type's, so either stockout applies.
func TestGKEStockoutByMachineTypeWithBuiltInGPUs(t *testing.T) {
	t.Parallel()
	withGPUs := func(name string) *container.NodePool {
		np := gpuPool(name)
		np.Locations = []string{"us-central1-a"}
		np.Config.Accelerators = []*container.AcceleratorConfig{{AcceleratorType: "nvidia-l4", AcceleratorCount: 1}}
		return np
	}
	for _, typ := range []string{"g2-standard-8", "nvidia-l4"} {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			e := start(t, instant())
			e.srv.SetCapacity("us-central1-a", typ, 1)
			for i, name := range []string{"first", "second"} {
				op, err := e.createPool(serving, withGPUs(name))
				if err != nil {
					t.Fatal(err)
				}
				op = e.gkeOp(t, "us-central1", op.Name)
				stockout := op.Error != nil && op.Error.Code == 8 && strings.Contains(op.StatusMessage, "GCE_STOCKOUT")
				if want := i == 1; stockout != want {
					t.Errorf("%s: stockout = %v, want %v (op %+v)", name, stockout, want, op)
				}
			}
		})
	}
}

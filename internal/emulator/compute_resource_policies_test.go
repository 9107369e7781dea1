// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"testing"

	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
)

// workloadPolicy is the insert request of a TPU7x slice's workload policy,
// as `gcloud compute resource-policies create workload-policy NAME
// --type=HIGH_THROUGHPUT --accelerator-topology=2x2x4` sends it.
func workloadPolicy(name string) *compute.ResourcePolicy {
	return &compute.ResourcePolicy{Name: name, WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "HIGH_THROUGHPUT", AcceleratorTopology: "2x2x4"}}
}

// TestComputeResourcePolicyLifecycle: insert answers a PENDING region
// operation and a CREATING policy that is READY once the operation is DONE;
// get and list show it; delete removes it when its operation ends.
func TestComputeResourcePolicyLifecycle(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	const region = "us-central1"
	op, err := gce.ResourcePolicies.Insert(project, region, workloadPolicy("slice")).Do()
	if err != nil {
		t.Fatalf("insert: %v", err)
	}
	regionURL := e.srv.ComputeEndpoint() + "projects/" + project + "/regions/" + region
	self := regionURL + "/resourcePolicies/slice"
	if op.Status != "PENDING" || op.OperationType != "insert" || op.TargetLink != self || op.Region != regionURL || op.Zone != "" ||
		op.SelfLink != regionURL+"/operations/"+op.Name {
		t.Fatalf("insert operation = %+v", op)
	}
	if p, err := gce.ResourcePolicies.Get(project, region, "slice").Do(); err != nil || p.Status != "CREATING" {
		t.Fatalf("get at once: %v %+v, want CREATING", err, p)
	}
	if _, err := gce.ZoneOperations.Get(project, "us-central1-a", op.Name).Do(); err == nil {
		t.Error("a region operation is found as a zone operation")
	}
	e.tick()
	if done, err := gce.RegionOperations.Wait(project, region, op.Name).Do(); err != nil || done.Status != "DONE" || done.Error != nil {
		t.Fatalf("wait: %v %+v", err, done)
	}
	p, err := gce.ResourcePolicies.Get(project, region, "slice").Do()
	if err != nil || p.Status != "READY" || p.Kind != "compute#resourcePolicy" || p.SelfLink != self || p.Region != regionURL ||
		p.Id == 0 || p.WorkloadPolicy.Type != "HIGH_THROUGHPUT" || p.WorkloadPolicy.AcceleratorTopology != "2x2x4" {
		t.Fatalf("get: %v %+v", err, p)
	}
	if list, err := gce.ResourcePolicies.List(project, region).Do(); err != nil || len(list.Items) != 1 || list.Items[0].Name != "slice" {
		t.Fatalf("list: %v %+v", err, list)
	}
	if list, err := gce.ResourcePolicies.List(project, "us-east5").Do(); err != nil || len(list.Items) != 0 {
		t.Fatalf("list of another region: %v %+v", err, list)
	}
	del, err := gce.ResourcePolicies.Delete(project, region, "slice").Do()
	if err != nil || del.OperationType != "delete" {
		t.Fatalf("delete: %v %+v", err, del)
	}
	e.tick()
	if _, err := gce.RegionOperations.Get(project, region, del.Name).Do(); err != nil {
		t.Fatal(err)
	}
	_, err = gce.ResourcePolicies.Get(project, region, "slice").Do()
	checkComputeErr(t, err, 404, "notFound", "The resource 'projects/"+project+"/regions/"+region+"/resourcePolicies/slice' was not found")
	if got := e.srv.ResourcePolicies(); len(got) != 0 {
		t.Errorf("policies left: %v", got)
	}
}

// TestComputeResourcePolicyRefusals: what insert and delete refuse, with
// Compute Engine's codes and reasons.
func TestComputeResourcePolicyRefusals(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	const region = "us-central1"
	if _, err := gce.ResourcePolicies.Insert(project, region, workloadPolicy("taken")).Do(); err != nil {
		t.Fatal(err)
	}
	both := workloadPolicy("both")
	both.WorkloadPolicy.MaxTopologyDistance = "BLOCK"
	for _, tc := range []struct {
		name   string
		region string
		p      *compute.ResourcePolicy
		code   int
		reason string
		msg    string
	}{
		{"name", region, workloadPolicy("Bad_Name"), 400, "invalid", "Invalid value for field 'resource.name': 'Bad_Name'"},
		{"type", region, &compute.ResourcePolicy{Name: "t", WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{Type: "FAST"}},
			400, "invalid", "Invalid value for field 'resource.workloadPolicy.type': 'FAST'"},
		{"topology and distance", region, both, 400, "invalid", "acceleratorTopology and maxTopologyDistance cannot both be set"},
		{"no policy", region, &compute.ResourcePolicy{Name: "empty"}, 400, "invalid", "resource.workloadPolicy"},
		{"taken", region, workloadPolicy("taken"), 409, "alreadyExists", "resourcePolicies/taken' already exists"},
		{"region", "mars-north1", workloadPolicy("far"), 404, "notFound", "regions/mars-north1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gce.ResourcePolicies.Insert(project, tc.region, tc.p).Do()
			checkComputeErr(t, err, tc.code, tc.reason, tc.msg)
		})
	}

	// A policy a node pool names cannot be deleted while the pool exists.
	e.tick()
	np := gpuPool("placed")
	np.PlacementPolicy = &container.PlacementPolicy{PolicyName: "taken"}
	if _, err := e.createPool(serving, np); err != nil {
		t.Fatal(err)
	}
	_, err := gce.ResourcePolicies.Delete(project, region, "taken").Do()
	checkComputeErr(t, err, 400, "resourceInUseByAnotherResource", "is already being used by '"+serving+"/nodePools/placed'")
}

// TestTPU7xMultiHostPoolsNeedAWorkloadPolicy: GKE places a multi-host
// TPU7x slice pool by a HIGH_THROUGHPUT workload policy named in
// placementPolicy.policyName, in place of tpuTopology ("About Ironwood
// (TPU7x) in GKE"); the policy's acceleratorTopology sizes the slice.
func TestTPU7xMultiHostPoolsNeedAWorkloadPolicy(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	cluster := "projects/" + project + "/locations/us-central1/clusters/ironwood" // seeded: GKE 1.34, TPU7x zone
	for name, typ := range map[string]string{"slice": "HIGH_THROUGHPUT", "spread": "HIGH_AVAILABILITY"} {
		p := workloadPolicy(name)
		p.WorkloadPolicy.Type, p.WorkloadPolicy.AcceleratorTopology = typ, "2x2x2"
		if _, err := gce.ResourcePolicies.Insert(project, "us-central1", p).Do(); err != nil {
			t.Fatal(err)
		}
	}
	east := workloadPolicy("east")
	if _, err := gce.ResourcePolicies.Insert(project, "us-east5", east).Do(); err != nil {
		t.Fatal(err)
	}
	e.tick()
	pool := func(name string, nodes int64, pp *container.PlacementPolicy) *container.NodePool {
		return &container.NodePool{Name: name, InitialNodeCount: nodes, Locations: []string{ironwoodZone},
			Config: &container.NodeConfig{MachineType: "tpu7x-standard-4t"}, PlacementPolicy: pp}
	}
	for _, tc := range []struct {
		name string
		np   *container.NodePool
		msg  string
	}{
		{"topology without a policy", pool("t", 2, &container.PlacementPolicy{TpuTopology: "2x2x2"}), "need a workload policy"},
		{"missing policy", pool("m", 2, &container.PlacementPolicy{PolicyName: "missing"}), "was not found"},
		{"policy of another region", pool("r", 2, &container.PlacementPolicy{PolicyName: "projects/" + project + "/regions/us-east5/resourcePolicies/east"}),
			"must be in the cluster's region us-central1"},
		{"high availability", pool("h", 2, &container.PlacementPolicy{PolicyName: "spread"}), "need a HIGH_THROUGHPUT workload policy"},
		{"topology and policy", pool("b", 2, &container.PlacementPolicy{PolicyName: "slice", TpuTopology: "2x2x2"}), "cannot both be set"},
		{"wrong node count", pool("n", 1, &container.PlacementPolicy{PolicyName: "slice"}), "needs 2 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.createPool(cluster, tc.np)
			checkErr(t, err, wantErr{code: 400, status: "INVALID_ARGUMENT", msg: tc.msg})
		})
	}
	if _, err := e.createPool(cluster, pool("placed", 2, &container.PlacementPolicy{PolicyName: "slice"})); err != nil {
		t.Fatalf("a slice placed by its workload policy: %v", err)
	}
	e.tick()
	if np := e.pool(t, cluster, "placed"); np.Status != "RUNNING" || np.PlacementPolicy.PolicyName != "slice" {
		t.Errorf("pool = %+v", np)
	}
	// A single-host TPU7x pool needs no policy.
	if _, err := e.createPool(cluster, pool("single", 1, nil)); err != nil {
		t.Errorf("a single-host TPU7x pool: %v", err)
	}
}

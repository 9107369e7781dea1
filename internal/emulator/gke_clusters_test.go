// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
)

func TestClustersCreateAndDelete(t *testing.T) {
	t.Parallel()
	e := start(t, nil) // operations take DefaultDuration on the manual clock
	parent := "projects/" + project + "/locations/us-central1"
	name := parent + "/clusters/inference"
	op, err := e.gke.Projects.Locations.Clusters.Create(parent, &container.CreateClusterRequest{Cluster: &container.Cluster{
		Name:      "inference",
		Locations: []string{"us-central1-a"},
		NodePools: []*container.NodePool{{Name: "system", InitialNodeCount: 1, Config: &container.NodeConfig{MachineType: "e2-standard-4"}}},
	}}).Do()
	if err != nil {
		t.Fatal(err)
	}
	if op.OperationType != "CREATE_CLUSTER" || op.Status != "RUNNING" || !strings.HasSuffix(op.TargetLink, "/v1/"+name) {
		t.Fatalf("create operation = %+v", op)
	}
	c, err := e.gke.Projects.Locations.Clusters.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != "PROVISIONING" {
		t.Errorf("status while creating = %s, want PROVISIONING", c.Status)
	}
	// Node pools wait for the cluster, as on GKE.
	if _, err := e.createPool(name, gpuPool("early")); !isCode(err, http.StatusBadRequest) {
		t.Errorf("node pool create during cluster create: %v, want 400 FAILED_PRECONDITION", err)
	}
	e.tick()
	if op = e.gkeOp(t, "us-central1", op.Name); op.Status != "DONE" || op.Error != nil {
		t.Fatalf("create operation after its duration = %+v", op)
	}
	c, err = e.gke.Projects.Locations.Clusters.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != "RUNNING" || len(c.NodePools) != 1 || c.NodePools[0].Name != "system" ||
		c.CurrentMasterVersion == "" || len(c.Locations) != 1 || c.Locations[0] != "us-central1-a" {
		t.Errorf("created cluster = status %s pools %d version %q locations %v", c.Status, len(c.NodePools), c.CurrentMasterVersion, c.Locations)
	}
	list, err := e.gke.Projects.Locations.Clusters.List(parent).Do()
	if err != nil {
		t.Fatal(err)
	}
	if !containsCluster(list.Clusters, "inference") {
		t.Error("clusters.list does not list the created cluster")
	}
	if _, err := e.gke.Projects.Locations.Clusters.Create(parent, &container.CreateClusterRequest{Cluster: &container.Cluster{Name: "inference"}}).Do(); !isCode(err, http.StatusConflict) {
		t.Errorf("second create: %v, want 409", err)
	}

	del, err := e.gke.Projects.Locations.Clusters.Delete(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if del.OperationType != "DELETE_CLUSTER" {
		t.Errorf("delete operation type = %s", del.OperationType)
	}
	if c, err := e.gke.Projects.Locations.Clusters.Get(name).Do(); err != nil || c.Status != "STOPPING" {
		t.Errorf("while deleting: %v, status %v", err, c)
	}
	e.tick()
	if del = e.gkeOp(t, "us-central1", del.Name); del.Status != "DONE" || del.Error != nil {
		t.Fatalf("delete operation after its duration = %+v", del)
	}
	if _, err := e.gke.Projects.Locations.Clusters.Get(name).Do(); !isCode(err, http.StatusNotFound) {
		t.Errorf("get after delete: %v, want 404", err)
	}
}

func TestClustersCreateRejectsBadInput(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	tests := map[string]struct {
		parent string
		c      *container.Cluster
		want   string
	}{
		"bad name":            {"us-central1", &container.Cluster{Name: "Bad_Name"}, `"cluster.name": "Bad_Name"`},
		"unknown location":    {"mars-north1", &container.Cluster{Name: "c"}, `"mars-north1"`},
		"zone outside region": {"us-central1", &container.Cluster{Name: "c", Locations: []string{"us-east5-a"}}, `"us-east5-a" is not a zone of us-central1`},
		"bad version":         {"us-central1", &container.Cluster{Name: "c", InitialClusterVersion: "1.33"}, `"1.33"`},
		"Autopilot with pools": {"us-central1", &container.Cluster{Name: "c", Autopilot: &container.Autopilot{Enabled: true},
			NodePools: []*container.NodePool{{Name: "p", InitialNodeCount: 1}}}, `an Autopilot cluster takes no node pools`},
		"auto-provisioning without cpu": {"us-central1", &container.Cluster{Name: "c", Autoscaling: &container.ClusterAutoscaling{
			EnableNodeAutoprovisioning: true, ResourceLimits: []*container.ResourceLimit{{ResourceType: "memory", Maximum: 100}}}}, `needs cpu and memory limits`},
		"limit below its minimum": {"us-central1", &container.Cluster{Name: "c", Autoscaling: &container.ClusterAutoscaling{
			ResourceLimits: []*container.ResourceLimit{{ResourceType: "nvidia-l4", Minimum: 4, Maximum: 2}}}}, `"nvidia-l4" has maximum 2 below minimum 4`},
	}
	for name, tt := range tests {
		_, err := e.gke.Projects.Locations.Clusters.Create("projects/"+project+"/locations/"+tt.parent, &container.CreateClusterRequest{Cluster: tt.c}).Do()
		if !isCode(err, http.StatusBadRequest) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want 400 naming %s", name, err, tt.want)
		}
	}
}

// TestAutopilotAndAutoProvisioning reads the seeded Autopilot cluster and
// the Standard cluster with node auto-provisioning as GKE reports them, and
// refuses a node pool on the Autopilot one.
func TestAutopilotAndAutoProvisioning(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := "projects/" + project + "/locations/us-central1/clusters/"
	ap, err := e.gke.Projects.Locations.Clusters.Get(parent + "autopilot").Do()
	if err != nil {
		t.Fatal(err)
	}
	if ap.Autopilot == nil || !ap.Autopilot.Enabled {
		t.Errorf("autopilot cluster: autopilot = %+v", ap.Autopilot)
	}
	if _, err := e.createPool(parent+"autopilot", gpuPool("p")); !isCode(err, http.StatusBadRequest) || !strings.Contains(err.Error(), "Autopilot") {
		t.Errorf("node pool on Autopilot: %v, want 400 naming Autopilot", err)
	}
	std, err := e.gke.Projects.Locations.Clusters.Get(parent + "autoprovisioned").Do()
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string]int64{}
	for _, l := range std.Autoscaling.ResourceLimits {
		limits[l.ResourceType] = l.Maximum
	}
	if std.Autopilot.Enabled || !std.Autoscaling.EnableNodeAutoprovisioning || limits["nvidia-l4"] != 16 || limits["tpu-v6e-slice"] != 64 {
		t.Errorf("auto-provisioned cluster: autopilot %v autoscaling %+v limits %v", std.Autopilot.Enabled, std.Autoscaling, limits)
	}
	serving, err := e.gke.Projects.Locations.Clusters.Get(parent + "serving").Do()
	if err != nil {
		t.Fatal(err)
	}
	if serving.Autopilot.Enabled || serving.Autoscaling.EnableNodeAutoprovisioning {
		t.Errorf("serving cluster: autopilot %v, auto-provisioning %v; want neither", serving.Autopilot.Enabled, serving.Autoscaling.EnableNodeAutoprovisioning)
	}
	// A created cluster keeps what it was created with.
	op, err := e.gke.Projects.Locations.Clusters.Create("projects/"+project+"/locations/us-east5", &container.CreateClusterRequest{Cluster: &container.Cluster{
		Name: "ap2", Autopilot: &container.Autopilot{Enabled: true}}}).Do()
	if err != nil {
		t.Fatal(err)
	}
	e.tick()
	_ = e.gkeOp(t, "us-east5", op.Name)
	if c, err := e.gke.Projects.Locations.Clusters.Get("projects/" + project + "/locations/us-east5/clusters/ap2").Do(); err != nil || !c.Autopilot.Enabled {
		t.Errorf("created Autopilot cluster: %v %+v", err, c)
	}
}

func TestAdminAddCluster(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	seed := ClusterSeed{Project: project, Location: "us-east5", Name: "batch", Version: "1.34.1-gke.1000000", Locations: []string{"us-east5-a"}}
	if err := e.srv.AddCluster(seed); err != nil {
		t.Fatal(err)
	}
	c, err := e.gke.Projects.Locations.Clusters.Get("projects/" + project + "/locations/us-east5/clusters/batch").Do()
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != "RUNNING" || c.CurrentMasterVersion != seed.Version {
		t.Errorf("added cluster = %s %s", c.Status, c.CurrentMasterVersion)
	}
	if err := e.srv.AddCluster(seed); err == nil {
		t.Error("adding the same cluster twice succeeded")
	}
	seed.Project = ""
	if err := e.srv.AddCluster(seed); err == nil {
		t.Error("a cluster without a project was added")
	}
}

func isCode(err error, code int) bool {
	var gerr *googleapi.Error
	return errors.As(err, &gerr) && gerr.Code == code
}

func containsCluster(cs []*container.Cluster, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/googleapi"
)

const (
	ironwoodZone  = "us-central1-c"
	tpu7xImage    = "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2404-amd64-tpu-tpu7x"
	trilliumImage = "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2204-amd64-tpu-v5e-v5p-v6e"
)

// tpuInstance is the insert request of a single-host TPU VM instance, with
// a boot disk type the machine family takes.
func tpuInstance(name, zone, machine, image string) *compute.Instance {
	disk := "hyperdisk-balanced"
	if strings.HasPrefix(machine, "ct5p-") {
		disk = "pd-balanced"
	}
	return &compute.Instance{
		Name:        name,
		MachineType: "zones/" + zone + "/machineTypes/" + machine,
		Disks: []*compute.AttachedDisk{{Boot: true, AutoDelete: true,
			InitializeParams: &compute.AttachedDiskInitializeParams{SourceImage: image, DiskSizeGb: 100,
				DiskType: "zones/" + zone + "/diskTypes/" + disk}}},
	}
}

// checkComputeErr asserts a Compute Engine error: HTTP code, the legacy
// errors[].reason and a message substring.
func checkComputeErr(t *testing.T, err error, code int, reason, msg string) {
	t.Helper()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		t.Fatalf("error %v (%T) is not a *googleapi.Error", err, err)
	}
	if gerr.Code != code || len(gerr.Errors) == 0 || gerr.Errors[0].Reason != reason || !strings.Contains(gerr.Message, msg) {
		t.Errorf("error = %d %+v %q, want %d reason %s with %q", gerr.Code, gerr.Errors, gerr.Message, code, reason, msg)
	}
}

func TestComputeInstanceLifecycle(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	req := tpuInstance("ironwood", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	req.Labels = map[string]string{"team": "ml"}
	req.Metadata = &compute.Metadata{Items: []*compute.MetadataItems{{Key: "startup-script", Value: googleapi.String("echo hi")}}}
	req.NetworkInterfaces = []*compute.NetworkInterface{{AccessConfigs: []*compute.AccessConfig{{}}}}

	op, err := gce.Instances.Insert(project, ironwoodZone, req).Do()
	if err != nil {
		t.Fatalf("insert: %v", err)
	}
	zoneURL := e.srv.ComputeEndpoint() + "projects/" + project + "/zones/" + ironwoodZone
	self := zoneURL + "/instances/ironwood"
	if op.Kind != "compute#operation" || op.Status != "PENDING" || op.OperationType != "insert" || op.TargetLink != self ||
		op.Zone != zoneURL || op.SelfLink != zoneURL+"/operations/"+op.Name || op.TargetId == 0 || op.Error != nil {
		t.Fatalf("insert operation = %+v", op)
	}
	inst, err := gce.Instances.Get(project, ironwoodZone, "ironwood").Do()
	if err != nil || inst.Status != "PROVISIONING" {
		t.Fatalf("get at once: %v status %v, want PROVISIONING", err, inst)
	}
	e.clock.Advance(DefaultDuration / 2)
	if inst, err = gce.Instances.Get(project, ironwoodZone, "ironwood").Do(); err != nil || inst.Status != "STAGING" {
		t.Fatalf("get half-way: %v, want STAGING", err)
	}
	if got, err := gce.ZoneOperations.Get(project, ironwoodZone, op.Name).Do(); err != nil || got.Status != "RUNNING" {
		t.Fatalf("operation half-way: %v %+v, want RUNNING", err, got)
	}
	e.clock.Advance(DefaultDuration / 2)
	done, err := gce.ZoneOperations.Wait(project, ironwoodZone, op.Name).Do()
	if err != nil || done.Status != "DONE" || done.Error != nil || done.Progress != 100 || done.EndTime == "" {
		t.Fatalf("wait: %v %+v, want DONE without error", err, done)
	}

	inst, err = gce.Instances.Get(project, ironwoodZone, "ironwood").Do()
	if err != nil {
		t.Fatal(err)
	}
	if inst.Status != "RUNNING" || inst.Kind != "compute#instance" || inst.Id != op.TargetId || inst.SelfLink != self ||
		inst.Zone != zoneURL || inst.MachineType != zoneURL+"/machineTypes/tpu7x-standard-4t" ||
		inst.CreationTimestamp != rfc3339(t0) || inst.Labels["team"] != "ml" || inst.LabelFingerprint == "" {
		t.Errorf("instance = %+v", inst)
	}
	nic := inst.NetworkInterfaces[0]
	if nic.Name != "nic0" || nic.Network != e.srv.ComputeEndpoint()+"projects/"+project+"/global/networks/default" ||
		nic.NetworkIP == "" || len(nic.AccessConfigs) != 1 || nic.AccessConfigs[0].Type != "ONE_TO_ONE_NAT" ||
		nic.AccessConfigs[0].Name != "External NAT" || nic.AccessConfigs[0].NatIP == "" {
		t.Errorf("nic0 = %+v", nic)
	}
	d := inst.Disks[0]
	if !d.Boot || d.Source != zoneURL+"/disks/ironwood" || d.Type != "PERSISTENT" || d.Mode != "READ_WRITE" || !d.AutoDelete || d.Index != 0 {
		t.Errorf("boot disk = %+v", d)
	}
	if s := inst.Scheduling; s.OnHostMaintenance != "TERMINATE" || s.ProvisioningModel != "STANDARD" || s.Preemptible {
		t.Errorf("scheduling = %+v", s)
	}
	if inst.Metadata.Fingerprint == "" || inst.Metadata.Kind != "compute#metadata" || len(inst.Metadata.Items) != 1 || inst.Tags.Fingerprint == "" {
		t.Errorf("metadata %+v tags %+v", inst.Metadata, inst.Tags)
	}

	list, err := gce.Instances.List(project, ironwoodZone).Do()
	if err != nil || len(list.Items) != 1 || list.Items[0].Name != "ironwood" {
		t.Fatalf("list: %v %+v", err, list)
	}
	for _, filter := range []string{`name = "ironwood"`, `name = ironwood`, `name eq ironwood`} {
		agg, err := gce.Instances.AggregatedList(project).Filter(filter).Do()
		if err != nil {
			t.Fatalf("aggregatedList %s: %v", filter, err)
		}
		var found []string
		for scope, l := range agg.Items {
			for _, i := range l.Instances {
				found = append(found, scope+"/"+i.Name)
			}
			if len(l.Instances) == 0 && (l.Warning == nil || l.Warning.Code != "NO_RESULTS_ON_PAGE") {
				t.Errorf("%s: empty scope %s without its warning", filter, scope)
			}
		}
		if len(found) != 1 || found[0] != "zones/"+ironwoodZone+"/ironwood" {
			t.Errorf("aggregatedList %s found %v", filter, found)
		}
	}
	if agg, err := gce.Instances.AggregatedList(project).Filter(`name = "other"`).Do(); err != nil || len(agg.Items["zones/"+ironwoodZone].Instances) != 0 {
		t.Errorf("aggregatedList of another name: %v", err)
	}

	del, err := gce.Instances.Delete(project, ironwoodZone, "ironwood").Do()
	if err != nil || del.OperationType != "delete" {
		t.Fatalf("delete: %v %+v", err, del)
	}
	if inst, err := gce.Instances.Get(project, ironwoodZone, "ironwood").Do(); err != nil || inst.Status != "STOPPING" {
		t.Fatalf("while deleting: %v, want STOPPING", err)
	}
	e.tick()
	if _, err := gce.Instances.Get(project, ironwoodZone, "ironwood").Do(); !isNotFound(err) {
		t.Fatalf("after delete: %v, want 404", err)
	}
	checkComputeErr(t, func() error { _, err := gce.Instances.Get(project, ironwoodZone, "ironwood").Do(); return err }(),
		http.StatusNotFound, "notFound", "The resource 'projects/"+project+"/zones/"+ironwoodZone+"/instances/ironwood' was not found")
}

// TestComputeInstanceFingerprints pins that setLabels, setMetadata and
// setTags refuse a stale fingerprint with 412 conditionNotMet and that a
// change gives a new fingerprint once its operation is done.
func TestComputeInstanceFingerprints(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	gce := computeClient(t, e.srv)
	if _, err := gce.Instances.Insert(project, "us-central1-b", tpuInstance("fp", "us-central1-b", "ct6e-standard-4t", trilliumImage)).Do(); err != nil {
		t.Fatal(err)
	}
	get := func() *compute.Instance {
		t.Helper()
		inst, err := gce.Instances.Get(project, "us-central1-b", "fp").Do()
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	before := get()

	_, err := gce.Instances.SetLabels(project, "us-central1-b", "fp", &compute.InstancesSetLabelsRequest{
		Labels: map[string]string{"a": "b"}, LabelFingerprint: "stale"}).Do()
	checkComputeErr(t, err, http.StatusPreconditionFailed, "conditionNotMet", "Labels fingerprint either invalid or resource labels have changed")
	op, err := gce.Instances.SetLabels(project, "us-central1-b", "fp", &compute.InstancesSetLabelsRequest{
		Labels: map[string]string{"a": "b"}, LabelFingerprint: before.LabelFingerprint}).Do()
	if err != nil || op.OperationType != "setLabels" {
		t.Fatalf("setLabels: %v %+v", err, op)
	}
	after := get()
	if after.Labels["a"] != "b" || after.LabelFingerprint == before.LabelFingerprint {
		t.Errorf("after setLabels: labels %v fingerprint %s (was %s)", after.Labels, after.LabelFingerprint, before.LabelFingerprint)
	}
	_, err = gce.Instances.SetLabels(project, "us-central1-b", "fp", &compute.InstancesSetLabelsRequest{
		Labels: map[string]string{}, LabelFingerprint: before.LabelFingerprint}).Do()
	checkComputeErr(t, err, http.StatusPreconditionFailed, "conditionNotMet", "fingerprint")

	md := &compute.Metadata{Fingerprint: "stale", Items: []*compute.MetadataItems{{Key: "k", Value: googleapi.String("v")}}}
	_, err = gce.Instances.SetMetadata(project, "us-central1-b", "fp", md).Do()
	checkComputeErr(t, err, http.StatusPreconditionFailed, "conditionNotMet", "metadata fingerprint")
	md.Fingerprint = after.Metadata.Fingerprint
	if _, err := gce.Instances.SetMetadata(project, "us-central1-b", "fp", md).Do(); err != nil {
		t.Fatalf("setMetadata: %v", err)
	}
	tags := &compute.Tags{Fingerprint: "stale", Items: []string{"tpu"}}
	_, err = gce.Instances.SetTags(project, "us-central1-b", "fp", tags).Do()
	checkComputeErr(t, err, http.StatusPreconditionFailed, "conditionNotMet", "tags fingerprint")
	tags.Fingerprint = after.Tags.Fingerprint
	if _, err := gce.Instances.SetTags(project, "us-central1-b", "fp", tags).Do(); err != nil {
		t.Fatalf("setTags: %v", err)
	}
	last := get()
	if len(last.Metadata.Items) != 1 || last.Metadata.Items[0].Key != "k" || last.Metadata.Fingerprint == after.Metadata.Fingerprint ||
		len(last.Tags.Items) != 1 || last.Tags.Fingerprint == after.Tags.Fingerprint {
		t.Errorf("after setMetadata and setTags: %+v %+v", last.Metadata, last.Tags)
	}
}

// TestComputeInstanceStockoutThenCapacity pins Compute Engine's stockout:
// the insert's operation ends DONE with ZONE_RESOURCE_POOL_EXHAUSTED and no
// instance remains; once capacity is raised, the same insert succeeds, and
// the capacity it holds stocks out the next one.
func TestComputeInstanceStockoutThenCapacity(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	gce := computeClient(t, e.srv)
	const zone = "us-east5-a"
	e.srv.SetCapacity(zone, "ct5p-hightpu-4t", 0)
	insert := func(name string) *compute.Operation {
		t.Helper()
		op, err := gce.Instances.Insert(project, zone, tpuInstance(name, zone, "ct5p-hightpu-4t", trilliumImage)).Do()
		if err != nil {
			t.Fatalf("insert %s: %v", name, err)
		}
		op, err = gce.ZoneOperations.Wait(project, zone, op.Name).Do()
		if err != nil || op.Status != "DONE" {
			t.Fatalf("wait %s: %v %+v", name, err, op)
		}
		return op
	}
	wantStockout := func(op *compute.Operation) {
		t.Helper()
		want := "The zone 'projects/" + project + "/zones/" + zone + "' does not have enough resources available to fulfill the request.  Try a different zone, or try again later."
		if op.Error == nil || len(op.Error.Errors) != 1 || op.Error.Errors[0].Code != "ZONE_RESOURCE_POOL_EXHAUSTED" || op.Error.Errors[0].Message != want {
			t.Fatalf("operation error = %+v, want the stockout", op.Error)
		}
	}
	wantStockout(insert("v5p"))
	if _, err := gce.Instances.Get(project, zone, "v5p").Do(); !isNotFound(err) {
		t.Fatalf("after the stockout: %v, want no instance", err)
	}

	e.srv.SetCapacity(zone, "ct5p-hightpu-4t", 1)
	if op := insert("v5p"); op.Error != nil {
		t.Fatalf("insert once capacity arrived: %+v", op.Error)
	}
	wantStockout(insert("second"))
	if inst, err := gce.Instances.Get(project, zone, "v5p").Do(); err != nil || inst.Status != "RUNNING" {
		t.Fatalf("the first instance: %v", err)
	}
}

// TestComputeInstancePreempt pins the preemption of a Spot VM: TERMINATED
// with the default STOP action, its capacity released; an on-demand VM
// cannot be preempted.
func TestComputeInstancePreempt(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	gce := computeClient(t, e.srv)
	const zone = "europe-west4-a"
	e.srv.SetCapacity(zone, "ct6e-standard-1t", 1)
	spot := tpuInstance("spot", zone, "ct6e-standard-1t", trilliumImage)
	spot.Scheduling = &compute.Scheduling{ProvisioningModel: "SPOT"}
	if _, err := gce.Instances.Insert(project, zone, spot).Do(); err != nil {
		t.Fatal(err)
	}
	name := "projects/" + project + "/zones/" + zone + "/instances/spot"
	inst, err := e.srv.Instance(name)
	if err != nil || inst.Status != "RUNNING" || inst.Scheduling.InstanceTerminationAction != "STOP" || *inst.Scheduling.AutomaticRestart {
		t.Fatalf("spot instance: %v %+v", err, inst)
	}
	resp, err := http.Post(e.srv.URL()+"/admin/preempt-instance", "application/json", strings.NewReader(`{"name":"`+name+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("admin preempt-instance: HTTP %d", resp.StatusCode)
	}
	if inst, err := gce.Instances.Get(project, zone, "spot").Do(); err != nil || inst.Status != "TERMINATED" {
		t.Fatalf("after preemption: %v, want TERMINATED", err)
	}
	resp, err = http.Get(e.srv.URL() + "/admin/instance?name=" + name)
	if err != nil {
		t.Fatal(err)
	}
	var stored compute.Instance
	if err := json.NewDecoder(resp.Body).Decode(&stored); err != nil || stored.Status != "TERMINATED" {
		t.Errorf("admin instance: %v %+v", err, stored)
	}
	_ = resp.Body.Close()

	op, err := gce.Instances.Insert(project, zone, tpuInstance("std", zone, "ct6e-standard-1t", trilliumImage)).Do()
	if err == nil {
		op, err = gce.ZoneOperations.Get(project, zone, op.Name).Do()
	}
	if err != nil || op.Error != nil {
		t.Fatalf("insert into the capacity the preemption freed: %v %+v", err, op)
	}
	if err := e.srv.PreemptInstance("projects/" + project + "/zones/" + zone + "/instances/std"); err == nil {
		t.Error("PreemptInstance of an on-demand VM succeeded")
	}
}

func TestComputeInstanceInsertErrors(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	gce := computeClient(t, e.srv)
	if _, err := gce.Instances.Insert(project, ironwoodZone, tpuInstance("taken", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)).Do(); err != nil {
		t.Fatal(err)
	}
	noBoot := tpuInstance("noboot", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	noBoot.Disks[0].Boot = false
	otherZoneDisk := tpuInstance("data", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	otherZoneDisk.Disks = append(otherZoneDisk.Disks, &compute.AttachedDisk{Source: "projects/" + project + "/zones/us-central1-a/disks/d"})
	withNIC := func(name, network, subnetwork string) *compute.Instance {
		in := tpuInstance(name, ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
		in.NetworkInterfaces = []*compute.NetworkInterface{{Network: network, Subnetwork: subnetwork}}
		return in
	}
	badKey := tpuInstance("x", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	badKey.Disks[0].DiskEncryptionKey = &compute.CustomerEncryptionKey{KmsKeyName: "keyRings/r/cryptoKeys/k"}
	defaultDisk := tpuInstance("x", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	defaultDisk.Disks[0].InitializeParams.DiskType = ""
	balancedPD := tpuInstance("x", ironwoodZone, "tpu7x-standard-4t", tpu7xImage)
	balancedPD.Disks[0].InitializeParams.DiskType = "zones/" + ironwoodZone + "/diskTypes/pd-balanced"
	for _, tc := range []struct {
		name         string
		zone         string
		inst         *compute.Instance
		code         int
		reason, want string
	}{
		{"default boot disk on TPU7x", ironwoodZone, defaultDisk, 400, "invalid", "pd-standard disk type cannot be used by tpu7x-standard-4t machine type."},
		{"balanced PD on TPU7x", ironwoodZone, balancedPD, 400, "invalid", "pd-balanced disk type cannot be used by tpu7x-standard-4t machine type."},
		{"malformed boot disk key", ironwoodZone, badKey, 400, "invalid",
			"Invalid value for field 'resource.disks[0].diskEncryptionKey.kmsKeyName': 'keyRings/r/cryptoKeys/k'. Must be a Cloud KMS key name, projects/{project}/locations/{location}/keyRings/{key_ring}/cryptoKeys/{key}."},
		{"bare subnetwork name", ironwoodZone, withNIC("x", "", "serving-subnet"),
			400, "invalid", "Invalid value for field 'resource.networkInterfaces[0].subnetwork': 'serving-subnet'. The URL is malformed."},
		{"bare network name", ironwoodZone, withNIC("x", "serving-vpc", ""),
			400, "invalid", "Invalid value for field 'resource.networkInterfaces[0].network': 'serving-vpc'. The URL is malformed."},
		{"subnetwork of another region", ironwoodZone, withNIC("x", "", "projects/"+project+"/regions/us-east5/subnetworks/s"),
			400, "invalid", "Subnetwork must be in region 'us-central1'"},
		{"bad name", ironwoodZone, tpuInstance("Bad_Name", ironwoodZone, "tpu7x-standard-4t", tpu7xImage),
			400, "invalid", "Invalid value for field 'resource.name': 'Bad_Name'"},
		{"machine type not in zone", "us-central1-a", tpuInstance("x", "us-central1-a", "tpu7x-standard-4t", tpu7xImage),
			400, "invalid", "Machine type with name 'tpu7x-standard-4t' does not exist in zone 'us-central1-a'."},
		{"unknown zone", "us-central1-z", tpuInstance("x", "us-central1-z", "tpu7x-standard-4t", tpu7xImage),
			400, "invalid", "Unknown zone."},
		{"unknown image family", ironwoodZone, tpuInstance("x", ironwoodZone, "tpu7x-standard-4t", "projects/ubuntu-os-accelerator-images/global/images/family/nope"),
			404, "notFound", "The resource 'projects/ubuntu-os-accelerator-images/global/images/family/nope' was not found"},
		{"no boot disk", ironwoodZone, noBoot, 400, "invalid", "Boot disk must be specified."},
		{"data disk in another zone", ironwoodZone, otherZoneDisk, 400, "invalid", "resource.disks[1].source"},
		{"duplicate", ironwoodZone, tpuInstance("taken", ironwoodZone, "tpu7x-standard-4t", tpu7xImage),
			409, "alreadyExists", "The resource 'projects/" + project + "/zones/" + ironwoodZone + "/instances/taken' already exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gce.Instances.Insert(project, tc.zone, tc.inst).Do()
			checkComputeErr(t, err, tc.code, tc.reason, tc.want)
		})
	}
	// Full and partial URLs are accepted.
	for i, nic := range [][2]string{
		{"global/networks/default", "regions/us-central1/subnetworks/default"},
		{"projects/" + project + "/global/networks/vpc", "projects/" + project + "/regions/us-central1/subnetworks/s"},
		{"https://www.googleapis.com/compute/v1/projects/" + project + "/global/networks/vpc",
			"https://www.googleapis.com/compute/v1/projects/" + project + "/regions/us-central1/subnetworks/s"},
	} {
		if _, err := gce.Instances.Insert(project, ironwoodZone, withNIC(fmt.Sprintf("url%d", i), nic[0], nic[1])).Do(); err != nil {
			t.Errorf("insert with network %s and subnetwork %s: %v", nic[0], nic[1], err)
		}
	}
	// A boot disk key is reported as its first version, and several
	// network interfaces each on their own network.
	const key = "projects/" + project + "/locations/us-central1/keyRings/r/cryptoKeys/k"
	multi := withNIC("multi", "global/networks/a", "regions/us-central1/subnetworks/a")
	multi.NetworkInterfaces = append(multi.NetworkInterfaces, &compute.NetworkInterface{Network: "global/networks/b", Subnetwork: "regions/us-central1/subnetworks/b"})
	multi.Disks[0].DiskEncryptionKey = &compute.CustomerEncryptionKey{KmsKeyName: key}
	if _, err := gce.Instances.Insert(project, ironwoodZone, multi).Do(); err != nil {
		t.Fatalf("insert with a boot disk key and two interfaces: %v", err)
	}
	got, err := gce.Instances.Get(project, ironwoodZone, "multi").Do()
	if err != nil {
		t.Fatal(err)
	}
	if k := got.Disks[0].DiskEncryptionKey; k == nil || k.KmsKeyName != key+"/cryptoKeyVersions/1" {
		t.Errorf("boot disk key = %+v, want %s/cryptoKeyVersions/1", k, key)
	}
	if len(got.NetworkInterfaces) != 2 || got.NetworkInterfaces[1].Name != "nic1" || !strings.HasSuffix(got.NetworkInterfaces[1].Network, "/global/networks/b") {
		t.Errorf("network interfaces = %+v, want nic0 on a and nic1 on b", got.NetworkInterfaces)
	}
	// An image added to the scenario's table is found by name.
	e.srv.SetImage(Image{Project: project, Name: "custom"})
	if _, err := gce.Instances.Insert(project, ironwoodZone, tpuInstance("custom", ironwoodZone, "tpu7x-standard-4t", "global/images/custom")).Do(); err != nil {
		t.Errorf("insert from an added image: %v", err)
	}
}

// TestComputeInstanceFaults pins the fault controls by method name:
// FailNext on insert, FailNextOperations on insert (no instance remains),
// and HangOperations holding an insert RUNNING until released.
func TestComputeInstanceFaults(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	gce := computeClient(t, e.srv)
	req := func(name string) *compute.Instance {
		return tpuInstance(name, "us-central1-b", "ct6e-standard-8t", trilliumImage)
	}
	if err := e.srv.FailNext(MethodComputeInstancesInsert, 1, http.StatusServiceUnavailable); err != nil {
		t.Fatal(err)
	}
	_, err := gce.Instances.Insert(project, "us-central1-b", req("a")).Do()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) || gerr.Code != http.StatusServiceUnavailable {
		t.Fatalf("insert with FailNext: %v, want 503", err)
	}
	if n := e.srv.Counters()[MethodComputeInstancesInsert]; n != 1 {
		t.Errorf("insert counter = %d, want 1", n)
	}

	if err := e.srv.FailNextOperations(MethodComputeInstancesInsert, 1, 13); err != nil {
		t.Fatal(err)
	}
	op, err := gce.Instances.Insert(project, "us-central1-b", req("a")).Do()
	if err != nil {
		t.Fatal(err)
	}
	e.tick()
	op, err = gce.ZoneOperations.Get(project, "us-central1-b", op.Name).Do()
	if err != nil || op.Error == nil || op.Error.Errors[0].Code != "INTERNAL" || op.HttpErrorStatusCode != 500 {
		t.Fatalf("failed operation: %v %+v", err, op)
	}
	if _, err := gce.Instances.Get(project, "us-central1-b", "a").Do(); !isNotFound(err) {
		t.Errorf("after a failed insert: %v, want no instance", err)
	}

	if err := e.srv.HangOperations(MethodComputeInstancesInsert, true); err != nil {
		t.Fatal(err)
	}
	op, err = gce.Instances.Insert(project, "us-central1-b", req("held")).Do()
	if err != nil {
		t.Fatal(err)
	}
	e.tick()
	e.tick()
	if got, err := gce.ZoneOperations.Wait(project, "us-central1-b", op.Name).Do(); err != nil || got.Status != "RUNNING" {
		t.Fatalf("held insert: %v %+v, want RUNNING", err, got)
	}
	if inst, err := gce.Instances.Get(project, "us-central1-b", "held").Do(); err != nil || inst.Status != "PROVISIONING" {
		t.Fatalf("held instance: %v, want PROVISIONING", err)
	}
	if err := e.srv.HangOperations(MethodComputeInstancesInsert, false); err != nil {
		t.Fatal(err)
	}
	e.tick()
	if got, err := gce.ZoneOperations.Get(project, "us-central1-b", op.Name).Do(); err != nil || got.Status != "DONE" || got.Error != nil {
		t.Fatalf("released insert: %v %+v, want DONE", err, got)
	}
	if n := e.srv.Counters()[MethodComputeZoneOperationsWait]; n != 1 {
		t.Errorf("zoneOperations.wait counter = %d, want 1", n)
	}
}

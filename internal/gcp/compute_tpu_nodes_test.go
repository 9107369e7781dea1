// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/googleapi"
	tpu "google.golang.org/api/tpu/v2"
)

func TestInstanceFromNode(t *testing.T) {
	t.Parallel()
	node := &tpu.Node{
		AcceleratorType:        "tpu7x-8",
		Description:            "serving",
		Labels:                 map[string]string{"team": "ml"},
		Metadata:               map[string]string{"b": "2", "a": "1"},
		Tags:                   []string{"tpu"},
		NetworkConfig:          &tpu.NetworkConfig{Subnetwork: "projects/p/regions/us-central1/subnetworks/s", EnableExternalIps: true},
		ServiceAccount:         &tpu.ServiceAccount{Email: "sa@p.iam.gserviceaccount.com", Scope: []string{"https://www.googleapis.com/auth/cloud-platform"}},
		SchedulingConfig:       &tpu.SchedulingConfig{Spot: true},
		ShieldedInstanceConfig: &tpu.ShieldedInstanceConfig{EnableSecureBoot: true},
		DataDisks:              []*tpu.AttachedDisk{{SourceDisk: "projects/p/zones/us-central1-c/disks/d", Mode: "READ_ONLY"}},
	}
	inst, err := instanceFromNode(fakeShapes{}, "us-central1-c", "vm", node)
	if err != nil {
		t.Fatal(err)
	}
	machineType, image, _ := fakeShapes{}.InstanceShape("tpu7x-8")
	if want := "zones/us-central1-c/machineTypes/" + machineType; inst.MachineType != want {
		t.Errorf("machineType = %q, want %q", inst.MachineType, want)
	}
	if got := inst.Disks[0].InitializeParams.SourceImage; !inst.Disks[0].Boot || got != image {
		t.Errorf("boot disk image = %q (boot %v), want the shapes' %q", got, inst.Disks[0].Boot, image)
	}
	if got := inst.Disks[0].InitializeParams.DiskType; got != "zones/us-central1-c/diskTypes/hyperdisk-balanced" {
		t.Errorf("boot disk type = %q, want the family's hyperdisk-balanced, not Compute Engine's default", got)
	}
	if s := inst.Scheduling; s.ProvisioningModel != "SPOT" || s.OnHostMaintenance != "TERMINATE" || s.AutomaticRestart == nil || *s.AutomaticRestart {
		t.Errorf("scheduling = %+v, want SPOT, TERMINATE, no automatic restart", s)
	}
	if got := inst.Metadata.Items; len(got) != 2 || got[0].Key != "a" || got[1].Key != "b" {
		t.Errorf("metadata items not sorted by key: %+v", got)
	}
	if nic := inst.NetworkInterfaces[0]; nic.Network != "" || nic.Subnetwork == "" || len(nic.AccessConfigs) != 1 {
		t.Errorf("network interface = %+v, want the subnetwork and one access config", nic)
	}
	if len(inst.Disks) != 2 || inst.Disks[1].Source != node.DataDisks[0].SourceDisk || inst.Disks[1].Mode != "READ_ONLY" {
		t.Errorf("data disk = %+v", inst.Disks)
	}

	// Read back, the node has the same settings; the image is not reported.
	inst.Zone = "https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-c"
	inst.SelfLink = "https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-c/instances/vm"
	inst.MachineType = "https://www.googleapis.com/compute/v1/projects/p/" + inst.MachineType
	inst.Disks[1].Source = "https://www.googleapis.com/compute/v1/" + node.DataDisks[0].SourceDisk
	inst.NetworkInterfaces[0].NetworkIP = "10.0.0.2"
	inst.NetworkInterfaces[0].AccessConfigs[0].NatIP = "34.1.2.3"
	inst.Status = "RUNNING"
	got := NodeFromInstance(fakeShapes{}, "other-project", inst)
	want := *node
	want.Name = "projects/p/zones/us-central1-c/instances/vm"
	want.State = "RUNNING"
	want.NetworkEndpoints = []*tpu.NetworkEndpoint{{IpAddress: "10.0.0.2", AccessConfig: &tpu.AccessConfig{ExternalIp: "34.1.2.3"}}}
	if diff := cmp.Diff(&want, got, cmpopts.IgnoreFields(tpu.Node{}, "ForceSendFields")); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// TestInstanceFromNodeBootKeyAndInterfaces: a boot disk key is the boot
// disk's diskEncryptionKey and several network configs are one network
// interface each (IP forwarding for the whole instance), and both read back
// as they were sent.
func TestInstanceFromNodeBootKeyAndInterfaces(t *testing.T) {
	t.Parallel()
	const key = "projects/k/locations/us-central1/keyRings/r/cryptoKeys/boot"
	node := &tpu.Node{
		AcceleratorType: "tpu7x-8",
		BootDiskConfig:  &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: key}},
		NetworkConfigs: []*tpu.NetworkConfig{
			{Network: "projects/p/global/networks/a", Subnetwork: "projects/p/regions/us-central1/subnetworks/a", CanIpForward: true, EnableExternalIps: true},
			{Network: "projects/p/global/networks/b", Subnetwork: "projects/p/regions/us-central1/subnetworks/b", CanIpForward: true},
		},
	}
	inst, err := instanceFromNode(fakeShapes{}, "us-central1-c", "vm", node)
	if err != nil {
		t.Fatal(err)
	}
	if k := inst.Disks[0].DiskEncryptionKey; k == nil || k.KmsKeyName != key {
		t.Errorf("boot disk key = %+v, want %s", k, key)
	}
	if len(inst.NetworkInterfaces) != 2 || !inst.CanIpForward || len(inst.NetworkInterfaces[0].AccessConfigs) != 1 ||
		len(inst.NetworkInterfaces[1].AccessConfigs) != 0 || inst.NetworkInterfaces[1].Network != "projects/p/global/networks/b" {
		t.Errorf("network interfaces = %+v (canIpForward %v), want two, external IPs on the first", inst.NetworkInterfaces, inst.CanIpForward)
	}
	inst.Zone = "https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-c"
	inst.SelfLink = "https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-c/instances/vm"
	got := NodeFromInstance(fakeShapes{}, "p", inst)
	if diff := cmp.Diff(node.NetworkConfigs, got.NetworkConfigs); diff != "" || got.NetworkConfig != nil {
		t.Errorf("network configs read back (-want +got):\n%s\nnetwork config %+v", diff, got.NetworkConfig)
	}
	if diff := cmp.Diff(node.BootDiskConfig, got.BootDiskConfig); diff != "" {
		t.Errorf("boot disk config read back (-want +got):\n%s", diff)
	}
}

func TestInstanceFromNodeRefusesWhatComputeEngineDoesNotCreate(t *testing.T) {
	t.Parallel()
	for _, acc := range []string{"v5litepod-4", "v6e-16", "no-such-type"} {
		if _, err := instanceFromNode(fakeShapes{}, "z", "vm", &tpu.Node{AcceleratorType: acc}); err == nil || !strings.Contains(err.Error(), acc) {
			t.Errorf("%s: want the shapes' error naming it, got %v", acc, err)
		}
	}
}

// fakeShapes knows one TPU machine type, as the catalog would.
type fakeShapes struct{}

func (fakeShapes) InstanceShape(acc string) (string, string, error) {
	if acc == "tpu7x-8" {
		return "tpu7x-standard-4t", "projects/p/global/images/family/tpu", nil
	}
	return "", "", fmt.Errorf("%q cannot be created as one Compute Engine instance", acc)
}

func (fakeShapes) AcceleratorTypeOf(mt string) (string, bool) {
	if mt == "tpu7x-standard-4t" {
		return "tpu7x-8", true
	}
	return "", false
}

func (fakeShapes) RegionOf(zone string) string { return zone[:strings.LastIndex(zone, "-")] }

func (fakeShapes) BootDiskType(mt string) string {
	if mt == "tpu7x-standard-4t" {
		return "hyperdisk-balanced"
	}
	return ""
}

// fakeInstances is an InstanceAPI that keeps one instance and can refuse a
// number of label changes for a stale fingerprint.
type fakeInstances struct {
	inst       *compute.Instance
	gets       int
	staleTimes int
	labels     map[string]string
}

func (f *fakeInstances) Get(context.Context, string, string, string) (*compute.Instance, error) {
	f.gets++
	return f.inst, nil
}

func (f *fakeInstances) Read(ctx context.Context, project, zone, name string) (*compute.Instance, error) {
	return f.Get(ctx, project, zone, name)
}

func (f *fakeInstances) Insert(context.Context, string, string, *compute.Instance) (*compute.Operation, error) {
	return &compute.Operation{Name: "op-insert", Status: "DONE"}, nil
}

func (f *fakeInstances) Delete(context.Context, string, string, string) (*compute.Operation, error) {
	return &compute.Operation{Name: "op-delete", Status: "DONE"}, nil
}

func (f *fakeInstances) SetLabels(_ context.Context, _, _, _ string, req *compute.InstancesSetLabelsRequest) (*compute.Operation, error) {
	if f.staleTimes > 0 {
		f.staleTimes--
		return nil, &googleapi.Error{Code: http.StatusPreconditionFailed, Message: "Labels fingerprint either invalid or resource labels have changed"}
	}
	if req.LabelFingerprint != f.inst.LabelFingerprint {
		return nil, &googleapi.Error{Code: http.StatusBadRequest, Message: "wrong fingerprint sent"}
	}
	f.labels = req.Labels
	return &compute.Operation{Name: "op-labels", Status: "DONE"}, nil
}

func (f *fakeInstances) SetMetadata(context.Context, string, string, string, *compute.Metadata) (*compute.Operation, error) {
	return &compute.Operation{Name: "op-md", Status: "DONE"}, nil
}

func (f *fakeInstances) SetTags(context.Context, string, string, string, *compute.Tags) (*compute.Operation, error) {
	return &compute.Operation{Name: "op-tags", Status: "DONE"}, nil
}

func (f *fakeInstances) ListNamed(context.Context, string, string) ([]*compute.Instance, error) {
	return []*compute.Instance{f.inst}, nil
}

func (f *fakeInstances) Wait(_ context.Context, op *compute.Operation) (*compute.Operation, error) {
	return op, nil
}

func (f *fakeInstances) Poller() *Poller { return nil }

func TestInstanceNodesPatchRereadsAStaleFingerprint(t *testing.T) {
	t.Parallel()
	id := "projects/p/zones/z/instances/vm"
	for _, tt := range []struct {
		stale   int
		wantErr bool
	}{{0, false}, {fingerprintAttempts - 1, false}, {fingerprintAttempts, true}} {
		f := &fakeInstances{inst: &compute.Instance{Name: "vm", LabelFingerprint: "fp1"}, staleTimes: tt.stale}
		_, err := NewInstanceNodes(f, fakeShapes{}).Patch(context.Background(), id, "labels", &tpu.Node{Labels: map[string]string{"a": "b"}})
		if (err != nil) != tt.wantErr {
			t.Fatalf("stale %d times: err = %v, want error %v", tt.stale, err, tt.wantErr)
		}
		if f.gets != min(tt.stale+1, fingerprintAttempts) {
			t.Errorf("stale %d times: %d reads, want one per attempt", tt.stale, f.gets)
		}
		if !tt.wantErr && f.labels["a"] != "b" {
			t.Errorf("labels not set: %v", f.labels)
		}
	}
	if _, err := NewInstanceNodes(&fakeInstances{inst: &compute.Instance{}}, fakeShapes{}).Patch(context.Background(), id, "description", &tpu.Node{}); err == nil {
		t.Error("a description change was accepted; Compute Engine has no in-place change for it")
	}
}

func TestInstanceNodesWait(t *testing.T) {
	t.Parallel()
	c := NewInstanceNodes(&fakeInstances{inst: &compute.Instance{}}, fakeShapes{})
	op, err := c.Delete(context.Background(), "projects/p/zones/z/instances/vm")
	if err != nil {
		t.Fatal(err)
	}
	done, err := c.Wait(context.Background(), op)
	if err != nil || !done.Done {
		t.Fatalf("Wait = %+v, %v", done, err)
	}
}

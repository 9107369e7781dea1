// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/googleapi"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
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
	inst, err := instanceFromNode("us-central1-c", "vm", node)
	if err != nil {
		t.Fatal(err)
	}
	ce, fs := catalog.Default().ComputeEngineTPU("tpu7x-8")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	if want := "zones/us-central1-c/machineTypes/" + ce.MachineType; inst.MachineType != want {
		t.Errorf("machineType = %q, want %q", inst.MachineType, want)
	}
	if got := inst.Disks[0].InitializeParams.SourceImage; !inst.Disks[0].Boot || got != ce.DefaultImage {
		t.Errorf("boot disk image = %q (boot %v), want the catalog's %q", got, inst.Disks[0].Boot, ce.DefaultImage)
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
	got := nodeFromInstance("other-project", inst)
	want := *node
	want.Name = "projects/p/zones/us-central1-c/instances/vm"
	want.State = "RUNNING"
	want.NetworkEndpoints = []*tpu.NetworkEndpoint{{IpAddress: "10.0.0.2", AccessConfig: &tpu.AccessConfig{ExternalIp: "34.1.2.3"}}}
	if diff := cmp.Diff(&want, got, cmpopts.IgnoreFields(tpu.Node{}, "ForceSendFields")); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

func TestInstanceFromNodeRefusesWhatComputeEngineDoesNotCreate(t *testing.T) {
	t.Parallel()
	for _, acc := range []string{"v5litepod-4", "v6e-16", "no-such-type"} {
		if _, err := instanceFromNode("z", "vm", &tpu.Node{AcceleratorType: acc}); err == nil || !strings.Contains(err.Error(), acc) {
			t.Errorf("%s: want an error naming it, got %v", acc, err)
		}
	}
}

func TestVMIDs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		id       string
		instance bool
		api      string
	}{
		{"projects/p/locations/z/nodes/n", false, apiCloudTPU},
		{"projects/p/zones/z/instances/n", true, apiComputeEngine},
	} {
		p, z, n, instance, err := parseVMID(tt.id)
		if err != nil || p != "p" || z != "z" || n != "n" || instance != tt.instance {
			t.Errorf("parseVMID(%q) = %q %q %q %v %v", tt.id, p, z, n, instance, err)
		}
		if got := vmID(p, z, n, instance); got != tt.id {
			t.Errorf("vmID = %q, want %q", got, tt.id)
		}
		if got := apiOfID(tt.id); got != tt.api {
			t.Errorf("apiOfID(%q) = %q, want %q", tt.id, got, tt.api)
		}
		if got := zoneOf(tt.id); got != "z" {
			t.Errorf("zoneOf(%q) = %q", tt.id, got)
		}
	}
}

// fakeInstances is an instanceAPI that keeps one instance and can refuse a
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

func (f *fakeInstances) Poller() *gcp.Poller { return nil }

func TestInstanceNodesPatchRereadsAStaleFingerprint(t *testing.T) {
	t.Parallel()
	id := "projects/p/zones/z/instances/vm"
	for _, tt := range []struct {
		stale   int
		wantErr bool
	}{{0, false}, {fingerprintAttempts - 1, false}, {fingerprintAttempts, true}} {
		f := &fakeInstances{inst: &compute.Instance{Name: "vm", LabelFingerprint: "fp1"}, staleTimes: tt.stale}
		_, err := newInstanceNodes(f).Patch(context.Background(), id, "labels", &tpu.Node{Labels: map[string]string{"a": "b"}})
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
	if _, err := newInstanceNodes(&fakeInstances{inst: &compute.Instance{}}).Patch(context.Background(), id, "description", &tpu.Node{}); err == nil {
		t.Error("a description change was accepted; Compute Engine has no in-place change for it")
	}
}

func TestInstanceNodesWait(t *testing.T) {
	t.Parallel()
	c := newInstanceNodes(&fakeInstances{inst: &compute.Instance{}})
	op, err := c.Delete(context.Background(), "projects/p/zones/z/instances/vm")
	if err != nil {
		t.Fatal(err)
	}
	done, err := c.Wait(context.Background(), op)
	if err != nil || !done.Done {
		t.Fatalf("Wait = %+v, %v", done, err)
	}
}

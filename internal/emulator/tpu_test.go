// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
)

var tpuOpName = regexp.MustCompile(`^projects/accel-sandbox/locations/[a-z0-9-]+/operations/operation-\d+-[0-9a-f]{8}$`)

func TestTPUNodeLifecycle(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	parent := zoneParent("us-central1-a")
	name := parent + "/nodes/trainer"

	op, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{
		AcceleratorType: "v5litepod-16",
		RuntimeVersion:  "v2-alpha-tpuv5-lite",
		Labels:          map[string]string{"team": "ml"},
	}).NodeId("trainer").Do()
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !tpuOpName.MatchString(op.Name) || op.Done {
		t.Fatalf("create op = %s done=%v, want a running google.longrunning operation", op.Name, op.Done)
	}
	var meta map[string]any
	if err := json.Unmarshal(op.Metadata, &meta); err != nil {
		t.Fatal(err)
	}
	if meta["verb"] != "create" || meta["target"] != name || meta["@type"] != "type.googleapis.com/google.cloud.tpu.v2.OperationMetadata" {
		t.Errorf("metadata = %v", meta)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(name).Do()
	if err != nil {
		t.Fatalf("get while creating: %v", err)
	}
	if n.State != stateCreating || n.Health != "" || len(n.NetworkEndpoints) != 0 {
		t.Errorf("while creating: state=%s health=%s endpoints=%d", n.State, n.Health, len(n.NetworkEndpoints))
	}

	e.tick()
	op, err = e.tpu.Projects.Locations.Operations.Get(op.Name).Do()
	if err != nil {
		t.Fatalf("operations.get: %v", err)
	}
	if !op.Done || op.Error != nil {
		t.Fatalf("op after its duration: done=%v error=%v", op.Done, op.Error)
	}
	var resp map[string]any
	if err := json.Unmarshal(op.Response, &resp); err != nil {
		t.Fatal(err)
	}
	if resp["@type"] != "type.googleapis.com/google.cloud.tpu.v2.Node" || resp["state"] != stateReady || resp["name"] != name {
		t.Errorf("op response = %v", resp)
	}

	n, err = e.tpu.Projects.Locations.Nodes.Get(name).Do()
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if n.State != stateReady || n.Health != healthHealthy || n.ApiVersion != "V2" || n.CreateTime != t0.Format(time.RFC3339Nano) {
		t.Errorf("node = state %s health %s api %s created %s", n.State, n.Health, n.ApiVersion, n.CreateTime)
	}
	if diff := cmp.Diff(&tpu.AcceleratorConfig{Type: "V5LITE_POD", Topology: "4x4"}, n.AcceleratorConfig); diff != "" {
		t.Errorf("acceleratorConfig (-want +got):\n%s", diff)
	}
	if len(n.NetworkEndpoints) != 4 {
		t.Fatalf("v5litepod-16 has 4 workers, got %d endpoints", len(n.NetworkEndpoints))
	}
	for _, ep := range n.NetworkEndpoints {
		if !strings.HasPrefix(ep.IpAddress, "10.") || ep.AccessConfig != nil {
			t.Errorf("endpoint %+v: want a 10.x address and no external IP", ep)
		}
	}

	list, err := e.tpu.Projects.Locations.Nodes.List(parent).Do()
	if err != nil || len(list.Nodes) != 1 || list.Nodes[0].Name != name {
		t.Fatalf("list = %v, %v", list, err)
	}

	// Patch: allowed fields apply when the operation ends.
	_, err = e.tpu.Projects.Locations.Nodes.Patch(name, &tpu.Node{
		Description: "nightly", Labels: map[string]string{"team": "infra"},
	}).UpdateMask("description,labels").Do()
	if err != nil {
		t.Fatalf("patch: %v", err)
	}
	e.tick()
	n, err = e.tpu.Projects.Locations.Nodes.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if n.Description != "nightly" || n.Labels["team"] != "infra" {
		t.Errorf("after patch: description=%q labels=%v", n.Description, n.Labels)
	}

	// Stop, then start.
	if _, err := e.tpu.Projects.Locations.Nodes.Stop(name, &tpu.StopNodeRequest{}).Do(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if n, _ = e.tpu.Projects.Locations.Nodes.Get(name).Do(); n.State != stateStopping {
		t.Errorf("state after stop = %s, want STOPPING", n.State)
	}
	e.tick()
	if n, _ = e.tpu.Projects.Locations.Nodes.Get(name).Do(); n.State != stateStopped {
		t.Errorf("state after stop op = %s, want STOPPED", n.State)
	}
	if _, err := e.tpu.Projects.Locations.Nodes.Start(name, &tpu.StartNodeRequest{}).Do(); err != nil {
		t.Fatalf("start: %v", err)
	}
	if n, _ = e.tpu.Projects.Locations.Nodes.Get(name).Do(); n.State != stateStarting {
		t.Errorf("state after start = %s, want STARTING", n.State)
	}
	e.tick()
	if n, _ = e.tpu.Projects.Locations.Nodes.Get(name).Do(); n.State != stateReady {
		t.Errorf("state after start op = %s, want READY", n.State)
	}

	// Delete.
	op, err = e.tpu.Projects.Locations.Nodes.Delete(name).Do()
	if err != nil {
		t.Fatalf("delete: %v", err)
	}
	if n, _ = e.tpu.Projects.Locations.Nodes.Get(name).Do(); n.State != stateDeleting {
		t.Errorf("state after delete = %s, want DELETING", n.State)
	}
	e.tick()
	op, err = e.tpu.Projects.Locations.Operations.Get(op.Name).Do()
	if err != nil || !op.Done || !strings.Contains(string(op.Response), "google.protobuf.Empty") {
		t.Errorf("delete op = %+v, %v; want done with an Empty response", op, err)
	}
	_, err = e.tpu.Projects.Locations.Nodes.Get(name).Do()
	checkErr(t, err, wantErr{code: 404, status: statusNotFound, msg: "Resource '" + name + "' was not found"})
}

func TestTPUCreateValidation(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	if _, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("taken").Do(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		zone   string
		id     string
		node   *tpu.Node
		want   wantErr
		detail string // BadRequest field, if any
	}{
		{"uppercase id", "us-central1-b", "Bad_Name", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", `node id "Bad_Name" is not valid`}, "node_id"},
		{"id starting with a digit", "us-central1-b", "1node", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "is not valid"}, "node_id"},
		{"id of 64 characters", "us-central1-b", "a" + strings.Repeat("b", 63), &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "is not valid"}, "node_id"},
		{"missing id", "us-central1-b", "", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "is not valid"}, "node_id"},
		{"type not in zone", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v5litepod-8", RuntimeVersion: "v2-alpha-tpuv5-lite"},
			wantErr{400, statusInvalidArgument, "", `could not be found in the zonal accelerator configurations for "us-central1-b".; the accelerator v5litepod-8 was not found in zone us-central1-b [EID: 0x`}, "accelerator_type"},
		{"unknown type", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v9-8", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "the accelerator v9-8 was not found"}, "accelerator_type"},
		{"default v2-8 not in zone", "us-central1-a", "n1", &tpu.Node{RuntimeVersion: "tpu-ubuntu2204-base"},
			wantErr{400, statusInvalidArgument, "", "the accelerator v2-8 was not found in zone us-central1-a"}, "accelerator_type"},
		{"runtime version unknown", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-vm-tf-9.9.9"},
			wantErr{400, statusInvalidArgument, "", `The field "runtime_version" cannot be "tpu-vm-tf-9.9.9"`}, "runtime_version"},
		{"runtime version missing", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4"},
			wantErr{400, statusInvalidArgument, "", `"runtime_version" cannot be ""`}, "runtime_version"},
		{"type and config", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", AcceleratorConfig: &tpu.AcceleratorConfig{Type: "V6E", Topology: "2x2"}, RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "Only one of accelerator_type and accelerator_config"}, "accelerator_config"},
		{"bad config", "us-central1-b", "n1", &tpu.Node{AcceleratorConfig: &tpu.AcceleratorConfig{Type: "V6E", Topology: "3x3"}, RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "{type: V6E, topology: 3x3} is not a valid TPU configuration"}, "accelerator_config"},
		{"zone without TPUs", "us-west9-z", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{400, statusInvalidArgument, "", "was not found in zone us-west9-z"}, "accelerator_type"},
		{"network_config and network_configs", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e",
			NetworkConfig: &tpu.NetworkConfig{Network: "a"}, NetworkConfigs: []*tpu.NetworkConfig{{Network: "b"}}},
			wantErr{400, statusInvalidArgument, "", "network_config and network_configs are mutually exclusive"}, "network_configs"},
		{"malformed boot disk key", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e",
			BootDiskConfig: &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: "projects/p/keyRings/r/cryptoKeys/k"}}},
			wantErr{400, statusInvalidArgument, "", `"boot_disk_config.customer_encryption_key.kms_key_name" cannot be "projects/p/keyRings/r/cryptoKeys/k": it must be a Cloud KMS key name`},
			"boot_disk_config.customer_encryption_key.kms_key_name"},
		{"65 labels", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e", Labels: manyLabels(65)},
			wantErr{400, statusInvalidArgument, "", "at most 64 labels; the request has 65"}, "labels"},
		{"label key in capitals", "us-central1-b", "n1", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e", Labels: map[string]string{"Team": "x"}},
			wantErr{400, statusInvalidArgument, "", `Label key "Team" is invalid`}, "labels"},
		{"duplicate", "us-central1-b", "taken", &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"},
			wantErr{409, statusAlreadyExists, "", "Resource 'projects/accel-sandbox/locations/us-central1-b/nodes/taken' already exists"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent(tt.zone), tt.node).NodeId(tt.id).Do()
			checkErr(t, err, tt.want)
			if tt.detail != "" {
				details, _ := rawBody(t, err)["details"].([]any)
				found := false
				for _, d := range details {
					m, _ := d.(map[string]any)
					v, _ := m["fieldViolations"].([]any)
					if len(v) != 1 {
						continue
					}
					if fv, ok := v[0].(map[string]any); ok && fv["field"] == tt.detail {
						found = true
					}
				}
				if !found {
					t.Errorf("no BadRequest violation for %s in %v", tt.detail, details)
				}
			}
		})
	}
}

// TestTPUBootKeyAndNetworkConfigs: a node created with a boot disk key and
// several network configs reports the key as its first version and each
// network config with the defaults filled in, and no networkConfig; the
// first interface's external IPs give the endpoints theirs; such a node has
// no network_config.enable_external_ips to patch.
func TestTPUBootKeyAndNetworkConfigs(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-b")
	const key = "projects/kms/locations/us-central1/keyRings/r/cryptoKeys/boot"
	_, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{
		AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e",
		BootDiskConfig: &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: key}},
		NetworkConfigs: []*tpu.NetworkConfig{{Network: "a", Subnetwork: "a", EnableExternalIps: true}, {CanIpForward: true}},
	}).NodeId("multi").Do()
	if err != nil {
		t.Fatal(err)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/multi").Do()
	if err != nil {
		t.Fatal(err)
	}
	want := &tpu.Node{
		BootDiskConfig: &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: key + "/cryptoKeyVersions/1"}},
		NetworkConfigs: []*tpu.NetworkConfig{
			{Network: "a", Subnetwork: "a", EnableExternalIps: true},
			{Network: "projects/" + project + "/global/networks/default", Subnetwork: "projects/" + project + "/regions/us-central1/subnetworks/default", CanIpForward: true},
		},
	}
	got := &tpu.Node{BootDiskConfig: n.BootDiskConfig, NetworkConfig: n.NetworkConfig, NetworkConfigs: n.NetworkConfigs}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node (-want +got):\n%s", diff)
	}
	if len(n.NetworkEndpoints) != 1 || n.NetworkEndpoints[0].AccessConfig == nil {
		t.Errorf("endpoints = %+v, want one with an external IP", n.NetworkEndpoints)
	}
	_, err = e.tpu.Projects.Locations.Nodes.Patch(parent+"/nodes/multi", &tpu.Node{NetworkConfig: &tpu.NetworkConfig{}}).
		UpdateMask("networkConfig.enableExternalIps").Do()
	checkErr(t, err, wantErr{400, statusInvalidArgument, "", "The node has network_configs, not network_config"})
}

func TestTPUCreateWithAcceleratorConfigAndExternalIPs(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-b")
	if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{
		AcceleratorConfig: &tpu.AcceleratorConfig{Type: "V6E", Topology: "2x2"},
		RuntimeVersion:    "v2-alpha-tpuv6e",
		NetworkConfig:     &tpu.NetworkConfig{EnableExternalIps: true},
	}).NodeId("inference").Do(); err != nil {
		t.Fatal(err)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/inference").Do()
	if err != nil {
		t.Fatal(err)
	}
	if n.AcceleratorType != "v6e-4" || n.State != stateReady || len(n.NetworkEndpoints) != 1 {
		t.Fatalf("node = type %s state %s endpoints %d", n.AcceleratorType, n.State, len(n.NetworkEndpoints))
	}
	if ac := n.NetworkEndpoints[0].AccessConfig; ac == nil || !strings.HasPrefix(ac.ExternalIp, "34.") {
		t.Errorf("enableExternalIps: access config = %+v, want an external IP", ac)
	}
	if n.NetworkConfig.Network != "projects/accel-sandbox/global/networks/default" || n.ServiceAccount == nil || !strings.HasSuffix(n.ServiceAccount.Email, "-compute@developer.gserviceaccount.com") {
		t.Errorf("defaults: network %q service account %+v", n.NetworkConfig.Network, n.ServiceAccount)
	}
	// Turning external IPs off through patch removes them.
	if _, err := e.tpu.Projects.Locations.Nodes.Patch(n.Name, &tpu.Node{NetworkConfig: &tpu.NetworkConfig{}}).UpdateMask("networkConfig.enableExternalIps").Do(); err != nil {
		t.Fatal(err)
	}
	n, err = e.tpu.Projects.Locations.Nodes.Get(n.Name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if n.NetworkConfig.EnableExternalIps || n.NetworkEndpoints[0].AccessConfig != nil {
		t.Errorf("after patch: enableExternalIps=%v access=%+v", n.NetworkConfig.EnableExternalIps, n.NetworkEndpoints[0].AccessConfig)
	}
}

func TestTPUPatchAndStateRules(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	parent := zoneParent("us-central2-b")
	name := parent + "/nodes/v4"
	if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v4-8", RuntimeVersion: "tpu-ubuntu2204-base"}).NodeId("v4").Do(); err != nil {
		t.Fatal(err)
	}
	// Still CREATING: no update, stop or start.
	_, err := e.tpu.Projects.Locations.Nodes.Patch(name, &tpu.Node{Description: "x"}).UpdateMask("description").Do()
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "", "update is not supported while in state CREATING"})
	_, err = e.tpu.Projects.Locations.Nodes.Stop(name, &tpu.StopNodeRequest{}).Do()
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "", "stop is not supported while in state CREATING"})
	e.tick()
	_, err = e.tpu.Projects.Locations.Nodes.Start(name, &tpu.StartNodeRequest{}).Do()
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "", "start is not supported while in state READY"})

	for _, mask := range []string{"acceleratorType", "runtime_version", "networkConfig.canIpForward", "schedulingConfig"} {
		_, err = e.tpu.Projects.Locations.Nodes.Patch(name, &tpu.Node{}).UpdateMask(mask).Do()
		checkErr(t, err, wantErr{400, statusInvalidArgument, "", "is not supported; supported fields: [description, tags, labels, metadata, network_config.enable_external_ips, data_disks]"})
	}
	_, err = e.tpu.Projects.Locations.Nodes.Patch(name, &tpu.Node{}).Do()
	checkErr(t, err, wantErr{400, statusInvalidArgument, "", `"update_mask" is required`})

	// Unknown JSON fields are refused like the real API does.
	req, _ := http.NewRequest(http.MethodPatch, e.srv.URL()+"/v2/"+name+"?updateMask=labels", strings.NewReader(`{"labelz":{}}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), `Unknown name \"labelz\"`) {
		t.Errorf("unknown field: %d %s", resp.StatusCode, b)
	}

	// Deleting twice.
	if _, err := e.tpu.Projects.Locations.Nodes.Delete(name).Do(); err != nil {
		t.Fatal(err)
	}
	_, err = e.tpu.Projects.Locations.Nodes.Delete(name).Do()
	checkErr(t, err, wantErr{400, statusFailedPrecondition, "", "delete is not supported while in state DELETING"})
}

func TestTPUListPagination(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-south1-a")
	var want []string
	for _, id := range []string{"e", "a", "d", "b", "c"} {
		if _, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v5litepod-1", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId(id).Do(); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		want = append(want, parent+"/nodes/"+id)
	}
	var got []string
	pages := 0
	err := e.tpu.Projects.Locations.Nodes.List(parent).PageSize(2).Pages(context.Background(), func(r *tpu.ListNodesResponse) error {
		pages++
		for _, n := range r.Nodes {
			got = append(got, n.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != 3 {
		t.Errorf("pages=%d, names (-want +got):\n%s", pages, diff)
	}
	_, err = e.tpu.Projects.Locations.Nodes.List(parent).PageToken("garbage!").Do()
	checkErr(t, err, wantErr{400, statusInvalidArgument, "", "Invalid page token."})

	// "-" lists every zone of the project.
	all, err := e.tpu.Projects.Locations.Nodes.List(zoneParent("-")).Do()
	if err != nil || len(all.Nodes) != 5 {
		t.Errorf("list across zones = %d nodes, %v", len(all.Nodes), err)
	}
}

func TestTPUCatalog(t *testing.T) {
	t.Parallel()
	e := start(t, nil)
	parent := zoneParent("us-central2-b")
	types, err := e.tpu.Projects.Locations.AcceleratorTypes.List(parent).Do()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, at := range types.AcceleratorTypes {
		names = append(names, at.Type)
	}
	if diff := cmp.Diff(typesV4, names); diff != "" {
		t.Errorf("us-central2-b types (-want +got):\n%s", diff)
	}
	tests := []struct {
		zone, typ, cfgType, topology string
	}{
		{"us-central2-b", "v4-8", "V4", "2x2x1"},
		{"us-central2-b", "v4-32", "V4", "2x2x4"},
		{"us-central1-a", "v5p-128", "V5P", "4x4x4"},
		{"us-central1-a", "v5p-12288", "V5P", "16x16x24"},
		{"us-central1-a", "v5litepod-8", "V5LITE_POD", "2x4"},
		{"us-east5-a", "v6e-256", "V6E", "16x16"},
		{"europe-west4-a", "v3-2048", "V3", "32x32"},
		{"europe-west4-a", "v2-8", "V2", "2x2"},
	}
	for _, tt := range tests {
		at, err := e.tpu.Projects.Locations.AcceleratorTypes.Get(zoneParent(tt.zone) + "/acceleratorTypes/" + tt.typ).Do()
		if err != nil {
			t.Errorf("get %s in %s: %v", tt.typ, tt.zone, err)
			continue
		}
		want := []*tpu.AcceleratorConfig{{Type: tt.cfgType, Topology: tt.topology}}
		if diff := cmp.Diff(want, at.AcceleratorConfigs); diff != "" || at.Name != zoneParent(tt.zone)+"/acceleratorTypes/"+tt.typ {
			t.Errorf("%s: name %s, configs (-want +got):\n%s", tt.typ, at.Name, diff)
		}
	}
	_, err = e.tpu.Projects.Locations.AcceleratorTypes.Get(parent + "/acceleratorTypes/v6e-4").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "acceleratorTypes/v6e-4' was not found"})

	rv, err := e.tpu.Projects.Locations.RuntimeVersions.Get(parent + "/runtimeVersions/tpu-ubuntu2204-base").Do()
	if err != nil || rv.Version != "tpu-ubuntu2204-base" {
		t.Errorf("runtime version get = %+v, %v", rv, err)
	}
	rvs, err := e.tpu.Projects.Locations.RuntimeVersions.List(parent).PageSize(3).Do()
	if err != nil || len(rvs.RuntimeVersions) != 3 || rvs.NextPageToken == "" {
		t.Errorf("runtime versions page = %d items, token %q, %v", len(rvs.RuntimeVersions), rvs.NextPageToken, err)
	}
	locs, err := e.tpu.Projects.Locations.List("projects/" + project).Do()
	if want := len(Default().Zones); err != nil || len(locs.Locations) != want {
		t.Errorf("locations = %d, %v; want the %d zones of the default scenario", len(locs.Locations), err, want)
	}

	// The v2alpha1 path serves the same handlers.
	resp, err := http.Get(e.srv.URL() + "/v2alpha1/" + parent + "/acceleratorTypes/v4-8?alt=json&prettyPrint=false")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var at tpu.AcceleratorType
	if err := json.NewDecoder(resp.Body).Decode(&at); err != nil || resp.StatusCode != 200 || at.Type != "v4-8" {
		t.Errorf("v2alpha1 get = %d %+v %v", resp.StatusCode, at, err)
	}
}

func TestTPUStockout(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	parent := zoneParent("us-central1-a")
	e.srv.SetCapacity("us-central1-a", "v5litepod-4", 1)
	create := func(id string) *tpu.Operation {
		t.Helper()
		op, err := e.tpu.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId(id).Do()
		if err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
		op, err = e.tpu.Projects.Locations.Operations.Get(op.Name).Do()
		if err != nil {
			t.Fatal(err)
		}
		return op
	}
	if op := create("first"); op.Error != nil {
		t.Fatalf("first create within capacity failed: %+v", op.Error)
	}
	op := create("second")
	if !op.Done || op.Error == nil || op.Error.Code != 8 {
		t.Fatalf("second create = %+v, want done with code 8", op)
	}
	wantMsg := regexp.MustCompile(`^There is no more capacity in the zone "us-central1-a"; you can try in another zone where Cloud TPU Nodes are offered \(see https://cloud.google.com/tpu/docs/regions\) \[EID: 0x[0-9a-f]{16}\]$`)
	if !wantMsg.MatchString(op.Error.Message) {
		t.Errorf("stockout message = %q", op.Error.Message)
	}
	// The failed node is not left behind.
	_, err := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/second").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "was not found"})

	// Deleting the first frees the slot.
	if _, err := e.tpu.Projects.Locations.Nodes.Delete(parent + "/nodes/first").Do(); err != nil {
		t.Fatal(err)
	}
	if op := create("third"); op.Error != nil {
		t.Errorf("create after a delete freed capacity: %+v", op.Error)
	}

	// Stopping frees capacity too, and starting needs it again.
	if _, err := e.tpu.Projects.Locations.Nodes.Stop(parent+"/nodes/third", &tpu.StopNodeRequest{}).Do(); err != nil {
		t.Fatal(err)
	}
	if op := create("fourth"); op.Error != nil {
		t.Fatalf("create while the other node is stopped: %+v", op.Error)
	}
	sop, err := e.tpu.Projects.Locations.Nodes.Start(parent+"/nodes/third", &tpu.StartNodeRequest{}).Do()
	if err != nil {
		t.Fatal(err)
	}
	sop, _ = e.tpu.Projects.Locations.Operations.Get(sop.Name).Do()
	if sop.Error == nil || sop.Error.Code != 8 {
		t.Errorf("start without capacity = %+v, want code 8", sop.Error)
	}
	if n, _ := e.tpu.Projects.Locations.Nodes.Get(parent + "/nodes/third").Do(); n.State != stateStopped {
		t.Errorf("node after failed start = %s, want STOPPED", n.State)
	}
}

func TestTPUOperationsListAndRealClock(t *testing.T) {
	t.Parallel()
	// System clock and default durations: progress is computed from elapsed time.
	srv, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Close() }()
	ts, err := tpu.NewService(context.Background(), option.WithEndpoint(srv.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	parent := zoneParent("us-central1-b")
	op, err := ts.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v6e-1", RuntimeVersion: "v2-alpha-tpuv6e"}).NodeId("clock").Do()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !op.Done && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		if op, err = ts.Projects.Locations.Operations.Get(op.Name).Do(); err != nil {
			t.Fatal(err)
		}
	}
	if !op.Done || op.Error != nil {
		t.Fatalf("operation never finished on the system clock: %+v", op)
	}
	ops, err := ts.Projects.Locations.Operations.List(parent).Do()
	if err != nil || len(ops.Operations) != 1 || ops.Operations[0].Name != op.Name || !ops.Operations[0].Done {
		t.Errorf("operations.list = %+v, %v", ops, err)
	}
	_, err = ts.Projects.Locations.Operations.Get(parent + "/operations/operation-1-deadbeef").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "was not found"})
}

// manyLabels is n labels k0..k(n-1).
func manyLabels(n int) map[string]string {
	out := make(map[string]string, n)
	for i := range n {
		out[fmt.Sprintf("k%d", i)] = "v"
	}
	return out
}

// TestTPULabelsInternational: Google Cloud labels allow international
// characters and 64 labels; the node keeps them as sent.
func TestTPULabelsInternational(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	labels := manyLabels(63)
	labels["équipe"] = "données"
	if _, err := e.tpu.Projects.Locations.Nodes.Create(zoneParent("us-central1-b"), &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e", Labels: labels}).NodeId("intl").Do(); err != nil {
		t.Fatalf("64 labels with international characters refused: %v", err)
	}
	n, err := e.tpu.Projects.Locations.Nodes.Get(zoneParent("us-central1-b") + "/nodes/intl").Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Labels) != 64 || n.Labels["équipe"] != "données" {
		t.Errorf("labels = %d, équipe = %q; want 64 and données", len(n.Labels), n.Labels["équipe"])
	}
}

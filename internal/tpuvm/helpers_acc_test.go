// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// smallType is a small single-host TPU offered in the target's default zone:
// v5e in the emulator's us-central1-a, v6e in the sandbox default us-east5-b.
func smallType(tg *acctest.Target) (acceleratorType, runtime string, chips int64) {
	if tg.Emulator != nil {
		return "v5litepod-4", "v2-alpha-tpuv5-lite", 4
	}
	return "v6e-1", "v2-alpha-tpuv6e", 1
}

// checkGone asserts that no node named name is left.
func checkGone(tg *acctest.Target, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		nodes, err := nodesNamed(tg, name)
		if err != nil {
			return err
		}
		if len(nodes) > 0 {
			return fmt.Errorf("TPU VM %s is left behind: %s (state %s)", name, nodes[0].Name, nodes[0].State)
		}
		return nil
	}
}

// expectNodes is a state check on the target itself: exactly the given
// node ids exist under name.
type expectNodes struct {
	tg   *acctest.Target
	name string
	ids  []string
}

func (e expectNodes) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	nodes, err := nodesNamed(e.tg, e.name)
	if err != nil {
		resp.Error = err
		return
	}
	var got []string
	for _, n := range nodes {
		got = append(got, n.Name)
	}
	resp.Error = sameIDs("TPU VMs named "+e.name, got, e.ids)
}

// patchOutOfBand adds a label and a metadata key the way gcloud would.
func patchOutOfBand(t *testing.T, tg *acctest.Target, id string) {
	t.Helper()
	ctx := t.Context()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	n, err := svc.Projects.Locations.Nodes.Get(id).Context(ctx).Do()
	if err != nil {
		t.Fatal(err)
	}
	n.Labels["owner"] = "someone-else"
	n.Metadata["ssh-keys"] = "user:ssh-ed25519 AAAA"
	op, err := svc.Projects.Locations.Nodes.Patch(id, &tpu.Node{Labels: n.Labels, Metadata: n.Metadata}).
		UpdateMask("labels,metadata").Context(ctx).Do()
	if err != nil {
		t.Fatal(err)
	}
	// The emulator applies the patch when its operation ends: wait for
	// that, however long it takes, rather than for a fixed time.
	if err := tg.WaitTPU(ctx, op); err != nil {
		t.Fatalf("out-of-band patch failed: %v", err)
	}
}

func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// expectNodesNow checks that the VMs named name are exactly ids.
func expectNodesNow(tg *acctest.Target, name string, ids ...string) error {
	var resp statecheck.CheckStateResponse
	expectNodes{tg: tg, name: name, ids: ids}.CheckState(context.Background(), statecheck.CheckStateRequest{}, &resp)
	return resp.Error
}

// queuedConfig is a v5e VM in the emulator's default zone with capacity.
func queuedConfig(tg *acctest.Target, name, capacity, extra string) string {
	return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  capacity {
%[2]s
  }
%[3]s
}
`, name, capacity, extra))
}

// checkQueuedGone asserts that neither a node nor a queued resource named
// name is left.
func checkQueuedGone(tg *acctest.Target, name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if err := checkGone(tg, name)(s); err != nil {
			return err
		}
		states, err := queuedStates(tg, name)
		if err != nil {
			return err
		}
		if len(states) > 0 {
			return fmt.Errorf("queued resource %s is left behind (state %s)", name, states[0])
		}
		return nil
	}
}

// expectQueued is a state check on the emulator: exactly the given queued
// resources named name exist, in the given states.
type expectQueued struct {
	tg     *acctest.Target
	name   string
	states []string
}

func (e expectQueued) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	got, err := queuedStates(e.tg, e.name)
	if err != nil {
		resp.Error = err
		return
	}
	if strings.Join(got, ",") != strings.Join(e.states, ",") {
		resp.Error = fmt.Errorf("queued resources named %s: states %v, want %v", e.name, got, e.states)
	}
}

// everyAttribute sets every attribute a configuration can set on
// accel_tpu_vm, nested ones included, to a valid value on the emulator.
// TestAccTPUVM_unknownAtPlan fails for an attribute missing here.
func everyAttribute(tg *acctest.Target, name string) map[string]any {
	return map[string]any{
		"name":              name,
		"project":           tg.Project,
		"zones":             []any{tg.Zone},
		"accelerator_type":  "v5litepod-4",
		"api":               "cloud_tpu",
		"runtime_version":   "tpu-vm-tf-2.18.0-pjrt",
		"framework":         "tensorflow",
		"framework_version": "2.18.0",
		"description":       "unknown at plan",
		"labels":            map[string]any{"team": "research"},
		"metadata":          map[string]any{"startup-script": "echo hi"},
		"tags":              []any{"tpu"},
		"cidr_block":        "10.0.0.8/29",
		"network_config": map[string]any{
			"network":             "default",
			"subnetwork":          "default",
			"enable_external_ips": true,
			"can_ip_forward":      false,
		},
		"service_account": map[string]any{
			"email":  "runner@" + tg.Project + ".iam.gserviceaccount.com",
			"scopes": []any{"https://www.googleapis.com/auth/cloud-platform"},
		},
		"scheduling_config": map[string]any{"preemptible": false, "reserved": false, "spot": false},
		"slice_count":       1,
		// capacity.reservation belongs to another mode: see reservedAttribute.
		"capacity":                 map[string]any{"mode": "flex-start", "max_wait": "1h0m0s", "max_run_duration": "2h0m0s"},
		"shielded_instance_config": map[string]any{"enable_secure_boot": true},
		"data_disks": []any{map[string]any{
			"source_disk": "projects/" + tg.Project + "/zones/" + tg.Zone + "/disks/data",
			"mode":        "READ_ONLY",
		}},
		"validation": "strict",
		"timeouts":   map[string]any{"create": "30m", "update": "20m", "delete": "20m"},
		// network_configs conflicts with network_config: see withNetworkConfigs.
		"boot_disk":           map[string]any{"kms_key_name": bootKey(tg, "boot")},
		"deletion_protection": false, // true would refuse the test's destroy
	}
}

// networkConfigsAttribute is the block everyAttribute leaves out, as it
// conflicts with network_config: withNetworkConfigs sets it instead.
const networkConfigsAttribute = "network_configs"

// withNetworkConfigs switches body from network_config to network_configs.
func withNetworkConfigs(body map[string]any) map[string]any {
	delete(body, "network_config")
	body["network_configs"] = []any{map[string]any{
		"network":             "default",
		"subnetwork":          "default",
		"enable_external_ips": true,
		"can_ip_forward":      false,
	}}
	return body
}

// bootKey is a Cloud KMS key named name in the region of the target's zone.
func bootKey(tg *acctest.Target, name string) string {
	return gcp.CryptoKeyName(tg.Project, catalog.RegionOf(tg.Zone), "tpu", name)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

const testKey = "projects/k/locations/us-central1/keyRings/r/cryptoKeys/boot"

func bootDisk(key types.String) types.Object {
	return types.ObjectValueMust(schemaTypes().bootDisk.AttrTypes, map[string]attr.Value{"kms_key_name": key})
}

// existing is a non-null raw value: a plan modifier's resource is neither
// created nor destroyed.
var existing = tftypes.NewValue(tftypes.String, "exists")

func TestBootDiskPlanModifier(t *testing.T) {
	t.Parallel()
	null := types.ObjectNull(schemaTypes().bootDisk.AttrTypes)
	cases := map[string]struct {
		state, plan types.Object
		replace     bool
	}{
		"unchanged":                  {bootDisk(types.StringValue(testKey)), bootDisk(types.StringValue(testKey)), false},
		"a version of the same key":  {bootDisk(types.StringValue(testKey)), bootDisk(types.StringValue(testKey + "/cryptoKeyVersions/2")), false},
		"another key":                {bootDisk(types.StringValue(testKey)), bootDisk(types.StringValue(testKey + "2")), true},
		"key added":                  {null, bootDisk(types.StringValue(testKey)), true},
		"block removed":              {bootDisk(types.StringValue(testKey)), null, true},
		"empty block removed":        {bootDisk(types.StringNull()), null, false},
		"empty block added":          {null, bootDisk(types.StringNull()), false},
		"unknown key":                {bootDisk(types.StringValue(testKey)), bootDisk(types.StringUnknown()), true},
		"unknown block":              {null, types.ObjectUnknown(schemaTypes().bootDisk.AttrTypes), true},
		"key removed from the block": {bootDisk(types.StringValue(testKey)), bootDisk(types.StringNull()), true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := planmodifier.ObjectRequest{
				State: tfsdk.State{Raw: existing}, Plan: tfsdk.Plan{Raw: existing},
				StateValue: tc.state, PlanValue: tc.plan, ConfigValue: tc.plan,
			}
			var resp planmodifier.ObjectResponse
			bootDiskPlanModifier{}.PlanModifyObject(context.Background(), req, &resp)
			if resp.RequiresReplace != tc.replace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.replace)
			}
		})
	}
}

func TestFlattenBootDisk(t *testing.T) {
	t.Parallel()
	withKey := func(k string) *tpu.Node {
		return &tpu.Node{BootDiskConfig: &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: k}}}
	}
	null := types.ObjectNull(schemaTypes().bootDisk.AttrTypes)
	cases := map[string]struct {
		node  *tpu.Node
		prior types.Object
		want  types.Object
	}{
		"the version of the prior key keeps its spelling": {withKey(testKey + "/cryptoKeyVersions/1"), bootDisk(types.StringValue(testKey)), bootDisk(types.StringValue(testKey))},
		"import reads the key of the version":             {withKey(testKey + "/cryptoKeyVersions/1"), null, bootDisk(types.StringValue(testKey))},
		"another key is drift":                            {withKey(testKey + "2/cryptoKeyVersions/1"), bootDisk(types.StringValue(testKey)), bootDisk(types.StringValue(testKey + "2"))},
		"no key and no block":                             {&tpu.Node{}, null, null},
		"no key in a block":                               {&tpu.Node{}, bootDisk(types.StringNull()), bootDisk(types.StringNull())},
		"key gone is drift":                               {&tpu.Node{}, bootDisk(types.StringValue(testKey)), bootDisk(types.StringNull())},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			if got := flattenBootDisk(tc.node, tc.prior, &diags); !got.Equal(tc.want) || diags.HasError() {
				t.Errorf("flattenBootDisk = %s (%v), want %s", got, diags, tc.want)
			}
		})
	}
}

func iface(network, subnetwork types.String, external, forward bool) attr.Value {
	return types.ObjectValueMust(schemaTypes().networkConfig.AttrTypes, map[string]attr.Value{
		"network": network, "subnetwork": subnetwork,
		"enable_external_ips": types.BoolValue(external), "can_ip_forward": types.BoolValue(forward),
	})
}

func ifaces(vals ...attr.Value) types.List {
	return types.ListValueMust(schemaTypes().networkConfig, vals)
}

func TestNetworkConfigsPlanModifier(t *testing.T) {
	t.Parallel()
	null, str := types.StringNull(), types.StringValue
	selfLink := str("projects/p/global/networks/b")
	cases := map[string]struct {
		state, plan types.List
		replace     bool
	}{
		"unchanged":                       {ifaces(iface(null, null, true, false)), ifaces(iface(null, null, true, false)), false},
		"a self link of the same network": {ifaces(iface(selfLink, null, false, false)), ifaces(iface(str("b"), null, false, false)), false},
		"omitted is the default":          {ifaces(iface(str("projects/p/global/networks/default"), null, false, false)), ifaces(iface(null, null, false, false)), false},
		"another network":                 {ifaces(iface(selfLink, null, false, false)), ifaces(iface(str("c"), null, false, false)), true},
		"another flag":                    {ifaces(iface(null, null, false, false)), ifaces(iface(null, null, false, true)), true},
		"one more interface":              {ifaces(iface(null, null, false, false)), ifaces(iface(null, null, false, false), iface(selfLink, null, false, false)), true},
		"from network_config":             {ifaces(), ifaces(iface(null, null, false, false)), true},
		"unknown":                         {ifaces(iface(null, null, false, false)), types.ListUnknown(schemaTypes().networkConfig), true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := planmodifier.ListRequest{
				State: tfsdk.State{Raw: existing}, Plan: tfsdk.Plan{Raw: existing},
				StateValue: tc.state, PlanValue: tc.plan, ConfigValue: tc.plan,
			}
			var resp planmodifier.ListResponse
			networkConfigsPlanModifier{}.PlanModifyList(context.Background(), req, &resp)
			if resp.RequiresReplace != tc.replace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.replace)
			}
		})
	}
}

// TestFlattenInterfaces: network_configs is read back from the node's
// networkConfigs, keeping prior's spellings and omissions; an import takes
// it when the node has networkConfigs, with the default network omitted;
// network_config is then absent.
func TestFlattenInterfaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	node := apiNode()
	node.NetworkConfig = nil
	node.NetworkConfigs = []*tpu.NetworkConfig{
		{Network: "projects/p/global/networks/default", Subnetwork: "projects/p/regions/us-central1/subnetworks/default", EnableExternalIps: true},
		{Network: "projects/p/global/networks/b", Subnetwork: "projects/p/regions/us-central1/subnetworks/b", CanIpForward: true},
	}
	str := types.StringValue
	prior := nullModel()
	prior.NetworkConfigs = ifaces(iface(types.StringNull(), types.StringNull(), true, false), iface(str("b"), str("b"), false, true))
	m, diags := flattenNode(ctx, catalog.Default(), node, prior, false)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if !m.NetworkConfigs.Equal(prior.NetworkConfigs) || !m.NetworkConfig.IsNull() {
		t.Errorf("refresh: network_configs %s, network_config %s; want the prior spelling and no network_config", m.NetworkConfigs, m.NetworkConfig)
	}
	if got := m.EffectiveNetwork.Attributes()["enable_external_ips"]; !got.Equal(types.BoolValue(true)) {
		t.Errorf("effective_network_config.enable_external_ips = %s, want the first interface's true", got)
	}
	m, diags = flattenNode(ctx, catalog.Default(), node, nullModel(), true)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := ifaces(iface(types.StringNull(), types.StringNull(), true, false),
		iface(str("projects/p/global/networks/b"), str("projects/p/regions/us-central1/subnetworks/b"), false, true))
	if !m.NetworkConfigs.Equal(want) || !m.NetworkConfig.IsNull() || !m.DeletionProtection.Equal(types.BoolValue(false)) {
		t.Errorf("import: network_configs %s, network_config %s, deletion_protection %s", m.NetworkConfigs, m.NetworkConfig, m.DeletionProtection)
	}
	// A node of one networkConfig imports as network_config.
	node.NetworkConfigs, node.NetworkConfig = nil, &tpu.NetworkConfig{Network: "projects/p/global/networks/b", EnableExternalIps: true}
	m, _ = flattenNode(ctx, catalog.Default(), node, nullModel(), true)
	if len(m.NetworkConfigs.Elements()) != 0 || m.NetworkConfig.IsNull() {
		t.Errorf("import of one interface: network_configs %s, network_config %s", m.NetworkConfigs, m.NetworkConfig)
	}
}

// TestDeleteRefusedWhenProtected: Delete of a state with
// deletion_protection set deletes nothing and does not even reach the API.
func TestDeleteRefusedWhenProtected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := testResource("p", "us-central1-a")
	r.newAPI = func(context.Context) (nodeAPI, error) {
		t.Error("Delete of a protected VM reached the API")
		return &fakeAPI{}, nil
	}
	state := nullModel()
	state.ID = types.StringValue("projects/p/locations/us-central1-a/nodes/vm")
	state.DeletionProtection = types.BoolValue(true)
	st := tfsdk.State{Schema: testSchema(t)}
	if d := st.Set(ctx, &state); d.HasError() {
		t.Fatal(d)
	}
	resp := resource.DeleteResponse{State: st}
	r.Delete(ctx, resource.DeleteRequest{State: st}, &resp)
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary() != "Deletion Protection Is On" {
		t.Fatalf("diagnostics = %v, want the refusal", resp.Diagnostics)
	}
	if wp, ok := resp.Diagnostics[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("deletion_protection")) {
		t.Errorf("refusal not on deletion_protection: %v", resp.Diagnostics[0])
	}
}

func TestStateOnlyUpdate(t *testing.T) {
	t.Parallel()
	state := nullModel()
	state.DeletionProtection = types.BoolValue(true)
	plan := state
	plan.DeletionProtection = types.BoolValue(false)
	if !stateOnlyUpdate(plan, state) {
		t.Error("a change of deletion_protection alone is not state-only")
	}
	plan.Description = types.StringValue("new")
	if stateOnlyUpdate(plan, state) {
		t.Error("a change of description with it is state-only")
	}
	if stateOnlyUpdate(state, state) {
		t.Error("no change is an update")
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

func mapValue(m map[string]string) types.Map { return tfmodel.StringMapOrEmpty(m) }

func mapOf(t *testing.T, m types.Map) map[string]string {
	t.Helper()
	if m.IsNull() {
		return nil
	}
	var out map[string]string
	if diags := m.ElementsAs(context.Background(), &out, false); diags.HasError() {
		t.Fatal(diags)
	}
	return out
}

// priorModel is a plan as Create sees it: computed values unknown.
func priorModel() vmModel {
	return vmModel{
		Zones:            zonesValue("us-central1-a", "us-central1-b"),
		Framework:        types.StringValue("jax"),
		Description:      types.StringNull(),
		Labels:           mapValue(map[string]string{"team": "ml"}),
		TerraformLabels:  mapValue(map[string]string{"team": "ml"}),
		Metadata:         mapValue(map[string]string{"startup-script": "echo hi"}),
		Tags:             types.ListNull(types.StringType),
		DataDisks:        types.ListNull(schemaTypes().dataDisk),
		NetworkConfig:    types.ObjectValueMust(schemaTypes().networkConfig.AttrTypes, map[string]attr.Value{"network": types.StringValue("default"), "subnetwork": types.StringUnknown(), "enable_external_ips": types.BoolValue(true), "can_ip_forward": types.BoolValue(false)}),
		ServiceAccount:   types.ObjectValueMust(schemaTypes().serviceAccount.AttrTypes, map[string]attr.Value{"email": types.StringUnknown(), "scopes": types.SetUnknown(types.StringType)}),
		SchedulingConfig: types.ObjectNull(schemaTypes().schedulingConfig.AttrTypes),
		Capacity:         types.ObjectNull(schemaTypes().capacity.AttrTypes),
		EffectiveLabels:  types.MapUnknown(types.StringType),
	}
}

func apiNode() *tpu.Node {
	return &tpu.Node{
		Name:            "projects/p/locations/us-central1-b/nodes/vm",
		AcceleratorType: "v5litepod-16",
		RuntimeVersion:  "v2-alpha-tpuv5-lite",
		State:           "READY",
		Health:          "HEALTHY",
		CreateTime:      "2026-01-02T03:04:05Z",
		CidrBlock:       "10.0.0.8/29",
		Labels:          map[string]string{"team": "ml", ownerLabelKey: testOwner, "added-by": "someone"},
		Metadata:        map[string]string{"startup-script": "echo hi", "ssh-keys": "user:key"},
		NetworkConfig: &tpu.NetworkConfig{
			Network:           "projects/p/global/networks/default",
			Subnetwork:        "projects/p/regions/us-central1/subnetworks/default",
			EnableExternalIps: true,
		},
		ServiceAccount: &tpu.ServiceAccount{Email: "sa@p.iam.gserviceaccount.com", Scope: []string{"https://www.googleapis.com/auth/cloud-platform", pubSubScope}},
		DataDisks:      []*tpu.AttachedDisk{{SourceDisk: "projects/p/zones/us-central1-b/disks/d"}},
		NetworkEndpoints: []*tpu.NetworkEndpoint{
			{IpAddress: "10.0.0.2", Port: 8470, AccessConfig: &tpu.AccessConfig{ExternalIp: "34.1.2.3"}},
			{IpAddress: "10.0.0.3", Port: 8470},
		},
	}
}

// elemAttr returns attribute name of element i of a list of objects.
func elemAttr(t *testing.T, l types.List, i int, name string) attr.Value {
	t.Helper()
	if i >= len(l.Elements()) {
		t.Fatalf("list has %d elements, want at least %d", len(l.Elements()), i+1)
	}
	o, ok := l.Elements()[i].(types.Object)
	if !ok {
		t.Fatalf("element %d is a %T, not an object", i, l.Elements()[i])
	}
	return o.Attributes()[name]
}

func TestFlattenNode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, diags := flattenNode(ctx, catalog.Default(), apiNode(), priorModel(), false)
	if diags.HasError() {
		t.Fatal(diags)
	}
	checks := map[string]struct{ got, want any }{
		"id":                        {m.ID.ValueString(), "projects/p/locations/us-central1-b/nodes/vm"},
		"project":                   {m.Project.ValueString(), "p"},
		"zone":                      {m.Zone.ValueString(), "us-central1-b"},
		"name":                      {m.Name.ValueString(), "vm"},
		"zones kept":                {m.Zones.Equal(zonesValue("us-central1-a", "us-central1-b")), true},
		"framework kept":            {m.Framework.ValueString(), "jax"},
		"description null":          {m.Description.IsNull(), true},
		"labels managed":            {mapOf(t, m.Labels), map[string]string{"team": "ml"}},
		"effective labels":          {mapOf(t, m.EffectiveLabels), map[string]string{"team": "ml", ownerLabelKey: testOwner, "added-by": "someone"}},
		"metadata managed":          {mapOf(t, m.Metadata), map[string]string{"startup-script": "echo hi"}},
		"tags null":                 {m.Tags.IsNull(), true},
		"network spelling":          {m.NetworkConfig.Attributes()["network"], types.StringValue("default")},
		"subnetwork":                {m.NetworkConfig.Attributes()["subnetwork"], types.StringValue("projects/p/regions/us-central1/subnetworks/default")},
		"pubsub dropped":            {m.ServiceAccount.Attributes()["scopes"], types.SetValueMust(types.StringType, []attr.Value{types.StringValue("https://www.googleapis.com/auth/cloud-platform")})},
		"disk mode":                 {elemAttr(t, m.DataDisks, 0, "mode"), types.StringValue("READ_WRITE")},
		"endpoints":                 {len(m.NetworkEndpoints.Elements()), 2},
		"no external ip":            {elemAttr(t, m.NetworkEndpoints, 1, "external_ip").IsNull(), true},
		"generation":                {m.Generation.ValueString(), "v5e"},
		"chips":                     {m.Chips.ValueInt64(), int64(16)},
		"hosts":                     {m.Hosts.ValueInt64(), int64(4)},
		"absent block stays absent": {m.SchedulingConfig.IsNull(), true},
		"effective network":         {m.EffectiveNetwork.Attributes()["network"], types.StringValue("projects/p/global/networks/default")},
		"effective scopes as the API reports them": {m.EffectiveSA.Attributes()["scopes"], types.SetValueMust(types.StringType, []attr.Value{
			types.StringValue("https://www.googleapis.com/auth/cloud-platform"), types.StringValue(pubSubScope)})},
		"state": {m.State.ValueString(), "READY"},
	}
	for name, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestFlattenNodeImport(t *testing.T) {
	t.Parallel()
	prior := vmModel{Labels: types.MapNull(types.StringType), Metadata: types.MapNull(types.StringType)}
	m, diags := flattenNode(context.Background(), catalog.Default(), apiNode(), prior, true)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff(map[string]string{"team": "ml", "added-by": "someone"}, mapOf(t, m.Labels)); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"startup-script": "echo hi", "ssh-keys": "user:key"}, mapOf(t, m.Metadata)); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	if !m.Zones.Equal(zonesValue("us-central1-b")) {
		t.Errorf("zones = %s, want [us-central1-b]", m.Zones)
	}
	if got := m.NetworkConfig.Attributes()["network"]; !got.Equal(types.StringValue("projects/p/global/networks/default")) {
		t.Errorf("network = %s, want the API's self link", got)
	}
	if got := m.ServiceAccount.Attributes()["email"]; !got.Equal(types.StringValue("sa@p.iam.gserviceaccount.com")) {
		t.Errorf("service account = %s, want the API's", got)
	}
	if !m.SchedulingConfig.IsNull() || !m.ShieldedInstanceConfig.IsNull() {
		t.Errorf("scheduling_config = %s, shielded_instance_config = %s; want absent for the defaults", m.SchedulingConfig, m.ShieldedInstanceConfig)
	}
	if !m.Framework.IsNull() || !m.FrameworkVersion.IsNull() {
		t.Errorf("framework = %s, %s; want null for a runtime of several frameworks", m.Framework, m.FrameworkVersion)
	}
}

// TestFlattenNodeImportDefaults: a VM created with the API's defaults
// imports with no nested block (what a configuration without them means)
// and the framework its TensorFlow runtime implies, so that the
// configuration Terraform generates plans no change.
func TestFlattenNodeImportDefaults(t *testing.T) {
	t.Parallel()
	n := apiNode()
	n.RuntimeVersion = "tpu-vm-tf-2.18.0-pjrt"
	n.NetworkConfig.EnableExternalIps = false
	n.ServiceAccount = &tpu.ServiceAccount{Email: "123-compute@developer.gserviceaccount.com", Scope: []string{cloudPlatformScope}}
	n.DataDisks = nil
	n.SchedulingConfig = &tpu.SchedulingConfig{Spot: true}
	prior := vmModel{Labels: types.MapNull(types.StringType), Metadata: types.MapNull(types.StringType)}
	m, diags := flattenNode(context.Background(), catalog.Default(), n, prior, true)
	if diags.HasError() {
		t.Fatal(diags)
	}
	checks := map[string]struct{ got, want any }{
		"network_config absent":           {m.NetworkConfig.IsNull(), true},
		"service_account absent":          {m.ServiceAccount.IsNull(), true},
		"shielded_instance_config absent": {m.ShieldedInstanceConfig.IsNull(), true},
		"spot kept":                       {m.SchedulingConfig.Attributes()["spot"], types.BoolValue(true)},
		"no data disks: an empty list":    {m.DataDisks.Equal(types.ListValueMust(schemaTypes().dataDisk, nil)), true},
		"framework":                       {m.Framework, types.StringValue("tensorflow")},
		"framework_version":               {m.FrameworkVersion, types.StringValue("2.18.0")},
		"effective email":                 {m.EffectiveSA.Attributes()["email"], types.StringValue("123-compute@developer.gserviceaccount.com")},
	}
	for name, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestExpandNode(t *testing.T) {
	t.Parallel()
	m := priorModel()
	m.AcceleratorType = types.StringValue("v6e-8")
	m.RuntimeVersion = types.StringValue("v2-alpha-tpuv6e")
	m.CIDRBlock = types.StringUnknown()
	m.SchedulingConfig = types.ObjectValueMust(schemaTypes().schedulingConfig.AttrTypes, map[string]attr.Value{
		"spot": types.BoolValue(true), "preemptible": types.BoolValue(false), "reserved": types.BoolValue(false),
	})
	m.ShieldedInstanceConfig = types.ObjectUnknown(schemaTypes().shieldedInstanceConfig.AttrTypes)
	n, diags := expandNode(context.Background(), m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := &tpu.Node{
		AcceleratorType:  "v6e-8",
		RuntimeVersion:   "v2-alpha-tpuv6e",
		Labels:           map[string]string{"team": "ml"}, // Create adds the ownership label,
		Metadata:         map[string]string{"startup-script": "echo hi"},
		NetworkConfig:    &tpu.NetworkConfig{Network: "default", EnableExternalIps: true},
		SchedulingConfig: &tpu.SchedulingConfig{Spot: true},
	}
	if diff := cmp.Diff(want, n); diff != "" {
		t.Errorf("node (-want +got):\n%s", diff)
	}
}

func TestPatchFor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	current := &tpu.Node{
		Labels:        map[string]string{"team": "ml", "old": "x", ownerLabelKey: testOwner, "added-by": "someone"},
		Metadata:      map[string]string{"startup-script": "echo hi", "ssh-keys": "user:key"},
		NetworkConfig: &tpu.NetworkConfig{},
	}
	nc := func(external bool) types.Object {
		return types.ObjectValueMust(schemaTypes().networkConfig.AttrTypes, map[string]attr.Value{"network": types.StringValue("default"),
			"subnetwork": types.StringValue("default"), "enable_external_ips": types.BoolValue(external), "can_ip_forward": types.BoolValue(false)})
	}
	state := vmModel{
		Description: types.StringValue("a"), Tags: types.ListNull(types.StringType),
		Labels:   mapValue(map[string]string{"team": "ml", "old": "x"}),
		Metadata: mapValue(map[string]string{"startup-script": "echo hi"}), NetworkConfig: nc(false),
	}
	state.TerraformLabels = state.Labels
	t.Run("no change", func(t *testing.T) {
		t.Parallel()
		_, mask, diags := patchFor(ctx, current, state, state)
		if diags.HasError() || len(mask) != 0 {
			t.Errorf("mask = %v, diags = %v; want no update", mask, diags)
		}
	})
	t.Run("every updatable field", func(t *testing.T) {
		t.Parallel()
		plan := state
		plan.Description = types.StringNull()
		plan.Tags = zonesValue("tpu")
		plan.Labels = mapValue(map[string]string{"team": "serving"})
		plan.TerraformLabels = plan.Labels
		plan.Metadata = mapValue(map[string]string{"startup-script": "echo bye"})
		plan.NetworkConfig = nc(true)
		patch, mask, diags := patchFor(ctx, current, state, plan)
		if diags.HasError() {
			t.Fatal(diags)
		}
		if diff := cmp.Diff([]string{"description", "tags", "labels", "metadata", "networkConfig.enableExternalIps"}, mask); diff != "" {
			t.Errorf("mask (-want +got):\n%s", diff)
		}
		wantLabels := map[string]string{"team": "serving", ownerLabelKey: testOwner, "added-by": "someone"}
		if diff := cmp.Diff(wantLabels, patch.Labels); diff != "" {
			t.Errorf("labels keep the ownership label and foreign keys, drop removed ones (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]string{"startup-script": "echo bye", "ssh-keys": "user:key"}, patch.Metadata); diff != "" {
			t.Errorf("metadata (-want +got):\n%s", diff)
		}
		if patch.Description != "" || !slices.Contains(patch.ForceSendFields, "Description") {
			t.Errorf("description is not cleared: %q, force %v", patch.Description, patch.ForceSendFields)
		}
		if patch.NetworkConfig == nil || !patch.NetworkConfig.EnableExternalIps {
			t.Errorf("network config = %+v, want external IPs on", patch.NetworkConfig)
		}
	})
}

func TestDiskZoneFindings(t *testing.T) {
	t.Parallel()
	disks := func(paths ...string) types.List {
		var vals []attr.Value
		for _, p := range paths {
			vals = append(vals, types.ObjectValueMust(schemaTypes().dataDisk.AttrTypes, map[string]attr.Value{
				"source_disk": types.StringValue(p), "mode": types.StringValue("READ_ONLY"),
			}))
		}
		return types.ListValueMust(schemaTypes().dataDisk, vals)
	}
	tests := map[string]struct {
		zones     types.List
		disks     types.List
		wantIndex []int
	}{
		"same zone":             {zones: zonesValue("a-1"), disks: disks("projects/p/zones/a-1/disks/d")},
		"regional disk":         {zones: zonesValue("a-1", "b-1"), disks: disks("projects/p/regions/r/disks/d")},
		"second zone elsewhere": {zones: zonesValue("a-1", "b-1"), disks: disks("projects/p/regions/r/disks/d", "projects/p/zones/a-1/disks/d"), wantIndex: []int{1}},
		"unknown zones":         {zones: types.ListUnknown(types.StringType), disks: disks("projects/p/zones/a-1/disks/d")},
		"no disks":              {zones: zonesValue("a-1", "b-1"), disks: types.ListNull(schemaTypes().dataDisk)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fs := diskZoneFindings(context.Background(), catalog.Default(), vmModel{Zones: tc.zones, DataDisks: tc.disks})
			var got []int
			for _, f := range fs {
				if f.Attribute != "data_disks" || f.Severity != catalog.SeverityError {
					t.Errorf("finding %v: want an error on data_disks", f)
				}
				got = append(got, f.Index)
			}
			if diff := cmp.Diff(tc.wantIndex, got); diff != "" {
				t.Errorf("indexes (-want +got):\n%s", diff)
			}
		})
	}
}

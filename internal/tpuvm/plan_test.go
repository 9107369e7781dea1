// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// nullModel returns a model with every attribute null.
func nullModel() vmModel {
	obj := func(t map[string]attr.Type) types.Object { return types.ObjectNull(t) }
	return vmModel{
		ID: types.StringNull(), Name: types.StringNull(), Project: types.StringNull(),
		Zones: types.ListNull(types.StringType), Zone: types.StringNull(),
		AcceleratorType: types.StringNull(), RuntimeVersion: types.StringNull(),
		Framework: types.StringNull(), FrameworkVersion: types.StringNull(), Description: types.StringNull(),
		Labels: types.MapNull(types.StringType), EffectiveLabels: types.MapNull(types.StringType), TerraformLabels: types.MapNull(types.StringType),
		Metadata: types.MapNull(types.StringType), Tags: types.ListNull(types.StringType), CIDRBlock: types.StringNull(),
		NetworkConfig: obj(schemaTypes().networkConfig.AttrTypes), NetworkConfigs: types.ListNull(schemaTypes().networkConfig),
		BootDisk: obj(schemaTypes().bootDisk.AttrTypes), DeletionProtection: types.BoolNull(), ServiceAccount: obj(schemaTypes().serviceAccount.AttrTypes),
		SchedulingConfig: obj(schemaTypes().schedulingConfig.AttrTypes), ShieldedInstanceConfig: obj(schemaTypes().shieldedInstanceConfig.AttrTypes),
		DataDisks: types.ListNull(schemaTypes().dataDisk),
		Capacity:  obj(schemaTypes().capacity.AttrTypes), QueuedResource: types.StringNull(), QueuedResourceState: types.StringNull(),
		SliceCount: types.Int64Null(), SliceNodes: types.ListNull(types.StringType),
		Validation: types.StringNull(),
		Timeouts:   timeouts.Value{Object: types.ObjectNull(schemaTypes().timeouts.AttrTypes)},
		State:      types.StringNull(), Health: types.StringNull(), HealthDescription: types.StringNull(),
		NetworkEndpoints: types.ListNull(schemaTypes().networkEndpoint),
		EffectiveNetwork: obj(schemaTypes().networkConfig.AttrTypes), EffectiveSA: obj(schemaTypes().serviceAccount.AttrTypes),
		Generation: types.StringNull(), Chips: types.Int64Null(), Hosts: types.Int64Null(), CreateTime: types.StringNull(),
	}
}

func testResource(project, zone string) *vmResource {
	r, _ := NewResource(catalog.Default(), &validation.Modes{}).(*vmResource)
	r.data = &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: project, Zone: zone})}
	return r
}

// runModifyPlan runs ModifyPlan on config, plan and state (nil: create).
func runModifyPlan(t *testing.T, r *vmResource, config, plan vmModel, state *vmModel) (vmModel, resource.ModifyPlanResponse) {
	t.Helper()
	ctx := context.Background()
	s := testSchema(t)
	raw := func(m *vmModel) tftypes.Value {
		if m == nil {
			return tftypes.NewValue(s.Type().TerraformType(ctx), nil)
		}
		st := tfsdk.State{Schema: s}
		if d := st.Set(ctx, m); d.HasError() {
			t.Fatal(d)
		}
		return st.Raw
	}
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Schema: s, Raw: raw(&config)},
		Plan:   tfsdk.Plan{Schema: s, Raw: raw(&plan)},
		State:  tfsdk.State{Schema: s, Raw: raw(state)},
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(ctx, req, &resp)
	var got vmModel
	if d := resp.Plan.Get(ctx, &got); d.HasError() {
		t.Fatal(d)
	}
	return got, resp
}

func TestModifyPlanCreate(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.Name = types.StringValue("vm")
	cfg.AcceleratorType = types.StringValue("v6e-8")
	cfg.Framework = types.StringValue("tensorflow")
	cfg.FrameworkVersion = types.StringValue("2.18.0")
	cfg.Labels = mapValue(map[string]string{"team": "ml"})
	plan := cfg
	plan.Project, plan.Zones, plan.RuntimeVersion = types.StringUnknown(), types.ListUnknown(types.StringType), types.StringUnknown()
	got, resp := runModifyPlan(t, testResource("p", "us-east5-a"), cfg, plan, nil)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	checks := map[string]struct{ got, want attr.Value }{
		"project":         {got.Project, types.StringValue("p")},
		"zones":           {got.Zones, zonesValue("us-east5-a")},
		"zone":            {got.Zone, types.StringValue("us-east5-a")},
		"runtime_version": {got.RuntimeVersion, types.StringValue("tpu-vm-tf-2.18.0-pjrt")},
		"generation":      {got.Generation, types.StringValue("v6e")},
		"chips":           {got.Chips, types.Int64Value(8)},
		"hosts":           {got.Hosts, types.Int64Value(1)},
		// The owner id is drawn by Create: unknown in the plan.
		"effective_labels": {got.EffectiveLabels, types.MapValueMust(types.StringType, map[string]attr.Value{
			"team": types.StringValue("ml"), ownerLabelKey: types.StringUnknown(),
		})},
	}
	for name, c := range checks {
		if !c.got.Equal(c.want) {
			t.Errorf("%s = %s, want %s", name, c.got, c.want)
		}
	}
}

func TestModifyPlanMissingProviderDefaults(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.Name = types.StringValue("vm")
	cfg.AcceleratorType = types.StringValue("v6e-8")
	plan := cfg
	plan.Project, plan.Zones, plan.RuntimeVersion = types.StringUnknown(), types.ListUnknown(types.StringType), types.StringUnknown()
	_, resp := runModifyPlan(t, testResource("", ""), cfg, plan, nil)
	var got []string
	for _, d := range resp.Diagnostics.Errors() {
		got = append(got, d.Summary())
	}
	if len(got) != 2 || got[0] != "Missing Project" || got[1] != "Missing Zone" {
		t.Errorf("errors = %v, want Missing Project and Missing Zone", got)
	}
}

func TestModifyPlanFailedStateReplaces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		state       string
		wantReplace bool
	}{{"PREEMPTED", true}, {"TERMINATED", true}, {"READY", false}, {"STOPPED", false}, {"CREATING", false}} {
		t.Run(tc.state, func(t *testing.T) {
			t.Parallel()
			cfg := nullModel()
			cfg.Name = types.StringValue("vm")
			cfg.AcceleratorType = types.StringValue("v6e-8")
			cfg.Zones = zonesValue("us-east5-a")
			prior := cfg
			prior.ID = types.StringValue("projects/p/locations/us-east5-a/nodes/vm")
			prior.Project, prior.Zone = types.StringValue("p"), types.StringValue("us-east5-a")
			prior.RuntimeVersion = types.StringValue("v2-alpha-tpuv6e")
			prior.State = types.StringValue(tc.state)
			prior.EffectiveLabels = mapValue(map[string]string{ownerLabelKey: testOwner})
			got, resp := runModifyPlan(t, testResource("p", "us-east5-a"), cfg, prior, &prior)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			replaced := resp.RequiresReplace.Contains(path.Root("state"))
			if replaced != tc.wantReplace {
				t.Errorf("replace = %v, want %v", replaced, tc.wantReplace)
			}
			if tc.wantReplace && (!got.State.IsUnknown() || len(resp.Diagnostics.Warnings()) != 1) {
				t.Errorf("state = %s, warnings = %v; want unknown and one warning", got.State, resp.Diagnostics.Warnings())
			}
			if !got.Zone.Equal(types.StringValue("us-east5-a")) {
				t.Errorf("zone = %s, want the VM's zone", got.Zone)
			}
		})
	}
}

func TestModifyPlanRuntimeChoiceChangeReplaces(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.Name = types.StringValue("vm")
	cfg.AcceleratorType = types.StringValue("v6e-8")
	cfg.Zones = zonesValue("us-east5-a")
	prior := cfg
	prior.ID = types.StringValue("projects/p/locations/us-east5-a/nodes/vm")
	prior.Project, prior.Zone, prior.State = types.StringValue("p"), types.StringValue("us-east5-a"), types.StringValue("READY")
	prior.RuntimeVersion = types.StringValue("v2-alpha-tpuv6e")
	for _, tc := range []struct {
		framework   string
		wantRuntime string
		wantReplace bool
	}{{"jax", "v2-alpha-tpuv6e", false}, {"tensorflow", "tpu-vm-tf-2.18.0-pjrt", true}} {
		t.Run(tc.framework, func(t *testing.T) {
			t.Parallel()
			c := cfg
			c.Framework = types.StringValue(tc.framework)
			plan := prior
			plan.Framework = c.Framework
			plan.RuntimeVersion = types.StringUnknown() // what the runtime plan modifier leaves
			got, resp := runModifyPlan(t, testResource("p", "us-east5-a"), c, plan, &prior)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			if !got.RuntimeVersion.Equal(types.StringValue(tc.wantRuntime)) {
				t.Errorf("runtime_version = %s, want %s", got.RuntimeVersion, tc.wantRuntime)
			}
			if r := resp.RequiresReplace.Contains(path.Root("runtime_version")); r != tc.wantReplace {
				t.Errorf("replace = %v, want %v", r, tc.wantReplace)
			}
		})
	}
}

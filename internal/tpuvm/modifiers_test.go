// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"net/netip"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// miniSchema holds the attributes the plan modifiers read.
var miniSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"zone":              schema.StringAttribute{Computed: true},
	"zones":             schema.ListAttribute{ElementType: types.StringType, Optional: true, Computed: true},
	"accelerator_type":  schema.StringAttribute{Required: true},
	"api":               schema.StringAttribute{Optional: true, Computed: true},
	"framework":         schema.StringAttribute{Optional: true},
	"framework_version": schema.StringAttribute{Optional: true},
	"runtime_version":   schema.StringAttribute{Optional: true, Computed: true},
}}

// miniValue builds an object of miniSchema; absent keys are null.
func miniValue(vals map[string]tftypes.Value) tftypes.Value {
	typ, ok := miniSchema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		panic("the schema's type is not an object")
	}
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = v
		} else {
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(typ, all)
}

func tfString(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func tfList(vals ...string) tftypes.Value {
	elems := make([]tftypes.Value, len(vals))
	for i, v := range vals {
		elems[i] = tfString(v)
	}
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
}

func zonesValue(vals ...string) types.List {
	elems := make([]attr.Value, len(vals))
	for i, v := range vals {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

func TestZonesPlanModifier(t *testing.T) {
	t.Parallel()
	unknownList := types.ListUnknown(types.StringType)
	tests := map[string]struct {
		stateZone   string // "" means no state (create)
		stateZones  []string
		config      types.List
		plan        types.List
		wantPlan    types.List
		wantReplace bool
	}{
		"create": {
			config: zonesValue("a", "b"), plan: zonesValue("a", "b"), wantPlan: zonesValue("a", "b"),
		},
		"reordered, current zone still listed": {
			stateZone: "b", stateZones: []string{"a", "b"},
			config: zonesValue("b", "c"), plan: zonesValue("b", "c"), wantPlan: zonesValue("b", "c"),
		},
		"current zone removed": {
			stateZone: "b", stateZones: []string{"a", "b"},
			config: zonesValue("a", "c"), plan: zonesValue("a", "c"), wantPlan: zonesValue("a", "c"), wantReplace: true,
		},
		"omitted keeps the state": {
			stateZone: "b", stateZones: []string{"a", "b"},
			config: types.ListNull(types.StringType), plan: unknownList, wantPlan: zonesValue("a", "b"),
		},
		"unknown list plans no replacement (Update checks it once known)": {
			stateZone: "b", stateZones: []string{"b"},
			config: unknownList, plan: unknownList, wantPlan: unknownList,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			state := tfsdk.State{Schema: miniSchema, Raw: tftypes.NewValue(miniSchema.Type().TerraformType(ctx), nil)}
			stateValue := types.ListNull(types.StringType)
			if tc.stateZone != "" {
				state.Raw = miniValue(map[string]tftypes.Value{"zone": tfString(tc.stateZone), "zones": tfList(tc.stateZones...)})
				stateValue = zonesValue(tc.stateZones...)
			}
			req := planmodifier.ListRequest{
				Path:        path.Root("zones"),
				ConfigValue: tc.config,
				PlanValue:   tc.plan,
				StateValue:  stateValue,
				State:       state,
				Plan:        tfsdk.Plan{Schema: miniSchema, Raw: miniValue(nil)},
			}
			resp := planmodifier.ListResponse{PlanValue: tc.plan}
			zonesPlanModifier{}.PlanModifyList(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if !resp.PlanValue.Equal(tc.wantPlan) {
				t.Errorf("plan = %s, want %s", resp.PlanValue, tc.wantPlan)
			}
			if resp.RequiresReplace != tc.wantReplace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
			}
		})
	}
}

func TestRuntimeVersionPlanModifier(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		state       map[string]tftypes.Value // nil: create
		plan        map[string]tftypes.Value
		config      types.String
		planValue   types.String
		wantPlan    types.String
		wantReplace bool
	}{
		"create leaves the choice to ModifyPlan": {
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8")},
			config: types.StringNull(), planValue: types.StringUnknown(), wantPlan: types.StringUnknown(),
		},
		"omitted, inputs unchanged: kept": {
			state:  map[string]tftypes.Value{"accelerator_type": tfString("v6e-8"), "runtime_version": tfString("v2-alpha-tpuv6e")},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8")},
			config: types.StringNull(), planValue: types.StringUnknown(), wantPlan: types.StringValue("v2-alpha-tpuv6e"),
		},
		"omitted, framework changed: chosen again": {
			state:  map[string]tftypes.Value{"accelerator_type": tfString("v6e-8"), "runtime_version": tfString("v2-alpha-tpuv6e")},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8"), "framework": tfString("tensorflow")},
			config: types.StringNull(), planValue: types.StringUnknown(), wantPlan: types.StringUnknown(),
		},
		"omitted, api changed: chosen again": {
			state:  map[string]tftypes.Value{"accelerator_type": tfString("v6e-4"), "api": tfString("cloud_tpu"), "runtime_version": tfString("v2-alpha-tpuv6e")},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-4"), "api": tfString("compute_engine")},
			config: types.StringNull(), planValue: types.StringUnknown(), wantPlan: types.StringUnknown(),
		},
		"omitted framework kept from the state: kept": {
			state: map[string]tftypes.Value{
				"accelerator_type": tfString("v6e-8"), "runtime_version": tfString("tpu-vm-tf-2.18.0-pjrt"),
				"framework": tfString("tensorflow"), "framework_version": tfString("2.18.0"),
			},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8")},
			config: types.StringNull(), planValue: types.StringUnknown(), wantPlan: types.StringValue("tpu-vm-tf-2.18.0-pjrt"),
		},
		"configured, unchanged": {
			state:  map[string]tftypes.Value{"accelerator_type": tfString("v6e-8"), "runtime_version": tfString("v2-alpha-tpuv6e")},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8")},
			config: types.StringValue("v2-alpha-tpuv6e"), planValue: types.StringValue("v2-alpha-tpuv6e"), wantPlan: types.StringValue("v2-alpha-tpuv6e"),
		},
		"configured, changed: replaced": {
			state:  map[string]tftypes.Value{"accelerator_type": tfString("v6e-8"), "runtime_version": tfString("v2-alpha-tpuv6e")},
			plan:   map[string]tftypes.Value{"accelerator_type": tfString("v6e-8")},
			config: types.StringValue("tpu-vm-tf-2.18.0-pjrt"), planValue: types.StringValue("tpu-vm-tf-2.18.0-pjrt"),
			wantPlan: types.StringValue("tpu-vm-tf-2.18.0-pjrt"), wantReplace: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			state := tfsdk.State{Schema: miniSchema, Raw: tftypes.NewValue(miniSchema.Type().TerraformType(ctx), nil)}
			stateValue := types.StringNull()
			if tc.state != nil {
				state.Raw = miniValue(tc.state)
				if v, ok := tc.state["runtime_version"]; ok {
					var s string
					_ = v.As(&s)
					stateValue = types.StringValue(s)
				}
			}
			req := planmodifier.StringRequest{
				Path: path.Root("runtime_version"), ConfigValue: tc.config, PlanValue: tc.planValue, StateValue: stateValue,
				State: state, Plan: tfsdk.Plan{Schema: miniSchema, Raw: miniValue(tc.plan)},
				Config: tfsdk.Config{Schema: miniSchema, Raw: miniValue(tc.plan)},
			}
			resp := planmodifier.StringResponse{PlanValue: tc.planValue}
			runtimeVersionPlanModifier{}.PlanModifyString(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if !resp.PlanValue.Equal(tc.wantPlan) {
				t.Errorf("plan = %s, want %s", resp.PlanValue, tc.wantPlan)
			}
			if resp.RequiresReplace != tc.wantReplace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
			}
		})
	}
}

func TestCIDRBlockValidator(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		value   types.String
		wantErr string
	}{
		"a /29 network": {value: types.StringValue("10.0.0.8/29")},
		// What the API reports for a VM created without cidr_block.
		"the subnetwork's /20": {value: types.StringValue("10.128.0.0/20")},
		"null":                 {value: types.StringNull()},
		"unknown":              {value: types.StringUnknown()},
		"a /30":                {value: types.StringValue("10.0.0.8/30"), wantErr: "is smaller than a /29 block"},
		"host bits set":        {value: types.StringValue("10.0.0.9/29"), wantErr: "use the network address 10.0.0.8/29"},
		"not a CIDR":           {value: types.StringValue("10.0.0.8"), wantErr: "is not an IPv4 CIDR block"},
		"IPv6":                 {value: types.StringValue("fd00::/125"), wantErr: "is not an IPv4 CIDR block"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			cidrBlockValidator{}.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("cidr_block"), ConfigValue: tc.value}, &resp)
			if tc.wantErr == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), tc.wantErr) {
				t.Fatalf("diagnostics = %v, want an error containing %q", resp.Diagnostics, tc.wantErr)
			}
			if !strings.Contains(resp.Diagnostics[0].Detail(), tc.value.ValueString()) {
				t.Errorf("detail %q does not quote the value", resp.Diagnostics[0].Detail())
			}
		})
	}
}

// blockSchema holds a nested block and the effective attribute its
// modifiers read.
var blockSchema = schema.Schema{
	Attributes: map[string]schema.Attribute{
		"effective_network_config": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{
			"network":        schema.StringAttribute{Computed: true},
			"can_ip_forward": schema.BoolAttribute{Computed: true},
		}},
	},
	Blocks: map[string]schema.Block{
		"network_config": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
			"network":        schema.StringAttribute{Optional: true, Computed: true},
			"can_ip_forward": schema.BoolAttribute{Optional: true, Computed: true},
		}},
	},
}

// blockState is a state of blockSchema: block nil means the block is absent.
func blockState(block map[string]tftypes.Value, effectiveNetwork string, effectiveForward bool) tfsdk.State {
	typ, _ := blockSchema.Type().TerraformType(context.Background()).(tftypes.Object)
	blockType, _ := typ.AttributeTypes["network_config"].(tftypes.Object)
	effType, _ := typ.AttributeTypes["effective_network_config"].(tftypes.Object)
	b := tftypes.NewValue(blockType, nil)
	if block != nil {
		b = tftypes.NewValue(blockType, block)
	}
	return tfsdk.State{Schema: blockSchema, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"network_config": b,
		"effective_network_config": tftypes.NewValue(effType, map[string]tftypes.Value{
			"network": tfString(effectiveNetwork), "can_ip_forward": tftypes.NewValue(tftypes.Bool, effectiveForward),
		}),
	})}
}

func TestCurrentStringPlanModifier(t *testing.T) {
	t.Parallel()
	selfLink := "projects/p/global/networks/default"
	m := currentStringPlanModifier{effective: "effective_network_config", same: sameResource, replace: true}
	tests := map[string]struct {
		block       map[string]tftypes.Value // the block in state; nil: absent
		config      types.String
		wantPlan    types.String
		wantReplace bool
	}{
		"name for the self link in state": {
			block:  map[string]tftypes.Value{"network": tfString(selfLink), "can_ip_forward": tftypes.NewValue(tftypes.Bool, false)},
			config: types.StringValue("default"), wantPlan: types.StringValue(selfLink),
		},
		"self link for the name in state": {
			block:  map[string]tftypes.Value{"network": tfString("default"), "can_ip_forward": tftypes.NewValue(tftypes.Bool, false)},
			config: types.StringValue(selfLink), wantPlan: types.StringValue("default"),
		},
		"block absent from state, name of the effective network": {
			config: types.StringValue("default"), wantPlan: types.StringValue("default"),
		},
		"block absent from state, omitted: the effective network": {
			config: types.StringNull(), wantPlan: types.StringValue(selfLink),
		},
		"another network replaces": {
			config: types.StringValue("other"), wantPlan: types.StringValue("other"), wantReplace: true,
		},
		"unknown configuration replaces": {
			config: types.StringUnknown(), wantPlan: types.StringUnknown(), wantReplace: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			state := blockState(tc.block, selfLink, false)
			stateValue := types.StringNull()
			if tc.block != nil {
				var s string
				_ = tc.block["network"].As(&s)
				stateValue = types.StringValue(s)
			}
			planValue := tc.config
			if tc.config.IsNull() {
				planValue = types.StringUnknown()
			}
			req := planmodifier.StringRequest{
				Path: path.Root("network_config").AtName("network"), ConfigValue: tc.config, PlanValue: planValue,
				StateValue: stateValue, State: state, Plan: tfsdk.Plan{Schema: blockSchema, Raw: state.Raw},
			}
			resp := planmodifier.StringResponse{PlanValue: planValue}
			m.PlanModifyString(context.Background(), req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if !resp.PlanValue.Equal(tc.wantPlan) {
				t.Errorf("plan = %s, want %s", resp.PlanValue, tc.wantPlan)
			}
			if resp.RequiresReplace != tc.wantReplace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
			}
		})
	}
}

func TestCurrentBoolPlanModifier(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		block            map[string]tftypes.Value
		effective        string
		effectiveForward bool
		plan             types.Bool
		wantReplace      bool
	}{
		"absent block, default plan, effective false": {effective: "effective_network_config", plan: types.BoolValue(false)},
		"absent block, effective true, plan false":    {effective: "effective_network_config", effectiveForward: true, plan: types.BoolValue(false), wantReplace: true},
		"absent block, no effective attribute: false": {plan: types.BoolValue(false)},
		"absent block, no effective attribute, true":  {plan: types.BoolValue(true), wantReplace: true},
		"block in state, same value": {
			block: map[string]tftypes.Value{"network": tfString("default"), "can_ip_forward": tftypes.NewValue(tftypes.Bool, true)},
			plan:  types.BoolValue(true),
		},
		"block in state, changed": {
			block: map[string]tftypes.Value{"network": tfString("default"), "can_ip_forward": tftypes.NewValue(tftypes.Bool, true)},
			plan:  types.BoolValue(false), wantReplace: true,
		},
		"unknown": {plan: types.BoolUnknown(), wantReplace: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			state := blockState(tc.block, "default", tc.effectiveForward)
			stateValue := types.BoolNull()
			if tc.block != nil {
				var b bool
				_ = tc.block["can_ip_forward"].As(&b)
				stateValue = types.BoolValue(b)
			}
			req := planmodifier.BoolRequest{
				Path: path.Root("network_config").AtName("can_ip_forward"), ConfigValue: tc.plan, PlanValue: tc.plan,
				StateValue: stateValue, State: state, Plan: tfsdk.Plan{Schema: blockSchema, Raw: state.Raw},
			}
			resp := planmodifier.BoolResponse{PlanValue: tc.plan}
			currentBoolPlanModifier{effective: tc.effective}.PlanModifyBool(context.Background(), req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if resp.RequiresReplace != tc.wantReplace {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.wantReplace)
			}
		})
	}
}

func TestSameScopes(t *testing.T) {
	t.Parallel()
	set := func(s ...string) types.Set {
		vals := make([]attr.Value, len(s))
		for i, v := range s {
			vals[i] = types.StringValue(v)
		}
		return types.SetValueMust(types.StringType, vals)
	}
	if !sameScopes(context.Background(), set(cloudPlatformScope), set(cloudPlatformScope, pubSubScope)) {
		t.Error("the Pub/Sub scope the API adds is not ignored")
	}
	if sameScopes(context.Background(), set(cloudPlatformScope), set("https://www.googleapis.com/auth/devstorage.read_only")) {
		t.Error("different scopes compare equal")
	}
}

func FuzzCheckCIDRBlock(f *testing.F) {
	for _, s := range []string{"10.0.0.8/29", "10.0.0.9/29", "10.0.0.0/28", "10.128.0.0/20", "::1/128", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		msg := checkCIDRBlock(s)
		p, err := netip.ParsePrefix(s)
		valid := err == nil && p.Addr().Is4() && p.Bits() <= 29 && p.Masked() == p
		if (msg == "") != valid {
			t.Errorf("checkCIDRBlock(%q) = %q, want valid=%v", s, msg, valid)
		}
	})
}

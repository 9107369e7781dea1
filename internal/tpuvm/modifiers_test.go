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

func TestCIDR29Validator(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		value   types.String
		wantErr string
	}{
		"a /29 network": {value: types.StringValue("10.0.0.8/29")},
		"null":          {value: types.StringNull()},
		"unknown":       {value: types.StringUnknown()},
		"a /24":         {value: types.StringValue("10.0.0.0/24"), wantErr: "is not a /29 block"},
		"host bits set": {value: types.StringValue("10.0.0.9/29"), wantErr: "use the network address 10.0.0.8/29"},
		"not a CIDR":    {value: types.StringValue("10.0.0.8"), wantErr: "is not an IPv4 CIDR block"},
		"IPv6":          {value: types.StringValue("fd00::/125"), wantErr: "is not an IPv4 CIDR block"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			cidr29Validator{}.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("cidr_block"), ConfigValue: tc.value}, &resp)
			if tc.wantErr == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), tc.wantErr) {
				t.Fatalf("diagnostics = %v, want an error containing %q", resp.Diagnostics, tc.wantErr)
			}
		})
	}
}

func TestSameResourcePlanModifier(t *testing.T) {
	t.Parallel()
	selfLink := types.StringValue("projects/p/global/networks/default")
	tests := map[string]struct {
		config, state, want types.String
	}{
		"name for the self link in state": {config: types.StringValue("default"), state: selfLink, want: selfLink},
		"another network":                 {config: types.StringValue("other"), state: selfLink, want: types.StringValue("other")},
		"no state":                        {config: types.StringValue("default"), state: types.StringNull(), want: types.StringValue("default")},
		"unknown configuration":           {config: types.StringUnknown(), state: selfLink, want: types.StringUnknown()},
		"self link for the name in state": {config: selfLink, state: types.StringValue("default"), want: types.StringValue("default")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := planmodifier.StringResponse{PlanValue: tc.config}
			sameResourcePlanModifier{}.PlanModifyString(context.Background(),
				planmodifier.StringRequest{ConfigValue: tc.config, PlanValue: tc.config, StateValue: tc.state}, &resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("plan = %s, want %s", resp.PlanValue, tc.want)
			}
		})
	}
}

func FuzzCheckCIDR29(f *testing.F) {
	for _, s := range []string{"10.0.0.8/29", "10.0.0.9/29", "10.0.0.0/28", "::1/128", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		msg := checkCIDR29(s)
		p, err := netip.ParsePrefix(s)
		valid := err == nil && p.Addr().Is4() && p.Bits() == 29 && p.Masked() == p
		if (msg == "") != valid {
			t.Errorf("checkCIDR29(%q) = %q, want valid=%v", s, msg, valid)
		}
	})
}

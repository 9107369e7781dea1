// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"path"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	tfpath "github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// network_configs: several network interfaces, the Cloud TPU API's
// Node.networkConfigs, which "network_config and network_configs are
// mutually exclusive ... If both are specified, an error will be returned"
// (https://cloud.google.com/tpu/docs/reference/rest/v2/projects.locations.nodes).
// Through Compute Engine each is one networkInterfaces[] entry
// (gcp.InstanceNodes).

var _ planmodifier.List = networkConfigsPlanModifier{}

// usesInterfaces reports whether m describes the VM's interfaces with
// network_configs, or may (unknown until apply).
func usesInterfaces(m vmModel) bool {
	return m.NetworkConfigs.IsUnknown() || len(m.NetworkConfigs.Elements()) > 0
}

// interfaceModels returns the elements of a known network_configs.
func interfaceModels(ctx context.Context, l types.List, diags *diag.Diagnostics) []networkConfigModel {
	if !tfmodel.Known(l) {
		return nil
	}
	var out []networkConfigModel
	diags.Append(tfmodel.ElementsAs(ctx, l, &out)...)
	return out
}

// expandInterfaces is the node's networkConfigs for network_configs, nil
// when there is none.
func expandInterfaces(ctx context.Context, l types.List, diags *diag.Diagnostics) []*tpu.NetworkConfig {
	var out []*tpu.NetworkConfig
	for _, nc := range interfaceModels(ctx, l, diags) {
		out = append(out, &tpu.NetworkConfig{
			Network:           tfmodel.KnownString(nc.Network),
			Subnetwork:        tfmodel.KnownString(nc.Subnetwork),
			EnableExternalIps: nc.EnableExternalIPs.ValueBool(),
			CanIpForward:      nc.CanIPForward.ValueBool(),
		})
	}
	return out
}

// apiInterfaces is the node's network interfaces: its networkConfigs, else
// its networkConfig.
func apiInterfaces(n *tpu.Node) []*tpu.NetworkConfig {
	if len(n.NetworkConfigs) > 0 {
		return n.NetworkConfigs
	}
	if n.NetworkConfig != nil {
		return []*tpu.NetworkConfig{n.NetworkConfig}
	}
	return nil
}

// interfacesInState reports whether the state of node n describes its
// interfaces with network_configs: when prior does, or, on import (all),
// when the node has networkConfigs and no networkConfig.
func interfacesInState(n *tpu.Node, prior vmModel, all bool) bool {
	if tfmodel.Known(prior.NetworkConfigs) && len(prior.NetworkConfigs.Elements()) > 0 {
		return true
	}
	return all && len(n.NetworkConfigs) > 0 && n.NetworkConfig == nil
}

// flattenInterfaces maps the node's interfaces onto network_configs, the
// elements of prior keeping their spelling of the same network and an
// omitted network or subnetwork staying omitted while the API reports the
// default one; an empty list when the state does not use network_configs
// (as Terraform reads a configuration without the blocks).
func flattenInterfaces(ctx context.Context, ifaces []*tpu.NetworkConfig, prior types.List, diags *diag.Diagnostics) types.List {
	priors := interfaceModels(ctx, prior, diags)
	vals := make([]attr.Value, 0, len(ifaces))
	for i, nc := range ifaces {
		if nc == nil {
			nc = &tpu.NetworkConfig{}
		}
		p := networkConfigModel{Network: types.StringNull(), Subnetwork: types.StringNull()}
		if i < len(priors) {
			p = priors[i]
		}
		vals = append(vals, objectValue(schemaTypes().networkConfig.AttrTypes, map[string]attr.Value{
			"network":             optionalNetwork(nc.Network, p.Network),
			"subnetwork":          optionalNetwork(nc.Subnetwork, p.Subnetwork),
			"enable_external_ips": types.BoolValue(nc.EnableExternalIps),
			"can_ip_forward":      types.BoolValue(nc.CanIpForward),
		}, diags))
	}
	l, d := types.ListValue(schemaTypes().networkConfig, vals)
	diags.Append(d...)
	return l
}

// optionalNetwork maps a network or subnetwork the API reports onto an
// optional attribute: prior's spelling of the same one; null while prior is
// null and the API reports the default one.
func optionalNetwork(api string, prior types.String) types.String {
	if tfmodel.Known(prior) {
		return keepSpelling(api, prior)
	}
	if api == "" || path.Base(api) == defaultName {
		return types.StringNull()
	}
	return types.StringValue(api)
}

// networkConfigsPlanModifier replaces the VM when network_configs changes
// (the APIs cannot change a VM's interfaces): unless the planned interfaces
// are the VM's, element by element, with a name and a self link of one
// network the same, and an omitted network or subnetwork the same as the
// default one.
type networkConfigsPlanModifier struct{}

func (m networkConfigsPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (networkConfigsPlanModifier) MarkdownDescription(context.Context) string {
	return "Changing the network interfaces replaces the VM."
}

func (networkConfigsPlanModifier) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || req.PlanValue.Equal(req.StateValue) {
		return
	}
	resp.RequiresReplace = !sameInterfaces(ctx, req.PlanValue, req.StateValue)
}

// sameInterfaces reports whether two known network_configs describe the
// same interfaces.
func sameInterfaces(ctx context.Context, a, b types.List) bool {
	if !tfmodel.WhollyKnown(a) || !tfmodel.WhollyKnown(b) || len(a.Elements()) != len(b.Elements()) {
		return false
	}
	var diags diag.Diagnostics
	x, y := interfaceModels(ctx, a, &diags), interfaceModels(ctx, b, &diags)
	if diags.HasError() {
		return false
	}
	for i := range x {
		if !sameNetwork(x[i].Network, y[i].Network) || !sameNetwork(x[i].Subnetwork, y[i].Subnetwork) ||
			!x[i].EnableExternalIPs.Equal(y[i].EnableExternalIPs) || !x[i].CanIPForward.Equal(y[i].CanIPForward) {
			return false
		}
	}
	return true
}

// sameNetwork reports whether two network (or subnetwork) values name the
// same one, null being the default one.
func sameNetwork(a, b types.String) bool {
	isDefault := func(s types.String) bool { return s.IsNull() || path.Base(s.ValueString()) == defaultName }
	switch {
	case a.IsNull() || b.IsNull():
		return isDefault(a) && isDefault(b)
	case !tfmodel.Known(a) || !tfmodel.Known(b):
		return false
	}
	return sameResource(a.ValueString(), b.ValueString())
}

// interfaceConflict reports network_config and network_configs set
// together, which the Cloud TPU API refuses (see the top of this file).
// Nothing is said while either is unknown: ValidateConfig runs again with
// the values known.
func interfaceConflict(cfg vmModel, diags *diag.Diagnostics) {
	if cfg.NetworkConfig.IsNull() || cfg.NetworkConfig.IsUnknown() || !tfmodel.Known(cfg.NetworkConfigs) || len(cfg.NetworkConfigs.Elements()) == 0 {
		return
	}
	diags.AddAttributeError(tfpath.Root("network_configs"), "Conflicting Network Settings",
		"network_config and network_configs are both set, and the Cloud TPU API refuses a VM with both "+
			"(Node.networkConfigs: \"network_config and network_configs are mutually exclusive\"). Use network_config for one "+
			"network interface, or network_configs for several, with the network_config settings in the first "+
			"network_configs block.")
}

// interfaceForwardingDiags refuses, for a VM created through Compute
// Engine, network_configs blocks that disagree on can_ip_forward: Compute
// Engine forwards IP packets for the whole instance (instances.insert
// canIpForward, https://cloud.google.com/compute/docs/reference/rest/v1/instances),
// not per interface.
func interfaceForwardingDiags(ctx context.Context, m vmModel, diags *diag.Diagnostics) {
	var d diag.Diagnostics
	ifaces := interfaceModels(ctx, m.NetworkConfigs, &d)
	if d.HasError() || len(ifaces) < 2 || !tfmodel.Known(ifaces[0].CanIPForward) {
		return
	}
	first := ifaces[0].CanIPForward.ValueBool()
	for i, nc := range ifaces[1:] {
		if tfmodel.Known(nc.CanIPForward) && nc.CanIPForward.ValueBool() != first {
			diags.AddAttributeError(tfpath.Root("network_configs").AtListIndex(i+1).AtName("can_ip_forward"), "Not Available Through Compute Engine",
				fmt.Sprintf("network_configs[%d].can_ip_forward is %t, but network_configs[0].can_ip_forward is %t. This TPU VM is "+
					"created through Compute Engine (api = \"compute_engine\"), which turns IP forwarding on or off for the whole "+
					"instance (canIpForward), not per interface. Set the same can_ip_forward in every network_configs block, or set "+
					"api = \"cloud_tpu\" where the Cloud TPU API offers the generation.", i+1, nc.CanIPForward.ValueBool(), first))
			return
		}
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"maps"
	"path"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// expandNode builds the create request from a plan. Values still unknown in
// the plan (computed ones the API chooses) are left out of the request.
func expandNode(ctx context.Context, m vmModel) (*tpu.Node, diag.Diagnostics) {
	var diags diag.Diagnostics
	n := &tpu.Node{
		AcceleratorType: m.AcceleratorType.ValueString(),
		RuntimeVersion:  m.RuntimeVersion.ValueString(),
		Description:     m.Description.ValueString(),
		CidrBlock:       knownString(m.CIDRBlock),
		Labels:          map[string]string{},
	}
	diags.Append(stringMap(ctx, m.Labels, &n.Labels)...)
	if !m.Metadata.IsNull() && !m.Metadata.IsUnknown() {
		diags.Append(m.Metadata.ElementsAs(ctx, &n.Metadata, false)...)
	}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &n.Tags, false)...)
	}
	if known(m.NetworkConfig) {
		var nc networkConfigModel
		diags.Append(m.NetworkConfig.As(ctx, &nc, objectOptions)...)
		n.NetworkConfig = &tpu.NetworkConfig{
			Network:           knownString(nc.Network),
			Subnetwork:        knownString(nc.Subnetwork),
			EnableExternalIps: nc.EnableExternalIPs.ValueBool(),
			CanIpForward:      nc.CanIPForward.ValueBool(),
		}
	}
	if known(m.ServiceAccount) {
		var sa serviceAccountModel
		diags.Append(m.ServiceAccount.As(ctx, &sa, objectOptions)...)
		n.ServiceAccount = &tpu.ServiceAccount{Email: knownString(sa.Email)}
		if !sa.Scopes.IsNull() && !sa.Scopes.IsUnknown() {
			diags.Append(sa.Scopes.ElementsAs(ctx, &n.ServiceAccount.Scope, false)...)
			slices.Sort(n.ServiceAccount.Scope)
		}
	}
	if known(m.SchedulingConfig) {
		var sc schedulingConfigModel
		diags.Append(m.SchedulingConfig.As(ctx, &sc, objectOptions)...)
		if sc.Spot.ValueBool() || sc.Preemptible.ValueBool() || sc.Reserved.ValueBool() {
			n.SchedulingConfig = &tpu.SchedulingConfig{
				Spot: sc.Spot.ValueBool(), Preemptible: sc.Preemptible.ValueBool(), Reserved: sc.Reserved.ValueBool(),
			}
		}
	}
	if known(m.ShieldedInstanceConfig) {
		var sic shieldedInstanceConfigModel
		diags.Append(m.ShieldedInstanceConfig.As(ctx, &sic, objectOptions)...)
		if sic.EnableSecureBoot.ValueBool() {
			n.ShieldedInstanceConfig = &tpu.ShieldedInstanceConfig{EnableSecureBoot: true}
		}
	}
	if !m.DataDisks.IsNull() && !m.DataDisks.IsUnknown() {
		var disks []dataDiskModel
		diags.Append(m.DataDisks.ElementsAs(ctx, &disks, false)...)
		for _, d := range disks {
			n.DataDisks = append(n.DataDisks, &tpu.AttachedDisk{SourceDisk: d.SourceDisk.ValueString(), Mode: d.Mode.ValueString()})
		}
	}
	return n, diags
}

// objectOptions let As read objects whose attributes are still unknown.
var objectOptions = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

func known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// wholly reports whether v is known all through: a null value is, a list,
// map or object is when each of its elements is.
func wholly(v attr.Value) bool {
	if v == nil {
		return true
	}
	tv, err := v.ToTerraformValue(context.Background())
	return err == nil && tv.IsFullyKnown()
}

func knownString(s types.String) string {
	if s.IsNull() || s.IsUnknown() {
		return ""
	}
	return s.ValueString()
}

// stringMap adds the elements of a known map to out.
func stringMap(ctx context.Context, m types.Map, out *map[string]string) diag.Diagnostics {
	if !known(m) {
		return nil
	}
	var in map[string]string
	diags := m.ElementsAs(ctx, &in, false)
	if *out == nil {
		*out = map[string]string{}
	}
	maps.Copy(*out, in)
	return diags
}

// flattenNode maps a node the API returned onto prior (the plan in Create
// and Update, the state in Read) and returns the new state. It is the one
// place every computed value is set, so nothing stays unknown after apply.
//
// From prior it keeps what the API does not store (zones, framework,
// framework_version, validation, timeouts) and the user's spelling of values
// the API reports in another form (a network name instead of its self link).
// labels and metadata keep only the keys prior manages, unless all is set
// (import), when every key is taken.
func flattenNode(ctx context.Context, n *tpu.Node, prior vmModel, all bool) (vmModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := prior
	project, zone, name, err := gcp.ParseNodeID(n.Name)
	if err != nil {
		diags.AddError("Unexpected TPU VM Name", "The Cloud TPU API returned a node whose name is not a node id: "+err.Error()+
			". Please report this issue to the provider developers.")
		return m, diags
	}
	m.ID = types.StringValue(n.Name)
	m.Project = types.StringValue(project)
	m.Zone = types.StringValue(zone)
	m.Name = types.StringValue(name)
	if !known(m.Zones) {
		m.Zones = types.ListValueMust(types.StringType, []attr.Value{types.StringValue(zone)})
	}
	m.AcceleratorType = types.StringValue(n.AcceleratorType)
	m.RuntimeVersion = types.StringValue(n.RuntimeVersion)
	m.Description = optionalString(n.Description, prior.Description)
	m.CIDRBlock = types.StringValue(n.CidrBlock)

	labels := maps.Clone(n.Labels)
	m.EffectiveLabels = stringMapValue(labels)
	delete(labels, ownerLabelKey)
	m.Labels = managedMap(ctx, labels, prior.Labels, all, &diags)
	m.Metadata = managedMap(ctx, n.Metadata, prior.Metadata, all, &diags)

	if len(n.Tags) > 0 || known(prior.Tags) {
		m.Tags = stringListValue(n.Tags)
	} else {
		m.Tags = types.ListNull(types.StringType)
	}

	m.NetworkConfig = flattenNetworkConfig(n.NetworkConfig, prior.NetworkConfig, &diags)
	m.ServiceAccount = flattenServiceAccount(ctx, n.ServiceAccount, prior.ServiceAccount, &diags)
	sc := n.SchedulingConfig
	if sc == nil {
		sc = &tpu.SchedulingConfig{}
	}
	m.SchedulingConfig = objectValue(schedulingConfigAttrTypes, map[string]attr.Value{
		"preemptible": types.BoolValue(sc.Preemptible),
		"reserved":    types.BoolValue(sc.Reserved),
		"spot":        types.BoolValue(sc.Spot),
	}, &diags)
	secureBoot := n.ShieldedInstanceConfig != nil && n.ShieldedInstanceConfig.EnableSecureBoot
	m.ShieldedInstanceConfig = objectValue(shieldedInstanceConfigAttrTypes, map[string]attr.Value{
		"enable_secure_boot": types.BoolValue(secureBoot),
	}, &diags)
	m.DataDisks = flattenDataDisks(n.DataDisks, prior.DataDisks, &diags)

	m.State = types.StringValue(n.State)
	m.Health = types.StringValue(n.Health)
	m.HealthDescription = types.StringValue(n.HealthDescription)
	m.CreateTime = types.StringValue(n.CreateTime)
	m.NetworkEndpoints = flattenEndpoints(n.NetworkEndpoints, &diags)

	m.Generation, m.Chips, m.Hosts = types.StringNull(), types.Int64Null(), types.Int64Null()
	if s, ok := shapeOf(n.AcceleratorType); ok {
		m.Generation, m.Chips, m.Hosts = types.StringValue(s.generation), types.Int64Value(int64(s.chips)), types.Int64Value(int64(s.hosts))
	}
	return m, diags
}

// optionalString maps an API string onto an optional attribute: the API's
// empty string is null when the attribute was null.
func optionalString(v string, prior types.String) types.String {
	if v == "" && (prior.IsNull() || prior.IsUnknown()) {
		return types.StringNull()
	}
	return types.StringValue(v)
}

// managedMap returns the entries of api whose keys prior manages, null when
// prior is null; with all, every entry (null when there is none).
func managedMap(ctx context.Context, api map[string]string, prior types.Map, all bool, diags *diag.Diagnostics) types.Map {
	if all {
		if len(api) == 0 {
			return types.MapNull(types.StringType)
		}
		return stringMapValue(api)
	}
	if !known(prior) {
		return types.MapNull(types.StringType)
	}
	var managed map[string]string
	diags.Append(prior.ElementsAs(ctx, &managed, false)...)
	out := map[string]string{}
	for k := range managed {
		if v, ok := api[k]; ok {
			out[k] = v
		}
	}
	return stringMapValue(out)
}

func stringMapValue(m map[string]string) types.Map {
	vals := make(map[string]attr.Value, len(m))
	for k, v := range m {
		vals[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, vals)
}

func stringListValue(l []string) types.List {
	vals := make([]attr.Value, len(l))
	for i, v := range l {
		vals[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, vals)
}

func objectValue(t map[string]attr.Type, v map[string]attr.Value, diags *diag.Diagnostics) types.Object {
	o, d := types.ObjectValue(t, v)
	diags.Append(d...)
	return o
}

// sameResource reports whether two spellings name the same network or
// subnetwork: a name and a self link (or two self links) with the same last
// segment, as the Google provider's CompareSelfLinkOrResourceName does.
func sameResource(a, b string) bool {
	return a == b || (a != "" && b != "" && path.Base(a) == path.Base(b))
}

// priorString returns the prior attribute name of a known object, or null.
func priorString(o types.Object, name string) types.String {
	if !known(o) {
		return types.StringNull()
	}
	v, ok := o.Attributes()[name].(types.String)
	if !ok {
		return types.StringNull()
	}
	return v
}

// keepSpelling returns prior when it is known and names the same resource as
// api, else api.
func keepSpelling(api string, prior types.String) types.String {
	if known(prior) && sameResource(api, prior.ValueString()) {
		return prior
	}
	return types.StringValue(api)
}

func flattenNetworkConfig(nc *tpu.NetworkConfig, prior types.Object, diags *diag.Diagnostics) types.Object {
	if nc == nil {
		nc = &tpu.NetworkConfig{}
	}
	return objectValue(networkConfigAttrTypes, map[string]attr.Value{
		"network":             keepSpelling(nc.Network, priorString(prior, "network")),
		"subnetwork":          keepSpelling(nc.Subnetwork, priorString(prior, "subnetwork")),
		"enable_external_ips": types.BoolValue(nc.EnableExternalIps),
		"can_ip_forward":      types.BoolValue(nc.CanIpForward),
	}, diags)
}

func flattenServiceAccount(ctx context.Context, sa *tpu.ServiceAccount, prior types.Object, diags *diag.Diagnostics) types.Object {
	if sa == nil {
		sa = &tpu.ServiceAccount{}
	}
	scopes := slices.Clone(sa.Scope)
	var priorScopes []string
	if known(prior) {
		if s, ok := prior.Attributes()["scopes"].(types.Set); ok && known(s) {
			diags.Append(s.ElementsAs(ctx, &priorScopes, false)...)
		}
	}
	if !slices.Contains(priorScopes, pubSubScope) {
		scopes = slices.DeleteFunc(scopes, func(s string) bool { return s == pubSubScope })
	}
	vals := make([]attr.Value, len(scopes))
	for i, s := range scopes {
		vals[i] = types.StringValue(s)
	}
	set, d := types.SetValue(types.StringType, vals)
	diags.Append(d...)
	return objectValue(serviceAccountAttrTypes, map[string]attr.Value{
		"email":  types.StringValue(sa.Email),
		"scopes": set,
	}, diags)
}

func flattenDataDisks(disks []*tpu.AttachedDisk, prior types.List, diags *diag.Diagnostics) types.List {
	elemType := types.ObjectType{AttrTypes: dataDiskAttrTypes}
	if len(disks) == 0 && !known(prior) {
		return types.ListNull(elemType)
	}
	vals := make([]attr.Value, 0, len(disks))
	for _, d := range disks {
		if d == nil {
			continue
		}
		mode := d.Mode
		if mode == "" || mode == "DISK_MODE_UNSPECIFIED" {
			mode = diskModes[0] // the API's default (AttachedDisk.mode)
		}
		vals = append(vals, objectValue(dataDiskAttrTypes, map[string]attr.Value{
			"source_disk": types.StringValue(d.SourceDisk),
			"mode":        types.StringValue(mode),
		}, diags))
	}
	l, d := types.ListValue(elemType, vals)
	diags.Append(d...)
	return l
}

func flattenEndpoints(eps []*tpu.NetworkEndpoint, diags *diag.Diagnostics) types.List {
	elemType := types.ObjectType{AttrTypes: networkEndpointAttrTypes}
	vals := make([]attr.Value, 0, len(eps))
	for _, ep := range eps {
		if ep == nil {
			continue
		}
		external := types.StringNull()
		if ep.AccessConfig != nil && ep.AccessConfig.ExternalIp != "" {
			external = types.StringValue(ep.AccessConfig.ExternalIp)
		}
		vals = append(vals, objectValue(networkEndpointAttrTypes, map[string]attr.Value{
			"ip_address":  types.StringValue(ep.IpAddress),
			"external_ip": external,
			"port":        types.Int64Value(ep.Port),
		}, diags))
	}
	l, d := types.ListValue(elemType, vals)
	diags.Append(d...)
	return l
}

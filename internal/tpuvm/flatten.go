// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// expandNode builds the create request from a plan. Values still unknown in
// the plan (computed ones the API chooses) are left out of the request.
func expandNode(ctx context.Context, m vmModel) (*tpu.Node, diag.Diagnostics) {
	var diags diag.Diagnostics
	n := &tpu.Node{
		AcceleratorType: m.AcceleratorType.ValueString(),
		RuntimeVersion:  m.RuntimeVersion.ValueString(),
		Description:     m.Description.ValueString(),
		CidrBlock:       tfmodel.KnownString(m.CIDRBlock),
		Labels:          map[string]string{},
	}
	if labels := tfmodel.KnownStringMap(m.TerraformLabels); labels != nil {
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		maps.Copy(n.Labels, labels)
	}
	if !m.Metadata.IsNull() && !m.Metadata.IsUnknown() {
		diags.Append(tfmodel.MapAs(ctx, m.Metadata, &n.Metadata)...)
	}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(tfmodel.ElementsAs(ctx, m.Tags, &n.Tags)...)
	}
	n.BootDiskConfig = expandBootDisk(m.BootDisk)
	n.NetworkConfigs = expandInterfaces(ctx, m.NetworkConfigs, &diags)
	if tfmodel.Known(m.NetworkConfig) {
		var nc networkConfigModel
		diags.Append(tfmodel.As(ctx, m.NetworkConfig, &nc, tfmodel.LenientObjectAsOptions)...)
		n.NetworkConfig = &tpu.NetworkConfig{
			Network:           tfmodel.KnownString(nc.Network),
			Subnetwork:        tfmodel.KnownString(nc.Subnetwork),
			EnableExternalIps: nc.EnableExternalIPs.ValueBool(),
			CanIpForward:      nc.CanIPForward.ValueBool(),
		}
	}
	if tfmodel.Known(m.ServiceAccount) {
		var sa serviceAccountModel
		diags.Append(tfmodel.As(ctx, m.ServiceAccount, &sa, tfmodel.LenientObjectAsOptions)...)
		out := &tpu.ServiceAccount{Email: tfmodel.KnownString(sa.Email)}
		if !sa.Scopes.IsNull() && !sa.Scopes.IsUnknown() {
			diags.Append(tfmodel.ElementsAs(ctx, sa.Scopes, &out.Scope)...)
			slices.Sort(out.Scope)
		}
		if out.Email != "" || len(out.Scope) > 0 {
			n.ServiceAccount = out
		}
	}
	if tfmodel.Known(m.SchedulingConfig) {
		var sc schedulingConfigModel
		diags.Append(tfmodel.As(ctx, m.SchedulingConfig, &sc, tfmodel.LenientObjectAsOptions)...)
		if sc.Spot.ValueBool() || sc.Preemptible.ValueBool() || sc.Reserved.ValueBool() {
			n.SchedulingConfig = &tpu.SchedulingConfig{
				Spot: sc.Spot.ValueBool(), Preemptible: sc.Preemptible.ValueBool(), Reserved: sc.Reserved.ValueBool(),
			}
		}
	}
	if tfmodel.Known(m.ShieldedInstanceConfig) {
		var sic shieldedInstanceConfigModel
		diags.Append(tfmodel.As(ctx, m.ShieldedInstanceConfig, &sic, tfmodel.LenientObjectAsOptions)...)
		if sic.EnableSecureBoot.ValueBool() {
			n.ShieldedInstanceConfig = &tpu.ShieldedInstanceConfig{EnableSecureBoot: true}
		}
	}
	if !m.DataDisks.IsNull() && !m.DataDisks.IsUnknown() {
		var disks []dataDiskModel
		diags.Append(tfmodel.ElementsAs(ctx, m.DataDisks, &disks)...)
		for _, d := range disks {
			n.DataDisks = append(n.DataDisks, &tpu.AttachedDisk{SourceDisk: d.SourceDisk.ValueString(), Mode: d.Mode.ValueString()})
		}
	}
	return n, diags
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
func flattenNode(ctx context.Context, cat *catalog.Catalog, n *tpu.Node, prior vmModel, all bool) (vmModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := prior
	if !flattenIdentity(n, &m, all, &diags) {
		return m, diags
	}
	m.Description = optionalString(n.Description, prior.Description)
	m.CIDRBlock = types.StringValue(n.CidrBlock)
	flattenLabels(ctx, n, &m, prior, all, &diags)
	// A nested block stays absent while the VM has what its absence means
	// (see blockFromAPI); the API's own choices are always in the effective
	// attributes.
	flattenNetwork(ctx, n, &m, prior, all, &diags)
	m.BootDisk = flattenBootDisk(n, prior.BootDisk, &diags)
	if !tfmodel.Known(m.DeletionProtection) {
		m.DeletionProtection = types.BoolValue(false) // an import: see deletion_protection
	}
	m.ServiceAccount = blockFromAPI(prior.ServiceAccount, all,
		flattenServiceAccount(ctx, n.ServiceAccount, prior.ServiceAccount, false, &diags), serviceAccountChanged)
	flattenFlags(n, &m, prior, all, &diags)
	m.DataDisks = flattenDataDisks(n.DataDisks, &diags)

	m.State = types.StringValue(n.State)
	m.Health = types.StringValue(n.Health)
	m.HealthDescription = types.StringValue(n.HealthDescription)
	m.CreateTime = types.StringValue(n.CreateTime)
	m.NetworkEndpoints = flattenEndpoints(n.NetworkEndpoints, &diags)

	// framework and framework_version are not stored by the API: an import
	// (or a value left unknown in the plan) takes what the runtime implies.
	if all || m.Framework.IsUnknown() || m.FrameworkVersion.IsUnknown() {
		fw, v := impliedFramework(cat, n.RuntimeVersion)
		if all || m.Framework.IsUnknown() {
			m.Framework = fw
		}
		if all || m.FrameworkVersion.IsUnknown() {
			m.FrameworkVersion = v
		}
	}
	m.Generation, m.Chips, m.Hosts = shapeValues(cat, n.AcceleratorType)
	setSlices(&m, n.Name, 1)
	return m, diags
}

// flattenIdentity sets what names the VM: id, api, project, zone, name,
// accelerator type and runtime version. It reports false, with an error,
// when the API's name is not a VM id.
func flattenIdentity(n *tpu.Node, m *vmModel, all bool, diags *diag.Diagnostics) bool {
	project, zone, name, instance, err := parseVMID(n.Name)
	if err != nil {
		diags.AddError("Unexpected TPU VM Name", "The API returned a TPU VM whose name is not a node or instance id: "+err.Error()+
			". Please report this issue to the provider developers.")
		return false
	}
	m.ID = types.StringValue(n.Name)
	m.API = types.StringValue(apiOfID(n.Name))
	m.Project = types.StringValue(project)
	m.Zone = types.StringValue(zone)
	m.Name = types.StringValue(name)
	if !tfmodel.Known(m.Zones) {
		m.Zones = types.ListValueMust(types.StringType, []attr.Value{types.StringValue(zone)})
	}
	m.AcceleratorType = types.StringValue(n.AcceleratorType)
	if !instance || n.RuntimeVersion != "" {
		m.RuntimeVersion = types.StringValue(n.RuntimeVersion)
	} else if m.RuntimeVersion.IsUnknown() || all {
		// Compute Engine does not report the image an instance's boot disk
		// was made from: what was planned is kept, an import records none.
		m.RuntimeVersion = types.StringNull()
	}
	return true
}

// flattenLabels sets the labels, metadata and tags.
func flattenLabels(ctx context.Context, n *tpu.Node, m *vmModel, prior vmModel, all bool, diags *diag.Diagnostics) {
	labels := maps.Clone(n.Labels)
	m.EffectiveLabels = tfmodel.StringMapOrEmpty(labels)
	delete(labels, ownerLabelKey)
	m.Labels = managedMap(ctx, labels, prior.Labels, all, diags)
	m.TerraformLabels = managedMap(ctx, labels, prior.TerraformLabels, all, diags)
	m.Metadata = managedMap(ctx, n.Metadata, prior.Metadata, all, diags)
	if len(n.Tags) > 0 || tfmodel.Known(prior.Tags) {
		m.Tags = tfmodel.StringListOrEmpty(n.Tags)
	} else {
		m.Tags = types.ListNull(types.StringType)
	}
}

// flattenNetwork sets the interfaces, as network_configs or network_config
// as in prior (on import, as in the node), and effective_network_config
// and effective_service_account, the first interface's and the account the
// API reports.
func flattenNetwork(ctx context.Context, n *tpu.Node, m *vmModel, prior vmModel, all bool, diags *diag.Diagnostics) {
	ifaces := apiInterfaces(n)
	var first *tpu.NetworkConfig
	if len(ifaces) > 0 {
		first = ifaces[0]
	}
	m.EffectiveNetwork = flattenNetworkConfig(first, types.ObjectNull(schemaTypes().networkConfig.AttrTypes), diags)
	m.EffectiveSA = flattenServiceAccount(ctx, n.ServiceAccount, types.ObjectNull(schemaTypes().serviceAccount.AttrTypes), true, diags)
	if interfacesInState(n, prior, all) {
		m.NetworkConfigs = flattenInterfaces(ctx, ifaces, prior.NetworkConfigs, diags)
		m.NetworkConfig = types.ObjectNull(schemaTypes().networkConfig.AttrTypes)
		return
	}
	m.NetworkConfigs = flattenInterfaces(ctx, nil, prior.NetworkConfigs, diags)
	m.NetworkConfig = blockFromAPI(prior.NetworkConfig, all, flattenNetworkConfig(first, prior.NetworkConfig, diags),
		func(o types.Object) bool { return networkChanged(o) || boolAttr(o, "enable_external_ips") })
}

// flattenFlags sets scheduling_config and shielded_instance_config.
func flattenFlags(n *tpu.Node, m *vmModel, prior vmModel, all bool, diags *diag.Diagnostics) {
	sc := n.SchedulingConfig
	if sc == nil {
		sc = &tpu.SchedulingConfig{}
	}
	m.SchedulingConfig = blockFromAPI(prior.SchedulingConfig, all, objectValue(schemaTypes().schedulingConfig.AttrTypes, map[string]attr.Value{
		"preemptible": types.BoolValue(sc.Preemptible),
		"reserved":    types.BoolValue(sc.Reserved),
		"spot":        types.BoolValue(sc.Spot),
	}, diags), anyFlagSet)
	secureBoot := n.ShieldedInstanceConfig != nil && n.ShieldedInstanceConfig.EnableSecureBoot
	m.ShieldedInstanceConfig = blockFromAPI(prior.ShieldedInstanceConfig, all, objectValue(schemaTypes().shieldedInstanceConfig.AttrTypes, map[string]attr.Value{
		"enable_secure_boot": types.BoolValue(secureBoot),
	}, diags), anyFlagSet)
}

// shapeValues are generation, chips and hosts of an accelerator type, null
// when the catalog does not know it.
func shapeValues(cat *catalog.Catalog, acceleratorType string) (types.String, types.Int64, types.Int64) {
	s, ok := shapeOf(cat, acceleratorType)
	if !ok {
		return types.StringNull(), types.Int64Null(), types.Int64Null()
	}
	return types.StringValue(s.generation), types.Int64Value(int64(s.chips)), types.Int64Value(int64(s.hosts))
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
		return tfmodel.StringMapOrEmpty(api)
	}
	if !tfmodel.Known(prior) {
		return types.MapNull(types.StringType)
	}
	var managed map[string]string
	diags.Append(tfmodel.MapAs(ctx, prior, &managed)...)
	out := map[string]string{}
	for k := range managed {
		if v, ok := api[k]; ok {
			out[k] = v
		}
	}
	return tfmodel.StringMapOrEmpty(out)
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
	if !tfmodel.Known(o) {
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
	if tfmodel.Known(prior) && sameResource(api, prior.ValueString()) {
		return prior
	}
	return types.StringValue(api)
}

func flattenNetworkConfig(nc *tpu.NetworkConfig, prior types.Object, diags *diag.Diagnostics) types.Object {
	if nc == nil {
		nc = &tpu.NetworkConfig{}
	}
	return objectValue(schemaTypes().networkConfig.AttrTypes, map[string]attr.Value{
		"network":             keepSpelling(nc.Network, priorString(prior, "network")),
		"subnetwork":          keepSpelling(nc.Subnetwork, priorString(prior, "subnetwork")),
		"enable_external_ips": types.BoolValue(nc.EnableExternalIps),
		"can_ip_forward":      types.BoolValue(nc.CanIpForward),
	}, diags)
}

// flattenServiceAccount maps the API's service account; the Pub/Sub scope
// the API adds is left out unless prior lists it or raw is set.
func flattenServiceAccount(ctx context.Context, sa *tpu.ServiceAccount, prior types.Object, raw bool, diags *diag.Diagnostics) types.Object {
	if sa == nil {
		sa = &tpu.ServiceAccount{}
	}
	scopes := slices.Clone(sa.Scope)
	var priorScopes []string
	if tfmodel.Known(prior) {
		if s, ok := prior.Attributes()["scopes"].(types.Set); ok && tfmodel.Known(s) {
			diags.Append(tfmodel.ElementsAs(ctx, s, &priorScopes)...)
		}
	}
	if !raw && !slices.Contains(priorScopes, pubSubScope) {
		scopes = slices.DeleteFunc(scopes, func(s string) bool { return s == pubSubScope })
	}
	vals := make([]attr.Value, len(scopes))
	for i, s := range scopes {
		vals[i] = types.StringValue(s)
	}
	set, d := types.SetValue(types.StringType, vals)
	diags.Append(d...)
	return objectValue(schemaTypes().serviceAccount.AttrTypes, map[string]attr.Value{
		"email":  types.StringValue(sa.Email),
		"scopes": set,
	}, diags)
}

// flattenDataDisks maps the API's data disks: an empty list when there are
// none, as Terraform reads a configuration without data_disks blocks.
func flattenDataDisks(disks []*tpu.AttachedDisk, diags *diag.Diagnostics) types.List {
	elemType := schemaTypes().dataDisk
	vals := make([]attr.Value, 0, len(disks))
	for _, d := range disks {
		if d == nil {
			continue
		}
		mode := d.Mode
		if mode == "" || mode == "DISK_MODE_UNSPECIFIED" {
			mode = diskModes[0] // the API's default (AttachedDisk.mode)
		}
		vals = append(vals, objectValue(schemaTypes().dataDisk.AttrTypes, map[string]attr.Value{
			"source_disk": types.StringValue(d.SourceDisk),
			"mode":        types.StringValue(mode),
		}, diags))
	}
	l, d := types.ListValue(elemType, vals)
	diags.Append(d...)
	return l
}

func flattenEndpoints(eps []*tpu.NetworkEndpoint, diags *diag.Diagnostics) types.List {
	elemType := schemaTypes().networkEndpoint
	vals := make([]attr.Value, 0, len(eps))
	for _, ep := range eps {
		if ep == nil {
			continue
		}
		external := types.StringNull()
		if ep.AccessConfig != nil && ep.AccessConfig.ExternalIp != "" {
			external = types.StringValue(ep.AccessConfig.ExternalIp)
		}
		vals = append(vals, objectValue(schemaTypes().networkEndpoint.AttrTypes, map[string]attr.Value{
			"ip_address":  types.StringValue(ep.IpAddress),
			"external_ip": external,
			"port":        types.Int64Value(ep.Port),
		}, diags))
	}
	l, d := types.ListValue(elemType, vals)
	diags.Append(d...)
	return l
}

// blockFromAPI returns the state of a nested block: api (the VM's settings)
// when prior has the block; when prior has none, the block stays absent,
// except on import (all), where it is absent only when the VM has what an
// absent block means (changed false), so that the configuration Terraform
// generates on import is the shortest that plans no change.
func blockFromAPI(prior types.Object, all bool, api types.Object, changed func(types.Object) bool) types.Object {
	switch {
	case tfmodel.Known(prior):
		return api
	case !all || !changed(api):
		return types.ObjectNull(api.AttributeTypes(context.Background()))
	}
	return api
}

// boolAttr returns the bool attribute name of o, false when it is not known.
func boolAttr(o types.Object, name string) bool {
	if !tfmodel.Known(o) {
		return false
	}
	b, ok := o.Attributes()[name].(types.Bool)
	return ok && b.ValueBool()
}

// anyFlagSet reports whether any bool attribute of o is true: what an
// absent scheduling_config or shielded_instance_config does not mean.
func anyFlagSet(o types.Object) bool {
	if !tfmodel.Known(o) {
		return false
	}
	for name := range o.Attributes() {
		if boolAttr(o, name) {
			return true
		}
	}
	return false
}

// defaultName is the name of the network and subnetwork the API chooses.
const defaultName = "default"

// networkChanged reports whether o has network settings an absent
// network_config does not mean and the API cannot update: IP forwarding,
// or a network or subnetwork other than the default one (an empty one, as a
// request not yet served has it, is the default).
func networkChanged(o types.Object) bool {
	if !tfmodel.Known(o) {
		return false
	}
	for _, name := range []string{"network", "subnetwork"} {
		if s := priorString(o, name); tfmodel.Known(s) && s.ValueString() != "" && path.Base(s.ValueString()) != defaultName {
			return true
		}
	}
	return boolAttr(o, "can_ip_forward")
}

// defaultServiceAccountSuffix ends the email of the Compute Engine default
// service account, PROJECT_NUMBER-compute@developer.gserviceaccount.com
// (https://cloud.google.com/compute/docs/access/service-accounts#default_service_account).
const defaultServiceAccountSuffix = "-compute@developer.gserviceaccount.com"

// cloudPlatformScope is the scope the API gives a VM created without scopes.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// serviceAccountChanged reports whether o names another service account
// than the Compute Engine default one, or other scopes than the API's
// default: what an absent service_account does not mean. Empty ones (a
// request not yet served) are the defaults.
func serviceAccountChanged(o types.Object) bool {
	if !tfmodel.Known(o) {
		return false
	}
	if email := priorString(o, "email"); tfmodel.Known(email) && email.ValueString() != "" && !strings.HasSuffix(email.ValueString(), defaultServiceAccountSuffix) {
		return true
	}
	scopes, ok := o.Attributes()["scopes"].(types.Set)
	if !ok || !tfmodel.Known(scopes) || len(scopes.Elements()) == 0 {
		return false
	}
	return !sameScopes(context.Background(), scopes, types.SetValueMust(types.StringType, []attr.Value{types.StringValue(cloudPlatformScope)}))
}

// impliedFramework returns framework and framework_version as the runtime
// version implies them (catalog.RuntimeFramework), null where it implies none.
func impliedFramework(cat *catalog.Catalog, runtimeVersion string) (types.String, types.String) {
	fw, v := cat.RuntimeFramework(runtimeVersion)
	out := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	return out(fw), out(v)
}

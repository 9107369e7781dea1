// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// A tier's networks beyond the cluster's: a pod range of its own
// (NodeNetworkConfig.createPodRange, with settings.go's pod_range and
// pod_ipv4_cidr_block), and additional node and pod networks
// (additionalNodeNetworkConfigs, additionalPodNetworkConfigs), which
// GPUDirect's NICs on A3 and A4 machine types need. All are fixed at
// creation ("This field cannot be changed after the node pool has been
// created"): a change re-creates the pool.
// https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeNetworkConfig

const networkSource = "https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeNetworkConfig"

// tierNetworkModel holds the attributes, embedded in tierModel.
type tierNetworkModel struct {
	CreatePodRange         types.Bool `tfsdk:"create_pod_range"`
	AdditionalNodeNetworks types.List `tfsdk:"additional_node_network_configs"`
	AdditionalPodNetworks  types.List `tfsdk:"additional_pod_network_configs"`
}

type nodeNetworkModel struct {
	Network    types.String `tfsdk:"network"`
	Subnetwork types.String `tfsdk:"subnetwork"`
}

type podNetworkModel struct {
	Subnetwork        types.String `tfsdk:"subnetwork"`
	SecondaryPodRange types.String `tfsdk:"secondary_pod_range"`
	MaxPodsPerNode    types.Int64  `tfsdk:"max_pods_per_node"`
}

// networkAttributes are the schema attributes.
func networkAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"create_pod_range": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Create a secondary range for the pool's pods, named `pod_range` and sized by " +
				"`pod_ipv4_cidr_block` (GKE picks both when left out). GKE does not report it back, so a change made outside " +
				"Terraform is not seen. Changing it re-creates the pool.",
		},
	}
}

// networkBlocks are the schema blocks.
func networkBlocks() map[string]schema.Block {
	name := func(what string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: what,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	return map[string]schema.Block{
		"additional_node_network_configs": schema.ListNestedBlock{
			MarkdownDescription: "An additional network interface of each node, in another VPC network (GKE multi-network, " +
				"and the GPU NICs of A3 and A4 machine types). Needs gVNIC. Changing them re-creates the pool.",
			NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"network":    name("Required. The VPC network."),
				"subnetwork": name("Required. The subnetwork of the network, in the cluster's region."),
			}, Validators: requiredInElement("network", "subnetwork")},
		},
		"additional_pod_network_configs": schema.ListNestedBlock{
			MarkdownDescription: "An additional pod network: an alias IP range of each node from another subnetwork. " +
				"Changing them re-creates the pool.",
			NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"subnetwork":          name("Required. The subnetwork of the pod network."),
				"secondary_pod_range": name("Required. The subnetwork's secondary range for the pods' addresses."),
				"max_pods_per_node": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Pods per node on this network. Without it, the pool's.",
					Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			}, Validators: requiredInElement("subnetwork", "secondary_pod_range")},
		},
	}
}

// nodeNetworks is the attributes as Go values.
type nodeNetworks struct {
	CreatePodRange *bool
	Node           []nodeNetwork
	Pod            []podNetwork
}

type nodeNetwork struct{ Network, Subnetwork string }

type podNetwork struct {
	Subnetwork, SecondaryPodRange string
	MaxPods                       int64
}

// networksOf reads the attributes; known is false when one is unknown.
func networksOf(ctx context.Context, m tierNetworkModel, diags *diag.Diagnostics) (nodeNetworks, bool) {
	out := nodeNetworks{CreatePodRange: tfmodel.BoolPtr(m.CreatePodRange)}
	known := !m.CreatePodRange.IsUnknown() && tfmodel.WhollyKnown(m.AdditionalNodeNetworks) && tfmodel.WhollyKnown(m.AdditionalPodNetworks)
	if tfmodel.Known(m.AdditionalNodeNetworks) {
		var ns []nodeNetworkModel
		diags.Append(tfmodel.ElementsAs(ctx, m.AdditionalNodeNetworks, &ns)...)
		for _, n := range ns {
			out.Node = append(out.Node, nodeNetwork{Network: n.Network.ValueString(), Subnetwork: n.Subnetwork.ValueString()})
		}
	}
	if tfmodel.Known(m.AdditionalPodNetworks) {
		var ps []podNetworkModel
		diags.Append(tfmodel.ElementsAs(ctx, m.AdditionalPodNetworks, &ps)...)
		for _, p := range ps {
			out.Pod = append(out.Pod, podNetwork{Subnetwork: p.Subnetwork.ValueString(), SecondaryPodRange: p.SecondaryPodRange.ValueString(),
				MaxPods: p.MaxPodsPerNode.ValueInt64()})
		}
	}
	return out, known
}

// networkFindings checks the networks against GKE's reference and guides,
// as warnings: a pod range block without create_pod_range, which GKE uses
// only with it; additional networks, NCCL Fast Socket and GPUDirect-RDMA
// with gVNIC turned off; GPUDirect-RDMA on a machine type GKE does not
// document it for.
func networkFindings(in tierInput, machineType string) catalog.Findings {
	var fs catalog.Findings
	warn := func(attr, value, summary, detail string) {
		f := tierFinding(attr, value, summary, detail, networkSource)
		f.Severity = catalog.SeverityWarning
		fs = append(fs, f)
	}
	st := in.Settings
	if cidr := st.PodCIDR; cidr != "" && (in.Networks.CreatePodRange == nil || !*in.Networks.CreatePodRange) {
		warn("pod_ipv4_cidr_block", cidr, "Pod Range Block Without create_pod_range",
			fmt.Sprintf("pod_ipv4_cidr_block = %q is used only when the pool creates its pod range, and create_pod_range is not "+
				"true. Set create_pod_range = true, or remove pod_ipv4_cidr_block.", cidr))
	}
	gvnicOff := st.Gvnic != nil && !*st.Gvnic
	if gvnicOff && (len(in.Networks.Node) > 0 || len(in.Networks.Pod) > 0) {
		warn("gvnic", "false", "Additional Networks Without gVNIC",
			"The tier has additional node or pod networks and gvnic = false: GKE multi-networking runs over gVNIC. Set gvnic = true.")
	}
	if gvnicOff && st.FastSocket != nil && *st.FastSocket {
		warn("fast_socket", "true", "Fast Socket Without gVNIC", "NCCL Fast Socket needs gVNIC, and the tier sets gvnic = false. Set gvnic = true.")
	}
	if st.GPUDirect == "RDMA" && !strings.HasPrefix(machineType, "a3-ultragpu") && !strings.HasPrefix(machineType, "a4") {
		warn("gpudirect_strategy", st.GPUDirect, "GPUDirect-RDMA on Another Machine Type",
			fmt.Sprintf("gpudirect_strategy = \"RDMA\" is documented for A3 Ultra and A4 machine types, and the tier's is %q. "+
				"A3 High and Mega use GPUDirect-TCPX(O) over their additional node networks instead.", machineType))
	}
	return fs
}

// writeTo sets the networks on a create request's node pool, beside
// what the settings set there.
func (n nodeNetworks) writeTo(np *container.NodePool) {
	if n.CreatePodRange == nil && len(n.Node) == 0 && len(n.Pod) == 0 {
		return
	}
	if np.NetworkConfig == nil {
		np.NetworkConfig = &container.NodeNetworkConfig{}
	}
	nc := np.NetworkConfig
	nc.CreatePodRange = valueOr(n.CreatePodRange, false)
	for _, x := range n.Node {
		nc.AdditionalNodeNetworkConfigs = append(nc.AdditionalNodeNetworkConfigs, &container.AdditionalNodeNetworkConfig{
			Network: x.Network, Subnetwork: x.Subnetwork})
	}
	for _, x := range n.Pod {
		p := &container.AdditionalPodNetworkConfig{Subnetwork: x.Subnetwork, SecondaryPodRange: x.SecondaryPodRange}
		if x.MaxPods != 0 {
			p.MaxPodsPerNode = &container.MaxPodsConstraint{MaxPodsPerNode: x.MaxPods}
		}
		nc.AdditionalPodNetworkConfigs = append(nc.AdditionalPodNetworkConfigs, p)
	}
}

// networksOfPool reads the additional networks GKE reports (it does not
// report createPodRange, which is input only).
func networksOfPool(np *container.NodePool) nodeNetworks {
	var out nodeNetworks
	nc := np.NetworkConfig
	if nc == nil {
		return out
	}
	for _, x := range nc.AdditionalNodeNetworkConfigs {
		if x != nil {
			out.Node = append(out.Node, nodeNetwork{Network: x.Network, Subnetwork: x.Subnetwork})
		}
	}
	for _, x := range nc.AdditionalPodNetworkConfigs {
		if x != nil {
			p := podNetwork{Subnetwork: x.Subnetwork, SecondaryPodRange: x.SecondaryPodRange}
			if x.MaxPodsPerNode != nil {
				p.MaxPods = x.MaxPodsPerNode.MaxPodsPerNode
			}
			out.Pod = append(out.Pod, p)
		}
	}
	return out
}

// networksEqual compares the networks of two tiers. A create_pod_range
// that either leaves out matches (GKE never reports it, so an imported
// tier has none, and a pool keeps the range it was created with).
func networksEqual(a, b nodeNetworks) bool {
	return (a.CreatePodRange == nil || b.CreatePodRange == nil || *a.CreatePodRange == *b.CreatePodRange) &&
		additionalNetworksEqual(a, b)
}

// additionalNetworksEqual compares the additional networks, all a pool
// shows (createPodRange is input only).
func additionalNetworksEqual(a, b nodeNetworks) bool {
	return slices.Equal(a.Node, b.Node) && slices.Equal(a.Pod, b.Pod)
}

// flattenNetworks sets the attributes from the pool GKE reports; the
// recorded create_pod_range stays.
func flattenNetworks(t *tierModel, prior tierModel, np *container.NodePool) {
	got := networksOfPool(np)
	m := networkModelOf(got)
	m.CreatePodRange = prior.CreatePodRange
	if m.CreatePodRange.IsUnknown() {
		m.CreatePodRange = types.BoolNull()
	}
	t.tierNetworkModel = m
}

// networkModelOf converts the networks to values; no network is an empty
// list, as a tier without the blocks.
func networkModelOf(n nodeNetworks) tierNetworkModel {
	nodes := make([]attr.Value, len(n.Node))
	for i, x := range n.Node {
		nodes[i] = types.ObjectValueMust(schemaTypes().nodeNetwork.AttrTypes, map[string]attr.Value{
			"network": types.StringValue(x.Network), "subnetwork": types.StringValue(x.Subnetwork)})
	}
	pods := make([]attr.Value, len(n.Pod))
	for i, x := range n.Pod {
		pods[i] = types.ObjectValueMust(schemaTypes().podNetwork.AttrTypes, map[string]attr.Value{
			"subnetwork": types.StringValue(x.Subnetwork), "secondary_pod_range": types.StringValue(x.SecondaryPodRange),
			"max_pods_per_node": tfmodel.Int64OrNull(x.MaxPods, x.MaxPods != 0)})
	}
	return tierNetworkModel{CreatePodRange: types.BoolPointerValue(n.CreatePodRange),
		AdditionalNodeNetworks: types.ListValueMust(schemaTypes().nodeNetwork, nodes), AdditionalPodNetworks: types.ListValueMust(schemaTypes().podNetwork, pods)}
}

// networkValues lists the attributes (tierValues).
func networkValues(m tierNetworkModel) map[string]attr.Value {
	return map[string]attr.Value{"create_pod_range": m.CreatePodRange, "additional_node_network_configs": m.AdditionalNodeNetworks,
		"additional_pod_network_configs": m.AdditionalPodNetworks}
}

// unknownNetworks and nullNetworks are every attribute unknown, or null
// (the blocks empty).
func unknownNetworks() tierNetworkModel {
	return tierNetworkModel{CreatePodRange: types.BoolUnknown(), AdditionalNodeNetworks: types.ListUnknown(schemaTypes().nodeNetwork),
		AdditionalPodNetworks: types.ListUnknown(schemaTypes().podNetwork)}
}

func nullNetworks() tierNetworkModel { return networkModelOf(nodeNetworks{}) }

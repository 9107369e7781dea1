// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var _ list.ListResourceWithConfigure = &poolsList{}

// NewListResource returns the list resource of accel_fallback_nodepools, for
// terraform query (Terraform 1.14 and later): the node pools of the GKE
// clusters of a project in a location, as import targets with their
// configuration. Pools that carry one resource's ownership label are one
// result; every pool without the label is a result of its own.
func NewListResource(cat *catalog.Catalog, modes *validation.Modes) list.ListResource {
	return &poolsList{fallbackNodePoolsResource: &fallbackNodePoolsResource{catalog: cat, modes: modes}}
}

// poolsList shares the resource's name, configuration and API access.
type poolsList struct {
	*fallbackNodePoolsResource
}

type listConfig struct {
	Project  types.String `tfsdk:"project"`
	Location types.String `tfsdk:"location"`
	Cluster  types.String `tfsdk:"cluster"`
}

func (l *poolsList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		Description: "Lists the node pools of the GKE clusters of a project, grouped by the resource that created them, so that terraform query can import them.",
		Attributes: map[string]listschema.Attribute{
			"project": providerdata.ListProjectAttribute(),
			"location": listschema.StringAttribute{
				Optional:    true,
				Description: `The location (region or zone) of the clusters, such as "us-central1"; every location when omitted or "-".`,
			},
			"cluster": listschema.StringAttribute{
				Optional:    true,
				Description: "The name of one cluster to list; every cluster of the location when omitted.",
			},
		},
	}
}

// poolGroup is one list result: pools of one cluster that one resource
// owns (owner != "") or a single pool without the ownership label.
type poolGroup struct {
	cluster string
	owner   string
	pools   []*container.NodePool
}

func (l *poolsList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var cfg listConfig
	diags.Append(req.Config.Get(ctx, &cfg)...)
	clients := l.clients(&diags)
	project := providerdata.ListProject(l.data, cfg.Project, &diags)
	location := cfg.Location.ValueString()
	if location == "" {
		location = "-"
	}
	var groups []poolGroup
	if !diags.HasError() {
		groups = l.groups(ctx, clients, project, location, cfg.Cluster.ValueString(), &diags)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if req.Limit > 0 && int64(len(groups)) > req.Limit {
		groups = groups[:req.Limit]
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for _, g := range groups {
			if !push(l.listResult(ctx, req, g)) {
				return
			}
		}
	}
}

// groups lists the clusters and their pools and groups the pools by owner.
func (l *poolsList) groups(ctx context.Context, clients *gcp.Clients, project, location, only string, diags *diag.Diagnostics) []poolGroup {
	clusters, err := clients.ClusterIDs(ctx, project, location)
	if err != nil {
		diags.AddError(gcp.Summary(err, "Error Listing GKE Clusters"), err.Error())
		return nil
	}
	sort.Strings(clusters)
	var groups []poolGroup
	for _, cluster := range clusters {
		if _, _, name, _ := gcp.ParseClusterID(cluster); only != "" && name != only {
			continue
		}
		ops, err := newPoolOps(ctx, l.catalog, clients, cluster)
		if err != nil {
			diags.AddError("Error Listing Node Pools", clientErrorDetail(cluster, err))
			return nil
		}
		pools, err := ops.api.List(ctx)
		if err == nil {
			err = ops.topologiesOfPolicies(ctx, pools)
		}
		if err != nil {
			diags.AddError(gcp.Summary(err, "Error Listing Node Pools"), fmt.Sprintf("Could not list the node pools of %s: %s", cluster, err))
			return nil
		}
		byOwner := map[string]int{}
		for _, name := range sortedNames(pools) {
			np := pools[name]
			owner := resourceLabels(np)[ownership.LabelKey]
			if i, ok := byOwner[owner]; ok && owner != "" {
				groups[i].pools = append(groups[i].pools, np)
				continue
			}
			byOwner[owner] = len(groups)
			groups = append(groups, poolGroup{cluster: cluster, owner: owner, pools: []*container.NodePool{np}})
		}
	}
	return groups
}

// listResult is one group: its identity and, when asked for, the state an
// import of it reads.
func (l *poolsList) listResult(ctx context.Context, req list.ListRequest, g poolGroup) list.ListResult {
	res := req.NewListResult(ctx)
	byName := map[string]*container.NodePool{}
	tiers := make([]tierModel, len(g.pools))
	for i, np := range g.pools {
		byName[np.Name] = np
		tiers[i] = nullTier()
		tiers[i].Name = types.StringValue(np.Name)
	}
	// What ImportState and the first Read make of the pools.
	class := importedClass(tiers, byName)
	cat := l.catalog
	for i, np := range g.pools {
		tiers[i] = flattenPool(ctx, cat, tiers[i], np, class, true, &res.Diagnostics)
	}
	// Tier order: TPU tiers first (the order the resource is made for),
	// then by name. The identity lists the pools in that order, so that an
	// import by it gives the tiers of the generated configuration; review
	// the order there.
	slices.SortStableFunc(tiers, func(a, b tierModel) int { return boolOrder(isTPUTier(a), isTPUTier(b)) })
	names := make([]string, len(tiers))
	for i, t := range tiers {
		names[i] = t.Name.ValueString()
	}
	res.DisplayName = displayPools(g.cluster, names)
	if g.owner != "" {
		res.DisplayName += " (" + ownership.LabelKey + " = " + g.owner + ")"
	}
	if id, ok := identityOf(ctx, g.cluster, names, &res.Diagnostics); ok {
		res.Diagnostics.Append(res.Identity.Set(ctx, id)...)
	}
	if !req.IncludeResource || res.Diagnostics.HasError() {
		return res
	}
	// The state ImportState leaves, then what the first Read sets.
	imported, ok := importedModel(ctx, resourceID(g.cluster, names), &res.Diagnostics)
	if !ok {
		return res
	}
	setImportedDefaults(&imported, tiers, byName)
	if g.owner != "" {
		imported.OwnerID = types.StringValue(g.owner)
	}
	imported.Tiers = tierList(ctx, tiers, &res.Diagnostics)
	l.setOutputs(ctx, &imported, tiers, &res.Diagnostics)
	res.Diagnostics.Append(res.Resource.Set(ctx, &imported)...)
	return res
}

func isTPUTier(t tierModel) bool { return t.AcceleratorType.ValueString() != "" }

func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

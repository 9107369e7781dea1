// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	compute "google.golang.org/api/compute/v1"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var _ list.ListResourceWithConfigure = &vmList{}

// NewListResource returns the list resource of accel_tpu_vm, for terraform
// query (Terraform 1.14 and later): the TPU VMs of a project in a zone, or in
// every zone, as import targets with their configuration.
func NewListResource(cat *catalog.Catalog, modes *validation.Modes) list.ListResource {
	return &vmList{vmResource: &vmResource{catalog: cat, modes: modes}}
}

// vmList shares the resource's name, configuration and API access.
type vmList struct {
	*vmResource
}

// nodeLister lists nodes: *gcp.TPUNodes.
type nodeLister interface {
	List(ctx context.Context, project, location string) ([]*tpu.Node, error)
}

var _ nodeLister = (*gcp.TPUNodes)(nil)

type listConfig struct {
	Project types.String `tfsdk:"project"`
	Zone    types.String `tfsdk:"zone"`
}

func (l *vmList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		Description: "Lists the TPU VMs of a project in one zone, or in every zone, so that terraform query can import them: the Cloud TPU VMs, and the instances of a TPU machine type created through Compute Engine.",
		Attributes: map[string]listschema.Attribute{
			"project": providerdata.ListProjectAttribute(),
			"zone": listschema.StringAttribute{
				Optional:    true,
				Description: `The zone to list, such as "us-central1-a"; every zone when omitted or "-".`,
			},
		},
	}
}

func (l *vmList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var cfg listConfig
	diags.Append(req.Config.Get(ctx, &cfg)...)
	project := providerdata.ListProject(l.data, cfg.Project, &diags)
	zone := cfg.Zone.ValueString()
	if zone == "" {
		zone = "-"
	}
	var nodes []*tpu.Node
	if !diags.HasError() {
		if api, ok := l.api(ctx, false, &diags).(nodeLister); ok {
			var err error
			if nodes, err = api.List(ctx, project, zone); err != nil {
				diags.AddError(gcp.Summary(err, "Error Listing TPU VMs"),
					fmt.Sprintf("Listing the TPU VMs of project %s in %s failed: %s", project, zone, err))
			}
		} else if !diags.HasError() {
			diags.AddError("Cannot List TPU VMs", "The Cloud TPU API access of this provider cannot list nodes. "+
				"Please report this issue to the provider developers.")
		}
	}
	if !diags.HasError() {
		nodes = append(nodes, l.listInstances(ctx, project, zone, &diags)...)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	if req.Limit > 0 && int64(len(nodes)) > req.Limit {
		nodes = nodes[:req.Limit]
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for _, n := range nodes {
			if !push(listResult(ctx, l.catalog, req, n)) {
				return
			}
		}
	}
}

// instanceLister lists instances: *gcp.ComputeInstances.
type instanceLister interface {
	List(ctx context.Context, project, zone string) ([]*compute.Instance, error)
}

var _ instanceLister = (*gcp.ComputeInstances)(nil)

// listInstances lists, when the provider can reach Compute Engine, the TPU
// VMs created through it (instances of a TPU machine type the catalog maps
// to an accelerator type), as nodes. A list Compute Engine refuses is a
// warning: the Cloud TPU VMs are listed all the same.
func (l *vmList) listInstances(ctx context.Context, project, zone string, diags *diag.Diagnostics) []*tpu.Node {
	if l.data == nil || l.newInstanceAPI == nil || !l.data.Live().ComputeConfigured(project) {
		return nil
	}
	var insts []*compute.Instance
	api, err := l.newInstanceAPI(ctx)
	if err == nil {
		if lister, ok := api.(instanceLister); ok {
			insts, err = lister.List(ctx, project, zone)
		}
	}
	if err != nil {
		diags.AddWarning("TPU VMs on Compute Engine Not Listed",
			fmt.Sprintf("Listing the Compute Engine instances of project %s in %s failed, so TPU VMs created through Compute "+
				"Engine (api = \"compute_engine\") are not listed: %s", project, zone, err))
		return nil
	}
	var out []*tpu.Node
	for _, inst := range insts {
		if _, ok := l.catalog.AcceleratorTypeOfMachineType(path.Base(inst.MachineType)); ok {
			out = append(out, gcp.NodeFromInstance(catalogShapes{l.catalog}, project, inst))
		}
	}
	return out
}

// listResult is one listed node: its identity and, when asked for, the
// state an import of it reads.
func listResult(ctx context.Context, cat *catalog.Catalog, req list.ListRequest, n *tpu.Node) list.ListResult {
	res := req.NewListResult(ctx)
	project, zone, name, _, err := parseVMID(n.Name)
	if err != nil {
		res.Diagnostics.AddError("Unexpected TPU VM Name", "The API listed a TPU VM whose name is not a node or instance id: "+err.Error())
		return res
	}
	res.DisplayName = fmt.Sprintf("%s (%s, %s, %s)", name, n.AcceleratorType, zone, n.State)
	res.Diagnostics.Append(res.Identity.Set(ctx, identityModel{
		Project: types.StringValue(project), Zone: types.StringValue(zone), Name: types.StringValue(name),
	})...)
	if !req.IncludeResource {
		return res
	}
	// The state ImportState leaves, then what Read makes of it.
	res.Diagnostics.Append(setImported(ctx, res.Resource, n.Name)...)
	var prior vmModel
	res.Diagnostics.Append(res.Resource.Get(ctx, &prior)...)
	if res.Diagnostics.HasError() {
		return res
	}
	m, diags := flattenNode(ctx, cat, n, prior, true)
	res.Diagnostics.Append(diags...)
	res.Diagnostics.Append(res.Resource.Set(ctx, &m)...)
	return res
}

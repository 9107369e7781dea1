// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	tpu "google.golang.org/api/tpu/v2"
	tpualpha "google.golang.org/api/tpu/v2alpha1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// A VM of several slices (Cloud TPU Multislice) is one queued resource named
// like the VM whose nodeSpec.multisliceParams asks for slice_count nodes
// with the VM's name as node id prefix: the API names them {name}-0,
// {name}-1, ... (MultisliceParams in the v2 REST reference). The VM's id
// stays projects/{project}/locations/{zone}/nodes/{name}, the name its
// import and identity use, though no node has that name.

func sliceCountAttribute(cat *catalog.Catalog) schema.Attribute {
	ms := cat.Multislice()
	return schema.Int64Attribute{
		Optional: true,
		Computed: true,
		Default:  int64default.StaticInt64(1),
		MarkdownDescription: fmt.Sprintf("Number of identical slices (Cloud TPU Multislice), each of `accelerator_type`, connected "+
			"over the data center network. Default: `1`. With %d or more, the VM is one queued resource whose slices are the nodes "+
			"`{name}-0`, `{name}-1`, ... (see `slice_nodes`), created, waited for, replaced and deleted together; this is so for "+
			"every capacity mode, `on-demand` included (a request without a tier, which waits for capacity like the others). "+
			"Multislice is offered for %s. Changing it replaces the VM.", ms.MinSlices, schemadoc.Codes(ms.Generations)),
		PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
	}
}

func sliceNodesAttribute() schema.Attribute {
	return schema.ListAttribute{
		ElementType: types.StringType,
		Computed:    true,
		MarkdownDescription: "The node id of each slice, slice 0 first: `[id]` for one slice, " +
			"`projects/{project}/locations/{zone}/nodes/{name}-{i}` for a multislice. With several slices, `state` and `health` " +
			"are those of the first slice that is not `READY` and `HEALTHY` (else slice 0's), `network_endpoints` lists the " +
			"workers of every slice, slice 0's first, and the other read-only attributes are slice 0's.",
	}
}

// sliceCount is the number of slices of m, 1 while unknown.
func sliceCount(m vmModel) int64 {
	if tfmodel.Known(m.SliceCount) && m.SliceCount.ValueInt64() > 1 {
		return m.SliceCount.ValueInt64()
	}
	return 1
}

// sliceIDs returns the node ids of the count slices of the VM whose id is id.
func sliceIDs(id string, count int64) []string {
	if count <= 1 {
		return []string{id}
	}
	project, zone, name, _, _ := parseVMID(id)
	out := make([]string, count)
	for i := range out {
		out[i] = gcp.NodeID(project, zone, fmt.Sprintf("%s-%d", name, i))
	}
	return out
}

// setSlices records in m that the VM with id id has count slices.
func setSlices(m *vmModel, id string, count int64) {
	_, _, name, _, _ := parseVMID(id)
	m.ID, m.Name = types.StringValue(id), types.StringValue(name)
	m.SliceCount = types.Int64Value(count)
	m.SliceNodes = tfmodel.StringListOrEmpty(sliceIDs(id, count))
}

// flattenSlices is flattenNode for the nodes of a VM's slices (one or more,
// slice 0 first): slice 0's settings, the state and health of the first
// slice that is not ready and healthy, and every slice's endpoints.
func flattenSlices(ctx context.Context, cat *catalog.Catalog, id string, nodes []*tpu.Node, prior vmModel, all bool) (vmModel, diag.Diagnostics) {
	m, diags := flattenNode(ctx, cat, nodes[0], prior, all)
	setSlices(&m, id, int64(len(nodes)))
	if len(nodes) == 1 {
		return m, diags
	}
	var eps []*tpu.NetworkEndpoint
	for _, n := range nodes {
		eps = append(eps, n.NetworkEndpoints...)
	}
	m.NetworkEndpoints = flattenEndpoints(eps, &diags)
	for _, n := range nodes {
		if n.State != "READY" || n.Health != "HEALTHY" {
			m.State, m.Health, m.HealthDescription = types.StringValue(n.State), types.StringValue(n.Health), types.StringValue(n.HealthDescription)
			break
		}
	}
	return m, diags
}

// readSlices reads the nodes ids with read (nodeAPI.Get, or Read in a
// refresh); a node not found is nil.
func readSlices(ctx context.Context, read func(ctx context.Context, id string) (*tpu.Node, error), ids []string) ([]*tpu.Node, error) {
	out := make([]*tpu.Node, len(ids))
	for i, id := range ids {
		n, err := read(ctx, id)
		switch {
		case err == nil:
			out[i] = n
		case gcp.Classify(err) != gcp.ClassNotFound:
			return nil, fmt.Errorf("reading TPU VM %s: %w", id, err)
		}
	}
	return out, nil
}

// allOf reports whether every node is there and belongs to the queued
// resource qr.
func allOf(nodes []*tpu.Node, qr string) bool {
	return len(nodes) > 0 && !slices.ContainsFunc(nodes, func(n *tpu.Node) bool { return n == nil || n.QueuedResource != qr })
}

// queuedSliceCount is the number of slices a queued resource asks for.
func queuedSliceCount(qr *tpualpha.QueuedResource) int64 {
	if qr.Tpu != nil && len(qr.Tpu.NodeSpec) == 1 && qr.Tpu.NodeSpec[0] != nil && qr.Tpu.NodeSpec[0].MultiNodeParams != nil {
		if c := qr.Tpu.NodeSpec[0].MultiNodeParams.NodeCount; c > 1 {
			return c
		}
	}
	return 1
}

// requestedNodes are the nodes a queued resource that has none yet will
// create, as its node spec describes them, named after the slices of id.
func requestedNodes(qr *tpualpha.QueuedResource, id string) ([]*tpu.Node, error) {
	if qr.Tpu == nil || len(qr.Tpu.NodeSpec) != 1 || qr.Tpu.NodeSpec[0] == nil || qr.Tpu.NodeSpec[0].Node == nil {
		return nil, fmt.Errorf("queued resource %s has no single node spec", qr.Name)
	}
	b, err := json.Marshal(qr.Tpu.NodeSpec[0].Node)
	if err != nil {
		return nil, fmt.Errorf("reading the node spec of queued resource %s: %w", qr.Name, err)
	}
	ids := sliceIDs(id, queuedSliceCount(qr))
	out := make([]*tpu.Node, len(ids))
	for i, sid := range ids {
		var n tpu.Node
		if err := json.Unmarshal(b, &n); err != nil {
			return nil, fmt.Errorf("reading the node spec of queued resource %s: %w", qr.Name, err)
		}
		n.Name = sid
		out[i] = &n
	}
	return out, nil
}

// specNodes are the nodes spec creates in zone, before they exist.
func specNodes(spec createSpec, zone string) []*tpu.Node {
	ids := sliceIDs(spec.nodeID(zone), spec.slices)
	out := make([]*tpu.Node, len(ids))
	for i, id := range ids {
		n := *spec.node
		n.Name = id
		out[i] = &n
	}
	return out
}

// importedQueuedResource is the queued resource an import of node id id
// looks for: the node's own, or, with no node of that name, the queued
// resource of that name (a multislice VM, or a request still waiting).
func importedQueuedResource(ctx context.Context, api nodeAPI, id string) (string, bool) {
	n, err := api.Get(ctx, id)
	switch {
	case err == nil:
		return n.QueuedResource, n.QueuedResource != ""
	case gcp.Classify(err) == gcp.ClassNotFound:
		project, zone, name, perr := gcp.ParseNodeID(id)
		return queuedName(project, zone, name), perr == nil
	}
	return "", false
}

// planSlices checks slice_count against the catalog and plans slice_nodes
// and, for a new or replaced VM, whether it has a queued resource (every
// multislice does). Called from ModifyPlan after planCapacity.
func (r *vmResource) planSlices(ctx context.Context, plan *vmModel, state *vmModel, resp *resource.ModifyPlanResponse) {
	if tfmodel.Known(plan.SliceCount) && !plan.Validation.IsUnknown() {
		gen := ""
		if tfmodel.Known(plan.Generation) {
			gen = plan.Generation.ValueString()
		}
		validation.Append(&resp.Diagnostics, path.Empty(), r.catalog.CheckSliceCount(gen, plan.SliceCount.ValueInt64()), r.modes.For(plan.Validation))
	}
	replaced := state == nil || len(resp.RequiresReplace) > 0
	switch {
	case !replaced && tfmodel.Known(state.SliceNodes):
		plan.SliceNodes = state.SliceNodes
	case tfmodel.Known(plan.SliceCount) && tfmodel.Known(plan.Project) && tfmodel.Known(plan.Zone) && tfmodel.Known(plan.Name) && tfmodel.Known(plan.API):
		plan.SliceNodes = tfmodel.StringListOrEmpty(sliceIDs(vmID(plan.Project.ValueString(), plan.Zone.ValueString(), plan.Name.ValueString(),
			plan.API.ValueString() == apiComputeEngine), sliceCount(*plan)))
	default:
		plan.SliceNodes = types.ListUnknown(types.StringType)
	}
	if !replaced {
		return
	}
	c, ok := capacityOf(ctx, *plan, &resp.Diagnostics)
	switch {
	case !ok || !tfmodel.Known(plan.SliceCount) || c.queued(r.catalog) || sliceCount(*plan) > 1:
		plan.QueuedResource, plan.QueuedResourceState = types.StringUnknown(), types.StringUnknown()
	default:
		plan.QueuedResource, plan.QueuedResourceState = types.StringNull(), types.StringNull()
	}
}

// updateSlices is Update for a VM created through a queued resource (one
// slice or several): the settings updated in place are patched on every
// slice, and the capacity block takes the plan's spelling. It reports
// whether it handled the update.
func (r *vmResource) updateSlices(ctx context.Context, api nodeAPI, plan, state vmModel, resp *resource.UpdateResponse) bool {
	if state.QueuedResource.IsNull() && sliceCount(state) == 1 {
		return false
	}
	var newState vmModel
	if r.patchSlices(ctx, api, plan, state, &newState, &resp.Diagnostics) {
		resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &newState)...)
	}
	return true
}

// patchSlices takes each slice of the VM from was (what state records, or
// what its queued request asked for) to plan, and sets newState from the
// slices read back. It reports whether every slice was updated and read.
func (r *vmResource) patchSlices(ctx context.Context, api nodeAPI, plan, was vmModel, newState *vmModel, diags *diag.Diagnostics) bool {
	id := was.ID.ValueString()
	ids := sliceIDs(id, sliceCount(was))
	nodes := make([]*tpu.Node, len(ids))
	for i, sid := range ids {
		current, err := api.Get(ctx, sid)
		if err != nil {
			diags.AddError("Error Updating TPU VM", fmt.Sprintf("Reading TPU VM %s before updating it failed: %s", sid, err))
			return false
		}
		if !ownership.Owns(ownerOf(ctx, was), current.Labels) {
			diags.AddError("TPU VM Not Created by This Resource",
				fmt.Sprintf("TPU VM %s was not updated: the VM of that name %s. Nothing was changed; the next refresh removes it from the state.",
					sid, ownership.Describe(current.Labels)))
			return false
		}
		patch, mask, d := patchFor(ctx, current, was, plan)
		diags.Append(d...)
		if diags.HasError() {
			return false
		}
		if len(mask) > 0 {
			tflog.Info(ctx, "updating TPU VM slice", map[string]any{"id": sid, "update_mask": mask})
			op, err := api.Patch(ctx, sid, strings.Join(mask, ","), patch)
			if err == nil {
				_, err = api.Wait(ctx, op)
			}
			if err == nil {
				current, err = api.Get(ctx, sid)
			}
			if err != nil {
				diags.AddError("Error Updating TPU VM", fmt.Sprintf("Updating %s of TPU VM %s failed: %s", strings.Join(mask, ", "), sid, err))
				return false
			}
		}
		nodes[i] = current
	}
	m, d := flattenSlices(ctx, r.catalog, id, nodes, plan, false)
	diags.Append(d...)
	m.SchedulingConfig = plan.SchedulingConfig
	*newState = m
	return !diags.HasError()
}

// sameCapacity reports whether two capacity blocks ask for the same thing:
// equal, or equal but for how their durations are spelled ("2h" and
// "2h0m0s"), as an import reads them back.
func sameCapacity(a, b types.Object) bool {
	if a.Equal(b) {
		return true
	}
	if !tfmodel.Known(a) || !tfmodel.Known(b) {
		return false
	}
	x, y := a.Attributes(), b.Attributes()
	for k, v := range x {
		if v.Equal(y[k]) {
			continue
		}
		if k != catalog.AttrMaxWait && k != catalog.AttrMaxRunDuration {
			return false
		}
		if !sameDuration(v, y[k]) {
			return false
		}
	}
	return len(x) == len(y)
}

func sameDuration(a, b attr.Value) bool {
	s, ok1 := a.(types.String)
	t, ok2 := b.(types.String)
	if !ok1 || !ok2 || !tfmodel.Known(s) || !tfmodel.Known(t) {
		return false
	}
	d, err1 := time.ParseDuration(s.ValueString())
	e, err2 := time.ParseDuration(t.ValueString())
	return err1 == nil && err2 == nil && d == e
}

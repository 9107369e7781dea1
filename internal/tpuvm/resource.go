// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package tpuvm implements the accel_tpu_vm resource: a Cloud TPU VM (TPU
// v2 API) validated at plan time against the compatibility catalog and
// created in the first zone of an ordered list that has capacity.
package tpuvm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var (
	_ resource.Resource                   = &vmResource{}
	_ resource.ResourceWithConfigure      = &vmResource{}
	_ resource.ResourceWithImportState    = &vmResource{}
	_ resource.ResourceWithModifyPlan     = &vmResource{}
	_ resource.ResourceWithValidateConfig = &vmResource{}
)

// privateReplacing is the planned-private key in which the plan of an
// existing VM names it: when Terraform replaces the VM (tainted, -replace
// or a change that forces it), it plans the new VM again with no prior
// state but with this private data, and that plan must not report the VM
// being replaced as one of the same name.
const privateReplacing = "replacing"

// NewResource returns the accel_tpu_vm resource. modes carries the
// provider-level validation mode.
func NewResource(cat *catalog.Catalog, modes *validation.Modes) resource.Resource {
	return &vmResource{catalog: cat, modes: modes}
}

type vmResource struct {
	// catalog is the compatibility catalog the checks use.
	catalog *catalog.Catalog
	modes   *validation.Modes
	data    *providerdata.Data
	// newAPI builds the Cloud TPU API access; replaced in tests.
	newAPI func(ctx context.Context) (nodeAPI, error)
	// newInstanceAPI builds the Compute Engine instances access; replaced
	// in tests.
	newInstanceAPI func(ctx context.Context) (gcp.InstanceAPI, error)
	// newQueuedAPI builds the queued-resources access; nil: the provider's clients.
	newQueuedAPI func(ctx context.Context) (queuedAPI, error)
}

func (r *vmResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_tpu_vm"
}

func (r *vmResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	d := providerdata.From(req.ProviderData, &resp.Diagnostics)
	if d == nil {
		return
	}
	r.data = d
	if r.newAPI == nil {
		r.newAPI = func(ctx context.Context) (nodeAPI, error) { return d.Clients.TPUNodes(ctx) }
	}
	if r.newInstanceAPI == nil {
		r.newInstanceAPI = func(ctx context.Context) (gcp.InstanceAPI, error) { return d.Clients.ComputeInstances(ctx) }
	}
}

// providerUnknown reports whether a provider argument is unknown until apply.
func (r *vmResource) providerUnknown(attr string) bool {
	return r.data != nil && slices.Contains(r.data.Unknown, attr)
}

// api returns the access to the VMs of the Cloud TPU API, or of Compute
// Engine when instance is set, or adds a diagnostic.
func (r *vmResource) api(ctx context.Context, instance bool, diags *diag.Diagnostics) nodeAPI {
	a, err := r.nodeAPIFor(ctx, instance)
	switch {
	case errors.Is(err, errNotConfigured):
		diags.AddError("Provider Not Configured",
			"The accel provider was not configured before accel_tpu_vm was used. Please report this issue to the provider developers.")
	case err != nil && instance:
		diags.AddError("Cannot Reach the Compute Engine API", err.Error())
	case err != nil:
		diags.AddError("Cannot Reach the Cloud TPU API", err.Error())
	}
	if err != nil {
		return nil
	}
	return a
}

var errNotConfigured = errors.New("provider not configured")

// nodeAPIFor builds the access to the VMs of one API: the Cloud TPU API, or
// Compute Engine's instances presented as nodes (gcp.InstanceNodes).
func (r *vmResource) nodeAPIFor(ctx context.Context, instance bool) (nodeAPI, error) {
	switch {
	case r.data == nil:
		return nil, errNotConfigured
	case !instance && r.newAPI != nil:
		a, err := r.newAPI(ctx)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return a, nil
	case !instance || r.newInstanceAPI == nil:
		return nil, errNotConfigured
	}
	ia, err := r.newInstanceAPI(ctx)
	if err != nil {
		return nil, err
	}
	return gcp.NewInstanceNodes(ia, catalogShapes{r.catalog}), nil
}

func (r *vmResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer syncIdentity(ctx, &resp.State, nil, resp.Identity, &resp.Diagnostics)
	var cfg, plan vmModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	r.checkAtApply(ctx, cfg, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	zones, ok := listStrings(plan.Zones)
	if !ok || len(zones) == 0 || !tfmodel.Known(plan.Project) || plan.Project.ValueString() == "" {
		resp.Diagnostics.AddError("Missing Project or Zones",
			"The project and the zones of the TPU VM must be known to create it; set project and zones on the resource or on the provider.")
	}
	node, diags := expandNode(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	instance := plan.API.ValueString() == apiComputeEngine
	api := r.api(ctx, instance, &resp.Diagnostics)
	if api == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	node.Labels[ownerLabelKey] = ownership.NewID()
	spec := createSpec{project: plan.Project.ValueString(), name: plan.Name.ValueString(), zones: zones, node: node,
		slices: sliceCount(plan), instance: instance}
	if c, _ := capacityOf(ctx, plan, &resp.Diagnostics); !instance && (c.queued(r.catalog) || spec.slices > 1) {
		r.createQueuedVM(ctx, api, spec, c, plan, resp)
		return
	}
	tflog.Info(ctx, "creating TPU VM", map[string]any{
		"name": spec.name, "project": spec.project, "zones": zones,
		"accelerator_type": node.AcceleratorType, "runtime_version": node.RuntimeVersion, "timeout": timeout.String(),
	})
	out := createNode(ctx, api, spec)
	r.reportCreate(ctx, spec, out, plan, resp)
}

// reportCreate turns a create outcome into state and diagnostics.
func (r *vmResource) reportCreate(ctx context.Context, spec createSpec, out createOutcome, plan vmModel, resp *resource.CreateResponse) {
	if out.node != nil {
		state, diags := flattenNode(ctx, r.catalog, out.node, plan, false)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &state)...)
	}
	tried := attemptLines(out.attempts)
	switch {
	case out.err != nil:
		r.createError(spec, out, tried, resp)
	case out.interrupted:
		resp.Diagnostics.AddWarning("TPU VM Creation Interrupted",
			fmt.Sprintf("Terraform was interrupted while TPU VM %s was being created. It is recorded in the state as it is now (state %s), "+
				"so nothing is lost or created twice: the next plan refreshes it, and the next apply continues from it.",
				out.node.Name, stateOrUnknown(out.node)))
	}
	for _, n := range out.elsewhere {
		addElsewhere(&resp.Diagnostics, n)
	}
	switch {
	case out.err != nil || out.interrupted:
	case len(out.attempts) > 1:
		resp.Diagnostics.AddAttributeWarning(path.Root("zones"), "TPU VM Created in a Fallback Zone",
			fmt.Sprintf("TPU VM %s was created in %s after other zones failed:\n%s", out.node.Name, zoneOf(out.node.Name), tried))
	}
}

func (r *vmResource) createError(spec createSpec, out createOutcome, tried string, resp *resource.CreateResponse) {
	var noCap *noCapacityError
	var taken *nameTakenError
	switch {
	case errors.As(out.err, &noCap) && noCap.temporary():
		resp.Diagnostics.AddAttributeError(path.Root("zones"), "No Zone Could Create the TPU VM",
			fmt.Sprintf("TPU VM %q (%s) could not be created in any zone of zones, and nothing was left behind. Some zones "+
				"failed with an error Google reports as temporary (UNAVAILABLE), tried %d times each within the "+
				"create timeout:\n%s\n\nApply again later, or add zones that offer %s to zones.",
				spec.name, spec.node.AcceleratorType, transientRounds, tried, spec.node.AcceleratorType))
	case errors.As(out.err, &noCap):
		resp.Diagnostics.AddAttributeError(path.Root("zones"), "No Zone Had Capacity for the TPU VM",
			fmt.Sprintf("TPU VM %q (%s) could not be created in any zone of zones, and nothing was left behind:\n%s\n\n"+
				"Add zones that offer %s to zones, use a smaller accelerator_type, try spot or reserved capacity, or apply again later.",
				spec.name, spec.node.AcceleratorType, tried, spec.node.AcceleratorType))
	case errors.As(out.err, &taken):
		addNameTaken(&resp.Diagnostics, taken)
	case gcp.Classify(out.err) == gcp.ClassDeadline || errors.Is(out.err, context.DeadlineExceeded):
		detail := fmt.Sprintf("TPU VM %q was not ready within the create timeout: %s", spec.name, out.err)
		if out.node != nil {
			detail += "\n\nThe VM is recorded in the state (state " + stateOrUnknown(out.node) + ") and marked tainted: the next apply replaces it. " +
				"Raise timeouts.create to wait longer."
		}
		if tried != "" {
			detail += "\n\nZones:\n" + tried
		}
		resp.Diagnostics.AddError("Timeout Creating TPU VM", detail)
	default:
		detail := fmt.Sprintf("TPU VM %q could not be created: %s", spec.name, out.err)
		if out.node != nil {
			detail += "\n\nThe VM is recorded in the state and marked tainted: the next apply deletes and re-creates it."
		}
		if tried != "" {
			detail += "\n\nZones:\n" + tried
		}
		resp.Diagnostics.AddError("Error Creating TPU VM", detail)
	}
}

// stateOrUnknown is the state of n for diagnostics: "unknown" for a node
// recorded by its id alone because it could not be read.
func stateOrUnknown(n *tpu.Node) string {
	if n.State == "" {
		return "unknown"
	}
	return n.State
}

// attemptLines lists attempts one per line, for diagnostics.
func attemptLines(attempts []attempt) string {
	lines := make([]string, len(attempts))
	for i, a := range attempts {
		lines[i] = "  - " + a.String()
	}
	return strings.Join(lines, "\n")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (r *vmResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer syncIdentity(ctx, &resp.State, &req.State, resp.Identity, &resp.Diagnostics)
	var state vmModel
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	imported, diags := tfmodel.Imported(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	id := state.ID.ValueString()
	instance := isInstanceID(id)
	api := r.api(ctx, instance, &resp.Diagnostics)
	if api == nil {
		return
	}
	if !instance && r.readQueued(ctx, api, state, imported, resp) {
		return
	}
	n, err := api.Read(ctx, id)
	if imported && !instance && gcp.Classify(err) == gcp.ClassNotFound {
		n, err = r.importedInstance(ctx, id, err)
	}
	if gcp.Classify(err) == gcp.ClassNotFound {
		tflog.Warn(ctx, "TPU VM not found; removing it from the state", map[string]any{"id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError(gcp.Summary(err, "Error Reading TPU VM"), fmt.Sprintf("Reading TPU VM %s failed: %s", id, err))
		return
	}
	if !imported && !ownership.Owns(ownerOf(ctx, state), n.Labels) {
		resp.Diagnostics.AddWarning("TPU VM Replaced Outside Terraform",
			fmt.Sprintf("TPU VM %s is no longer the VM this resource created: the VM of that name %s. It is removed from the "+
				"state and never changed or deleted by this resource.", id, ownership.Describe(n.Labels)))
		resp.State.RemoveResource(ctx)
		return
	}
	newState, diags := flattenNode(ctx, r.catalog, n, state, imported)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &newState)...)
	if imported {
		resp.Diagnostics.Append(tfmodel.ClearImported(ctx, resp.Private)...)
	}
}

func (r *vmResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer syncIdentity(ctx, &resp.State, nil, resp.Identity, &resp.Diagnostics)
	var cfg, plan, state vmModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(tfmodel.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	r.checkAtApply(ctx, cfg, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateReplacing, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateProtected, nil)...)
	if stateOnlyUpdate(plan, state) {
		// Only deletion_protection changes: nothing to ask the API.
		state.DeletionProtection = plan.DeletionProtection
		resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &state)...)
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	instance := isInstanceID(id)
	api := r.api(ctx, instance, &resp.Diagnostics)
	if api == nil {
		return
	}
	if !instance && r.updateQueued(ctx, api, req, plan, state, resp) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !instance && r.updateSlices(ctx, api, plan, state, resp) {
		return
	}

	current, err := api.Get(ctx, id)
	if err != nil {
		resp.Diagnostics.AddError("Error Updating TPU VM", fmt.Sprintf("Reading TPU VM %s before updating it failed: %s", id, err))
		return
	}
	if !ownership.Owns(ownerOf(ctx, state), current.Labels) {
		resp.Diagnostics.AddError("TPU VM Not Created by This Resource",
			fmt.Sprintf("TPU VM %s was not updated: the VM of that name %s. Nothing was changed; the next refresh removes it from the state.",
				id, ownership.Describe(current.Labels)))
		return
	}
	patch, mask, diags := patchFor(ctx, current, state, plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(mask) > 0 {
		tflog.Info(ctx, "updating TPU VM", map[string]any{"id": id, "update_mask": mask})
		op, err := api.Patch(ctx, id, strings.Join(mask, ","), patch)
		if err == nil {
			_, err = api.Wait(ctx, op)
		}
		if err != nil {
			resp.Diagnostics.AddError("Error Updating TPU VM",
				fmt.Sprintf("Updating %s of TPU VM %s failed: %s", strings.Join(mask, ", "), id, err))
			return
		}
		if current, err = api.Get(ctx, id); err != nil {
			resp.Diagnostics.AddError("Error Reading TPU VM", fmt.Sprintf("Reading TPU VM %s after updating it failed: %s", id, err))
			return
		}
	}
	newState, diags := flattenNode(ctx, r.catalog, current, plan, false)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &newState)...)
}

// patchFor returns the patch body and update mask that take the node from
// state to plan (external IPs: from the node's current setting), for the fields the API updates in place (nodes.patch
// updateMask: description, tags, labels, metadata and
// network_config.enable_external_ips, per the v2 REST reference). labels and
// metadata are merged into the node's current maps, so keys set outside
// Terraform are kept.
func patchFor(ctx context.Context, current *tpu.Node, state, plan vmModel) (*tpu.Node, []string, diag.Diagnostics) {
	var diags diag.Diagnostics
	patch := &tpu.Node{}
	var mask []string
	if !plan.Description.Equal(state.Description) {
		patch.Description = plan.Description.ValueString()
		patch.ForceSendFields = append(patch.ForceSendFields, "Description")
		mask = append(mask, "description")
	}
	if !plan.Tags.Equal(state.Tags) {
		if tfmodel.Known(plan.Tags) {
			diags.Append(tfmodel.ElementsAs(ctx, plan.Tags, &patch.Tags)...)
		}
		patch.ForceSendFields = append(patch.ForceSendFields, "Tags")
		mask = append(mask, "tags")
	}
	if !plan.TerraformLabels.Equal(state.TerraformLabels) {
		patch.Labels = merged(ctx, current.Labels, state.TerraformLabels, plan.TerraformLabels, &diags)
		patch.ForceSendFields = append(patch.ForceSendFields, "Labels")
		mask = append(mask, "labels")
	}
	if !plan.Metadata.Equal(state.Metadata) {
		patch.Metadata = merged(ctx, current.Metadata, state.Metadata, plan.Metadata, &diags)
		patch.ForceSendFields = append(patch.ForceSendFields, "Metadata")
		mask = append(mask, "metadata")
	}
	planIPs := wantExternalIPs(plan)
	if planIPs != nil && (current.NetworkConfig == nil || *planIPs != current.NetworkConfig.EnableExternalIps) {
		patch.NetworkConfig = &tpu.NetworkConfig{EnableExternalIps: *planIPs, ForceSendFields: []string{"EnableExternalIps"}}
		mask = append(mask, "networkConfig.enableExternalIps")
	}
	return patch, mask, diags
}

// merged returns current without the keys state managed and plan drops,
// with plan's entries set.
func merged(ctx context.Context, current map[string]string, state, plan types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	for k, v := range current {
		out[k] = v
	}
	var old, want map[string]string
	if tfmodel.Known(state) {
		diags.Append(tfmodel.MapAs(ctx, state, &old)...)
	}
	if tfmodel.Known(plan) {
		diags.Append(tfmodel.MapAs(ctx, plan, &want)...)
	}
	for k := range old {
		if _, keep := want[k]; !keep {
			delete(out, k)
		}
	}
	for k, v := range want {
		out[k] = v
	}
	return out
}

// wantExternalIPs returns the enable_external_ips a planned network_config
// asks for: false when the block is absent, nil when unknown, and nil for
// the interfaces of network_configs, which are never changed in place.
func wantExternalIPs(m vmModel) *bool {
	if usesInterfaces(m) {
		return nil
	}
	if m.NetworkConfig.IsNull() {
		off := false
		return &off
	}
	return externalIPs(m.NetworkConfig)
}

// externalIPs returns enable_external_ips of a network settings object
// (network_config or effective_network_config) when known.
func externalIPs(o types.Object) *bool {
	if !tfmodel.Known(o) {
		return nil
	}
	b, ok := o.Attributes()["enable_external_ips"].(types.Bool)
	if !ok || !tfmodel.Known(b) {
		return nil
	}
	v := b.ValueBool()
	return &v
}

func (r *vmResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state vmModel
	resp.Diagnostics.Append(tfmodel.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.DeletionProtection.ValueBool() {
		// A plan saved before the protection was set, or one that did not
		// run ModifyPlan's check: nothing is deleted.
		addProtected(&resp.Diagnostics, state.ID.ValueString(), "this apply")
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	instance := isInstanceID(id)
	api := r.api(ctx, instance, &resp.Diagnostics)
	if api == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !instance && r.deleteQueuedVM(ctx, api, state, resp) {
		return
	}
	n, err := api.Get(ctx, id)
	switch {
	case gcp.Classify(err) == gcp.ClassNotFound:
		return
	case err != nil:
		resp.Diagnostics.AddError("Error Deleting TPU VM", fmt.Sprintf("Reading TPU VM %s before deleting it failed: %s\n\nNothing was deleted; run terraform destroy again.", id, err))
		return
	case !ownership.Owns(ownerOf(ctx, state), n.Labels):
		resp.Diagnostics.AddWarning("TPU VM Not Deleted",
			fmt.Sprintf("TPU VM %s was not deleted: the VM of that name %s. It is left as it is.", id, ownership.Describe(n.Labels)))
		return
	}
	tflog.Info(ctx, "deleting TPU VM", map[string]any{"id": id})
	if err := deleteNode(ctx, api, id); err != nil {
		resp.Diagnostics.AddError("Error Deleting TPU VM", fmt.Sprintf("Deleting TPU VM %s failed: %s", id, err))
	}
}

// importedInstance reads, for an import by a short id or an identity (which
// name a node) that found no node, the Compute Engine instance of the same
// project, zone and name. notFound is returned when there is none either, or
// when Compute Engine cannot be reached.
func (r *vmResource) importedInstance(ctx context.Context, nodeID string, notFound error) (*tpu.Node, error) {
	project, zone, name, err := gcp.ParseNodeID(nodeID)
	if err != nil || r.data == nil || !r.data.Live().ComputeConfigured(project) {
		return nil, notFound
	}
	api, err := r.nodeAPIFor(ctx, true)
	if err != nil {
		return nil, notFound
	}
	n, err := api.Get(ctx, vmID(project, zone, name, true))
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil, notFound
	}
	return n, err
}

// ownerOf returns the owner id recorded in state: the ownership label in
// effective_labels, "" for a VM imported without one.
func ownerOf(ctx context.Context, state vmModel) string {
	if !tfmodel.Known(state.EffectiveLabels) {
		return ""
	}
	var labels map[string]string
	if diags := tfmodel.MapAs(ctx, state.EffectiveLabels, &labels); diags.HasError() {
		// A map of strings by schema: cannot fail. Were it to, no owner
		// id means no VM is this resource's, so nothing is touched.
		return ""
	}
	return labels[ownerLabelKey]
}

func (r *vmResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" { // an import block with identity instead of id
		req.ID = importIDFromIdentity(ctx, req.Identity, &resp.Diagnostics)
	}
	project := ""
	if r.data != nil {
		project = r.data.Project()
	}
	id, err := parseImportID(req.ID, project)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", err.Error())
		return
	}
	resp.Diagnostics.Append(setImported(ctx, &resp.State, id)...)
	resp.Diagnostics.Append(tfmodel.MarkImported(ctx, resp.Private)...)
}

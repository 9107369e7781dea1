// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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

// queuedAPI is the part of the Cloud TPU API's queued resources the resource
// uses: *gcp.TPUQueued, or a fake in tests.
type queuedAPI interface {
	Create(ctx context.Context, parent, id string, qr *tpu.QueuedResource, flexStartRun time.Duration) (*tpu.Operation, error)
	Get(ctx context.Context, name string) (*tpualpha.QueuedResource, error)
	Delete(ctx context.Context, name string, force bool) (*tpu.Operation, error)
	Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error)
	// WaitActive reads the queued resource until it leaves the pending states.
	WaitActive(ctx context.Context, name string, last *tpualpha.QueuedResource) (*tpualpha.QueuedResource, error)
}

var _ queuedAPI = (*gcp.TPUQueued)(nil)

// capacityModel is the capacity block.
type capacityModel struct {
	Mode           types.String `tfsdk:"mode"`
	Reservation    types.String `tfsdk:"reservation"`
	MaxWait        types.String `tfsdk:"max_wait"`
	MaxRunDuration types.String `tfsdk:"max_run_duration"`
}

// capacityBlock is the schema of the capacity block.
func capacityBlock(cat *catalog.Catalog) schema.Block {
	var modes []string
	for _, n := range cat.CapacityModeNames() {
		m, _ := cat.CapacityMode(n)
		modes = append(modes, "`"+n+"`: "+m.Summary)
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "How the VM gets its TPU capacity. Without the block: `on-demand`. The queued modes create the VM " +
			"through a Cloud TPU queued resource and wait, within the create timeout, until it is `ACTIVE`; a request still " +
			"waiting at the timeout is kept in the state and the next apply waits on. Changing the block replaces the VM. " +
			"Modes:\n\n  - " + strings.Join(modes, "\n  - ") + "\n",
		Attributes: map[string]schema.Attribute{
			"mode": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "One of " + schemadoc.Codes(cat.CapacityModeNames()) + ". Default: `on-demand`.",
				Validators:          []validator.String{stringvalidator.OneOf(cat.CapacityModeNames()...)},
			},
			"reservation": schema.StringAttribute{
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				MarkdownDescription: "With mode `reserved`: the reservation's name, or its full name " +
					"`projects/{project}/locations/{zone}/reservations/{name}`. A name alone is looked up in the VM's project and zone.",
			},
			"max_wait": schema.StringAttribute{
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				MarkdownDescription: "With a queued mode: how long the request may wait for capacity (the queued resource's " +
					"`validUntilDuration`), as a Go duration such as `\"6h\"`. A request not served by then fails, and the next zone of " +
					"`zones` is tried. Default: no limit (the request waits until the create timeout, and after it, until served).",
			},
			"max_run_duration": schema.StringAttribute{
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				MarkdownDescription: fmt.Sprintf("With mode `flex-start` (required there): how long the VM may run once created, "+
					"at most `%dh` (7 days), as a Go duration such as `\"24h\"`. Then Google deletes it and the next plan replaces it.",
					cat.FlexStart().MaxRunHours),
			},
		},
	}
}

func queuedResourceAttribute() schema.Attribute {
	return schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "The queued resource the VM was created through " +
			"(`projects/{project}/locations/{zone}/queuedResources/{name}`); null for `on-demand`.",
	}
}

func queuedResourceStateAttribute() schema.Attribute {
	return schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "State of the queued resource: `WAITING_FOR_RESOURCES` or `PROVISIONING` while it waits " +
			"(the next apply waits on), `ACTIVE` once the VM exists, `FAILED` (for example `max_wait` passed) or `SUSPENDED` " +
			"(the VM was preempted, deleted or reached its run duration), which the next plan replaces. Null for `on-demand`.",
	}
}

// capacityOf reads the capacity block; a missing block is on-demand.
func capacityOf(ctx context.Context, m vmModel, diags *diag.Diagnostics) (capacityModel, bool) {
	c := capacityModel{Mode: types.StringValue(catalog.CapacityOnDemand)}
	if m.Capacity.IsUnknown() {
		return c, false
	}
	if m.Capacity.IsNull() {
		return c, true
	}
	diags.Append(tfmodel.As(ctx, m.Capacity, &c, tfmodel.LenientObjectAsOptions)...)
	if c.Mode.IsNull() {
		c.Mode = types.StringValue(catalog.CapacityOnDemand)
	}
	for _, v := range []types.String{c.Mode, c.Reservation, c.MaxWait, c.MaxRunDuration} {
		if v.IsUnknown() {
			return c, false
		}
	}
	return c, true
}

// queued reports whether the capacity mode creates through a queued resource.
func (c capacityModel) queued(cat *catalog.Catalog) bool {
	m, ok := cat.CapacityMode(c.Mode.ValueString())
	return ok && m.Queued
}

// pendingOrEnded are the queued resource states the plan reacts to.
var queuedEnded = []string{gcp.QueuedFailed, gcp.QueuedSuspending, gcp.QueuedSuspended}

// planCapacity checks the capacity block against the catalog and plans the
// queued resource's attributes: unknown for a new queued VM, the next
// apply's wait for one still waiting, and the replacement of one that
// failed or was suspended. Called from ModifyPlan.
func (r *vmResource) planCapacity(ctx context.Context, cfg vmModel, plan *vmModel, state *vmModel, resp *resource.ModifyPlanResponse) {
	c, ok := capacityOf(ctx, *plan, &resp.Diagnostics)
	if ok {
		gen := ""
		if tfmodel.Known(plan.Generation) {
			gen = plan.Generation.ValueString()
		}
		fs := r.catalog.CheckCapacity(catalog.CapacityRequest{
			Mode: c.Mode.ValueString(), Generation: gen, Reservation: c.Reservation.ValueString(),
			MaxWait: c.MaxWait.ValueString(), MaxRunDuration: c.MaxRunDuration.ValueString(),
		})
		validation.Append(&resp.Diagnostics, path.Root("capacity"), fs, r.modes.Strict())
		if zones, ok := listStrings(plan.Zones); ok && gen != "" && c.Mode.ValueString() == catalog.CapacityFlexStart {
			validation.Append(&resp.Diagnostics, path.Empty(), r.catalog.FlexStartZones(gen, zones), r.modes.Strict())
		}
		if c.queued(r.catalog) && anyFlagSet(cfg.SchedulingConfig) {
			resp.Diagnostics.AddAttributeError(path.Root("scheduling_config"), "Scheduling Config With a Queued Capacity Mode",
				fmt.Sprintf("capacity mode %q sets how the VM is scheduled; scheduling_config is for mode \"on-demand\" only. Remove scheduling_config.",
					c.Mode.ValueString()))
		}
	}
	if state == nil {
		switch {
		case !ok:
			plan.QueuedResource, plan.QueuedResourceState = types.StringUnknown(), types.StringUnknown()
		case c.queued(r.catalog):
			plan.QueuedResource, plan.QueuedResourceState = types.StringUnknown(), types.StringUnknown()
		default:
			plan.QueuedResource, plan.QueuedResourceState = types.StringNull(), types.StringNull()
		}
		return
	}
	plan.QueuedResource, plan.QueuedResourceState = state.QueuedResource, state.QueuedResourceState
	if !sameCapacity(plan.Capacity, state.Capacity) {
		resp.RequiresReplace.Append(path.Root("capacity"))
		plan.QueuedResource, plan.QueuedResourceState = types.StringUnknown(), types.StringUnknown()
		return
	}
	qrState := state.QueuedResourceState.ValueString()
	switch {
	case state.QueuedResource.IsNull() || qrState == gcp.QueuedActive:
	case gcp.QueuedPending(qrState):
		// The next apply waits for the request (Update).
		plan.QueuedResourceState = types.StringUnknown()
		plan.State, plan.Health, plan.HealthDescription = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		plan.NetworkEndpoints = types.ListUnknown(schemaTypes().networkEndpoint)
		plan.CreateTime = types.StringUnknown()
		plan.EffectiveNetwork = types.ObjectUnknown(schemaTypes().networkConfig.AttrTypes)
		plan.EffectiveSA = types.ObjectUnknown(schemaTypes().serviceAccount.AttrTypes)
		plan.CIDRBlock = types.StringUnknown()
		resp.Diagnostics.AddAttributeWarning(path.Root("queued_resource_state"), "TPU VM Still Waiting for Capacity",
			fmt.Sprintf("Queued resource %s is %s: this apply waits on for it, up to timeouts.create, without creating another request.",
				state.QueuedResource.ValueString(), qrState))
	case slices.Contains(queuedEnded, qrState):
		resp.RequiresReplace.Append(path.Root("queued_resource_state"))
		plan.QueuedResource, plan.QueuedResourceState, plan.State = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		why := "the request could not be served (for example, max_wait passed without capacity)"
		if qrState != gcp.QueuedFailed {
			why = "its TPU VM was deleted: preempted (a Spot VM cannot be restarted), deleted outside Terraform, or at the end of a flex-start run"
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("queued_resource_state"), "TPU VM Will Be Replaced",
			fmt.Sprintf("Queued resource %s is %s: %s. This plan deletes it and queues a new request.",
				state.QueuedResource.ValueString(), qrState, why))
	}
}

// queuedName is the queued resource of a VM named name in zone.
func queuedName(project, zone, name string) string {
	return "projects/" + project + "/locations/" + zone + "/queuedResources/" + name
}

// queuedRequest builds the queued resource that creates spec's node in zone.
func queuedRequest(spec createSpec, zone string, c capacityModel) (*tpu.QueuedResource, time.Duration) {
	parent := "projects/" + spec.project + "/locations/" + zone
	ns := &tpu.NodeSpec{Parent: parent, NodeId: spec.name, Node: spec.node}
	if spec.slices > 1 {
		ns.NodeId, ns.MultisliceParams = "", &tpu.MultisliceParams{NodeCount: spec.slices, NodeIdPrefix: spec.name}
	}
	qr := &tpu.QueuedResource{Tpu: &tpu.Tpu{NodeSpec: []*tpu.NodeSpec{ns}}}
	var run time.Duration
	switch c.Mode.ValueString() {
	case catalog.CapacitySpot:
		qr.Spot = &tpu.Spot{}
	case catalog.CapacityReserved:
		r := c.Reservation.ValueString()
		if !strings.HasPrefix(r, "projects/") {
			r = parent + "/reservations/" + r
		}
		qr.ReservationName = r
	case catalog.CapacityFlexStart:
		run, _ = time.ParseDuration(c.MaxRunDuration.ValueString())
	}
	if w, err := time.ParseDuration(c.MaxWait.ValueString()); err == nil && w > 0 {
		qr.QueueingPolicy = &tpu.QueueingPolicy{ValidUntilDuration: gcp.ProtoDuration(w)}
	}
	return qr, run
}

// queuedOutcome is the result of createQueued.
type queuedOutcome struct {
	createOutcome
	// qr is the queued resource to record, nil when there is none.
	qr *tpualpha.QueuedResource
	// waiting is set when the create timeout (or an interruption) came
	// while qr still waited: qr is recorded, without error.
	waiting bool
}

// createQueued creates spec.node through a queued resource in the first
// zone of spec.zones whose request is served. A request that fails (its
// max_wait passed, say) is deleted and the next zone is tried; a request
// still waiting when ctx ends is kept and returned.
func createQueued(ctx context.Context, api nodeAPI, qapi queuedAPI, spec createSpec, c capacityModel) queuedOutcome {
	first, done := nameTaken(ctx, api, spec)
	out := queuedOutcome{createOutcome: first}
	if done {
		return out
	}
	for i, zone := range spec.zones {
		if ctx.Err() != nil {
			out.timedOut(ctx, spec.zones[i:])
			return out
		}
		if queuedZone(ctx, api, qapi, spec, c, &out, i, zone) {
			return out
		}
	}
	out.err = &noCapacityError{attempts: out.attempts}
	return out
}

// queuedZone asks for the VM in one zone through a queued resource and
// waits for it. It reports true when the outcome is final: the VM is
// there, the request still waits when ctx ends, or it failed for a reason
// another zone would not change. A request that failed is deleted, and
// the next zone is tried.
func queuedZone(ctx context.Context, api nodeAPI, qapi queuedAPI, spec createSpec, c capacityModel, out *queuedOutcome, i int, zone string) bool {
	name := queuedName(spec.project, zone, spec.name)
	req, run := queuedRequest(spec, zone, c)
	tflog.Info(ctx, "creating TPU VM through a queued resource", map[string]any{"queued_resource": name, "mode": c.Mode.ValueString(), "zone_index": i})
	op, err := qapi.Create(ctx, "projects/"+spec.project+"/locations/"+zone, spec.name, req, run)
	if err == nil {
		_, err = qapi.Wait(ctx, op)
	}
	if err != nil && ctx.Err() == nil {
		out.attempts = append(out.attempts, attempt{zone: zone, result: outcomeFailed, reason: err.Error()})
		out.err = queuedCreateError(ctx, qapi, spec, zone, name, err)
		return true
	}
	qr, err := qapi.WaitActive(ctx, name, nil)
	if ctx.Err() != nil {
		stillQueued(ctx, qapi, out, zone, name, qr, err)
		return true
	}
	if err != nil {
		out.err = fmt.Errorf("waiting for queued resource %s: %w", name, err)
		out.qr = qr
		return true
	}
	switch st := gcp.QueuedState(qr); st {
	case gcp.QueuedActive:
		out.qr = qr
		out.createOutcome = created(ctx, api, spec, sliceIDs(spec.nodeID(zone), spec.slices)[0], nil, out.createOutcome)
		return true
	case gcp.QueuedFailed:
		out.attempts = append(out.attempts, attempt{zone: zone, result: outcomeFailed, reason: queuedFailure(qr)})
		if derr := deleteQueued(ctx, qapi, name); derr != nil {
			out.qr = qr
			out.err = fmt.Errorf("queued resource %s failed, and deleting it failed: %w", name, derr)
			return true
		}
		return false
	default:
		out.qr = qr
		out.err = fmt.Errorf("queued resource %s ended in state %s", name, st)
		return true
	}
}

// queuedCreateError is the error of a queued resource create that failed.
// When the request already exists (nameTaken found no VM), it is named as
// such, with the node id an import takes.
func queuedCreateError(ctx context.Context, qapi queuedAPI, spec createSpec, zone, name string, err error) error {
	if gcp.Classify(err) != gcp.ClassAlreadyExists {
		return fmt.Errorf("creating queued resource %s: %w", name, err)
	}
	taken := &nameTakenError{id: spec.nodeID(zone), queued: name, queuedState: "unknown", reason: "this resource did not create it"}
	if qr, gerr := qapi.Get(ctx, name); gerr == nil {
		taken.queuedState = gcp.QueuedState(qr)
		if qr.Tpu != nil && len(qr.Tpu.NodeSpec) > 0 && qr.Tpu.NodeSpec[0] != nil && qr.Tpu.NodeSpec[0].Node != nil {
			taken.reason = ownership.Describe(qr.Tpu.NodeSpec[0].Node.Labels)
		}
	}
	return taken
}

// stillQueued records a request still waiting when ctx ended, read once
// more after the deadline. Its create operation succeeded, so a request
// that cannot be read is in the queue all the same: it is recorded as
// accepted, and the next apply reads it and waits on.
func stillQueued(ctx context.Context, qapi queuedAPI, out *queuedOutcome, zone, name string, qr *tpualpha.QueuedResource, err error) {
	rctx, cancel := gcp.AfterDeadline(ctx)
	defer cancel()
	if got, gerr := qapi.Get(rctx, name); gerr == nil {
		qr = got
	}
	reason := "queued resource " + gcp.QueuedState(qr)
	if qr == nil {
		qr = &tpualpha.QueuedResource{Name: name, State: &tpualpha.QueuedResourceState{State: gcp.QueuedAccepted}}
		reason = fmt.Sprintf("queued resource in the queue, not read since: %v", err)
	}
	out.qr, out.waiting = qr, true
	out.attempts = append(out.attempts, attempt{zone: zone, result: outcomeWaiting, reason: reason})
}

// queuedFailure says why a queued resource failed.
func queuedFailure(qr *tpualpha.QueuedResource) string {
	if qr != nil && qr.State != nil && qr.State.FailedData != nil && qr.State.FailedData.Error != nil {
		return "queued resource FAILED: " + qr.State.FailedData.Error.Message
	}
	return "queued resource FAILED"
}

// deleteQueued deletes a queued resource and its nodes and waits; one
// already gone is deleted.
func deleteQueued(ctx context.Context, qapi queuedAPI, name string) error {
	op, err := qapi.Delete(ctx, name, true)
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting %s: %w", name, err)
	}
	if _, err := qapi.Wait(ctx, op); err != nil && gcp.Classify(err) != gcp.ClassNotFound {
		return fmt.Errorf("waiting for the deletion of %s: %w", name, err)
	}
	return nil
}

// withQueued records the queued resource qr in m; prior is the plan or
// state the VM was flattened onto. The scheduling flags the service sets
// on a queued VM's node come from the capacity block, not scheduling_config.
func withQueued(m *vmModel, prior vmModel, qr *tpualpha.QueuedResource) {
	m.QueuedResource = types.StringValue(qr.Name)
	m.QueuedResourceState = types.StringValue(gcp.QueuedState(qr))
	m.SchedulingConfig = prior.SchedulingConfig
	if !tfmodel.Known(m.SchedulingConfig) {
		m.SchedulingConfig = types.ObjectNull(schemaTypes().schedulingConfig.AttrTypes)
	}
}

// waitingState is the state of a VM whose queued resource has no node yet:
// the plan with the node's id and every value the API would report empty.
func waitingState(ctx context.Context, cat *catalog.Catalog, spec createSpec, plan vmModel, qr *tpualpha.QueuedResource) (vmModel, diag.Diagnostics) {
	zone := zoneOf(strings.Replace(qr.Name, "/queuedResources/", "/nodes/", 1))
	m, diags := flattenSlices(ctx, cat, spec.nodeID(zone), specNodes(spec, zone), plan, false)
	withQueued(&m, plan, qr)
	return m, diags
}

// importedCapacity is the capacity block of a VM imported with its queued
// resource.
func importedCapacity(qr *tpualpha.QueuedResource, diags *diag.Diagnostics) types.Object {
	vals := map[string]attr.Value{
		"mode": types.StringValue(catalog.CapacityOnDemand), "reservation": types.StringNull(),
		"max_wait": types.StringNull(), "max_run_duration": types.StringNull(),
	}
	switch {
	case qr.ProvisioningModel == "FLEX_START":
		vals["mode"] = types.StringValue(catalog.CapacityFlexStart)
		if qr.RunDuration != nil {
			if d, ok := durationOf(qr.RunDuration.MaxRunDuration); ok {
				vals["max_run_duration"] = types.StringValue(d)
			}
		}
	case qr.Spot != nil:
		vals["mode"] = types.StringValue(catalog.CapacitySpot)
	case qr.ReservationName != "":
		vals["mode"] = types.StringValue(catalog.CapacityReserved)
		vals["reservation"] = types.StringValue(qr.ReservationName[strings.LastIndex(qr.ReservationName, "/")+1:])
	}
	if qr.QueueingPolicy != nil {
		if d, ok := durationOf(qr.QueueingPolicy.ValidUntilDuration); ok {
			vals["max_wait"] = types.StringValue(d)
		}
	}
	return objectValue(schemaTypes().capacity.AttrTypes, vals, diags)
}

// durationOf turns a google.protobuf.Duration ("7200s") into the short Go
// duration form a configuration would use ("2h", "90m", "1h30m").
func durationOf(v string) (string, bool) {
	if v == "" {
		return "", false
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return "", false
	}
	return shortDuration(d), true
}

// createQueuedVM is Create for the queued modes.
func (r *vmResource) createQueuedVM(ctx context.Context, api nodeAPI, spec createSpec, c capacityModel, plan vmModel, resp *resource.CreateResponse) {
	qapi := r.queuedAPI(ctx, &resp.Diagnostics)
	if qapi == nil {
		return
	}
	out := createQueued(ctx, api, qapi, spec, c)
	switch {
	case out.node != nil:
		nodes := []*tpu.Node{out.node}
		if spec.slices > 1 {
			all, err := readSlices(ctx, api.Get, sliceIDs(spec.nodeID(zoneOf(out.node.Name)), spec.slices))
			if err == nil && slices.Contains(all, nil) {
				err = errors.New("a slice was not found")
			}
			switch {
			case err == nil:
				nodes = all
			case out.err == nil:
				out.err = fmt.Errorf("queued resource %s is ACTIVE, but not every slice could be read: %w", out.qr.Name, err)
			}
		}
		state, diags := flattenSlices(ctx, r.catalog, spec.nodeID(zoneOf(out.node.Name)), nodes, plan, false)
		resp.Diagnostics.Append(diags...)
		if out.qr != nil {
			withQueued(&state, plan, out.qr)
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	case out.qr != nil:
		state, diags := waitingState(ctx, r.catalog, spec, plan, out.qr)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
	tried := attemptLines(out.attempts)
	switch {
	case out.err != nil:
		if out.qr != nil && out.node == nil {
			resp.Diagnostics.AddError("Error Creating TPU VM", fmt.Sprintf("TPU VM %q could not be created: %s\n\nQueued resource %s is recorded "+
				"in the state and marked tainted: the next apply deletes it and queues a new request.\n\nZones:\n%s", spec.name, out.err, out.qr.Name, tried))
			return
		}
		r.createError(spec, out.createOutcome, tried, resp)
	case out.waiting:
		resp.Diagnostics.AddWarning("TPU VM Still Waiting for Capacity",
			fmt.Sprintf("Queued resource %s is %s: no %s capacity was available within the create timeout. It stays in the queue "+
				"and is recorded in the state, so nothing is orphaned or requested twice: the next apply waits on for it, and "+
				"terraform destroy deletes it.\n\nZones:\n%s", out.qr.Name, gcp.QueuedState(out.qr), c.Mode.ValueString(), tried))
	case len(out.attempts) > 1:
		resp.Diagnostics.AddAttributeWarning(path.Root("zones"), "TPU VM Created in a Fallback Zone",
			fmt.Sprintf("TPU VM %s was created in %s after the queued resources of other zones failed:\n%s", out.node.Name, zoneOf(out.node.Name), tried))
	}
}

// queuedAPI returns the queued-resources access, or adds a diagnostic.
func (r *vmResource) queuedAPI(ctx context.Context, diags *diag.Diagnostics) queuedAPI {
	if r.data == nil {
		diags.AddError("Provider Not Configured",
			"The accel provider was not configured before accel_tpu_vm was used. Please report this issue to the provider developers.")
		return nil
	}
	newAPI := r.newQueuedAPI
	if newAPI == nil {
		newAPI = func(ctx context.Context) (queuedAPI, error) { return r.data.Clients.TPUQueued(ctx) }
	}
	q, err := newAPI(ctx)
	if err != nil {
		diags.AddError("Cannot Reach the Cloud TPU API", err.Error())
		return nil
	}
	return q
}

// readQueued is Read for a VM created through a queued resource (known
// from the state, or, on import, from its node). It reports whether it
// handled the read.
func (r *vmResource) readQueued(ctx context.Context, api nodeAPI, state vmModel, imported bool, resp *resource.ReadResponse) bool {
	name := state.QueuedResource.ValueString()
	if name == "" {
		if !imported {
			return false
		}
		var ok bool
		if name, ok = importedQueuedResource(ctx, api, state.ID.ValueString()); !ok {
			return false
		}
	}
	qapi := r.queuedAPI(ctx, &resp.Diagnostics)
	if qapi == nil {
		return true
	}
	qr, err := qapi.Get(ctx, name)
	if gcp.Classify(err) == gcp.ClassNotFound {
		return false // the node, if any, is read on its own
	}
	if err != nil {
		resp.Diagnostics.AddError(gcp.Summary(err, "Error Reading TPU VM"), fmt.Sprintf("Reading queued resource %s failed: %s", name, err))
		return true
	}
	id := state.ID.ValueString()
	count := sliceCount(state)
	if imported {
		count = queuedSliceCount(qr)
	}
	nodes, err := readSlices(ctx, api.Read, sliceIDs(id, count))
	if err != nil {
		resp.Diagnostics.AddError(gcp.Summary(err, "Error Reading TPU VM"), fmt.Sprintf("Reading TPU VM %s failed: %s", id, err))
		return true
	}
	newState := state
	var diags diag.Diagnostics
	switch {
	case allOf(nodes, qr.Name):
		for _, n := range nodes {
			if !imported && !ownership.Owns(ownerOf(ctx, state), n.Labels) {
				resp.Diagnostics.AddWarning("TPU VM Replaced Outside Terraform",
					fmt.Sprintf("TPU VM %s is no longer the VM this resource created: the VM of that name %s. It is removed from the "+
						"state and never changed or deleted by this resource.", n.Name, ownership.Describe(n.Labels)))
				resp.State.RemoveResource(ctx)
				return true
			}
		}
		newState, diags = flattenSlices(ctx, r.catalog, id, nodes, state, imported)
	case imported:
		// A request that has no VM yet: what it will create.
		requested, rerr := requestedNodes(qr, id)
		if rerr != nil {
			resp.Diagnostics.AddError("Error Importing TPU VM", rerr.Error())
			return true
		}
		newState, diags = flattenSlices(ctx, r.catalog, id, requested, state, true)
	case tfmodel.Known(newState.State) && newState.State.ValueString() != "" && gcp.QueuedState(qr) != gcp.QueuedActive:
		newState.State = types.StringValue("")
	}
	resp.Diagnostics.Append(diags...)
	withQueued(&newState, state, qr)
	if imported {
		newState.Capacity = importedCapacity(qr, &resp.Diagnostics)
		resp.Diagnostics.Append(tfmodel.ClearImported(ctx, resp.Private)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
	return true
}

// updateQueued finishes, in Update, the creation of a VM whose queued
// resource still waited: it waits (up to the create timeout) and records the
// VM, with what the plan changed since the request was made applied to it.
// While the request still waits, what was planned is recorded, to be applied
// by the apply that sees the VM. It reports whether it handled the update.
func (r *vmResource) updateQueued(ctx context.Context, api nodeAPI, req resource.UpdateRequest, plan, state vmModel, resp *resource.UpdateResponse) bool {
	if state.QueuedResource.IsNull() || !gcp.QueuedPending(state.QueuedResourceState.ValueString()) {
		return false
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	qapi := r.queuedAPI(ctx, &resp.Diagnostics)
	if qapi == nil || resp.Diagnostics.HasError() {
		return true
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	name := state.QueuedResource.ValueString()
	qr, err := qapi.WaitActive(wctx, name, nil)
	if wctx.Err() != nil {
		rctx, rcancel := gcp.AfterDeadline(ctx)
		defer rcancel()
		if got, gerr := qapi.Get(rctx, name); gerr == nil {
			qr = got
		}
	}
	if qr == nil {
		resp.Diagnostics.AddError("Error Waiting for TPU VM", fmt.Sprintf("Reading queued resource %s failed: %v", name, err))
		return true
	}
	var newState vmModel
	if gcp.QueuedState(qr) == gcp.QueuedActive {
		// The VM exists as requested: what the plan changed since is
		// applied to each slice (as an update would), then recorded.
		if !r.patchSlices(ctx, api, plan, requested(ctx, state, qr, &resp.Diagnostics), &newState, &resp.Diagnostics) {
			// The state as it was, with the request as it is now: the next
			// refresh reads the VM, and the next apply changes it.
			newState = state
			withQueued(&newState, state, qr)
			resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
			return true
		}
	} else {
		// Still waiting: the plan is recorded as it is, with what only
		// the API can report kept as it was, and the labels the VM will
		// have. The apply that sees the VM applies it.
		raw, err := tfmodel.KnownFrom(req.Plan.Raw, req.State.Raw)
		if err != nil {
			resp.Diagnostics.AddError("Error Recording TPU VM", "Recording the planned values of a waiting TPU VM failed: "+err.Error())
			return true
		}
		resp.Diagnostics.Append(tfmodel.GetState(ctx, tfsdk.State{Schema: req.State.Schema, Raw: raw}, &newState)...)
		if !plan.TerraformLabels.Equal(state.TerraformLabels) {
			current := tfmodel.KnownStringMap(state.EffectiveLabels)
			newState.EffectiveLabels = tfmodel.StringMapOrEmpty(merged(ctx, current, state.TerraformLabels, plan.TerraformLabels, &resp.Diagnostics))
		}
	}
	withQueued(&newState, plan, qr)
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
	switch st := gcp.QueuedState(qr); {
	case st == gcp.QueuedActive:
	case gcp.QueuedPending(st):
		resp.Diagnostics.AddWarning("TPU VM Still Waiting for Capacity",
			fmt.Sprintf("Queued resource %s is still %s after timeouts.create. It stays in the queue and in the state: apply again to wait on.", name, st))
	default:
		resp.Diagnostics.AddError("TPU VM Request Ended Without a VM",
			fmt.Sprintf("Queued resource %s is %s (%s). The next plan replaces it with a new request.", name, st, queuedFailure(qr)))
	}
	return true
}

// requested is state with the values the queued request qr asked its VM to
// have (labels, metadata, description, tags): what the VM was created
// with, whatever the state recorded while the request waited.
func requested(ctx context.Context, state vmModel, qr *tpualpha.QueuedResource, diags *diag.Diagnostics) vmModel {
	if qr.Tpu == nil || len(qr.Tpu.NodeSpec) == 0 || qr.Tpu.NodeSpec[0] == nil || qr.Tpu.NodeSpec[0].Node == nil {
		return state
	}
	n := qr.Tpu.NodeSpec[0].Node
	labels := maps.Clone(n.Labels)
	delete(labels, ownerLabelKey)
	m := state
	m.TerraformLabels = managedMap(ctx, labels, state.TerraformLabels, true, diags)
	m.Metadata = managedMap(ctx, n.Metadata, state.Metadata, true, diags)
	m.Description = optionalString(n.Description, state.Description)
	if len(n.Tags) > 0 || tfmodel.Known(state.Tags) {
		m.Tags = tfmodel.StringListOrEmpty(n.Tags)
	}
	return m
}

// deleteQueuedVM is Delete for a VM created through a queued resource: the
// queued resource and its node go together. It reports whether it handled
// the delete.
func (r *vmResource) deleteQueuedVM(ctx context.Context, api nodeAPI, state vmModel, resp *resource.DeleteResponse) bool {
	name := state.QueuedResource.ValueString()
	if name == "" {
		return false
	}
	qapi := r.queuedAPI(ctx, &resp.Diagnostics)
	if qapi == nil {
		return true
	}
	n, err := api.Get(ctx, sliceIDs(state.ID.ValueString(), sliceCount(state))[0])
	if err == nil && n.QueuedResource == name && !ownership.Owns(ownerOf(ctx, state), n.Labels) {
		resp.Diagnostics.AddWarning("TPU VM Not Deleted",
			fmt.Sprintf("TPU VM %s was not deleted: the VM of that name %s. It is left as it is.", n.Name, ownership.Describe(n.Labels)))
		return true
	}
	tflog.Info(ctx, "deleting TPU VM and its queued resource", map[string]any{"id": state.ID.ValueString(), "queued_resource": name})
	if err := deleteQueued(ctx, qapi, name); err != nil {
		resp.Diagnostics.AddError("Error Deleting TPU VM", fmt.Sprintf("Deleting queued resource %s and its TPU VM failed: %s", name, err))
	}
	return true
}

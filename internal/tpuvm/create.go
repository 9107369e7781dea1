// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// replaceStates are the node states in which a VM no longer runs and will
// not recover by itself; the next plan replaces such a VM. Source: Node.state
// in the v2 REST reference (PREEMPTED and TERMINATED end a preemptible or
// Spot VM; UNKNOWN follows a failed repair); FAILED is reported for nodes
// whose creation failed.
var replaceStates = []string{"FAILED", "PREEMPTED", "TERMINATED", "UNKNOWN"}

// lost reports whether the VM of state no longer runs and will not again by
// itself, so that the next plan replaces it: a node in one of
// replaceStates; an instance created through Compute Engine only when it is
// TERMINATED and Spot or preemptible (preempted). A TERMINATED on-demand
// instance is stopped (gcloud compute instances stop): it keeps its boot
// disk and starts again as it is, as a STOPPED node does.
func lost(state vmModel) bool {
	st := state.State.ValueString()
	if !isInstanceID(state.ID.ValueString()) {
		return slices.Contains(replaceStates, st)
	}
	return st == "TERMINATED" && (boolAttr(state.SchedulingConfig, "spot") || boolAttr(state.SchedulingConfig, "preemptible"))
}

// settlingStates are transient states a node leaves by itself.
var settlingStates = []string{"CREATING", "STARTING", "RESTARTING", "REPAIRING", "REIMAGING", "UNHIDING"}

// createSpec is what to create and where.
type createSpec struct {
	project string
	name    string
	zones   []string
	node    *tpu.Node // with the ownership label
	// slices is the number of slices, each a node (see sliceIDs).
	slices int64
	// instance is set for a VM created through Compute Engine: its id is
	// an instance id.
	instance bool
}

func (s createSpec) nodeID(zone string) string { return vmID(s.project, zone, s.name, s.instance) }

// unread is the node id recorded when it could not be read: with the labels
// it was created with, its owner id among them, so that the next refresh
// reads it as this resource's VM rather than dropping it from the state as
// a VM replaced outside Terraform (which would orphan it).
func (s createSpec) unread(id string) *tpu.Node {
	return &tpu.Node{Name: id, Labels: maps.Clone(s.node.Labels)}
}

// owner is the owner id the node is created with.
func (s createSpec) owner() string { return s.node.Labels[ownerLabelKey] }

// attempt is the outcome in one zone of the fallback list.
type attempt struct {
	zone string
	// what happened.
	result outcome
	// why, for people.
	reason string
}

// outcome is what an attempt in a zone came to; its String is the word the
// apply's error shows.
type outcome int

const (
	outcomeCreated outcome = iota
	outcomeSkipped
	outcomeNotTried
	outcomeNoCapacity
	outcomeFailedTemporarily
	outcomeFailed
	outcomeNotFinished
	outcomeWaiting
)

func (o outcome) String() string {
	return [...]string{"created", "skipped", "not tried", "no capacity", "failed, temporarily", "failed", "not finished", "waiting"}[o]
}

func (a attempt) String() string {
	if a.reason == "" {
		return a.zone + ": " + a.result.String()
	}
	return a.zone + ": " + a.result.String() + ": " + a.reason
}

// createOutcome is the result of createNode.
type createOutcome struct {
	// node is the node to record in state, nil when there is none.
	node *tpu.Node
	// interrupted is set when ctx was cancelled (Terraform was interrupted)
	// after the node was requested: node is recorded as it is, without error.
	interrupted bool
	// attempts lists every zone tried or skipped, in order.
	attempts []attempt
	// elsewhere lists VMs of the same name in zones that zones does not
	// list (found before the create; none of them is touched).
	elsewhere []*tpu.Node
	// err is why creation failed; with a node, the node is recorded and
	// Terraform marks it tainted.
	err error
}

// nameTakenError means a node of the same name exists that cannot be adopted.
type nameTakenError struct {
	id     string
	reason string
	// queued, when set, is the queued resource that holds the name while
	// it waits: the VM itself does not exist yet.
	queued, queuedState string
}

func (e *nameTakenError) Error() string {
	if e.queued != "" {
		return fmt.Sprintf("queued resource %s already exists (state %s: it has no TPU VM yet; its VM would be %s) and %s",
			e.queued, e.queuedState, e.id, e.reason)
	}
	return fmt.Sprintf("a TPU VM named %s already exists and %s", e.id, e.reason)
}

// noCapacityError means no zone of the list could create the node.
type noCapacityError struct {
	attempts []attempt
}

func (e *noCapacityError) Error() string {
	return "no zone could create the TPU VM:\n" + attemptLines(e.attempts)
}

// temporary reports whether a zone failed for a reason other than capacity
// (an operation that ended UNAVAILABLE).
func (e *noCapacityError) temporary() bool {
	return slices.ContainsFunc(e.attempts, func(a attempt) bool { return a.result == outcomeFailedTemporarily })
}

// createNode creates spec.node in the first zone of spec.zones that has
// capacity. Before creating anything it looks for a node of the same name in
// every zone: any is an error (see nameTaken). On a stockout the
// node the failed attempt may have left is deleted before the next zone is
// tried; zones the error's zonesAvailable hint leaves out are skipped. ctx
// carries the create deadline.
func createNode(ctx context.Context, api nodeAPI, spec createSpec) createOutcome {
	out, done := nameTaken(ctx, api, spec)
	if done {
		return out
	}
	c := &zoneCreate{api: api, spec: spec, out: out}
	zones := spec.zones
	backoff := gcp.DefaultBackoff()
	for round := 1; ; round++ {
		if c.round(ctx, zones, round) {
			return c.out
		}
		if len(c.again) == 0 || round >= transientRounds || ctx.Err() != nil {
			break
		}
		// The zones that failed temporarily are tried again, after a
		// backoff and within the create timeout.
		if gcp.Sleep(ctx, backoff, round) != nil {
			break
		}
		zones, c.hint, c.again = c.again, nil, nil
	}
	c.out.err = &noCapacityError{attempts: c.out.attempts}
	return c.out
}

// timedOut records the zones not tried because ctx ended, and the error.
func (o *createOutcome) timedOut(ctx context.Context, zones []string) {
	for _, z := range zones {
		o.attempts = append(o.attempts, attempt{zone: z, result: outcomeNotTried, reason: "the create timeout was reached"})
	}
	o.err = fmt.Errorf("creating the TPU VM: %w", ctx.Err())
}

// zoneCreate is one createNode call's progress through the zones.
type zoneCreate struct {
	api  nodeAPI
	spec createSpec
	out  createOutcome
	// hint is the zones the last stockout error named as having capacity.
	hint []string
	// again is the zones whose create failed transiently in this round.
	again []string
}

// round tries zones in order. It reports true when the outcome is final.
func (c *zoneCreate) round(ctx context.Context, zones []string, round int) bool {
	for i, zone := range zones {
		if c.hint != nil && !slices.Contains(c.hint, zone) {
			c.out.attempts = append(c.out.attempts, attempt{zone: zone, result: outcomeSkipped,
				reason: "the last stockout error named only " + strings.Join(c.hint, ", ") + " as having capacity"})
			continue
		}
		if ctx.Err() != nil {
			c.out.timedOut(ctx, zones[i:])
			return true
		}
		if c.try(ctx, zone, i, round) {
			return true
		}
	}
	return false
}

// try creates the node in one zone and deletes what a failed create left.
// It reports true when the outcome is final: the node was created, the
// create was stopped, or it failed for a reason another zone would not
// change.
func (c *zoneCreate) try(ctx context.Context, zone string, i, round int) bool {
	api, spec := c.api, c.spec
	id := spec.nodeID(zone)
	tflog.Info(ctx, "creating TPU VM", map[string]any{"node": id, "zone_index": i, "round": round})
	op, err := api.Create(ctx, "projects/"+spec.project+"/locations/"+zone, spec.name, spec.node)
	if err == nil {
		op, err = api.Wait(ctx, op)
	}
	if err == nil {
		c.out = created(ctx, api, spec, id, op, c.out)
		return true
	}
	if ctx.Err() != nil {
		c.out = stopped(ctx, api, spec, id, c.out, err)
		return true
	}
	class := gcp.Classify(err)
	tflog.Warn(ctx, "TPU VM creation failed", map[string]any{"node": id, "class": class.String(), "error": err.Error()})
	switch {
	case class == gcp.ClassAlreadyExists:
		c.out = ownCreate(ctx, api, spec, id, c.out)
		return true
	case class == gcp.ClassCapacity:
		c.out.attempts = append(c.out.attempts, attempt{zone: zone, result: outcomeNoCapacity, reason: err.Error()})
		if h := gcp.ZonesAvailable(err); len(h) > 0 {
			c.hint = h
		}
	case gcp.OperationUnavailable(err):
		// The operation ended UNAVAILABLE, which Google asks callers to
		// retry (AIP-194): the next zone, then this one again.
		c.out.attempts = append(c.out.attempts, attempt{zone: zone, result: outcomeFailedTemporarily, reason: err.Error()})
		c.again = append(c.again, zone)
	default:
		c.out.attempts = append(c.out.attempts, attempt{zone: zone, result: outcomeFailed, reason: err.Error()})
		c.out.err = fmt.Errorf("creating TPU VM %s: %w", id, err)
		if leftover, cerr := cleanup(ctx, api, spec, id); cerr != nil {
			c.out.node = leftover
			c.out.err = fmt.Errorf("%w; deleting the failed node also failed: %w", c.out.err, cerr)
		}
		return true
	}
	if leftover, cerr := cleanup(ctx, api, spec, id); cerr != nil {
		c.out.node = leftover
		c.out.err = fmt.Errorf("zone %s could not create the TPU VM, and deleting the failed TPU VM it left failed: %w", zone, cerr)
		return true
	}
	return false
}

// transientRounds bounds how many times the zones whose create failed
// temporarily are tried: once, then transientRounds-1 times again.
const transientRounds = 3

// nameTaken looks for a node of the same name in every zone before
// anything is created. It reports done when the outcome is final: the name
// is taken (by anyone: a node this resource instance created would be in
// its state, so any node found is someone else's, or was left by an apply
// that was killed before it could record it, which only an import can tell),
// or the lookup failed.
func nameTaken(ctx context.Context, api nodeAPI, spec createSpec) (createOutcome, bool) {
	var out createOutcome
	for _, zone := range spec.zones {
		id := spec.nodeID(zone)
		n, err := api.Get(ctx, id)
		if gcp.Classify(err) == gcp.ClassNotFound {
			continue
		}
		if err != nil {
			out.err = fmt.Errorf("looking for an existing TPU VM %s: %w", id, err)
			return out, true
		}
		out.err = &nameTakenError{id: id, reason: ownership.Describe(n.Labels)}
		return out, true
	}
	// A VM of the same name in another zone is allowed (names are per
	// zone), but it may be what an apply killed before it recorded the VM
	// left before zones was edited: the apply names it.
	others, err := api.ListNamed(ctx, spec.project, spec.name)
	if err != nil {
		tflog.Debug(ctx, "listing TPU VMs across zones failed; VMs of the same name outside zones are not reported",
			map[string]any{"name": spec.name, "error": err.Error()})
		return out, false
	}
	for _, n := range others {
		if !slices.Contains(spec.zones, zoneOf(n.Name)) {
			out.elsewhere = append(out.elsewhere, n)
		}
	}
	return out, false
}

// ownCreate handles a create answered ALREADY_EXISTS: when the node carries
// this create's owner id, the create itself went through (its answer was
// lost and the call was retried), and the node is waited for and kept;
// otherwise the name was taken meanwhile.
func ownCreate(ctx context.Context, api nodeAPI, spec createSpec, id string, out createOutcome) createOutcome {
	n, err := api.Get(ctx, id)
	if err == nil && ownership.Owns(spec.owner(), n.Labels) {
		tflog.Info(ctx, "the TPU VM create was answered ALREADY_EXISTS, and the VM is this create's; keeping it", map[string]any{"node": id})
		n, err = waitSettled(ctx, api, id, n)
		if err != nil && ctx.Err() != nil {
			return stopped(ctx, api, spec, id, out, err)
		}
		if err != nil {
			out.node = n
			out.err = fmt.Errorf("waiting for TPU VM %s: %w", id, err)
			return out
		}
		out.node = n
		out.attempts = append(out.attempts, attempt{zone: zoneOf(id), result: outcomeCreated})
		return out
	}
	reason := "was created while this apply ran (is another apply running?)"
	if err == nil {
		reason = ownership.Describe(n.Labels)
	}
	out.attempts = append(out.attempts, attempt{zone: zoneOf(id), result: outcomeFailed, reason: "the name is taken"})
	out.err = &nameTakenError{id: id, reason: reason}
	return out
}

// created finishes a successful create: it reads the node, falling back on
// the node in the operation's response.
func created(ctx context.Context, api nodeAPI, spec createSpec, id string, op *tpu.Operation, out createOutcome) createOutcome {
	zone := zoneOf(id)
	out.attempts = append(out.attempts, attempt{zone: zone, result: outcomeCreated})
	n, err := api.Get(ctx, id)
	if err == nil {
		out.node = n
		return out
	}
	var fromOp tpu.Node
	if op != nil && len(op.Response) > 0 && json.Unmarshal(op.Response, &fromOp) == nil && fromOp.Name != "" {
		out.node = &fromOp
		return out
	}
	out.node = spec.unread(id)
	out.err = fmt.Errorf("TPU VM %s was created, but reading it failed: %w", id, err)
	return out
}

// stopped handles a create or wait cut short by ctx: it records the node as
// it is, if there is one. When reading it fails with anything but NOT_FOUND,
// the node may exist (the create may have been accepted) and is recorded by
// its id alone: a node recorded that does not exist is dropped by the next
// refresh, while one left out of the state would be orphaned. A cancelled
// ctx (Terraform was interrupted) is not an error: the node is tracked and
// the next apply continues from it. A passed deadline is an error.
func stopped(ctx context.Context, api nodeAPI, spec createSpec, id string, out createOutcome, cause error) createOutcome {
	rctx, cancel := gcp.AfterDeadline(ctx)
	defer cancel()
	n, err := api.Get(rctx, id)
	switch {
	case err == nil:
		out.node = n
	case gcp.Classify(err) != gcp.ClassNotFound:
		tflog.Warn(ctx, "reading the TPU VM after the create was cut short failed; recording it by its id",
			map[string]any{"node": id, "error": err.Error()})
		out.node = spec.unread(id)
		cause = fmt.Errorf("%w (reading the VM afterwards also failed: %w)", cause, err)
	}
	if errors.Is(ctx.Err(), context.Canceled) && out.node != nil {
		out.interrupted = true
		return out
	}
	out.attempts = append(out.attempts, attempt{zone: zoneOf(id), result: outcomeNotFinished, reason: cause.Error()})
	out.err = fmt.Errorf("creating TPU VM %s: %w", id, cause)
	return out
}

// cleanup deletes the node id, if it exists, and waits for the deletion. It
// keeps going for a while after ctx ends, so that nothing is left behind. On
// failure it returns the node as last read.
func cleanup(ctx context.Context, api nodeAPI, spec createSpec, id string) (*tpu.Node, error) {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = gcp.AfterDeadline(ctx)
		defer cancel()
	}
	n, err := api.Get(ctx, id)
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil, nil
	}
	if err != nil {
		return spec.unread(id), fmt.Errorf("reading %s: %w", id, err)
	}
	tflog.Info(ctx, "deleting the TPU VM a failed create left", map[string]any{"node": id, "state": n.State})
	if err := deleteNode(ctx, api, id); err != nil {
		return n, err
	}
	return nil, nil
}

// deleteNode deletes id and waits; a node that is already gone is deleted.
func deleteNode(ctx context.Context, api nodeAPI, id string) error {
	op, err := api.Delete(ctx, id)
	if gcp.Classify(err) == gcp.ClassNotFound {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting %s: %w", id, err)
	}
	if _, err := api.Wait(ctx, op); err != nil && gcp.Classify(err) != gcp.ClassNotFound {
		return fmt.Errorf("waiting for the deletion of %s: %w", id, err)
	}
	return nil
}

// waitSettled reads id until it leaves the transient states (CREATING and
// the like, or DELETING), or ctx ends. n is the node as last read, if any.
func waitSettled(ctx context.Context, api nodeAPI, id string, n *tpu.Node) (*tpu.Node, error) {
	state := ""
	if n != nil {
		state = n.State
	}
	return gcp.WaitFor(ctx, api.Poller(), gcp.StateWait[*tpu.Node]{
		What:    "TPU VM " + id,
		Pending: append(slices.Clone(settlingStates), "DELETING"),
		Refresh: func(ctx context.Context) (*tpu.Node, string, error) {
			got, err := api.Get(ctx, id)
			if err != nil {
				return nil, "", err
			}
			return got, got.State, nil
		},
	}, n, state)
}

// zoneOf returns the zone of a node or instance id.
func zoneOf(id string) string {
	_, zone, _, _, err := parseVMID(id)
	if err != nil {
		return ""
	}
	return zone
}

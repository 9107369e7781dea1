// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

// Queued resource states, from QueuedResourceState.State in the v2 and
// v2alpha1 REST references. Google's "Manage queued resources" page
// (https://cloud.google.com/tpu/docs/queued-resources) says
// WAITING_FOR_RESOURCES replaced ACCEPTED as the state of a request in the
// queue; the emulator shows ACCEPTED only until the create operation is read.
const (
	qrAccepted     = "ACCEPTED"
	qrWaiting      = "WAITING_FOR_RESOURCES"
	qrProvisioning = "PROVISIONING"
	qrActive       = "ACTIVE"
	qrFailed       = "FAILED"
	qrSuspending   = "SUSPENDING"
	qrSuspended    = "SUSPENDED"
	qrDeleting     = "DELETING"

	initiatorUser    = "USER"
	initiatorService = "SERVICE"

	statePreempted = "PREEMPTED"

	// provisioningFlexStart is v2alpha1's QueuedResource.provisioningModel
	// for flex-start.
	provisioningFlexStart = "FLEX_START"
)

// qrIDRE is the queuedResourceId rule of queuedResources.create ("Should
// follow the ^[A-Za-z0-9_.~+%-]+$ regex format", v2 REST reference).
var qrIDRE = regexp.MustCompile(`^[A-Za-z0-9_.~+%-]+$`)

// reservationRE is QueuedResource.reservationName:
// projects/{project}/locations/{zone}/reservations/{reservation}.
var reservationRE = regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/reservations/([^/]+)$`)

// qrWire is a QueuedResource as both API versions send it. The fields only
// v2alpha1 has (bestEffort, provisioningModel, runDuration,
// nodeSpec.multiNodeParams, guaranteed.reserved) are refused on v2, and
// v2's nodeSpec.multisliceParams on v2alpha1, as unknown JSON names.
type qrWire struct {
	Name              string              `json:"name,omitempty"`
	CreateTime        string              `json:"createTime,omitempty"`
	Tpu               *qrTPU              `json:"tpu,omitempty"`
	Spot              *struct{}           `json:"spot,omitempty"`
	Guaranteed        *qrGuaranteed       `json:"guaranteed,omitempty"`
	BestEffort        *struct{}           `json:"bestEffort,omitempty"`
	QueueingPolicy    *tpu.QueueingPolicy `json:"queueingPolicy,omitempty"`
	ReservationName   string              `json:"reservationName,omitempty"`
	ProvisioningModel string              `json:"provisioningModel,omitempty"`
	RunDuration       *qrRunDuration      `json:"runDuration,omitempty"`
	State             *qrState            `json:"state,omitempty"`
}

type qrTPU struct {
	NodeSpec []*qrNodeSpec `json:"nodeSpec,omitempty"`
}

type qrNodeSpec struct {
	Parent           string         `json:"parent,omitempty"`
	NodeID           string         `json:"nodeId,omitempty"`
	Node             *tpu.Node      `json:"node,omitempty"`
	MultisliceParams *qrMultiParams `json:"multisliceParams,omitempty"`
	MultiNodeParams  *qrMultiParams `json:"multiNodeParams,omitempty"`
}

type qrMultiParams struct {
	NodeCount    int64  `json:"nodeCount,omitempty"`
	NodeIDPrefix string `json:"nodeIdPrefix,omitempty"`
	WorkloadType string `json:"workloadType,omitempty"`
}

type qrGuaranteed struct {
	MinDuration string `json:"minDuration,omitempty"`
	Reserved    bool   `json:"reserved,omitempty"`
}

type qrRunDuration struct {
	MaxRunDuration  string `json:"maxRunDuration,omitempty"`
	TerminationTime string `json:"terminationTime,omitempty"`
}

type qrState struct {
	State          string        `json:"state,omitempty"`
	StateInitiator string        `json:"stateInitiator,omitempty"`
	FailedData     *qrFailedData `json:"failedData,omitempty"`
}

type qrFailedData struct {
	Error *tpu.Status `json:"error,omitempty"`
}

// queuedResource is a queued resource and the emulator's bookkeeping.
type queuedResource struct {
	seq     uint64
	wire    *qrWire
	project string
	zone    string
	version string
	// node is the node request; names are the nodes it creates.
	node   tpu.Node
	accel  string
	config *tpu.AcceleratorConfig
	names  []string
	// capKey is the capacity its nodes take.
	capKey string
	// validAfter and validUntil bound when it may be provisioned (zero:
	// no bound); maxRun ends a flex-start run.
	validAfter, validUntil time.Time
	maxRun                 time.Duration
	// due is when the current PROVISIONING or SUSPENDING step ends;
	// activeAt when it became ACTIVE.
	due, activeAt time.Time
}

func (qr *queuedResource) state() string { return qr.wire.State.State }

func (qr *queuedResource) setState(state, initiator string) {
	qr.wire.State = &qrState{State: state, StateInitiator: initiator}
}

// routeQueued maps the queuedResources collection (name "") or one queued
// resource (name "projects/…/queuedResources/ID:verb") to its method.
func (s *Server) routeQueued(r *http.Request, project string, tr func(*request) *tpuRequest, nameVerb string) (string, string, handler) {
	get := r.Method == http.MethodGet
	if nameVerb == "" {
		switch {
		case get:
			return MethodTPUQueuedResourcesList, project, func(q *request) (any, *apiError) { return s.queuedList(tr(q)) }
		case r.Method == http.MethodPost:
			return MethodTPUQueuedResourcesCreate, project, func(q *request) (any, *apiError) { return s.queuedCreate(tr(q)) }
		}
		return "", "", nil
	}
	name, verb, _ := strings.Cut(nameVerb, ":")
	switch {
	case verb == "" && get:
		return MethodTPUQueuedResourcesGet, project, func(q *request) (any, *apiError) { return s.queuedGet(tr(q), name) }
	case verb == "" && r.Method == http.MethodDelete:
		return MethodTPUQueuedResourcesDelete, project, func(q *request) (any, *apiError) { return s.queuedDelete(tr(q), name) }
	case verb == "reset" && r.Method == http.MethodPost:
		return MethodTPUQueuedResourcesReset, project, func(q *request) (any, *apiError) { return s.queuedReset(tr(q), name) }
	}
	return "", "", nil
}

// invalidQueued is the INVALID_ARGUMENT answer to a bad queued resource.
func (s *Server) invalidQueued(field, format string, args ...any) *apiError {
	msg := fmt.Sprintf(format, args...)
	return newError(statusInvalidArgument, "Cloud TPU received an invalid argument. %s %s", msg, s.eid()).
		with(badRequest(field, msg))
}

// unknownName is the answer to a field the API version does not have, as
// decodeBody gives it.
func unknownName(name string) *apiError {
	return newError(statusInvalidArgument, "Invalid JSON payload received. Unknown name %q: Cannot find field.", name).
		with(badRequest("", "Invalid JSON payload received. Unknown name \""+name+"\": Cannot find field."))
}

// versionFields refuses the fields the request's API version lacks.
func versionFields(version string, in *qrWire) *apiError {
	alphaOnly := map[string]bool{
		"bestEffort":        in.BestEffort != nil,
		"provisioningModel": in.ProvisioningModel != "",
		"runDuration":       in.RunDuration != nil,
		"reserved":          in.Guaranteed != nil && in.Guaranteed.Reserved,
	}
	v2Only := map[string]bool{}
	if in.Tpu != nil {
		for _, ns := range in.Tpu.NodeSpec {
			if ns != nil && ns.MultiNodeParams != nil {
				alphaOnly["multiNodeParams"] = true
			}
			if ns != nil && ns.MultisliceParams != nil {
				v2Only["multisliceParams"] = true
			}
		}
	}
	refused := alphaOnly
	if version == "v2alpha1" {
		refused = v2Only
	}
	names := make([]string, 0, len(refused))
	for n, set := range refused {
		if set {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return unknownName(names[0])
}

// parseProtoDuration parses a google.protobuf.Duration in its JSON form,
// such as "3600s" or "1.5s".
func parseProtoDuration(v string) (time.Duration, bool) {
	num, ok := strings.CutSuffix(v, "s")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// queueWindow computes the absolute bounds of a queueing policy.
func (s *Server) queueWindow(p *tpu.QueueingPolicy, now time.Time) (after, until time.Time, aerr *apiError) {
	if p == nil {
		return after, until, nil
	}
	dur := func(field, v string) (time.Time, *apiError) {
		if v == "" {
			return time.Time{}, nil
		}
		d, ok := parseProtoDuration(v)
		if !ok {
			return time.Time{}, s.invalidQueued("queueing_policy."+field, "%q is not a duration such as \"3600s\".", v)
		}
		return now.Add(d), nil
	}
	stamp := func(field, v string) (time.Time, *apiError) {
		if v == "" {
			return time.Time{}, nil
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return time.Time{}, s.invalidQueued("queueing_policy."+field, "%q is not an RFC 3339 timestamp.", v)
		}
		return t, nil
	}
	var fields []time.Time
	for _, f := range []struct {
		name, v string
		parse   func(string, string) (time.Time, *apiError)
	}{
		{"valid_after_duration", p.ValidAfterDuration, dur}, {"valid_after_time", p.ValidAfterTime, stamp},
		{"valid_until_duration", p.ValidUntilDuration, dur}, {"valid_until_time", p.ValidUntilTime, stamp},
	} {
		t, aerr := f.parse(f.name, f.v)
		if aerr != nil {
			return after, until, aerr
		}
		fields = append(fields, t)
	}
	after = later(fields[0], fields[1])
	until = earlier(fields[2], fields[3])
	if p.ValidInterval != nil {
		start, aerr := stamp("valid_interval.start_time", p.ValidInterval.StartTime)
		if aerr != nil {
			return after, until, aerr
		}
		end, aerr := stamp("valid_interval.end_time", p.ValidInterval.EndTime)
		if aerr != nil {
			return after, until, aerr
		}
		after, until = later(after, start), earlier(until, end)
	}
	if !until.IsZero() && !until.After(now) {
		return after, until, s.invalidQueued("queueing_policy", "The request would expire at %s, which is not in the future.", rfc3339(until))
	}
	return after, until, nil
}

func later(a, b time.Time) time.Time {
	if a.IsZero() || b.After(a) {
		return b
	}
	return a
}

func earlier(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	}
	return b
}

func (s *Server) queuedCreate(q *tpuRequest) (any, *apiError) {
	var in qrWire
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if err := versionFields(q.version, &in); err != nil {
		return nil, err
	}
	id := q.r.URL.Query().Get("queuedResourceId")
	if id == "" {
		id = fmt.Sprintf("qr-%08x", s.rand.Uint32())
	}
	if !qrIDRE.MatchString(id) {
		return nil, s.invalidQueued("queued_resource_id", "The queued resource id %q must match ^[A-Za-z0-9_.~+%%-]+$.", id)
	}
	if s.zone(q.location) == nil {
		return nil, s.tpuNotFound(q.parent())
	}
	qr := &queuedResource{project: q.project, zone: q.location, version: q.version}
	if aerr := s.checkQueuedSpec(q, id, &in, qr); aerr != nil {
		return nil, aerr
	}
	name := q.parent() + "/queuedResources/" + id
	if _, dup := s.tpu.queued[name]; dup {
		return nil, newError(statusAlreadyExists, "Resource '%s' already exists", name).
			with(resourceInfo("tpu.googleapis.com", name))
	}
	in.Name = name
	in.CreateTime = rfc3339(q.now)
	qr.wire = &in
	qr.setState(qrAccepted, "")
	s.seq++
	qr.seq = s.seq
	s.tpu.queued[name] = qr

	// The create operation ends once the request is in the queue, not once
	// it is provisioned.
	op := s.newTPUOperation(q, MethodTPUQueuedResourcesCreate, "create", name, 0)
	failure := s.takeOpFailure(MethodTPUQueuedResourcesCreate)
	op.finish = func(op *operation, now time.Time) {
		if cur, ok := s.tpu.queued[name]; !ok || cur != qr {
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The queued resource was deleted while it was being created. " + s.eid()}
			return
		}
		if failure != nil {
			delete(s.tpu.queued, name)
			op.err = failure
			return
		}
		if qr.state() == qrAccepted {
			qr.setState(qrWaiting, "")
		}
		op.response = copyQueued(qr.wire)
	}
	return s.tpuOpJSON(op), nil
}

// checkQueuedSpec validates a create request and fills qr's bookkeeping.
func (s *Server) checkQueuedSpec(q *tpuRequest, id string, in *qrWire, qr *queuedResource) *apiError {
	if in.Tpu == nil || len(in.Tpu.NodeSpec) != 1 || in.Tpu.NodeSpec[0] == nil || in.Tpu.NodeSpec[0].Node == nil {
		return s.invalidQueued("tpu.node_spec", "Exactly one node_spec with a node is required.")
	}
	ns := in.Tpu.NodeSpec[0]
	if ns.Parent != q.parent() {
		return s.invalidQueued("tpu.node_spec.parent", "The parent %q must be the queued resource's location %q.", ns.Parent, q.parent())
	}
	names, aerr := s.queuedNodeNames(q, id, ns)
	if aerr != nil {
		return aerr
	}
	qr.names = names
	accel, cfg, aerr := s.checkNodeOffer(ns.Node, q.location)
	if aerr != nil {
		return aerr
	}
	qr.node, qr.accel, qr.config = *ns.Node, accel, cfg
	tiers := 0
	for _, set := range []bool{in.Spot != nil, in.Guaranteed != nil, in.BestEffort != nil} {
		if set {
			tiers++
		}
	}
	if tiers > 1 {
		return s.invalidQueued("tier", "Only one of spot, guaranteed and best_effort may be set.")
	}
	if qr.capKey, aerr = s.queuedCapacity(q, in, accel); aerr != nil {
		return aerr
	}
	if qr.maxRun, aerr = s.queuedMaxRun(in, tiers); aerr != nil {
		return aerr
	}
	after, until, aerr := s.queueWindow(in.QueueingPolicy, q.now)
	if aerr != nil {
		return aerr
	}
	qr.validAfter, qr.validUntil = after, until
	return nil
}

// queuedNodeNames are the names of the nodes a node spec creates: its
// node_id's, or those of its multislice parameters.
func (s *Server) queuedNodeNames(q *tpuRequest, id string, ns *qrNodeSpec) ([]string, *apiError) {
	multi := ns.MultisliceParams
	if multi == nil {
		multi = ns.MultiNodeParams
	}
	switch {
	case ns.NodeID != "" && multi != nil:
		return nil, s.invalidQueued("tpu.node_spec.node_id", "Only one of node_id and the multislice parameters may be set.")
	case ns.NodeID != "":
		if !nodeIDRE.MatchString(ns.NodeID) {
			return nil, s.invalidQueued("tpu.node_spec.node_id", "The node id %q is not valid: it must be 1-63 characters long, start with a lowercase letter, contain only lowercase letters, digits and hyphens, and not end with a hyphen.", ns.NodeID)
		}
		return []string{q.parent() + "/nodes/" + ns.NodeID}, nil
	case multi == nil:
		return nil, s.invalidQueued("tpu.node_spec.node_id", "One of node_id and the multislice parameters is required.")
	}
	// "This needs to be > 1"; without node_id_prefix "we use
	// queued_resource_id as the node_id_prefix" (MultisliceParams, v2
	// REST reference).
	if multi.NodeCount < 2 {
		return nil, s.invalidQueued("tpu.node_spec.multislice_params.node_count", "node_count must be greater than 1, not %d.", multi.NodeCount)
	}
	prefix := cmp.Or(multi.NodeIDPrefix, id)
	var names []string
	for i := range multi.NodeCount {
		id := fmt.Sprintf("%s-%d", prefix, i)
		if !nodeIDRE.MatchString(id) {
			return nil, s.invalidQueued("tpu.node_spec.multislice_params.node_id_prefix", "The node id %q made from the prefix is not valid.", id)
		}
		names = append(names, q.parent()+"/nodes/"+id)
	}
	return names, nil
}

// queuedCapacity is the capacity key a queued resource's nodes take: the
// reservation it names, when that has a capacity limit, else the
// accelerator type's in its zone.
func (s *Server) queuedCapacity(q *tpuRequest, in *qrWire, accel string) (string, *apiError) {
	key := capKey(q.location, accel)
	if in.ReservationName == "" {
		return key, nil
	}
	m := reservationRE.FindStringSubmatch(in.ReservationName)
	if m == nil {
		return "", s.invalidQueued("reservation_name", "%q is not projects/{project}/locations/{zone}/reservations/{reservation}.", in.ReservationName)
	}
	if m[2] != q.location {
		return "", s.invalidQueued("reservation_name", "The reservation %q is not in the queued resource's zone %s.", in.ReservationName, q.location)
	}
	if rk := capKey(q.location, "reservations/"+m[3]); s.available(rk) >= 0 {
		key = rk
	}
	return key, nil
}

// queuedMaxRun checks the provisioning model and returns the longest run
// of a flex-start request (0 for the other models). tiers is how many of
// spot, guaranteed and best_effort the request sets.
func (s *Server) queuedMaxRun(in *qrWire, tiers int) (time.Duration, *apiError) {
	switch in.ProvisioningModel {
	case "", "PROVISIONING_MODEL_UNSPECIFIED", "STANDARD", "SPOT", "RESERVATION_BOUND":
		if in.RunDuration != nil && in.RunDuration.MaxRunDuration != "" {
			return 0, s.invalidQueued("run_duration", "run_duration is only supported with the FLEX_START provisioning model.")
		}
		return 0, nil
	case provisioningFlexStart:
	default:
		return 0, s.invalidQueued("provisioning_model", "Unknown provisioning model %q.", in.ProvisioningModel)
	}
	if in.RunDuration == nil || in.RunDuration.MaxRunDuration == "" {
		return 0, s.invalidQueued("run_duration.max_run_duration", "max_run_duration is required with the FLEX_START provisioning model.")
	}
	d, ok := parseProtoDuration(in.RunDuration.MaxRunDuration)
	if !ok || d <= 0 || d > maxFlexStartRun {
		return 0, s.invalidQueued("run_duration.max_run_duration", "max_run_duration %q must be a duration above 0s and at most %ds (7 days).", in.RunDuration.MaxRunDuration, int(maxFlexStartRun.Seconds()))
	}
	if tiers > 0 || in.ReservationName != "" {
		return 0, s.invalidQueued("provisioning_model", "FLEX_START cannot be combined with a tier or a reservation.")
	}
	return d, nil
}

func (s *Server) queuedGet(q *tpuRequest, name string) (any, *apiError) {
	qr, ok := s.tpu.queued[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	return viewQueued(qr.wire, q.version), nil
}

// viewQueued is a queued resource as the API version shows it: the
// multislice parameters are nodeSpec.multisliceParams in v2 and
// nodeSpec.multiNodeParams in v2alpha1, whichever version created it.
func viewQueued(w *qrWire, version string) *qrWire {
	if w.Tpu == nil {
		return w
	}
	c := *w
	c.Tpu = &qrTPU{NodeSpec: make([]*qrNodeSpec, len(w.Tpu.NodeSpec))}
	for i, ns := range w.Tpu.NodeSpec {
		if ns == nil {
			continue
		}
		n := *ns
		multi := cmp.Or(n.MultisliceParams, n.MultiNodeParams)
		n.MultisliceParams, n.MultiNodeParams = nil, nil
		if version == "v2alpha1" {
			n.MultiNodeParams = multi
		} else {
			n.MultisliceParams = multi
		}
		c.Tpu.NodeSpec[i] = &n
	}
	return &c
}

func (s *Server) queuedList(q *tpuRequest) (any, *apiError) {
	prefix := q.parent() + "/queuedResources/"
	var names []string
	for name, qr := range s.tpu.queued {
		if strings.HasPrefix(name, prefix) || (q.location == "-" && qr.project == q.project) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	page, next, err := s.paginate(len(names), q.request)
	if err != nil {
		return nil, err
	}
	out := make([]*qrWire, 0, page.hi-page.lo)
	for _, name := range names[page.lo:page.hi] {
		out = append(out, viewQueued(s.tpu.queued[name].wire, q.version))
	}
	return map[string]any{"queuedResources": out, "nextPageToken": next}, nil
}

// liveNodes returns the nodes of qr that exist.
func (s *Server) liveNodes(qr *queuedResource) []*tpuNode {
	var out []*tpuNode
	for _, name := range qr.names {
		if tn, ok := s.tpu.nodes[name]; ok && tn.node.QueuedResource == qr.wire.Name {
			out = append(out, tn)
		}
	}
	return out
}

// dropNodes removes the nodes of qr and returns their capacity.
func (s *Server) dropNodes(qr *queuedResource) {
	for _, tn := range s.liveNodes(qr) {
		s.releaseNode(tn)
		delete(s.tpu.nodes, tn.node.Name)
	}
}

func (s *Server) queuedDelete(q *tpuRequest, name string) (any, *apiError) {
	qr, ok := s.tpu.queued[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	if qr.state() == qrDeleting {
		return nil, s.tpuBadState("delete", qrDeleting)
	}
	force, _ := strconv.ParseBool(q.r.URL.Query().Get("force"))
	if len(s.liveNodes(qr)) > 0 && !force {
		// The API refuses to delete a queued resource that still has
		// nodes unless force is set (queuedResources.delete "force":
		// "If set to true, all running nodes belonging to this queued
		// resource will be deleted first and then the queued resource
		// will be deleted").
		return nil, newError(statusFailedPrecondition,
			"Cloud TPU received a bad request. Queued resource %s has existing TPU nodes; delete them first or set force. %s", name, s.eid())
	}
	qr.setState(qrDeleting, initiatorUser)
	for _, tn := range s.liveNodes(qr) {
		tn.node.State, tn.node.Health = stateDeleting, ""
	}
	op := s.newTPUOperation(q, MethodTPUQueuedResourcesDelete, "delete", name, s.sc.Durations.TPUDelete)
	failure := s.takeOpFailure(MethodTPUQueuedResourcesDelete)
	op.finish = func(op *operation, now time.Time) {
		if cur, ok := s.tpu.queued[name]; !ok || cur != qr {
			return
		}
		if failure != nil {
			qr.setState(qrFailed, initiatorService)
			op.err = failure
			return
		}
		s.dropNodes(qr)
		delete(s.tpu.queued, name)
	}
	return s.tpuOpJSON(op), nil
}

// queuedReset puts a FAILED or SUSPENDED queued resource back in the queue.
// Assumption: the REST reference only says "Resets a QueuedResource TPU
// instance"; gcloud's queued-resources reset documents it for those states.
func (s *Server) queuedReset(q *tpuRequest, name string) (any, *apiError) {
	var body struct{}
	if err := decodeBody(q.body, &body); err != nil {
		return nil, err
	}
	qr, ok := s.tpu.queued[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	if st := qr.state(); st != qrFailed && st != qrSuspended {
		return nil, s.tpuBadState("reset", st)
	}
	s.dropNodes(qr)
	qr.setState(qrWaiting, initiatorUser)
	qr.validUntil = time.Time{}
	op := s.newTPUOperation(q, MethodTPUQueuedResourcesReset, "reset", name, 0)
	op.finish = func(op *operation, now time.Time) { op.response = copyQueued(qr.wire) }
	return s.tpuOpJSON(op), nil
}

// advanceQueued moves every queued resource along its state machine up to
// now, oldest request first, so that capacity goes to requests in the order
// they were made. The caller holds s.mu.
func (s *Server) advanceQueued(now time.Time) {
	list := make([]*queuedResource, 0, len(s.tpu.queued))
	for _, qr := range s.tpu.queued {
		list = append(list, qr)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].seq < list[j].seq })
	for _, qr := range list {
		s.advanceOne(qr, now)
	}
}

func (s *Server) advanceOne(qr *queuedResource, now time.Time) {
	for {
		before := qr.state()
		switch before {
		case qrWaiting:
			s.tryProvision(qr, now)
		case qrProvisioning:
			if lost := s.lostNode(qr); lost != "" {
				s.suspend(qr, now, lost)
			} else if !now.Before(qr.due) {
				for _, tn := range s.liveNodes(qr) {
					tn.node.State, tn.node.Health = stateReady, healthHealthy
					s.assignEndpoints(tn)
				}
				qr.activeAt = qr.due
				qr.setState(qrActive, "")
			}
		case qrActive:
			if lost := s.lostNode(qr); lost != "" {
				s.suspend(qr, now, lost)
			} else if qr.maxRun > 0 && !now.Before(qr.activeAt.Add(qr.maxRun)) {
				// "After the requested run time has passed, the TPU VMs are
				// deleted and the queued resource moves to the SUSPENDED
				// state" (request-using-flex-start).
				s.suspend(qr, qr.activeAt.Add(qr.maxRun), initiatorService)
			}
		case qrSuspending:
			if !now.Before(qr.due) {
				s.dropNodes(qr)
				qr.setState(qrSuspended, qr.wire.State.StateInitiator)
			}
		}
		if qr.state() == before {
			return
		}
	}
}

// tryProvision starts provisioning a waiting queued resource when its window
// is open and its capacity is free, or fails it when its window closed.
func (s *Server) tryProvision(qr *queuedResource, now time.Time) {
	if !qr.validUntil.IsZero() && !now.Before(qr.validUntil) {
		qr.setState(qrFailed, initiatorService)
		// Assumption: the API does not document the error of an expired
		// request; DEADLINE_EXCEEDED says what happened.
		qr.wire.State.FailedData = &qrFailedData{Error: &tpu.Status{
			Code:    int64(rpcCodes[statusDeadlineExceeded].rpc),
			Message: fmt.Sprintf("The queued resource could not be provisioned before %s, the end of its queueing policy. %s", rfc3339(qr.validUntil), s.eid()),
		}}
		return
	}
	if msg, ok := s.tpu.queuedFail[qr.zone]; ok {
		qr.setState(qrFailed, initiatorService)
		qr.wire.State.FailedData = &qrFailedData{Error: &tpu.Status{
			Code: int64(rpcCodes[statusResourceExhausted].rpc), Message: msg + " " + s.eid(),
		}}
		return
	}
	if now.Before(qr.validAfter) {
		return
	}
	n := len(qr.names)
	if avail := s.available(qr.capKey); avail >= 0 && avail < n {
		return
	}
	for _, name := range qr.names {
		if tn, ok := s.tpu.nodes[name]; ok && tn.node.QueuedResource != qr.wire.Name {
			qr.setState(qrFailed, initiatorService)
			qr.wire.State.FailedData = &qrFailedData{Error: &tpu.Status{
				Code: int64(rpcCodes[statusAlreadyExists].rpc), Message: fmt.Sprintf("Resource '%s' already exists", name),
			}}
			return
		}
	}
	req := &tpuRequest{request: &request{now: now}, version: qr.version, project: qr.project, location: qr.zone}
	for _, name := range qr.names {
		in := qr.node
		tn := s.newNode(req, in, name, qr.accel, qr.config)
		tn.node.QueuedResource = qr.wire.Name
		tn.node.MultisliceNode = n > 1
		sc := tpu.SchedulingConfig{}
		if tn.node.SchedulingConfig != nil {
			sc = *tn.node.SchedulingConfig
		}
		sc.Spot = sc.Spot || qr.wire.Spot != nil
		sc.Reserved = sc.Reserved || qr.wire.ReservationName != "" || (qr.wire.Guaranteed != nil && qr.wire.Guaranteed.Reserved)
		if sc.Spot || sc.Reserved || sc.Preemptible {
			tn.node.SchedulingConfig = &sc
		}
		s.reserve(qr.capKey, 1)
		tn.capKey = qr.capKey
	}
	qr.due = now.Add(s.sc.Durations.TPUCreate)
	qr.setState(qrProvisioning, "")
}

// lostNode reports who removed a node of qr: USER when one was deleted,
// SERVICE when one was preempted; "" when every node is there.
func (s *Server) lostNode(qr *queuedResource) string {
	for _, name := range qr.names {
		tn, ok := s.tpu.nodes[name]
		if !ok || tn.node.QueuedResource != qr.wire.Name {
			return initiatorUser
		}
		if tn.node.State == statePreempted {
			return initiatorService
		}
	}
	return ""
}

// suspend deletes the nodes of qr, as the service does when one of them is
// deleted or preempted or a flex-start run ends.
func (s *Server) suspend(qr *queuedResource, at time.Time, initiator string) {
	for _, tn := range s.liveNodes(qr) {
		s.releaseNode(tn)
		if tn.node.State != statePreempted {
			tn.node.State, tn.node.Health = stateDeleting, ""
		}
	}
	qr.due = at.Add(s.sc.Durations.TPUDelete)
	qr.setState(qrSuspending, initiator)
}

// copyQueued copies a queued resource's wire form for an operation response.
func copyQueued(w *qrWire) *qrWire {
	c := *w
	if w.State != nil {
		st := *w.State
		c.State = &st
	}
	return &c
}

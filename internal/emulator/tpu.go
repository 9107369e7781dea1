// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"net/http"
	"strings"

	tpu "google.golang.org/api/tpu/v2"
)

// Cloud TPU node states, from the v2 REST reference (Node.State).
const (
	stateCreating = "CREATING"
	stateReady    = "READY"
	stateDeleting = "DELETING"
	stateStopping = "STOPPING"
	stateStopped  = "STOPPED"
	stateStarting = "STARTING"
	healthHealthy = "HEALTHY"
)

// tpuNode is a Cloud TPU node and the emulator's bookkeeping for it.
type tpuNode struct {
	node    *tpu.Node
	project string
	zone    string
	workers int
	// capKey is the capacity the node holds while it runs ("" when none).
	capKey string
}

// nodeIDRE is the node-id rule, Compute Engine's resource name rule.
// Assumption: the v2 REST reference only says "The unqualified resource
// name"; gcloud and Compute Engine apply this rule to TPU VM names.
var nodeIDRE = resourceNameRE

// tpuRequest carries one parsed Cloud TPU API request.
type tpuRequest struct {
	*request
	version  string // "v2" or "v2alpha1"
	project  string
	location string
}

// routeTPU maps a /v2/ or /v2alpha1/ path to its method and handler.
func (s *Server) routeTPU(r *http.Request, version, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) < 3 || segs[0] != "projects" || segs[2] != "locations" {
		return "", "", nil
	}
	project := segs[1]
	tr := func(req *request) *tpuRequest {
		t := &tpuRequest{request: req, version: version, project: project}
		if len(segs) > 3 {
			t.location = segs[3]
		}
		return t
	}
	get := r.Method == http.MethodGet
	switch len(segs) {
	case 3:
		if get {
			return MethodTPULocationsList, project, func(q *request) (any, *apiError) { return s.tpuLocationsList(tr(q)) }
		}
	case 4:
		if get && !strings.Contains(segs[3], ":") {
			return MethodTPULocationsGet, project, func(q *request) (any, *apiError) { return s.tpuLocationsGet(tr(q)) }
		}
	case 5:
		switch {
		case segs[4] == "queuedResources":
			return s.routeQueued(r, project, tr, "")
		case segs[4] == "nodes" && get:
			return MethodTPUNodesList, project, func(q *request) (any, *apiError) { return s.tpuNodesList(tr(q)) }
		case segs[4] == "nodes" && r.Method == http.MethodPost:
			return MethodTPUNodesCreate, project, func(q *request) (any, *apiError) { return s.tpuNodesCreate(tr(q)) }
		case segs[4] == "acceleratorTypes" && get:
			return MethodTPUAcceleratorTypesList, project, func(q *request) (any, *apiError) { return s.tpuAcceleratorTypesList(tr(q)) }
		case segs[4] == "runtimeVersions" && get:
			return MethodTPURuntimeVersionsList, project, func(q *request) (any, *apiError) { return s.tpuRuntimeVersionsList(tr(q)) }
		case segs[4] == "operations" && get:
			return MethodTPUOperationsList, project, func(q *request) (any, *apiError) { return s.tpuOperationsList(tr(q)) }
		}
	case 6:
		id, verb, _ := strings.Cut(segs[5], ":")
		name := strings.Join(segs[:5], "/") + "/" + id
		switch {
		case segs[4] == "queuedResources":
			return s.routeQueued(r, project, tr, name+":"+verb)
		case segs[4] == "nodes" && verb == "" && get:
			return MethodTPUNodesGet, project, func(q *request) (any, *apiError) { return s.tpuNodesGet(tr(q), name) }
		case segs[4] == "nodes" && verb == "" && r.Method == http.MethodPatch:
			return MethodTPUNodesPatch, project, func(q *request) (any, *apiError) { return s.tpuNodesPatch(tr(q), name) }
		case segs[4] == "nodes" && verb == "" && r.Method == http.MethodDelete:
			return MethodTPUNodesDelete, project, func(q *request) (any, *apiError) { return s.tpuNodesDelete(tr(q), name) }
		case segs[4] == "nodes" && verb == "start" && r.Method == http.MethodPost:
			return MethodTPUNodesStart, project, func(q *request) (any, *apiError) { return s.tpuNodesStart(tr(q), name) }
		case segs[4] == "nodes" && verb == "stop" && r.Method == http.MethodPost:
			return MethodTPUNodesStop, project, func(q *request) (any, *apiError) { return s.tpuNodesStop(tr(q), name) }
		case segs[4] == "acceleratorTypes" && verb == "" && get:
			return MethodTPUAcceleratorTypesGet, project, func(q *request) (any, *apiError) { return s.tpuAcceleratorTypesGet(tr(q), name, id) }
		case segs[4] == "runtimeVersions" && verb == "" && get:
			return MethodTPURuntimeVersionsGet, project, func(q *request) (any, *apiError) { return s.tpuRuntimeVersionsGet(tr(q), name, id) }
		case segs[4] == "operations" && verb == "" && get:
			return MethodTPUOperationsGet, project, func(q *request) (any, *apiError) { return s.tpuOperationsGet(tr(q), name, id) }
		}
	}
	return "", "", nil
}

// eid is the "[EID: 0x…]" error id the Cloud TPU API appends to its messages.
func (s *Server) eid() string {
	return fmt.Sprintf("[EID: 0x%016x]", s.rand.Uint64())
}

func (s *Server) tpuNotFound(name string) *apiError {
	return newError(statusNotFound, "Resource '%s' was not found", name).
		with(resourceInfo("tpu.googleapis.com", name))
}

// tpuBadState is the answer to a method the node's state does not allow.
// The message follows the Cloud TPU form "Cloud TPU received a bad request.
// update is not supported while in state PREEMPTED [EID: …]" (seen in
// SkyPilot's GCP provisioner); the status is an assumption.
func (s *Server) tpuBadState(verb, state string) *apiError {
	return newError(statusFailedPrecondition, "Cloud TPU received a bad request. %s is not supported while in state %s %s", verb, state, s.eid())
}

func (q *tpuRequest) parent() string {
	return "projects/" + q.project + "/locations/" + q.location
}

// tpuState is the Cloud TPU API's part of the server's state.
type tpuState struct {
	nodes  map[string]*tpuNode
	queued map[string]*queuedResource
	// queuedFail is, per zone, the message with which its waiting queued
	// resources fail (FailQueuedIn).
	queuedFail map[string]string
}

func newTPUState() tpuState {
	return tpuState{nodes: map[string]*tpuNode{}, queued: map[string]*queuedResource{}, queuedFail: map[string]string{}}
}

// Cloud TPU API method names, used by the fault controls and the counters.
const (
	MethodTPULocationsList        = "tpu.locations.list"
	MethodTPULocationsGet         = "tpu.locations.get"
	MethodTPUNodesCreate          = "tpu.nodes.create"
	MethodTPUNodesList            = "tpu.nodes.list"
	MethodTPUNodesGet             = "tpu.nodes.get"
	MethodTPUNodesPatch           = "tpu.nodes.patch"
	MethodTPUNodesDelete          = "tpu.nodes.delete"
	MethodTPUNodesStart           = "tpu.nodes.start"
	MethodTPUNodesStop            = "tpu.nodes.stop"
	MethodTPUAcceleratorTypesList = "tpu.acceleratorTypes.list"
	MethodTPUAcceleratorTypesGet  = "tpu.acceleratorTypes.get"
	MethodTPURuntimeVersionsList  = "tpu.runtimeVersions.list"
	MethodTPURuntimeVersionsGet   = "tpu.runtimeVersions.get"
	MethodTPUOperationsList       = "tpu.operations.list"
	MethodTPUOperationsGet        = "tpu.operations.get"

	MethodTPUQueuedResourcesCreate = "tpu.queuedResources.create"
	MethodTPUQueuedResourcesList   = "tpu.queuedResources.list"
	MethodTPUQueuedResourcesGet    = "tpu.queuedResources.get"
	MethodTPUQueuedResourcesDelete = "tpu.queuedResources.delete"
	MethodTPUQueuedResourcesReset  = "tpu.queuedResources.reset"
)

// tpuMethods are the Cloud TPU methods (methodNames).
var tpuMethods = []string{
	MethodTPULocationsList, MethodTPULocationsGet,
	MethodTPUNodesCreate, MethodTPUNodesList, MethodTPUNodesGet, MethodTPUNodesPatch,
	MethodTPUNodesDelete, MethodTPUNodesStart, MethodTPUNodesStop,
	MethodTPUAcceleratorTypesList, MethodTPUAcceleratorTypesGet,
	MethodTPURuntimeVersionsList, MethodTPURuntimeVersionsGet,
	MethodTPUOperationsList, MethodTPUOperationsGet,
	MethodTPUQueuedResourcesCreate, MethodTPUQueuedResourcesList, MethodTPUQueuedResourcesGet,
	MethodTPUQueuedResourcesDelete, MethodTPUQueuedResourcesReset,
}

// tpuOperationMethods are the Cloud TPU methods that start an operation
// (operationMethods).
var tpuOperationMethods = []string{
	MethodTPUNodesCreate, MethodTPUNodesPatch, MethodTPUNodesDelete, MethodTPUNodesStart, MethodTPUNodesStop,
	MethodTPUQueuedResourcesCreate, MethodTPUQueuedResourcesDelete, MethodTPUQueuedResourcesReset,
}

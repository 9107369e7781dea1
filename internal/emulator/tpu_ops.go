// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

// newTPUOperation starts a google.longrunning operation of the TPU API.
func (s *Server) newTPUOperation(q *tpuRequest, method, verb, target string, d time.Duration) *operation {
	op := s.newOperation(apiTPU, method, q.project, q.location, d, q.now)
	op.apiVersion = q.version
	op.verb = verb
	op.target = target
	return op
}

func (s *Server) tpuOperationsList(q *tpuRequest) (any, *apiError) {
	var list []*operation
	for _, op := range s.ops {
		if op.api == apiTPU && op.project == q.project && (q.location == "-" || op.location == q.location) {
			list = append(list, op)
		}
	}
	page, next, err := s.paginate(len(list), q.request)
	if err != nil {
		return nil, err
	}
	out := make([]*tpu.Operation, 0, page.hi-page.lo)
	for _, op := range list[page.lo:page.hi] {
		out = append(out, s.tpuOpJSON(op))
	}
	return &tpu.ListOperationsResponse{Operations: out, NextPageToken: next}, nil
}

func (s *Server) tpuOperationsGet(q *tpuRequest, name, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiTPU || op.project != q.project || op.location != q.location {
		return nil, s.tpuNotFound(name)
	}
	return s.tpuOpJSON(op), nil
}

// tpuOpJSON renders a google.longrunning.Operation of the TPU API.
func (s *Server) tpuOpJSON(op *operation) *tpu.Operation {
	meta := map[string]any{
		"@type":      "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".OperationMetadata",
		"createTime": rfc3339(op.created),
		"target":     op.target,
		"verb":       op.verb,
		"apiVersion": op.apiVersion,
	}
	if op.done {
		meta["endTime"] = rfc3339(op.ended)
	}
	out := &tpu.Operation{Name: op.name(), Done: op.done}
	out.Metadata, _ = json.Marshal(meta)
	if !op.done {
		return out
	}
	if op.err != nil {
		out.Error = &tpu.Status{Code: int64(op.err.Code), Message: op.err.Message, Details: rawDetails(op.err.Details)}
		return out
	}
	var resp map[string]any
	if n, ok := op.response.(*tpu.Node); ok {
		b, _ := json.Marshal(n)
		_ = json.Unmarshal(b, &resp)
		resp["@type"] = "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".Node"
	} else if qr, ok := op.response.(*qrWire); ok {
		b, _ := json.Marshal(qr)
		_ = json.Unmarshal(b, &resp)
		resp["@type"] = "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".QueuedResource"
	} else {
		resp = map[string]any{"@type": "type.googleapis.com/google.protobuf.Empty"}
	}
	out.Response, _ = json.Marshal(resp)
	return out
}

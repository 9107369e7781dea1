// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"sort"

	tpu "google.golang.org/api/tpu/v2"
)

// Nodes returns copies of every Cloud TPU node, sorted by name.
func (s *Server) Nodes() []*tpu.Node {
	defer s.settled()()
	out := make([]*tpu.Node, 0, len(s.tpu.nodes))
	for _, n := range s.tpu.nodes {
		out = append(out, copyNode(n.node))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DeleteNode removes a Cloud TPU node at once, out of band, as if someone
// deleted it behind the client's back. name is the full resource name.
func (s *Server) DeleteNode(name string) error {
	defer s.settled()()
	tn, ok := s.tpu.nodes[name]
	if !ok {
		return fmt.Errorf("DeleteNode: no node %s", name)
	}
	s.releaseNode(tn)
	delete(s.tpu.nodes, name)
	return nil
}

// QueuedResourceInfo is a snapshot of one queued resource for assertions.
type QueuedResourceInfo struct {
	Name  string   `json:"name"`
	State string   `json:"state"`
	Nodes []string `json:"nodes"`
}

// QueuedResources returns every queued resource, sorted by name.
func (s *Server) QueuedResources() []QueuedResourceInfo {
	defer s.settled()()
	out := make([]QueuedResourceInfo, 0, len(s.tpu.queued))
	for name, qr := range s.tpu.queued {
		info := QueuedResourceInfo{Name: name, State: qr.state()}
		for _, tn := range s.liveNodes(qr) {
			info.Nodes = append(info.Nodes, tn.node.Name)
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PreemptNode preempts a Spot or preemptible TPU node at once, as Compute
// Engine does when it needs the capacity back: the node becomes PREEMPTED
// and gives its capacity back, and a queued resource it belongs to is
// suspended. Only Spot and preemptible TPUs are preempted
// (https://cloud.google.com/tpu/docs/queued-resources).
func (s *Server) PreemptNode(name string) error {
	defer s.settled()()
	tn, ok := s.tpu.nodes[name]
	if !ok {
		return fmt.Errorf("PreemptNode: no node %s", name)
	}
	sc := tn.node.SchedulingConfig
	if sc == nil || (!sc.Spot && !sc.Preemptible) {
		return fmt.Errorf("PreemptNode: %s is neither Spot nor preemptible", name)
	}
	s.releaseNode(tn)
	tn.node.State, tn.node.Health = statePreempted, ""
	s.advanceQueued(s.clock.Now())
	return nil
}

// FailQueuedIn makes the queued resources that wait in zone fail (FAILED,
// with message and RESOURCE_EXHAUSTED), now and until ClearQueuedFailure:
// the service giving up on a request the zone cannot serve, which is what
// sends a client on to its next zone. The docs do not say which error a
// failed request carries; RESOURCE_EXHAUSTED is an assumption.
func (s *Server) FailQueuedIn(zone, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tpu.queuedFail[zone] = message
	s.advanceQueued(s.clock.Now())
}

// ClearQueuedFailure ends FailQueuedIn for zone.
func (s *Server) ClearQueuedFailure(zone string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tpu.queuedFail, zone)
}

// tpuAdminVerbs are the admin API's Cloud TPU endpoints (adminVerbs).
var tpuAdminVerbs = []adminVerb{
	{verb: "nodes", serve: func(s *Server, _ *adminCall) (any, error) { return s.Nodes(), nil }},
	{verb: "queued-resources", serve: func(s *Server, _ *adminCall) (any, error) { return s.QueuedResources(), nil }},
	{post: true, verb: "delete-node", usage: `{"name":"projects/p/locations/us-central1-a/nodes/n"}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.DeleteNode(a.Name) })},
	{post: true, verb: "preempt-node", usage: `{"name":"projects/p/locations/us-central1-a/nodes/n"} (Spot and preemptible nodes)`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.PreemptNode(a.Name) })},
}

type snapshotNode struct {
	Project string    `json:"project"`
	Zone    string    `json:"zone"`
	Workers int       `json:"workers"`
	Node    *tpu.Node `json:"node"`
}

// tpuSnapshot is the Cloud TPU part of a snapshot: the nodes, sorted by
// name.
func (s *Server) tpuSnapshot() []snapshotNode {
	var out []snapshotNode
	for _, tn := range s.tpu.nodes {
		out = append(out, snapshotNode{Project: tn.project, Zone: tn.zone, Workers: tn.workers, Node: copyNode(tn.node)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node.Name < out[j].Node.Name })
	return out
}

// loadTPUSnapshot restores the nodes of a snapshot, settling those caught
// mid-operation (see LoadSnapshot).
func (s *Server) loadTPUSnapshot(nodes []snapshotNode) {
	for _, sn := range nodes {
		if sn.Node == nil || sn.Node.State == stateDeleting {
			continue
		}
		tn := &tpuNode{node: sn.Node, project: sn.Project, zone: sn.Zone, workers: max(1, sn.Workers)}
		switch sn.Node.State {
		case stateCreating, stateStarting:
			tn.node.State, tn.node.Health = stateReady, healthHealthy
			s.assignEndpoints(tn)
		case stateStopping:
			tn.node.State, tn.node.Health = stateStopped, ""
		}
		if tn.node.State != stateStopped {
			tn.capKey = capKey(tn.zone, tn.node.AcceleratorType)
			s.reserve(tn.capKey, 1)
		}
		s.tpu.nodes[tn.node.Name] = tn
	}
}

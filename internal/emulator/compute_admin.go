// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	compute "google.golang.org/api/compute/v1"
)

// Instances returns copies of every Compute Engine instance, sorted by
// selfLink.
func (s *Server) Instances() []*compute.Instance {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	s.settle(now)
	out := make([]*compute.Instance, 0, len(s.compute.instances))
	for _, gi := range s.compute.instances {
		out = append(out, s.renderInstance(gi, now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SelfLink < out[j].SelfLink })
	return out
}

// Instance returns a copy of the stored instance name
// (projects/P/zones/Z/instances/N).
func (s *Server) Instance(name string) (*compute.Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	s.settle(now)
	gi, ok := s.compute.instances[name]
	if !ok {
		return nil, fmt.Errorf("Instance: no instance %s", name)
	}
	return s.renderInstance(gi, now), nil
}

// PreemptInstance preempts a Spot or preemptible instance
// (projects/P/zones/Z/instances/N) as Compute Engine does: its capacity is
// released and, with instanceTerminationAction STOP (the default), it is
// TERMINATED; with DELETE it is gone
// (https://cloud.google.com/compute/docs/instances/spot#preemption-process).
func (s *Server) PreemptInstance(name string) error {
	defer s.settled()()
	gi, ok := s.compute.instances[name]
	if !ok {
		return fmt.Errorf("PreemptInstance: no instance %s", name)
	}
	sch := gi.inst.Scheduling
	if sch == nil || (sch.ProvisioningModel != "SPOT" && !sch.Preemptible) {
		return fmt.Errorf("PreemptInstance: %s is neither Spot nor preemptible", name)
	}
	if gi.inst.Status != instRunning {
		return fmt.Errorf("PreemptInstance: %s is %s, not RUNNING", name, gi.inst.Status)
	}
	s.releaseInstance(gi)
	if sch.InstanceTerminationAction == "DELETE" {
		delete(s.compute.instances, name)
		return nil
	}
	gi.inst.Status = instTerminated
	return nil
}

// instanceStatuses are the statuses SetInstanceStatus accepts
// (https://cloud.google.com/compute/docs/instances/instance-life-cycle).
var instanceStatuses = []string{instProvisioning, instStaging, instRunning, instStopping, "SUSPENDING", "SUSPENDED",
	"REPAIRING", instTerminated}

// SetInstanceStatus sets the status of instance name out of band, as
// Compute Engine's own actions do (a stop, a repair). A TERMINATED or
// SUSPENDED instance holds no capacity; setting it RUNNING again takes
// capacity without checking the limit.
func (s *Server) SetInstanceStatus(name, status string) error {
	if !slices.Contains(instanceStatuses, status) {
		return fmt.Errorf("SetInstanceStatus: unknown status %q; one of %s", status, strings.Join(instanceStatuses, ", "))
	}
	defer s.settled()()
	gi, ok := s.compute.instances[name]
	if !ok {
		return fmt.Errorf("SetInstanceStatus: no instance %s", name)
	}
	if status == instTerminated || status == "SUSPENDED" {
		s.releaseInstance(gi)
	} else if gi.capKey == "" {
		gi.capKey = capKey(gi.zone, gi.inst.MachineType[strings.LastIndex(gi.inst.MachineType, "/")+1:])
		s.reserve(gi.capKey, 1)
	}
	gi.inst.Status = status
	return nil
}

// SetImage adds an image to the scenario's table, or replaces the one of
// the same project and name.
func (s *Server) SetImage(img Image) {
	s.mu.Lock()
	defer s.mu.Unlock()
	upsert(&s.sc.Images, img, func(cur Image) bool { return cur.Project == img.Project && cur.Name == img.Name })
}

// SetQuota sets (or adds) a regional quota of every project (project "")
// or of one project.
func (s *Server) SetQuota(q Quota) {
	s.mu.Lock()
	defer s.mu.Unlock()
	upsert(&s.sc.Quotas, q, func(cur Quota) bool {
		return cur.Project == q.Project && cur.Region == q.Region && cur.Metric == q.Metric
	})
}

// SetReservation sets (or adds) a reservation, by project, zone and name.
func (s *Server) SetReservation(r Reservation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	upsert(&s.sc.Reservations, r, func(cur Reservation) bool {
		return cur.Project == r.Project && cur.Zone == r.Zone && cur.Name == r.Name
	})
}

// computeAdminVerbs are the admin API's Compute Engine endpoints
// (adminVerbs).
var computeAdminVerbs = []adminVerb{
	{verb: "instances", serve: func(s *Server, _ *adminCall) (any, error) { return s.Instances(), nil }},
	{verb: "resource-policies", serve: func(s *Server, _ *adminCall) (any, error) { return s.ResourcePolicies(), nil }},
	{verb: "instance", usage: "?name=projects/p/zones/us-central1-c/instances/n",
		serve: func(s *Server, q *adminCall) (any, error) { return s.Instance(q.r.URL.Query().Get("name")) }},
	{post: true, verb: "quota", usage: `{"region":"us-central1","metric":"NVIDIA_L4_GPUS","limit":8,"usage":8} (what regions.get reports; "project" limits it to one project)`,
		serve: adminJSONVerb(func(s *Server, q *Quota) (any, error) {
			if q.Region == "" || q.Metric == "" {
				return nil, errors.New("quota needs region and metric")
			}
			s.SetQuota(*q)
			return okResult, nil
		})},
	{post: true, verb: "reservation", usage: `{"zone":"us-central1-b","name":"serving-l4","machineType":"g2-standard-8","count":2,"inUseCount":2,"specificReservationRequired":true}`,
		serve: adminJSONVerb(func(s *Server, r *Reservation) (any, error) {
			if r.Zone == "" || r.Name == "" || r.MachineType == "" {
				return nil, errors.New("reservation needs zone, name and machineType")
			}
			s.SetReservation(*r)
			return okResult, nil
		})},
	{post: true, verb: "preempt-instance", usage: `{"name":"projects/p/zones/us-central1-c/instances/n"} (Spot and preemptible instances)`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.PreemptInstance(a.Name) })},
	{post: true, verb: "instance-status", usage: `{"name":"projects/p/zones/us-central1-c/instances/n","status":"TERMINATED"}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.SetInstanceStatus(a.Name, a.Status) })},
	{post: true, verb: "image", usage: `{"project":"p","name":"my-image","family":"my-family"}`,
		serve: adminJSONVerb(func(s *Server, img *Image) (any, error) {
			if img.Project == "" || img.Name == "" {
				return nil, errors.New("image needs project and name")
			}
			s.SetImage(*img)
			return okResult, nil
		})},
}

// ResourcePolicies returns copies of every resource policy, sorted by
// selfLink.
func (s *Server) ResourcePolicies() []*compute.ResourcePolicy {
	defer s.settled()()
	var out []*compute.ResourcePolicy
	for _, key := range slices.Sorted(maps.Keys(s.compute.policies)) {
		p := *s.compute.policies[key].policy
		out = append(out, &p)
	}
	return out
}

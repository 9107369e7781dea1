// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	compute "google.golang.org/api/compute/v1"
)

// Compute Engine resource policies and their region operations, as the
// Compute Engine REST reference describes them:
// https://cloud.google.com/compute/docs/reference/rest/v1/resourcePolicies
// (insert, get, list, delete) and
// https://cloud.google.com/compute/docs/reference/rest/v1/regionOperations
// (get, wait). The emulator serves the kind a multi-host TPU7x slice node
// pool needs, the workload policy (ResourcePolicy.workloadPolicy: type
// HIGH_AVAILABILITY or HIGH_THROUGHPUT, with acceleratorTopology or
// maxTopologyDistance, which `gcloud compute resource-policies create
// workload-policy` offers as alternatives), and refuses the other kinds.
const (
	MethodComputeResourcePoliciesInsert = "compute.resourcePolicies.insert"
	MethodComputeResourcePoliciesGet    = "compute.resourcePolicies.get"
	MethodComputeResourcePoliciesList   = "compute.resourcePolicies.list"
	MethodComputeResourcePoliciesDelete = "compute.resourcePolicies.delete"
	MethodComputeRegionOperationsGet    = "compute.regionOperations.get"
	MethodComputeRegionOperationsWait   = "compute.regionOperations.wait"
)

// computeResourcePolicyMethods are the resource policy and region operation
// methods (methodNames).
var computeResourcePolicyMethods = []string{
	MethodComputeResourcePoliciesInsert, MethodComputeResourcePoliciesGet, MethodComputeResourcePoliciesList,
	MethodComputeResourcePoliciesDelete, MethodComputeRegionOperationsGet, MethodComputeRegionOperationsWait,
}

// Workload policy types (ResourcePolicyWorkloadPolicy.type).
var workloadPolicyTypes = []string{"HIGH_AVAILABILITY", "HIGH_THROUGHPUT"}

// Resource policy statuses (ResourcePolicy.status: CREATING, READY,
// DELETING, INVALID, EXPIRED).
const (
	policyCreating = "CREATING"
	policyReady    = "READY"
	policyDeleting = "DELETING"
)

// gcePolicy is one resource policy with what the emulator keeps beside it.
type gcePolicy struct {
	policy  *compute.ResourcePolicy
	project string
	region  string
}

// policyKey is projects/P/regions/R/resourcePolicies/N.
func policyKey(project, region, name string) string {
	return "projects/" + project + "/regions/" + region + "/resourcePolicies/" + name
}

// routeComputeResourcePolicies maps the resource policy and region
// operation paths:
//
//	POST|GET projects/{p}/regions/{r}/resourcePolicies
//	GET|DELETE projects/{p}/regions/{r}/resourcePolicies/{name}
//	GET projects/{p}/regions/{r}/operations/{op}, POST …/operations/{op}/wait
func (s *Server) routeComputeResourcePolicies(r *http.Request, segs []string) (string, string, handler) {
	if len(segs) < 5 || segs[0] != "projects" || segs[2] != "regions" {
		return "", "", nil
	}
	project, region := segs[1], segs[3]
	cr := func(q *request) *computeRequest { return &computeRequest{request: q, project: project} }
	get, post := r.Method == http.MethodGet, r.Method == http.MethodPost
	switch {
	case segs[4] == "resourcePolicies" && len(segs) == 5 && post:
		return MethodComputeResourcePoliciesInsert, project, func(q *request) (any, *apiError) {
			return s.computeResourcePoliciesInsert(cr(q), region)
		}
	case segs[4] == "resourcePolicies" && len(segs) == 5 && get:
		return MethodComputeResourcePoliciesList, project, func(q *request) (any, *apiError) {
			return s.computeResourcePoliciesList(cr(q), region)
		}
	case segs[4] == "resourcePolicies" && len(segs) == 6 && get:
		return MethodComputeResourcePoliciesGet, project, func(q *request) (any, *apiError) {
			return s.computeResourcePoliciesGet(cr(q), region, segs[5])
		}
	case segs[4] == "resourcePolicies" && len(segs) == 6 && r.Method == http.MethodDelete:
		return MethodComputeResourcePoliciesDelete, project, func(q *request) (any, *apiError) {
			return s.computeResourcePoliciesDelete(cr(q), region, segs[5])
		}
	case segs[4] == "operations" && len(segs) == 6 && get:
		return MethodComputeRegionOperationsGet, project, func(q *request) (any, *apiError) {
			return s.computeRegionOperationsGet(cr(q), region, segs[5])
		}
	case segs[4] == "operations" && len(segs) == 7 && segs[6] == "wait" && post:
		return MethodComputeRegionOperationsWait, project, func(q *request) (any, *apiError) {
			return s.computeRegionOperationsGet(cr(q), region, segs[5])
		}
	}
	return "", "", nil
}

// knownRegion reports whether a zone of the scenario is in region.
func (s *Server) knownRegion(region string) bool {
	return slices.ContainsFunc(s.sc.Zones, func(z Zone) bool { return regionOf(z.Name) == region })
}

// checkResourcePolicy checks a resource policy to insert as the REST
// reference describes it: a name of 1-63 characters matching
// [a-z]([-a-z0-9]*[a-z0-9])? (ResourcePolicy.name), and here a workload
// policy with a documented type and at most one of acceleratorTopology and
// maxTopologyDistance.
func checkResourcePolicy(p *compute.ResourcePolicy) *apiError {
	if !instanceNameRE.MatchString(p.Name) {
		return computeInvalid("resource.name", p.Name, "Must be a match of regex '"+resourceNamePattern+"'")
	}
	if p.GroupPlacementPolicy != nil || p.InstanceSchedulePolicy != nil || p.SnapshotSchedulePolicy != nil || p.DiskConsistencyGroupPolicy != nil {
		return newError(statusUnimplemented, "The emulator serves workload policies only (resource.workloadPolicy).")
	}
	w := p.WorkloadPolicy
	if w == nil {
		return computeInvalid("resource", p.Name, "A resource policy must set one policy: here resource.workloadPolicy.")
	}
	if !slices.Contains(workloadPolicyTypes, w.Type) {
		return computeInvalid("resource.workloadPolicy.type", w.Type, "Must be one of "+strings.Join(workloadPolicyTypes, ", ")+".")
	}
	if w.AcceleratorTopology != "" && w.MaxTopologyDistance != "" {
		return computeInvalid("resource.workloadPolicy.maxTopologyDistance", w.MaxTopologyDistance,
			"acceleratorTopology and maxTopologyDistance cannot both be set.")
	}
	return nil
}

func (s *Server) computeResourcePoliciesInsert(q *computeRequest, region string) (any, *apiError) {
	if !s.knownRegion(region) {
		return nil, computeNotFound(q, "regions/"+region)
	}
	var in compute.ResourcePolicy
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	if aerr := checkResourcePolicy(&in); aerr != nil {
		return nil, aerr
	}
	key := policyKey(q.project, region, in.Name)
	if _, taken := s.compute.policies[key]; taken {
		msg := fmt.Sprintf("The resource '%s' already exists", key)
		e := newError(statusAlreadyExists, "%s", msg)
		e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "alreadyExists"}}
		return nil, e
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	p := in
	p.Kind, p.Id, p.Status = "compute#resourcePolicy", h.Sum64()>>1, policyCreating
	p.Region = s.computeSelf(q, "regions/"+region)
	p.SelfLink = s.computeSelf(q, "regions/"+region+"/resourcePolicies/"+in.Name)
	p.CreationTimestamp = rfc3339(q.now)
	gp := &gcePolicy{policy: &p, project: q.project, region: region}
	s.compute.policies[key] = gp
	op := s.newRegionOperation(q, MethodComputeResourcePoliciesInsert, region, "insert", gp)
	failure := s.takeOpFailure(MethodComputeResourcePoliciesInsert)
	op.finish = func(op *operation, _ time.Time) {
		if cur, ok := s.compute.policies[key]; !ok || cur != gp {
			return
		}
		if failure != nil {
			delete(s.compute.policies, key)
			op.err = failure
			return
		}
		gp.policy.Status = policyReady
	}
	return s.computeOpJSON(op, true), nil
}

func (s *Server) policyOf(q *computeRequest, region, name string) (*gcePolicy, *apiError) {
	gp, ok := s.compute.policies[policyKey(q.project, region, name)]
	if !ok {
		return nil, computeNotFound(q, "regions/"+region+"/resourcePolicies/"+name)
	}
	return gp, nil
}

func (s *Server) computeResourcePoliciesGet(q *computeRequest, region, name string) (any, *apiError) {
	gp, aerr := s.policyOf(q, region, name)
	if aerr != nil {
		return nil, aerr
	}
	out := *gp.policy
	return &out, nil
}

func (s *Server) computeResourcePoliciesList(q *computeRequest, region string) (any, *apiError) {
	if !s.knownRegion(region) {
		return nil, computeNotFound(q, "regions/"+region)
	}
	out := &compute.ResourcePolicyList{Kind: "compute#resourcePolicyList", SelfLink: s.computeSelf(q, "regions/"+region+"/resourcePolicies")}
	for _, key := range slices.Sorted(maps.Keys(s.compute.policies)) {
		if gp := s.compute.policies[key]; gp.project == q.project && gp.region == region {
			p := *gp.policy
			out.Items = append(out.Items, &p)
		}
	}
	return out, nil
}

// computeResourcePoliciesDelete deletes a policy. A policy a node pool
// uses cannot be deleted: Compute Engine answers 400 resourceInUseByAnotherResource
// ("The resource_policy resource '…' is already being used by '…'", the
// form of Compute Engine's in-use errors).
func (s *Server) computeResourcePoliciesDelete(q *computeRequest, region, name string) (any, *apiError) {
	gp, aerr := s.policyOf(q, region, name)
	if aerr != nil {
		return nil, aerr
	}
	key := policyKey(q.project, region, name)
	if user := s.policyUser(gp); user != "" {
		msg := fmt.Sprintf("The resource_policy resource '%s' is already being used by '%s'", key, user)
		e := newError(statusInvalidArgument, "%s", msg)
		e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "resourceInUseByAnotherResource"}}
		return nil, e
	}
	before := gp.policy.Status
	gp.policy.Status = policyDeleting
	op := s.newRegionOperation(q, MethodComputeResourcePoliciesDelete, region, "delete", gp)
	failure := s.takeOpFailure(MethodComputeResourcePoliciesDelete)
	op.finish = func(op *operation, _ time.Time) {
		if cur, ok := s.compute.policies[key]; !ok || cur != gp {
			return
		}
		if failure != nil {
			gp.policy.Status = before
			op.err = failure
			return
		}
		delete(s.compute.policies, key)
	}
	return s.computeOpJSON(op, true), nil
}

// policyUser names the node pool that uses a policy, "" for none (a pool's
// placementPolicy.policyName names it: GKE's NodePool.PlacementPolicy).
func (s *Server) policyUser(gp *gcePolicy) string {
	for _, ck := range slices.Sorted(maps.Keys(s.gke.clusters)) {
		c := s.gke.clusters[ck]
		for _, pk := range slices.Sorted(maps.Keys(c.pools)) {
			np := c.pools[pk].np
			if pp := np.PlacementPolicy; pp != nil && pp.PolicyName != "" && policyNamed(pp.PolicyName, gp) {
				return ck + "/nodePools/" + np.Name
			}
		}
	}
	return ""
}

// policyNamed reports whether name (a policy's name, or a partial or full
// URL of it) names gp.
func policyNamed(name string, gp *gcePolicy) bool {
	if !strings.Contains(name, "/") {
		return name == gp.policy.Name
	}
	return strings.HasSuffix(gp.policy.SelfLink, "/"+resourcePath(gp.project, name))
}

// newRegionOperation starts a region operation of type opType on gp.
func (s *Server) newRegionOperation(q *computeRequest, method, region, opType string, gp *gcePolicy) *operation {
	op := s.newOperation(apiCompute, method, q.project, region, s.sc.Durations.InstanceUpdate, q.now)
	op.regional = true
	op.opType = opType
	op.targetLink = gp.policy.SelfLink
	op.targetID = gp.policy.Id
	return op
}

func (s *Server) computeRegionOperationsGet(q *computeRequest, region, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiCompute || !op.regional || op.project != q.project || op.location != region {
		return nil, computeNotFound(q, "regions/"+region+"/operations/"+id)
	}
	// regionOperations.wait, like zoneOperations.wait, may answer before the
	// operation is DONE: the emulator answers at once.
	return s.computeOpJSON(op, false), nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"sort"

	compute "google.golang.org/api/compute/v1"
)

// Compute Engine capacity evidence: regional quotas (regions.get) and
// reservations (reservations.list, reservations.get,
// reservations.aggregatedList), as the Compute Engine REST reference
// describes them (https://cloud.google.com/compute/docs/reference/rest/v1/regions/get,
// https://cloud.google.com/compute/docs/reference/rest/v1/reservations).
const (
	MethodComputeRegionsGet                 = "compute.regions.get"
	MethodComputeReservationsList           = "compute.reservations.list"
	MethodComputeReservationsGet            = "compute.reservations.get"
	MethodComputeReservationsAggregatedList = "compute.reservations.aggregatedList"
)

// computeCapacityMethods are the Compute Engine region and reservation
// methods (methodNames).
var computeCapacityMethods = []string{MethodComputeRegionsGet, MethodComputeReservationsList,
	MethodComputeReservationsGet, MethodComputeReservationsAggregatedList}

// Quota is one regional Compute Engine quota, as regions.get reports it.
// A region reports only the metrics the scenario lists: regions.get leaves
// out metrics it has no data for (the API fails open), so a missing metric
// means "unknown", not zero.
type Quota struct {
	// Project the quota belongs to; empty applies to every project.
	Project string  `json:"project,omitempty"`
	Region  string  `json:"region"`
	Metric  string  `json:"metric"`
	Limit   float64 `json:"limit"`
	Usage   float64 `json:"usage"`
}

// Reservation is a Compute Engine zonal reservation of identical VMs.
type Reservation struct {
	// Project of the reservation; empty applies to every project.
	Project     string `json:"project,omitempty"`
	Zone        string `json:"zone"`
	Name        string `json:"name"`
	MachineType string `json:"machineType"`
	// Accelerators are the attached GPUs of each VM (N1), by type.
	Accelerators map[string]int64 `json:"accelerators,omitempty"`
	Count        int64            `json:"count"`
	InUseCount   int64            `json:"inUseCount"`
	// SpecificReservationRequired: only VMs that name the reservation
	// consume it.
	SpecificReservationRequired bool `json:"specificReservationRequired,omitempty"`
}

// upsert replaces the element of list that is the same as v, or appends v.
func upsert[T any](list *[]T, v T, same func(T) bool) {
	for i, cur := range *list {
		if same(cur) {
			(*list)[i] = v
			return
		}
	}
	*list = append(*list, v)
}

func forProject(scoped, project string) bool {
	return scoped == "" || scoped == "*" || scoped == project
}

func (s *Server) computeRegionsGet(q *computeRequest, region string) (any, *apiError) {
	var zones []string
	for _, z := range s.sc.Zones {
		if regionOf(z.Name) == region {
			zones = append(zones, s.computeSelf(q, "zones/"+z.Name))
		}
	}
	if len(zones) == 0 {
		return nil, computeNotFound(q, "regions/"+region)
	}
	out := &compute.Region{Kind: "compute#region", Name: region, Status: "UP", Zones: zones,
		SelfLink: s.computeSelf(q, "regions/"+region)}
	for _, qu := range s.sc.Quotas {
		if qu.Region == region && forProject(qu.Project, q.project) {
			out.Quotas = append(out.Quotas, &compute.Quota{Metric: qu.Metric, Limit: qu.Limit, Usage: qu.Usage,
				ForceSendFields: []string{"Limit", "Usage"}})
		}
	}
	return out, nil
}

// computeReservation renders a reservation as the API does.
func (s *Server) computeReservation(q *computeRequest, r Reservation) *compute.Reservation {
	props := &compute.AllocationSpecificSKUAllocationReservedInstanceProperties{MachineType: r.MachineType}
	types := make([]string, 0, len(r.Accelerators))
	for t := range r.Accelerators {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		props.GuestAccelerators = append(props.GuestAccelerators,
			&compute.AcceleratorConfig{AcceleratorType: t, AcceleratorCount: r.Accelerators[t]})
	}
	return &compute.Reservation{
		Kind: "compute#reservation", Name: r.Name, Status: "READY",
		Zone:     s.computeSelf(q, "zones/"+r.Zone),
		SelfLink: s.computeSelf(q, "zones/"+r.Zone+"/reservations/"+r.Name),
		SpecificReservation: &compute.AllocationSpecificSKUReservation{
			Count: r.Count, InUseCount: r.InUseCount, InstanceProperties: props,
			ForceSendFields: []string{"InUseCount"},
		},
		SpecificReservationRequired: r.SpecificReservationRequired,
	}
}

func (s *Server) zoneReservations(q *computeRequest, zone string) []*compute.Reservation {
	var out []*compute.Reservation
	for _, r := range s.sc.Reservations {
		if r.Zone == zone && forProject(r.Project, q.project) {
			out = append(out, s.computeReservation(q, r))
		}
	}
	return out
}

func (s *Server) computeReservationsList(q *computeRequest, zone string) (any, *apiError) {
	if s.zone(zone) == nil {
		return nil, computeNotFound(q, "zones/"+zone)
	}
	return &compute.ReservationList{Kind: "compute#reservationList", Items: s.zoneReservations(q, zone),
		SelfLink: s.computeSelf(q, "zones/"+zone+"/reservations")}, nil
}

func (s *Server) computeReservationsGet(q *computeRequest, zone, name string) (any, *apiError) {
	for _, r := range s.zoneReservations(q, zone) {
		if r.Name == name {
			return r, nil
		}
	}
	return nil, computeNotFound(q, "zones/"+zone+"/reservations/"+name)
}

func (s *Server) computeReservationsAggregated(q *computeRequest) (any, *apiError) {
	out := &compute.ReservationAggregatedList{Kind: "compute#reservationAggregatedList",
		Items: map[string]compute.ReservationsScopedList{}, SelfLink: s.computeSelf(q, "aggregated/reservations")}
	for _, z := range s.sc.Zones {
		rs := s.zoneReservations(q, z.Name)
		if len(rs) == 0 {
			out.Items["zones/"+z.Name] = compute.ReservationsScopedList{Warning: &compute.ReservationsScopedListWarning{
				Code: "NO_RESULTS_ON_PAGE", Message: "There are no results for scope 'zones/" + z.Name + "' on this page."}}
			continue
		}
		out.Items["zones/"+z.Name] = compute.ReservationsScopedList{Reservations: rs}
	}
	return out, nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"net/http"
	"regexp"
	"slices"
	"strings"

	compute "google.golang.org/api/compute/v1"
)

// Compute Engine methods the emulator serves, for counters and fault controls.
const (
	MethodComputeZonesList                      = "compute.zones.list"
	MethodComputeZonesGet                       = "compute.zones.get"
	MethodComputeMachineTypesList               = "compute.machineTypes.list"
	MethodComputeMachineTypesGet                = "compute.machineTypes.get"
	MethodComputeMachineTypesAggregatedList     = "compute.machineTypes.aggregatedList"
	MethodComputeAcceleratorTypesList           = "compute.acceleratorTypes.list"
	MethodComputeAcceleratorTypesGet            = "compute.acceleratorTypes.get"
	MethodComputeAcceleratorTypesAggregatedList = "compute.acceleratorTypes.aggregatedList"
)

// computeCatalogMethods are the Compute Engine zone, machine type and
// accelerator type methods (methodNames).
var computeCatalogMethods = []string{
	MethodComputeZonesList, MethodComputeZonesGet,
	MethodComputeMachineTypesList, MethodComputeMachineTypesGet, MethodComputeMachineTypesAggregatedList,
	MethodComputeAcceleratorTypesList, MethodComputeAcceleratorTypesGet, MethodComputeAcceleratorTypesAggregatedList,
}

// ComputeEndpoint is the endpoint to give the compute/v1 client with
// option.WithEndpoint: the base URL with the API's path, as Compute
// Engine's own ("https://compute.googleapis.com/compute/v1/").
func (s *Server) ComputeEndpoint() string { return s.url + "/compute/v1/" }

// computeRequest is a Compute Engine call for one project.
type computeRequest struct {
	*request
	project string
}

// routeCompute maps a path under /compute/v1/ to its method and handler.
// Paths (Compute Engine REST reference,
// https://cloud.google.com/compute/docs/reference/rest/v1):
//
//	projects/{p}/zones[/{zone}]
//	projects/{p}/zones/{zone}/machineTypes[/{name}]
//	projects/{p}/zones/{zone}/acceleratorTypes[/{name}]
//	projects/{p}/aggregated/machineTypes
//	projects/{p}/aggregated/acceleratorTypes
//
// and the instances and zone operations of routeComputeInstances.
func (s *Server) routeCompute(r *http.Request, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if method, project, h := s.routeComputeInstances(r, segs); h != nil {
		return method, project, h
	}
	if method, project, h := s.routeComputeResourcePolicies(r, segs); h != nil {
		return method, project, h
	}
	if len(segs) < 3 || segs[0] != "projects" || r.Method != http.MethodGet {
		return "", "", nil
	}
	project := segs[1]
	cr := func(q *request) *computeRequest { return &computeRequest{request: q, project: project} }
	at := func(i int) string {
		if i < len(segs) {
			return segs[i]
		}
		return ""
	}
	switch {
	case at(2) == "zones" && at(4) == "instanceGroupManagers":
		return s.routeComputeIGM(r, rest)
	case at(2) == "zones" && len(segs) == 3:
		return MethodComputeZonesList, project, func(q *request) (any, *apiError) { return s.computeZonesList(cr(q)) }
	case at(2) == "zones" && len(segs) == 4:
		return MethodComputeZonesGet, project, func(q *request) (any, *apiError) { return s.computeZonesGet(cr(q), segs[3]) }
	case at(2) == "zones" && at(4) == "machineTypes" && len(segs) == 5:
		return MethodComputeMachineTypesList, project, func(q *request) (any, *apiError) { return s.computeMachineTypesList(cr(q), segs[3]) }
	case at(2) == "zones" && at(4) == "machineTypes" && len(segs) == 6:
		return MethodComputeMachineTypesGet, project, func(q *request) (any, *apiError) {
			return s.computeMachineTypesGet(cr(q), segs[3], segs[5])
		}
	case at(2) == "zones" && at(4) == "acceleratorTypes" && len(segs) == 5:
		return MethodComputeAcceleratorTypesList, project, func(q *request) (any, *apiError) {
			return s.computeAcceleratorTypesList(cr(q), segs[3])
		}
	case at(2) == "zones" && at(4) == "acceleratorTypes" && len(segs) == 6:
		return MethodComputeAcceleratorTypesGet, project, func(q *request) (any, *apiError) {
			return s.computeAcceleratorTypesGet(cr(q), segs[3], segs[5])
		}
	case at(2) == "regions" && len(segs) == 4:
		return MethodComputeRegionsGet, project, func(q *request) (any, *apiError) { return s.computeRegionsGet(cr(q), segs[3]) }
	case at(2) == "zones" && at(4) == "reservations" && len(segs) == 5:
		return MethodComputeReservationsList, project, func(q *request) (any, *apiError) {
			return s.computeReservationsList(cr(q), segs[3])
		}
	case at(2) == "zones" && at(4) == "reservations" && len(segs) == 6:
		return MethodComputeReservationsGet, project, func(q *request) (any, *apiError) {
			return s.computeReservationsGet(cr(q), segs[3], segs[5])
		}
	case at(2) == "aggregated" && at(3) == "reservations" && len(segs) == 4:
		return MethodComputeReservationsAggregatedList, project, func(q *request) (any, *apiError) {
			return s.computeReservationsAggregated(cr(q))
		}
	case at(2) == "aggregated" && at(3) == "machineTypes" && len(segs) == 4:
		return MethodComputeMachineTypesAggregatedList, project, func(q *request) (any, *apiError) {
			return s.computeMachineTypesAggregated(cr(q))
		}
	case at(2) == "aggregated" && at(3) == "acceleratorTypes" && len(segs) == 4:
		return MethodComputeAcceleratorTypesAggregatedList, project, func(q *request) (any, *apiError) {
			return s.computeAcceleratorTypesAggregated(cr(q))
		}
	}
	return "", "", nil
}

// computeSelf is a resource's selfLink.
func (s *Server) computeSelf(q *computeRequest, path string) string {
	return s.ComputeEndpoint() + "projects/" + q.project + "/" + path
}

// computeNotFound is Compute Engine's 404 for a path of the project (see
// computeResourceNotFound).
func computeNotFound(q *computeRequest, path string) *apiError {
	return computeResourceNotFound("projects/" + q.project + "/" + path)
}

func (s *Server) computeZonesList(q *computeRequest) (any, *apiError) {
	out := &compute.ZoneList{Kind: "compute#zoneList", SelfLink: s.computeSelf(q, "zones")}
	for _, z := range s.sc.Zones {
		out.Items = append(out.Items, s.computeZone(q, z.Name))
	}
	return out, nil
}

func (s *Server) computeZone(q *computeRequest, name string) *compute.Zone {
	return &compute.Zone{Kind: "compute#zone", Name: name, Status: "UP",
		Region:   s.computeSelf(q, "regions/"+regionOf(name)),
		SelfLink: s.computeSelf(q, "zones/"+name)}
}

func (s *Server) computeZonesGet(q *computeRequest, zone string) (any, *apiError) {
	if s.zone(zone) == nil {
		return nil, computeNotFound(q, "zones/"+zone)
	}
	return s.computeZone(q, zone), nil
}

// zoneMachineTypes lists the machine types of a zone: the general ones and
// the zone's accelerator machine types (the scenario's machineTypes other
// than GPU accelerator types).
func zoneMachineTypes(z *Zone) []string {
	out := slices.Clone(generalMachineTypes)
	for _, m := range z.MachineTypes {
		if !isGPUAcceleratorType(m) {
			out = append(out, m)
		}
	}
	return out
}

// zoneAcceleratorTypes lists the GPU accelerator types of a zone.
func zoneAcceleratorTypes(z *Zone) []string {
	var out []string
	for _, m := range z.MachineTypes {
		if isGPUAcceleratorType(m) {
			out = append(out, m)
		}
	}
	return out
}

// zoneHasMachineType: accelerator machine types only where the scenario
// lists them, other machine types everywhere.
func zoneHasMachineType(z *Zone, name string) bool {
	if isTPUMachine(name) || isGPUMachine(name) {
		return contains(z.MachineTypes, name)
	}
	return name != "" && !isGPUAcceleratorType(name)
}

func (s *Server) computeMachineType(q *computeRequest, zone, name string) *compute.MachineType {
	mt := &compute.MachineType{Kind: "compute#machineType", Name: name, Zone: zone,
		SelfLink: s.computeSelf(q, "zones/"+zone+"/machineTypes/"+name)}
	if gpu, n := builtinGPUs(name); n > 0 {
		mt.Accelerators = []*compute.MachineTypeAccelerators{{GuestAcceleratorType: gpu, GuestAcceleratorCount: int64(n)}}
	}
	return mt
}

func (s *Server) computeMachineTypesList(q *computeRequest, zone string) (any, *apiError) {
	z := s.zone(zone)
	if z == nil {
		return nil, computeNotFound(q, "zones/"+zone)
	}
	out := &compute.MachineTypeList{Kind: "compute#machineTypeList", SelfLink: s.computeSelf(q, "zones/"+zone+"/machineTypes")}
	for _, m := range zoneMachineTypes(z) {
		out.Items = append(out.Items, s.computeMachineType(q, zone, m))
	}
	return out, nil
}

func (s *Server) computeMachineTypesGet(q *computeRequest, zone, name string) (any, *apiError) {
	z := s.zone(zone)
	if z == nil || !zoneHasMachineType(z, name) {
		return nil, computeNotFound(q, "zones/"+zone+"/machineTypes/"+name)
	}
	return s.computeMachineType(q, zone, name), nil
}

func (s *Server) computeAcceleratorType(q *computeRequest, zone, name string) *compute.AcceleratorType {
	return &compute.AcceleratorType{Kind: "compute#acceleratorType", Name: name, Zone: zone,
		SelfLink: s.computeSelf(q, "zones/"+zone+"/acceleratorTypes/"+name)}
}

func (s *Server) computeAcceleratorTypesList(q *computeRequest, zone string) (any, *apiError) {
	z := s.zone(zone)
	if z == nil {
		return nil, computeNotFound(q, "zones/"+zone)
	}
	out := &compute.AcceleratorTypeList{Kind: "compute#acceleratorTypeList", SelfLink: s.computeSelf(q, "zones/"+zone+"/acceleratorTypes")}
	for _, a := range zoneAcceleratorTypes(z) {
		out.Items = append(out.Items, s.computeAcceleratorType(q, zone, a))
	}
	return out, nil
}

func (s *Server) computeAcceleratorTypesGet(q *computeRequest, zone, name string) (any, *apiError) {
	z := s.zone(zone)
	if z == nil || !slices.Contains(zoneAcceleratorTypes(z), name) {
		return nil, computeNotFound(q, "zones/"+zone+"/acceleratorTypes/"+name)
	}
	return s.computeAcceleratorType(q, zone, name), nil
}

// nameFilterRE reads the one filter form the emulator supports on
// aggregated lists: name = "x" (or name eq x), as the Compute Engine API
// documents for its filter parameter.
var nameFilterRE = regexp.MustCompile(`^\s*name\s*(?:=|eq)\s*"?([a-z0-9-]+)"?\s*$`)

// nameFilter returns the name the request filters on ("" for none).
func nameFilter(q *computeRequest) (string, *apiError) {
	f := q.r.URL.Query().Get("filter")
	if f == "" {
		return "", nil
	}
	m := nameFilterRE.FindStringSubmatch(f)
	if m == nil {
		return "", newError(statusInvalidArgument, "Invalid value for field 'filter': '%s'. The emulator supports name = \"<name>\" only.", f)
	}
	return m[1], nil
}

// noResults is the per-scope warning of an aggregated list scope without items.
func noResults(zone string) *compute.MachineTypesScopedListWarning {
	return &compute.MachineTypesScopedListWarning{Code: "NO_RESULTS_ON_PAGE",
		Message: "There are no results for scope 'zones/" + zone + "' on this page."}
}

func (s *Server) computeMachineTypesAggregated(q *computeRequest) (any, *apiError) {
	name, aerr := nameFilter(q)
	if aerr != nil {
		return nil, aerr
	}
	out := &compute.MachineTypeAggregatedList{Kind: "compute#machineTypeAggregatedList",
		Items: map[string]compute.MachineTypesScopedList{}, SelfLink: s.computeSelf(q, "aggregated/machineTypes")}
	for i := range s.sc.Zones {
		z := &s.sc.Zones[i]
		var l compute.MachineTypesScopedList
		for _, m := range zoneMachineTypes(z) {
			if name == "" || m == name {
				l.MachineTypes = append(l.MachineTypes, s.computeMachineType(q, z.Name, m))
			}
		}
		if name != "" && len(l.MachineTypes) == 0 && zoneHasMachineType(z, name) {
			l.MachineTypes = append(l.MachineTypes, s.computeMachineType(q, z.Name, name))
		}
		if len(l.MachineTypes) == 0 {
			l.Warning = noResults(z.Name)
		}
		out.Items["zones/"+z.Name] = l
	}
	return out, nil
}

func (s *Server) computeAcceleratorTypesAggregated(q *computeRequest) (any, *apiError) {
	name, aerr := nameFilter(q)
	if aerr != nil {
		return nil, aerr
	}
	out := &compute.AcceleratorTypeAggregatedList{Kind: "compute#acceleratorTypeAggregatedList",
		Items: map[string]compute.AcceleratorTypesScopedList{}, SelfLink: s.computeSelf(q, "aggregated/acceleratorTypes")}
	for i := range s.sc.Zones {
		z := &s.sc.Zones[i]
		var l compute.AcceleratorTypesScopedList
		for _, a := range zoneAcceleratorTypes(z) {
			if name == "" || a == name {
				l.AcceleratorTypes = append(l.AcceleratorTypes, s.computeAcceleratorType(q, z.Name, a))
			}
		}
		if len(l.AcceleratorTypes) == 0 {
			w := noResults(z.Name)
			l.Warning = &compute.AcceleratorTypesScopedListWarning{Code: w.Code, Message: w.Message}
		}
		out.Items["zones/"+z.Name] = l
	}
	return out, nil
}

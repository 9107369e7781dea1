// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
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

// Machine types outside the accelerator families exist in every zone (the
// general-purpose families); these are the ones zones list.
var generalMachineTypes = []string{"e2-standard-2", "e2-standard-4", "e2-standard-8",
	"n1-standard-1", "n1-standard-2", "n1-standard-4", "n1-standard-8", "n1-standard-16", "n1-standard-32", "n1-standard-64", "n1-standard-96"}

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

func isGPUAcceleratorType(name string) bool { return strings.HasPrefix(name, "nvidia-") }

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

// builtinGPUs is the GPU type and count built into a machine type, from
// Compute Engine's accelerator-optimized machine tables
// (https://cloud.google.com/compute/docs/accelerator-optimized-machines):
// A2 highgpu/megagpu carry A100 40GB, A2 ultragpu A100 80GB, A3 highgpu and
// edgegpu H100, A3 megagpu H100 Mega, A3 ultragpu H200, A4 B200, and the
// count is the "-<n>g" suffix; G2 carries L4s by size.
func builtinGPUs(machine string) (string, int) {
	families := []struct{ prefix, gpu string }{
		{"a2-highgpu-", "nvidia-tesla-a100"}, {"a2-megagpu-", "nvidia-tesla-a100"},
		{"a2-ultragpu-", "nvidia-a100-80gb"}, {"a3-highgpu-", "nvidia-h100-80gb"},
		{"a3-edgegpu-", "nvidia-h100-80gb"}, {"a3-megagpu-", "nvidia-h100-mega-80gb"},
		{"a3-ultragpu-", "nvidia-h200-141gb"}, {"a4-highgpu-", "nvidia-b200"},
	}
	for _, f := range families {
		if rest, ok := strings.CutPrefix(machine, f.prefix); ok {
			size, _, _ := strings.Cut(rest, "-")
			if n, err := strconv.Atoi(strings.TrimSuffix(size, "g")); err == nil && strings.HasSuffix(size, "g") {
				return f.gpu, n
			}
		}
	}
	// G2: https://cloud.google.com/compute/docs/gpus#l4-gpus
	g2 := map[string]int{"g2-standard-4": 1, "g2-standard-8": 1, "g2-standard-12": 1, "g2-standard-16": 1,
		"g2-standard-24": 2, "g2-standard-32": 1, "g2-standard-48": 4, "g2-standard-96": 8}
	if n, ok := g2[machine]; ok {
		return "nvidia-l4", n
	}
	return "", 0
}

// n1GPUCounts are the GPU counts Compute Engine attaches to an N1 VM, per
// GPU type (https://cloud.google.com/compute/docs/gpus, the N1 table: T4,
// P4 and P100 in 1, 2 or 4; V100 in 1, 2, 4 or 8).
var n1GPUCounts = map[string][]int64{
	"nvidia-tesla-t4":   {1, 2, 4},
	"nvidia-tesla-p4":   {1, 2, 4},
	"nvidia-tesla-p100": {1, 2, 4},
	"nvidia-tesla-v100": {1, 2, 4, 8},
}

// attachedGPUProblem says why count GPUs of gpuType cannot be attached to
// machineType, "" when they can or the emulator has no rule for the pair.
// Assumption: the wording of the answer.
func attachedGPUProblem(machineType, gpuType string, count int64) string {
	counts, ok := n1GPUCounts[gpuType]
	if !ok || !strings.HasPrefix(machineType, "n1-") || slices.Contains(counts, count) {
		return ""
	}
	return fmt.Sprintf("Accelerator count %d of type %s is not supported on N1 machine types; supported counts: %v.", count, gpuType, counts)
}

// tpuBootDiskRefused are the boot disk types Compute Engine's TPU machine
// types do not take (https://cloud.google.com/compute/docs/tpus/tpu-machines,
// the disk table: TPU7x and v6e take Hyperdisk only, v5p no Standard
// Persistent Disk nor Hyperdisk Balanced). An instance without a disk type
// gets pd-standard (instances.insert initializeParams.diskType: "If not
// specified, the default is pd-standard").
var tpuBootDiskRefused = map[string][]string{
	"tpu7x-": {"pd-standard", "pd-balanced", "pd-ssd"},
	"ct6e-":  {"pd-standard", "pd-balanced", "pd-ssd"},
	"ct5p-":  {"pd-standard", "hyperdisk-balanced"},
}

// bootDiskProblem says why a boot disk of diskType (a full or partial URL,
// "" for the default) cannot boot machineType, "" when it can. Assumption:
// the wording, "<type> disk type cannot be used by <machine type> machine
// type", as Compute Engine's answers are quoted in user reports.
func bootDiskProblem(machineType, diskType string) string {
	t := "pd-standard"
	if diskType != "" {
		t = diskType[strings.LastIndex(diskType, "/")+1:]
	}
	for prefix, refused := range tpuBootDiskRefused {
		if strings.HasPrefix(machineType, prefix) && slices.Contains(refused, t) {
			return fmt.Sprintf("%s disk type cannot be used by %s machine type.", t, machineType)
		}
	}
	return ""
}

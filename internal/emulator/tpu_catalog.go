// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"strconv"
	"strings"

	tpu "google.golang.org/api/tpu/v2"
)

// tpuShape is a parsed TPU accelerator type.
type tpuShape struct {
	family   string
	chips    int
	topology string
	workers  int
}

// parseTPUType parses names like "v5litepod-16" or "v5p-128".
func parseTPUType(name string) (tpuShape, bool) {
	i := strings.LastIndex(name, "-")
	if i <= 0 {
		return tpuShape{}, false
	}
	fam, ok := tpuFamilies[name[:i]]
	if !ok {
		return tpuShape{}, false
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n <= 0 || n%fam.coresPerChip != 0 {
		return tpuShape{}, false
	}
	chips := n / fam.coresPerChip
	topo := canonicalTopology(chips, fam.dims)
	if topo == "" {
		return tpuShape{}, false
	}
	workers := 1
	if chips > fam.singleHostMax {
		workers = chips / fam.chipsPerHost
	}
	return tpuShape{family: name[:i], chips: chips, topology: topo, workers: workers}, true
}

// typeForConfig maps an AcceleratorConfig to the accelerator type name with
// the same chip count, such as {V5LITE_POD, 2x2} to "v5litepod-4".
func typeForConfig(cfg *tpu.AcceleratorConfig) (string, bool) {
	for name, fam := range tpuFamilies {
		if fam.configType != cfg.Type {
			continue
		}
		dims, ok := parseTopology(cfg.Topology)
		if !ok || len(dims) != fam.dims {
			return "", false
		}
		t := fmt.Sprintf("%s-%d", name, product(dims)*fam.coresPerChip)
		if _, ok := parseTPUType(t); !ok {
			return "", false
		}
		return t, true
	}
	return "", false
}

func (s *Server) tpuLocationsList(q *tpuRequest) (any, *apiError) {
	var locs []*tpu.Location
	for _, z := range s.sc.Zones {
		if len(z.TPUAcceleratorTypes) == 0 {
			continue
		}
		locs = append(locs, tpuLocation(q.project, z.Name))
	}
	page, next, err := s.paginate(len(locs), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListLocationsResponse{Locations: locs[page.lo:page.hi], NextPageToken: next}, nil
}

func tpuLocation(project, zone string) *tpu.Location {
	return &tpu.Location{Name: "projects/" + project + "/locations/" + zone, LocationId: zone}
}

func (s *Server) tpuLocationsGet(q *tpuRequest) (any, *apiError) {
	z := s.zone(q.location)
	if z == nil || len(z.TPUAcceleratorTypes) == 0 {
		return nil, s.tpuNotFound("projects/" + q.project + "/locations/" + q.location)
	}
	return tpuLocation(q.project, z.Name), nil
}

func (s *Server) tpuAcceleratorTypesList(q *tpuRequest) (any, *apiError) {
	var out []*tpu.AcceleratorType
	if z := s.zone(q.location); z != nil {
		for _, t := range z.TPUAcceleratorTypes {
			out = append(out, acceleratorType(q.parent(), t))
		}
	}
	page, next, err := s.paginate(len(out), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListAcceleratorTypesResponse{AcceleratorTypes: out[page.lo:page.hi], NextPageToken: next}, nil
}

func acceleratorType(parent, t string) *tpu.AcceleratorType {
	at := &tpu.AcceleratorType{Name: parent + "/acceleratorTypes/" + t, Type: t}
	if shape, ok := parseTPUType(t); ok {
		at.AcceleratorConfigs = []*tpu.AcceleratorConfig{{Type: tpuFamilies[shape.family].configType, Topology: shape.topology}}
	}
	return at
}

func (s *Server) tpuAcceleratorTypesGet(q *tpuRequest, name, id string) (any, *apiError) {
	if z := s.zone(q.location); z != nil && contains(z.TPUAcceleratorTypes, id) {
		return acceleratorType(q.parent(), id), nil
	}
	return nil, s.tpuNotFound(name)
}

func (s *Server) tpuRuntimeVersionsList(q *tpuRequest) (any, *apiError) {
	var out []*tpu.RuntimeVersion
	if z := s.zone(q.location); z != nil {
		for _, v := range z.RuntimeVersions {
			out = append(out, &tpu.RuntimeVersion{Name: q.parent() + "/runtimeVersions/" + v, Version: v})
		}
	}
	page, next, err := s.paginate(len(out), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListRuntimeVersionsResponse{RuntimeVersions: out[page.lo:page.hi], NextPageToken: next}, nil
}

func (s *Server) tpuRuntimeVersionsGet(q *tpuRequest, name, id string) (any, *apiError) {
	if z := s.zone(q.location); z != nil && contains(z.RuntimeVersions, id) {
		return &tpu.RuntimeVersion{Name: name, Version: id}, nil
	}
	return nil, s.tpuNotFound(name)
}

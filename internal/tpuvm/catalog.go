// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// shape is what the catalog says about an accelerator type.
type shape struct {
	generation string
	chips      int
	hosts      int
}

// shapeOf returns the catalog's shape of an accelerator type, and false when
// the catalog does not know the type.
func shapeOf(cat *catalog.Catalog, acceleratorType string) (shape, bool) {
	acc, fs := cat.Accelerator(acceleratorType)
	if fs.HasErrors() || acc.Generation == "" {
		return shape{}, false
	}
	return shape{generation: acc.Generation, chips: acc.Chips, hosts: acc.Hosts}, true
}

// tpuAPIAcceleratorTypes lists the documented accelerator types of the
// generations the Cloud TPU API supports, for the schema description.
func tpuAPIAcceleratorTypes(cat *catalog.Catalog) []string {
	var out []string
	for _, g := range cat.Generations() {
		if g.TPUAPI.Supported {
			out = append(out, cat.AcceleratorTypes(g.Name)...)
		}
	}
	return out
}

// generationNames lists the generations the Cloud TPU API supports.
func generationNames(cat *catalog.Catalog) []string {
	var out []string
	for _, g := range cat.Generations() {
		if g.TPUAPI.Supported {
			out = append(out, g.Name)
		}
	}
	return out
}

func frameworkNames(cat *catalog.Catalog) []string { return cat.Frameworks() }

func modeNames() []string { return slices.Clone(catalog.ModeNames) }

// catalogInputs are the values the catalog checks, with whether each was
// known. Unknown values are left out of the query.
type catalogInputs struct {
	acceleratorType  types.String
	runtimeVersion   types.String
	framework        types.String
	frameworkVersion types.String
	zones            types.List
	api              types.String
}

func inputsOf(m vmModel) catalogInputs {
	return catalogInputs{
		acceleratorType:  m.AcceleratorType,
		runtimeVersion:   m.RuntimeVersion,
		framework:        m.Framework,
		frameworkVersion: m.FrameworkVersion,
		zones:            m.Zones,
		api:              m.API,
	}
}

// query builds the catalog query, and false when the accelerator type is not
// set or any input is unknown: the checks and the runtime choice then wait
// until the values are known (the plan made at apply time), so that no
// value is checked, or chosen, from an incomplete query.
func (in catalogInputs) query(cat *catalog.Catalog) (catalog.RuntimeQuery, bool) {
	if !tfmodel.Known(in.acceleratorType) || !tfmodel.WhollyKnown(in.zones) {
		return catalog.RuntimeQuery{}, false
	}
	for _, v := range []types.String{in.runtimeVersion, in.framework, in.frameworkVersion, in.api} {
		if v.IsUnknown() {
			return catalog.RuntimeQuery{}, false
		}
	}
	q := catalog.RuntimeQuery{
		AcceleratorType:  in.acceleratorType.ValueString(),
		RuntimeVersion:   tfmodel.KnownString(in.runtimeVersion),
		Framework:        tfmodel.KnownString(in.framework),
		FrameworkVersion: tfmodel.KnownString(in.frameworkVersion),
	}
	api := chosenAPI(cat, in.api, in.acceleratorType)
	q.ForTPUAPI, q.ForComputeEngine = api == apiCloudTPU, api == apiComputeEngine
	if zones, ok := listStrings(in.zones); ok && !in.zones.IsNull() {
		q.Zones = zones
	}
	return q, true
}

// runtimeOf runs the catalog on the inputs: the one check shared by
// ValidateConfig and ModifyPlan (and by the accel_runtime_version data
// source, which calls the same catalog query).
func runtimeOf(cat *catalog.Catalog, in catalogInputs) (catalog.RuntimeResult, bool) {
	q, ok := in.query(cat)
	if !ok {
		return catalog.RuntimeResult{}, false
	}
	return cat.ResolveRuntime(q), true
}

// diskZoneFindings checks the data disks (catalog.DataDisks): their
// number for a VM of the Cloud TPU API, whose page gives each generation's
// limit, and the zonal disks against zones, when known. Findings are on
// data_disks, or data_disks[i] for one disk.
func diskZoneFindings(ctx context.Context, cat *catalog.Catalog, m vmModel) catalog.Findings {
	if !tfmodel.Known(m.DataDisks) {
		return nil
	}
	zones, ok := listStrings(m.Zones)
	if !ok || m.Zones.IsNull() {
		zones = nil
	}
	gen := ""
	if s, known := shapeOf(cat, m.AcceleratorType.ValueString()); known && tfmodel.Known(m.AcceleratorType) && effectiveAPI(cat, m) == apiCloudTPU {
		gen = s.generation
	}
	var disks []dataDiskModel
	if diags := tfmodel.ElementsAs(ctx, m.DataDisks, &disks); diags.HasError() {
		return nil
	}
	paths := make([]string, len(disks))
	for i, d := range disks {
		if tfmodel.Known(d.SourceDisk) {
			paths[i] = d.SourceDisk.ValueString()
		}
	}
	return cat.DataDisks(gen, paths, zones)
}

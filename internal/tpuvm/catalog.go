// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// shape is what the catalog says about an accelerator type.
type shape struct {
	generation string
	chips      int
	hosts      int
}

// shapeOf returns the catalog's shape of an accelerator type, and false when
// the catalog does not know the type.
func shapeOf(acceleratorType string) (shape, bool) {
	acc, fs := catalog.Default().Accelerator(acceleratorType)
	if fs.HasErrors() || acc.Generation == "" {
		return shape{}, false
	}
	return shape{generation: acc.Generation, chips: acc.Chips, hosts: acc.Hosts}, true
}

// tpuAPIAcceleratorTypes lists the documented accelerator types of the
// generations the Cloud TPU API supports, for the schema description.
func tpuAPIAcceleratorTypes() []string {
	var out []string
	for _, g := range catalog.Default().Generations() {
		if g.TPUAPI.Supported {
			out = append(out, catalog.Default().AcceleratorTypes(g.Name)...)
		}
	}
	return out
}

// generationNames lists the generations the Cloud TPU API supports.
func generationNames() []string {
	var out []string
	for _, g := range catalog.Default().Generations() {
		if g.TPUAPI.Supported {
			out = append(out, g.Name)
		}
	}
	return out
}

func frameworkNames() []string { return catalog.Default().Frameworks() }

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
func (in catalogInputs) query() (catalog.RuntimeQuery, bool) {
	if !known(in.acceleratorType) || !wholly(in.zones) {
		return catalog.RuntimeQuery{}, false
	}
	for _, v := range []types.String{in.runtimeVersion, in.framework, in.frameworkVersion, in.api} {
		if v.IsUnknown() {
			return catalog.RuntimeQuery{}, false
		}
	}
	q := catalog.RuntimeQuery{
		AcceleratorType:  in.acceleratorType.ValueString(),
		RuntimeVersion:   knownString(in.runtimeVersion),
		Framework:        knownString(in.framework),
		FrameworkVersion: knownString(in.frameworkVersion),
	}
	api := chosenAPI(in.api, in.acceleratorType)
	q.ForTPUAPI, q.ForComputeEngine = api == apiCloudTPU, api == apiComputeEngine
	if zones, ok := listStrings(in.zones); ok && !in.zones.IsNull() {
		q.Zones = zones
	}
	return q, true
}

// resolve runs the catalog on the inputs: the one check shared by
// ValidateConfig and ModifyPlan (and by the accel_runtime_version data
// source, which calls the same catalog query).
func resolve(in catalogInputs) (catalog.RuntimeResult, bool) {
	q, ok := in.query()
	if !ok {
		return catalog.RuntimeResult{}, false
	}
	return catalog.Default().ResolveRuntime(q), true
}

// diskZoneFindings checks the zonal data disks against zones
// (catalog.DataDiskZones). Findings are on data_disks[i].
func diskZoneFindings(ctx context.Context, m vmModel) catalog.Findings {
	zones, ok := listStrings(m.Zones)
	if !ok || m.Zones.IsNull() || !known(m.DataDisks) {
		return nil
	}
	var disks []dataDiskModel
	if diags := m.DataDisks.ElementsAs(ctx, &disks, false); diags.HasError() {
		return nil
	}
	paths := make([]string, len(disks))
	for i, d := range disks {
		if known(d.SourceDisk) {
			paths[i] = d.SourceDisk.ValueString()
		}
	}
	return catalog.Default().DataDiskZones(paths, zones)
}

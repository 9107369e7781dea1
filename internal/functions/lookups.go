// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package functions

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

var (
	_ function.Function = &tpuPlacementFunction{}
	_ function.Function = &tpuAPITypeFunction{}
	_ function.Function = &gpuFunction{}
)

// acceleratorTypeParameter is the accelerator_type argument shared by the
// functions that take a Cloud TPU accelerator type.
func acceleratorTypeParameter(cat *catalog.Catalog) function.StringParameter {
	return function.StringParameter{
		Name: "accelerator_type",
		MarkdownDescription: "Cloud TPU accelerator type, `<generation>-<size>`, such as `v6e-4`, `v5litepod-16` or `tpu7x-8`. Generation prefixes: " +
			schemadoc.CodeList(cat.APIPrefixes(), "and") + ".",
	}
}

// setObject sets an object result.
func setObject(ctx context.Context, resp *function.RunResponse, attrTypes map[string]attr.Type, vals map[string]attr.Value) {
	obj, diags := types.ObjectValue(attrTypes, vals)
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}

// NewTPUPlacement returns provider::accel::tpu_placement.
func NewTPUPlacement(cat *catalog.Catalog) function.Function { return &tpuPlacementFunction{cat: cat} }

type tpuPlacementFunction struct{ cat *catalog.Catalog }

var tpuPlacementAttributes = map[string]attr.Type{
	"machine_type":             types.StringType,
	"node_count":               types.Int64Type,
	"topology":                 types.StringType,
	"multi_host":               types.BoolType,
	"placement_type":           types.StringType,
	"placement_tpu_topology":   types.StringType,
	"workload_policy_topology": types.StringType,
}

func (f *tpuPlacementFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "tpu_placement"
}

func (f *tpuPlacementFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "GKE placement a TPU slice needs",
		MarkdownDescription: "Returns how GKE places a TPU slice as a node pool, from the provider's compatibility catalog, as an object with:\n\n" +
			"- `machine_type` (string), `node_count` (number), `topology` (string): the GKE node pool layout of one slice.\n" +
			"- `multi_host` (bool): whether the slice spans more than one node.\n" +
			"- `placement_type` (string): `" + catalog.PlacementCompact + "` when the node pool needs a compact `placement_policy`, else null.\n" +
			"- `placement_tpu_topology` (string): the `placement_policy.tpu_topology` value of that compact placement, else null.\n" +
			"- `workload_policy_topology` (string): for generations GKE places with a workload policy instead (multi-host TPU7x), the " +
			"accelerator topology of that workload policy (a Compute Engine resource policy), else null.\n\n" +
			"Single-host slices need no placement: all three placement values are null. An invalid accelerator type, or a generation GKE " +
			"does not offer, is an error naming the valid values. Works offline.",
		Parameters: []function.Parameter{acceleratorTypeParameter(f.cat)},
		Return:     function.ObjectReturn{AttributeTypes: tpuPlacementAttributes},
	}
}

func (f *tpuPlacementFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var acceleratorType string
	if resp.Error = req.Arguments.Get(ctx, &acceleratorType); resp.Error != nil {
		return
	}
	shape, findings := f.cat.TPUNodePool(catalog.TPUPoolQuery{AcceleratorType: acceleratorType})
	if err := funcError(findings, acceleratorArgument); err != nil {
		resp.Error = err
		return
	}
	logWarnings(ctx, "tpu_placement", findings)
	workloadTopology := ""
	if shape.WorkloadPolicy {
		workloadTopology = shape.Topology
	}
	setObject(ctx, resp, tpuPlacementAttributes, map[string]attr.Value{
		"machine_type":             types.StringValue(shape.MachineType),
		"node_count":               types.Int64Value(int64(shape.NodeCount)),
		"topology":                 types.StringValue(shape.Topology),
		"multi_host":               types.BoolValue(shape.MultiHost),
		"placement_type":           tfmodel.StringOrNull(shape.PlacementPolicy),
		"placement_tpu_topology":   tfmodel.StringOrNull(shape.PlacementTPUTopology),
		"workload_policy_topology": tfmodel.StringOrNull(workloadTopology),
	})
}

// NewTPUAPIType returns provider::accel::tpu_api_type.
func NewTPUAPIType(cat *catalog.Catalog) function.Function { return &tpuAPITypeFunction{cat: cat} }

type tpuAPITypeFunction struct{ cat *catalog.Catalog }

func (f *tpuAPITypeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "tpu_api_type"
}

func (f *tpuAPITypeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Cloud TPU API AcceleratorConfig type of a TPU accelerator type",
		MarkdownDescription: "Returns the Cloud TPU API `AcceleratorConfig.Type` enum value of an accelerator type, such as `V6E` for `v6e-8` or " +
			"`V5LITE_POD` for `v5litepod-4`: the `type` to pair with the slice's topology in an `accelerator_config`. A generation without an " +
			"enum value (TPU7x) is an error that says so and what to set instead. Works offline.",
		Parameters: []function.Parameter{acceleratorTypeParameter(f.cat)},
		Return:     function.StringReturn{},
	}
}

func (f *tpuAPITypeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var acceleratorType string
	if resp.Error = req.Arguments.Get(ctx, &acceleratorType); resp.Error != nil {
		return
	}
	typ, findings := f.cat.TPUAPIType(acceleratorType)
	if err := funcError(findings, acceleratorArgument); err != nil {
		resp.Error = err
		return
	}
	logWarnings(ctx, "tpu_api_type", findings)
	resp.Error = resp.Result.Set(ctx, typ)
}

// NewGPU returns provider::accel::gpu.
func NewGPU(cat *catalog.Catalog) function.Function { return &gpuFunction{cat: cat} }

type gpuFunction struct{ cat *catalog.Catalog }

var gpuAttributes = map[string]attr.Type{
	"gpu_type":  types.StringType,
	"gpu_count": types.Int64Type,
}

func (f *gpuFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "gpu"
}

func (f *gpuFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "GPU type and count of a machine type with built-in GPUs",
		MarkdownDescription: "Returns the GPUs built into a Compute Engine machine type, from the provider's compatibility catalog, as an object with " +
			"`gpu_type` (string, the accelerator type GKE uses, such as `nvidia-l4`) and `gpu_count` (number, GPUs per VM). A machine type " +
			"without built-in GPUs (such as N1, which takes attached GPUs) or an unknown machine type is an error naming why and the valid " +
			"values. Works offline.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "machine_type",
				MarkdownDescription: "Compute Engine machine type, such as `g2-standard-4`, `a3-highgpu-8g` or `a2-ultragpu-1g`.",
			},
		},
		Return: function.ObjectReturn{AttributeTypes: gpuAttributes},
	}
}

func (f *gpuFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var machineType string
	if resp.Error = req.Arguments.Get(ctx, &machineType); resp.Error != nil {
		return
	}
	shape, findings := f.cat.GPUNodePool(catalog.GPUPoolQuery{MachineType: machineType})
	if err := funcError(findings, map[string]int64{catalog.AttrMachineType: 0}); err != nil {
		resp.Error = err
		return
	}
	logWarnings(ctx, "gpu", findings)
	setObject(ctx, resp, gpuAttributes, map[string]attr.Value{
		"gpu_type":  types.StringValue(shape.GPUType),
		"gpu_count": types.Int64Value(int64(shape.GPUCount)),
	})
}

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

var _ function.Function = &acceleratorFunction{}

// NewAccelerator returns provider::accel::accelerator.
func NewAccelerator(cat *catalog.Catalog) function.Function {
	return &acceleratorFunction{cat: cat}
}

type acceleratorFunction struct {
	cat *catalog.Catalog
}

// acceleratorAttributes are the attributes of the returned object; the
// Markdown description below documents each one.
var acceleratorAttributes = map[string]attr.Type{
	"generation":        types.StringType,
	"tensor_cores":      types.Int64Type,
	"chips":             types.Int64Type,
	"hosts":             types.Int64Type,
	"chips_per_host":    types.Int64Type,
	"topology":          types.StringType,
	"multi_host":        types.BoolType,
	"tpu_api_supported": types.BoolType,
	"gke_machine_type":  types.StringType,
	"gke_accelerator":   types.StringType,
	"gke_node_count":    types.Int64Type,
}

func (f *acceleratorFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "accelerator"
}

func (f *acceleratorFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Shape of a Cloud TPU accelerator type",
		MarkdownDescription: "Returns the shape of a Cloud TPU accelerator type from the provider's compatibility catalog, as an object with:\n\n" +
			"- `generation` (string): one of " + schemadoc.CodeList(f.cat.GenerationNames(), "or") + ".\n" +
			"- `tensor_cores`, `chips` (number): TensorCores and chips in the slice.\n" +
			"- `hosts` (number): TPU VMs in the slice; `chips_per_host` (number): chips per TPU VM.\n" +
			"- `topology` (string): chip topology, such as `2x2` or `2x2x1`.\n" +
			"- `multi_host` (bool): whether the slice spans more than one TPU VM.\n" +
			"- `tpu_api_supported` (bool): whether the Cloud TPU API (and `accel_tpu_vm`) can create the generation.\n" +
			"- `gke_machine_type` (string), `gke_accelerator` (string, the `cloud.google.com/gke-tpu-accelerator` label value) and " +
			"`gke_node_count` (number, nodes per slice): the GKE layout of the slice, null when GKE does not offer the generation.\n\n" +
			"An invalid accelerator type is an error with the nearest valid types. Works offline.",
		Parameters: []function.Parameter{
			acceleratorTypeParameter(f.cat),
		},
		Return: function.ObjectReturn{AttributeTypes: acceleratorAttributes},
	}
}

func (f *acceleratorFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var acceleratorType string
	resp.Error = req.Arguments.Get(ctx, &acceleratorType)
	if resp.Error != nil {
		return
	}
	a, findings := f.cat.Accelerator(acceleratorType)
	if err := funcError(findings, acceleratorArgument); err != nil {
		resp.Error = err
		return
	}
	logWarnings(ctx, "accelerator", findings)
	setObject(ctx, resp, acceleratorAttributes, acceleratorObject(a))
}

// acceleratorArgument places accelerator_type findings on the only argument
// of the functions that take an accelerator type.
var acceleratorArgument = map[string]int64{catalog.AttrAcceleratorType: 0}

// acceleratorObject maps the catalog's Accelerator to the returned
// object's attribute values.
func acceleratorObject(a catalog.Accelerator) map[string]attr.Value {
	nodes := types.Int64Null()
	if a.GKENodeCount > 0 {
		nodes = types.Int64Value(int64(a.GKENodeCount))
	}
	return map[string]attr.Value{
		"generation":        types.StringValue(a.Generation),
		"tensor_cores":      types.Int64Value(int64(a.TensorCores)),
		"chips":             types.Int64Value(int64(a.Chips)),
		"hosts":             types.Int64Value(int64(a.Hosts)),
		"chips_per_host":    types.Int64Value(int64(a.ChipsPerHost)),
		"topology":          types.StringValue(a.Topology),
		"multi_host":        types.BoolValue(a.MultiHost),
		"tpu_api_supported": types.BoolValue(a.TPUAPISupported),
		"gke_machine_type":  tfmodel.StringOrNull(a.GKEMachineType),
		"gke_accelerator":   tfmodel.StringOrNull(a.GKEAccelerator),
		"gke_node_count":    nodes,
	}
}

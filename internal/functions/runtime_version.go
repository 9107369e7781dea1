// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package functions implements the provider-defined functions (Terraform
// 1.8 and later) over the compatibility catalog:
// provider::accel::runtime_version, provider::accel::accelerator,
// provider::accel::tpu_placement, provider::accel::tpu_api_type and
// provider::accel::gpu.
//
// Functions cannot see the provider's configuration, so they always apply
// the catalog strictly: catalog errors are function errors, and catalog
// warnings are only logged. Use the accel_runtime_version data source for
// `validation = "warn"`, zone checks and warnings.
package functions

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
)

var _ function.Function = &runtimeVersionFunction{}

// NewRuntimeVersion returns provider::accel::runtime_version.
func NewRuntimeVersion(cat *catalog.Catalog) function.Function {
	return &runtimeVersionFunction{cat: cat}
}

type runtimeVersionFunction struct {
	cat *catalog.Catalog
}

func (f *runtimeVersionFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "runtime_version"
}

func (f *runtimeVersionFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Cloud TPU runtime version for an accelerator type and framework",
		MarkdownDescription: "Returns the Cloud TPU runtime version (software version) the provider's compatibility catalog picks for `accelerator_type` " +
			"and `framework`: the generation's documented base image, or for TensorFlow the newest listed TensorFlow runtime in its single-host or " +
			"`-pod` form. An invalid accelerator type or framework, or a framework the generation does not support, is an error naming the argument, " +
			"with the nearest valid value. A generation the Cloud TPU API cannot create is an error that says so and names the GKE machine type to use " +
			"instead (where Google's sources disagree, as for TPU7x, the runtime is returned and the disagreement only logged). Works offline. For a framework version, a runtime to validate, a zone check or `validation = \"warn\"`, " +
			"use the `accel_runtime_version` data source.",
		Parameters: []function.Parameter{
			acceleratorTypeParameter(f.cat),
			function.StringParameter{
				Name:           "framework",
				AllowNullValue: true,
				MarkdownDescription: "Framework: " + schemadoc.CodeList(f.cat.Frameworks(), "or") + "; `null` or `\"\"` for the generation's base image. " +
					"Only TensorFlow changes the answer (its runtimes embed the framework); the others are checked against the generation.",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *runtimeVersionFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var acceleratorType string
	var framework *string
	resp.Error = req.Arguments.Get(ctx, &acceleratorType, &framework)
	if resp.Error != nil {
		return
	}
	q := catalog.RuntimeQuery{AcceleratorType: acceleratorType, ForTPUAPI: true}
	if framework != nil {
		q.Framework = *framework
	}
	res := f.cat.ResolveRuntime(q)
	if err := funcError(res.Findings, runtimeArguments); err != nil {
		resp.Error = err
		return
	}
	logWarnings(ctx, "runtime_version", res.Findings)
	if res.RuntimeVersion == "" {
		resp.Error = function.NewFuncError(res.Reason)
		return
	}
	resp.Error = resp.Result.Set(ctx, res.RuntimeVersion)
}

// runtimeArguments maps the catalog's attribute names to the argument
// positions of runtime_version.
var runtimeArguments = map[string]int64{
	catalog.AttrAcceleratorType: 0,
	catalog.AttrFramework:       1,
}

// funcError turns the catalog's errors into one function error, each line
// attached to its argument in positions (catalog attribute name to argument
// position) or to the call. Each line is "Summary: detail"; the final
// period is left to Terraform, which ends argument errors with one.
func funcError(fs catalog.Findings, positions map[string]int64) *function.FuncError {
	var out *function.FuncError
	errs := fs.Errors()
	for i, f := range errs {
		text := f.Summary + ": " + f.Detail
		if i == len(errs)-1 {
			text = strings.TrimSuffix(text, ".")
		}
		if pos, ok := positions[f.Attribute]; ok {
			out = function.ConcatFuncErrors(out, function.NewArgumentFuncError(pos, text))
		} else {
			out = function.ConcatFuncErrors(out, function.NewFuncError(text))
		}
	}
	return out
}

// logWarnings logs catalog warnings, which functions cannot report.
func logWarnings(ctx context.Context, name string, fs catalog.Findings) {
	for _, f := range fs.Warnings() {
		tflog.Warn(ctx, "catalog warning in provider function", map[string]any{
			"function": name, "attribute": f.Attribute, "summary": f.Summary, "detail": f.Detail,
		})
	}
}

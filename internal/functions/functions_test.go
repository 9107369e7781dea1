// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package functions

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

func run(t *testing.T, f function.Function, args ...string) function.RunResponse {
	t.Helper()
	ctx := context.Background()
	var def function.DefinitionResponse
	f.Definition(ctx, function.DefinitionRequest{}, &def)
	vals := make([]attr.Value, len(args))
	for i, a := range args {
		vals[i] = types.StringValue(a)
	}
	resp := function.RunResponse{Result: function.NewResultData(def.Definition.Return.GetType().ValueType(ctx))}
	f.Run(ctx, function.RunRequest{Arguments: function.NewArgumentsData(vals)}, &resp)
	return resp
}

func TestDefinitions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, f := range map[string]function.Function{
		"runtime_version": NewRuntimeVersion(catalog.Default()), "accelerator": NewAccelerator(catalog.Default()),
		"tpu_placement": NewTPUPlacement(catalog.Default()), "tpu_api_type": NewTPUAPIType(catalog.Default()), "gpu": NewGPU(catalog.Default()),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var meta function.MetadataResponse
			f.Metadata(ctx, function.MetadataRequest{}, &meta)
			if meta.Name != name {
				t.Errorf("name = %q, want %q", meta.Name, name)
			}
			var def function.DefinitionResponse
			f.Definition(ctx, function.DefinitionRequest{}, &def)
			var vresp function.DefinitionValidateResponse
			def.Definition.ValidateImplementation(ctx, function.DefinitionValidateRequest{FuncName: name}, &vresp)
			if vresp.Diagnostics.HasError() {
				t.Fatalf("invalid definition: %v", vresp.Diagnostics)
			}
			if def.Definition.Summary == "" || def.Definition.MarkdownDescription == "" {
				t.Error("summary or description is empty")
			}
			for _, p := range def.Definition.Parameters {
				if p.GetMarkdownDescription() == "" {
					t.Errorf("parameter %q has no description", p.GetName())
				}
			}
		})
	}
}

func TestRuntimeVersionRun(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		acceleratorType, framework string
		want                       types.String
		wantErr                    *function.FuncError
	}{
		"v2 base image":              {"v2-8", "", types.StringValue("tpu-ubuntu2204-base"), nil},
		"v3 jax":                     {"v3-8", "jax", types.StringValue("tpu-ubuntu2204-base"), nil},
		"v4 pytorch":                 {"v4-8", "pytorch", types.StringValue("tpu-ubuntu2204-base"), nil},
		"v5e jax":                    {"v5litepod-4", "jax", types.StringValue("v2-alpha-tpuv5-lite"), nil},
		"v5p jax":                    {"v5p-8", "jax", types.StringValue("v2-alpha-tpuv5"), nil},
		"v6e vllm":                   {"v6e-4", "vllm", types.StringValue("v2-alpha-tpuv6e"), nil},
		"tpu7x jax":                  {"tpu7x-8", "jax", types.StringValue("v2-alpha-tpu7-ubuntu2404"), nil},
		"v6e tensorflow single-host": {"v6e-8", "tensorflow", types.StringValue("tpu-vm-tf-2.18.0-pjrt"), nil},
		"v6e tensorflow multi-host":  {"v6e-16", "tensorflow", types.StringValue("tpu-vm-tf-2.18.0-pod-pjrt"), nil},
		"v3 tensorflow multi-host":   {"v3-32", "tensorflow", types.StringValue("tpu-vm-tf-2.18.0-pod-pjrt"), nil},
		"wrong case accelerator type": {
			"V6E-4", "", types.StringNull(),
			function.NewArgumentFuncError(0, `Invalid TPU Accelerator Type: "V6E-4" is not a TPU accelerator type (names are lower case, without spaces); did you mean "v6e-4"?`),
		},
		"bad size": {
			"v6e-3", "jax", types.StringNull(),
			function.NewArgumentFuncError(0, `Invalid TPU Accelerator Type: "v6e-3" is not a v6e size; valid: v6e-1, v6e-4, v6e-8, v6e-16, v6e-32, v6e-64, v6e-128, v6e-256`),
		},
		"framework typo": {
			"v6e-4", "Jax", types.StringNull(),
			function.NewArgumentFuncError(1, `Unsupported Framework: "Jax" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu"; did you mean "jax"?`),
		},
		"tensorflow on tpu7x": {
			"tpu7x-8", "tensorflow", types.StringNull(),
			function.NewArgumentFuncError(1, `Framework Not Supported on Generation: TensorFlow is not supported on tpu7x; use JAX, PyTorch/XLA, vLLM (vLLM JAX) or vLLM (PyTorch-native TPU)`),
		},
		"both arguments wrong": {
			"v6e-3", "mxnet", types.StringNull(),
			function.NewArgumentFuncError(0, `Invalid TPU Accelerator Type: "v6e-3" is not a v6e size; valid: v6e-1, v6e-4, v6e-8, v6e-16, v6e-32, v6e-64, v6e-128, v6e-256.`+"\n"+
				`Unsupported Framework: "mxnet" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu"`),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := run(t, NewRuntimeVersion(catalog.Default()), tc.acceleratorType, tc.framework)
			if diff := cmp.Diff(tc.wantErr, resp.Error); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(function.NewResultData(tc.want), resp.Result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAcceleratorRun(t *testing.T) {
	t.Parallel()
	obj := func(gen string, cores, chips, hosts, perHost int64, topo string, multi, tpuAPI bool, machine, label string, nodes int64) types.Object {
		str := func(s string) attr.Value {
			if s == "" {
				return types.StringNull()
			}
			return types.StringValue(s)
		}
		n := types.Int64Null()
		if nodes > 0 {
			n = types.Int64Value(nodes)
		}
		return types.ObjectValueMust(acceleratorAttributes, map[string]attr.Value{
			"generation": types.StringValue(gen), "tensor_cores": types.Int64Value(cores), "chips": types.Int64Value(chips),
			"hosts": types.Int64Value(hosts), "chips_per_host": types.Int64Value(perHost), "topology": types.StringValue(topo),
			"multi_host": types.BoolValue(multi), "tpu_api_supported": types.BoolValue(tpuAPI),
			"gke_machine_type": str(machine), "gke_accelerator": str(label), "gke_node_count": n,
		})
	}
	tests := map[string]struct {
		acceleratorType string
		want            attr.Value
		wantErr         *function.FuncError
	}{
		"v2-8":        {"v2-8", obj("v2", 8, 4, 1, 4, "2x2", false, true, "", "", 0), nil},
		"v3-32":       {"v3-32", obj("v3", 32, 16, 4, 4, "4x4", true, true, "ct3p-hightpu-4t", "tpu-v3-slice", 4), nil},
		"v4-8":        {"v4-8", obj("v4", 8, 4, 1, 4, "2x2x1", false, true, "ct4p-hightpu-4t", "tpu-v4-podslice", 1), nil},
		"v5litepod-4": {"v5litepod-4", obj("v5e", 4, 4, 1, 4, "2x2", false, true, "ct5lp-hightpu-4t", "tpu-v5-lite-podslice", 1), nil},
		"v5p-8":       {"v5p-8", obj("v5p", 8, 4, 1, 4, "2x2x1", false, true, "ct5p-hightpu-4t", "tpu-v5p-slice", 1), nil},
		"v6e-16":      {"v6e-16", obj("v6e", 16, 16, 4, 4, "4x4", true, true, "ct6e-standard-4t", "tpu-v6e-slice", 4), nil},
		"tpu7x-8":     {"tpu7x-8", obj("tpu7x", 8, 4, 1, 4, "2x2x1", false, false, "tpu7x-standard-4t", "tpu7x", 1), nil},
		"empty":       {"", nil, function.NewArgumentFuncError(0, `Missing TPU Accelerator Type: No TPU accelerator type is set; use <generation>-<size> such as "v6e-8" or "v5litepod-4"`)},
		"generation alias": {
			"v5e-4", nil,
			function.NewArgumentFuncError(0, `Invalid TPU Accelerator Type: "v5e-4" is not a Cloud TPU API accelerator type: v5e types are named v5litepod-<chips>; did you mean "v5litepod-4"?`),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := run(t, NewAccelerator(catalog.Default()), tc.acceleratorType)
			if diff := cmp.Diff(tc.wantErr, resp.Error); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tc.wantErr != nil {
				return
			}
			if diff := cmp.Diff(function.NewResultData(tc.want), resp.Result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHugeArgumentBounded: an argument far longer than any name (a pasted
// file) is quoted by its beginning, so that the error stays small.
func TestHugeArgumentBounded(t *testing.T) {
	t.Parallel()
	huge := "v6e-" + strings.Repeat("x", 40000)
	for name, args := range map[string]struct {
		f    function.Function
		args []string
	}{
		"accelerator":                 {NewAccelerator(catalog.Default()), []string{huge}},
		"tpu_placement":               {NewTPUPlacement(catalog.Default()), []string{huge}},
		"tpu_api_type":                {NewTPUAPIType(catalog.Default()), []string{huge}},
		"gpu":                         {NewGPU(catalog.Default()), []string{strings.Repeat("g", 40000)}},
		"runtime_version":             {NewRuntimeVersion(catalog.Default()), []string{huge, "jax"}},
		"runtime_version's framework": {NewRuntimeVersion(catalog.Default()), []string{"v6e-4", strings.Repeat("j", 40000)}},
	} {
		resp := run(t, args.f, args.args...)
		if resp.Error == nil {
			t.Errorf("%s: no error for a 40 KB argument", name)
			continue
		}
		if text := resp.Error.Error(); len(text) > 2000 || !strings.Contains(text, "bytes long") {
			t.Errorf("%s: the error is %d bytes long, want under 2000 with the value's length:\n%.300s", name, len(text), text)
		}
	}
}

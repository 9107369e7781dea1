// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package functions_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// Provider-defined functions need Terraform 1.8.
var functionsVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)}

func TestAccFunctionRuntimeVersion_basic(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsVersionChecks,
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `
output "base" {
  value = provider::accel::runtime_version("v5litepod-4", "")
}
output "jax" {
  value = provider::accel::runtime_version("v6e-8", "jax")
}
output "tensorflow_pod" {
  value = provider::accel::runtime_version("v5p-16", "tensorflow")
}
output "null_framework" {
  value = provider::accel::runtime_version("v6e-8", null)
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("base", knownvalue.StringExact("v2-alpha-tpuv5-lite")),
				statecheck.ExpectKnownOutputValue("jax", knownvalue.StringExact("v2-alpha-tpuv6e")),
				statecheck.ExpectKnownOutputValue("tensorflow_pod", knownvalue.StringExact("tpu-vm-tf-2.18.0-pod-pjrt")),
				statecheck.ExpectKnownOutputValue("null_framework", knownvalue.StringExact("v2-alpha-tpuv6e")),
			},
		}},
	})
}

func TestAccFunctionRuntimeVersion_errors(t *testing.T) {
	tests := map[string]functionErrorCase{
		"wrong case": {
			call: `provider::accel::runtime_version("V6E-4", "jax")`,
			want: regexp.MustCompile(`(?s)Invalid value for "accelerator_type" parameter.*did you mean "v6e-4"`),
		},
		"a pasted file as the accelerator type": {
			call: `provider::accel::runtime_version("v6e-${join("", [for i in range(1000) : "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"])}", "jax")`,
			want: regexp.MustCompile(`(?s)Invalid value for "accelerator_type".*The value is 40004 bytes long; its\s+first 256 are shown`),
		},
		"framework typo": {
			call: `provider::accel::runtime_version("v6e-4", "pytorh")`,
			want: regexp.MustCompile(`(?s)Invalid value for "framework" parameter.*did you mean\s+"pytorch"`),
		},
		"tensorflow on tpu7x": {
			call: `provider::accel::runtime_version("tpu7x-8", "tensorflow")`,
			want: regexp.MustCompile(`(?s)Invalid value for "framework" parameter.*TensorFlow is not\s+supported on tpu7x`),
		},
	}
	testFunctionErrors(t, tests)
}

func TestAccFunctionAccelerator_basic(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsVersionChecks,
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `
output "v6e" {
  value = provider::accel::accelerator("v6e-16")
}
output "v3_hosts" {
  value = provider::accel::accelerator("v3-32").hosts
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("v6e", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"generation":        knownvalue.StringExact("v6e"),
					"tensor_cores":      knownvalue.Int64Exact(16),
					"chips":             knownvalue.Int64Exact(16),
					"hosts":             knownvalue.Int64Exact(4),
					"chips_per_host":    knownvalue.Int64Exact(4),
					"topology":          knownvalue.StringExact("4x4"),
					"multi_host":        knownvalue.Bool(true),
					"tpu_api_supported": knownvalue.Bool(true),
					"gke_machine_type":  knownvalue.StringExact("ct6e-standard-4t"),
					"gke_accelerator":   knownvalue.StringExact("tpu-v6e-slice"),
					"gke_node_count":    knownvalue.Int64Exact(4),
				})),
				statecheck.ExpectKnownOutputValue("v3_hosts", knownvalue.Int64Exact(4)),
			},
		}},
	})
}

func TestAccFunctionAccelerator_invalid(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsVersionChecks,
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      acctest.OfflineProviderConfig + "output \"x\" {\n  value = provider::accel::accelerator(\"v6e-3\")\n}\n",
			ExpectError: regexp.MustCompile(`(?s)Invalid value for "accelerator_type" parameter.*"v6e-3" is not a v6e\s+size`),
		}},
	})
}

func TestAccFunctionTPUPlacement(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsVersionChecks,
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `
output "compact" {
  value = provider::accel::tpu_placement("v6e-16")
}
output "workload" {
  value = provider::accel::tpu_placement("tpu7x-16")
}
output "single" {
  value = provider::accel::tpu_placement("v5litepod-4")
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("compact", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"machine_type":             knownvalue.StringExact("ct6e-standard-4t"),
					"node_count":               knownvalue.Int64Exact(4),
					"topology":                 knownvalue.StringExact("4x4"),
					"multi_host":               knownvalue.Bool(true),
					"placement_type":           knownvalue.StringExact("COMPACT"),
					"placement_tpu_topology":   knownvalue.StringExact("4x4"),
					"workload_policy_topology": knownvalue.Null(),
				})),
				statecheck.ExpectKnownOutputValue("workload", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"machine_type":             knownvalue.StringExact("tpu7x-standard-4t"),
					"node_count":               knownvalue.Int64Exact(2),
					"topology":                 knownvalue.StringExact("2x2x2"),
					"multi_host":               knownvalue.Bool(true),
					"placement_type":           knownvalue.Null(),
					"placement_tpu_topology":   knownvalue.Null(),
					"workload_policy_topology": knownvalue.StringExact("2x2x2"),
				})),
				statecheck.ExpectKnownOutputValue("single", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"multi_host":               knownvalue.Bool(false),
					"placement_type":           knownvalue.Null(),
					"workload_policy_topology": knownvalue.Null(),
				})),
			},
		}},
	})
}

func TestAccFunctionTPUAPITypeAndGPU(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsVersionChecks,
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `
output "v5e" {
  value = provider::accel::tpu_api_type("v5litepod-16")
}
output "v6e" {
  value = provider::accel::tpu_api_type("v6e-8")
}
output "l4" {
  value = provider::accel::gpu("g2-standard-4")
}
output "h100" {
  value = provider::accel::gpu("a3-highgpu-8g")
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("v5e", knownvalue.StringExact("V5LITE_POD")),
				statecheck.ExpectKnownOutputValue("v6e", knownvalue.StringExact("V6E")),
				statecheck.ExpectKnownOutputValue("l4", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"gpu_type": knownvalue.StringExact("nvidia-l4"), "gpu_count": knownvalue.Int64Exact(1),
				})),
				statecheck.ExpectKnownOutputValue("h100", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"gpu_type": knownvalue.StringExact("nvidia-h100-80gb"), "gpu_count": knownvalue.Int64Exact(8),
				})),
			},
		}},
	})
}

func TestAccFunctionLookups_errors(t *testing.T) {
	tests := map[string]functionErrorCase{
		"no API enum for tpu7x": {
			call: `provider::accel::tpu_api_type("tpu7x-8")`,
			want: regexp.MustCompile(`(?s)Invalid value for "accelerator_type" parameter.*enum has no value for\s+TPU7x.*set\s+accelerator_type\s+=\s+"tpu7x-8"`),
		},
		"placement outside GKE": {
			call: `provider::accel::tpu_placement("v2-8")`,
			want: regexp.MustCompile(`(?s)Invalid value for "accelerator_type" parameter.*v2 has no GKE TPU machine\s+types`),
		},
		"gpu typo": {
			call: `provider::accel::gpu("g2-standard-5")`,
			want: regexp.MustCompile(`(?s)Invalid value for "machine_type" parameter.*did you mean\s+"g2-standard-4"`),
		},
		"gpu without built-in GPUs": {
			call: `provider::accel::gpu("n1-standard-4")`,
			want: regexp.MustCompile(`(?s)"n1-standard-4" has no\s+built-in GPUs`),
		},
	}
	testFunctionErrors(t, tests)
}

// functionErrorCase is a function call and the error it must fail with.
type functionErrorCase struct {
	call string
	want *regexp.Regexp
}

// testFunctionErrors plans an output with each call and expects its error.
func testFunctionErrors(t *testing.T, tests map[string]functionErrorCase) {
	t.Helper()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   functionsVersionChecks,
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      acctest.OfflineProviderConfig + "output \"x\" {\n  value = " + tc.call + "\n}\n",
					ExpectError: tc.want,
				}},
			})
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// TestAccTPUVM_examples plans every documentation example offline: each must
// pass the catalog checks and plan the runtime its comments promise.
func TestAccTPUVM_examples(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
	runtimes := map[string]struct{ address, runtime string }{
		"resource.tf":               {"accel_tpu_vm.dev", "v2-alpha-tpuv6e"},
		"resource_zone_fallback.tf": {"accel_tpu_vm.serve", "v2-alpha-tpuv6e"},
		"resource_spot.tf":          {"accel_tpu_vm.batch", "v2-alpha-tpuv5-lite"},
		"resource_tensorflow.tf":    {"accel_tpu_vm.train", "tpu-vm-tf-2.16.1-pod-pjrt"},
		"resource_queued_spot.tf":   {"accel_tpu_vm.spot", "v2-alpha-tpuv6e"},
		"resource_reserved.tf":      {"accel_tpu_vm.reserved", "v2-alpha-tpuv5"},
		"resource_flex_start.tf":    {"accel_tpu_vm.finetune", "v2-alpha-tpuv6e"},
		"resource_multislice.tf":    {"accel_tpu_vm.train", "v2-alpha-tpuv5"},
		"resource_tpu7x.tf":         {"accel_tpu_vm.ironwood", tpu7xImage()},
		"resource_production.tf":    {"accel_tpu_vm.prod", "v2-alpha-tpuv6e"},
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "resources", "accel_tpu_vm", "*.tf"))
	if err != nil || len(files) != len(runtimes) {
		t.Fatalf("examples: %v, %v; want %d files", files, err, len(runtimes))
	}
	for _, f := range files {
		want, ok := runtimes[filepath.Base(f)]
		if !ok {
			t.Fatalf("no expectation for example %s", f)
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:             "provider \"accel\" {\n  project = \"my-ml-project\"\n}\n" + string(body),
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PostApplyPreRefresh: []plancheck.PlanCheck{
							plancheck.ExpectKnownValue(want.address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(want.runtime)),
						},
					},
				}},
			})
		})
	}
}

// tpu7xImage is the catalog's boot image for a TPU7x VM through Compute
// Engine.
func tpu7xImage() string {
	ce, _ := catalog.Default().ComputeEngineTPU("tpu7x-8")
	return ce.DefaultImage
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_documentedShapes plans, offline, tiers Google
// documents as valid that earlier catalogs rejected: TPU v3 on GKE
// (ct3-hightpu-4t and ct3p-hightpu-4t) and N1 with P100 or P4 GPUs.
func TestAccFallbackNodePools_documentedShapes(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: offlineConfig(resourceHCL(cluster, "c", "",
				`{ name = "v3", accelerator_type = "v3-8", node_locations = ["us-central1-a"] }`,
				`{ name = "v3-slice", accelerator_type = "v3-32", machine_type = "ct3p-hightpu-4t", node_locations = ["us-central1-b"] }`,
				`{ name = "p100", machine_type = "n1-standard-16", gpu_type = "nvidia-tesla-p100", gpu_count = 4, min_node_count = 0, max_node_count = 1, node_locations = ["us-central1-a"] }`,
				`{ name = "p4", machine_type = "n1-standard-4", gpu_type = "nvidia-tesla-p4", gpu_count = 1, node_locations = ["us-central1-a"] }`)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
}

// TestAccFallbackNodePools_liveZones: with the Compute Engine API reachable
// at plan time (the emulator's compute_endpoint), a tier in a zone that
// does not offer its accelerator is an error naming the zones that do; the
// same configuration offline plans, because zone lists change month to
// month and the catalog only warns.
func TestAccFallbackNodePools_liveZones(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "relies on the emulator's cluster and its answer of which zones offer each machine")
	serving := "projects/" + acctest.EmulatorProject + "/locations/us-central1/clusters/serving"
	gpu := resourceHCL(serving, "c", "",
		`{ name = "a100", machine_type = "a2-ultragpu-4g", min_node_count = 0, max_node_count = 1, node_locations = ["us-central1-a"] }`)
	tpu := resourceHCL(serving, "c", "",
		`{ name = "v4", accelerator_type = "v4-8", node_locations = ["us-central1-a"] }`)
	attached := resourceHCL(serving, "c", "",
		`{ name = "t4", machine_type = "n1-standard-8", gpu_type = "nvidia-tesla-t4", gpu_count = 1, node_locations = ["us-central1-c"] }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: tg.Config(gpu), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Zone Does Not Offer Accelerator.*a2-ultragpu-4g.*us-central1-a.*zones\s+of\s+us-central1\s+that\s+offer\s+it:\s+us-central1-c`)},
			{Config: tg.Config(tpu), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Zone Does Not Offer Accelerator.*ct4p-hightpu-4t.*us-central2-b`)},
			{Config: tg.Config(attached), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Zone Does Not Offer Accelerator.*nvidia-tesla-t4.*us-central1-a,\s+us-central1-b`)},
			{Config: offlineConfig(gpu), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: offlineConfig(tpu), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}

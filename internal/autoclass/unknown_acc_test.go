// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass_test

import (
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// everyArgument sets every argument of accel_compute_class, each priority
// kind included, to a valid value. TestAccComputeClass_unknownAtPlan fails
// for an argument missing here.
func everyArgument(cluster string) map[string]any {
	return map[string]any{
		"name":                    "every-argument",
		"cluster":                 cluster,
		"gke_version":             "1.33.5-gke.1000000", // the emulator's cluster's
		"node_pool_auto_creation": true,
		"when_unsatisfiable":      "DoNotScaleUp",
		"active_migration":        true,
		"image_type":              "cos_containerd",
		"service_account":         "serving@p.iam.gserviceaccount.com",
		"node_labels":             map[string]any{"team": "serving"},
		"validation":              "strict",
		"priority": []any{
			map[string]any{"accelerator_type": "v6e-4", "spot": true, "node_locations": []any{"us-central1-b"},
				"placement_policy": "compact", "reservation_affinity": "AnyBestEffort"},
			map[string]any{"tpu_type": "tpu-v6e-slice", "tpu_count": 4, "topology": "2x2", "flex_start": true, "max_run_duration_seconds": 3600,
				"node_recycling_lead_time_seconds": 600},
			map[string]any{"gpu_type": "nvidia-l4", "gpu_count": 1, "machine_family": "g2", "gpu_driver_version": "latest"},
			map[string]any{"gpu_type": "nvidia-l4", "gpu_count": 1, "machine_type": "g2-standard-8", "reservations": []any{"projects/p/reservations/r"},
				"reservation_block": "block-1", "max_pods_per_node": 32, "boot_disk_size_gb": 200, "boot_disk_type": "pd-balanced",
				"boot_disk_kms_key": "projects/p/locations/us-central1/keyRings/r/cryptoKeys/k", "local_ssd_count": 1},
			map[string]any{"machine_family": "n4", "min_cores": 16, "min_memory_gb": 64},
			map[string]any{"nodepools": []any{"existing-pool"}},
		},
	}
}

// TestAccComputeClass_unknownAtPlan makes each argument unknown until
// apply in turn (from the schema, so that new arguments are covered), with
// every other argument set and with only the required ones: each read
// succeeds once the value is known, and the plan has no warning that only
// the unknown values cause.
func TestAccComputeClass_unknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.DataSource, "accel_compute_class")
	minimal := map[string]any{"name": "minimal", "priority": []any{map[string]any{"accelerator_type": "v6e-4"}}}
	cases, missing := acctest.UnknownCases(attrs, everyArgument(tg.Cluster), minimal, nil)
	acctest.RequireValues(t, missing)
	acctest.ApplyUnknownCases(t, tg, acctest.DataSource, "accel_compute_class", cases)
	acctest.CheckNoUnknownOnlyWarnings(t, tg, acctest.DataSource, "accel_compute_class", cases)
}

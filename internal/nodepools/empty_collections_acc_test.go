// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_emptyCollections sets each optional list, set
// and map of accel_fallback_nodepools to its empty value in turn, in every
// tier that sets it (see acctest.EmptyCollections): tiers.labels and
// tiers.resource_labels are valid empty, and so is tiers.resource_manager_tags
// (no tag); the others are rejected at plan.
func TestAccFallbackNodePools_emptyCollections(t *testing.T) {
	acctest.EmptyCollections{
		TypeName: "accel_fallback_nodepools",
		Valid:    map[string]bool{"tiers.labels": true, "tiers.resource_labels": true, "tiers.resource_manager_tags": true},
		Target: func(t *testing.T) *acctest.Target {
			tg := everyAttributeTarget(t)
			tg.RequireEmulatorFor(t, "sets every attribute with the emulator's reservation and service accounts")
			return tg
		},
		Body: func(tg *acctest.Target, _ int) map[string]any { return everyAttribute(tg) },
		CheckDestroy: func(tg *acctest.Target, _ map[string]any) resource.TestCheckFunc {
			return checkDestroyed(tg, "tpu", "gpu", "ironwood", "gpu-total")
		},
	}.Run(t)
}

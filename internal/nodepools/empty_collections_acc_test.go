// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// emptyCollectionValid lists the optional lists, sets and maps of
// accel_fallback_nodepools for which the empty value is valid; the empty
// value of any other is rejected at plan.
var emptyCollectionValid = map[string]bool{
	"tiers.labels":          true,
	"tiers.resource_labels": true,
}

// TestAccFallbackNodePools_emptyCollections sets each optional list, set
// and map (from the schema, so that new ones are covered) to its empty value
// in turn, in every tier that sets it: it is either valid end to end (listed
// in emptyCollectionValid: it applies, and the next plan is empty, so no
// "inconsistent result") or rejected at plan with a diagnostic on the
// attribute.
func TestAccFallbackNodePools_emptyCollections(t *testing.T) {
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_fallback_nodepools")
	blocks := acctest.BlockPaths(attrs)
	collections := acctest.OptionalCollections(attrs)
	if len(collections) == 0 {
		t.Fatal("the schema walk found no optional collection in accel_fallback_nodepools")
	}
	for _, a := range collections {
		t.Run(a.Path, func(t *testing.T) {
			tg := newTarget(t)
			tg.RequireEmulator(t)
			body := everyAttribute(tg)
			if !acctest.SetAt(body, a.Path, acctest.EmptyValue(a)) {
				t.Fatalf("everyAttribute has no value for %s: add one", a.Path)
			}
			config := tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_fallback_nodepools", []acctest.Case{{Name: a.Path, Body: body, Blocks: blocks}}))
			step := resource.TestStep{Config: config, PlanOnly: true, ExpectError: acctest.EmptyCollectionError(a.Path)}
			if emptyCollectionValid[a.Path] {
				step = resource.TestStep{Config: config}
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				CheckDestroy:             checkDestroyed(tg, "tpu", "gpu", "gpu-total"),
				Steps:                    []resource.TestStep{step},
			})
		})
	}
}

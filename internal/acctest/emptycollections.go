// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// EmptyCollections describes the empty-collections test of a resource type:
// each optional list, set and map (from the schema, so that new ones are
// covered) set to its empty value in turn must be either valid end to end
// (it applies, and the next plan is empty, so no "inconsistent result") or
// rejected at plan with an error on the attribute.
type EmptyCollections struct {
	TypeName string
	// Valid lists the collections whose empty value is valid.
	Valid map[string]bool
	// Target starts a subtest's target.
	Target func(t *testing.T) *Target
	// Body sets every attribute of the resource to a valid value; i makes
	// names unique.
	Body func(tg *Target, i int) map[string]any
	// CheckDestroy checks that what Body describes is gone.
	CheckDestroy func(tg *Target, body map[string]any) resource.TestCheckFunc
}

// Run runs one parallel subtest per optional collection.
func (e EmptyCollections) Run(t *testing.T) {
	t.Helper()
	attrs := SettableAttributes(t, Resource, e.TypeName)
	blocks := BlockPaths(attrs)
	collections := OptionalCollections(attrs)
	if len(collections) == 0 {
		t.Fatalf("the schema walk found no optional collection in %s", e.TypeName)
	}
	for i, a := range collections {
		t.Run(a.Path, func(t *testing.T) {
			tg := e.Target(t)
			body := e.Body(tg, i)
			if !SetAt(body, a.Path, EmptyValue(a)) {
				t.Fatalf("the test's configuration has no value for %s: add one", a.Path)
			}
			config := tg.Config(UnknownConfig(Resource, e.TypeName, []Case{{Name: a.Path, Body: body, Blocks: blocks}}))
			step := resource.TestStep{Config: config, PlanOnly: true, ExpectError: EmptyCollectionError(a.Path)}
			if e.Valid[a.Path] {
				step = resource.TestStep{Config: config}
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: ProtoV6ProviderFactories,
				CheckDestroy:             e.CheckDestroy(tg, body),
				Steps:                    []resource.TestStep{step},
			})
		})
	}
}

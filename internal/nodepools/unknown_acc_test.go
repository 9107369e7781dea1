// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// fewAttributes is a configuration with few attributes set, to which each
// case adds the one it makes unknown: derived values and defaults apply
// only to attributes left out.
func fewAttributes(tg *acctest.Target) map[string]any {
	tpuZone, gpuZone := zones(tg)
	return map[string]any{
		"cluster":       tg.Cluster,
		"compute_class": "unknown",
		"tiers": []any{
			map[string]any{"name": "tpu", "accelerator_type": "v6e-4", "node_locations": []any{tpuZone}},
			map[string]any{"name": "gpu", "machine_type": "a2-highgpu-1g", "node_locations": []any{gpuZone},
				"min_node_count": 0, "max_node_count": 2},
		},
	}
}

// uniqueNames gives case i its own ComputeClass and pool names.
func uniqueNames(i int, body map[string]any) {
	body["compute_class"] = fmt.Sprintf("unknown-%d", i)
	tiers, _ := body["tiers"].([]any)
	for j, t := range tiers {
		if t, ok := t.(map[string]any); ok {
			t["name"] = fmt.Sprintf("tf-acc-unknown-%d-%d", i, j)
		}
	}
}

// TestAccFallbackNodePools_unknownAtPlan makes each attribute a
// configuration can set (from the schema, so that new attributes are
// covered) unknown until apply, as when it comes from another resource, in
// turn, and each collection's elements (a whole tier among them): each such
// configuration must plan, apply, and plan nothing after, without
// Terraform's "invalid plan" or "inconsistent result" errors. All cases are
// resources of one configuration, applied together. The plan has no warning
// that only the unknown values cause (acctest.CheckNoUnknownOnlyWarnings).
func TestAccFallbackNodePools_unknownAtPlan(t *testing.T) {
	tg := everyAttributeTarget(t)
	tg.RequireEmulatorFor(t, "sets the reservation tpu-reservation and the service account nodes@p, which exist only on the emulator")
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_fallback_nodepools")
	cases, missing := acctest.UnknownCases(attrs, everyAttribute(tg), fewAttributes(tg), uniqueNames)
	acctest.RequireValues(t, missing)
	acctest.ApplyUnknownCases(t, tg, acctest.Resource, "accel_fallback_nodepools", cases)
	acctest.CheckNoUnknownOnlyWarnings(t, tg, acctest.Resource, "accel_fallback_nodepools", cases)
}

// TestAccFallbackNodePools_unknownCheckedAtApply: a tier the catalog
// rejects, whose accelerator type is unknown at plan time, is rejected at
// apply, before any pool is created.
func TestAccFallbackNodePools_unknownCheckedAtApply(t *testing.T) {
	tg := newTarget(t)
	tpuZone, _ := zones(tg)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "terraform_data" "type" {
  input = "v6e-3"
}

resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = "unknown-type"
  tiers {
    name             = "tf-acc-unknown-type"
    accelerator_type = terraform_data.type.output
    node_locations   = [%q]
  }
}
`, tg.Cluster, tpuZone)),
			ExpectError: regexp.MustCompile(`(?s)accelerator_type.*v6e-3`),
		}},
	})
	tg.AssertNoCalls(t, emulator.MethodNodePoolsCreate)
}

// emptyStringValid lists the optional strings of accel_fallback_nodepools
// for which "" is a valid value; "" in any other is rejected at plan.
var emptyStringValid = map[string]bool{
	"tiers.taints.value": true, // a Kubernetes taint value may be empty
}

// TestAccFallbackNodePools_emptyStrings sets each optional string attribute
// to "" in turn: it is either valid end to end (listed in
// emptyStringValid) or rejected at plan with a diagnostic that names the
// attribute.
func TestAccFallbackNodePools_emptyStrings(t *testing.T) {
	tg := everyAttributeTarget(t)
	tg.RequireEmulatorFor(t, "sets the reservation tpu-reservation and the service account nodes@p, which exist only on the emulator")
	named := func() map[string]any {
		body := everyAttribute(tg)
		uniqueNames(0, body)
		return body
	}
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_fallback_nodepools")
	blocks := acctest.BlockPaths(attrs)
	render := func(body map[string]any) string {
		return tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_fallback_nodepools", []acctest.Case{{Name: "empty", Body: body, Blocks: blocks}}))
	}
	valid := resource.TestStep{Config: render(named())}
	steps := []resource.TestStep{valid}
	for _, a := range attrs {
		if !a.String || a.Required {
			continue
		}
		body := named()
		if !acctest.SetAt(body, a.Path, "") {
			t.Errorf("everyAttribute has no value for %s: add one", a.Path)
			continue
		}
		if emptyStringValid[a.Path] {
			steps = append(steps, resource.TestStep{Config: render(body)})
			continue
		}
		steps = append(steps, resource.TestStep{Config: render(body), PlanOnly: true, ExpectError: acctest.AttributeError(a.Path)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, "tf-acc-unknown-0-0", "tf-acc-unknown-0-1"),
		Steps:                    append(steps, valid),
	})
}

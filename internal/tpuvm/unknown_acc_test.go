// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccTPUVM_unknownAtPlan makes each attribute a configuration can set
// (from the schema, so that new attributes are covered) unknown until apply,
// as when it comes from another resource, in turn: each such configuration
// must plan, apply, and plan nothing after, without Terraform's "invalid
// plan" or "inconsistent result" errors. Every collection is also tried
// with each of its elements unknown. All cases are resources of one
// configuration, applied together. The plan has no warning that only the
// unknown values cause (acctest.CheckNoUnknownOnlyWarnings).
func TestAccTPUVM_unknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_tpu_vm")
	// The capacity attributes of flex-start need their mode.
	minimal := map[string]any{"name": "", "accelerator_type": "v5litepod-4", "framework": "tensorflow",
		"capacity": map[string]any{"mode": "flex-start", "max_run_duration": "2h0m0s"}}
	cases, missing := acctest.UnknownCases(attrs, everyAttribute(tg, ""), minimal, func(i int, body map[string]any) {
		body["name"] = fmt.Sprintf("tf-acc-unknown-%d", i)
	})
	// capacity.reservation, which only mode "reserved" takes, is covered
	// with a body of that mode, and network_configs, which conflicts with
	// network_config, with a body that has it instead.
	for _, other := range []struct {
		prefix string
		covers func(path string) bool
		body   map[string]any
	}{
		{"r", func(p string) bool { return p == reservedAttribute }, withReservation(everyAttribute(tg, ""))},
		{"n", func(p string) bool {
			return p == networkConfigsAttribute || strings.HasPrefix(p, networkConfigsAttribute+".")
		},
			withNetworkConfigs(everyAttribute(tg, ""))},
	} {
		var covered []acctest.Attribute
		for _, a := range attrs {
			if other.covers(a.Path) {
				covered = append(covered, a)
			}
		}
		more, _ := acctest.UnknownCases(covered, other.body, nil, func(i int, body map[string]any) {
			body["name"] = fmt.Sprintf("tf-acc-unknown-%s%d", other.prefix, i)
		})
		for i := range more {
			more[i].Blocks = acctest.BlockPaths(attrs)
			rekeyUnknowns(more[i].Body, other.prefix) // in place: a map
		}
		if len(more) > 0 {
			missing = slices.DeleteFunc(missing, other.covers)
		}
		cases = append(cases, more...)
	}
	acctest.RequireValues(t, missing)
	acctest.ApplyUnknownCases(t, tg, acctest.Resource, "accel_tpu_vm", cases)
	acctest.CheckNoUnknownOnlyWarnings(t, tg, acctest.Resource, "accel_tpu_vm", cases)
}

// TestAccTPUVM_unknownCheckedAtApply: a value the catalog rejects that is
// unknown at plan time is rejected at apply, before any API call.
func TestAccTPUVM_unknownCheckedAtApply(t *testing.T) {
	tg := acctest.New(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(`
resource "terraform_data" "type" {
  input = "v6e-3"
}

resource "accel_tpu_vm" "test" {
  name             = "tf-acc-unknown-type"
  accelerator_type = terraform_data.type.output
}
`),
			ExpectError: regexp.MustCompile(`(?s)accelerator_type.*v6e-3`),
		}},
	})
	tg.AssertNoCalls(t, emulator.MethodTPUNodesCreate)
}

// reservedAttribute is the attribute everyAttribute leaves out: it belongs
// to capacity mode "reserved", not to the flex-start everyAttribute uses.
const reservedAttribute = "capacity.reservation"

// rekeyUnknowns prefixes the keys of the unknown values in v, so that cases
// from two UnknownCases calls can share one configuration.
func rekeyUnknowns(v any, prefix string) any {
	switch x := v.(type) {
	case acctest.Unknown:
		x.Key = prefix + x.Key
		x.Value = rekeyUnknowns(x.Value, prefix)
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = rekeyUnknowns(e, prefix)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = rekeyUnknowns(e, prefix)
		}
		return x
	}
	return v
}

// withReservation switches body's capacity to mode "reserved".
func withReservation(body map[string]any) map[string]any {
	body["capacity"] = map[string]any{"mode": "reserved", "reservation": "res"}
	return body
}

// emptyStringValid lists the optional strings of accel_tpu_vm for which ""
// is a valid value; "" in any other is rejected at plan.
var emptyStringValid = map[string]bool{
	"description": true,
}

// TestAccTPUVM_emptyStrings sets each optional string attribute to "" in
// turn: it is either valid end to end (listed in emptyStringValid) or
// rejected at plan with a diagnostic that names the attribute.
func TestAccTPUVM_emptyStrings(t *testing.T) {
	tg := acctest.New(t)
	attrs := acctest.SettableAttributes(t, acctest.Resource, "accel_tpu_vm")
	blocks := acctest.BlockPaths(attrs)
	valid := resource.TestStep{Config: tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_tpu_vm",
		[]acctest.Case{{Name: "valid", Body: everyAttribute(tg, "tf-acc-empty"), Blocks: blocks}}))}
	steps := []resource.TestStep{valid}
	for _, a := range attrs {
		if !a.String || a.Required {
			continue
		}
		body := everyAttribute(tg, "tf-acc-empty")
		if a.Path == reservedAttribute {
			body = withReservation(body)
		}
		if strings.HasPrefix(a.Path, networkConfigsAttribute+".") {
			body = withNetworkConfigs(body)
		}
		if !acctest.SetAt(body, a.Path, "") {
			t.Errorf("everyAttribute has no value for %s: add one", a.Path)
			continue
		}
		config := tg.Config(acctest.UnknownConfig(acctest.Resource, "accel_tpu_vm", []acctest.Case{{Name: a.Path, Body: body, Blocks: blocks}}))
		if emptyStringValid[a.Path] {
			steps = append(steps, resource.TestStep{Config: config})
			continue
		}
		steps = append(steps, resource.TestStep{
			Config:      config,
			PlanOnly:    true,
			ExpectError: acctest.AttributeError(a.Path),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, "tf-acc-empty"),
		Steps:                    append(steps, valid),
	})
}

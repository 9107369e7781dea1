// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_misspeltBlockArguments: a misspelt argument in
// each block the configuration writes is an error that names it, not
// silently dropped; the object syntax of earlier builds is an error that
// says to write a block.
func TestAccFallbackNodePools_misspeltBlockArguments(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	tier := func(inner string) string {
		return `  tiers {
    name             = "x"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
` + inner + `  }
`
	}
	misspelt := func(key string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)Error: Unsupported argument.*\d+:\s+` + regexp.QuoteMeta(key) +
			`\s+=.*An\s+argument\s+named\s+"` + regexp.QuoteMeta(key) + `"\s+is\s+not\s+expected\s+here`)
	}
	objectSyntax := func(block string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)Error: Unsupported argument.*An\s+argument\s+named\s+"` + block +
			`"\s+is\s+not\s+expected\s+here\.\s+Did\s+you\s+mean\s+to\s+define\s+a\s+block\s+of\s+type\s+"` + block + `"\?`)
	}
	cases := []struct {
		name, body string
		want       *regexp.Regexp
	}{
		{"tiers", tier("    spto = true\n"), misspelt("spto")},
		{"taints", tier("    taints {\n      key    = \"a\"\n      value  = \"b\"\n      efect  = \"NO_SCHEDULE\"\n    }\n"), misspelt("efect")},
		{"reservation_affinity", tier("    reservation_affinity {\n      consume_reservation_type = \"ANY_RESERVATION\"\n      value = [\"r\"]\n    }\n"),
			misspelt("value")},
		{"timeouts", tier("") + "  timeouts {\n    craete = \"3h\"\n  }\n", misspelt("craete")},
		{"tiers as a list", `  tiers = [{ name = "x", accelerator_type = "v6e-4", node_locations = ["us-central1-b"] }]` + "\n", objectSyntax("tiers")},
		{"taints as a list", tier("    taints = [{ key = \"a\", value = \"b\", effect = \"NO_SCHEDULE\" }]\n"), objectSyntax("taints")},
		{"reservation_affinity as an object", tier("    reservation_affinity = { consume_reservation_type = \"ANY_RESERVATION\" }\n"),
			objectSyntax("reservation_affinity")},
		{"timeouts as an object", tier("") + "  timeouts = { create = \"3h\" }\n", objectSyntax("timeouts")},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      offlineConfig(resourceHCL(cluster, "c", c.body)),
			PlanOnly:    true,
			ExpectError: c.want,
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// TestAccFallbackNodePools_blocksLifecycle: a tier with taints and
// reservation_affinity blocks and one without plans nothing after apply,
// with an empty taints list (never null) for the tier without; import
// gives the same state; removing the taints block updates the pool in
// place to an empty list; and import then reads an empty list back too.
func TestAccFallbackNodePools_blocksLifecycle(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "consumes the reservation tpu-reservation, which exists only on the emulator")
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("blk")
	tpuName, gpuName := prefix+"-v6e", prefix+"-l4"
	reservation := block("reservation_affinity", "consume_reservation_type", `"SPECIFIC_RESERVATION"`,
		"key", `"compute.googleapis.com/reservation-name"`, "values", `["tpu-reservation"]`)
	taint := block("taints", "key", `"dedicated"`, "value", `"serving"`, "effect", `"NO_SCHEDULE"`)
	cfg := func(tpuBlocks string) string {
		return config(tg, prefix, "", tpuTier(tpuName, tpuZone, "v6e-4", tpuBlocks), gpuTier(gpuName, gpuZone, "g2-standard-4"))
	}
	importStep := resource.TestStep{
		ResourceName:            address,
		ImportState:             true,
		ImportStateVerify:       true,
		ImportStateId:           tg.Cluster + "/nodePools/" + tpuName + "," + gpuName,
		ImportStateVerifyIgnore: []string{"timeouts", "pools"}, // created_at is empty for imported pools
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, tpuName, gpuName),
		Steps: []resource.TestStep{
			{
				Config: cfg(taint + reservation),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "taints"),
						knownvalue.ListExact([]knownvalue.Check{noScheduleTaint("dedicated", "serving")})),
					statecheck.ExpectKnownValue(address, tierPath(0, "reservation_affinity").AtMapKey("values"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("tpu-reservation")})),
					statecheck.ExpectKnownValue(address, tierPath(1, "taints"), knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectKnownValue(address, tierPath(1, "reservation_affinity"), knownvalue.Null()),
				},
			},
			importStep,
			{
				Config: cfg(reservation),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "taints"), knownvalue.ListExact([]knownvalue.Check{})),
				},
			},
			importStep,
		},
	})
}

// TestAccFallbackNodePools_findingsOnTheirLine: a catalog finding about a
// tier is shown on the line of the tier argument it is about (the second
// tier's node_count, node_locations or taint block), with the bad value quoted,
// so the user sees which tier and which argument to fix.
func TestAccFallbackNodePools_findingsOnTheirLine(t *testing.T) {
	tg := newTarget(t)
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("fl")
	ok := gpuTier(prefix+"-ok", gpuZone, "g2-standard-4")
	on := func(summary, line, value string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)Error: ` + summary + `\s+with accel_fallback_nodepools\.test,\s+on \S+ line \d+, in resource ` +
			`"accel_fallback_nodepools" "test":\s+\d+:\s+` + line + `.*` + regexp.QuoteMeta(value))
	}
	cases := map[string]struct {
		bad  tier
		want *regexp.Regexp
	}{
		"node_count": {
			bad:  tpuTier(prefix+"-tpu", tpuZone, "v6e-8", line("machine_type", `"ct6e-standard-4t"`), line("node_count", "1")),
			want: on(`Node Count Does Not Match Slice`, `node_count = 1`, `"`+prefix+`-tpu", node_count: node_count 1 does not fit`),
		},
		"node_locations": {
			bad:  tpuTier(prefix+"-tpu", "us-central1", "v6e-4"),
			want: on(`[^\n]+`, `node_locations\s+= \["us-central1"\]`, `"us-central1"`),
		},
		"taints": {
			bad:  gpuTier(prefix+"-gpu", gpuZone, "g2-standard-4", block("taints", "key", `"nvidia.com/gpu"`, "value", `"present"`, "effect", `"NO_SCHEDULE"`)),
			want: on(`Taint Set by the Provider`, `taints \{`, `"nvidia.com/gpu"`),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      config(tg, prefix, "", ok, tc.bad),
					PlanOnly:    true,
					ExpectError: tc.want,
				}},
			})
		})
	}
}

// TestAccFallbackNodePools_importGeneratedConfig: node pools created outside
// Terraform for a ComputeClass (a GPU pool GKE reports with its
// accelerators, one created without the accelerators field) are imported by
// an import block with generated configuration, and the plan is a no-op: no
// edit needed.
func TestAccFallbackNodePools_importGeneratedConfig(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "creates node pools behind Terraform's back through the emulator's endpoint")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("ig")
	withGPU, bare := prefix+"-l4", prefix+"-bare"
	// Pools set up for a ComputeClass by hand (its node label and taint, and
	// the GPU taint), as Google's fungibility recipe does.
	class := map[string]string{"cloud.google.com/compute-class": prefix}
	taints := []*container.NodeTaint{
		{Key: "nvidia.com/gpu", Value: "present", Effect: "NO_SCHEDULE"},
		{Key: "cloud.google.com/compute-class", Value: prefix, Effect: "NO_SCHEDULE"},
	}
	l4 := leftoverPool(withGPU, gpuZone, prefix, "")
	l4.Config.Taints = taints
	for _, np := range []*container.NodePool{
		l4,
		{Name: bare, InitialNodeCount: 1, Locations: []string{gpuZone},
			Config: &container.NodeConfig{MachineType: "g2-standard-4", Labels: class, Taints: taints}},
	} {
		if err := createBehindTerraform(tg, np); err != nil {
			t.Fatal(err)
		}
	}
	id := tg.Cluster + "/nodePools/" + withGPU + "," + bare
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, withGPU, bare),
		Steps:                    []resource.TestStep{tg.ImportGeneratedStep(address, id)},
	})
}

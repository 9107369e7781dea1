// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// forever is a fault count no test reaches.
const forever = 1 << 30

// TestAccFallbackNodePools_createTimeoutWhileListUnavailable: the create
// outlasts its timeout while every node-pool list answers 503. The apply
// returns (it would hang the test otherwise) with one error that says the
// pools could not be read before the timeout and what GKE answered, having
// created the pool once and read back more than once; once GKE answers
// again, an apply adopts the pool, and destroy removes it.
func TestAccFallbackNodePools_createTimeoutWhileListUnavailable(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "injects failed list calls and holds the create operation")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("bd")
	name := prefix + "-l4"
	fault := func(on bool) {
		n := 0
		if on {
			n = forever
		}
		if err := tg.Emulator.FailNext(emulator.MethodNodePoolsList, n, 503); err != nil {
			t.Fatal(err)
		}
		if err := tg.Emulator.HangOperations(createCalls, on); err != nil {
			t.Fatal(err)
		}
	}
	var before map[string]int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { before = tg.Emulator.Counters(); fault(true) },
				Config:    config(tg, prefix, "  timeouts {\n    create = \"1s\"\n  }\n", gpuTier(name, gpuZone, "g2-standard-4")),
				ExpectError: phrases("Timeout Reading Node Pools", "could not be read before the timeout:",
					"HTTP 503 UNAVAILABLE: The service is currently unavailable."),
			},
			{
				PreConfig: func() {
					now := tg.Emulator.Counters()
					if got := now[createCalls] - before[createCalls]; got != 1 {
						t.Errorf("the failed apply called %s %d times, want 1", createCalls, got)
					}
					if got := now[emulator.MethodNodePoolsList] - before[emulator.MethodNodePoolsList]; got < 2 {
						t.Errorf("the failed apply called %s %d times, want the read-back retried", emulator.MethodNodePoolsList, got)
					}
					fault(false)
				},
				Config: config(tg, prefix, "", gpuTier(name, gpuZone, "g2-standard-4")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccFallbackNodePools_refreshAgainstHTML: a refresh against a GKE
// endpoint that answers node-pool lists with an HTML page (a proxy's
// sign-in page, with status 200) fails after gcp.NotAPIAttempts calls with
// one error that says what came back and names container_endpoint and
// ACCEL_CONTAINER_ENDPOINT.
func TestAccFallbackNodePools_refreshAgainstHTML(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "answers list calls with an HTML page")
	_, gpuZone := zones(tg)
	prefix := acctest.RandomName("ht")
	name := prefix + "-l4"
	cfg := config(tg, prefix, "", gpuTier(name, gpuZone, "g2-standard-4"))
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					before = tg.Emulator.Counters()[emulator.MethodNodePoolsList]
					if err := tg.Emulator.AnswerHTML(emulator.MethodNodePoolsList, forever, 200); err != nil {
						t.Fatal(err)
					}
				},
				RefreshState: true,
				ExpectError: phrases("Unexpected Answer from the GKE API Endpoint", "did not answer like the API (not JSON)",
					"HTTP 200, Content-Type text/html", `"<!DOCTYPE`, "container_endpoint (or ACCEL_CONTAINER_ENDPOINT)"),
			},
			{
				PreConfig: func() {
					if got := tg.Emulator.Counters()[emulator.MethodNodePoolsList] - before; got != gcp.NotAPIAttempts {
						t.Errorf("the refresh called %s %d times, want %d", emulator.MethodNodePoolsList, got, gcp.NotAPIAttempts)
					}
					if err := tg.Emulator.AnswerHTML(emulator.MethodNodePoolsList, 0, 200); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// liveConfig is the configuration with the provider pointed at the
// emulator's APIs, Compute Engine included, so capacity is checked live.
func liveConfig(tg *acctest.Target, body string) string {
	return tg.Config("data \"accel_hardware_path\" \"test\" {" + body + "\n}\n")
}

// TestAccHardwarePath_liveOutcomes walks both trees with live evidence from
// the emulator's Compute Engine API: zones that do not offer a candidate,
// quotas with no room, and each outcome with the step that decided it.
func TestAccHardwarePath_liveOutcomes(t *testing.T) {
	cases := map[string]struct {
		quotas []emulator.Quota
		body   string
		checks []statecheck.StateCheck
	}{
		"GPU first, no A100 in the zone, L4 quota: smaller GPUs": {
			quotas: []emulator.Quota{{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8}},
			body: `
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "a2-ultragpu-1g" }
  smaller_gpu { machine_type = "g2-standard-8" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("smaller_gpu")),
				value("capacity_checked", knownvalue.Bool(true)),
				step(0, "answer", knownvalue.StringExact("no")),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`Compute Engine offers it in none of the zones`))),
				step(2, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`quota NVIDIA_L4_GPUS in us-central1: limit 8, usage 0, 8 free, 1 GPUs a node`))),
				// Zone offer and quota checked live: yes.
				step(2, "answer", knownvalue.StringExact("yes")),
				tier(0, "machine_type", knownvalue.StringExact("g2-standard-8")),
			},
		},
		"GPU first, L4 quota used up: stuck": {
			quotas: []emulator.Quota{{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8, Usage: 8}},
			body: `
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "g2-standard-8" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("stuck")),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`no quota left: quota NVIDIA_L4_GPUS in us-central1: limit 8, usage 8, 0 free`))),
				// Offered, so still a tier: its pool's own nodes may be
				// what fills the quota.
				value("tiers", knownvalue.ListSizeExact(1)),
				tier(0, "available", knownvalue.Bool(false)),
				tier(0, "node_locations", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("us-central1-b")})),
			},
		},
		"TPU first, v5e quota used up, runs on GPU: GPU": {
			quotas: []emulator.Quota{{Region: "us-central1", Metric: "TPU_LITE_PODSLICE_V5", Limit: 4, Usage: 4},
				{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 4}},
			body: `
  start         = "tpu"
  zones         = ["us-central1-a"]
  runs_on_other = true
  tpu { accelerator_type = "v5litepod-4" }
  gpu { machine_type = "g2-standard-8" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("gpu")),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`TPU_LITE_PODSLICE_V5 in us-central1: limit 4, usage 4, 0 free, 4 chips a node`))),
				// The TPU tier stays first, marked without headroom; the
				// GPU follows.
				tier(0, "accelerator_type", knownvalue.StringExact("v5litepod-4")),
				tier(0, "available", knownvalue.Bool(false)),
				tier(0, "node_locations", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("us-central1-a")})),
				tier(1, "machine_type", knownvalue.StringExact("g2-standard-8")),
				tier(1, "available", knownvalue.Bool(true)),
			},
		},
		"a quota regions.get does not report is not checked": {
			body: `
  start = "tpu"
  zones = ["us-central1-b"]
  tpu { accelerator_type = "v6e-4" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("tpu")),
				value("capacity_checked", knownvalue.Bool(false)),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`quota not checked \(regions.get reports no quota for v6e\)`))),
				// The zone offers v6e, but nothing could check the quota: unknown, not yes.
				step(0, "answer", knownvalue.StringExact("unknown")),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "sets the quotas that decide each outcome")
			for _, q := range tc.quotas {
				tg.Emulator.SetQuota(q)
			}
			checks := append(tc.checks, callsBounded{calls: tg.CallsSinceStart(), quota: len(tc.quotas) > 0})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps:                    []resource.TestStep{{Config: liveConfig(tg, tc.body), ConfigStateChecks: checks}},
			})
		})
	}
}

// callsBounded checks that the plan and apply asked regions.get at most
// once per region and process, and listed reservations at most once.
type callsBounded struct {
	calls *acctest.Calls
	quota bool // a quota the catalog knows was asked for
}

func (c callsBounded) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	calls := c.calls.Counts("compute.")
	// Terraform reads the data source in the plan and again in the apply,
	// each in its own provider process: at most two of each call.
	for m, n := range calls {
		if n > 2 {
			resp.Error = fmt.Errorf("%s called %d times, want at most once per provider process (%v)", m, n, calls)
		}
	}
	if c.quota && calls["compute.regions.get"] == 0 {
		resp.Error = fmt.Errorf("no regions.get call: capacity was not checked live (%v)", calls)
	}
}

// TestAccHardwarePath_capacityPermissionDenied: a quota read the caller may
// not make is a warning naming the permission, and the walk goes on.
func TestAccHardwarePath_capacityPermissionDenied(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects a 403 answer to regions.get")
	if err := tg.Emulator.FailNext(emulator.MethodComputeRegionsGet, 10, 403); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: liveConfig(tg, `
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "g2-standard-8" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("gpu")),
				value("capacity_checked", knownvalue.Bool(false)),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`quota NVIDIA_L4_GPUS not checked \(regions.get refused: permission compute.regions.get needed\)`))),
			},
		}},
	})
}

// TestAccHardwarePath_offlineMakesNoCall: without compute_endpoint or
// credentials the walk asks no API and says capacity was not checked.
func TestAccHardwarePath_offlineMakesNoCall(t *testing.T) {
	acctest.Offline(t)
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "counts Compute Engine calls: that an offline plan makes none is what it tests")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.WithoutComputeEndpoint() + `
data "accel_hardware_path" "test" {
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "g2-standard-8" }
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				value("capacity_checked", knownvalue.Bool(false)),
				step(0, "evidence", notChecked),
				noComputeCalls{calls: tg.CallsSinceStart()},
			},
		}},
	})
}

type noComputeCalls struct{ calls *acctest.Calls }

func (c noComputeCalls) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if calls := c.calls.Counts("compute."); len(calls) > 0 {
		resp.Error = fmt.Errorf("an offline plan called Compute Engine: %v", calls)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// setQuota sets a regional quota through the emulator's admin API, as an
// engineer would with curl while Terraform is not running.
func setQuota(t *testing.T, srv *emulator.Server, q emulator.Quota) {
	t.Helper()
	body, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(srv.URL()+"/admin/quota", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /admin/quota: %s", resp.Status)
	}
}

// capacityCheck is the expected capacity attribute of a tier.
func capacityCheck(checked bool, metric string, limit, usage float64, free int64, can bool, summary string) knownvalue.Check {
	quota := func(v float64) knownvalue.Check { return knownvalue.Float64Exact(v) }
	var metricCheck, limitCheck, usageCheck, headCheck, freeCheck, canCheck knownvalue.Check = knownvalue.Null(),
		knownvalue.Null(), knownvalue.Null(), knownvalue.Null(), knownvalue.Null(), knownvalue.Null()
	if metric != "" {
		metricCheck = knownvalue.StringExact(metric)
	}
	if limit >= 0 {
		limitCheck, usageCheck, headCheck = quota(limit), quota(usage), quota(max(limit-usage, 0))
	}
	if free >= 0 {
		freeCheck = knownvalue.Int64Exact(free)
	}
	if checked {
		canCheck = knownvalue.Bool(can)
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"checked": knownvalue.Bool(checked), "quota_metric": metricCheck, "quota_limit": limitCheck,
		"quota_usage": usageCheck, "quota_headroom": headCheck, "reservations_free": freeCheck,
		"can_provision": canCheck, "summary": knownvalue.StringRegexp(regexp.MustCompile(summary)),
	})
}

// TestAccFallbackNodePools_capacityAttribute records each tier's capacity
// evidence in state: read at create, refreshed when the quota changes
// outside Terraform without ever planning a change, and read again by an
// update, which plans it as known after apply.
func TestAccFallbackNodePools_capacityAttribute(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "sets the L4 quota and reservation it reads")
	tg.Emulator.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8, Usage: 2})
	tg.Emulator.SetReservation(emulator.Reservation{Zone: "us-central1-b", Name: "l4", MachineType: "g2-standard-8", Count: 3, InUseCount: 1})
	prefix := acctest.RandomName("capattr")
	l4, v6e := prefix+"-l4", prefix+"-v6e"
	cfg := func(labels string) string {
		return config(tg, prefix, "",
			tier{name: l4, attrs: "    machine_type   = \"g2-standard-8\"\n    node_locations = [\"us-central1-b\"]\n" + labels},
			tpuTier(v6e, "us-central1-b", "v6e-4", line("min_node_count", "0"), line("max_node_count", "1")))
	}
	v6eEvidence := capacityCheck(true, "", -1, 0, 0, true,
		`^quota not checked \(regions.get reports no quota for v6e\); 0 matching reservation\(s\) with 0 free VM\(s\)$`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, l4, v6e),
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(address, tierPath(0, "capacity")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "capacity"), capacityCheck(true, "NVIDIA_L4_GPUS", 8, 2, 2, true,
						`^quota NVIDIA_L4_GPUS in us-central1: limit 8, usage 2, 6 free, 1 GPUs? a node; 1 matching reservation\(s\) with 2 free VM\(s\)$`)),
					statecheck.ExpectKnownValue(address, tierPath(1, "capacity"), v6eEvidence),
				},
			},
			{
				// The quota runs out outside Terraform: the refresh records
				// it, and the plan is empty (and warns).
				PreConfig: func() {
					setQuota(t, tg.Emulator, emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8, Usage: 8})
				},
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "capacity"), capacityCheck(true, "NVIDIA_L4_GPUS", 8, 8, 2, false,
						`^quota NVIDIA_L4_GPUS in us-central1: limit 8, usage 8, 0 free`)),
					statecheck.ExpectKnownValue(address, tierPath(1, "capacity"), v6eEvidence),
				},
			},
			{
				Config:             cfg(""),
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
			{
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateId:           tg.Cluster + "/nodePools/" + l4 + "," + v6e,
				ImportStateVerifyIgnore: []string{"timeouts", "pools"}, // created_at is empty for imported pools
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].Attributes["tiers.0.capacity.quota_usage"] != "8" {
						return fmt.Errorf("imported capacity: %v", states[0].Attributes)
					}
					return nil
				},
			},
			{
				// An update (a label on the L4 tier) reads that pool again:
				// its evidence is known after apply, then as read. The v6e
				// tier, untouched, keeps its values known in the plan.
				PreConfig: func() {
					setQuota(t, tg.Emulator, emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8, Usage: 3})
				},
				Config: cfg("    labels = { team = \"serving\" }\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(address, tierPath(0, "capacity")),
					plancheck.ExpectKnownValue(address, tierPath(1, "capacity"), v6eEvidence),
					plancheck.ExpectKnownValue(address, tierPath(1, "status"), knownvalue.StringExact("RUNNING")),
					plancheck.ExpectKnownValue(address, tierPath(1, "effective_labels"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tierPath(0, "capacity"), capacityCheck(true, "NVIDIA_L4_GPUS", 8, 3, 2, true,
						`usage 3, 5 free`)),
				},
			},
		},
	})
}

// TestAccFallbackNodePools_capacityAttributeNotChecked: without a Compute
// Engine endpoint or credentials the provider makes no Compute Engine call
// and every tier's evidence says it was not checked; with both reads
// refused, the evidence says which permission is missing and the plan warns.
func TestAccFallbackNodePools_capacityAttributeNotChecked(t *testing.T) {
	acctest.Offline(t)
	for _, tc := range []struct {
		name    string
		offline bool
		summary string
		warning *regexp.Regexp
	}{
		{name: "offline", offline: true,
			summary: `^capacity not checked: the provider has no project, or neither credentials nor a compute_endpoint, so it made no Compute Engine call$`},
		{name: "permission denied",
			summary: `^capacity not checked: quota NVIDIA_L4_GPUS not checked \(regions.get refused: permission compute.regions.get needed\); ` +
				`reservations not checked \(reservations.aggregatedList refused: permission compute.reservations.list needed\)$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTarget(t)
			tg.RequireEmulatorFor(t, "sets a quota and injects failed capacity calls")
			tg.Emulator.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 8})
			provider := tg.ProviderConfig()
			if tc.offline {
				provider = tg.WithoutComputeEndpoint()
			} else {
				for _, m := range []string{emulator.MethodComputeRegionsGet, emulator.MethodComputeReservationsAggregatedList} {
					if err := tg.Emulator.FailNext(m, 1000, http.StatusForbidden); err != nil {
						t.Fatal(err)
					}
				}
			}
			prefix := acctest.RandomName("capoff")
			name := prefix + "-l4"
			body := strings.TrimPrefix(config(tg, prefix, "",
				tier{name: name, attrs: "    machine_type   = \"g2-standard-8\"\n    node_locations = [\"us-central1-b\"]\n"}), tg.ProviderConfig())
			evidence := capacityCheck(false, "NVIDIA_L4_GPUS", -1, 0, -1, false, tc.summary)
			noComputeCalls := func(*terraform.State) error {
				if !tc.offline {
					return nil
				}
				for m, n := range tg.Emulator.Counters() {
					if strings.HasPrefix(m, "compute.") && n > 0 {
						return fmt.Errorf("an offline plan called %s %d times", m, n)
					}
				}
				return nil
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				CheckDestroy:             checkDestroyed(tg, name),
				Steps: []resource.TestStep{
					{
						Config: provider + "\n" + body,
						Check:  noComputeCalls,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(address, tierPath(0, "capacity"), evidence),
						},
					},
					{
						Config: provider + "\n" + body,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectEmptyPlan(),
						}},
						Check: noComputeCalls,
					},
				},
			})
		})
	}
}

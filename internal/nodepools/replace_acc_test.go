// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// servingGaps walks the emulator's pool events of the named pools (after
// the first of them ran) and returns the moments at which none of them
// was RUNNING: a gap in serving.
func servingGaps(events []emulator.PoolEvent, cluster string, pools ...string) []string {
	running := map[string]bool{}
	started := false
	var gaps []string
	for _, e := range events {
		name, ok := strings.CutPrefix(e.Pool, cluster+"/nodePools/")
		if !ok || !contains(pools, name) {
			continue
		}
		running[name] = e.Status == emulator.PoolRunning
		if e.Status == emulator.PoolRunning {
			started = true
		}
		serving := false
		for _, r := range running {
			serving = serving || r
		}
		if started && !serving {
			gaps = append(gaps, fmt.Sprintf("%s %s at %s", name, e.Status, e.At.Format("15:04:05.000")))
		}
	}
	return gaps
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkGaps checks the serving gaps among pools since the test began:
// none when wantGap is false, at least one when it is true (a plain rename
// deletes before it creates, which the test shows so that the zero-gap
// check is seen to fail where there is a gap).
func checkGaps(tg *acctest.Target, wantGap bool, pools ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		gaps := servingGaps(tg.Emulator.PoolEvents(), tg.Cluster, pools...)
		switch {
		case wantGap && len(gaps) == 0:
			return fmt.Errorf("pools %v: want a moment with none running, found none (%v)", pools, tg.Emulator.PoolEvents())
		case !wantGap && len(gaps) > 0:
			return fmt.Errorf("pools %v: no pool running at %v", pools, gaps)
		}
		return nil
	}
}

// TestAccFallbackNodePools_replaceWithoutGap: a tier renamed with
// replaces = its old name, and a machine type GKE cannot change in place,
// gets its new pool RUNNING before the old one is deleted: at no moment of
// the apply does neither pool serve. A plain rename (no replaces) deletes
// first, and the same check finds its gap. When the new pool cannot be
// created (a stockout), the old pool is kept, in state, and the apply
// fails; once capacity is back, the next apply completes the swap.
func TestAccFallbackNodePools_replaceWithoutGap(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "reads the emulator's log of node pool states, and injects a stockout")
	class := acctest.RandomName("swap")
	pool := func(name, machine, replaces string) tier {
		more := "    node_count     = 1\n"
		if replaces != "" {
			more += fmt.Sprintf("    replaces       = %q\n", replaces)
		}
		return gpuTier(name, "us-central1-a", machine, more)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(tg, class, "", pool("serve-a", "g2-standard-8", ""))},
			{
				Config: config(tg, class, "", pool("serve-b", "g2-standard-16", "serve-a")),
				Check: resource.ComposeTestCheckFunc(checkGaps(tg, false, "serve-a", "serve-b"),
					resource.TestCheckResourceAttr(address, "tiers.#", "1"),
					resource.TestCheckResourceAttr(address, "tiers.0.name", "serve-b")),
			},
			{
				// A plain rename: the old pool goes first.
				Config: config(tg, class, "", pool("serve-c", "g2-standard-8", "")),
				Check:  checkGaps(tg, true, "serve-b", "serve-c"),
			},
			{
				// No capacity for the new machine type: the old pool stays.
				PreConfig:   func() { tg.Emulator.SetCapacity("us-central1-a", "g2-standard-24", 0) },
				Config:      config(tg, class, "", pool("serve-d", "g2-standard-24", "serve-c")),
				ExpectError: regexp.MustCompile(`Node Pool Kept Until Its Replacement Runs`),
				Check:       checkGaps(tg, false, "serve-c", "serve-d"),
			},
			{
				PreConfig: func() { tg.Emulator.SetCapacity("us-central1-a", "g2-standard-24", 10) },
				Config:    config(tg, class, "", pool("serve-d", "g2-standard-24", "serve-c")),
				Check: resource.ComposeTestCheckFunc(checkGaps(tg, false, "serve-c", "serve-d"),
					resource.TestCheckResourceAttr(address, "tiers.#", "1"),
					resource.TestCheckResourceAttr(address, "tiers.0.name", "serve-d")),
			},
		},
	})
}

// TestAccFallbackNodePools_replacesStillConfigured: replaces that names a
// configured tier (or the tier itself) is an error on the attribute.
func TestAccFallbackNodePools_replacesStillConfigured(t *testing.T) {
	for i, tiers := range [][]string{
		{`{ name = "a", machine_type = "g2-standard-8", node_locations = ["us-central1-a"] }`,
			`{ name = "b", machine_type = "g2-standard-16", node_locations = ["us-central1-a"], replaces = "a" }`},
		{`{ name = "a", machine_type = "g2-standard-8", node_locations = ["us-central1-a"], replaces = "a" }`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      offlineConfig(resourceHCL("projects/p/locations/us-central1/clusters/c", "c", "", tiers...)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Replaced Tier Still Configured.*replaces = "a"`),
				}},
			})
		})
	}
}

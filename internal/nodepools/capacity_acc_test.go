// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestAccFallbackNodePools_capacityAtPlan plans with the emulator's Compute
// Engine API reachable: a tier whose regional quota has no room, or whose
// specific reservation is full or missing, gets a warning that names the
// quota or reservation (every pod would land on the next tier); when no
// tier can provision and when_unsatisfiable keeps pods Pending, the plan
// fails; a quota read the caller may not make is a warning naming the
// permission.
func TestAccFallbackNodePools_capacityAtPlan(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	l4 := `  tiers {
    name           = "%[1]s-l4"
    machine_type   = "g2-standard-8"
    node_locations = ["us-central1-b"]
    min_node_count = 0
    max_node_count = 2
%[2]s  }
`
	v6e := `  tiers {
    name             = "%[1]s-v6e"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    min_node_count   = 0
    max_node_count   = 2
  }
`
	reserved := `    reservation_affinity {
      consume_reservation_type = "SPECIFIC_RESERVATION"
      key                      = "compute.googleapis.com/reservation-name"
      values                   = ["%s"]
    }
`
	type want struct{ severity, summary, detail string }
	cases := map[string]struct {
		setup    func(*emulator.Server)
		tiers    func(prefix string) string
		wantFail bool
		want     []want
	}{
		"no L4 quota left: a warning naming the quota and region; the TPU tier can still provision": {
			setup: func(s *emulator.Server) {
				s.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 4, Usage: 4})
			},
			tiers: func(p string) string { return fmt.Sprintf(l4, p, "") + fmt.Sprintf(v6e, p) },
			want: []want{{"warning", "Tier Has No Quota",
				"The regional quota NVIDIA_L4_GPUS in us-central1 has 0 of 4 left, and one node of this tier needs 1: GKE cannot add a node, " +
					"so the ComputeClass places pods on the tiers after it"}},
		},
		"a full specific reservation": {
			setup: func(s *emulator.Server) {
				s.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 4})
				s.SetReservation(emulator.Reservation{Zone: "us-central1-b", Name: "l4-full", MachineType: "g2-standard-8", Count: 2, InUseCount: 2,
					SpecificReservationRequired: true})
			},
			tiers: func(p string) string {
				return fmt.Sprintf(l4, p, fmt.Sprintf(reserved, "l4-full")) + fmt.Sprintf(v6e, p)
			},
			want: []want{{"warning", "Reservation Full", `The tier consumes only the reservation "l4-full", and every VM it reserves is in use`}},
		},
		"a missing specific reservation": {
			setup: func(s *emulator.Server) {},
			tiers: func(p string) string {
				return fmt.Sprintf(l4, p, fmt.Sprintf(reserved, "nowhere")) + fmt.Sprintf(v6e, p)
			},
			want: []want{{"warning", "Reservation Not Found", `no reservation of that name for g2-standard-8 exists in us-central1-b`}},
		},
		"no tier can provision, pods would stay Pending: an error": {
			setup: func(s *emulator.Server) {
				s.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 0})
			},
			tiers:    func(p string) string { return fmt.Sprintf(l4, p, "") },
			wantFail: true,
			// The only tier is the last: no tier to fall back to.
			want: []want{{"warning", "Tier Has No Quota", "NVIDIA_L4_GPUS"},
				{"warning", "Tier Has No Quota", "pods that need this tier stay Pending (no tier follows it"},
				{"error", "No Tier Can Provision", `when_unsatisfiable = "DoNotScaleUp" keeps pods Pending`}},
		},
		"the quota read is refused: a warning naming the permission": {
			setup: func(s *emulator.Server) {
				if err := s.FailNext(emulator.MethodComputeRegionsGet, 100, 403); err != nil {
					t.Fatal(err)
				}
			},
			tiers: func(p string) string { return fmt.Sprintf(l4, p, "") },
			want:  []want{{"warning", "Capacity Not Checked", "compute.regions.get"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "sets the quotas and reservations it reads and injects failed capacity calls")
			tc.setup(tg.Emulator)
			prefix := acctest.RandomName("cap")
			diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, tg.Config(fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
%s}
`, tg.Cluster, prefix, tc.tiers(prefix))))
			if failed := err != nil; failed != tc.wantFail {
				t.Fatalf("plan error = %v, want failure %v\nstdout:\n%s", err, tc.wantFail, stdout)
			}
			for _, w := range tc.want {
				found := false
				for _, d := range diags {
					if d.Summary == w.summary && d.Severity == w.severity && strings.Contains(strings.Join(strings.Fields(d.Detail), " "), w.detail) {
						found = true
					}
				}
				if !found {
					t.Errorf("no %s %q containing %q; diagnostics: %+v", w.severity, w.summary, w.detail, diags)
				}
			}
		})
	}
}

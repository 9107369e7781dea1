// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"strings"
	"testing"

	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// TestAdoptionMismatchProvisioning: a pool left by an interrupted apply is
// adopted only when GKE reports the flex-start and queued provisioning the
// tier creates, as GKE cannot change them in place; a maximum run duration
// the tier leaves out is GKE's default, whatever GKE reports.
func TestAdoptionMismatchProvisioning(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	zero, two := int64(0), int64(2)
	spec := func(p provisioning) tierSpec {
		s, fs := derive(cat, tierInput{Name: "l4", MachineType: "g2-standard-8", Locations: []string{"us-central1-b"},
			MinNodes: &zero, MaxNodes: &two, Provisioning: p}, "cc", "")
		if fs.HasErrors() {
			t.Fatal(fs)
		}
		return s
	}
	pool := func(p provisioning, reportedRun string) *container.NodePool {
		np := spec(p).nodePool(catalog.Default())
		np.Config.ResourceLabels = map[string]string{ownership.LabelKey: "o1"}
		np.Config.MaxRunDuration = reportedRun
		// An on-demand pool created with no reservation, as flex-start and
		// queued pools are: only the provisioning model differs.
		np.Config.ReservationAffinity = &container.ReservationAffinity{ConsumeReservationType: catalog.ReservationNone}
		return np
	}
	flex := provisioning{FlexStart: true}
	queued := provisioning{Queued: true}
	tests := map[string]struct {
		got         *container.NodePool
		want        provisioning
		mismatchHas string
	}{
		"same flex-start":                        {got: pool(flex, ""), want: flex},
		"GKE's default run duration is reported": {got: pool(flex, "604800s"), want: flex},
		"same run duration, other spelling":      {got: pool(provisioning{FlexStart: true, MaxRunDuration: "24h"}, "86400s"), want: provisioning{FlexStart: true, MaxRunDuration: "1440m"}},
		"same queued provisioning":               {got: pool(queued, ""), want: queued},
		"on-demand pool, flex-start tier":        {got: pool(provisioning{}, ""), want: flex, mismatchHas: "has flex_start = false, not true"},
		"flex-start pool, on-demand tier":        {got: pool(flex, ""), want: provisioning{}, mismatchHas: "has flex_start = true, not false"},
		"queued pool, flex-start and queued tier": {got: pool(queued, ""), want: provisioning{FlexStart: true, Queued: true},
			mismatchHas: "has flex_start = false, not true"},
		"flex-start pool, queued tier": {got: pool(flex, ""), want: queued, mismatchHas: "has flex_start = true, not false"},
		"on-demand pool, queued tier":  {got: pool(provisioning{}, ""), want: queued, mismatchHas: "has queued_provisioning = false, not true"},
		"another run duration": {got: pool(flex, "86400s"), want: provisioning{FlexStart: true, MaxRunDuration: "48h"},
			mismatchHas: `has max_run_duration = "24h", not "48h"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := adoptionMismatch(catalog.Default(), tc.got, spec(tc.want), "o1")
			if tc.mismatchHas == "" && got != "" {
				t.Errorf("mismatch %q, want adoption", got)
			}
			if tc.mismatchHas != "" && !strings.Contains(got, tc.mismatchHas) {
				t.Errorf("mismatch %q, want it to contain %q", got, tc.mismatchHas)
			}
		})
	}
}

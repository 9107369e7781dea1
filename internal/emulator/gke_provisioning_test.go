// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"errors"
	"net/http"
	"testing"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"
)

// TestGKEProvisioning: flex-start and queued pools are refused without
// autoscaling, with Spot, with a reservation, with a run over seven days,
// or (queued) with nodes at creation; a valid one is created and reports
// what GKE adds.
func TestGKEProvisioning(t *testing.T) {
	t.Parallel()
	valid := func(name string, queued bool) *container.NodePool {
		np := gpuPool(name)
		np.InitialNodeCount = 0
		np.Autoscaling = &container.NodePoolAutoscaling{Enabled: true, MaxNodeCount: 2}
		np.Config.ReservationAffinity = &container.ReservationAffinity{ConsumeReservationType: "NO_RESERVATION"}
		if queued {
			np.QueuedProvisioning = &container.QueuedProvisioning{Enabled: true}
		} else {
			np.Config.FlexStart, np.Config.MaxRunDuration = true, "86400s"
		}
		return np
	}
	bad := map[string]*container.NodePool{}
	np := valid("no-autoscaling", false)
	np.Autoscaling = nil
	bad[np.Name] = np
	np = valid("spot", false)
	np.Config.Spot = true
	bad[np.Name] = np
	np = valid("reservation", true)
	np.Config.ReservationAffinity.ConsumeReservationType = "ANY_RESERVATION"
	bad[np.Name] = np
	np = valid("eight-days", false)
	np.Config.MaxRunDuration = "691200s"
	bad[np.Name] = np
	np = valid("queued-nodes", true)
	np.InitialNodeCount = 1
	bad[np.Name] = np
	e := start(t, instant())
	for name, np := range bad {
		_, err := e.createPool(serving, np)
		var gerr *googleapi.Error
		if !errors.As(err, &gerr) || gerr.Code != http.StatusBadRequest {
			t.Errorf("%s: got %v, want 400", name, err)
		}
	}
	for _, queued := range []bool{false, true} {
		name := map[bool]string{false: "flex", true: "queued"}[queued]
		if _, err := e.createPool(serving, valid(name, queued)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := e.pool(t, serving, name)
		hasTaint := false
		for _, tt := range got.Config.Taints {
			hasTaint = hasTaint || (tt.Key == "cloud.google.com/gke-queued" && tt.Value == "true" && tt.Effect == "NO_SCHEDULE")
		}
		if hasTaint != queued {
			t.Errorf("%s: queued taint = %t, want %t", name, hasTaint, queued)
		}
		if model := got.Config.ResourceLabels["goog-gke-node-pool-provisioning-model"]; (model == "flex-start") == queued {
			t.Errorf("%s: provisioning model label %q", name, model)
		}
		if !queued && got.Config.MaxRunDuration != "86400s" {
			t.Errorf("flex: maxRunDuration = %q", got.Config.MaxRunDuration)
		}
	}
}

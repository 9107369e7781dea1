// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestDeleteGate: the gate (gate.go) lets each path delete a pool only
// with its evidence, and refuses it otherwise, leaving the pool in place:
// a removed tier only when the plan dropped the pool, a re-created one only
// when the plan re-creates it, a replaced one only when its replacement runs
// now (a replacement still being created is waited for), destroy only on
// destroy, and never a pool someone else created.
func TestDeleteGate(t *testing.T) {
	t.Parallel()
	const mine, other = "0123456789abcdef0123", "fedcba9876543210fedc"
	dropped := evidenceOf(map[string]poolEntry{"new": {CreatedAt: types.StringUnknown()}}, true)
	kept := evidenceOf(map[string]poolEntry{"old": {CreatedAt: types.StringValue("2026-01-01T00:00:00Z")}}, true)
	recreated := evidenceOf(map[string]poolEntry{"old": {CreatedAt: types.StringUnknown()}}, true)
	protect := func(ev planEvidence) planEvidence {
		ev.protected = true
		return ev
	}
	tests := map[string]struct {
		evidence planEvidence
		d        deletion
		// setup prepares the replacement "new" (beside "old", which every
		// case creates as this resource's own).
		setup   func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients)
		deleted bool
		// refusal checks the error of a refused delete.
		refusal func(error) bool
	}{
		"removed, dropped by the plan": {evidence: dropped, d: deletion{cause: causeRemoved, pool: "old"}, deleted: true},
		"removed, still planned": {evidence: kept, d: deletion{cause: causeRemoved, pool: "old"},
			refusal: isRefused},
		"removed, plan unknown":  {evidence: planEvidence{}, d: deletion{cause: causeRemoved, pool: "old"}, refusal: isRefused},
		"re-created, planned so": {evidence: recreated, d: deletion{cause: causeRecreated, pool: "old"}, deleted: true},
		"re-created, plan keeps it": {evidence: kept, d: deletion{cause: causeRecreated, pool: "old"},
			refusal: isRefused},
		"re-created, plan dropped it": {evidence: dropped, d: deletion{cause: causeRecreated, pool: "old"},
			refusal: isRefused},
		"destroyed": {evidence: destroyEvidence(), d: deletion{cause: causeDestroyed, pool: "old"}, deleted: true},
		"destroyed outside destroy": {evidence: dropped, d: deletion{cause: causeDestroyed, pool: "old"},
			refusal: isRefused},
		"no cause":              {evidence: destroyEvidence(), d: deletion{pool: "old"}, refusal: isRefused},
		"protected, removed":    {evidence: protect(dropped), d: deletion{cause: causeRemoved, pool: "old"}, refusal: isRefused},
		"protected, re-created": {evidence: protect(recreated), d: deletion{cause: causeRecreated, pool: "old"}, refusal: isRefused},
		"protected, destroyed":  {evidence: protect(destroyEvidence()), d: deletion{cause: causeDestroyed, pool: "old"}, refusal: isRefused},
		"protected, replaced, replacement running": {evidence: protect(dropped),
			d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				create(t, ops, "new")
			}, deleted: true},
		"replaced, replacement running": {evidence: dropped, d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				create(t, ops, "new")
			}, deleted: true},
		"replaced, replacement missing": {evidence: dropped, d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			refusal: isKept},
		"replaced, replacement in ERROR": {evidence: dropped, d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				srv.SetCapacity("us-central1-a", "nvidia-l4", 1) // "old" holds it
				if _, err := ops.create(t.Context(), gpuSpecs(t, "new")[0]); gcp.Classify(err) != gcp.ClassCapacity {
					t.Fatalf("create of the replacement: %v, want a stockout", err)
				}
			}, refusal: isKept},
		"replaced, replacement still provisioning": {evidence: dropped,
			d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				// The replacement's create hangs until the gate reads it:
				// the gate sees it PROVISIONING, waits, then deletes.
				if err := srv.HangOperationsUntilCalls(emulator.MethodNodePoolsCreate, emulator.MethodNodePoolsGet, 1); err != nil {
					t.Fatal(err)
				}
				np := gpuSpecs(t, "new")[0].nodePool(catalog.Default())
				np.Config.ResourceLabels = map[string]string{"accel-managed": mine}
				if _, err := containerService(t, srv).Projects.Locations.Clusters.NodePools.Create(ops.api.Cluster(),
					&container.CreateNodePoolRequest{NodePool: np}).Context(t.Context()).Do(); err != nil {
					t.Fatal(err)
				}
			}, deleted: true},
		"replaced, plan still has the old pool": {evidence: kept, d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				create(t, ops, "new")
			}, refusal: isRefused},
		"replaced, replacement someone else's": {evidence: dropped, d: deletion{cause: causeReplaced, pool: "old", replacement: "new"},
			setup: func(t *testing.T, srv *emulator.Server, ops *poolOps, clients *gcp.Clients) {
				createForeign(t, srv, clients, "gate", "new", other)
			}, refusal: isKept},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := emulator.Default()
			sc.Durations.PoolCreate = 30 * time.Millisecond
			srv, clients := startEmulator(t, sc)
			ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID("gate", "us-central1", "serving"))
			if err != nil {
				t.Fatal(err)
			}
			ops.owner = poolOwner{id: mine}
			create(t, ops, "old")
			if tt.setup != nil {
				tt.setup(t, srv, ops, clients)
			}
			ops.evidence = tt.evidence
			err = ops.deletePool(t.Context(), tt.d)
			np, gerr := ops.api.Get(t.Context(), "old")
			if gerr != nil {
				t.Fatal(gerr)
			}
			switch {
			case tt.deleted && (err != nil || np != nil):
				t.Fatalf("deletePool(%+v) = %v, pool after %v; want it deleted", tt.d, err, np)
			case !tt.deleted && (err == nil || !tt.refusal(err)):
				t.Fatalf("deletePool(%+v) = %v; want it refused", tt.d, err)
			case !tt.deleted && (np == nil || np.Status != statusRunning):
				t.Fatalf("a refused delete left the pool %v, want it RUNNING", np)
			}
		})
	}

	t.Run("someone else's pool", func(t *testing.T) {
		t.Parallel()
		srv, clients := startEmulator(t, emulator.Default())
		createForeign(t, srv, clients, "gate", "old", other)
		ops, err := newPoolOps(t.Context(), catalog.Default(), clients, gcp.ClusterID("gate", "us-central1", "serving"))
		if err != nil {
			t.Fatal(err)
		}
		ops.owner = poolOwner{id: mine}
		ops.evidence = destroyEvidence()
		if err := ops.deletePool(t.Context(), deletion{cause: causeDestroyed, pool: "old"}); !isForeign(err) {
			t.Fatalf("deletePool of someone else's pool = %v, want it refused as not this resource's", err)
		}
		if n := srv.Counters()[emulator.MethodNodePoolsDelete]; n != 0 {
			t.Fatalf("%d delete calls, want none", n)
		}
	})
}

// create creates this resource's pool name (a GPU tier) and waits.
func create(t *testing.T, ops *poolOps, name string) {
	t.Helper()
	if _, err := ops.create(t.Context(), gpuSpecs(t, name)[0]); err != nil {
		t.Fatal(err)
	}
}

func isRefused(err error) bool {
	var r *deleteRefusedError
	return errors.As(err, &r)
}

func isKept(err error) bool {
	var k *keptForReplacementError
	return errors.As(err, &k)
}

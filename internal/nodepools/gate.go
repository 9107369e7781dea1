// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// The delete gate: the one place that decides whether a node pool may be
// deleted. Every delete of a pool (a removed tier, a re-created one, a
// replaced one, destroy) is a deletion handed to deletePool, whatever path
// planned it: a plain apply, `replaces`, the apply after an interrupt, an
// adopted pool, validation = "warn", a workload-policy change. A pool may be
// deleted only when
//
//   - causeRemoved: its tier was removed or renamed, and the plan dropped the
//     pool by name from `pools`;
//   - causeRecreated: the plan re-creates it (its `pools` entry keeps the
//     name with an unknown created_at, and a warning named it);
//   - causeReplaced: a tier names it in `replaces`, and that tier's pool is
//     RUNNING now, read at delete time (a replacement still being created is
//     waited for), whichever apply created or adopted the replacement;
//   - causeDestroyed: the resource is destroyed.
//
// While deletion_protection is true (in the state or in the plan), only
// causeReplaced may delete a pool.
//
// In every case the pool must be this resource's (poolOwner): a pool of the
// name that someone else created is never deleted.

// deleteCause is why the apply engine asks to delete a pool.
type deleteCause int

const (
	causeRemoved deleteCause = iota + 1
	causeRecreated
	causeReplaced
	causeDestroyed
)

func (c deleteCause) String() string {
	switch c {
	case causeRemoved:
		return "tier removed"
	case causeRecreated:
		return "re-created"
	case causeReplaced:
		return "replaced"
	case causeDestroyed:
		return "destroyed"
	}
	return "unknown"
}

// deletion is one request to delete the pool of tier pool.
type deletion struct {
	cause deleteCause
	pool  string
	// replacement is, for causeReplaced, the tier whose pool must run.
	replacement string
}

// planEvidence is what the plan said of the pools by name: plannedPools are
// the keys of its `pools` with whether each is re-created (created_at
// unknown). known is false when the plan's `pools` is unknown, which no
// plan applied has (every tier name is known by then).
type planEvidence struct {
	known     bool
	planned   map[string]bool // name -> re-created
	destroyed bool
	// protected is deletion_protection, true in the state or the plan.
	protected bool
}

// evidenceOf reads the planned `pools`.
func evidenceOf(entries map[string]poolEntry, known bool) planEvidence {
	ev := planEvidence{known: known, planned: map[string]bool{}}
	for name, e := range entries {
		ev.planned[name] = e.CreatedAt.IsUnknown()
	}
	return ev
}

// destroyEvidence is the evidence of terraform destroy.
func destroyEvidence() planEvidence { return planEvidence{known: true, destroyed: true} }

// deleteRefusedError is why the gate refused to delete a pool.
type deleteRefusedError struct {
	pool   string
	reason string
}

func (e *deleteRefusedError) Error() string {
	return fmt.Sprintf("node pool %s was not deleted: %s", e.pool, e.reason)
}

// mayDelete decides whether d may delete its pool, reading the pools it
// needs now. It returns nil when it may.
func (o *poolOps) mayDelete(ctx context.Context, d deletion) error {
	ev := o.evidence
	if ev.protected && d.cause != causeReplaced {
		return &deleteRefusedError{pool: d.pool, reason: "deletion_protection is true; set it to false and apply first"}
	}
	switch d.cause {
	case causeDestroyed:
		if !ev.destroyed {
			return &deleteRefusedError{pool: d.pool, reason: "a destroy was asked for outside terraform destroy"}
		}
	case causeRemoved:
		if _, planned := ev.planned[d.pool]; !ev.known || planned {
			return &deleteRefusedError{pool: d.pool, reason: "the plan did not drop it from pools"}
		}
	case causeRecreated:
		if recreated, planned := ev.planned[d.pool]; !ev.known || !planned || !recreated {
			return &deleteRefusedError{pool: d.pool, reason: "the plan did not re-create it"}
		}
	case causeReplaced:
		if _, planned := ev.planned[d.pool]; !ev.known || planned {
			return &deleteRefusedError{pool: d.pool, reason: "the plan did not drop it from pools"}
		}
		if err := o.replacementRuns(ctx, d.replacement); err != nil {
			return &keptForReplacementError{replacement: d.replacement, cause: err}
		}
	default:
		return &deleteRefusedError{pool: d.pool, reason: "no cause given"}
	}
	np, err := o.api.Get(ctx, d.pool)
	switch {
	case err != nil:
		return fmt.Errorf("could not check that the pool is this resource's before deleting it: %w", err)
	case np != nil && !o.owner.owns(np):
		return &notOwnedError{reason: ownership.Describe(resourceLabels(np))}
	}
	return nil
}

// replacementRuns reports, as an error, why the pool of tier name is not
// RUNNING now: it waits for a pool still being created or changed to come
// to rest, then reads its status.
func (o *poolOps) replacementRuns(ctx context.Context, name string) error {
	np, err := o.api.Get(ctx, name)
	if err != nil {
		return err
	}
	if np != nil && !o.owner.owns(np) {
		return fmt.Errorf("the node pool of that name %s", ownership.Describe(resourceLabels(np)))
	}
	if np, err = o.awaitResting(ctx, np); err != nil {
		return err
	}
	switch {
	case np == nil:
		return errors.New("it does not exist")
	case np.Status != statusRunning:
		if np.StatusMessage != "" {
			return fmt.Errorf("it is %s: %s", np.Status, np.StatusMessage)
		}
		return fmt.Errorf("it is %s", np.Status)
	}
	return nil
}

// deletePool deletes the pool of d once the gate allows it (mayDelete).
// Deleting a pool that does not exist succeeds.
func (o *poolOps) deletePool(ctx context.Context, d deletion) error {
	if err := o.mayDelete(ctx, d); err != nil {
		tflog.Warn(ctx, "node pool delete refused", map[string]any{"cluster": o.api.Cluster(), "node_pool": d.pool,
			"cause": d.cause.String(), "error": err.Error()})
		return err
	}
	tflog.Info(ctx, "deleting node pool", map[string]any{"cluster": o.api.Cluster(), "node_pool": d.pool, "cause": d.cause.String()})
	return o.api.Delete(ctx, d.pool)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// pools is the resource's `pools` attribute: one entry per node pool,
// keyed by pool name, so that the plan's diff names each pool the apply
// creates (a new key), deletes (a key removed), re-creates (created_at
// becomes unknown) or moves to another priority (tier changes).

// poolEntry is one value of `pools`.
type poolEntry struct {
	Tier      types.Int64  `tfsdk:"tier"`
	CreatedAt types.String `tfsdk:"created_at"`
}

// poolEntries reads `pools`; an unknown or null map has no entries.
func poolEntries(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]poolEntry {
	out := map[string]poolEntry{}
	if m.IsNull() || m.IsUnknown() {
		return out
	}
	diags.Append(tfmodel.MapAs(ctx, m, &out)...)
	return out
}

// poolMap builds `pools` from entries.
func poolMap(entries map[string]poolEntry, diags *diag.Diagnostics) types.Map {
	elems := make(map[string]attr.Value, len(entries))
	for name, e := range entries {
		obj, d := types.ObjectValue(schemaTypes().poolEntry.AttrTypes, map[string]attr.Value{"tier": e.Tier, "created_at": e.CreatedAt})
		diags.Append(d...)
		elems[name] = obj
	}
	m, d := types.MapValue(schemaTypes().poolEntry, elems)
	diags.Append(d...)
	return m
}

// plannedPool is the planned entry of the pool of tier i (0-based): its
// creation time stays as recorded when the apply keeps the pool, and is
// unknown when the apply creates or re-creates it (or cannot tell yet).
func plannedPool(i int, prior poolEntry, hadPrior, keeps bool) poolEntry {
	e := poolEntry{Tier: types.Int64Value(int64(i + 1)), CreatedAt: types.StringUnknown()}
	if keeps && hadPrior && !prior.CreatedAt.IsUnknown() {
		e.CreatedAt = prior.CreatedAt
	}
	return e
}

// recordedPools is `pools` after an apply or a refresh, for the tiers as
// recorded: a pool keeps the creation time the plan showed (or, when the
// plan could not tell, the one in state); a pool this apply created gets
// now; a pool nobody here created (imported, or recorded before this
// attribute existed) gets "".
func recordedPools(tiers []tierModel, planned, prior map[string]poolEntry, created map[string]bool, diags *diag.Diagnostics) types.Map {
	now := time.Now().UTC().Format(time.RFC3339)
	entries := make(map[string]poolEntry, len(tiers))
	for i, t := range tiers {
		name := t.Name.ValueString()
		e := poolEntry{Tier: types.Int64Value(int64(i + 1)), CreatedAt: types.StringValue("")}
		switch p, old := planned[name], prior[name]; {
		case !p.CreatedAt.IsNull() && !p.CreatedAt.IsUnknown():
			e.CreatedAt = p.CreatedAt
		case created[name]:
			e.CreatedAt = types.StringValue(now)
		case !old.CreatedAt.IsNull() && !old.CreatedAt.IsUnknown():
			e.CreatedAt = old.CreatedAt
		}
		entries[name] = e
	}
	return poolMap(entries, diags)
}

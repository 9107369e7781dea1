// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// The trust model of the ownership label. The label accel-managed = owner
// id says which resource created a pool, but anyone who may create pools in
// the cluster can read the id and write it on a pool of their own. So the
// label is never enough to take a pool over as it is: what decides what
// runs on a pool's nodes, and with which powers (its service account and
// OAuth scopes, which GKE cannot change on a pool, its workload metadata
// mode and node image), is recorded when this resource creates or adopts
// the pool, in the resource's private state, and compared whenever the pool
// is read:
//
//   - a pool whose service account or scopes differ from the record is not
//     the pool this resource created (GKE cannot change them in place): it
//     is dropped from the state, never changed or deleted;
//   - a changed workload metadata mode or image type is reported.
//
// A pool left by an interrupted apply, which no record holds yet, is
// adopted only when its service account and scopes are what the tier asks
// for (adoptionMismatch, identityMismatch).

// nodeIdentity is what decides what runs on a pool's nodes.
type nodeIdentity struct {
	ServiceAccount   string   `json:"service_account"`
	OAuthScopes      []string `json:"oauth_scopes"` // sorted
	WorkloadMetadata string   `json:"workload_metadata"`
	ImageType        string   `json:"image_type"`
}

// privateIdentities is the private-state key of the recorded identities,
// by pool name.
const privateIdentities = "node_identities"

// identityOfPool reads np's identity.
func identityOfPool(np *container.NodePool) nodeIdentity {
	s := poolSettingsOf(np, nil)
	return nodeIdentity{ServiceAccount: s.ServiceAccount, OAuthScopes: s.OAuthScopes, WorkloadMetadata: s.WorkloadMetadataMode,
		ImageType: strings.ToUpper(s.ImageType)}
}

// identityOfTier reads the identity a tier recorded in state shows (its
// settings as flattened from its pool).
func identityOfTier(t tierModel) nodeIdentity {
	scopes := tfmodel.KnownStrings(t.OAuthScopes)
	slices.Sort(scopes)
	return nodeIdentity{ServiceAccount: t.ServiceAccount.ValueString(), OAuthScopes: scopes,
		WorkloadMetadata: t.WorkloadMetadataMode.ValueString(), ImageType: strings.ToUpper(t.ImageType.ValueString())}
}

// recreated names what differs between the recorded identity and now that
// GKE cannot change in place: a pool showing it was created again.
func (was nodeIdentity) recreated(now nodeIdentity) []string {
	var out []string
	if was.ServiceAccount != now.ServiceAccount {
		out = append(out, fmt.Sprintf("service account %q, not %q", now.ServiceAccount, was.ServiceAccount))
	}
	if !slices.Equal(was.OAuthScopes, now.OAuthScopes) {
		out = append(out, fmt.Sprintf("OAuth scopes %v, not %v", now.OAuthScopes, was.OAuthScopes))
	}
	return out
}

// changed names what differs between the recorded identity and now that
// GKE can change in place.
func (was nodeIdentity) changed(now nodeIdentity) []string {
	var out []string
	if was.WorkloadMetadata != now.WorkloadMetadata {
		out = append(out, fmt.Sprintf("workload metadata mode %q, not %q", now.WorkloadMetadata, was.WorkloadMetadata))
	}
	if was.ImageType != now.ImageType {
		out = append(out, fmt.Sprintf("image type %q, not %q", now.ImageType, was.ImageType))
	}
	return out
}

// identities reads the recorded identities from private state.
func identities(ctx context.Context, private privateState, diags *diag.Diagnostics) map[string]nodeIdentity {
	out := map[string]nodeIdentity{}
	if private == nil {
		return out
	}
	raw, d := private.GetKey(ctx, privateIdentities)
	diags.Append(d...)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			diags.AddError("Unreadable Private State",
				fmt.Sprintf("The provider's private state for this resource (%s) could not be read: %s. "+
					"Please report this issue to the provider developers.", privateIdentities, err))
		}
	}
	return out
}

// privateSetter is the part of the framework's private state a response
// writes.
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordIdentities records, for every tier of tiers whose pool exists, the
// identity it shows, keeping known ones: after an apply, the pools this
// resource created, changed or adopted as they are now.
func recordIdentities(ctx context.Context, private privateSetter, known map[string]nodeIdentity, tiers []tierModel, fresh bool,
	diags *diag.Diagnostics) {
	out := map[string]nodeIdentity{}
	for _, t := range tiers {
		name := t.Name.ValueString()
		switch status := t.Status.ValueString(); {
		case status == statusMissing || status == statusUnknown || t.Status.IsNull() || t.Status.IsUnknown():
			if id, ok := known[name]; ok {
				out[name] = id
			}
		case fresh:
			out[name] = identityOfTier(t)
		default:
			if id, ok := known[name]; ok {
				out[name] = id
			} else {
				out[name] = identityOfTier(t)
			}
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		diags.AddError("Private State Not Written", err.Error())
		return
	}
	diags.Append(private.SetKey(ctx, privateIdentities, b)...)
}

// identityMismatch says why pool np, found where this resource would create
// the pool of want and not recorded by it, may not be adopted: its service
// account or scopes are not what the tier asks for (GKE's "default" account
// when the tier sets none), or it has the cloud-platform scope the tier did
// not ask for. "" when they match.
func identityMismatch(np *container.NodePool, want tierSpec) string {
	got := identityOfPool(np)
	wantSA := want.Settings.ServiceAccount
	if wantSA == "" {
		wantSA = "default"
	}
	if got.ServiceAccount != wantSA && (want.Settings.ServiceAccount != "" || got.ServiceAccount != "") {
		return fmt.Sprintf("runs as service account %q, not %q", got.ServiceAccount, wantSA)
	}
	switch {
	case want.Settings.OAuthScopes != nil && !slices.Equal(got.OAuthScopes, want.Settings.OAuthScopes):
		return fmt.Sprintf("has OAuth scopes %v, not %v", got.OAuthScopes, want.Settings.OAuthScopes)
	case want.Settings.OAuthScopes == nil && slices.Contains(got.OAuthScopes, cloudPlatformScope):
		return fmt.Sprintf("has the OAuth scope %s, which the tier does not ask for", cloudPlatformScope)
	}
	if wm := want.Settings.WorkloadMetadataMode; wm != "" && got.WorkloadMetadata != wm {
		return fmt.Sprintf("has workload metadata mode %q, not %q", got.WorkloadMetadata, wm)
	}
	return ""
}

// cloudPlatformScope is the OAuth scope of every Google Cloud API.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// plausiblyOurs reports whether np, a pool that carries this resource's
// owner id but that no tier in the state names (left by an interrupted
// apply), runs with an identity this resource gave a pool: one it recorded,
// or, with none recorded, GKE's default service account without the
// cloud-platform scope.
func plausiblyOurs(np *container.NodePool, recorded map[string]nodeIdentity) bool {
	got := identityOfPool(np)
	for _, id := range recorded {
		if len(id.recreated(got)) == 0 {
			return true
		}
	}
	return len(recorded) == 0 && got.ServiceAccount == "default" && !slices.Contains(got.OAuthScopes, cloudPlatformScope)
}

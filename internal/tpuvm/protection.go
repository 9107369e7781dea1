// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// deletion_protection: a guard in Terraform only (the Cloud TPU API has no
// such setting), as the google provider's deletion_protection arguments
// are. While the state says true, every plan that would delete the VM is
// refused (a replacement also while the configuration says true, as
// accel_fallback_nodepools does): a destroy (ModifyPlan with no planned
// state), a replacement
// (the plan Terraform makes for the new VM, which carries privateProtected
// from the plan of the old one; the framework does not tell ModifyPlan
// which attributes forced a replacement, but Terraform makes that second
// plan exactly when one does, see privateReplacing), and Delete itself,
// for a plan saved before the protection was set.

// privateProtected is the planned-private key in which the plan of an
// existing VM records that its state has deletion_protection set ("true").
const privateProtected = "protected"

// protectedJSON is the value of privateProtected for a state: "true" when
// it has deletion_protection set, nil (no key) otherwise.
func protectedJSON(state vmModel) []byte {
	if state.DeletionProtection.ValueBool() {
		return []byte("true")
	}
	return nil
}

// addProtected adds the error that refuses to delete the protected VM id;
// what names the change that would delete it. The summary is
// accel_fallback_nodepools' for the same refusal.
func addProtected(diags *diag.Diagnostics, id, what string) {
	diags.AddAttributeError(path.Root("deletion_protection"), "Deletion Protection Is On",
		fmt.Sprintf("TPU VM %s would be deleted: %s, and deletion_protection is true. Nothing was changed. To delete or "+
			"replace the VM, set deletion_protection = false and apply that first (it changes only the state), then run "+
			"this again.", id, what))
}

// refuseProtectedDestroy refuses the destroy plan of a VM whose state has
// deletion_protection set.
func refuseProtectedDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	var protected types.Bool
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("deletion_protection"), &protected)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if tfmodel.Known(protected) && protected.ValueBool() {
		addProtected(&resp.Diagnostics, id.ValueString(), "this plan destroys it (terraform destroy, or the resource removed from the configuration)")
	}
}

// stateOnlyUpdate reports whether plan changes deletion_protection and no
// setting of the VM: the update then records it without an API call.
func stateOnlyUpdate(plan, state vmModel) bool {
	return !plan.DeletionProtection.Equal(state.DeletionProtection) && sameSettings(plan, state)
}

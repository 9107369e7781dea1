// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// clientErrorDetail explains a failure to reach GKE for cluster.
func clientErrorDetail(cluster string, err error) string {
	var ce *gcp.CredentialsError
	if errors.As(err, &ce) {
		return err.Error()
	}
	return fmt.Sprintf("Could not prepare GKE API calls for %s: %s", cluster, err)
}

// stockoutDetail explains a tier that GKE could not provision for lack of
// capacity; last is set for the last tier, which has none to fall back to.
func stockoutDetail(pool string, onStockout string, last bool, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GKE could not provision node pool %s for lack of capacity: %s", pool, err)
	if zones := gcp.ZonesAvailable(err); len(zones) > 0 {
		fmt.Fprintf(&b, "\n\nZones that reported capacity: %s. Add a tier in one of them, or change this tier's node_locations.", strings.Join(zones, ", "))
	}
	if onStockout == onStockoutFail {
		b.WriteString("\n\nThe pool, as GKE left it, and every other tier are recorded in state. Set on_stockout = \"continue\" to keep " +
			"applying when a tier is out of capacity.")
	} else {
		b.WriteString("\n\nThe pool is recorded with the status GKE reports, and the next apply creates it again. Meanwhile " + fallsBack(last) + ".")
	}
	return b.String()
}

// fallsBack says where the pods of a tier that cannot add nodes go: to the
// tiers after it, or, for the last one, nowhere.
func fallsBack(last bool) string {
	if last {
		return "pods that need this tier stay Pending (no tier follows it; with when_unsatisfiable = \"ScaleUpAnyway\", GKE " +
			"adds nodes without accelerators instead)"
	}
	return "the ComputeClass places pods on the tiers after it"
}

// reportTierError turns one tier's failure into a diagnostic on its path.
// A failure because Terraform was interrupted is a warning: what exists is
// recorded, and the next apply continues from it.
func reportTierError(diags *diag.Diagnostics, base path.Path, pool, onStockout string, last, interrupted bool, err error) {
	var exists *poolExistsError
	var notOwned *notOwnedError
	switch {
	case errors.As(err, &notOwned):
		diags.AddAttributeError(base.AtName("name"), "Node Pool Not Created by This Resource",
			fmt.Sprintf("Node pool %s is recorded in the state, but the pool of that name in the cluster %s; it was not changed "+
				"or deleted, and it is dropped from the state. Rename the tier, or import the pool with the identifier %q if "+
				"this resource should manage it.", pool, notOwned.reason, pool))
	case interrupted && errors.Is(err, context.Canceled):
		diags.AddAttributeWarning(base, "Node Pool Operation Interrupted",
			fmt.Sprintf("Terraform was interrupted while node pool %s was being created or changed. It is recorded in the state as "+
				"GKE reports it, so nothing is lost or created twice: the next plan refreshes it, and the next apply continues from it.", pool))
	case gcp.Classify(err) == gcp.ClassCapacity:
		if onStockout == onStockoutContinue {
			diags.AddAttributeWarning(base, "Node Pool Out of Capacity", stockoutDetail(pool, onStockout, last, err))
			return
		}
		diags.AddAttributeError(base, "Node Pool Out of Capacity", stockoutDetail(pool, onStockout, last, err))
	case errors.As(err, &exists):
		diags.AddAttributeError(base.AtName("name"), "Node Pool Already Exists",
			fmt.Sprintf("Node pool %s already exists and %s. It is not adopted, not recorded in the state, and never changed or "+
				"deleted by this resource.\n\nRename the tier, or, if this resource should manage the pool (for example one left "+
				"by an apply of this configuration that was killed before it could record it), import it with the identifier %q. "+
				handOver, pool, exists.reason, pool))
	case gcp.Classify(err) == gcp.ClassDeadline:
		diags.AddAttributeError(base, "Timeout Waiting for Node Pool",
			fmt.Sprintf("Node pool %s did not finish in time: %s\n\nRaise timeouts, then apply again; the pool is recorded as GKE reports it.", pool, err))
	default:
		diags.AddAttributeError(base, "Error Applying Node Pool",
			fmt.Sprintf("Node pool %s could not be created or updated: %s\n\nWhat exists is recorded in state; fix the cause and apply again.", pool, err))
	}
}

// recreateReason says why the pool of a tier, recorded as old with spec
// was, is created again as spec.
func recreateReason(old tierModel, was, spec tierSpec) string {
	if old.Status.ValueString() == statusError {
		return fmt.Sprintf("re-created: its node pool is in ERROR (%s)", old.StatusMessage.ValueString())
	}
	return "re-created: the tier changes what GKE cannot change in place: " + strings.Join(shapeChanges(was, spec), "; ")
}

// adoptedDetail explains why pool, left by an earlier apply of the resource
// with owner id owner and ComputeClass class, was adopted.
func adoptedDetail(pool, owner, class string) string {
	return fmt.Sprintf("Node pool %s was created by an earlier apply of this resource that did not finish (it carries this "+
		"resource's owner id, the resource label %s = %q, and the label %s=%s, and its machine type, accelerators and "+
		"zones match the tier), so it was adopted instead of created again.",
		pool, ownership.LabelKey, owner, catalog.LabelComputeClass, class)
}

// handOver is the advice that goes with every "import it" of a pool another
// resource instance may manage: one state manages a pool at a time.
const handOver = "If another Terraform state manages the pool (it carries that state's owner id), hand it over: remove it " +
	"from that state first (terraform state rm, or a removed block), then import it here; two states that both manage one " +
	"pool would each change and delete it."

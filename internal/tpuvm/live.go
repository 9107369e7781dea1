// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// liveZoneFindings asks, when the provider can reach the API, whether each
// of the VM's zones offers it: for a Cloud TPU VM, the Cloud TPU API's
// accelerator type and runtime version (livecheck.Checker.TPUZones); for a
// VM created through Compute Engine, Compute Engine's machine type
// (livecheck.Checker.PoolZones). Offline plans make no call: the catalog's
// zone lists decide. answered are the zones the API answered for, whose
// catalog zone-list warnings the live answer replaces.
func (r *vmResource) liveZoneFindings(ctx context.Context, plan vmModel, res catalog.RuntimeResult) (catalog.Findings, []string) {
	if r.data == nil || !tfmodel.Known(plan.Project) || !tfmodel.Known(plan.API) {
		return nil, nil
	}
	project := plan.Project.ValueString()
	zones, ok := listStrings(plan.Zones)
	if !ok || len(zones) == 0 {
		return nil, nil
	}
	live := r.data.Live()
	if plan.API.ValueString() == apiComputeEngine {
		ce, fs := r.catalog.ComputeEngineTPU(plan.AcceleratorType.ValueString())
		if fs.HasErrors() || !live.ComputeConfigured(project) {
			return nil, nil
		}
		return live.PoolZones(ctx, livecheck.PoolQuery{Project: project, MachineType: ce.MachineType, Zones: zones, Attr: catalog.AttrZones})
	}
	if !live.TPUConfigured(project) {
		return nil, nil
	}
	return live.TPUZones(ctx, r.catalog, project, catalog.AttrZones, zones, res)
}

// planNameFindings looks, for a VM this plan creates and when the provider
// can reach the Cloud TPU API, for VMs of the same name in zones that zones
// does not list (one nodes.list of every zone, bounded by
// livecheck.Timeout), and warns of each: it may be what an apply of this
// configuration left when it was killed before it could record the VM, with
// zones edited since. replacing is the id of the VM this plan replaces, if
// Terraform says so (see privateReplacing); it is not reported. A VM of the
// same name in a zone of zones is not reported here: the plan of a tainted
// VM's replacement cannot tell it from the tainted VM, which the apply
// deletes first; the create refuses any other. Offline plans, and a list
// that fails, say nothing.
func (r *vmResource) planNameFindings(ctx context.Context, plan vmModel, replacing string, diags *diag.Diagnostics) {
	if r.data == nil || !tfmodel.Known(plan.Project) || !tfmodel.Known(plan.Name) || !tfmodel.Known(plan.API) {
		return
	}
	project := plan.Project.ValueString()
	instance := plan.API.ValueString() == apiComputeEngine
	zones, ok := listStrings(plan.Zones)
	configured := r.data.Live().TPUConfigured
	if instance {
		configured = r.data.Live().ComputeConfigured
	}
	if !ok || !configured(project) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, livecheck.Timeout)
	defer cancel()
	api, err := r.nodeAPIFor(ctx, instance)
	var nodes []*tpu.Node
	if err == nil {
		nodes, err = api.ReadNamed(ctx, project, plan.Name.ValueString())
	}
	if err != nil {
		tflog.Debug(ctx, "listing TPU VMs of the same name at plan time failed; the create checks again",
			map[string]any{"name": plan.Name.ValueString(), "error": err.Error()})
		return
	}
	for _, n := range nodes {
		if n.Name == replacing {
			continue
		}
		if !slices.Contains(zones, zoneOf(n.Name)) {
			addElsewhere(diags, n)
		}
	}
}

// addNameTaken reports a VM of the resource's name in one of its zones that
// it may not adopt.
func addNameTaken(diags *diag.Diagnostics, taken *nameTakenError) {
	diags.AddAttributeError(path.Root("name"), "TPU VM Name Already in Use",
		fmt.Sprintf("%s. It is not adopted, not recorded in the state, and never changed or deleted by this resource.\n\n"+
			"Choose another name, or, if this resource should manage the VM (for example one left by an apply of this "+
			"configuration that was killed before it could record it), import it with the id %q.", capitalize(taken.Error()), taken.id))
}

// addElsewhere reports a VM of the resource's name outside its zones.
func addElsewhere(diags *diag.Diagnostics, n *tpu.Node) {
	diags.AddAttributeWarning(path.Root("zones"), "TPU VM of the Same Name in Another Zone",
		fmt.Sprintf("TPU VM %s exists in a zone that zones does not list, and %s. This resource does not manage or touch it. "+
			"If it was left by an apply of this configuration that was killed before it could record it (and zones was "+
			"changed since), no state manages it: delete it, or import it into a resource of its own with the id %q. (If it is "+
			"a tainted VM of this resource that this plan replaces, the apply deletes it first.)",
			n.Name, ownership.Describe(n.Labels), n.Name))
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// privateImportedPools is the private-state key that lists the pools an
// import took over although they had no ownership label (pools created
// outside this provider): the user asked for them by name, so they are
// this resource's to change and delete.
const privateImportedPools = "imported_pools"

// poolOwner says which pools belong to one resource instance: those that
// carry its owner id, and those imported without the ownership label.
type poolOwner struct {
	id       string
	imported []string
}

// owns reports whether np belongs to the instance.
func (w poolOwner) owns(np *container.NodePool) bool {
	labels := resourceLabels(np)
	if labels[ownership.LabelKey] == "" && slices.Contains(w.imported, np.Name) {
		return true
	}
	return w.id != "" && ownership.Owns(w.id, labels)
}

// resourceLabels returns the GKE resource labels of np.
func resourceLabels(np *container.NodePool) map[string]string {
	if np == nil || np.Config == nil {
		return nil
	}
	return np.Config.ResourceLabels
}

// privateState is the part of the framework's private state the resource
// reads and writes (the requests and responses of Read, Update, Delete and
// ImportState all hold one).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// ownerOf returns the owner of the pools of a resource whose state records
// owner id id.
func ownerOf(ctx context.Context, id string, private privateState, diags *diag.Diagnostics) poolOwner {
	w := poolOwner{id: id}
	if private == nil {
		return w
	}
	raw, d := private.GetKey(ctx, privateImportedPools)
	diags.Append(d...)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &w.imported); err != nil {
			diags.AddError("Unreadable Private State",
				fmt.Sprintf("The provider's private state for this resource (%s) could not be read: %s. "+
					"Please report this issue to the provider developers.", privateImportedPools, err))
		}
	}
	return w
}

// importedOwner decides the owner of pools being imported (or recorded by
// an earlier development build without an owner id): the owner id their
// ownership labels carry, or a new one when none carries it. Pools without
// the label are listed as imported. Pools that carry two different owner
// ids cannot be imported together.
func importedOwner(names []string, pools map[string]*container.NodePool) (poolOwner, error) {
	var w poolOwner
	for _, name := range names {
		np := pools[name]
		if np == nil {
			continue
		}
		v := resourceLabels(np)[ownership.LabelKey]
		switch {
		case v == "":
			w.imported = append(w.imported, name)
		case w.id == "":
			w.id = v
		case w.id != v:
			return poolOwner{}, fmt.Errorf("node pool %s carries the label %s = %q and another named pool %q: the pools were "+
				"created by two different resources; import each resource's pools separately", name, ownership.LabelKey, v, w.id)
		}
	}
	if w.id == "" {
		w.id = ownership.NewID()
	}
	return w, nil
}

// importedJSON is the private-state value of w.imported, nil for none.
func (w poolOwner) importedJSON() []byte {
	if len(w.imported) == 0 {
		return nil
	}
	b, _ := json.Marshal(w.imported)
	return b
}

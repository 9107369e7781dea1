// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// reportReadBackError reports, once, that the pools could not be read after
// an apply's steps: the cause decides the summary and the advice. ran says
// whether any step may have started an operation.
func reportReadBackError(diags *diag.Diagnostics, cluster string, ran, interrupted bool, err error) {
	keeps := "State keeps what it recorded before this apply."
	if ran {
		keeps = "Node pool operations may have started; state keeps what it recorded before this apply, and the next plan reads the pools again."
	}
	switch {
	case interrupted:
		// Terraform asked to stop: what could not be read is recorded
		// unread (the next refresh reads it), and an error here would
		// taint a resource whose pools are healthy.
		diags.AddAttributeWarning(path.Root("cluster"), "Node Pools Not Read After the Interrupt",
			fmt.Sprintf("Terraform was interrupted, and the node pools of %s could not be read afterwards: %s\n\n%s", cluster, err, keeps))
	case errors.Is(err, gcp.ErrClusterNotFound):
		diags.AddAttributeError(path.Root("cluster"), "GKE Cluster Not Found",
			fmt.Sprintf("GKE has no cluster %s: %s\n\nCheck cluster (projects/PROJECT/locations/LOCATION/clusters/NAME) and that the cluster exists in that project.", cluster, err))
	case gcp.Classify(err) == gcp.ClassDeadline:
		diags.AddAttributeError(path.Root("cluster"), "Timeout Reading Node Pools",
			fmt.Sprintf("The node pools of %s could not be read before the timeout: %s\n\n%s Raise timeouts, then apply again.", cluster, err, keeps))
	default:
		diags.AddAttributeError(path.Root("cluster"), gcp.Summary(err, "Error Reading Node Pools"),
			fmt.Sprintf("The node pools of %s could not be read: %s\n\n%s", cluster, err, keeps))
	}
}

// sameCause reports whether a tier's error has the cause the read-back
// error readErr reported for the whole cluster (an endpoint that cannot be
// reached or does not answer like the API, a cluster that does not exist,
// credentials or permissions), so that the cause is reported once.
func sameCause(readErr, err error) bool {
	var re, te *gcp.EndpointError
	switch {
	case errors.As(readErr, &re) && errors.As(err, &te):
		return true
	case errors.Is(readErr, gcp.ErrClusterNotFound):
		return gcp.Classify(err) == gcp.ClassNotFound
	}
	switch c := gcp.Classify(readErr); c {
	case gcp.ClassPermission, gcp.ClassUnauthenticated, gcp.ClassNotAPI:
		return gcp.Classify(err) == c
	}
	return false
}

// anyAccepted reports whether any step may have started an operation: it
// succeeded, its operation failed, or it ran out of time.
func anyAccepted(steps []*step, failed map[string]error) bool {
	for _, st := range steps {
		key := st.want.Name
		switch st.action {
		case actionNone:
			continue
		case actionDelete:
			key = "-" + st.was.Name
		}
		err := failed[key]
		var oe *gcp.OperationError
		if err == nil || errors.As(err, &oe) || gcp.Classify(err) == gcp.ClassDeadline {
			return true
		}
	}
	return false
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"fmt"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

// noRuntimeDetail says why the catalog chose no runtime version for
// accelerator type accel, and what to set instead.
func noRuntimeDetail(accel string, res catalog.RuntimeResult) string {
	why := res.Reason
	if res.Findings.HasErrors() {
		// Only with validation = "warn": the findings are shown as warnings.
		why = "it does not accept this configuration (see its warnings, which validation = \"warn\" reports instead of errors)"
	}
	return fmt.Sprintf("runtime_version is omitted, so the catalog would choose it for accelerator_type %q, but it has none to "+
		"choose: %s.\n\nSet runtime_version to a version the Cloud TPU API offers for %s in the VM's zone "+
		"(gcloud compute tpus tpu-vm versions list --zone=ZONE lists them).", accel, strings.TrimSuffix(why, "."), accel)
}

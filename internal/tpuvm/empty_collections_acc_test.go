// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccTPUVM_emptyCollections sets each optional list, set and map of
// accel_tpu_vm to its empty value in turn (see acctest.EmptyCollections):
// labels, metadata and tags are valid empty, the others are rejected at
// plan.
func TestAccTPUVM_emptyCollections(t *testing.T) {
	acctest.EmptyCollections{
		TypeName: "accel_tpu_vm",
		Valid:    map[string]bool{"labels": true, "metadata": true, "tags": true},
		Target:   func(t *testing.T) *acctest.Target { return acctest.New(t) },
		Body: func(tg *acctest.Target, i int) map[string]any {
			return everyAttribute(tg, fmt.Sprintf("tf-acc-empty-%d", i))
		},
		CheckDestroy: func(tg *acctest.Target, body map[string]any) resource.TestCheckFunc {
			name, _ := body["name"].(string)
			return checkGone(tg, name)
		},
	}.Run(t)
}

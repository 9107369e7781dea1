// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import "regexp"

// PoolNameRE is GKE's node pool name rule: 1 to 40 characters, lowercase
// letters, digits and hyphens, starting with a letter and not ending with a
// hyphen (https://cloud.google.com/sdk/gcloud/reference/container/node-pools/create).
var PoolNameRE = regexp.MustCompile(`^[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?$`)

// PoolNameRule says PoolNameRE in words, for diagnostics.
const PoolNameRule = "must be a GKE node pool name: 1 to 40 lowercase letters, digits and hyphens, starting with a letter " +
	"and not ending with a hyphen"

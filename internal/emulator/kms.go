// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"regexp"
	"strings"
)

// Cloud KMS key names, as the Cloud TPU API and Compute Engine take them
// for a customer-managed disk key: the key's resource name,
// projects/P/locations/L/keyRings/R/cryptoKeys/K
// (https://cloud.google.com/kms/docs/resource-hierarchy#keys). Both
// references (CustomerEncryptionKey.kmsKeyName of
// https://cloud.google.com/tpu/docs/reference/rest/v2/projects.locations.nodes
// and of https://cloud.google.com/compute/docs/reference/rest/v1/instances)
// say that a read may return the key version instead,
// …/cryptoKeyVersions/V; the emulator accepts that form too and reports a
// key name as its version 1. Assumption: nothing checks that the key exists
// or that the service agent may use it.
var kmsKeyNameRE = regexp.MustCompile(`^projects/[^/\s]+/locations/[^/\s]+/keyRings/[^/\s]+/cryptoKeys/[^/\s]+(/cryptoKeyVersions/[^/\s]+)?$`)

// kmsKeyForm is the key name form, for error messages.
const kmsKeyForm = "projects/{project}/locations/{location}/keyRings/{key_ring}/cryptoKeys/{key}"

// reportedKMSKey is the key name a read reports for a key name sent: the
// key's first version.
func reportedKMSKey(name string) string {
	if name == "" || strings.Contains(name, "/cryptoKeyVersions/") {
		return name
	}
	return name + "/cryptoKeyVersions/1"
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package ownership marks the cloud objects a resource instance creates, so
// that the provider never adopts, changes or deletes an object that another
// resource instance (another state, another workspace) or anyone else
// created, whatever a state says.
//
// Every object a resource instance creates carries the label LabelKey with
// the instance's owner id: a random value the instance draws once, when it
// is first created, and keeps in its state (accel_tpu_vm in
// effective_labels, accel_fallback_nodepools in owner_id). Two states that
// name the same object hold different owner ids, so at most one of them owns
// it; an object without the label was created outside this provider. Import
// is the one way to take over an object: the imported instance records the
// object's label as it finds it.
//
// The label records nothing else: no Terraform address, workspace or state
// location (the provider is never told them). That is enough because the
// only question it has to answer is "did this very instance create it?",
// and a random value shared by nobody else answers it.
package ownership

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// LabelKey is the label that carries the owner id: a TPU node label on TPU
// VMs, a GKE resource label (NodeConfig.resourceLabels) on node pools.
const LabelKey = "accel-managed"

// idBytes is the owner id's length in bytes: 80 random bits, written as 20
// lowercase hexadecimal digits, a valid label value for both the Cloud TPU
// API and Compute Engine (lowercase letters, digits, '-' and '_', at most 63
// characters).
const idBytes = 10

// NewID returns a new owner id.
func NewID() string {
	b := make([]byte, idBytes)
	// crypto/rand.Read never returns an error (Go 1.24 and later): it
	// crashes the program irrecoverably instead.
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Owns reports whether an object whose labels are labels belongs to the
// instance with owner id id. An empty id is the owner of an imported object
// that had no label: it owns only objects without one.
func Owns(id string, labels map[string]string) bool {
	return labels[LabelKey] == id
}

// Describe says who created an object whose labels are labels, as a
// predicate for an error that explains why it is not touched ("the pool
// exists and ..."): it has no label, or another instance's owner id.
func Describe(labels map[string]string) string {
	v, ok := labels[LabelKey]
	if !ok || v == "" {
		return fmt.Sprintf("has no %s label, so this provider did not create it", LabelKey)
	}
	return fmt.Sprintf("carries the label %s = %q, the owner id of another resource instance: another state or workspace, "+
		"or an apply of this configuration that was killed before it could record the object", LabelKey, v)
}

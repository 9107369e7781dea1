// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package computeclass is the GKE custom ComputeClass document
// (apiVersion cloud.google.com/v1, kind ComputeClass): manifest.go renders
// one as YAML, deterministically, for accel_fallback_nodepools (nodepools
// priorities) and accel_compute_class (hardware priorities); crd.go decodes
// a manifest strictly against the CRD's own fields, so that a test checks
// the renderer against the CRD and not against itself.
//
// CRD reference: https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass
package computeclass

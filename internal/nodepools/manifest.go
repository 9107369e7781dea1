// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"strconv"
	"strings"
)

// The ComputeClass custom resource (reference facts §8; CRD reference
// https://docs.cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass).
const (
	computeClassAPIVersion = "cloud.google.com/v1"
	computeClassKind       = "ComputeClass"
)

// The spec.whenUnsatisfiable values. DoNotScaleUp leaves pods Pending when no
// tier has capacity, which is what a TPU-first/GPU-fallback class wants (it
// never lands a pod on an accelerator-less E2 node); it is also the CRD's
// documented default.
const (
	whenUnsatisfiableDoNotScaleUp  = "DoNotScaleUp"
	whenUnsatisfiableScaleUpAnyway = "ScaleUpAnyway"
)

// whenUnsatisfiableValues lists the accepted values, default first.
var whenUnsatisfiableValues = []string{whenUnsatisfiableDoNotScaleUp, whenUnsatisfiableScaleUpAnyway}

// computeClass is what the rendered manifest holds.
type computeClass struct {
	Name              string
	Pools             []string // in priority order, one priority each
	WhenUnsatisfiable string
	ActiveMigration   bool
}

// yaml renders the ComputeClass as YAML, deterministically: fixed key order,
// two-space indentation, and every value taken from the configuration
// double-quoted (so that a pool named "on" or "null" stays a string).
func (c computeClass) yaml() string {
	var b strings.Builder
	b.WriteString("apiVersion: " + computeClassAPIVersion + "\n")
	b.WriteString("kind: " + computeClassKind + "\n")
	b.WriteString("metadata:\n")
	b.WriteString("  name: " + strconv.Quote(c.Name) + "\n")
	b.WriteString("spec:\n")
	b.WriteString("  priorities:\n")
	for _, p := range c.Pools {
		b.WriteString("  - nodepools:\n")
		b.WriteString("    - " + strconv.Quote(p) + "\n")
	}
	if c.ActiveMigration {
		b.WriteString("  activeMigration:\n")
		b.WriteString("    optimizeRulePriority: true\n")
	}
	b.WriteString("  whenUnsatisfiable: " + c.WhenUnsatisfiable + "\n")
	return b.String()
}

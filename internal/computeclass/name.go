// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package computeclass

import "regexp"

// NameRE is a ComputeClass name: a Kubernetes object name of a
// cluster-scoped resource (a DNS subdomain: lowercase letters, digits, '-'
// and '.', alphanumeric at both ends of each dot-separated part) that is
// also a valid label value, as the name is the value of the node label and
// taint cloud.google.com/compute-class: at most 63 characters.
// Sources: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/
// and https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set.
var NameRE = regexp.MustCompile(`^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$`)

// NameMaxLen is the longest ComputeClass name (a label value's limit).
const NameMaxLen = 63

// NameRule says NameRE and NameMaxLen in words, for a diagnostic.
const NameRule = "must be at most 63 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes object name that is also the value of the node label cloud.google.com/compute-class)"

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"regexp"
	"sort"
	"time"
)

// Facts that hold across the APIs the emulator serves: Google Cloud's label
// rules, Compute Engine's resource name rule (which the Cloud TPU API applies
// to TPU VMs) and the flex-start bound of the Dynamic Workload Scheduler
// (Cloud TPU queued resources and GKE node pools alike).

// resourceNameRE is Compute Engine's resource name rule, RFC 1035 labels
// of 1 to 63 characters: "The name must be 1-63 characters long, and
// comply with RFC1035 … [a-z]([-a-z0-9]*[a-z0-9])?" (the instances and
// resourcePolicies resources,
// https://cloud.google.com/compute/docs/reference/rest/v1/instances).
var resourceNameRE = regexp.MustCompile(`^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$`)

// resourceNamePattern is resourceNameRE as Compute Engine quotes it in its
// answers.
const resourceNamePattern = "(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)"

// Label rules of Google Cloud resources
// (https://cloud.google.com/compute/docs/labeling-resources#requirements):
// "Each resource can have up to 64 labels"; keys of 1 to 63 characters
// starting with a lowercase letter or an international character; keys
// and values of lowercase letters, international characters, digits,
// underscores and dashes, values of at most 63 characters.
var (
	labelKeyRE   = regexp.MustCompile(`^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$`)
	labelValueRE = regexp.MustCompile(`^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$`)
)

// maxLabels is the most labels a resource has.
const maxLabels = 64

// labelsProblem says what is wrong with labels, "" when nothing is.
func labelsProblem(labels map[string]string) string {
	if len(labels) > maxLabels {
		return fmt.Sprintf("A resource can have at most %d labels; the request has %d.", maxLabels, len(labels))
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !labelKeyRE.MatchString(k) {
			return fmt.Sprintf("Label key %q is invalid: keys start with a lowercase letter and hold at most 63 lowercase letters, digits, underscores and dashes.", k)
		}
		if !labelValueRE.MatchString(labels[k]) {
			return fmt.Sprintf("The value of label %q is invalid: values hold at most 63 lowercase letters, digits, underscores and dashes.", k)
		}
	}
	return ""
}

// maxFlexStartRun is the longest flex-start run: "You can request
// Flex-start resources for a duration of up to 7 days"
// (https://cloud.google.com/tpu/docs/request-using-flex-start); GKE's
// flex-start nodes run at most seven days too
// (https://cloud.google.com/kubernetes-engine/docs/concepts/dws).
const maxFlexStartRun = 7 * 24 * time.Hour

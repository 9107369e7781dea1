// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// LabelKeyRE and LabelValueRE are the Google Cloud label rules
// (https://cloud.google.com/compute/docs/labeling-resources#requirements),
// restricted to ASCII.
var (
	LabelKeyRE   = regexp.MustCompile(`^[a-z][-_a-z0-9]{0,62}$`)
	LabelValueRE = regexp.MustCompile(`^[-_a-z0-9]{0,63}$`)
)

// LabelRules describes LabelKeyRE and LabelValueRE for schema descriptions.
const LabelRules = "Keys: 1 to 63 lowercase letters, digits, `_` and `-`, starting with a letter; values: at most 63 of the same characters."

// Labels validates a map of Google Cloud labels whose keys may not be one
// of reserved (labels the provider sets itself).
func Labels(reserved ...string) []validator.Map {
	return []validator.Map{
		mapvalidator.KeysAre(
			stringvalidator.RegexMatches(LabelKeyRE, "must be 1 to 63 lowercase letters, digits, '_' or '-', starting with a letter"),
			stringvalidator.NoneOf(reserved...),
		),
		mapvalidator.ValueStringsAre(stringvalidator.RegexMatches(LabelValueRE, "must be at most 63 lowercase letters, digits, '_' or '-'")),
	}
}

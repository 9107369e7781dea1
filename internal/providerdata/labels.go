// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package providerdata

import "maps"

// DefaultLabelsAttr is the provider argument that holds DefaultLabels.
const DefaultLabelsAttr = "default_labels"

// WithDefaultLabels returns the labels a resource manages, following the
// google provider's convention for terraform_labels: the provider's
// default_labels merged with the resource's own labels, whose value wins for
// a key set in both. d may be nil (no provider data yet): labels alone.
func (d *Data) WithDefaultLabels(labels map[string]string) map[string]string {
	out := map[string]string{}
	if d != nil {
		maps.Copy(out, d.DefaultLabels)
	}
	maps.Copy(out, labels)
	return out
}

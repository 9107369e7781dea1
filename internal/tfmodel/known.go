// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tfmodel

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KnownFrom returns plan with every unknown value replaced by prior's value
// at the same path, or null where prior has none: the state of an apply
// that records what was planned without the values only the API could
// report (those stay as they were).
func KnownFrom(plan, prior tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if got, _, err := tftypes.WalkAttributePath(prior, p); err == nil {
			if pv, ok := got.(tftypes.Value); ok && pv.Type().Equal(v.Type()) {
				return pv, nil
			}
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
}

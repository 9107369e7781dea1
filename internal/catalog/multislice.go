// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// MultisliceRules say which TPU VMs may be several slices of one queued
// resource (catalog.json capacity_modes.multislice).
type MultisliceRules struct {
	// Generations offer multislice.
	Generations []string `json:"generations"`
	// MinSlices is the smallest slice count of a multislice request.
	MinSlices   int64      `json:"min_slices"`
	Source      string     `json:"source"`
	CountSource string     `json:"count_source"`
	Decisions   []Decision `json:"decisions"`
}

// AttrSliceCount is the attribute of a TPU VM's slice count that findings name.
const AttrSliceCount = "slice_count"

// Multislice returns the multislice rules.
func (c *Catalog) Multislice() MultisliceRules { return c.data.Capacity.Multislice }

// CheckSliceCount checks the slice count of a TPU VM of generation ("" when
// unknown): at least one, and more than one only on a generation that offers
// multislice.
func (c *Catalog) CheckSliceCount(generation string, count int64) Findings {
	rules := c.Multislice()
	value := fmt.Sprint(count)
	switch {
	case count < 1:
		return Findings{newFinding(SeverityError, AttrSliceCount, value, "Invalid Slice Count", rules.CountSource, []string{"1"},
			fmt.Sprintf("slice_count %d is not a number of slices: use 1 for one slice, or %d or more for a multislice.", count, rules.MinSlices))}
	case count == 1 || generation == "" || slices.Contains(rules.Generations, generation):
		return nil
	}
	return Findings{newFinding(SeverityError, AttrSliceCount, value, "Multislice Not Offered for This Generation", rules.Source, []string{"1"},
		fmt.Sprintf("Multislice (several slices in one queued resource) is offered for %s, not %s. Use slice_count = 1, or an accelerator_type of those generations.",
			strings.Join(rules.Generations, ", "), generation))}
}

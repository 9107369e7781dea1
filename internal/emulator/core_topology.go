// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// canonicalTopology returns the documented topology of a slice of chips
// chips, or "" when there is none: 2D AxB with A <= B <= 2A, 3D AxBxC with
// A <= B <= C <= 2A, 2x2x1 for a 4-chip 3D host, and v5p's 16x16x24.
func canonicalTopology(chips, dims int) string {
	if chips == 6144 && dims == 3 {
		return "16x16x24"
	}
	if chips <= 0 || chips&(chips-1) != 0 {
		return ""
	}
	e := bits.TrailingZeros(uint(chips))
	if dims == 2 {
		a := 1 << (e / 2)
		return fmt.Sprintf("%dx%d", a, chips/a)
	}
	switch chips {
	case 1:
		return "1x1x1"
	case 2:
		return "1x1x2"
	case 4:
		return "2x2x1"
	}
	return fmt.Sprintf("%dx%dx%d", 1<<(e/3), 1<<((e+1)/3), 1<<((e+2)/3))
}

// parseTopology parses "2x2" or "2x2x1" into its dimensions.
func parseTopology(t string) ([]int, bool) {
	parts := strings.Split(t, "x")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false
	}
	dims := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || strconv.Itoa(n) != p {
			return nil, false
		}
		dims[i] = n
	}
	return dims, true
}

func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

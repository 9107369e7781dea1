// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"slices"
	"time"
)

type number interface {
	~int | ~int64 | ~float64
}

// Median returns the median of xs (the mean of the two middle values for an
// even count), or zero for none.
func Median[T number](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// Series is one measured quantity over several runs.
type Series[T number] []T

// Median is the median of the series.
func (s Series[T]) Median() T { return Median(s) }

// Min is the smallest value, or zero for none.
func (s Series[T]) Min() T {
	if len(s) == 0 {
		return 0
	}
	return slices.Min(s)
}

// Max is the largest value, or zero for none.
func (s Series[T]) Max() T {
	if len(s) == 0 {
		return 0
	}
	return slices.Max(s)
}

// Ratio is a/b, or zero when b is zero.
func Ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// LinearFit is the least-squares line y = Intercept + Slope*x.
type LinearFit struct {
	Intercept float64
	Slope     float64
}

// FitLine fits a line through the points (xs[i], ys[i]). It returns the zero
// fit for fewer than two distinct xs.
func FitLine(xs, ys []float64) LinearFit {
	n := float64(min(len(xs), len(ys)))
	if n < 2 {
		return LinearFit{}
	}
	var sx, sy, sxx, sxy float64
	for i := range int(n) {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return LinearFit{}
	}
	slope := (n*sxy - sx*sy) / den
	return LinearFit{Intercept: (sy - slope*sx) / n, Slope: slope}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package schemadoc formats the lists of values that schema descriptions and
// generated documentation show, so that every page lists allowed values the
// same way, from the same slices the validators use.
package schemadoc

import "strings"

// Code returns s as a Markdown code span, or "" for "".
func Code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// Codes returns the values as code spans separated by commas: `a`, `b`, `c`.
func Codes(vals []string) string {
	return strings.Join(codes(vals), ", ")
}

// CodeList returns the values as code spans in a sentence, the last joined by
// conj: `a`, `b` or `c`.
func CodeList(vals []string, conj string) string {
	q := codes(vals)
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}

func codes(vals []string) []string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = Code(v)
	}
	return q
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package schemadoc

import "testing"

func TestLists(t *testing.T) {
	t.Parallel()
	cases := []struct {
		vals     []string
		codes    string
		codeList string
	}{
		{nil, "", ""},
		{[]string{"a"}, "`a`", "`a`"},
		{[]string{"a", "b"}, "`a`, `b`", "`a` or `b`"},
		{[]string{"a", "b", "c"}, "`a`, `b`, `c`", "`a`, `b` or `c`"},
	}
	for _, tc := range cases {
		if got := Codes(tc.vals); got != tc.codes {
			t.Errorf("Codes(%q) = %q, want %q", tc.vals, got, tc.codes)
		}
		if got := CodeList(tc.vals, "or"); got != tc.codeList {
			t.Errorf("CodeList(%q) = %q, want %q", tc.vals, got, tc.codeList)
		}
	}
	if Code("") != "" || Code("x") != "`x`" {
		t.Errorf("Code mismatch")
	}
}

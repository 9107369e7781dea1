// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"
)

func TestCheckEndpoint(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"https://tpu.googleapis.com/":  true,
		"http://127.0.0.1:8089/":       true,
		"http://[::1]:8089":            true,
		"localhost:8089":               false,
		"tpu.googleapis.com":           false,
		"ftp://example.com/":           false,
		"https://":                     false,
		"":                             false,
		"http://exa mple.com/":         false,
		"https://example.com/path?q=1": true,
	}
	for in, valid := range cases {
		msg := checkEndpoint(in)
		if (msg == "") != valid {
			t.Errorf("checkEndpoint(%q) = %q, want valid=%v", in, msg, valid)
		}
		if msg != "" && !strings.Contains(msg, "http://127.0.0.1:8089/") {
			t.Errorf("checkEndpoint(%q) gives no valid example: %q", in, msg)
		}
	}
}

func FuzzCheckEndpoint(f *testing.F) {
	for _, s := range []string{"https://tpu.googleapis.com/", "http://127.0.0.1:0/", "localhost:1", "%zz", "http://[::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		msg := checkEndpoint(s)
		if msg != "" && !strings.Contains(msg, "is not an absolute") {
			t.Errorf("checkEndpoint(%q) = %q: unexpected message", s, msg)
		}
	})
}

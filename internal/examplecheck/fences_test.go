// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package examplecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFencesClose: in every page of docs/ and every template, a code fence
// closes on a line of its own. A closing fence followed by text leaves the
// fence open, and the registry renders the paragraphs after it as code.
func TestFencesClose(t *testing.T) {
	t.Parallel()
	var pages []string
	for _, root := range []string{"../../docs", "../../templates"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".tmpl")) {
				pages = append(pages, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(pages) < 10 {
		t.Fatalf("found %d pages", len(pages))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if line, ok := badFence(string(b)); !ok {
			t.Errorf("%s:%d: a code fence closes with text after it; put the text on a line of its own", p, line)
		}
	}
	if _, ok := badFence("```\ncode\n``` Size (`node_count`,\n"); ok {
		t.Error("badFence missed a fence closed with text")
	}
}

// badFence returns the line of the first fence that closes with text after
// it, and false; true when every fence is well formed.
func badFence(page string) (int, bool) {
	open := false
	for i, l := range strings.Split(page, "\n") {
		s := strings.TrimLeft(l, " ")
		if !strings.HasPrefix(s, "```") {
			continue
		}
		rest := strings.TrimSpace(strings.TrimLeft(s, "`"))
		switch {
		case !open:
			open = true // an opening fence may name its language
		case rest == "":
			open = false
		default:
			return i + 1, false
		}
	}
	return 0, true
}

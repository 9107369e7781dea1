// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

func TestRenderPage(t *testing.T) {
	t.Parallel()
	c := catalog.Default()
	page, err := render(c)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	const front = "---\npage_title: \"Compatibility catalog\"\nsubcategory: \"\"\ndescription: |-\n  "
	if !strings.HasPrefix(s, front) {
		t.Errorf("page does not start with the tfplugindocs front matter:\n%s", s[:min(len(s), 200)])
	}
	if strings.Count(s, "\n---\n") < 1 {
		t.Error("front matter is not closed")
	}
	if strings.Contains(s, "{{") || strings.Contains(s, "}}") {
		t.Error("page contains a template delimiter")
	}
	want := []string{"Catalog version **" + c.Version() + "**", "reviewed **" + c.Date() + "**"}
	for _, g := range c.Generations() {
		want = append(want, "### "+g.DisplayName, g.Source, "`"+g.DefaultRuntime+"`")
		for _, z := range g.Zones {
			want = append(want, "`"+z.Zone+"`")
		}
	}
	for _, mt := range []string{"tpu7x-standard-4t", "ct6e-standard-1t", "ct6e-standard-8t", "ct5p-hightpu-4t"} {
		at, _ := c.AcceleratorTypeOfMachineType(mt)
		shape, _ := c.ComputeEngineTPU(at)
		want = append(want, "| `"+at+"` | `"+mt+"` | `"+shape.DefaultImage+"` |")
	}
	for _, m := range c.GPUMachineTypes() {
		want = append(want, "| `"+m.Name+"` |")
	}
	for _, v := range c.GPUDriverVersionValues() {
		want = append(want, "`"+v+"`")
	}
	for _, f := range c.Frameworks() {
		want = append(want, "`"+f+"`")
	}
	for _, r := range c.Runtimes() {
		want = append(want, "`"+r.Name+"`")
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	if strings.Contains(s, "<chips>") {
		t.Error("free text is not HTML-escaped")
	}
}

// TestTablesAreWellFormed checks that every table row has as many cells as its header.
func TestTablesAreWellFormed(t *testing.T) {
	t.Parallel()
	page, err := render(catalog.Default())
	if err != nil {
		t.Fatal(err)
	}
	unescapedPipe := regexp.MustCompile(`(^|[^\\])\|`)
	cols := 0
	for i, line := range strings.Split(string(page), "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := len(unescapedPipe.FindAllString(line, -1))
		if cols == 0 {
			cols = n
			continue
		}
		if n != cols {
			t.Errorf("line %d has %d cell separators, its table %d: %s", i+1, n, cols, line)
		}
	}
}

func TestRunWritesAndChecks(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "compatibility.md.tmpl")
	if err := run([]string{"-out", out}, io.Discard); err != nil {
		t.Fatalf("write: %v", err)
	}
	if err := run([]string{"-out", out, "-check"}, io.Discard); err != nil {
		t.Errorf("check of a fresh page: %v", err)
	}
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-out", out, "-check"}, io.Discard); !errors.Is(err, errStale) {
		t.Errorf("check of a stale page = %v, want errStale", err)
	}
	if err := run(nil, io.Discard); err == nil {
		t.Error("run without -out succeeded")
	}
	if err := run([]string{"-nope"}, io.Discard); err == nil {
		t.Error("run with an unknown flag succeeded")
	}
	if err := run([]string{"-out", filepath.Join(t.TempDir(), "missing", "x.md"), "-check"}, io.Discard); err == nil {
		t.Error("check of a missing file succeeded")
	}
}

// TestPagesQuoteTheCatalogDate: every page that quotes the catalog's date
// (the provider page's sample of the warn-mode advice) quotes the date the
// provider prints; make docs stamps it (-dates), and this fails when a page
// was not stamped.
func TestPagesQuoteTheCatalogDate(t *testing.T) {
	t.Parallel()
	want := "catalog's date (" + catalog.Default().Date() + ")"
	for _, p := range []string{"../../../../templates/index.md.tmpl", "../../../../docs/index.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		quotes := catalogDateRE.FindAll(b, -1)
		if len(quotes) == 0 {
			t.Errorf("%s quotes no catalog date", p)
		}
		for _, q := range quotes {
			if string(q) != want {
				t.Errorf("%s quotes %q, want %q: run make docs", p, q, want)
			}
		}
	}
	if got := string(stampDate([]byte("since the catalog's date (2020-01-02), set"), "2026-11-30")); got != "since the catalog's date (2026-11-30), set" {
		t.Errorf("stampDate = %q", got)
	}
}

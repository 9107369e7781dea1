// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReleaseSupplyChain: the CI workflows pin every action by a commit (a
// tag can be moved to other code), hand the signing key to no third-party
// action, and release with the GoReleaser version `make release-check`
// checks with.
func TestReleaseSupplyChain(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, ".ci", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows found: %v", err)
	}
	uses := regexp.MustCompile(`(?m)^\s*-?\s*uses:\s*(\S+)`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			if !pinned.MatchString(m[1]) {
				t.Errorf("%s: %q is not pinned by a commit", filepath.Base(f), m[1])
			}
		}
		if strings.Contains(string(b), "import-gpg") {
			t.Errorf("%s hands the signing key to a third-party action", filepath.Base(f))
		}
	}
	release, err := os.ReadFile(filepath.Join(root, ".ci", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`(?m)^GORELEASER_VERSION\s*:=\s*(\S+)`).FindSubmatch(makefile)
	got := regexp.MustCompile(`(?m)^\s*version:\s*"?([^"\s]+)"?`).FindSubmatch(release)
	if want == nil || got == nil || string(got[1]) != string(want[1]) {
		t.Errorf("release.yml runs GoReleaser %q, make release-check %q: want the same pinned version", got, want)
	}
}

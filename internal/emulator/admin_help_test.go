// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAdminHelpListsEveryVerb: GET /admin/help names every admin endpoint
// the server serves, so that what the guides use can be found there.
func TestAdminHelpListsEveryVerb(t *testing.T) {
	t.Parallel()
	help := strings.Join(adminHelp, "\n")
	// The verbs are declared in tables of adminVerb, one per part of the
	// emulator: entries such as {post: true, verb: "capacity", ...}.
	verbRE := regexp.MustCompile(`\bverb: "([a-z-]+)"`)
	found := 0
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range verbRE.FindAllStringSubmatch(string(src), -1) {
			found++
			if !strings.Contains(help, "/admin/"+v[1]) {
				t.Errorf("GET /admin/help does not list /admin/%s", v[1])
			}
		}
	}
	if found < 20 {
		t.Fatalf("found %d admin verbs in the sources; the test no longer reads them", found)
	}
}

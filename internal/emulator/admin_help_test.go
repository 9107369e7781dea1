// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAdminHelpListsEveryVerb: GET /admin/help names every admin endpoint
// the server serves, so that what the guides use can be found there.
func TestAdminHelpListsEveryVerb(t *testing.T) {
	t.Parallel()
	help := strings.Join(adminHelp, "\n")
	caseRE := regexp.MustCompile(`case ((?:"[a-z-]+"(?:, )?)+):`)
	verbRE := regexp.MustCompile(`"([a-z-]+)"`)
	found := 0
	for _, file := range []string{"admin.go", "compute_capacity.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range []string{"func (s *Server) admin(", "func (s *Server) adminCapacityEvidence("} {
			i := strings.Index(string(src), fn)
			if i < 0 {
				continue
			}
			body := string(src[i:])
			if j := strings.Index(body, "\n}\n"); j > 0 {
				body = body[:j]
			}
			for _, c := range caseRE.FindAllStringSubmatch(body, -1) {
				for _, v := range verbRE.FindAllStringSubmatch(c[1], -1) {
					found++
					if v[1] != "" && !strings.Contains(help, "/admin/"+v[1]) {
						t.Errorf("GET /admin/help does not list /admin/%s", v[1])
					}
				}
			}
		}
	}
	if found < 20 {
		t.Fatalf("found %d admin verbs in the sources; the test no longer reads them", found)
	}
}

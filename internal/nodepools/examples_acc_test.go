// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// blocks returns the top-level blocks of HCL text whose header starts with
// one of prefixes (such as `resource "accel_`), by brace matching. The
// examples contain no braces inside strings.
func blocks(t *testing.T, hcl string, prefixes ...string) string {
	t.Helper()
	var out strings.Builder
	lines := strings.SplitAfter(hcl, "\n")
	for i := 0; i < len(lines); i++ {
		keep := false
		for _, p := range prefixes {
			keep = keep || strings.HasPrefix(lines[i], p)
		}
		if !keep {
			continue
		}
		depth := 0
		for ; i < len(lines); i++ {
			out.WriteString(lines[i])
			depth += strings.Count(lines[i], "{") - strings.Count(lines[i], "}")
			if depth == 0 {
				break
			}
		}
	}
	if out.Len() == 0 {
		t.Fatalf("no block starting with %q", prefixes)
	}
	return out.String()
}

// TestAccFallbackNodePools_examples applies the documented examples (their
// accel parts; the Kubernetes resources need a real cluster) against the
// emulator, which seeds their clusters in every project.
func TestAccFallbackNodePools_examples(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "applies the examples, whose clusters exist only on the emulator")
	const dir = "../../examples/resources/accel_fallback_nodepools/"
	for _, file := range []string{"resource.tf", "resource_multi_host.tf", "resource_ironwood.tf"} {
		b, err := os.ReadFile(dir + file)
		if err != nil {
			t.Fatal(err)
		}
		cfg := tg.Config(blocks(t, string(b), `variable "`, `resource "accel_`))
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{Config: cfg},
			},
		})
	}
}

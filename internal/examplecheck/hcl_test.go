// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package examplecheck

import (
	"slices"
	"strings"
	"testing"
)

const mixed = `terraform {
  required_providers {
    kubernetes = { source = "hashicorp/kubernetes" }
  }
}

# a comment with a brace {
provider "kubernetes" {
  config_path = "~/.kube/config"
}

resource "accel_tpu_vm" "a" {
  name = "x" # trailing {
  labels = { team = "ml" }
  startup = <<-EOT
    echo "}"
  EOT
}

resource "kubernetes_manifest" "cc" {
  manifest = yamldecode(accel_fallback_nodepools.p.compute_class_manifest)
}

output "class" {
  value = kubernetes_manifest.cc.manifest
}

output "vm" {
  value = accel_tpu_vm.a.name
}

module "m" {
  source = "./accel"
}
`

func TestAccelOnly(t *testing.T) {
	t.Parallel()
	kept, dropped := AccelOnly(mixed)
	want := []string{"terraform {", `provider "kubernetes" {`, `resource "kubernetes_manifest" "cc" {`, `output "class" {`}
	if !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
	for _, s := range []string{`resource "accel_tpu_vm" "a"`, `echo "}"`, `output "vm"`, `module "m"`} {
		if !strings.Contains(kept, s) {
			t.Errorf("kept lost %q:\n%s", s, kept)
		}
	}
	if blocks := TopLevelBlocks(kept); len(blocks) != 3 {
		t.Errorf("kept %d blocks, want 3:\n%s", len(blocks), kept)
	}
}

func TestFencedBlocksAndSnippets(t *testing.T) {
	t.Parallel()
	md := "text\n```terraform\nresource \"accel_tpu_vm\" \"a\" {\n  # ...\n  zones = var.zones\n}\n```\n```sh\nls\n```\n"
	got := FencedBlocks(md, "terraform", "hcl")
	if len(got) != 1 || !strings.HasPrefix(got[0], `resource "accel_tpu_vm"`) {
		t.Fatalf("blocks %q", got)
	}
	shown := Snippets("```terraform\nresource \"a\" \"b\" {}\n```\n\n```\nError: Bad Thing\n\n  with a.b\n```\n```terraform\nx {}\n```\n", "terraform")
	if len(shown) != 2 || shown[0].ExpectError != "Bad Thing" || shown[1].ExpectError != "" {
		t.Errorf("Snippets = %+v", shown)
	}
	if !Elided(got[0]) || Elided("resource \"x\" \"y\" {}\n") {
		t.Error("Elided")
	}
	if v := UndeclaredVariables(got[0] + "variable \"other\" {}\n"); !slices.Equal(v, []string{"zones"}) {
		t.Errorf("UndeclaredVariables = %v", v)
	}
}

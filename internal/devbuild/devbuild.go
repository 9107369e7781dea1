// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package devbuild builds providers of this module and points the Terraform
// CLI at them through dev_overrides, as a user testing a local build does.
// The acceptance tests that run Terraform as a separate process and the
// benchmark runner both use it.
package devbuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Provider is one provider to build.
type Provider struct {
	// Source is the registry source address, such as "accel-dev/accel".
	Source string
	// Package is the Go package to build, relative to the module root.
	Package string
	// Root, when set, is the module root to build Package in instead of
	// Install's root (another version of this module, say).
	Root string
	// Binary, when set, is a provider already built: it is linked into the
	// directory instead of building Package.
	Binary string
}

// Accel is this module's provider.
var Accel = Provider{Source: "accel-dev/accel", Package: "."}

// Install builds each provider of the module at root into dir with the
// release build flags of .goreleaser.yml and writes a CLI configuration whose
// dev_overrides point at them. It returns the environment to run terraform
// with: that configuration, no checkpoint calls, only PATH, HOME and TMPDIR
// kept from this process, an empty gcloud configuration directory and a
// metadata host that is none (NoMetadataHost), so no Google credential is
// found unless the caller adds one, and the lookup stays on loopback.
func Install(ctx context.Context, root, dir string, providers ...Provider) ([]string, error) {
	var overrides strings.Builder
	for _, p := range providers {
		binary := filepath.Join(dir, "terraform-provider-"+path.Base(p.Source))
		if p.Binary != "" {
			if err := os.Symlink(p.Binary, binary); err != nil {
				return nil, fmt.Errorf("linking %s: %w", p.Binary, err)
			}
		} else {
			build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", binary, p.Package)
			build.Dir = root
			if p.Root != "" {
				build.Dir = p.Root
			}
			if out, err := build.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("go build %s: %w\n%s", p.Package, err, out)
			}
		}
		fmt.Fprintf(&overrides, "    %q = %q\n", p.Source, dir)
	}
	rc := filepath.Join(dir, "terraform.rc")
	cfg := "provider_installation {\n  dev_overrides {\n" + overrides.String() + "  }\n  direct {}\n}\n"
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		return nil, fmt.Errorf("writing the CLI configuration: %w", err)
	}
	gcloud := filepath.Join(dir, "gcloud")
	if err := os.MkdirAll(gcloud, 0o700); err != nil {
		return nil, fmt.Errorf("creating an empty gcloud configuration: %w", err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "CLOUDSDK_CONFIG=" + gcloud,
		MetadataHostEnv + "=" + NoMetadataHost()}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "HOME" || k == "TMPDIR" {
			env = append(env, kv)
		}
	}
	return env, nil
}

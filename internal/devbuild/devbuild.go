// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package devbuild builds providers of this module and points the Terraform
// CLI at them through dev_overrides, as a user testing a local build does.
// The acceptance tests that run Terraform as a separate process and the
// benchmark runner both use it.
package devbuild

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
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
	cfg := "provider_installation {\n  dev_overrides {\n" + overrides.String() + "  }\n  direct {}\n}\n"
	return environ(dir, cfg)
}

// Hosts are the registry hosts a source address "accel-dev/accel" means:
// Terraform's and OpenTofu's.
var Hosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// MirrorPath is where a filesystem mirror (or an implied local mirror
// directory such as ~/.terraform.d/plugins) holds a provider binary, in
// the unpacked layout HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/.
func MirrorPath(mirror, host, source, version, goos, goarch string) string {
	return filepath.Join(mirror, host, filepath.FromSlash(source), version, goos+"_"+goarch,
		"terraform-provider-"+path.Base(source)+"_v"+version)
}

// BuildMirror builds this module's provider at root with version stamped
// in, and puts it in mirror for every host of Hosts, for the platform of
// the go toolchain. It is what `make install` runs.
func BuildMirror(ctx context.Context, root, mirror, version string) error {
	goos, goarch := cmp.Or(goEnv(ctx, "GOOS"), runtime.GOOS), cmp.Or(goEnv(ctx, "GOARCH"), runtime.GOARCH)
	first := ""
	for _, host := range Hosts {
		bin := MirrorPath(mirror, host, Accel.Source, version, goos, goarch)
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return err
		}
		if first != "" {
			if err := copyFile(first, bin); err != nil {
				return err
			}
			continue
		}
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", bin, ".")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %w\n%s", err, out)
		}
		first = bin
	}
	return nil
}

// InstallMirror builds the provider into a filesystem mirror in dir
// (BuildMirror) and returns the environment of Install with a CLI
// configuration that installs this provider from that mirror and nothing
// from a registry: `terraform init` then works with no network, as after
// `make install`.
func InstallMirror(ctx context.Context, root, dir, version string) ([]string, error) {
	mirror := filepath.Join(dir, "mirror")
	if err := BuildMirror(ctx, root, mirror, version); err != nil {
		return nil, err
	}
	return UseMirror(dir, mirror)
}

// UseMirror writes into dir the CLI configuration of InstallMirror for a
// mirror BuildMirror made (which it only reads), and returns its
// environment.
func UseMirror(dir, mirror string) ([]string, error) {
	var include []string
	for _, h := range Hosts {
		include = append(include, fmt.Sprintf("%q", h+"/"+Accel.Source))
	}
	cfg := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [%s]\n  }\n}\n", mirror, strings.Join(include, ", "))
	return environ(dir, cfg)
}

func goEnv(ctx context.Context, key string) string {
	out, err := exec.CommandContext(ctx, "go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

// environ writes the CLI configuration cfg into dir and returns the
// environment Install describes.
func environ(dir, cfg string) ([]string, error) {
	rc := filepath.Join(dir, "terraform.rc")
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

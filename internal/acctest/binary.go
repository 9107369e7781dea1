// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
)

// DevInstall builds the provider into a temporary directory and returns the
// environment for running the terraform binary against that build through
// dev_overrides (see devbuild.Install).
func DevInstall(t *testing.T) []string {
	t.Helper()
	return install(t, func(root, dir string) ([]string, error) {
		return devbuild.Install(t.Context(), root, dir, devbuild.Accel)
	})
}

// MirrorInstall builds the provider into a filesystem mirror in a
// temporary directory, as `make install` does into the implied local
// mirror, and returns the environment of a CLI that installs it from there
// and nothing from a registry (devbuild.InstallMirror): `terraform init`
// works offline.
func MirrorInstall(t *testing.T) []string {
	t.Helper()
	return install(t, func(root, dir string) ([]string, error) {
		return devbuild.InstallMirror(t.Context(), root, dir, "0.1.0")
	})
}

// install skips without TF_ACC, else builds the provider of the module
// with build into a temporary directory and returns its environment.
func install(t *testing.T, build func(root, dir string) ([]string, error)) []string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to build the provider and run the Terraform CLI")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	env, err := build(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TerraformPath is the CLI the acceptance tests use.
func TerraformPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	return p
}

func moduleRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the module root")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..")), nil
}

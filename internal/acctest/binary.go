// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
)

// mirrorVersion is the version MirrorInstall stamps into its build.
const mirrorVersion = "0.1.0"

// builds holds the provider builds of one test binary (see Main): each is
// made once, on first use, and shared by every test.
// Without Main (nil functions), each call builds afresh.
var builds struct {
	dev    func() (string, error)
	mirror func() (string, error)
}

// Main runs the tests of a package whose tests install the provider
// (DevInstall, MirrorInstall) and returns their exit code: the provider is
// then built once per test binary, not once per call, and the builds are
// removed afterwards. Use it as the package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(acctest.Main(m)) }
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "accel-acctest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	builds.dev = sync.OnceValues(func() (string, error) {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, "dev", "terraform-provider-accel")
		_, err = devbuild.Install(context.Background(), root, filepath.Dir(bin), devbuild.Accel)
		return bin, err
	})
	builds.mirror = sync.OnceValues(func() (string, error) {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		mirror := filepath.Join(dir, "mirror")
		return mirror, devbuild.BuildMirror(context.Background(), root, mirror, mirrorVersion)
	})
	code := m.Run()
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "removing the provider builds:", err)
	}
	return code
}

// DevInstall builds the provider (once per test binary under Main) and
// returns the environment for running the terraform binary against that
// build through dev_overrides (see devbuild.Install).
func DevInstall(t *testing.T) []string {
	t.Helper()
	return install(t, func(root, dir string) ([]string, error) {
		if builds.dev == nil {
			return devbuild.Install(t.Context(), root, dir, devbuild.Accel)
		}
		bin, err := builds.dev()
		if err != nil {
			return nil, err
		}
		return devbuild.Install(t.Context(), root, dir, devbuild.Provider{Source: devbuild.Accel.Source, Binary: bin})
	})
}

// MirrorInstall builds the provider into a filesystem mirror (once per test
// binary under Main), as `make install` does into the implied local
// mirror, and returns the environment of a CLI that installs it from there
// and nothing from a registry (devbuild.InstallMirror): `terraform init`
// works offline.
func MirrorInstall(t *testing.T) []string {
	t.Helper()
	return install(t, func(root, dir string) ([]string, error) {
		if builds.mirror == nil {
			return devbuild.InstallMirror(t.Context(), root, dir, mirrorVersion)
		}
		mirror, err := builds.mirror()
		if err != nil {
			return nil, err
		}
		return devbuild.UseMirror(dir, mirror)
	})
}

// install skips without TF_ACC, else installs the provider of the module
// with install into a temporary directory and returns its environment.
func install(t *testing.T, install func(root, dir string) ([]string, error)) []string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to build the provider and run the Terraform CLI")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	env, err := install(root, t.TempDir())
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

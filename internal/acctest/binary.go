// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// DevInstall builds the provider binary into a temporary directory and
// writes a Terraform CLI configuration whose dev_overrides point
// accel-dev/accel at it, as a user testing a local build would. It returns
// the environment for running the terraform binary against that build.
func DevInstall(t *testing.T) []string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to build the provider and run the Terraform CLI")
	}
	dir := t.TempDir()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-accel"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "terraform.rc")
	cfg := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"accel-dev/accel\" = %q\n  }\n  direct {}\n}\n", dir)
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "HOME" || k == "TMPDIR" {
			env = append(env, kv)
		}
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

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Workspace is a directory holding one main.tf, in which the real Terraform
// CLI runs against a build of the provider (see DevInstall): for what
// terraform-plugin-testing cannot show, such as warnings, the whole text of
// an error, or arguments it does not pass (terraform import with any id).
type Workspace struct {
	t   *testing.T
	dir string
	tf  string
	env []string
}

// NewWorkspace writes config, after a terraform block requiring the
// provider, into a new directory in which tf runs with env.
func NewWorkspace(t *testing.T, env []string, tf, config string) *Workspace {
	t.Helper()
	return NewModuleWorkspace(t, env, tf, map[string]string{"main.tf": requiredProviders + "\n" + config})
}

// NewWorkspaceFiles writes the files of one module (names relative to the
// new directory), and a terraform block requiring the provider in
// versions.tf, into a new directory in which tf runs with env.
func NewWorkspaceFiles(t *testing.T, env []string, tf string, files map[string]string) *Workspace {
	t.Helper()
	files = maps.Clone(files)
	files["versions.tf"] = requiredProviders
	return NewModuleWorkspace(t, env, tf, files)
}

const requiredProviders = "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n"

// NewModuleWorkspace writes files (paths relative to the new directory,
// subdirectories created) into a new directory in which tf runs with env:
// a root module with its local child modules and test files.
func NewModuleWorkspace(t *testing.T, env []string, tf string, files map[string]string) *Workspace {
	t.Helper()
	w := &Workspace{t: t, dir: t.TempDir(), tf: tf, env: env}
	for name, text := range files {
		p := filepath.Join(w.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// Write replaces main.tf with config, after the terraform block requiring
// the provider (as NewWorkspace writes it): the next command of a workspace
// that holds a state.
func (w *Workspace) Write(config string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(requiredProviders+"\n"+config), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// WithEnv is the same directory, in which the CLI runs with env instead: a
// module initialised once can then be planned in another environment.
func (w *Workspace) WithEnv(env []string) *Workspace {
	c := *w
	c.env = env
	return &c
}

// Run runs terraform with args and returns what it wrote to standard output
// and to standard error (where the CLI writes errors), and its exit error,
// which carries standard error too. It works in cleanups.
func (w *Workspace) Run(args ...string) (stdout, stderr string, err error) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.tf, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), errOut.String(), fmt.Errorf("terraform %q: %w\nstderr:\n%s", args, err, errOut.String())
	}
	return out.String(), errOut.String(), nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package faultsuite runs the Terraform CLI as a separate process against a
// build of this provider and the local emulator, injects faults and
// interruptions, and reconciles Terraform's state with what the emulator
// holds afterwards: every TPU VM and node pool a test created must be in
// state exactly once, and everything in state must exist.
//
// The package's tests (package faultsuite_test) are the fault suite; they
// need TF_ACC=1 and a terraform binary, like every acceptance test.
package faultsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// requiredProviders is the terraform block every configuration starts with:
// the provider comes from its dev_overrides entry, so no init is needed.
const requiredProviders = "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n\n"

// Workspace is a Terraform working directory whose CLI runs as a child
// process with a given environment.
type Workspace struct {
	// Dir is the working directory (configuration and local state).
	Dir string
	// Terraform is the path of the terraform binary.
	Terraform string
	// Env is the complete environment of the CLI (see acctest.DevInstall).
	Env []string
}

// Output is what one CLI run printed.
type Output struct {
	Stdout string
	Stderr string
}

// CommandError is a CLI run that exited with an error or was killed.
type CommandError struct {
	Args   []string
	Output Output
	Err    error
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("terraform %v: %v\nstdout:\n%s\nstderr:\n%s", e.Args, e.Err, e.Output.Stdout, e.Output.Stderr)
}

func (e *CommandError) Unwrap() error { return e.Err }

// WriteConfig writes body, after the terraform block that selects the
// provider, as the workspace's only configuration file.
func (w *Workspace) WriteConfig(body string) error {
	if err := os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(requiredProviders+body), 0o600); err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	return nil
}

// Run runs terraform with args and waits for it. A non-zero exit is a
// *CommandError carrying the output.
func (w *Workspace) Run(ctx context.Context, args ...string) (Output, error) {
	p, err := w.start(ctx, args...)
	if err != nil {
		return Output{}, err
	}
	return p.Wait()
}

// Process is a CLI run in progress, in its own process group so that a
// signal reaches Terraform and its provider plugins together, as a terminal
// delivers Ctrl-C.
type Process struct {
	args           []string
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

// Start starts terraform with args and returns at once.
func (w *Workspace) Start(args ...string) (*Process, error) {
	return w.start(context.Background(), args...)
}

func (w *Workspace) start(ctx context.Context, args ...string) (*Process, error) {
	p := &Process{args: args}
	p.cmd = exec.CommandContext(ctx, w.Terraform, args...)
	p.cmd.Dir = w.Dir
	p.cmd.Env = w.Env
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.Cancel = func() error { return p.Signal(syscall.SIGKILL) }
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting terraform %v: %w", args, err)
	}
	return p, nil
}

// Signal sends sig to Terraform's process group: Terraform and the provider
// plugins it started.
func (p *Process) Signal(sig syscall.Signal) error {
	if err := syscall.Kill(-p.cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signalling terraform: %w", err)
	}
	return nil
}

// KillTerraform kills Terraform alone with SIGKILL, not the provider
// plugins it started: they are left without their parent, as when the
// machine's out-of-memory killer or a CI runner ends Terraform.
func (p *Process) KillTerraform() error {
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing terraform: %w", err)
	}
	return nil
}

// GroupAlive reports whether any process of Terraform's process group still
// runs (zombies, which run nothing, do not count). Linux only: it reads /proc.
func (p *Process) GroupAlive() (bool, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		rest := string(raw[bytes.LastIndexByte(raw, ')')+1:])
		var state string
		var ppid, pgrp int
		if _, err := fmt.Sscan(rest, &state, &ppid, &pgrp); err != nil {
			continue
		}
		if pgrp == p.cmd.Process.Pid && state != "Z" {
			return true, nil
		}
	}
	return false, nil
}

// Output returns what the process printed so far. Only call it after Wait.
func (p *Process) Output() Output {
	return Output{Stdout: p.stdout.String(), Stderr: p.stderr.String()}
}

// Wait waits for the process to exit.
func (p *Process) Wait() (Output, error) {
	err := p.cmd.Wait()
	out := p.Output()
	if err != nil {
		return out, &CommandError{Args: p.args, Output: out, Err: err}
	}
	return out, nil
}

// State is the part of `terraform show -json`'s shape the suite reads
// (Workspace.State builds it from the state file).
type State struct {
	Values *struct {
		RootModule StateModule `json:"root_module"`
	} `json:"values"`
}

// StateModule is one module of a State.
type StateModule struct {
	Resources    []StateResource `json:"resources"`
	ChildModules []StateModule   `json:"child_modules"`
}

// StateResource is one resource instance of a State.
type StateResource struct {
	Address string         `json:"address"`
	Mode    string         `json:"mode"`
	Type    string         `json:"type"`
	Values  map[string]any `json:"values"`
	// Tainted is set on an instance whose creation failed half-way: the
	// next apply replaces it.
	Tainted bool `json:"tainted"`
}

// Resources returns every managed resource instance of the state, of every
// module.
func (s *State) Resources() []StateResource {
	if s == nil || s.Values == nil {
		return nil
	}
	var out []StateResource
	var walk func(m StateModule)
	walk = func(m StateModule) {
		for _, r := range m.Resources {
			if r.Mode == "managed" {
				out = append(out, r)
			}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(s.Values.RootModule)
	return out
}

// State reads the workspace's state file (the local backend's
// terraform.tfstate). No file, or an empty one, is an empty state, as for
// the CLI: Terraform creates the file when it takes the state lock, so a
// process killed before its first write leaves it empty. Reading the file instead of
// running `terraform show -json` spares a CLI run and a provider start per
// reconciliation; that the CLI can still read and refresh the state is what
// the plan at the end of every scenario checks.
func (w *Workspace) State() (*State, error) {
	raw, err := os.ReadFile(filepath.Join(w.Dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) || err == nil && len(raw) == 0 {
		return &State{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	return DecodeStateFile(raw)
}

// stateFile is the part of the state file format (version 4, written by
// Terraform 0.12 and later and by OpenTofu) the suite reads.
type stateFile struct {
	Version   int `json:"version"`
	Resources []struct {
		Module    string `json:"module"`
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Instances []struct {
			IndexKey   json.RawMessage `json:"index_key"`
			Status     string          `json:"status"`
			Attributes map[string]any  `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// DecodeStateFile reads a state file into the shape of `terraform show
// -json`'s values: each instance under its module, with its address and
// whether it is tainted.
func DecodeStateFile(raw []byte) (*State, error) {
	var f stateFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("decoding the state file: %w", err)
	}
	if f.Version != 4 {
		return nil, fmt.Errorf("state file version %d, want 4", f.Version)
	}
	root := &StateModule{}
	modules := map[string]*StateModule{"": root}
	for _, r := range f.Resources {
		m := modules[r.Module]
		if m == nil {
			m = &StateModule{}
			modules[r.Module] = m
		}
		mode := "managed"
		prefix := ""
		if r.Mode == "data" {
			mode, prefix = "data", "data."
		}
		for _, inst := range r.Instances {
			addr := prefix + r.Type + "." + r.Name
			if len(inst.IndexKey) > 0 {
				addr += "[" + string(inst.IndexKey) + "]"
			}
			if r.Module != "" {
				addr = r.Module + "." + addr
			}
			m.Resources = append(m.Resources, StateResource{
				Address: addr, Mode: mode, Type: r.Type, Values: inst.Attributes, Tainted: inst.Status == "tainted",
			})
		}
	}
	for name, m := range modules {
		if name != "" {
			root.ChildModules = append(root.ChildModules, *m)
		}
	}
	s := &State{}
	s.Values = &struct {
		RootModule StateModule `json:"root_module"`
	}{RootModule: *root}
	return s, nil
}

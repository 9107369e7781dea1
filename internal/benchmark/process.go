// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"
)

// sampleEvery is how often the memory of a process tree is sampled.
const sampleEvery = 10 * time.Millisecond

// Measurement is one run of a command.
type Measurement struct {
	// Wall is the time from start to exit.
	Wall time.Duration
	// MaxRSS is the peak resident set size of the largest single process of
	// the tree (the rusage the kernel reports to wait4 covers the process and
	// the children it waited for, keeping the maximum), in bytes. It is what
	// /usr/bin/time -v reports as "Maximum resident set size".
	MaxRSS int64
	// TreeRSS is the peak of the summed resident set sizes of the process
	// and all its descendants, sampled every sampleEvery; zero where the
	// platform does not expose it. Terraform and its provider plugins run at
	// the same time, so this is the memory a run needs.
	TreeRSS int64
	Stdout  []byte
	Stderr  []byte
}

// RunError is a measured command that failed.
type RunError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("%v: %v\n%s", e.Args, e.Err, e.Stderr)
}

func (e *RunError) Unwrap() error { return e.Err }

// Measure runs cmd to completion and measures it. cmd must not have been
// started, and its Stdout and Stderr must be unset.
func Measure(ctx context.Context, cmd *exec.Cmd) (Measurement, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Measurement{}, &RunError{Args: cmd.Args, Err: err}
	}
	sampler := startTreeSampler(ctx, cmd.Process.Pid)
	err := cmd.Wait()
	wall := time.Since(start)
	m := Measurement{
		Wall:    wall,
		MaxRSS:  maxRSS(cmd.ProcessState),
		TreeRSS: sampler.stop(),
		Stdout:  stdout.Bytes(),
		Stderr:  stderr.Bytes(),
	}
	if err != nil {
		return m, &RunError{Args: cmd.Args, Stderr: stderr.String() + stdout.String(), Err: err}
	}
	return m, nil
}

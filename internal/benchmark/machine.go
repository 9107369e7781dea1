// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where the figures were measured.
type Machine struct {
	Cores     int
	CPU       string
	MemoryGiB float64
	OS        string
	Arch      string
	Go        string
	Terraform string
}

// DetectMachine describes this machine and the terraform binary.
func DetectMachine(ctx context.Context, terraform string) Machine {
	m := Machine{
		Cores: runtime.NumCPU(),
		OS:    runtime.GOOS,
		Arch:  runtime.GOARCH,
		Go:    runtime.Version(),
		CPU:   "unknown",
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		m.CPU = cpuModel(f)
		_ = f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.MemoryGiB = memTotalGiB(string(b))
	}
	version := exec.CommandContext(ctx, terraform, "version", "-json")
	// terraform version asks HashiCorp's checkpoint service for a newer
	// release unless told not to.
	version.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	if out, err := version.Output(); err == nil {
		var v struct {
			Version string `json:"terraform_version"`
		}
		if json.Unmarshal(out, &v) == nil {
			m.Terraform = v.Version
		}
	}
	return m
}

func cpuModel(f *os.File) string {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// memTotalGiB reads MemTotal (in kB) from /proc/meminfo's contents.
func memTotalGiB(meminfo string) float64 {
	for line := range strings.SplitSeq(meminfo, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err == nil {
				return kb / (1024 * 1024)
			}
		}
	}
	return 0
}

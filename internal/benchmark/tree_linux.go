// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

//go:build linux

package benchmark

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// maxRSS converts the rusage of wait4 (ru_maxrss, in KiB on Linux) to bytes.
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return ru.Maxrss * 1024
}

// treeSampler samples the summed RSS of a process tree until stopped.
type treeSampler struct {
	cancel context.CancelFunc
	done   chan int64
}

func startTreeSampler(ctx context.Context, root int) *treeSampler {
	ctx, cancel := context.WithCancel(ctx)
	s := &treeSampler{cancel: cancel, done: make(chan int64, 1)}
	go func() {
		var peak int64
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			peak = max(peak, treeRSS(root))
			select {
			case <-ctx.Done():
				s.done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *treeSampler) stop() int64 {
	s.cancel()
	return <-s.done
}

// pageSize is the unit of the RSS field of /proc/PID/stat.
var pageSize = int64(os.Getpagesize())

// treeRSS sums the RSS of root and its descendants from /proc.
func treeRSS(root int) int64 {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	children := map[int][]int{}
	rss := map[int]int64{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		pid, ppid, pages, ok := parseStat(b)
		if !ok {
			continue
		}
		children[ppid] = append(children[ppid], pid)
		rss[pid] = pages * pageSize
	}
	var sum int64
	stack := []int{root}
	seen := map[int]bool{}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		sum += rss[pid]
		stack = append(stack, children[pid]...)
	}
	return sum
}

// parseStat reads pid, ppid and rss (in pages) from a /proc/PID/stat line:
// "pid (comm) state ppid ... rss ...", where comm may hold spaces and
// parentheses, so fields are counted from the last ')'.
func parseStat(b []byte) (pid, ppid int, rssPages int64, ok bool) {
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 1 || closing < open {
		return 0, 0, 0, false
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return 0, 0, 0, false
	}
	// Fields after comm: state(3) ppid(4) ... rss(24); index 0 is state.
	f := bytes.Fields(b[closing+1:])
	if len(f) < 22 {
		return 0, 0, 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	if err != nil {
		return 0, 0, 0, false
	}
	rssPages, err = strconv.ParseInt(string(f[21]), 10, 64)
	if err != nil {
		return 0, 0, 0, false
	}
	return pid, ppid, rssPages, true
}

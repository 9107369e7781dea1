// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// serve runs the command with args until the test ends, and returns the
// environment it printed and the stop and done channels.
func serve(t *testing.T, args ...string) (map[string]string, chan<- os.Signal, <-chan error) {
	t.Helper()
	stop := make(chan os.Signal, 1)
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(args, outW, io.Discard, stop)
		_ = outW.Close()
		done <- err
	}()
	sc := bufio.NewScanner(outR)
	env := map[string]string{}
	for len(env) < 3 && sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			env[k] = v
		}
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	return env, stop, done
}

func TestRunServesUntilStopped(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	env, stop, done := serve(t, "-addr", "127.0.0.1:0", "-quiet", "-serialize-pool-creates", "-snapshot", state)
	tpuURL := env["ACCEL_TPU_ENDPOINT"]
	if !strings.HasPrefix(tpuURL, "http://127.0.0.1:") || env["ACCEL_CONTAINER_ENDPOINT"] != tpuURL ||
		env["ACCEL_COMPUTE_ENDPOINT"] != tpuURL+"compute/v1/" {
		t.Fatalf("printed env = %v", env)
	}

	resp, err := http.Get(tpuURL + "admin/scenario")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"serializePoolCreates":true`) {
		t.Errorf("admin scenario = %d %s", resp.StatusCode, b)
	}
	stop <- syscall.SIGTERM
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("snapshot not written at exit: %v", err)
	}
}

// TestRunDefaultsToAFreePort: without -addr, each emulator listens on a port
// of its own, so two started the same way never share state.
func TestRunDefaultsToAFreePort(t *testing.T) {
	t.Parallel()
	var urls []string
	for range 2 {
		env, stop, done := serve(t, "-quiet")
		u := env["ACCEL_TPU_ENDPOINT"]
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("printed env = %v", env)
		}
		urls = append(urls, u)
		t.Cleanup(func() {
			stop <- syscall.SIGTERM
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
		})
	}
	if urls[0] == urls[1] {
		t.Fatalf("both emulators print %s", urls[0])
	}
	// A stockout set on the first one is not seen by the second.
	post(t, urls[0]+"admin/capacity", `{"zone":"us-central1-b","type":"v6e-4","count":0}`)
	for i, u := range urls {
		resp, err := http.Get(u + "admin/scenario")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if got, want := strings.Contains(string(b), `"type":"v6e-4"`), i == 0; got != want {
			t.Errorf("emulator %d: capacity limit for v6e-4 listed = %v, want %v: %s", i, got, want, b)
		}
	}
}

func post(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s = %d %s", url, resp.StatusCode, b)
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"zones": 3}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := [][]string{
		{"-no-such-flag"},
		{"-scenario", filepath.Join(t.TempDir(), "missing.json")},
		{"-scenario", bad},
		{"-addr", "not-an-address"},
		{"extra-argument"},
	}
	for _, args := range tests {
		if err := run(args, io.Discard, io.Discard, make(chan os.Signal)); err == nil {
			t.Errorf("run(%v) succeeded", args)
		}
	}
}

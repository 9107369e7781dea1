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

func TestRunServesUntilStopped(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	stop := make(chan os.Signal, 1)
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run([]string{"-addr", "127.0.0.1:0", "-quiet", "-serialize-pool-creates", "-snapshot", state}, outW, io.Discard, stop)
		_ = outW.Close()
		done <- err
	}()
	sc := bufio.NewScanner(outR)
	env := map[string]string{}
	for len(env) < 2 && sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			env[k] = v
		}
	}
	tpuURL := env["ACCEL_TPU_ENDPOINT"]
	if !strings.HasPrefix(tpuURL, "http://127.0.0.1:") || env["ACCEL_CONTAINER_ENDPOINT"] != tpuURL {
		t.Fatalf("printed env = %v", env)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()

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

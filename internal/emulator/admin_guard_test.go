// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// adminPost posts body to the admin verb of srv, with the given Host and
// Origin ("" for the defaults), and returns the status and answer.
func adminPost(t *testing.T, srv *Server, verb, body, host, origin string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL()+"/admin/"+verb, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "text/plain") // what a web page can send without asking first
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAdminRefusesWebPages: the admin API refuses a request whose Host is
// not the emulator's address (DNS rebinding) or whose Origin is another
// site's (a web page), and answers curl's and the emulator's own origin.
func TestAdminRefusesWebPages(t *testing.T) {
	t.Parallel()
	srv, err := Start(Options{Scenario: Default()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL(), "http://"), ":")
	for _, tc := range []struct {
		name, host, origin string
		want               int
	}{
		{name: "curl", want: http.StatusOK},
		{name: "localhost", host: "localhost:" + port, want: http.StatusOK},
		{name: "its own page", origin: srv.URL(), want: http.StatusOK},
		{name: "DNS rebinding", host: "attacker.example:" + port, want: http.StatusForbidden},
		{name: "another site's page", origin: "http://attacker.example", want: http.StatusForbidden},
		{name: "an opaque origin", origin: "null", want: http.StatusForbidden},
	} {
		if code, body := adminPost(t, srv, "durations", `{}`, tc.host, tc.origin); code != tc.want {
			t.Errorf("%s: status %d (%s), want %d", tc.name, code, body, tc.want)
		}
	}
}

// TestAdminSnapshotsConfined: the admin API writes and reads snapshots in
// its snapshot directory only; a name that leaves it (.., an absolute path,
// a symbolic link) is refused, and without a directory the verbs are off.
func TestAdminSnapshotsConfined(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("top secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	srv, err := Start(Options{Scenario: Default(), SnapshotDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if code, body := adminPost(t, srv, "snapshot", `{"name":"state.json"}`, "", ""); code != http.StatusOK {
		t.Fatalf("snapshot in the directory: %d %s", code, body)
	}
	if code, body := adminPost(t, srv, "load-snapshot", `{"name":"state.json"}`, "", ""); code != http.StatusOK {
		t.Fatalf("load-snapshot from the directory: %d %s", code, body)
	}
	for _, name := range []string{"../escape.json", filepath.Join(outside, "abs.json"), "link/through.json"} {
		if code, _ := adminPost(t, srv, "snapshot", `{"name":"`+name+`"}`, "", ""); code == http.StatusOK {
			t.Errorf("snapshot %q was written", name)
		}
	}
	for _, name := range []string{"../" + filepath.Base(outside) + "/secret.txt", secret, "link/secret.txt"} {
		code, body := adminPost(t, srv, "load-snapshot", `{"name":"`+name+`"}`, "", "")
		if code == http.StatusOK || strings.Contains(body, "top secret") || strings.Contains(body, "'t'") {
			t.Errorf("load-snapshot %q: %d %s, want it refused without a word of the file", name, code, body)
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("files outside the snapshot directory: %v, want only the secret", entries)
	}
	off, err := Start(Options{Scenario: Default()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = off.Close() })
	if code, body := adminPost(t, off, "snapshot", `{"name":"state.json"}`, "", ""); code == http.StatusOK || !strings.Contains(body, "-snapshot-dir") {
		t.Errorf("snapshot without a snapshot directory: %d %s, want it off, naming -snapshot-dir", code, body)
	}
}

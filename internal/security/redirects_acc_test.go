// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// redirector answers every request with a redirect to the same path on
// another host, counting the requests that carried header. Its answer is
// HTML, as Go's http.Redirect writes it, or a JSON body when json is set.
type redirector struct {
	to, header string
	status     int
	json       bool
	carried    atomic.Int64
}

func (r *redirector) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Header.Get("Authorization") == r.header {
		r.carried.Add(1)
	}
	if r.json {
		w.Header().Set("Location", r.to+req.URL.RequestURI())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(r.status)
		_, _ = w.Write([]byte("{}"))
		return
	}
	http.Redirect(w, req, r.to+req.URL.RequestURI(), r.status)
}

// apiRedirect is a provider block whose API endpoints all redirect.
func apiRedirect(json bool) func(t *testing.T, tg *acctest.Target, dir string) (string, *redirector) {
	return func(t *testing.T, tg *acctest.Target, dir string) (string, *redirector) {
		cred := accessToken(t, dir)
		r := &redirector{to: other, header: cred.header, status: http.StatusFound, json: json}
		srv := httptest.NewServer(r)
		t.Cleanup(srv.Close)
		return fmt.Sprintf(`provider "accel" {
  project            = %q
  tpu_endpoint       = "%[2]s/"
  container_endpoint = "%[2]s/"
  compute_endpoint   = "%[2]s/compute/v1/"
  %[3]s
}
`, tg.Project, srv.URL, cred.arg), r
	}
}

// other is the host redirects point to.
const other = "http://elsewhere.example.com"

// liveConfig is a configuration whose plan and apply call the TPU and GKE
// APIs.
func liveConfig(tg *acctest.Target, provider string) string {
	return provider + fmt.Sprintf(`
data "accel_runtime_version" "test" {
  accelerator_type = "v5litepod-4"
  zone             = %q
}

resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = "redirected"
  tiers {
    name             = "redirected-np"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
  }
}
`, tg.Zone, tg.Cluster)
}

// TestAccCredentials_redirectsStayOnTheirHost: a redirect to another host,
// from an API endpoint or from the token endpoint of a service account key,
// is refused with an error naming both hosts; nothing reaches the other
// host (a recording proxy stands in for it), neither the access token nor
// the signed assertion.
func TestAccCredentials_redirectsStayOnTheirHost(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("the credentials are fake: they only work against the emulator")
	}
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	for _, tc := range []struct {
		name, want string
		// setup returns the provider block and the redirector the
		// credential meets first.
		setup func(t *testing.T, tg *acctest.Target, dir string) (string, *redirector)
	}{
		// An HTML answer is refused as not the API's, before any redirect.
		{name: "API endpoint, HTML", setup: apiRedirect(false),
			want: `returned HTTP 302, Content-Type text/html.*elsewhere\.example\.com`},
		{name: "API endpoint, JSON", setup: apiRedirect(true),
			want: `refusing to follow a redirect from http://127\.0\.0\.1:\d+ to http://elsewhere\.example\.com`},
		{name: "token endpoint", want: `refusing to follow a redirect from http://127\.0\.0\.1:\d+ to http://elsewhere\.example\.com`, setup: func(t *testing.T, tg *acctest.Target, dir string) (string, *redirector) {
			// A 307 keeps the POST and its body, the signed assertion.
			r := &redirector{to: other, status: http.StatusTemporaryRedirect}
			srv := httptest.NewServer(r)
			t.Cleanup(srv.Close)
			keyJSON, _ := serviceAccountKey(t, srv.URL+"/token")
			if err := os.WriteFile(filepath.Join(dir, "key.json"), keyJSON, 0o600); err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf(`provider "accel" {
  project            = %q
  tpu_endpoint       = "%[2]s/"
  container_endpoint = "%[2]s/"
  compute_endpoint   = "%[2]s/compute/v1/"
  credentials        = file("${path.module}/key.json")
}
`, tg.Project, tg.Emulator.URL()), r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "uses fake credentials that only the emulator accepts")
			elsewhere := &recordingProxy{}
			proxy := httptest.NewServer(elsewhere)
			t.Cleanup(proxy.Close)
			dir := t.TempDir()
			provider, r := tc.setup(t, tg, dir)
			// The credential files are in dir, not in the workspace.
			provider = strings.ReplaceAll(provider, "${path.module}", filepath.ToSlash(dir))
			w := acctest.NewWorkspace(t, slices.Concat(env, proxyEnv(proxy.URL)), tf, liveConfig(tg, provider))
			// A plan only checks live what the API answers, and goes on
			// without it; an apply needs the API and fails.
			stdout, stderr, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color")
			text := strings.Join(strings.Fields(stdout+stderr), " ")
			if got := elsewhere.seen(); len(got) > 0 {
				t.Errorf("requests followed the redirect to another host: %q", got)
			}
			want := regexp.MustCompile(tc.want)
			if err == nil || !want.MatchString(text) {
				t.Errorf("apply: %v, want an error matching %s\n%s", err, want, text)
			}
			if r.header != "" && r.carried.Load() == 0 {
				t.Error("no request to the redirecting endpoint carried the credential: the test would prove nothing")
			}
		})
	}
}

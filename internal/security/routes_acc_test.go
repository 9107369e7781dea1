// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// recordingProxy is an HTTP proxy that stands in for every other host: it
// records each request it is asked to forward, with its Authorization
// header, and answers 502 without forwarding anything.
type recordingProxy struct {
	mu       sync.Mutex
	requests []string
}

func (p *recordingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.requests = append(p.requests, r.Method+" "+r.Host+" "+r.URL.String()+" Authorization="+r.Header.Get("Authorization"))
	p.mu.Unlock()
	http.Error(w, "recording proxy: not forwarded", http.StatusBadGateway)
}

// proxyEnv sends every request to a host other than loopback through the
// proxy at url, plain HTTP and HTTPS alike (Go never proxies loopback).
func proxyEnv(url string) []string {
	return []string{"HTTP_PROXY=" + url, "http_proxy=" + url, "HTTPS_PROXY=" + url, "https_proxy=" + url, "NO_PROXY=", "no_proxy="}
}

func (p *recordingProxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// TestAccCredentials_neverInCleartextToAnotherHost: with a credential from
// the environment (GOOGLE_OAUTH_ACCESS_TOKEN) and a plain http:// endpoint
// on another host, terraform plan fails with an error naming the endpoint,
// and nothing reaches that host (a recording proxy stands in for it).
func TestAccCredentials_neverInCleartextToAnotherHost(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	proxy := &recordingProxy{}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	token := "SECRET-" + randomHex(t, 8)
	config := `provider "accel" {
  project = "my-project"
}

resource "accel_tpu_vm" "vm" {
  name             = "vm"
  zones            = ["us-east5-b"]
  accelerator_type = "v6e-4"
}
`
	w := acctest.NewWorkspace(t, env, tf, config).WithEnv(slices.Concat(env,
		[]string{"GOOGLE_OAUTH_ACCESS_TOKEN=" + token, "ACCEL_TPU_ENDPOINT=http://tpu.example.com/"}, proxyEnv(srv.URL)))
	stdout, stderr, err := w.Run("plan", "-input=false", "-no-color")
	text := strings.Join(strings.Fields(stdout+stderr), " ")
	if err == nil || !strings.Contains(text, "Credential Over Plain HTTP") || !strings.Contains(text, "http://tpu.example.com/") {
		t.Fatalf("plan with a credential and a remote http:// endpoint: %v, want Credential Over Plain HTTP naming it\n%s", err, text)
	}
	if strings.Contains(text, token) {
		t.Error("the plan's output holds the token")
	}
	if got := proxy.seen(); len(got) != 0 {
		t.Errorf("requests reached another host: %q", got)
	}
}

// TestAccCredentials_impersonationAsksOnlyIAMCredentials: with a base
// credential from the environment and GOOGLE_IMPERSONATE_SERVICE_ACCOUNT,
// the base token goes only to the IAM Service Account Credentials API, over
// TLS (a recording proxy sees the tunnel's host and nothing of what it
// carries), never to the API endpoints; when that exchange fails the apply
// says so, and the token appears nowhere in the output.
func TestAccCredentials_impersonationAsksOnlyIAMCredentials(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("the credentials are fake: they only work against the emulator")
	}
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses fake credentials that only the emulator accepts")
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	elsewhere := &recordingProxy{}
	proxy := httptest.NewServer(elsewhere)
	t.Cleanup(proxy.Close)
	front, rec := newAuthRecorder(t, tg.Emulator.URL())
	token := "ya29." + randomHex(t, 32)
	provider := fmt.Sprintf(`provider "accel" {
  project            = %q
  tpu_endpoint       = "%[2]s/"
  container_endpoint = "%[2]s/"
  compute_endpoint   = "%[2]s/compute/v1/"
}
`, tg.Project, front.URL)
	w := acctest.NewWorkspace(t, slices.Concat(env, []string{"GOOGLE_OAUTH_ACCESS_TOKEN=" + token,
		"GOOGLE_IMPERSONATE_SERVICE_ACCOUNT=deployer@" + tg.Project + ".iam.gserviceaccount.com"}, proxyEnv(proxy.URL)),
		tf, liveConfig(tg, provider))
	stdout, stderr, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color")
	text := strings.Join(strings.Fields(stdout+stderr), " ")
	if err == nil || !strings.Contains(text, `impersonat`) {
		t.Errorf("apply: %v, want an error about the impersonation\n%s", err, text)
	}
	if strings.Contains(text, token) {
		t.Error("the output holds the base token")
	}
	got := elsewhere.seen()
	if len(got) == 0 {
		t.Fatal("the impersonation exchange was never attempted: the test would prove nothing")
	}
	for _, r := range got {
		if !strings.HasPrefix(r, "CONNECT iamcredentials.googleapis.com:443 ") || !strings.HasSuffix(r, " Authorization=") {
			t.Errorf("a request went elsewhere than a TLS tunnel to iamcredentials.googleapis.com: %q", r)
		}
	}
	if n := rec.count("Bearer " + token); n > 0 {
		t.Errorf("%d API calls carried the base token instead of the impersonated one", n)
	}
}

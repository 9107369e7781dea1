// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
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
	p.requests = append(p.requests, r.Method+" "+r.URL.String()+" Authorization="+r.Header.Get("Authorization"))
	p.mu.Unlock()
	http.Error(w, "recording proxy: not forwarded", http.StatusBadGateway)
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
	w := acctest.NewWorkspace(t, env, tf, config).WithEnv(append(slices.Clone(env),
		"GOOGLE_OAUTH_ACCESS_TOKEN="+token, "ACCEL_TPU_ENDPOINT=http://tpu.example.com/",
		"HTTP_PROXY="+srv.URL, "http_proxy="+srv.URL, "NO_PROXY=", "no_proxy="))
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

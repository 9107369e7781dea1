// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCleartextToRemote: plain http:// counts as loopback only for
// localhost and the loopback IP literals.
func TestCleartextToRemote(t *testing.T) {
	t.Parallel()
	for endpoint, want := range map[string]bool{
		"http://tpu.example.com/":       true,
		"http://10.0.0.5:8089/":         true,
		"http://127.0.0.1.nip.io:8089/": true,
		"http://[::ffff:10.0.0.1]/":     true,
		"http://127.0.0.1:8089/":        false,
		"http://127.8.9.1/":             false,
		"http://[::1]:8089/":            false,
		"HTTP://LocalHost:8089/":        false,
		"https://tpu.example.com/":      false,
		"":                              false,
	} {
		if got := CleartextToRemote(endpoint); got != want {
			t.Errorf("CleartextToRemote(%q) = %v, want %v", endpoint, got, want)
		}
	}
}

// TestCredentialNeverInCleartextToRemote: with an explicit credential, a
// client for a plain http:// endpoint on another host is refused before any
// request (no token reaches that host); on loopback it is built, and
// without a credential nothing is sent either way.
func TestCredentialNeverInCleartextToRemote(t *testing.T) {
	t.Parallel()
	c := NewClients(Config{AccessToken: "SECRET-TOKEN", TPUEndpoint: "http://tpu.example.com/", ContainerEndpoint: "http://127.0.0.1:9/"})
	c.findDefault = noADC(t)
	_, err := c.TPU(t.Context())
	var ce *CleartextCredentialError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "http://tpu.example.com/") || !strings.Contains(err.Error(), "tpu_endpoint") {
		t.Fatalf("TPU client for a remote http:// endpoint with a credential: %v, want a CleartextCredentialError naming it", err)
	}
	if _, err := c.Container(t.Context()); err != nil {
		t.Fatalf("a loopback http:// endpoint with a credential is refused: %v", err)
	}
	anon := NewClients(Config{TPUEndpoint: "http://tpu.example.com/"})
	anon.findDefault = noADC(t)
	if _, err := anon.TPU(t.Context()); err != nil {
		t.Fatalf("without a credential, a remote http:// endpoint is refused: %v", err)
	}
}

// TestRedirectToAnotherHostRefused: an endpoint that redirects to another
// host (here another port of loopback) does not get the credential carried
// there: the redirect is refused before any request reaches it.
func TestRedirectToAnotherHostRefused(t *testing.T) {
	t.Parallel()
	var other seen
	elsewhere := other.server(t)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Labelled JSON, so that only the redirect itself can stop it.
		w.Header().Set("Content-Type", "application/json")
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(redirector.Close)
	c := NewClients(Config{AccessToken: "SECRET-TOKEN", TPUEndpoint: redirector.URL + "/"})
	c.findDefault = noADC(t)
	svc, err := c.TPU(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/n").Context(t.Context()).Do()
	if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") {
		t.Fatalf("a redirect to another host: %v, want it refused", err)
	}
	other.mu.Lock()
	defer other.mu.Unlock()
	if other.requests != 0 {
		t.Fatalf("the other host received %d requests (Authorization %q), want none", other.requests, other.auth)
	}
}

// TestAnswerSizeBounded: a successful answer larger than the bound is not
// read whole: the call fails with an error naming the endpoint and the
// bound; an answer within it is read.
func TestAnswerSizeBounded(t *testing.T) {
	t.Parallel()
	padding := strings.Repeat("x", 4096)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/big") {
			_, _ = w.Write([]byte(`{"name":"big","description":"` + padding + `"}`))
			return
		}
		_, _ = w.Write([]byte(`{"name":"small"}`))
	}))
	t.Cleanup(srv.Close)
	c := NewClients(Config{TPUEndpoint: srv.URL + "/", MaxAnswerBytes: 1024})
	svc, err := c.TPU(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := svc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/small").Context(t.Context()).Do(); err != nil || n.Name != "small" {
		t.Fatalf("a small answer: %v, %v", n, err)
	}
	_, err = svc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/big").Context(t.Context()).Do()
	var tooLarge *AnswerTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), srv.URL) || !strings.Contains(err.Error(), "1024 bytes") {
		t.Fatalf("an answer over the bound: %v, want an AnswerTooLargeError naming the endpoint and the bound", err)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

const testUA = "terraform-provider-accel/1.2.3 (+https://registry.terraform.io/providers/accel-dev/accel) Terraform/1.11.4"

// seen records the headers of the API requests a fake server received.
type seen struct {
	mu       sync.Mutex
	requests int
	auth     []string
	ua       []string
}

func (s *seen) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.ua = append(s.ua, r.Header.Get("User-Agent"))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if _, err := fmt.Fprint(w, `{"name":"x"}`); err != nil {
			t.Errorf("writing the fake answer: %v", err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (s *seen) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// googleTransport answers Google's token and IAM Credentials endpoints in
// process and passes every other request to http.DefaultTransport.
type googleTransport struct {
	mu       sync.Mutex
	trips    int
	iamAuth  []string
	tokenReq int
}

func (g *googleTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trips++
	respond := func(body string) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	}
	switch {
	case r.URL.Host == "oauth2.googleapis.com":
		g.tokenReq++
		return respond(`{"access_token":"token-from-refresh","token_type":"Bearer","expires_in":3600}`)
	case r.URL.Host == "iamcredentials.googleapis.com" && strings.HasSuffix(r.URL.Path, "sa@p.iam.gserviceaccount.com:generateAccessToken"):
		g.iamAuth = append(g.iamAuth, r.Header.Get("Authorization"))
		return respond(`{"accessToken":"impersonated-token","expireTime":"2099-01-01T00:00:00Z"}`)
	case r.URL.Hostname() == "127.0.0.1":
		return http.DefaultTransport.RoundTrip(r)
	}
	return nil, fmt.Errorf("unexpected request to %s", r.URL.Host)
}

// callBoth makes one TPU call and one GKE call.
func callBoth(ctx context.Context, c *Clients) error {
	tsvc, err := c.TPU(ctx)
	if err != nil {
		return err
	}
	if _, err := tsvc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/n").Context(ctx).Do(); err != nil {
		return err
	}
	csvc, err := c.Container(ctx)
	if err != nil {
		return err
	}
	_, err = csvc.Projects.Locations.Clusters.Get("projects/p/locations/l/clusters/c").Context(ctx).Do()
	return err
}

// noADC makes an ADC lookup fail the test.
func noADC(t *testing.T) func(context.Context, ...string) (*google.Credentials, error) {
	return func(context.Context, ...string) (*google.Credentials, error) {
		t.Error("Application Default Credentials were looked up")
		return nil, errors.New("no ADC in tests")
	}
}

const authorizedUserJSON = `{"type":"authorized_user","client_id":"id.apps.googleusercontent.com","client_secret":"SECRET-CLIENT","refresh_token":"SECRET-REFRESH"}`

func TestNewClientsIsLazy(t *testing.T) {
	t.Parallel()
	var s seen
	srv := s.server(t)
	cfg := Config{Project: "p", TPUEndpoint: srv.URL, ContainerEndpoint: srv.URL, AccessToken: "tok", UserAgent: testUA}
	c := NewClients(cfg)
	cfg.Polling = DefaultPolling()                  // Config() has the polling settings completed
	cfg.OperationsPerCluster = OperationsPerCluster // and the operation limit
	if diff := cmp.Diff(cfg, c.Config()); diff != "" {
		t.Errorf("Config() (-want +got):\n%s", diff)
	}
	if !c.TPUConfigured() {
		t.Error("TPUConfigured() = false with an endpoint set")
	}
	if _, err := c.TPU(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Container(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := s.count(); n != 0 {
		t.Fatalf("requests before the first API call = %d, want 0", n)
	}
	if err := callBoth(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if n := s.count(); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestClientsAuthAndUserAgent(t *testing.T) {
	t.Parallel()
	keyFile := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(keyFile, []byte(authorizedUserJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		cfg         Config
		viaGoogle   bool // use googleTransport as Config.HTTPClient
		wantAuth    string
		wantIAMAuth []string
	}{
		{name: "plain http without credentials sends no token", wantAuth: ""},
		{name: "plain http with explicit access token", cfg: Config{AccessToken: "tok-123"}, wantAuth: "Bearer tok-123"},
		{name: "impersonation without explicit credentials over plain http sends no token", cfg: Config{ImpersonateServiceAccount: "sa@p.iam.gserviceaccount.com"}, viaGoogle: true, wantAuth: ""},
		{name: "base transport without credentials", viaGoogle: true, wantAuth: ""},
		{name: "base transport with access token", cfg: Config{AccessToken: "tok-456"}, viaGoogle: true, wantAuth: "Bearer tok-456"},
		{name: "access token wins over credentials", cfg: Config{AccessToken: "tok-789", Credentials: "{not json"}, viaGoogle: true, wantAuth: "Bearer tok-789"},
		{name: "credentials JSON", cfg: Config{Credentials: "  " + authorizedUserJSON}, viaGoogle: true, wantAuth: "Bearer token-from-refresh"},
		{name: "credentials file", cfg: Config{Credentials: keyFile}, viaGoogle: true, wantAuth: "Bearer token-from-refresh"},
		{
			name:        "impersonation wraps the access token",
			cfg:         Config{AccessToken: "base-token", ImpersonateServiceAccount: "sa@p.iam.gserviceaccount.com"},
			viaGoogle:   true,
			wantAuth:    "Bearer impersonated-token",
			wantIAMAuth: []string{"Bearer base-token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s seen
			srv := s.server(t)
			cfg := tt.cfg
			cfg.TPUEndpoint, cfg.ContainerEndpoint, cfg.UserAgent = srv.URL+"/", srv.URL, testUA
			gt := &googleTransport{}
			if tt.viaGoogle {
				cfg.HTTPClient = &http.Client{Transport: gt}
			}
			c := NewClients(cfg)
			c.findDefault = noADC(t)
			if err := callBoth(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			want := []string{tt.wantAuth, tt.wantAuth}
			if diff := cmp.Diff(want, s.auth); diff != "" {
				t.Errorf("Authorization headers (-want +got):\n%s", diff)
			}
			for _, ua := range s.ua {
				if !strings.Contains(ua, testUA) {
					t.Errorf("User-Agent = %q, want it to contain %q", ua, testUA)
				}
			}
			if diff := cmp.Diff(tt.wantIAMAuth, gt.iamAuth); diff != "" {
				t.Errorf("IAM Credentials Authorization headers (-want +got):\n%s", diff)
			}
			if tt.viaGoogle && gt.trips < 2 {
				t.Errorf("base transport carried %d requests, want every request", gt.trips)
			}
		})
	}
}

func TestCredentialsError(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	howTo := []string{
		"gcloud auth application-default login", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CREDENTIALS",
		"GOOGLE_OAUTH_ACCESS_TOKEN", "`credentials`", "`access_token`", "`tpu_endpoint`", "`container_endpoint`",
	}
	tests := []struct {
		name   string
		cfg    Config
		secret string
	}{
		{name: "no credentials anywhere"},
		{name: "malformed JSON", cfg: Config{Credentials: `{"type":"service_account","private_key":"SECRET-KEY-1"`}, secret: "SECRET-KEY-1"},
		{name: "neither JSON nor a file", cfg: Config{Credentials: `SECRET-KEY-2"}`}, secret: "SECRET-KEY-2"},
		{name: "unsupported type", cfg: Config{Credentials: `{"type":"api_key","key":"SECRET-KEY-3"}`}, secret: "SECRET-KEY-3"},
		{name: "explicit endpoint over https", cfg: Config{TPUEndpoint: "https://tpu.example.test/", ContainerEndpoint: "https://gke.example.test/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookups := 0
			c := NewClients(tt.cfg)
			c.findDefault = func(context.Context, ...string) (*google.Credentials, error) {
				lookups++
				return nil, errors.New("google: could not find default credentials")
			}
			for _, get := range []func() error{
				func() error { _, err := c.TPU(t.Context()); return err },
				func() error { _, err := c.Container(t.Context()); return err },
			} {
				err := get()
				var ce *CredentialsError
				if !errors.As(err, &ce) {
					t.Fatalf("want *CredentialsError, got %T %v", err, err)
				}
				msg := err.Error()
				for _, s := range howTo {
					if !strings.Contains(msg, s) {
						t.Errorf("message lacks %q: %s", s, msg)
					}
				}
				if tt.secret != "" && strings.Contains(fmt.Sprintf("%v %+v", err, ce), tt.secret) {
					t.Errorf("message contains the secret: %s", msg)
				}
				if strings.Count(msg, "\n") != 0 {
					t.Errorf("want one line, got %q", msg)
				}
			}
			if tt.cfg.Credentials == "" && lookups != 2 {
				t.Errorf("ADC lookups = %d, want 2 (failures are not cached)", lookups)
			}
		})
	}
}

// hostRewrite sends every request to target's host, like a DNS override.
type hostRewrite struct{ target string }

func (h hostRewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.URL.Scheme, r2.URL.Host = "http", h.target
	return http.DefaultTransport.RoundTrip(r2)
}

func TestClientsRetryFailedBuildAndCacheSuccess(t *testing.T) {
	t.Parallel()
	var s seen
	srv := s.server(t)
	c := NewClients(Config{
		TPUEndpoint: "https://tpu.example.test/",
		HTTPClient:  &http.Client{Transport: hostRewrite{strings.TrimPrefix(srv.URL, "http://")}},
	})
	var lookups atomic.Int32
	c.findDefault = func(context.Context, ...string) (*google.Credentials, error) {
		if lookups.Add(1) == 1 {
			return nil, errors.New("not yet")
		}
		return &google.Credentials{TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "adc"})}, nil
	}
	if _, err := c.TPU(t.Context()); err == nil {
		t.Fatal("first build: want an error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var svcs sync.Map
	for range 8 {
		wg.Go(func() {
			svc, err := c.TPU(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			svcs.Store(svc, true)
		})
	}
	wg.Wait()
	cancel() // the cached client must not depend on the first caller's context
	distinct := 0
	svcs.Range(func(any, any) bool { distinct++; return true })
	if distinct != 1 || lookups.Load() != 2 {
		t.Errorf("distinct clients %d, ADC lookups %d; want 1, 2", distinct, lookups.Load())
	}
	svc, err := c.TPU(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Projects.Locations.Nodes.Get("projects/p/locations/z/nodes/n").Context(t.Context()).Do(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Bearer adc"}, s.auth); diff != "" {
		t.Errorf("Authorization headers (-want +got):\n%s", diff)
	}
}

func TestTPUConfigured(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLOUDSDK_CONFIG", "")
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	keyFile := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(keyFile, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	sdkDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(sdkDir, "application_default_credentials.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		env  map[string]string
		want bool
	}{
		{name: "nothing", want: false},
		{name: "tpu endpoint", cfg: Config{TPUEndpoint: "http://127.0.0.1:1/"}, want: true},
		{name: "container endpoint only", cfg: Config{ContainerEndpoint: "http://127.0.0.1:1/"}, want: false},
		{name: "credentials", cfg: Config{Credentials: "/nonexistent"}, want: true},
		{name: "access token", cfg: Config{AccessToken: "t"}, want: true},
		{name: "impersonation alone", cfg: Config{ImpersonateServiceAccount: "sa@p.iam.gserviceaccount.com"}, want: false},
		{name: "GOOGLE_APPLICATION_CREDENTIALS file", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": keyFile}, want: true},
		{name: "GOOGLE_APPLICATION_CREDENTIALS missing file", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": keyFile + ".missing"}, want: false},
		{name: "GOOGLE_APPLICATION_CREDENTIALS directory", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": sdkDir}, want: false},
		{name: "gcloud file in CLOUDSDK_CONFIG", env: map[string]string{"CLOUDSDK_CONFIG": sdkDir}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if got := NewClients(tt.cfg).TPUConfigured(); got != tt.want {
				t.Errorf("TPUConfigured() = %v, want %v", got, tt.want)
			}
		})
	}
	if runtime.GOOS != "windows" {
		dir := filepath.Join(home, ".config", "gcloud")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "application_default_credentials.json"), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if !NewClients(Config{}).TPUConfigured() {
			t.Error("TPUConfigured() = false with the gcloud application-default file in HOME")
		}
	}
}

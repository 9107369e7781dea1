// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/impersonate"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"
	tpualpha "google.golang.org/api/tpu/v2alpha1"
	htransport "google.golang.org/api/transport/http"
)

// cloudPlatformScope is the OAuth scope of both APIs.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// Clients is the one bundle of cloud access the provider builds from its
// configuration: the TPU and GKE API services, built on their first use,
// once (a failed build is retried on the next use), with the poller, the
// retry backoff and the per-cluster operation limiter every call shares.
// The typed clients ([Clients.TPUNodes], [Clients.NodePools]) are handed
// out from it. Clients is safe for concurrent use.
type Clients struct {
	cfg     Config
	log     *slog.Logger
	poller  *Poller
	backoff Backoff
	// limiter bounds concurrent GKE operations per cluster, for every
	// resource these clients serve.
	limiter *Limiter
	// reads shares cluster reads and refresh lists until the next write.
	reads reads

	// Replaced in tests.
	findDefault func(ctx context.Context, scopes ...string) (*google.Credentials, error)

	tsMu sync.Mutex
	ts   oauth2.TokenSource

	tpuMu sync.Mutex
	tpu   *tpu.Service

	tpuAlphaMu sync.Mutex
	tpuAlpha   *tpualpha.Service

	containerMu sync.Mutex
	container   *container.Service

	computeMu sync.Mutex
	compute   *compute.Service
}

// NewClients stores cfg, with its polling settings completed (see
// Polling.normalized), and returns at once: it does no I/O and never fails.
// Credentials are looked up when the first API client is requested.
func NewClients(cfg Config) *Clients {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.Polling = cfg.Polling.normalized()
	if cfg.OperationsPerCluster <= 0 {
		cfg.OperationsPerCluster = OperationsPerCluster
	}
	return &Clients{
		cfg:         cfg,
		log:         log,
		poller:      newPoller(cfg.Polling, log, nil),
		backoff:     cfg.Polling.backoff(),
		limiter:     NewLimiter(cfg.OperationsPerCluster),
		findDefault: findDefaultCredentials,
	}
}

// Config returns the configuration the clients were built from, with its
// polling settings completed.
func (c *Clients) Config() Config {
	return c.cfg
}

// TPU returns the Cloud TPU v2 client, building it on first use.
// See Config for how it authenticates.
func (c *Clients) TPU(ctx context.Context) (*tpu.Service, error) {
	c.tpuMu.Lock()
	defer c.tpuMu.Unlock()
	if c.tpu != nil {
		return c.tpu, nil
	}
	opts, err := c.tpuOptions(ctx)
	if err != nil {
		return nil, err
	}
	svc, err := tpu.NewService(context.WithoutCancel(ctx), opts...)
	if err != nil {
		return nil, fmt.Errorf("creating the Cloud TPU client: %w", err)
	}
	c.tpu = svc
	return svc, nil
}

// Container returns the GKE v1 client, building it on first use.
// See Config for how it authenticates.
func (c *Clients) Container(ctx context.Context) (*container.Service, error) {
	c.containerMu.Lock()
	defer c.containerMu.Unlock()
	if c.container != nil {
		return c.container, nil
	}
	opts, err := c.serviceOptions(ctx, endpointRef{api: "GKE API", url: c.cfg.ContainerEndpoint,
		setting: ContainerEndpointSetting, env: ContainerEndpointEnv}, defaultContainerEndpoint)
	if err != nil {
		return nil, err
	}
	svc, err := container.NewService(context.WithoutCancel(ctx), opts...)
	if err != nil {
		return nil, fmt.Errorf("creating the GKE client: %w", err)
	}
	c.container = svc
	return svc, nil
}

// TPUConfigured reports, without any network access, whether API calls can
// be attempted: an endpoint, Credentials or AccessToken is set, or
// GOOGLE_APPLICATION_CREDENTIALS or the gcloud application-default
// credentials file names an existing file. Credentials that only the metadata
// server could provide are not detected. Callers use it to decide whether
// optional live checks are attempted.
func (c *Clients) TPUConfigured() bool {
	return c.cfg.TPUEndpoint != "" || c.credentialsConfigured()
}

// credentialsConfigured reports, without any network access, whether a
// credential is configured or found on disk (see [Clients.TPUConfigured]).
func (c *Clients) credentialsConfigured() bool {
	if c.cfg.Credentials != "" || c.cfg.AccessToken != "" {
		return true
	}
	return adcFileFound()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// gcloudADCFile is where `gcloud auth application-default login` writes the
// credentials (https://cloud.google.com/docs/authentication/application-default-credentials).
func gcloudADCFile() string {
	const name = "application_default_credentials.json"
	if dir := os.Getenv("CLOUDSDK_CONFIG"); dir != "" {
		return filepath.Join(dir, name)
	}
	if runtime.GOOS == "windows" {
		if dir := os.Getenv("APPDATA"); dir != "" {
			return filepath.Join(dir, "gcloud", name)
		}
		return ""
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "gcloud", name)
}

// isPlainHTTP reports whether endpoint is an http:// URL (a local emulator).
func isPlainHTTP(endpoint string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(endpoint)), "http://")
}

// CleartextToRemote reports whether endpoint is a plain http:// URL whose host
// is not a loopback address: a credential sent there crosses the network
// in clear text. localhost and the loopback IP literals (127.0.0.0/8, ::1)
// are loopback; a name that merely resolves to one is not.
func CleartextToRemote(endpoint string) bool {
	if !isPlainHTTP(endpoint) {
		return false
	}
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return true
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err != nil || !ip.IsLoopback()
}

// CleartextCredentialError refuses to send a configured credential to a
// plain http:// endpoint that is not on loopback.
type CleartextCredentialError struct {
	Endpoint, Setting, Env string
}

func (e *CleartextCredentialError) Error() string {
	return fmt.Sprintf("%s = %q is a plain http:// endpoint on another host, and a credential is configured (credentials, "+
		"access_token or their environment variables): it would cross the network in clear text. Use https://, or a "+
		"loopback address (127.0.0.1, ::1, localhost) for a local emulator, or unset the credential", e.Setting, e.Endpoint)
}

// explicitCredentials reports whether the user configured a credential.
func (c *Clients) explicitCredentials() bool {
	return c.cfg.AccessToken != "" || c.cfg.Credentials != ""
}

// baseTransport is the transport under authentication and the user agent.
func (c *Clients) baseTransport() http.RoundTripper {
	if c.cfg.HTTPClient != nil && c.cfg.HTTPClient.Transport != nil {
		return c.cfg.HTTPClient.Transport
	}
	return http.DefaultTransport
}

// serviceOptions returns the client options for a service at ref.url
// (defaultURL when empty). Every answer passes an answerCheck, under
// authentication and the user agent.
func (c *Clients) serviceOptions(ctx context.Context, ref endpointRef, defaultURL string) ([]option.ClientOption, error) {
	endpoint := ref.url
	if ref.url == "" {
		ref.url = defaultURL
	}
	var opts []option.ClientOption
	if c.explicitCredentials() && CleartextToRemote(endpoint) {
		return nil, &CleartextCredentialError{Endpoint: endpoint, Setting: ref.setting, Env: ref.env}
	}
	if isPlainHTTP(endpoint) && !c.explicitCredentials() {
		opts = append(opts, option.WithoutAuthentication())
	} else {
		ts, err := c.tokenSource(ctx)
		if err != nil {
			return nil, err
		}
		opts = append(opts, option.WithTokenSource(ts))
	}
	if c.cfg.UserAgent != "" {
		opts = append(opts, option.WithUserAgent(c.cfg.UserAgent))
	}
	rt, err := htransport.NewTransport(context.WithoutCancel(ctx), &answerCheck{base: c.baseTransport(), ref: ref, limit: cmp.Or(c.cfg.MaxAnswerBytes, MaxAnswerBytes)}, opts...)
	if err != nil {
		return nil, fmt.Errorf("creating the HTTP transport: %w", err)
	}
	hc := &http.Client{}
	if c.cfg.HTTPClient != nil {
		*hc = *c.cfg.HTTPClient
	}
	hc.Transport = rt
	hc.CheckRedirect = sameHostRedirects
	opts = []option.ClientOption{option.WithHTTPClient(hc)}
	if endpoint != "" {
		opts = append(opts, option.WithEndpoint(endpoint))
	}
	return opts, nil
}

// tokenSource returns the configured credential, found on first use and
// cached once found.
func (c *Clients) tokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	c.tsMu.Lock()
	defer c.tsMu.Unlock()
	if c.ts != nil {
		return c.ts, nil
	}
	// Token refreshes happen long after this call's ctx has ended: keep its
	// values, drop its cancellation.
	ctx = context.WithoutCancel(ctx)
	// The token exchanges (a service account key, impersonation) follow no
	// redirect to another host either.
	tokenClient := &http.Client{Transport: c.baseTransport()}
	if c.cfg.HTTPClient != nil {
		*tokenClient = *c.cfg.HTTPClient
	}
	tokenClient.CheckRedirect = sameHostRedirects
	ctx = context.WithValue(ctx, oauth2.HTTPClient, tokenClient)
	ts, err := c.baseTokenSource(ctx)
	if err != nil {
		return nil, err
	}
	if sa := c.cfg.ImpersonateServiceAccount; sa != "" {
		opt := option.WithHTTPClient(&http.Client{Transport: &oauth2.Transport{Base: c.baseTransport(), Source: ts},
			CheckRedirect: sameHostRedirects})
		ts, err = impersonate.CredentialsTokenSource(ctx, impersonate.CredentialsConfig{
			TargetPrincipal: sa,
			Scopes:          []string{cloudPlatformScope},
		}, opt)
		if err != nil {
			return nil, fmt.Errorf("impersonating service account %q: %w", sa, err)
		}
	}
	c.ts = ts
	return ts, nil
}

// baseTokenSource applies the precedence AccessToken > Credentials > ADC.
func (c *Clients) baseTokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	if c.cfg.AccessToken != "" {
		return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: c.cfg.AccessToken, TokenType: "Bearer"}), nil
	}
	if c.cfg.Credentials != "" {
		creds, err := credentialsFromConfig(ctx, c.cfg.Credentials)
		if err != nil {
			return nil, err
		}
		return creds.TokenSource, nil
	}
	creds, err := c.findDefault(ctx, cloudPlatformScope)
	if err != nil {
		cerr := &CredentialsError{Err: err}
		if os.Getenv("GOOGLE_APPLICATION_CREDENTIALS") != "" {
			cerr.Problem = "GOOGLE_APPLICATION_CREDENTIALS is set, but its file could not be loaded"
		}
		return nil, cerr
	}
	return creds.TokenSource, nil
}

// credentialsFromConfig loads the `credentials` value: JSON when it starts
// with '{', otherwise a file path. Errors never quote the value.
func credentialsFromConfig(ctx context.Context, v string) (*google.Credentials, error) {
	data := []byte(v)
	if !strings.HasPrefix(strings.TrimSpace(v), "{") {
		b, err := os.ReadFile(v)
		if err != nil {
			problem := "the credentials value is neither JSON (starting with '{') nor a readable file"
			if errors.Is(err, fs.ErrNotExist) {
				problem = "the credentials file does not exist (and the value is not JSON, which starts with '{')"
			}
			return nil, &CredentialsError{Problem: problem, Err: pathFreeError(err)}
		}
		data = b
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, &CredentialsError{Problem: "the credentials are not valid JSON", Err: errors.New("invalid JSON")}
	}
	switch t := google.CredentialsType(head.Type); t {
	case google.ServiceAccount, google.AuthorizedUser, google.ExternalAccount,
		google.ExternalAccountAuthorizedUser, google.ImpersonatedServiceAccount, google.GDCHServiceAccount:
		creds, err := google.CredentialsFromJSONWithType(ctx, data, t, cloudPlatformScope)
		if err != nil {
			return nil, &CredentialsError{Problem: fmt.Sprintf("the %s credentials could not be loaded", t), Err: err}
		}
		return creds, nil
	default:
		if len(head.Type) > 64 {
			head.Type = head.Type[:64] + "..."
		}
		return nil, &CredentialsError{Problem: fmt.Sprintf("the credentials have an unsupported \"type\" %q", head.Type)}
	}
}

// pathFreeError keeps the cause of a file error without its path, which may
// be a mistyped secret.
func pathFreeError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return errors.New("unreadable")
}

// credentialsHowTo is the advice every CredentialsError ends with.
const credentialsHowTo = "To authenticate, do one of: run `gcloud auth application-default login`; " +
	"set GOOGLE_APPLICATION_CREDENTIALS or GOOGLE_CREDENTIALS to a service account key file; " +
	"set GOOGLE_OAUTH_ACCESS_TOKEN; set the provider's `credentials` or `access_token` argument; " +
	"or, for the local emulator, set the provider's `tpu_endpoint`, `container_endpoint` and `compute_endpoint` to its http:// addresses"

// CredentialsError means no usable Google credentials were found. Its message
// says how to authenticate and never contains secrets; Err keeps the cause
// for errors.Is and errors.As, but its text is not part of the message.
type CredentialsError struct {
	// Problem is a short, secret-free description; empty means no credentials were found.
	Problem string
	// Err is the underlying cause, if any.
	Err error
}

// Error returns one message: what went wrong and how to authenticate.
func (e *CredentialsError) Error() string {
	problem := e.Problem
	if problem == "" {
		problem = "no Google Cloud credentials were found"
	}
	return problem + ". " + credentialsHowTo + "."
}

// Unwrap returns the cause.
func (e *CredentialsError) Unwrap() error { return e.Err }

// sameHostRedirects is the CheckRedirect of every client that carries a
// credential: a redirect is followed only to the same scheme and host, so
// that the Authorization header never goes to a host it was not meant for
// (Go drops it itself only for some host changes).
func sameHostRedirects(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if req.URL.Scheme != first.Scheme || !strings.EqualFold(req.URL.Host, first.Host) {
		return fmt.Errorf("refusing to follow a redirect from %s://%s to %s://%s: the request carries a credential",
			first.Scheme, first.Host, req.URL.Scheme, req.URL.Host)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// authRecorder is a reverse proxy in front of the emulator that records the
// Authorization headers the provider sends.
type authRecorder struct {
	mu      sync.Mutex
	headers map[string]int
	proxy   *httputil.ReverseProxy
}

func newAuthRecorder(t *testing.T, target string) (*httptest.Server, *authRecorder) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	r := &authRecorder{headers: map[string]int{}, proxy: httputil.NewSingleHostReverseProxy(u)}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv, r
}

func (r *authRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.headers[req.Header.Get("Authorization")]++
	r.mu.Unlock()
	r.proxy.ServeHTTP(w, req)
}

func (r *authRecorder) count(header string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.headers[header]
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// tokenServer is a fake OAuth 2.0 token endpoint for service account keys: it
// answers every JWT-bearer grant with token and records the assertions.
func tokenServer(t *testing.T, token string) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var assertions []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if err := req.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		assertions = append(assertions, req.PostForm.Get("assertion"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), assertions...)
	}
}

// serviceAccountKey returns a service account key file whose token_uri is
// tokenURL, and the secrets it holds: the private key id and a line of the
// private key.
func serviceAccountKey(t *testing.T, tokenURL string) (keyJSON []byte, secrets []string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	keyID := randomHex(t, 20)
	keyJSON, err = json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     acctest.EmulatorProject,
		"private_key_id": keyID,
		"private_key":    keyPEM,
		"client_email":   "leak-test@" + acctest.EmulatorProject + ".iam.gserviceaccount.com",
		"client_id":      "100000000000000000001",
		"token_uri":      tokenURL,
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(keyPEM, "\n")
	// Lines 1 and 2 of the base64 body: 128 characters of key material.
	return keyJSON, []string{keyID, lines[1], lines[2]}
}

// workspace runs the CLI in dir with env, logging at trace level to logPath.
type workspace struct {
	t       *testing.T
	dir     string
	tf      string
	env     []string
	logPath string
	// outputs collects every command's stdout and stderr.
	outputs bytes.Buffer
}

func (w *workspace) run(args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.tf, args...)
	cmd.Dir = w.dir
	cmd.Env = append(append([]string(nil), w.env...), "TF_LOG=trace", "TF_LOG_PATH="+w.logPath)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	w.outputs.Write(stdout.Bytes())
	w.outputs.Write(stderr.Bytes())
	if err != nil {
		w.t.Fatalf("terraform %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// resources are the configuration's resources, data sources and function
// calls: each resource and data source calls an API through the provider's
// credential; the functions answer from the catalog.
func resources(tg *acctest.Target, prefix string) string {
	return fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
}

resource "accel_fallback_nodepools" "test" {
  cluster       = %[2]q
  compute_class = %[3]q
  tiers {
    name             = %[4]q
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
  }
}

data "accel_runtime_version" "test" {
  accelerator_type = "v5litepod-4"
  zone             = %[5]q
}

data "accel_hardware_path" "test" {
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "g2-standard-8" }
}

data "accel_compute_class" "test" {
  name    = %[6]q
  cluster = %[2]q
  priority { accelerator_type = "v6e-4" }
}

output "functions" {
  value = [
    provider::accel::accelerator("v6e-16").topology,
    provider::accel::gpu("a3-highgpu-8g").gpu_type,
    provider::accel::runtime_version("v6e-4", "jax"),
    provider::accel::tpu_api_type("v5litepod-16"),
    provider::accel::tpu_placement("v6e-16").topology,
  ]
}
`, prefix+"-vm", tg.Cluster, prefix+"-class", prefix+"-np", tg.Zone, prefix+"-cc")
}

// credential is one way of configuring the provider's credential.
type credential struct {
	// arg is the provider argument, reading the secret from a file so that
	// the configuration itself holds no secret; env, the environment
	// variables that set the credential instead.
	arg string
	env []string
	// unsent is set for a credential the provider must not send to the
	// plain http:// loopback endpoints the test uses: Application Default
	// Credentials go only over https:// (an explicit credential also goes
	// to a loopback emulator).
	unsent bool
	// header is the Authorization header every API call must carry.
	header string
	// secrets must not appear anywhere.
	secrets []string
	// assertions, when set, returns the signed JWT assertions the token
	// endpoint received: secrets too.
	assertions func() []string
}

func accessToken(t *testing.T, dir string) credential {
	token := "ya29." + randomHex(t, 32)
	if err := os.WriteFile(filepath.Join(dir, "token.txt"), []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	return credential{
		arg:     `access_token = trimspace(file("${path.module}/token.txt"))`,
		header:  "Bearer " + token,
		secrets: []string{token},
	}
}

func serviceAccount(t *testing.T, dir string) credential {
	token := "ya29.c." + randomHex(t, 32)
	srv, assertions := tokenServer(t, token)
	keyJSON, secrets := serviceAccountKey(t, srv.URL+"/token")
	if err := os.WriteFile(filepath.Join(dir, "key.json"), keyJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	return credential{
		arg:        `credentials = file("${path.module}/key.json")`,
		header:     "Bearer " + token,
		secrets:    append(secrets, token),
		assertions: assertions,
	}
}

// envAccessToken sets the access token with GOOGLE_OAUTH_ACCESS_TOKEN.
func envAccessToken(t *testing.T, dir string) credential {
	c := accessToken(t, dir)
	c.env, c.arg = []string{"GOOGLE_OAUTH_ACCESS_TOKEN=" + c.secrets[0]}, ""
	return c
}

// envCredentials sets the service account key's JSON with GOOGLE_CREDENTIALS.
func envCredentials(t *testing.T, dir string) credential {
	c := serviceAccount(t, dir)
	keyJSON, err := os.ReadFile(filepath.Join(dir, "key.json"))
	if err != nil {
		t.Fatal(err)
	}
	c.env, c.arg = []string{"GOOGLE_CREDENTIALS=" + string(keyJSON)}, ""
	return c
}

// applicationDefault points GOOGLE_APPLICATION_CREDENTIALS at the key file:
// Application Default Credentials, which never go over plain http://.
func applicationDefault(t *testing.T, dir string) credential {
	c := serviceAccount(t, dir)
	c.env, c.arg, c.unsent = []string{"GOOGLE_APPLICATION_CREDENTIALS=" + filepath.Join(dir, "key.json")}, "", true
	return c
}

func TestAccSecrets_notLeaked(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("the secrets are fake: they only work against the emulator")
	}
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)

	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) credential
	}{
		{name: "access_token", setup: accessToken},
		{name: "credentials_json", setup: serviceAccount},
		{name: "GOOGLE_OAUTH_ACCESS_TOKEN", setup: envAccessToken},
		{name: "GOOGLE_CREDENTIALS", setup: envCredentials},
		{name: "GOOGLE_APPLICATION_CREDENTIALS", setup: applicationDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "uses fake credentials that only the emulator accepts")
			dir := t.TempDir()
			cred := tt.setup(t, dir)
			proxy, rec := newAuthRecorder(t, tg.Emulator.URL())
			prefix := acctest.RandomName("sec")
			provider := fmt.Sprintf(`provider "accel" {
  project            = %q
  zone               = %q
  tpu_endpoint       = "%s/"
  container_endpoint = "%s/"
  compute_endpoint   = "%s/compute/v1/"
  poll_interval      = "100ms"
  %s
}
`, tg.Project, tg.Zone, proxy.URL, proxy.URL, proxy.URL, cred.arg)
			cfg := "terraform {\n  required_providers {\n    accel = { source = \"accel-dev/accel\" }\n  }\n}\n\n" +
				provider + resources(tg, prefix)
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			// Every other host is a recording proxy: a request that leaves
			// the loopback endpoints is seen there, and goes no further.
			elsewhere := &recordingProxy{}
			other := httptest.NewServer(elsewhere)
			t.Cleanup(other.Close)
			w := &workspace{t: t, dir: dir, tf: tf, env: append(slices.Concat(env, cred.env), proxyEnv(other.URL)...),
				logPath: filepath.Join(dir, "trace.log")}

			w.run("plan", "-input=false", "-no-color", "-out=tfplan")
			planJSON := w.run("show", "-json", "-no-color", "tfplan")
			w.run("apply", "-input=false", "-no-color", "tfplan")
			stateJSON := w.run("show", "-json", "-no-color")
			rawState, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			w.run("plan", "-input=false", "-no-color", "-refresh-only")
			w.run("destroy", "-auto-approve", "-input=false", "-no-color")

			if got := elsewhere.seen(); len(got) > 0 {
				t.Errorf("requests went to other hosts: %q", got)
			}
			secrets := slices.Clone(cred.secrets)
			var issued []string
			if cred.assertions != nil {
				issued = cred.assertions()
				secrets = append(secrets, issued...)
			}
			switch {
			case cred.unsent:
				if n := rec.count(cred.header); n > 0 {
					t.Errorf("%d API calls over plain http:// carried Application Default Credentials", n)
				}
				if len(issued) > 0 {
					t.Errorf("the key of Application Default Credentials was used (%d token requests) for plain http:// endpoints", len(issued))
				}
				if rec.count("") == 0 {
					t.Fatal("no API call was made: the test would prove nothing")
				}
			default:
				if n := rec.count(cred.header); n == 0 {
					t.Fatalf("no API call carried the configured credential (%d calls without one): the test would prove nothing",
						rec.count(""))
				}
				if n := rec.count(""); n > 0 {
					t.Errorf("%d API calls carried no credential", n)
				}
				if cred.assertions != nil && (len(issued) == 0 || slices.Contains(issued, "")) {
					t.Errorf("token requests %q: want at least one, each with a JWT assertion", issued)
				}
			}

			traceLog, err := os.ReadFile(w.logPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(traceLog, []byte("tf_rpc=ApplyResourceChange")) {
				t.Fatal("the trace log has no provider RPCs: TF_LOG=trace did not reach the provider")
			}
			where := map[string][]byte{
				"TF_LOG=trace log":            traceLog,
				"terraform show -json (plan)": []byte(planJSON),
				"terraform show -json":        []byte(stateJSON),
				"terraform.tfstate":           rawState,
				"CLI output":                  w.outputs.Bytes(),
			}
			for place, content := range where {
				// The places hold what the provider handled: the names it created.
				if !bytes.Contains(content, []byte(prefix+"-vm")) {
					t.Errorf("the %s does not mention %s: it is not a place the provider's data reaches", place, prefix+"-vm")
				}
				for _, s := range secrets {
					if bytes.Contains(content, []byte(s)) {
						t.Errorf("a secret (%d characters, starting %q) appears in the %s", len(s), s[:6], place)
					}
				}
			}
			t.Logf("security: credential=%s secrets_checked=%d places=%d trace_log_bytes=%d api_calls_with_credential=%d",
				tt.name, len(secrets), len(where), len(traceLog), rec.count(cred.header))
		})
	}
}

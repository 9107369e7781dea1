// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package security_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// refusingAPI answers every request as Google does for a token it does not
// accept.
func refusingAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte(`{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}`))
}

// refusingTokenEndpoint answers every grant as Google's token endpoint does
// for a key it does not accept.
func refusingTokenEndpoint(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"Invalid JWT Signature."}`))
}

// TestAccSecrets_notLeakedOnFailure: when a credential is refused or cannot
// be loaded, the apply fails with an error that says why, and the secret
// appears neither in the output nor in the TF_LOG=trace log.
func TestAccSecrets_notLeakedOnFailure(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("the secrets are fake: they only work against the emulator")
	}
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	for _, tc := range []struct {
		name string
		// setup returns the provider arguments, the environment and the
		// secrets.
		setup func(t *testing.T, tg *acctest.Target, dir string) (args string, env, secrets []string)
		want  string
	}{
		{name: "the API refuses the token", want: `HTTP 401|UNAUTHENTICATED|invalid authentication credentials`,
			setup: func(t *testing.T, _ *acctest.Target, dir string) (string, []string, []string) {
				c := accessToken(t, dir)
				srv := httptest.NewServer(http.HandlerFunc(refusingAPI))
				t.Cleanup(srv.Close)
				return endpoints(srv.URL) + c.arg, nil, c.secrets
			}},
		{name: "the token endpoint refuses the key", want: `invalid_grant`,
			setup: func(t *testing.T, tg *acctest.Target, dir string) (string, []string, []string) {
				srv := httptest.NewServer(http.HandlerFunc(refusingTokenEndpoint))
				t.Cleanup(srv.Close)
				keyJSON, secrets := serviceAccountKey(t, srv.URL+"/token")
				return endpoints(tg.Emulator.URL()), []string{"GOOGLE_CREDENTIALS=" + string(keyJSON)}, secrets
			}},
		{name: "a secret that is neither JSON nor a file", want: `neither JSON .* nor a readable file|does not exist`,
			setup: func(t *testing.T, tg *acctest.Target, _ string) (string, []string, []string) {
				secret := "ya29." + randomHex(t, 32)
				return endpoints(tg.Emulator.URL()), []string{"GOOGLE_CREDENTIALS=" + secret}, []string{secret}
			}},
		{name: "a key whose private key is not one", want: `service_account credentials could not be loaded|private key`,
			setup: func(t *testing.T, tg *acctest.Target, _ string) (string, []string, []string) {
				keyJSON, secrets := serviceAccountKey(t, "http://127.0.0.1:1/token")
				var key map[string]string
				if err := json.Unmarshal(keyJSON, &key); err != nil {
					t.Fatal(err)
				}
				// Key material with its middle line cut: not a key any more.
				lines := strings.Split(key["private_key"], "\n")
				key["private_key"] = strings.Join(slices.Delete(lines, 3, 4), "\n")
				broken, err := json.Marshal(key)
				if err != nil {
					t.Fatal(err)
				}
				return endpoints(tg.Emulator.URL()), []string{"GOOGLE_CREDENTIALS=" + string(broken)}, secrets
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "uses fake credentials that only the emulator accepts")
			dir := t.TempDir()
			args, credEnv, secrets := tc.setup(t, tg, dir)
			args = strings.ReplaceAll(args, "${path.module}", filepath.ToSlash(dir))
			provider := fmt.Sprintf("provider \"accel\" {\n  project = %q\n%s\n}\n", tg.Project, args)
			logPath := filepath.Join(dir, "trace.log")
			w := acctest.NewWorkspace(t, slices.Concat(env, credEnv, []string{"TF_LOG=trace", "TF_LOG_PATH=" + logPath}),
				tf, liveConfig(tg, provider))
			stdout, stderr, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color")
			text := strings.Join(strings.Fields(stdout+stderr), " ")
			if err == nil || !regexp.MustCompile(tc.want).MatchString(text) {
				t.Errorf("apply: %v, want an error matching %s\n%s", err, tc.want, text)
			}
			traceLog, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(traceLog, []byte("tf_rpc=ConfigureProvider")) {
				t.Fatal("the trace log has no provider RPCs: TF_LOG=trace did not reach the provider")
			}
			for place, content := range map[string]string{"output": stdout + stderr, "TF_LOG=trace log": string(traceLog)} {
				for _, s := range secrets {
					if strings.Contains(content, s) {
						t.Errorf("a secret (%d characters, starting %q) appears in the %s", len(s), s[:6], place)
					}
				}
			}
		})
	}
}

// endpoints sets every API endpoint of the provider to url.
func endpoints(url string) string {
	return fmt.Sprintf("  tpu_endpoint       = \"%[1]s/\"\n  container_endpoint = \"%[1]s/\"\n  compute_endpoint   = \"%[1]s/compute/v1/\"\n", url)
}

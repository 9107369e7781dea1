// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package acctest sets up acceptance tests: the provider factories, and the
// target they run against. By default every test starts its own in-process
// emulator of the TPU and GKE APIs and points the provider at it through its
// endpoint arguments only. With ACCEL_ACC_TARGET=sandbox the same tests run
// against a real project named by ACCEL_SANDBOX_PROJECT (see CONTRIBUTING.md).
package acctest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/accel-dev/terraform-provider-accel/internal/devbuild"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
)

// Environment variables that select and describe the target.
const (
	EnvTarget         = "ACCEL_ACC_TARGET" // "emulator" (default) or "sandbox"
	EnvSandboxProject = "ACCEL_SANDBOX_PROJECT"
	EnvSandboxZone    = "ACCEL_SANDBOX_ZONE"
	EnvSandboxCluster = "ACCEL_SANDBOX_CLUSTER"
)

// NamePrefix starts the name of everything the tests create.
const NamePrefix = "tf-acc-"

// EmulatorProject is the project used against the emulator.
const EmulatorProject = "accel-acc"

// ProtoV6ProviderFactories serves the provider in-process for the real CLI.
// Each call builds a new provider instance, as each Terraform run starts a new
// plugin process, so provider-level state never leaks between parallel tests.
var ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"accel": func() (tfprotov6.ProviderServer, error) {
		return provider.NewServer("acctest")
	},
}

// Target is where one test's API calls go.
type Target struct {
	// Emulator is the test's own emulator; nil against a sandbox project.
	Emulator *emulator.Server
	Project  string
	Zone     string
	// Cluster is the id of a GKE Standard cluster for node pool tests.
	Cluster string
}

// Sandbox reports whether tests run against a real project.
func Sandbox() bool { return os.Getenv(EnvTarget) == "sandbox" }

// New returns the test's target, starting an emulator unless a sandbox
// project is selected. The emulator is stopped when the test ends.
func New(t *testing.T, opts ...func(*emulator.Scenario)) *Target {
	t.Helper()
	if Sandbox() {
		p := os.Getenv(EnvSandboxProject)
		if p == "" {
			t.Fatalf("%s=sandbox needs %s", EnvTarget, EnvSandboxProject)
		}
		zone := os.Getenv(EnvSandboxZone)
		if zone == "" {
			zone = "us-east5-b"
		}
		return &Target{Project: p, Zone: zone, Cluster: os.Getenv(EnvSandboxCluster)}
	}
	sc := emulator.Default()
	for _, o := range opts {
		o(sc)
	}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return &Target{
		Emulator: srv,
		Project:  EmulatorProject,
		Zone:     "us-central1-a",
		Cluster:  fmt.Sprintf("projects/%s/locations/us-central1/clusters/serving", EmulatorProject),
	}
}

// RequireEmulatorFor skips the test against a sandbox project. why says
// what only the emulator gives the test: a fault it injects, a change it makes
// behind Terraform's back, or data a real project would not hold (its
// clusters, reservations, service accounts, zone and quota answers). Call it
// from the test function itself with a string literal: CONTRIBUTING.md
// lists every caller with its reason, and a unit test checks the list.
func (tg *Target) RequireEmulatorFor(t *testing.T, why string) {
	t.Helper()
	if tg.Emulator == nil {
		t.Skip("needs the emulator: " + why)
	}
}

// CallCount is how many calls to method (an emulator.Method* name) the
// emulator has served so far, and whether anything counts them: against a
// sandbox project nothing does, so a test keeps its other checks on both
// targets and checks call counts only where counting is true.
func (tg *Target) CallCount(method string) (n int64, counting bool) {
	if tg.Emulator == nil {
		return 0, false
	}
	return tg.Emulator.Counters()[method], true
}

// AssertNoCalls fails the test if the emulator served any call to method.
// Against a sandbox project it checks nothing (see CallCount).
func (tg *Target) AssertNoCalls(t *testing.T, method string) {
	t.Helper()
	if n, counting := tg.CallCount(method); counting && n != 0 {
		t.Errorf("%s called %d times, want 0", method, n)
	}
}

// RequireCluster skips node pool tests when the sandbox names no cluster.
func (tg *Target) RequireCluster(t *testing.T) {
	t.Helper()
	if tg.Cluster == "" {
		t.Skipf("set %s to run node pool tests against a sandbox project", EnvSandboxCluster)
	}
}

// ProviderConfig is the provider block for the target.
func (tg *Target) ProviderConfig() string {
	var b strings.Builder
	b.WriteString("provider \"accel\" {\n")
	fmt.Fprintf(&b, "  project = %q\n", tg.Project)
	fmt.Fprintf(&b, "  zone    = %q\n", tg.Zone)
	if tg.Emulator != nil {
		fmt.Fprintf(&b, "  tpu_endpoint       = %q\n", tg.Emulator.TPUEndpoint())
		fmt.Fprintf(&b, "  container_endpoint = %q\n", tg.Emulator.ContainerEndpoint())
		fmt.Fprintf(&b, "  compute_endpoint   = %q\n", tg.Emulator.ComputeEndpoint())
		b.WriteString("  poll_interval      = \"100ms\"\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// Config joins the provider block and the test's configuration.
func (tg *Target) Config(body string) string { return tg.ProviderConfig() + "\n" + body }

// ConfigWithDefaultLabels is Config with the provider's default_labels set.
func (tg *Target) ConfigWithDefaultLabels(labels map[string]string, body string) string {
	keys := slices.Sorted(maps.Keys(labels))
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(tg.ProviderConfig(), "}\n"))
	b.WriteString("  default_labels = {\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "    %q = %q\n", k, labels[k])
	}
	b.WriteString("  }\n}\n")
	return b.String() + "\n" + body
}

// OfflineProviderConfig is a provider block with no credentials and no
// endpoint: what `terraform plan` in CI without cloud access sees.
const OfflineProviderConfig = "provider \"accel\" {}\n"

// RandomName returns NamePrefix, then prefix, then a random suffix, within
// the TPU and GKE name rules (lowercase letters, digits and dashes).
func RandomName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return NamePrefix + prefix + "-" + hex.EncodeToString(b)
}

// Offline clears every environment variable through which the provider could
// find a project, credentials or an endpoint, and hides gcloud's
// application-default credentials: what a CI job without cloud access sees.
// Tests that call it cannot be parallel.
func Offline(t *testing.T) {
	t.Helper()
	for _, v := range []string{
		"GOOGLE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT",
		"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON", "GOOGLE_OAUTH_ACCESS_TOKEN",
		"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT",
		"ACCEL_TPU_ENDPOINT", "ACCEL_CONTAINER_ENDPOINT", "ACCEL_COMPUTE_ENDPOINT", "ACCEL_VALIDATION",
	} {
		t.Setenv(v, "")
	}
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
	NoMetadataServer(t)
}

// NoMetadataServer points Google's credential lookup at a loopback server
// that is no metadata server (devbuild.NoMetadataHost), as off Google
// Cloud: a lookup then finds no credentials without a packet to
// 169.254.169.254 or a DNS query for metadata.google.internal. Tests that
// call it cannot be parallel.
func NoMetadataServer(t *testing.T) {
	t.Helper()
	t.Setenv(devbuild.MetadataHostEnv, devbuild.NoMetadataHost())
}

// WithoutComputeEndpoint is the target's provider block without
// compute_endpoint: the TPU and GKE APIs are reachable, Compute Engine is
// not (with Offline, no credential reaches it either).
func (tg *Target) WithoutComputeEndpoint() string {
	var kept []string
	for _, l := range strings.SplitAfter(tg.ProviderConfig(), "\n") {
		if !strings.Contains(l, "compute_endpoint") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "")
}

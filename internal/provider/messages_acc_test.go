// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// forever is a fault count no test reaches.
const forever = 1 << 30

// closedEndpoint returns the URL of a loopback port nothing listens on: a
// connection there is refused.
func closedEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/"
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return endpoint
}

// withSetting is the target's provider block with setting set to value.
func withSetting(tg *acctest.Target, setting, value string) string {
	lines := strings.SplitAfter(tg.ProviderConfig(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), setting+" ") {
			lines[i] = fmt.Sprintf("  %s = %q\n", setting, value)
		}
	}
	return strings.Join(lines, "")
}

// message is what the CLI printed to standard error, its words joined by
// single spaces (the CLI wraps long lines), and how many errors it holds.
type message struct {
	raw, text string
	errors    int
}

func messageOf(stderr string) message {
	text := strings.Join(strings.Fields(stderr), " ")
	return message{raw: stderr, text: text, errors: strings.Count(text, "Error: ")}
}

// expect fails the test unless the message has exactly one error and
// contains every phrase in want and none in unwanted.
func (m message) expect(t *testing.T, want, unwanted []string) {
	t.Helper()
	if m.errors != 1 {
		t.Errorf("%d errors, want 1", m.errors)
	}
	for _, w := range want {
		if !strings.Contains(m.text, w) {
			t.Errorf("the output does not contain %q", w)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(m.text, u) {
			t.Errorf("the output contains %q", u)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", m.raw)
	}
}

// apply runs terraform apply in w and returns its message; the apply must
// fail.
func apply(t *testing.T, w *acctest.Workspace) message {
	t.Helper()
	stdout, stderr, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color")
	if err == nil {
		t.Fatalf("terraform apply succeeded:\n%s", stdout)
	}
	return messageOf(stderr)
}

// tpuVM is an accel_tpu_vm the emulator accepts; extra goes inside it.
func tpuVM(tg *acctest.Target, name, extra string) string {
	return fmt.Sprintf(`resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = "v5litepod-4"
%s}
`, name, tg.Zone, extra)
}

// nodePools is an accel_fallback_nodepools with one GPU tier on cluster;
// extra goes inside it.
func nodePools(cluster, name, extra string) string {
	return fmt.Sprintf(`resource "accel_fallback_nodepools" "test" {
  cluster       = %q
  compute_class = %q
%s
  tiers {
    name           = %q
    machine_type   = "g2-standard-4"
    node_locations = ["us-central1-a"]
  }
}
`, cluster, name, extra, name)
}

// maxErrorLines bounds the lines of one error about a failing API call:
// the summary, the configuration excerpt, the message, and the advice (the
// API's JSON details took 15 and more lines on their own).
const maxErrorLines = 15

// apiDetails are phrases of the Google API's JSON error body, which a
// compact message leaves out.
var apiDetails = []string{"@type", "details", "google.rpc", "requestId", `"code"`, `"message"`, `"status"`}

// TestAccProvider_wrongEnvironmentMessages runs the real CLI against
// environments that are wrong in one way each, and checks that the user
// sees one error that names the cause (the setting and its environment
// variable, what came back) in a few lines, and no claim that something
// ran when nothing did.
func TestAccProvider_wrongEnvironmentMessages(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)

	t.Run("closed tpu_endpoint", func(t *testing.T) {
		t.Parallel()
		tg := acctest.New(t)
		tg.RequireEmulatorFor(t, "points an endpoint at a closed port in place of the target's")
		closed := closedEndpoint(t)
		cfg := withSetting(tg, "tpu_endpoint", closed) + tpuVM(tg, "tf-acc-closed", "")
		m := apply(t, acctest.NewWorkspace(t, env, tf, cfg))
		m.expect(t, []string{"could not be reached", closed, "tpu_endpoint", "ACCEL_TPU_ENDPOINT"}, nil)
	})

	t.Run("closed container_endpoint", func(t *testing.T) {
		t.Parallel()
		tg := acctest.New(t)
		tg.RequireEmulatorFor(t, "points an endpoint at a closed port in place of the target's")
		closed := closedEndpoint(t)
		cfg := withSetting(tg, "container_endpoint", closed) + nodePools(tg.Cluster, "tf-acc-closed", "")
		m := apply(t, acctest.NewWorkspace(t, env, tf, cfg))
		m.expect(t, []string{"could not be reached", closed, "container_endpoint", "ACCEL_CONTAINER_ENDPOINT"},
			[]string{"operations ran", "may have started", "What exists is recorded"})
	})

	t.Run("cluster does not exist", func(t *testing.T) {
		t.Parallel()
		tg := acctest.New(t)
		tg.RequireEmulatorFor(t, "names a cluster in the emulator's project that does not exist")
		missing := fmt.Sprintf("projects/%s/locations/us-central1/clusters/tf-acc-missing", tg.Project)
		m := apply(t, acctest.NewWorkspace(t, env, tf, tg.Config(nodePools(missing, "tf-acc-missing", ""))))
		m.expect(t, []string{"Error: GKE Cluster Not Found", missing, "projects/PROJECT/locations/LOCATION/clusters/NAME"},
			[]string{"operations ran", "may have started", "What exists is recorded"})
	})

	short := "  timeouts {\n    create = \"1s\"\n  }\n"
	apis := []struct {
		name, method string
		config       func(tg *acctest.Target) string
	}{
		{"TPU API", emulator.MethodTPUNodesCreate, func(tg *acctest.Target) string { return tpuVM(tg, "tf-acc-busy", short) }},
		{"GKE API", emulator.MethodNodePoolsCreate, func(tg *acctest.Target) string { return nodePools(tg.Cluster, "tf-acc-busy", short) }},
	}
	for _, tc := range []struct {
		code    int
		summary string
	}{
		{429, "HTTP 429 RESOURCE_EXHAUSTED"},
		{503, "HTTP 503 UNAVAILABLE: The service is currently unavailable."},
	} {
		for _, api := range apis {
			t.Run(fmt.Sprintf("%s answers %d", api.name, tc.code), func(t *testing.T) {
				t.Parallel()
				tg := acctest.New(t)
				tg.RequireEmulatorFor(t, "injects 429 and 503 answers")
				if err := tg.Emulator.FailNext(api.method, forever, tc.code); err != nil {
					t.Fatal(err)
				}
				m := apply(t, acctest.NewWorkspace(t, env, tf, tg.Config(api.config(tg))))
				m.expect(t, []string{tc.summary}, apiDetails)
				if lines := len(strings.Split(strings.TrimSpace(m.raw), "\n")); lines > maxErrorLines {
					t.Errorf("the error takes %d lines, want at most %d", lines, maxErrorLines)
				}
			})
		}
	}
}

// TestAccProvider_longListMessages plans a TPU VM and a node pool tier
// whose zone list has 50 wrong entries: the CLI shows one error per cause
// (no summary twice), names each value once outside the configuration
// excerpt, and stays short (it printed 46 KB when each element had its own
// error repeating the whole list).
func TestAccProvider_longListMessages(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	var zones []string
	for i := range 25 {
		zones = append(zones, fmt.Sprintf("nowhere%d", i), fmt.Sprintf("us-central1-q%d", i))
	}
	list := "[\n    \"" + strings.Join(zones, "\",\n    \"") + "\",\n  ]"
	cases := map[string]string{
		"accel_tpu_vm zones": `resource "accel_tpu_vm" "test" {
  name             = "tf-acc-zones"
  accelerator_type = "v5litepod-4"
  zones            = %[2]s
}
`,
		"accel_fallback_nodepools node_locations": `resource "accel_fallback_nodepools" "test" {
  cluster       = %[1]q
  compute_class = "zones"
  tiers {
    name           = "gpu"
    machine_type   = "g2-standard-4"
    node_locations = %[2]s
  }
}
`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tg := acctest.New(t)
			w := acctest.NewWorkspace(t, env, tf, tg.Config(fmt.Sprintf(body, tg.Cluster, list)))
			_, stderr, err := w.Run("plan", "-input=false", "-no-color")
			if err == nil {
				t.Fatal("the plan succeeded")
			}
			checkListMessage(t, stderr, zones)
		})
	}
}

// checkListMessage checks the CLI's errors about the list values: one
// error per summary, each value named once in the diagnostics' text (the
// configuration excerpt, lines numbered "N:", aside) but for the one each
// error explains, at most maxListOutput bytes in all.
func checkListMessage(t *testing.T, stderr string, values []string) {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("output (%d bytes):\n%s", len(stderr), stderr)
		}
	}()
	if len(stderr) > maxListOutput {
		t.Errorf("the output has %d bytes, want at most %d", len(stderr), maxListOutput)
	}
	var text []string
	summaries := map[string]int{}
	for _, l := range strings.Split(stderr, "\n") {
		if excerptLine.MatchString(l) {
			continue
		}
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "Error: "); ok {
			summaries[s]++
		}
		text = append(text, l)
	}
	if len(summaries) == 0 {
		t.Error("no error")
	}
	for s, n := range summaries {
		if n > 1 {
			t.Errorf("%d errors %q, want one for the cause", n, s)
		}
	}
	joined := strings.Join(strings.Fields(strings.Join(text, " ")), " ")
	total := 0
	for _, v := range values {
		n := strings.Count(joined, `"`+v+`"`)
		if n < 1 || n > 2 {
			t.Errorf("%q named %d times, want once (twice if an error explains it)", v, n)
		}
		total += n
	}
	if errs := len(summaries); total > len(values)+errs {
		t.Errorf("the values are named %d times in %d errors, want at most %d", total, errs, len(values)+errs)
	}
}

// maxListOutput bounds the CLI's output for a 50-element list with a few
// causes: the configuration excerpt of 50 lines for each error, and the
// values once.
const maxListOutput = 8 << 10

// excerptLine matches a line of the configuration excerpt the CLI shows
// with a diagnostic ("  19:   zones = [").
var excerptLine = regexp.MustCompile(`^\s*\d+: `)

// TestAccProvider_importIDNotUTF8: an import id with bytes that are not
// UTF-8 never reaches the provider through the Terraform CLI, which cannot
// send it (gRPC strings are UTF-8) and says so itself. Sent by any other
// client through the protocol, the provider answers "Invalid Import ID" in
// a diagnostic that is valid UTF-8 (one that is not would fail the answer's
// marshalling instead).
func TestAccProvider_importIDNotUTF8(t *testing.T) {
	env := acctest.DevInstall(t)
	tf := acctest.TerraformPath(t)
	ids := map[string]string{
		"accel_tpu_vm":             "projects/p/locations/us-central1-a/nodes/tpu-\xff\xfe",
		"accel_fallback_nodepools": "projects/p/locations/us-central1/clusters/c/nodePools/gpu-\xff",
	}
	tg := acctest.New(t)
	for typeName, id := range ids {
		t.Run(typeName+" through the CLI", func(t *testing.T) {
			cfg := tg.Config(tpuVM(tg, "tf-acc-import", "") + nodePools(tg.Cluster, "tf-acc-import", ""))
			stdout, stderr, err := acctest.NewWorkspace(t, env, tf, cfg).Run("import", "-input=false", "-no-color", typeName+".test", id)
			if err == nil {
				t.Fatalf("terraform import succeeded:\n%s", stdout)
			}
			m := messageOf(stderr)
			m.expect(t, []string{"Error: Plugin error", "ImportResourceState", "string field contains invalid UTF-8"}, nil)
		})
		t.Run(typeName+" through the protocol", func(t *testing.T) {
			srv, err := acctest.ProtoV6ProviderFactories["accel"]()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.ImportResourceState(t.Context(), &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
			if err != nil {
				t.Fatal(err)
			}
			var summaries []string
			for _, d := range resp.Diagnostics {
				summaries = append(summaries, d.Summary)
				if !utf8.ValidString(d.Summary) || !utf8.ValidString(d.Detail) {
					t.Errorf("diagnostic %q is not valid UTF-8: %q", d.Summary, d.Detail)
				}
			}
			if len(summaries) != 1 || summaries[0] != "Invalid Import ID" {
				t.Errorf("diagnostics %q, want one \"Invalid Import ID\"", summaries)
			}
			if len(resp.ImportedResources) != 0 {
				t.Errorf("%d resources imported, want none", len(resp.ImportedResources))
			}
		})
	}
}

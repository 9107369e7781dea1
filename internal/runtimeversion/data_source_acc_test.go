// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// offlineEnv: see acctest.Offline.
func offlineEnv(t *testing.T) { acctest.Offline(t) }

// words matches s with any run of white space between words, as Terraform
// wraps diagnostic text.
func words(s string) *regexp.Regexp {
	parts := strings.Fields(s)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, `\s+`))
}

func attr(name, key string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.accel_runtime_version."+name, tfjsonpath.New(key), check)
}

func TestAccRuntimeVersion_everyGeneration(t *testing.T) {
	type want struct {
		runtime, generation, topology string
		chips, hosts                  int64
		multiHost, tpuAPI             bool
		gkeMachine, gkeAccelerator    string // "" means null
		candidates                    []string
	}
	cases := []struct {
		name string
		hcl  string
		want want
	}{
		{"v2", `accelerator_type = "v2-8"`,
			want{"tpu-ubuntu2204-base", "v2", "2x2", 4, 1, false, true, "", "", []string{"tpu-ubuntu2204-base"}}},
		{"v3", "accelerator_type = \"v3-32\"\n  framework = \"tensorflow\"\n  framework_version = \"2.14.1\"",
			want{"tpu-vm-tf-2.14.1-pod", "v3", "4x4", 16, 4, true, true, "ct3p-hightpu-4t", "tpu-v3-slice", []string{"tpu-vm-tf-2.14.1-pod"}}},
		{"v4", "accelerator_type = \"v4-8\"\n  framework = \"jax\"",
			want{"tpu-ubuntu2204-base", "v4", "2x2x1", 4, 1, false, true, "ct4p-hightpu-4t", "tpu-v4-podslice", []string{"tpu-ubuntu2204-base"}}},
		{"v5e", "accelerator_type = \"v5litepod-4\"\n  framework = \"pytorch\"\n  framework_version = \"2.8.0\"",
			want{"v2-alpha-tpuv5-lite", "v5e", "2x2", 4, 1, false, true, "ct5lp-hightpu-4t", "tpu-v5-lite-podslice", []string{"v2-alpha-tpuv5-lite"}}},
		{"v5p", "accelerator_type = \"v5p-16\"\n  runtime_version = \"v2-alpha-tpuv5\"",
			want{"v2-alpha-tpuv5", "v5p", "2x2x2", 8, 2, true, true, "ct5p-hightpu-4t", "tpu-v5p-slice", []string{"v2-alpha-tpuv5"}}},
		{"v6e", "accelerator_type = \"v6e-16\"\n  framework = \"tensorflow\"\n  runtime_version = \"tpu-vm-tf-2.18.0-pod-pjrt\"",
			want{"tpu-vm-tf-2.18.0-pod-pjrt", "v6e", "4x4", 16, 4, true, true, "ct6e-standard-4t", "tpu-v6e-slice", nil}},
		{"tpu7x", "accelerator_type = \"tpu7x-8\"\n  framework = \"jax\"",
			want{"v2-alpha-tpu7-ubuntu2404", "tpu7x", "2x2x1", 4, 1, false, false, "tpu7x-standard-4t", "tpu7x", []string{"v2-alpha-tpu7-ubuntu2404"}}},
	}
	if got, want := len(cases), len(catalog.Default().GenerationNames()); got != want {
		t.Fatalf("%d generations covered, the catalog has %d", got, want)
	}
	var config strings.Builder
	config.WriteString(acctest.OfflineProviderConfig)
	var checks []statecheck.StateCheck
	version := catalog.Default().Version()
	for _, c := range cases {
		fmt.Fprintf(&config, "\ndata \"accel_runtime_version\" %q {\n  %s\n}\n", c.name, c.hcl)
		w := c.want
		optional := func(s string) knownvalue.Check {
			if s == "" {
				return knownvalue.Null()
			}
			return knownvalue.StringExact(s)
		}
		checks = append(checks,
			attr(c.name, "runtime_version", knownvalue.StringExact(w.runtime)),
			attr(c.name, "generation", knownvalue.StringExact(w.generation)),
			attr(c.name, "topology", knownvalue.StringExact(w.topology)),
			attr(c.name, "chips", knownvalue.Int64Exact(w.chips)),
			attr(c.name, "hosts", knownvalue.Int64Exact(w.hosts)),
			attr(c.name, "multi_host", knownvalue.Bool(w.multiHost)),
			attr(c.name, "tpu_api_supported", knownvalue.Bool(w.tpuAPI)),
			attr(c.name, "gke_machine_type", optional(w.gkeMachine)),
			attr(c.name, "gke_accelerator", optional(w.gkeAccelerator)),
			attr(c.name, "reason", knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`"`+w.runtime+`"`)))),
			attr(c.name, "catalog_version", knownvalue.StringExact(version)),
			attr(c.name, "id", knownvalue.StringExact(strings.Split(strings.Split(c.hcl, "\"")[1], "\"")[0]+"/"+w.runtime)),
		)
		if w.candidates != nil {
			var cands []knownvalue.Check
			for _, s := range w.candidates {
				cands = append(cands, knownvalue.StringExact(s))
			}
			checks = append(checks, attr(c.name, "candidates", knownvalue.ListExact(cands)))
		} else {
			checks = append(checks, attr(c.name, "candidates", knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringExact(w.runtime)})))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config.String(),
			ConfigStateChecks: checks,
		}},
	})
}

// TestAccRuntimeVersion_offlinePlan plans with no project, credentials or
// endpoint at all: valid input succeeds (zone included), invalid input fails.
func TestAccRuntimeVersion_offlinePlan(t *testing.T) {
	offlineEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PlanOnly: true,
				Config: acctest.OfflineProviderConfig + `
data "accel_runtime_version" "serve" {
  accelerator_type = "v6e-8"
  framework        = "vllm"
  zone             = "us-east5-b"
}
`,
			},
			{
				PlanOnly: true,
				Config: acctest.OfflineProviderConfig + `
data "accel_runtime_version" "serve" {
  accelerator_type = "v6e-8"
  framework        = "vllm"
  zone             = "us-east5-b"
  runtime_version  = "v2-alpha-tpuv5-lite"
}
`,
				ExpectError: words(`"v2-alpha-tpuv5-lite" does not support v6e; use "v2-alpha-tpuv6e".`),
			},
		},
	})
}

func TestAccRuntimeVersion_misconfigurations(t *testing.T) {
	tests := map[string]struct {
		hcl  string
		want *regexp.Regexp
	}{
		"runtime for another generation": {
			hcl:  "accelerator_type = \"v6e-4\"\n  runtime_version = \"tpu-ubuntu2204-base\"",
			want: words(`Runtime Version Does Not Support Generation`),
		},
		"legacy runtime for another generation": {
			hcl:  "accelerator_type = \"v5p-8\"\n  runtime_version = \"tpu-vm-v4-base\"",
			want: words(`"tpu-vm-v4-base" does not support v5p; use "v2-alpha-tpuv5".`),
		},
		"empty accelerator type": {
			hcl:  `accelerator_type = ""`,
			want: words(`Empty Value`),
		},
		"size that does not exist": {
			hcl:  `accelerator_type = "v5litepod-3"`,
			want: words(`"v5litepod-3" is not a v5e size`),
		},
		"v5p size beyond the cubes": {
			hcl:  `accelerator_type = "v5p-100"`,
			want: words(`Invalid TPU Accelerator Type`),
		},
		"unsupported framework": {
			hcl:  "accelerator_type = \"v6e-4\"\n  framework = \"mxnet\"",
			want: words(`"mxnet" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu".`),
		},
		"framework version too old for the generation": {
			hcl:  "accelerator_type = \"v6e-4\"\n  framework = \"tensorflow\"\n  framework_version = \"2.12.0\"",
			want: words(`TensorFlow 2.12.0 is below 2.15.0, the minimum TensorFlow version on v6e`),
		},
		"framework version without a runtime": {
			hcl:  "accelerator_type = \"v3-8\"\n  framework = \"tensorflow\"\n  framework_version = \"2.5.0\"",
			want: words(`Unsupported TensorFlow Version`),
		},
		"tensorflow multi-host runtime without -pod": {
			hcl:  "accelerator_type = \"v6e-16\"\n  runtime_version = \"tpu-vm-tf-2.16.1-pjrt\"",
			want: words(`"tpu-vm-tf-2.16.1-pjrt" is for single-host slices, but v6e-16 spans 4 hosts; use "tpu-vm-tf-2.16.1-pod-pjrt".`),
		},
		"tensorflow runtime without device API suffix": {
			hcl:  "accelerator_type = \"v5litepod-8\"\n  runtime_version = \"tpu-vm-tf-2.16.1\"",
			want: words(`lacks the device API suffix`),
		},
		"v5p beyond its largest slice": {
			hcl:  `accelerator_type = "v5p-16384"`,
			want: words(`up to v5p-12288`),
		},
		"malformed zone": {
			hcl:  "accelerator_type = \"v6e-4\"\n  zone = \"us-central1\"",
			want: words(`"us-central1" is a region, not a zone`),
		},
		"tpu7x with tensorflow": {
			hcl:  "accelerator_type = \"tpu7x-8\"\n  framework = \"tensorflow\"",
			want: words(`TensorFlow is not supported on tpu7x; use JAX, PyTorch/XLA, vLLM (vLLM JAX) or vLLM (PyTorch-native TPU).`),
		},
		"accelerator type in upper case": {
			hcl:  `accelerator_type = "V6E-4"`,
			want: words(`did you mean "v6e-4"?`),
		},
		"generation alias instead of the API name": {
			hcl:  `accelerator_type = "v5e-8"`,
			want: words(`did you mean "v5litepod-8"?`),
		},
		"framework in upper case": {
			hcl:  "accelerator_type = \"v6e-4\"\n  framework = \"JAX\"",
			want: words(`did you mean "jax"?`),
		},
		"runtime version in the wrong case": {
			hcl:  "accelerator_type = \"v6e-4\"\n  runtime_version = \"V2-alpha-tpuv6e\"",
			want: words(`did you mean "v2-alpha-tpuv6e"?`),
		},
		"unknown validation mode": {
			hcl:  "accelerator_type = \"v6e-4\"\n  validation = \"lenient\"",
			want: words(`value must be one of: ["strict" "warn"]`),
		},
	}
	cases := map[string]acctest.PlanErrorCase{}
	for name, tc := range tests {
		cases[name] = acctest.PlanErrorCase{
			Config: acctest.OfflineProviderConfig + "data \"accel_runtime_version\" \"x\" {\n  " + tc.hcl + "\n}\n",
			Want:   tc.want,
		}
	}
	resource.ParallelTest(t, acctest.PlanErrorTest(t, cases))
}

// TestAccRuntimeVersion_validationWarn checks the escape hatch through the
// CLI: the provider's validation = "warn" turns a catalog error into a
// warning, the data source's own setting overrides the provider's.
//
// Not parallel: the provider-level mode lives in the provider instance,
// which acctest.ProtoV6ProviderFactories shares between the package's tests.
func TestAccRuntimeVersion_validationWarn(t *testing.T) {
	const body = `
data "accel_runtime_version" "x" {
  accelerator_type = "v6e-4"
  runtime_version  = "tpu-ubuntu2204-base"
%s}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		// The last step is valid: the post-test destroy plans it.
		Steps: []resource.TestStep{
			{
				Config: "provider \"accel\" {\n  validation = \"warn\"\n}\n" + fmt.Sprintf(body, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					attr("x", "runtime_version", knownvalue.StringExact("tpu-ubuntu2204-base")),
					attr("x", "generation", knownvalue.StringExact("v6e")),
					attr("x", "candidates", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("v2-alpha-tpuv6e")})),
				},
			},
			{
				Config:      "provider \"accel\" {\n  validation = \"warn\"\n}\n" + fmt.Sprintf(body, "  validation       = \"strict\"\n"),
				ExpectError: words(`Runtime Version Does Not Support Generation`),
			},
			{
				Config:      acctest.OfflineProviderConfig + fmt.Sprintf(body, ""),
				ExpectError: words(`set validation = "warn" on the resource or the provider`),
			},
			{
				Config: acctest.OfflineProviderConfig + fmt.Sprintf(body, "  validation       = \"warn\"\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					attr("x", "runtime_version", knownvalue.StringExact("tpu-ubuntu2204-base")),
				},
			},
		},
	})
}

// withZoneRuntimes replaces the runtime versions the emulator lists in zone.
func withZoneRuntimes(zone string, drop ...string) func(*emulator.Scenario) {
	return func(sc *emulator.Scenario) {
		for i := range sc.Zones {
			if sc.Zones[i].Name == zone {
				sc.Zones[i].RuntimeVersions = slices.DeleteFunc(sc.Zones[i].RuntimeVersions, func(v string) bool {
					return slices.Contains(drop, v)
				})
			}
		}
	}
}

// TestAccRuntimeVersion_liveZoneLacksType: the emulator's us-central1-a
// offers v5e and v5p but no v6e, which the catalog cannot know for sure (the
// region offers v6e), so only the live check catches it.
func TestAccRuntimeVersion_liveZoneLacksType(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "relies on the emulator's zone us-central1-a listing no v6e type")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: tg.Config(`
data "accel_runtime_version" "x" {
  accelerator_type = "v6e-4"
  zone             = "us-central1-a"
}
`),
				ExpectError: words(`The Cloud TPU API does not list "v6e-4" in zone "us-central1-a", which offers no v6e types to this project.`),
			},
			{
				Config: tg.Config(`
data "accel_runtime_version" "x" {
  accelerator_type = "v6e-4"
  zone             = "us-central1-a"
  validation       = "warn"
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					attr("x", "runtime_version", knownvalue.StringExact("v2-alpha-tpuv6e")),
				},
			},
		},
	})
}

// TestAccRuntimeVersion_liveRuntimeNotListed: the zone offers the type but
// not the chosen runtime; that is a warning and the outputs stay the
// catalog's.
func TestAccRuntimeVersion_liveRuntimeNotListed(t *testing.T) {
	tg := acctest.New(t, withZoneRuntimes("us-central1-b", "v2-alpha-tpuv6e", "tpu-vm-tf-2.18.0-pjrt"))
	tg.RequireEmulatorFor(t, "sets the runtime versions a zone lists and counts the list calls")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(`
data "accel_runtime_version" "base" {
  accelerator_type = "v6e-4"
  zone             = "us-central1-b"
}

data "accel_runtime_version" "tensorflow" {
  accelerator_type = "v6e-4"
  framework        = "tensorflow"
  zone             = "us-central1-b"
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				attr("base", "runtime_version", knownvalue.StringExact("v2-alpha-tpuv6e")),
				attr("tensorflow", "runtime_version", knownvalue.StringExact("tpu-vm-tf-2.18.0-pjrt")),
			},
		}},
	})
	if n := tg.Emulator.Counters()[emulator.MethodTPURuntimeVersionsList]; n == 0 {
		t.Error("the live check never listed the zone's runtime versions")
	}
}

// TestAccRuntimeVersion_liveUnavailable: a failing or unreachable API is
// ignored; the plan goes on with the catalog's answer.
func TestAccRuntimeVersion_liveUnavailable(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects a failed acceleratorTypes.list")
	const body = `
data "accel_runtime_version" "x" {
  accelerator_type = "v6e-4"
  zone             = "us-central1-a"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := tg.Emulator.FailNext(emulator.MethodTPUAcceleratorTypesList, 1000, 403); err != nil {
						t.Fatalf("FailNext: %v", err)
					}
				},
				Config: tg.Config(body),
				ConfigStateChecks: []statecheck.StateCheck{
					attr("x", "runtime_version", knownvalue.StringExact("v2-alpha-tpuv6e")),
				},
			},
			{
				Config: "provider \"accel\" {\n  project      = \"accel-acc\"\n  tpu_endpoint = \"http://127.0.0.1:1/\"\n}\n" + body,
				ConfigStateChecks: []statecheck.StateCheck{
					attr("x", "runtime_version", knownvalue.StringExact("v2-alpha-tpuv6e")),
				},
			},
		},
	})
}

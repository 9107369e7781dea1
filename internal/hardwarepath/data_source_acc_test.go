// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

const address = "data.accel_hardware_path.test"

func value(key string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(address, tfjsonpath.New(key), check)
}

func step(i int, key string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(address, tfjsonpath.New("steps").AtSliceIndex(i).AtMapKey(key), check)
}

func tier(i int, key string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(address, tfjsonpath.New("tiers").AtSliceIndex(i).AtMapKey(key), check)
}

var notChecked = knownvalue.StringRegexp(regexp.MustCompile(`capacity not checked`))

// TestAccHardwarePath_offlineOutcomes walks both trees from the catalog
// alone: every capacity answer says capacity was not checked, a zone the
// catalog does not list for a candidate answers no, and the tiers are
// ready for accel_fallback_nodepools.
func TestAccHardwarePath_offlineOutcomes(t *testing.T) {
	acctest.Offline(t)
	cases := map[string]struct {
		body   string
		checks []statecheck.StateCheck
	}{
		"TPU first, TPU offered: TPU, with the GPU as fallback tier": {
			body: `
  start         = "tpu"
  zones         = ["us-central1-b", "us-central1-a"]
  runs_on_other = true
  tpu { accelerator_type = "v6e-4" }
  gpu { machine_type = "a2-ultragpu-1g" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("tpu")),
				value("capacity_checked", knownvalue.Bool(false)),
				value("convert_model", knownvalue.Bool(false)),
				step(0, "question", knownvalue.StringExact("Do you have access to the required TPUs?")),
				// Offline nothing checked access: unknown, never yes.
				step(0, "answer", knownvalue.StringExact("unknown")),
				step(0, "evidence", notChecked),
				value("tiers", knownvalue.ListSizeExact(2)),
				tier(0, "name", knownvalue.StringExact("tpu-v6e-4")),
				// The catalog lists v6e in us-central1-b, not us-central1-a.
				tier(0, "node_locations", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("us-central1-b")})),
				tier(0, "machine_type", knownvalue.Null()),
				tier(1, "machine_type", knownvalue.StringExact("a2-ultragpu-1g")),
				tier(1, "accelerator_type", knownvalue.Null()),
			},
		},
		"TPU first, TPU not offered in the zones, model runs on GPU: GPU": {
			body: `
  start         = "tpu"
  zones         = ["asia-east1-c"]
  runs_on_other = true
  tpu { accelerator_type = "v6e-4" }
  gpu {
    machine_type = "n1-standard-8"
    gpu_type     = "nvidia-tesla-t4"
    gpu_count    = 1
  }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("gpu")),
				step(0, "answer", knownvalue.StringExact("no")),
				step(0, "evidence", knownvalue.StringRegexp(regexp.MustCompile(`none of the zones: GKE's TPU availability lists v6e in us-central1`))),
				step(1, "question", knownvalue.StringExact("Does the model run on GPUs?")),
				step(2, "answer", knownvalue.StringExact("unknown")),
				tier(0, "name", knownvalue.StringExact("gpu-n1-standard-8-tesla-t4")),
				tier(0, "gpu_type", knownvalue.StringExact("nvidia-tesla-t4")),
				tier(0, "gpu_count", knownvalue.Int64Exact(1)),
			},
		},
		"TPU first, TPU only, conversion feasible: GPU after converting": {
			body: `
  start               = "tpu"
  zones               = ["asia-east1-c"]
  conversion_feasible = true
  tpu { accelerator_type = "v6e-4" }
  gpu { machine_type = "g2-standard-8" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("gpu")),
				value("convert_model", knownvalue.Bool(true)),
				step(2, "question", knownvalue.StringExact("Is converting the model to GPUs feasible?")),
				// No tier of the family the model would be converted to:
				// it serves nothing until the model is converted.
				value("tiers", knownvalue.ListSizeExact(0)),
			},
		},
		"TPU first, TPU only, no conversion: stuck": {
			body: `
  start = "tpu"
  zones = ["asia-east1-c"]
  tpu { accelerator_type = "v6e-4" }
  gpu { machine_type = "g2-standard-8" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("stuck")),
				value("tiers", knownvalue.ListSizeExact(0)),
				step(3, "answer", knownvalue.StringExact("stuck")),
			},
		},
		"one machine and GPU type with two counts: tier names differ by the count": {
			body: `
  start = "gpu"
  zones = ["us-central1-a"]
  gpu {
    machine_type = "n1-standard-8"
    gpu_type     = "nvidia-tesla-t4"
    gpu_count    = 2
  }
  smaller_gpu {
    machine_type = "n1-standard-8"
    gpu_type     = "nvidia-tesla-t4"
    gpu_count    = 1
  }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("gpu")),
				tier(0, "name", knownvalue.StringExact("gpu-n1-standard-8-tesla-t4-x2")),
				tier(1, "name", knownvalue.StringExact("gpu-n1-standard-8-tesla-t4-x1")),
			},
		},
		"a multi-host slice gets one zone": {
			body: `
  start = "tpu"
  zones = ["us-east5-a", "us-east5-b"]
  tpu { accelerator_type = "v6e-16" }`,
			checks: []statecheck.StateCheck{
				value("decision", knownvalue.StringExact("tpu")),
				tier(0, "node_locations", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("us-east5-a")})),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:            acctest.OfflineProviderConfig + "data \"accel_hardware_path\" \"test\" {" + tc.body + "\n}\n",
					ConfigStateChecks: tc.checks,
				}},
			})
		})
	}
}

// TestAccHardwarePath_invalidCandidates: a candidate that is not a valid
// configuration, a malformed zone and no candidate at all fail validate,
// on the attribute concerned, with the fix.
func TestAccHardwarePath_invalidCandidates(t *testing.T) {
	acctest.Offline(t)
	cases := map[string]struct{ body, want string }{
		"no such TPU size": {`
  start = "tpu"
  zones = ["us-central1-b"]
  tpu { accelerator_type = "v6e-3" }`, `(?s)tpu \{ accelerator_type = "v6e-3" \}.*"v6e-3" is not a v6e size; valid: v6e-1, v6e-4`},
		"N1 without its GPU": {`
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "n1-standard-8" }`, `(?s)Missing GPU Type.*set gpu_type to`},
		"a region as zone": {`
  start = "gpu"
  zones = ["us-central1"]
  gpu { machine_type = "g2-standard-8" }`, `"us-central1" is a region, not a zone`},
		"no candidates": {`
  start = "gpu"
  zones = ["us-central1-a"]`, `No Candidate Accelerators`},
		"empty accelerator type": {`
  start = "tpu"
  zones = ["us-central1-b"]
  tpu { accelerator_type = "" }`, `(?s)Empty Value.*accelerator_type is "".*Set a Cloud TPU accelerator type.*"v6e-4"`},
		"empty zone": {`
  start = "tpu"
  zones = [""]
  tpu { accelerator_type = "v6e-4" }`, `"" is not a zone name; zones look like "us-central1-a"`},
		"negative GPU count": {`
  start = "gpu"
  zones = ["us-central1-b"]
  gpu {
    machine_type = "n1-standard-8"
    gpu_type     = "nvidia-tesla-t4"
    gpu_count    = -1
  }`, `must be at least 1, got: -1`},
		"a TPU twice": {`
  start = "tpu"
  zones = ["us-central1-b"]
  tpu { accelerator_type = "v6e-4" }
  tpu { accelerator_type = "v6e-4" }`, `(?s)Duplicate Candidate.*tpu\[1\] asks for the same hardware as tpu\[0\] \(v6e-4\)`},
		"a GPU in two groups, once with its implied GPU": {`
  start = "gpu"
  zones = ["us-central1-b"]
  gpu { machine_type = "g2-standard-8" }
  smaller_gpu {
    machine_type = "g2-standard-8"
    gpu_type     = "nvidia-l4"
  }`, `(?s)Duplicate Candidate.*smaller_gpu\[0\] asks for the same hardware as gpu\[0\]`},
		"bad start": {`
  start = "fpga"
  zones = ["us-central1-a"]
  gpu { machine_type = "g2-standard-8" }`, `value must be one of`},
	}
	steps := map[string]acctest.PlanErrorCase{}
	for name, tc := range cases {
		steps[name] = acctest.PlanErrorCase{
			Config: acctest.OfflineProviderConfig + "data \"accel_hardware_path\" \"test\" {" + tc.body + "\n}\n",
			Want:   regexp.MustCompile(tc.want),
		}
	}
	resource.Test(t, acctest.PlanErrorTest(t, steps))
}

// TestAccHardwarePath_example applies the documented example against the
// emulator: the data source's tiers feed accel_fallback_nodepools and
// accel_compute_class through dynamic blocks, and the second plan is empty.
func TestAccHardwarePath_example(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "applies the example, whose cluster and zone offers exist only on the emulator")
	b, err := os.ReadFile("../../examples/data-sources/accel_hardware_path/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	// Online (compute_endpoint set): the data source keeps only the zones
	// Compute Engine offers each tier in, so the apply creates every pool.
	cfg := liveConfig(tg, "")
	cfg = cfg[:strings.Index(cfg, "data \"accel_hardware_path\"")] +
		strings.ReplaceAll(string(b), `"serving-${tiers.value.name}"`, `"`+acctest.RandomName("hp")+`-${tiers.value.name}"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("accel_fallback_nodepools.serving", tfjsonpath.New("tiers"), knownvalue.ListSizeExact(4)),
				statecheck.ExpectKnownValue("accel_fallback_nodepools.serving", tfjsonpath.New("tiers").AtSliceIndex(0).AtMapKey("machine_type"),
					knownvalue.StringExact("ct6e-standard-4t")),
				// The same tiers as a ComputeClass's priorities, checked
				// against the cluster: the first is GKE's v6e label.
				statecheck.ExpectKnownValue("data.accel_compute_class.serving", tfjsonpath.New("priority"), knownvalue.ListSizeExact(4)),
				statecheck.ExpectKnownValue("data.accel_compute_class.serving", tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("tpu_type"),
					knownvalue.StringExact("tpu-v6e-slice")),
				statecheck.ExpectKnownValue("data.accel_compute_class.serving", tfjsonpath.New("cluster_checked"), knownvalue.Bool(true)),
			}},
		},
	})
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// splitArguments splits s at the commas outside brackets and braces.
func splitArguments(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

func TestAccFallbackNodePools_validation(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	v6e := `{ name = "tpu", accelerator_type = "v6e-4", node_locations = ["us-central1-b"] }`
	l4 := `{ name = "gpu", machine_type = "g2-standard-4", node_locations = ["us-central1-a"] }`
	cases := []struct {
		name  string
		hcl   string
		error string
	}{
		{"no tiers block", resourceHCL(cluster, "c", ""), `Block tiers must have a configuration value`},
		{"duplicate tier names", resourceHCL(cluster, "c", "", v6e, strings.Replace(l4, `"gpu"`, `"tpu"`, 1)), `Duplicate Tier Name`},
		{"both TPU and GPU", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-4", gpu_type = "nvidia-l4", node_locations = ["us-central1-b"] }`), `Tier Is Both TPU and GPU`},
		{"neither TPU nor GPU", resourceHCL(cluster, "c", "", `{ name = "x", node_locations = ["us-central1-b"] }`), `Tier Has No Accelerator`},
		{"machine type does not fit the topology", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-4", machine_type = "ct6e-standard-8t", node_locations = ["us-central1-b"] }`),
			`Machine Type Does Not Match Topology`},
		{"topology does not fit the accelerator type", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-4", topology = "4x4", node_locations = ["us-central1-b"] }`),
			`Topology Does Not Match Accelerator Type`},
		{"multi-host node count", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-16", node_count = 2, node_locations = ["us-central1-b"] }`),
			`Node Count Does Not Match Slice`},
		{"autoscaling that cannot hold a whole slice", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-16", min_node_count = 0, max_node_count = 3, node_locations = ["us-central1-b"] }`),
			`Autoscaling Bounds Do Not Hold Whole Slices`},
		{"multi-host slice in two zones", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-16", node_locations = ["us-east5-a", "us-east5-b"] }`),
			`Multi-Host Slice Needs One Zone`},
		{"node location outside the cluster's region", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-4", node_locations = ["us-east5-a"] }`), `(?s)Node Location Outside the.*us-east5-a`},
		{"specific reservation without a name", resourceHCL(cluster, "c", "",
			`  tiers {
    name             = "x"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    reservation_affinity {
      consume_reservation_type = "SPECIFIC_RESERVATION"
    }
  }`), `Specific Reservation Without a Name`},
		{"v5p beyond 96 cubes", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v5p-16384", node_locations = ["us-central1-a"] }`), `(?s)Invalid TPU Accelerator Type.*v5p-12288`},
		{"GPU type does not match the machine type", resourceHCL(cluster, "c", "",
			`{ name = "x", machine_type = "g2-standard-4", gpu_type = "nvidia-h100-80gb", node_locations = ["us-central1-a"] }`),
			`GPU Type Does Not Match Machine Type`},
		{"A4 with a persistent boot disk", resourceHCL(cluster, "c", "",
			`{ name = "x", machine_type = "a4-highgpu-8g", disk_type = "pd-balanced", node_locations = ["us-central1-b"] }`),
			`(?s)Boot Disk Type Not Offered for Machine Type.*"pd-balanced".*"hyperdisk-balanced"`},
		{"three T4s on N1", resourceHCL(cluster, "c", "",
			`{ name = "x", machine_type = "n1-standard-16", gpu_type = "nvidia-tesla-t4", gpu_count = 3, node_locations = ["us-central1-a"] }`),
			`(?s)Invalid GPU Count.*nvidia-tesla-t4\s+to\s+n1\s+VMs\s+1,\s+2\s+or\s+4\s+at\s+a\s+time`},
		{"GPU count does not match the machine type", resourceHCL(cluster, "c", "",
			`{ name = "x", machine_type = "a3-highgpu-8g", gpu_count = 4, node_locations = ["us-central1-a"] }`),
			`GPU Count Does Not Match Machine Type`},
		{"unknown accelerator type", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-3", node_locations = ["us-central1-b"] }`), `Invalid TPU Accelerator Type`},
		{"provider taint in taints", resourceHCL(cluster, "c", "",
			`  tiers {
    name             = "x"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    taints {
      key    = "google.com/tpu"
      value  = "present"
      effect = "NO_SCHEDULE"
    }
  }`),
			`Taint Set by the Provider`},
		{"Kubernetes spelling of a taint effect", resourceHCL(cluster, "c", "",
			`  tiers {
    name             = "x"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    taints {
      key    = "team"
      value  = "serving"
      effect = "NoSchedule"
    }
  }`),
			`(?s)Invalid Taint Effect.*Tier "x", taints\[0\]: "NoSchedule" is the\s+Kubernetes spelling.*effect = "NO_SCHEDULE"`},
		{"taint effect in lower case", resourceHCL(cluster, "c", "",
			`  tiers {
    name             = "x"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    taints {
      key    = "team"
      value  = "serving"
      effect = "no_execute"
    }
  }`),
			`(?s)Invalid Taint Effect.*Tier "x", taints\[0\]: "no_execute" is not a GKE.*did\s+you\s+mean\s+"NO_EXECUTE"`},
		{"invalid pool name", resourceHCL(cluster, "c", "", strings.Replace(v6e, `"tpu"`, `"TPU_pool"`, 1)), `must be 1 to 40 lowercase`},
		{"invalid cluster id", resourceHCL("serving", "c", "", v6e), `Invalid Cluster ID`},
		{"invalid compute class", resourceHCL(cluster, "Bad_Class", "", v6e), `compute_class`},
		{"invalid on_stockout", resourceHCL(cluster, "c", "  on_stockout = \"retry\"\n", v6e), `on_stockout`},
		{"node_count with autoscaling", resourceHCL(cluster, "c", "",
			`{ name = "x", accelerator_type = "v6e-4", node_count = 1, min_node_count = 0, max_node_count = 2, node_locations = ["us-central1-b"] }`),
			`Invalid Attribute Combination`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      offlineConfig(c.hcl),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(c.error),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// TestAccFallbackNodePools_validationWarn: with validation = "warn", a
// catalog error (a GPU count N1 does not take with that GPU) becomes a
// warning and the plan goes ahead; a rule of the API itself (a node
// location outside the cluster's region) stays an error.
func TestAccFallbackNodePools_validationWarn(t *testing.T) {
	const cluster = "projects/p/locations/us-central1/clusters/c"
	warn := "  validation = \"warn\"\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: offlineConfig(resourceHCL(cluster, "c", warn,
				`{ name = "x", machine_type = "a3-highgpu-8g", gpu_count = 4, node_locations = ["us-central1-a"] }`)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}, {
			Config: offlineConfig(resourceHCL(cluster, "c", warn,
				`{ name = "x", accelerator_type = "v6e-4", node_locations = ["asia-east1-c"] }`)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Node Location Outside the Cluster's Region`),
		}},
	})
}

// TestAccFallbackNodePools_clusterVersion: when GKE can be reached at plan
// time, a TPU generation newer than the cluster's GKE version is an error.
func TestAccFallbackNodePools_clusterVersion(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses the emulator's cluster legacy, on a GKE version older than v6e needs")
	// The emulator's zonal cluster "legacy" runs GKE 1.30.5, older than v6e's minimum.
	legacy := "projects/" + acctest.EmulatorProject + "/locations/us-central1-b/clusters/legacy"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(resourceHCL(legacy, "c", "",
				`{ name = "x", accelerator_type = "v6e-4", node_locations = ["us-central1-b"] }`)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`GKE Version Too Old for TPU Generation`),
		}},
	})
}

// TestAccFallbackNodePools_machineTypesBeyondTheDocs: a TPU machine type
// only GKE's own tables name, and a well-formed one newer than the catalog,
// are TPU tiers that plan with a warning each (the catalog's rule: a name
// Google ships or the catalog does not know is never an error), through the
// real CLI.
func TestAccFallbackNodePools_machineTypesBeyondTheDocs(t *testing.T) {
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	cfg := offlineConfig(resourceHCL("projects/p/locations/us-central1/clusters/c", "c", "",
		`{ name = "new", machine_type = "tpu9x-superpod-16t", topology = "4x4", node_locations = ["us-central1-a"] }`,
		`{ name = "lite", machine_type = "ct5l-hightpu-8t", node_locations = ["us-central1-a"] }`))
	diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, cfg)
	if err != nil {
		t.Fatalf("plan failed: %v\n%s", err, stdout)
	}
	want := map[string]string{"Unknown TPU Machine Type": `Tier "new"`, "TPU Machine Type Only in GKE's Code": `Tier "lite"`}
	for _, d := range diags {
		if d.Severity == "error" {
			t.Errorf("error %q: %s", d.Summary, d.Detail)
		}
		if tier, ok := want[d.Summary]; ok && d.Severity == "warning" && strings.HasPrefix(d.Detail, tier) {
			delete(want, d.Summary)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing warnings %v in %+v", want, diags)
	}
}

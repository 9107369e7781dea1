// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// classOn is the documented example for a cluster of the emulator, with
// extra priorities before its three.
func classOn(t *testing.T, tg *acctest.Target, cluster, extra string) string {
	t.Helper()
	const exampleCluster = `"projects/my-ml-project/locations/us-central1/clusters/autoprovisioned"`
	cfg := vllmExample(t)
	if !strings.Contains(cfg, exampleCluster) {
		t.Fatalf("the example's cluster is not %s", exampleCluster)
	}
	cfg = strings.Replace(cfg, exampleCluster, fmt.Sprintf("%q", "projects/"+tg.Project+"/locations/"+cluster), 1)
	head := `data "accel_compute_class" "vllm" {` + "\n"
	if !strings.Contains(cfg, head) {
		t.Fatalf("the example has no %q", head)
	}
	return tg.Config(strings.Replace(cfg, head, head+extra+"\n", 1))
}

// TestAccComputeClass_clusters plans the seed's scenario online against an
// Autopilot cluster, a Standard cluster with node auto-provisioning whose
// limits cover Trillium and L4, and a Standard cluster on a GKE version that
// creates a class's pools without it: each is read once and passes.
func TestAccComputeClass_clusters(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "reads the emulator's Autopilot and auto-provisioned clusters")
	for cluster, autopilot := range map[string]bool{"us-central1/clusters/autopilot": true, "us-central1/clusters/autoprovisioned": false,
		"us-central1/clusters/serving": false} {
		t.Run(cluster, func(t *testing.T) {
			calls := tg.Calls()
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: classOn(t, tg, cluster, ""),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("cluster_checked"), knownvalue.Bool(true)),
						statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("autopilot"), knownvalue.Bool(autopilot)),
						statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("tpu_type"), knownvalue.StringExact("tpu-v6e-slice")),
					},
				}},
			})
			if n, counting := calls.Since(emulator.MethodClustersGet); counting && n == 0 {
				t.Errorf("the cluster was not read (clusters.get %d times)", n)
			}
		})
	}
}

// TestAccComputeClass_wrongForCluster is a corpus of classes the named
// cluster would leave Pending, each caught at plan with the fix.
func TestAccComputeClass_wrongForCluster(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "reads the emulator's Autopilot, auto-provisioned and old clusters")
	cases := map[string]struct{ cluster, extra, want string }{
		"pools named on Autopilot": {"us-central1/clusters/autopilot", `priority { nodepools = ["tpu-pool"] }`,
			`(?s)Autopilot Clusters Have No Node Pools to Name`},
		"no limit for the H100": {"us-central1/clusters/autoprovisioned", `priority {
gpu_type = "nvidia-h100-80gb"
gpu_count = 8
}`, `(?s)No Auto-Provisioning Limit for This Accelerator.*type=nvidia-h100-80gb,count=8`},
		"a slice above the limit": {"us-central1/clusters/autoprovisioned", `priority { accelerator_type = "v6e-256" }`,
			`(?s)Auto-Provisioning Limit Below One Node.*at least 256`},
		"old Standard without auto-provisioning": {"us-central1-b/clusters/legacy", "",
			`(?s)Node-Pool Auto-Creation Needs Node Auto-Provisioning.*1.33.3-gke.1136000`},
		"no such cluster": {"us-central1/clusters/nowhere", "", `Cluster Not Found`},
	}
	steps := map[string]acctest.PlanErrorCase{}
	for name, tc := range cases {
		steps[name] = acctest.PlanErrorCase{Config: classOn(t, tg, tc.cluster, tc.extra), Want: regexp.MustCompile(tc.want)}
	}
	resource.Test(t, acctest.PlanErrorTest(t, steps))
}

// TestAccComputeClass_capacity reads the quota and reservation evidence of
// each priority, as the node-pool tiers do: no L4 quota left in the
// cluster's region warns on the L4 priority, and a specific reservation
// that does not exist warns on its priority; neither fails the plan.
func TestAccComputeClass_capacity(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "sets the quotas it reads")
	tg.Emulator.SetQuota(emulator.Quota{Region: "us-central1", Metric: "NVIDIA_L4_GPUS", Limit: 4, Usage: 4})
	env := acctest.DevInstall(t)
	cfg := classOn(t, tg, "us-central1/clusters/autoprovisioned", `priority {
accelerator_type = "v6e-4"
reservations = ["nowhere"]
}`)
	diags, stdout, err := acctest.PlanDiagnostics(t, env, acctest.TerraformPath(t), cfg)
	if err != nil {
		t.Fatalf("plan failed: %v\n%s", err, stdout)
	}
	want := map[string]string{
		"Priority Has No Quota": "The regional quota NVIDIA_L4_GPUS in us-central1 has 0 of 4 left, and one node of this priority needs 1",
		"Reservation Not Found": `The priority consumes only the reservation "nowhere", but no reservation of that name for ct6e-standard-4t exists`,
	}
	for summary, detail := range want {
		found := false
		for _, d := range diags {
			if d.Summary == summary && d.Severity == "warning" && strings.Contains(strings.Join(strings.Fields(d.Detail), " "), detail) {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning %q containing %q; diagnostics: %+v", summary, detail, diags)
		}
	}
}

// TestAccComputeClass_clusterUnreadable: a GKE endpoint that answers HTML,
// or refuses the read, leaves the class checked as offline with a warning,
// not a failed plan.
func TestAccComputeClass_clusterUnreadable(t *testing.T) {
	for name, fault := range map[string]func(*emulator.Server) error{
		"HTML": func(s *emulator.Server) error { return s.AnswerHTML(emulator.MethodClustersGet, 100, 200) },
		"403":  func(s *emulator.Server) error { return s.FailNext(emulator.MethodClustersGet, 100, 403) },
	} {
		t.Run(name, func(t *testing.T) {
			tg := acctest.New(t)
			tg.RequireEmulatorFor(t, "injects failed cluster reads")
			if err := fault(tg.Emulator); err != nil {
				t.Fatal(err)
			}
			diags, stdout, err := acctest.PlanDiagnostics(t, acctest.DevInstall(t), acctest.TerraformPath(t), classOn(t, tg, "us-central1/clusters/autopilot", ""))
			if err != nil {
				t.Fatalf("plan failed: %v\n%s", err, stdout)
			}
			found := false
			for _, d := range diags {
				found = found || d.Severity == "warning" && d.Summary == "Cluster Not Checked"
			}
			if !found {
				t.Errorf("no warning Cluster Not Checked; diagnostics: %+v", diags)
			}
		})
	}
}

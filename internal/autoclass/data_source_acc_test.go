// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/examplecheck"
)

// vllmExample is the documented example (its accel part: the Kubernetes
// resources need a real cluster): the seed's scenario for node-pool
// auto-creation, TPU v6e first (Spot, then on demand), an L4 GPU after it.
func vllmExample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/data-sources/accel_compute_class/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := examplecheck.AccelOnly(string(b))
	return kept
}

const exampleAddress = "data.accel_compute_class.vllm"

// TestAccComputeClass_vllm plans the example offline and online. Offline,
// every priority is resolved (the accelerator type gives GKE's label, chips
// per node and topology), the manifest decodes strictly against the CRD's
// fields, and the pod outputs cover every priority; online, the example's
// cluster (the emulator's auto-provisioned one: any project ID has it) is
// read and its limits cover every priority.
func TestAccComputeClass_vllm(t *testing.T) {
	tg := acctest.New(t)
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("tpu_type"), knownvalue.StringExact("tpu-v6e-slice")),
		statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("tpu_count"), knownvalue.Int64Exact(4)),
		statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("topology"), knownvalue.StringExact("2x2")),
		statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("node_selector"), knownvalue.MapExact(map[string]knownvalue.Check{
			"cloud.google.com/compute-class": knownvalue.StringExact("vllm-fallback")})),
	}
	steps := []resource.TestStep{{
		Config:            acctest.OfflineProviderConfig + vllmExample(t),
		ConfigStateChecks: append(checks, statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("cluster_checked"), knownvalue.Bool(false))),
		Check:             checkVLLMManifest,
	}}
	if tg.Emulator != nil {
		steps = append(steps, resource.TestStep{
			Config:            tg.Config(vllmExample(t)),
			ConfigStateChecks: append(checks, statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("cluster_checked"), knownvalue.Bool(true))),
			Check:             checkVLLMManifest,
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories, Steps: steps})
}

// checkVLLMManifest checks the example's pod outputs and its manifest,
// decoded strictly against the CRD's fields.
func checkVLLMManifest(s *terraform.State) error {
	attrs := s.RootModule().Resources[exampleAddress].Primary.Attributes
	keys := map[string]bool{}
	for i := 0; attrs[fmt.Sprintf("tolerations.%d.key", i)] != ""; i++ {
		keys[attrs[fmt.Sprintf("tolerations.%d.key", i)]] = true
	}
	for _, k := range []string{"google.com/tpu", "nvidia.com/gpu", "cloud.google.com/gke-spot", "cloud.google.com/compute-class"} {
		if !keys[k] {
			return fmt.Errorf("tolerations %v lack %s", keys, k)
		}
	}
	doc := attrs["manifest"]
	c, err := computeclass.Decode(doc)
	if err != nil {
		return fmt.Errorf("the manifest does not decode against the CRD: %w\n%s", err, doc)
	}
	if back := c.YAML(); back != doc {
		return fmt.Errorf("the decoded manifest writes back differently:\n%s\n---\n%s", doc, back)
	}
	if len(c.Spec.Priorities) != 3 || c.Spec.NodePoolAutoCreation == nil || !*c.Spec.NodePoolAutoCreation.Enabled {
		return fmt.Errorf("want three priorities and node-pool auto-creation:\n%s", doc)
	}
	p := c.Spec.Priorities
	if p[0].TPU == nil || p[0].TPU.Type != "tpu-v6e-slice" || *p[0].TPU.Count != 4 || p[0].Spot == nil || !*p[0].Spot ||
		p[2].GPU == nil || p[2].GPU.Type != "nvidia-l4" || p[2].MachineFamily != "g2" || c.Spec.WhenUnsatisfiable != computeclass.DoNotScaleUp {
		return fmt.Errorf("priorities not as configured:\n%s", doc)
	}
	return nil
}

// TestAccComputeClass_wrongPriorities is a corpus of priorities GKE would
// leave Pending: each fails the plan on its attribute with the fix.
func TestAccComputeClass_wrongPriorities(t *testing.T) {
	acctest.Offline(t)
	cases := map[string]struct{ body, want string }{
		"TPU label typo": {`priority {
tpu_type = "tpu-v6e-podslice" 
 tpu_count = 4 
 topology = "2x2"
}`, `(?s)Unknown TPU Type.*tpu-v6e-slice`},
		"chips per node": {`priority {
tpu_type = "tpu-v6e-slice" 
 tpu_count = 3 
 topology = "2x2"
}`, `(?s)No TPU Node With This Chip Count.*use 4`},
		"topology of the size": {`priority {
accelerator_type = "v6e-4" 
 topology = "4x4"
}`, `Topology Does Not Match Accelerator Type`},
		"GPU count of the family": {`priority {
gpu_type = "nvidia-l4" 
 gpu_count = 3
}`, `No Machine Type With This GPU Count`},
		"family without the GPU": {`priority {
gpu_type = "nvidia-l4" 
 gpu_count = 1 
 machine_family = "a3"
}`, `(?s)Machine Family Has No Such GPU.*"g2"`},
		"driver version spelling": {`priority {
gpu_type = "nvidia-l4" 
 gpu_count = 1 
 gpu_driver_version = "LATEST"
}`, `did you mean "latest"`},
		"A4 with a persistent boot disk": {`priority {
machine_type = "a4-highgpu-8g"
 boot_disk_type = "pd-balanced"
}`, `(?s)Boot Disk Type Not Offered for Machine Type.*"pd-balanced".*"hyperdisk-balanced"`},
		"flex-start with Spot": {`priority {
accelerator_type = "v6e-4" 
 flex_start = true 
 spot = true
}`, `Flex-Start Excludes Spot`},
		"placement on old GKE": {`gke_version = "1.32.3-gke.1000000"
priority {
accelerator_type = "v6e-4" 
 placement_policy = "p"
}`, `(?s)placement needs GKE 1.33.2-gke.1335000`},
		"specific without a name": {`priority {
accelerator_type = "v6e-4" 
 reservation_affinity = "Specific"
}`, `Reservations Need Specific Affinity`},
		"TPU and GPU in one": {`priority {
accelerator_type = "v6e-4" 
 gpu_type = "nvidia-l4"
}`, `TPU and GPU in One Priority`},
		"GPU driver on a TPU": {`priority {
accelerator_type = "v6e-4"
gpu_driver_version = "latest"
}`, `TPU and GPU in One Priority`},
		"machine type of another generation": {`priority {
accelerator_type = "v6e-4"
machine_type = "ct5lp-hightpu-4t"
}`, `(?s)machine_type.*ct6e-standard-4t`},
		"machine type of another TPU type": {`priority {
tpu_type = "tpu-v6e-slice"
tpu_count = 4
topology = "2x2"
machine_type = "ct5lp-hightpu-4t"
}`, `(?s)Machine Type Does Not Match TPU Type.*ct6e-standard-4t`},
		"node pools beside other fields": {`priority {
nodepools = ["l4-pool"]
spot = true
}`, `(?s)Node Pools With Other Fields.*spot`},
		"no node pool": {`priority {
nodepools = []
}`, `(?s)nodepools.*at least 1`},
		"pool name rule": {`priority {
nodepools = ["L4_Pool"]
}`, `(?s)nodepools.*GKE node pool name`},
		"empty priority": {`priority {}`, `Empty Priority`},
		"Spot with a specific reservation": {`priority {
accelerator_type = "v6e-4"
spot = true
reservations = ["tpu-reservation"]
}`, `Spot VMs Do Not Consume Reservations`},
		"flex-start over seven days": {`priority {
accelerator_type = "v6e-4"
flex_start = true
max_run_duration_seconds = 700000
}`, `(?s)Flex-Start Runs at Most Seven Days.*604800`},
		"node recycling without flex-start": {`priority {
accelerator_type = "v6e-4"
node_recycling_lead_time_seconds = 600
}`, `Node Recycling Without Flex-Start`},
		"reservation block of two reservations": {`priority {
accelerator_type = "v6e-4"
reservations = ["a", "b"]
reservation_block = "block-1"
}`, `(?s)Reservation Block Needs One Reservation.*names 2`},
		"max pods out of range": {`priority {
machine_family = "g2"
max_pods_per_node = 500
}`, `(?s)max_pods_per_node.*500`},
		"boot disk key form": {`priority {
machine_family = "g2"
boot_disk_kms_key = "key"
}`, `Invalid Cloud KMS Key Name`},
		"zone outside the cluster's region": {`cluster = "projects/p/locations/us-east5/clusters/c"
priority {
accelerator_type = "v6e-4"
node_locations = ["us-central1-b"]
}`, `(?s)Outside the Cluster's Region.*us-east5`},
	}
	steps := map[string]acctest.PlanErrorCase{}
	for name, tc := range cases {
		steps[name] = acctest.PlanErrorCase{
			Config: acctest.OfflineProviderConfig + "data \"accel_compute_class\" \"test\" {\n  name = \"c\"\n" + tc.body + "\n}\n",
			Want:   regexp.MustCompile(tc.want),
		}
	}
	resource.Test(t, acctest.PlanErrorTest(t, steps))
}

// TestAccComputeClass_sliceOnSmallerNodes: v6e-8 with tpu_count = 4 is the
// slice on two 4-chip VMs, a layout Google documents: it renders GKE's
// form with the slice's topology.
func TestAccComputeClass_sliceOnSmallerNodes(t *testing.T) {
	acctest.Offline(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `data "accel_compute_class" "test" {
  name = "c"
  priority {
    accelerator_type = "v6e-8"
    tpu_count        = 4
  }
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.accel_compute_class.test", tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("tpu_count"), knownvalue.Int64Exact(4)),
				statecheck.ExpectKnownValue("data.accel_compute_class.test", tfjsonpath.New("priority").AtSliceIndex(0).AtMapKey("topology"), knownvalue.StringExact("2x4")),
				statecheck.ExpectKnownValue("data.accel_compute_class.test", tfjsonpath.New("manifest"),
					knownvalue.StringRegexp(regexp.MustCompile(`(?s)count: 4\s+topology: "?2x4`))),
			},
		}},
	})
}

// TestAccComputeClass_priorityFields: the fields Google's own classes use
// render where the CRD has them, and the manifest decodes with the CRD's
// strict schema.
func TestAccComputeClass_priorityFields(t *testing.T) {
	acctest.Offline(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `data "accel_compute_class" "test" {
  name = "c"
  priority {
    accelerator_type                 = "v6e-4"
    flex_start                       = true
    node_recycling_lead_time_seconds = 600
    max_run_duration_seconds         = 86400
  }
  priority {
    machine_family    = "n4"
    min_cores         = 16
    min_memory_gb     = 64
    max_pods_per_node = 32
    boot_disk_size_gb = 200
    boot_disk_type    = "hyperdisk-balanced"
    boot_disk_kms_key = "projects/p/locations/us-central1/keyRings/r/cryptoKeys/k"
    local_ssd_count   = 1
    reservations      = ["projects/shared/reservations/n4"]
    reservation_block = "block-1"
  }
}
`,
			Check: func(s *terraform.State) error {
				m := s.RootModule().Resources["data.accel_compute_class.test"].Primary.Attributes["manifest"]
				crd, err := computeclass.Decode(m)
				if err != nil {
					return fmt.Errorf("the manifest does not decode with the CRD's schema: %w\n%s", err, m)
				}
				if back := crd.YAML(); back != m {
					return fmt.Errorf("the decoded manifest writes back differently:\n%s\n---\n%s", m, back)
				}
				p0, p1 := crd.Spec.Priorities[0], crd.Spec.Priorities[1]
				switch {
				case p0.FlexStart == nil || p0.FlexStart.NodeRecycling == nil || *p0.FlexStart.NodeRecycling.LeadTimeSeconds != 600:
					return fmt.Errorf("flexStart %+v\n%s", p0.FlexStart, m)
				case *p1.MinCores != 16 || *p1.MinMemoryGb != 64 || *p1.MaxPodsPerNode != 32:
					return fmt.Errorf("minCores, minMemoryGb, maxPodsPerNode\n%s", m)
				case p1.Storage == nil || *p1.Storage.BootDiskSize != 200 || p1.Storage.BootDiskType != "hyperdisk-balanced" ||
					*p1.Storage.LocalSSDCount != 1 || p1.Storage.BootDiskKMSKey != "projects/p/locations/us-central1/keyRings/r/cryptoKeys/k":
					return fmt.Errorf("storage %+v\n%s", p1.Storage, m)
				case p1.Reservations == nil || len(p1.Reservations.Specific) != 1 || p1.Reservations.Specific[0].Project != "shared" ||
					p1.Reservations.Specific[0].ReservationBlock == nil || p1.Reservations.Specific[0].ReservationBlock.Name != "block-1":
					return fmt.Errorf("reservations %+v\n%s", p1.Reservations, m)
				}
				return nil
			},
		}},
	})
}

// TestAccComputeClass_wrongAtValidate: a wrong priority fails the plan even
// when the data source cannot be read until apply (its name is unknown at
// plan), as terraform validate would: the checks run on what is known.
func TestAccComputeClass_wrongAtValidate(t *testing.T) {
	acctest.Offline(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.OfflineProviderConfig + `resource "terraform_data" "name" {
  input = "late-${replace(timestamp(), ":", "")}" # unknown until apply
}

data "accel_compute_class" "test" {
  name = terraform_data.name.output
  priority {
    tpu_type  = "tpu-v6e-podslice"
    tpu_count = 4
    topology  = "2x2"
  }
}
`,
			ExpectError: regexp.MustCompile(`(?s)Unknown TPU Type.*tpu-v6e-slice`),
		}},
	})
}

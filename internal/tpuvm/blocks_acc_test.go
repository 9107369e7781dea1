// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// onLine matches a diagnostic with summary that Terraform shows on the
// configuration line matching line (a regular expression), then rest.
func onLine(summary, line, rest string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)Error: ` + summary + `\s+with accel_tpu_vm\.test,\s+on \S+ line \d+, in resource "accel_tpu_vm" "test":\s+\d+:\s+` +
		line + `.*` + rest)
}

// TestAccTPUVM_misspeltBlockArguments: a misspelt argument in each nested
// block is an error that names it on its line, not silently dropped; the
// object syntax of earlier builds is an error that says to write a block.
func TestAccTPUVM_misspeltBlockArguments(t *testing.T) {
	tg := acctest.New(t)
	t.Cleanup(func() { tg.AssertNoCalls(t, emulator.MethodTPUNodesCreate) })
	cases := map[string]struct {
		block string
		key   string
	}{
		"network_config":           {block: "network_config {\n    cidr_block = \"10.0.0.8/29\"\n  }", key: "cidr_block"},
		"service_account":          {block: "service_account {\n    scope = [\"x\"]\n  }", key: "scope"},
		"scheduling_config":        {block: "scheduling_config {\n    spott = true\n  }", key: "spott"},
		"shielded_instance_config": {block: "shielded_instance_config {\n    secure_boot = true\n  }", key: "secure_boot"},
		"data_disks":               {block: "data_disks {\n    source_disk = \"d\"\n    mdoe        = \"READ_ONLY\"\n  }", key: "mdoe"},
		"timeouts":                 {block: "timeouts {\n    craete = \"3h\"\n  }", key: "craete"},
	}
	steps := map[string]acctest.PlanErrorCase{}
	for name, tc := range cases {
		steps[name] = acctest.PlanErrorCase{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-misspelt"
  accelerator_type = "v5litepod-4"
  %s
}
`, tc.block)),
			Want: regexp.MustCompile(`(?s)Unsupported argument.*\d+:\s+` + regexp.QuoteMeta(tc.key) +
				`\s+=.*An argument named "` + regexp.QuoteMeta(tc.key) + `" is not expected here`),
		}
	}
	steps["object syntax"] = acctest.PlanErrorCase{
		Config: tg.Config(`
resource "accel_tpu_vm" "test" {
  name              = "tf-acc-misspelt"
  accelerator_type  = "v5litepod-4"
  scheduling_config = { spott = true }
}
`),
		Want: regexp.MustCompile(`(?s)Unsupported argument.*define a block of type "scheduling_config"`),
	}
	resource.ParallelTest(t, acctest.PlanErrorTest(t, steps))
}

// TestAccTPUVM_findingsOnTheirLine: each catalog finding and validator
// error is reported on the attribute it is about, so Terraform shows that
// line (nested ones included), with the value quoted as written.
func TestAccTPUVM_findingsOnTheirLine(t *testing.T) {
	tg := acctest.New(t)
	cases := map[string]struct {
		body string
		want *regexp.Regexp
	}{
		"runtime_version": {
			body: `accelerator_type = "v5litepod-4"
  runtime_version  = "v2-alpha-tpuv6e"`,
			want: onLine(`Runtime Version Does Not Support Generation`, `runtime_version\s+= "v2-alpha-tpuv6e"`, `"v2-alpha-tpuv6e"`),
		},
		"accelerator_type": {
			body: `accelerator_type = "v6e-3"
  zones            = ["us-central1-b"]`,
			want: onLine(`[^\n]+`, `accelerator_type = "v6e-3"`, `"v6e-3"`),
		},
		"zones[1]": {
			body: `accelerator_type = "v6e-8"
  zones            = ["us-central1-b", "us-west4-a"]`,
			want: onLine(`[^\n]+`, `zones\s+= \["us-central1-b", "us-west4-a"\]`, `"us-west4-a"`),
		},
		"data_disks[0].source_disk": {
			body: `accelerator_type = "v5litepod-4"
  zones            = ["us-central1-a", "us-south1-a"]
  data_disks {
    source_disk = "projects/p/zones/us-central1-a/disks/data"
  }`,
			want: onLine(`Data Disk in Another Zone`, `source_disk = "projects/p/zones/us-central1-a/disks/data"`, `"projects/p/zones/us-central1-a/disks/data"`),
		},
		"network_config.network": {
			body: `accelerator_type = "v5litepod-4"
  network_config {
    network = ""
  }`,
			want: onLine(`Invalid Attribute Value Length`, `network = ""`, `network_config.network`),
		},
		"cidr_block": {
			body: `accelerator_type = "v5litepod-4"
  cidr_block       = "10.0.0.9/29"`,
			want: onLine(`Invalid CIDR Block`, `cidr_block\s+= "10.0.0.9/29"`, `"10.0.0.9/29" has host bits set; use the network address 10.0.0.8/29`),
		},
	}
	steps := map[string]acctest.PlanErrorCase{}
	for name, tc := range cases {
		steps[name] = acctest.PlanErrorCase{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name = "tf-acc-findings"
  %s
}
`, tc.body)),
			Want: tc.want,
		}
	}
	resource.ParallelTest(t, acctest.PlanErrorTest(t, steps))
}

// createElsewhere creates a TPU VM through the emulator's API, as gcloud
// would, and returns its import id.
func createElsewhere(t *testing.T, tg *acctest.Target, name string, n *tpu.Node) string {
	t.Helper()
	ctx := context.Background()
	svc, err := tpu.NewService(ctx, option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	_, err = svc.Projects.Locations.Nodes.Create("projects/"+tg.Project+"/locations/"+tg.Zone, n).NodeId(name).Context(ctx).Do()
	mustNoErr(t, err)
	return tg.Zone + "/" + name
}

// customNode has every setting an absent block does not mean.
func customNode(tg *acctest.Target) *tpu.Node {
	return &tpu.Node{
		AcceleratorType:        "v5litepod-4",
		RuntimeVersion:         "tpu-vm-tf-2.18.0-pjrt",
		CidrBlock:              "10.0.0.8/29",
		NetworkConfig:          &tpu.NetworkConfig{EnableExternalIps: true},
		ServiceAccount:         &tpu.ServiceAccount{Email: "runner@" + tg.Project + ".iam.gserviceaccount.com"},
		SchedulingConfig:       &tpu.SchedulingConfig{Spot: true},
		ShieldedInstanceConfig: &tpu.ShieldedInstanceConfig{EnableSecureBoot: true},
		DataDisks:              []*tpu.AttachedDisk{{SourceDisk: "projects/" + tg.Project + "/zones/" + tg.Zone + "/disks/data", Mode: "READ_ONLY"}},
	}
}

// TestAccTPUVM_importGeneratedConfig imports VMs created outside Terraform
// with an import block and `terraform plan -generate-config-out`: the
// generated configuration is valid (cidr_block as the API reports it
// included) and plans no change, for a VM with the API's defaults (no
// block generated; framework read back from the TensorFlow runtime) and for
// one with every block set.
func TestAccTPUVM_importGeneratedConfig(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates TPU VMs behind Terraform's back through the emulator's endpoint")
	cases := map[string]struct {
		node   *tpu.Node
		checks []plancheck.PlanCheck
	}{
		"defaults": {
			node: &tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "tpu-vm-tf-2.18.0-pjrt"},
			checks: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(address, tfjsonpath.New("framework"), knownvalue.StringExact("tensorflow")),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("framework_version"), knownvalue.StringExact("2.18.0")),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("cidr_block"), knownvalue.StringExact("10.128.0.0/20")),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("network_config"), knownvalue.Null()),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("service_account"), knownvalue.Null()),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("effective_network_config").AtMapKey("network"),
					knownvalue.StringExact("projects/"+tg.Project+"/global/networks/default")),
			},
		},
		"every block": {
			node: customNode(tg),
			checks: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config").AtMapKey("spot"), knownvalue.Bool(true)),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("network_config").AtMapKey("enable_external_ips"), knownvalue.Bool(true)),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("shielded_instance_config").AtMapKey("enable_secure_boot"), knownvalue.Bool(true)),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("service_account").AtMapKey("email"),
					knownvalue.StringExact("runner@"+tg.Project+".iam.gserviceaccount.com")),
				plancheck.ExpectKnownValue(address, tfjsonpath.New("data_disks").AtSliceIndex(0).AtMapKey("mode"), knownvalue.StringExact("READ_ONLY")),
			},
		},
	}
	for desc, tc := range cases {
		t.Run(desc, func(t *testing.T) {
			id := createElsewhere(t, tg, acctest.RandomName("generated"), tc.node)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps:                    []resource.TestStep{tg.ImportGeneratedStep(address, id, tc.checks...)},
			})
		})
	}
}

// TestAccTPUVM_importCommandCreatedElsewhere imports, with `terraform
// import`, a VM created outside Terraform with every block set into the
// configuration that describes it: the next plan is empty, with no edit.
func TestAccTPUVM_importCommandCreatedElsewhere(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates a TPU VM behind Terraform's back through the emulator's endpoint")
	name := acctest.RandomName("command")
	id := createElsewhere(t, tg, name, customNode(tg))
	config := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
  runtime_version  = "tpu-vm-tf-2.18.0-pjrt"
  cidr_block       = "10.0.0.8/29"

  network_config {
    enable_external_ips = true
  }
  service_account {
    email = "runner@%[2]s.iam.gserviceaccount.com"
  }
  scheduling_config {
    spot = true
  }
  shielded_instance_config {
    enable_secure_boot = true
  }
  data_disks {
    source_disk = "projects/%[2]s/zones/%[3]s/disks/data"
    mode        = "READ_ONLY"
  }
}
`, name, tg.Project, tg.Zone))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       address,
				ImportState:        true,
				ImportStateId:      id,
				ImportStatePersist: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccTPUVM_blocksLifecycle: a VM created with blocks plans nothing
// after apply and imports to the same state; removing network_config
// switches external IPs off in place; removing scheduling_config replaces
// a Spot VM with an on-demand one.
func TestAccTPUVM_blocksLifecycle(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("blocks")
	config := func(blocks string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = "v5litepod-4"
%[2]s
}
`, name, blocks))
	}
	const network = `
  network_config {
    network             = "default"
    enable_external_ips = true
  }`
	const spot = `
  scheduling_config {
    spot = true
  }
  service_account {
    scopes = ["https://www.googleapis.com/auth/cloud-platform"]
  }
  timeouts {
    create = "45m"
  }`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config(network + spot),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_config").AtMapKey("network"), knownvalue.StringExact("default")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_network_config").AtMapKey("network"),
						knownvalue.StringRegexp(regexp.MustCompile(`(^|/)default$`))),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("service_account").AtMapKey("email"), knownvalue.StringRegexp(regexp.MustCompile(`-compute@`))),
				},
			},
			{
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "network_config.network", "service_account"},
			},
			{
				Config: config(spot),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("effective_network_config").AtMapKey("enable_external_ips"), knownvalue.Bool(false)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints").AtSliceIndex(0).AtMapKey("external_ip"), knownvalue.Null()),
				},
			},
			{
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config"), knownvalue.Null()),
				},
			},
		},
	})
}

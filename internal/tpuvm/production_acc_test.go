// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// words matches the words of s in order, with any white space between
// them, as Terraform wraps a diagnostic's detail.
func words(s string) string {
	return strings.Join(strings.Fields(regexp.QuoteMeta(s)), `\s+`)
}

// protectedError matches the refusal of a plan that would delete a VM
// with deletion_protection set: it names the VM, what would delete it,
// and the fix.
func protectedError(id, what string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)Deletion Protection Is On.*` + words("TPU VM "+id+" would be deleted: "+what) +
		`.*` + words("deletion_protection is true") + `.*` + words("set deletion_protection = false and apply that first"))
}

// TestAccTPUVM_deletionProtection: a VM created with deletion_protection
// cannot be destroyed nor replaced while it is set (both refused at plan,
// naming the VM and the fix, with nothing deleted); an import sets it
// false; setting it false is an in-place change of the state alone (no
// API call), after which the replacement and the destroy go ahead.
func TestAccTPUVM_deletionProtection(t *testing.T) {
	tg := acctest.New(t)
	name := acctest.RandomName("protect")
	accel, _, _ := smallType(tg)
	config := func(protect bool, secureBoot string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name                = %[1]q
  accelerator_type    = %[2]q
  deletion_protection = %[3]t
%[4]s
}
`, name, accel, protect, secureBoot))
	}
	const secureBoot = "  shielded_instance_config {\n    enable_secure_boot = true\n  }"
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	calls := tg.Calls()
	noChange := func() error { return expectNodesNow(tg, name, id) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: config(true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
				},
			},
			{
				// An import sets it false: the one attribute the import
				// cannot read from the API.
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"deletion_protection"},
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].Attributes["deletion_protection"] != "false" {
						return fmt.Errorf("imported deletion_protection = %q, want false", states[0].Attributes["deletion_protection"])
					}
					return nil
				},
			},
			{
				PreConfig:   calls.Snapshot,
				Config:      config(true, ""),
				Destroy:     true,
				ExpectError: protectedError(id, "this plan destroys it"),
			},
			{
				// Secure Boot needs a new VM: refused as well.
				Config:      config(true, secureBoot),
				ExpectError: protectedError(id, "this plan replaces it"),
			},
			{
				// Removing the resource from the configuration is a destroy.
				Config:      tg.Config(""),
				ExpectError: protectedError(id, "this plan destroys it"),
			},
			{
				Config: config(false, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(false)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("deletion_protection"), knownvalue.Bool(false)),
					// Nothing was deleted by the refused plans, and the
					// change called no method that changes a VM.
					acctest.CheckFunc(noChange),
					calls.Exactly(map[string]int64{
						emulator.MethodTPUNodesDelete: 0, emulator.MethodTPUNodesPatch: 0, emulator.MethodTPUNodesCreate: 0,
					}),
				},
			},
			{
				Config: config(false, secureBoot),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("shielded_instance_config").AtMapKey("enable_secure_boot"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

// nodeKey is the boot disk key the emulator holds for node id ("" for none).
func nodeKey(tg *acctest.Target, id string) string {
	for _, n := range tg.Emulator.Nodes() {
		if n.Name == id && n.BootDiskConfig != nil && n.BootDiskConfig.CustomerEncryptionKey != nil {
			return n.BootDiskConfig.CustomerEncryptionKey.KmsKeyName
		}
	}
	return ""
}

// expectNodeKey checks that node id's boot disk is encrypted with key, as
// the API reports it (the key's version 1), or has no key when key is "".
func expectNodeKey(tg *acctest.Target, id, key string) acctest.CheckFunc {
	return func() error {
		want := ""
		if key != "" {
			want = key + "/cryptoKeyVersions/1"
		}
		if got := nodeKey(tg, id); got != want {
			return fmt.Errorf("boot disk key of %s = %q, want %q", id, got, want)
		}
		return nil
	}
}

// recreateWithKey deletes node id behind Terraform's back and creates it
// again, labels (the owner's included) and all, with another boot disk key:
// drift in a setting the API cannot change on a VM.
func recreateWithKey(t *testing.T, tg *acctest.Target, id, key string) {
	t.Helper()
	i := slices.IndexFunc(tg.Emulator.Nodes(), func(n *tpu.Node) bool { return n.Name == id })
	if i < 0 {
		t.Fatalf("no node %s to recreate", id)
	}
	old := tg.Emulator.Nodes()[i]
	mustNoErr(t, tg.Emulator.DeleteNode(id))
	svc, err := tpu.NewService(t.Context(), option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	project, zone, name, err := gcp.ParseNodeID(id)
	mustNoErr(t, err)
	op, err := svc.Projects.Locations.Nodes.Create("projects/"+project+"/locations/"+zone, &tpu.Node{
		AcceleratorType: old.AcceleratorType, RuntimeVersion: old.RuntimeVersion, Labels: old.Labels,
		BootDiskConfig: &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: key}},
	}).NodeId(name).Context(t.Context()).Do()
	mustNoErr(t, err)
	mustNoErr(t, tg.WaitTPU(t.Context(), op))
}

// TestAccTPUVM_bootDiskKey: a VM whose boot disk is encrypted with a Cloud
// KMS key sends it as bootDiskConfig.customerEncryptionKey.kmsKeyName and
// records the key (not the version the API reports), with an empty plan
// after; it imports with the key; a VM found with another key (drift) is
// replaced, and so is one whose configured key changes or is removed.
func TestAccTPUVM_bootDiskKey(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses Cloud KMS keys that exist only in the emulator, and recreates the VM behind Terraform's back")
	name := acctest.RandomName("cmek")
	accel, _, _ := smallType(tg)
	first, second := bootKey(tg, "first"), bootKey(tg, "second")
	config := func(bootDisk string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
%[3]s
}
`, name, accel, bootDisk))
	}
	withKey := func(key string) string {
		return config(fmt.Sprintf("  boot_disk {\n    kms_key_name = %q\n  }", key))
	}
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	replaced := plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config: withKey(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(address, tfjsonpath.New("boot_disk").AtMapKey("kms_key_name"), knownvalue.StringExact(first)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("boot_disk").AtMapKey("kms_key_name"), knownvalue.StringExact(first)),
					expectNodeKey(tg, id, first),
				},
			},
			{ResourceName: address, ImportState: true, ImportStateVerify: true},
			{
				// Drift: the VM now has another key; the refresh records it
				// and the plan replaces the VM to get the configured one.
				PreConfig: func() { recreateWithKey(t, tg, id, second) },
				Config:    withKey(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{replaced},
				},
				ConfigStateChecks: []statecheck.StateCheck{expectNodeKey(tg, id, first)},
			},
			{
				Config:           withKey(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{replaced}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("boot_disk").AtMapKey("kms_key_name"), knownvalue.StringExact(second)),
					expectNodeKey(tg, id, second),
				},
			},
			{
				// Back to Google-managed encryption: a new VM as well.
				Config:           config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{replaced}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("boot_disk"), knownvalue.Null()),
					expectNodeKey(tg, id, ""),
				},
			},
		},
	})
}

// TestAccTPUVM_bootDiskKeyComputeEngine: through Compute Engine the key is
// the boot disk's diskEncryptionKey.kmsKeyName, read back on refresh and
// import; a new key replaces the VM.
func TestAccTPUVM_bootDiskKeyComputeEngine(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses Cloud KMS keys that exist only in the emulator; TPU7x capacity is granted on request")
	name := acctest.RandomName("cecmek")
	const zone = "us-central1-c"
	first := gcp.CryptoKeyName(tg.Project, "us-central1", "tpu", "first")
	second := gcp.CryptoKeyName(tg.Project, "global", "tpu", "second")
	config := func(key string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  zones            = [%[2]q]
  accelerator_type = "tpu7x-8"
  boot_disk {
    kms_key_name = %[3]q
  }
}
`, name, zone, key))
	}
	id := gcp.InstanceID(tg.Project, zone, name)
	srv := tg.Emulator
	diskKey := func(key string) acctest.CheckFunc {
		return func() error {
			in, err := srv.Instance(id)
			if err != nil {
				return err
			}
			if k := in.Disks[0].DiskEncryptionKey; !in.Disks[0].Boot || k == nil || k.KmsKeyName != key+"/cryptoKeyVersions/1" {
				return fmt.Errorf("boot disk key = %+v, want %s/cryptoKeyVersions/1", k, key)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{
				Config:           config(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("boot_disk").AtMapKey("kms_key_name"), knownvalue.StringExact(first)),
					diskKey(first),
				},
			},
			{
				// Compute Engine does not report the boot image (see
				// TestAccTPUVM_computeEngineTPU7x), hence the two ignored.
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"runtime_version", "framework"},
			},
			{
				Config: config(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{diskKey(second)},
			},
		},
	})
}

// nodeInterfaces is the network configs the emulator holds for node id.
func nodeInterfaces(tg *acctest.Target, id string) (*tpu.Node, error) {
	for _, n := range tg.Emulator.Nodes() {
		if n.Name == id {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no node %s", id)
}

// TestAccTPUVM_networkConfigs: a VM with two network interfaces sends them
// as networkConfigs (and no networkConfig), plans nothing after, imports
// them, keeps them through an in-place update (no network_config patch),
// and is replaced when one of them changes.
func TestAccTPUVM_networkConfigs(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses a second VPC network that exists only in the emulator")
	name := acctest.RandomName("nics")
	accel, _, _ := smallType(tg)
	region := catalog.RegionOf(tg.Zone)
	network := "projects/" + tg.Project + "/global/networks/second"
	subnetwork := "projects/" + tg.Project + "/regions/" + region + "/subnetworks/second"
	config := func(team string, forward bool) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  accelerator_type = %[2]q
  labels           = { team = %[3]q }
  network_configs {
    enable_external_ips = true
  }
  network_configs {
    network        = %[4]q
    subnetwork     = %[5]q
    can_ip_forward = %[6]t
  }
}
`, name, accel, team, network, subnetwork, forward))
	}
	id := gcp.NodeID(tg.Project, tg.Zone, name)
	calls := tg.Calls()
	sent := func(forward bool) acctest.CheckFunc {
		return func() error {
			n, err := nodeInterfaces(tg, id)
			if err != nil {
				return err
			}
			if n.NetworkConfig != nil || len(n.NetworkConfigs) != 2 || !n.NetworkConfigs[0].EnableExternalIps ||
				n.NetworkConfigs[1].Network != network || n.NetworkConfigs[1].CanIpForward != forward {
				return fmt.Errorf("node network config %+v, configs %+v", n.NetworkConfig, n.NetworkConfigs)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkGone(tg, name),
		Steps: []resource.TestStep{
			{
				Config:           config("a", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_configs"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"network": knownvalue.Null(), "subnetwork": knownvalue.Null(),
							"enable_external_ips": knownvalue.Bool(true), "can_ip_forward": knownvalue.Bool(false),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"network": knownvalue.StringExact(network), "subnetwork": knownvalue.StringExact(subnetwork),
							"enable_external_ips": knownvalue.Bool(false), "can_ip_forward": knownvalue.Bool(false),
						}),
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_config"), knownvalue.Null()),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_network_config").AtMapKey("enable_external_ips"), knownvalue.Bool(true)),
					sent(false),
				},
			},
			{ResourceName: address, ImportState: true, ImportStateVerify: true},
			{
				PreConfig: calls.Snapshot,
				Config:    config("b", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					calls.Exactly(map[string]int64{emulator.MethodTPUNodesPatch: 1, emulator.MethodTPUNodesCreate: 0}),
					sent(false),
				},
			},
			{
				Config: config("b", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{sent(true)},
			},
		},
	})
}

// TestAccTPUVM_networkConfigsComputeEngine: through Compute Engine each
// network_configs block is one network interface of the instance, read
// back and imported as network_configs.
func TestAccTPUVM_networkConfigsComputeEngine(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "uses VPC networks that exist only in the emulator; TPU7x capacity is granted on request")
	name := acctest.RandomName("cenics")
	const zone = "us-central1-c"
	nets := [2][2]string{}
	for i, n := range []string{"first", "second"} {
		nets[i] = [2]string{"projects/" + tg.Project + "/global/networks/" + n, "projects/" + tg.Project + "/regions/us-central1/subnetworks/" + n}
	}
	id := gcp.InstanceID(tg.Project, zone, name)
	srv := tg.Emulator
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{
				Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  zones            = [%[2]q]
  accelerator_type = "tpu7x-8"
  network_configs {
    network             = %[3]q
    subnetwork          = %[4]q
    enable_external_ips = true
  }
  network_configs {
    network    = %[5]q
    subnetwork = %[6]q
  }
}
`, name, zone, nets[0][0], nets[0][1], nets[1][0], nets[1][1])),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_configs"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints"), knownvalue.ListSizeExact(2)),
					acctest.CheckFunc(func() error {
						in, err := srv.Instance(id)
						if err != nil {
							return err
						}
						if len(in.NetworkInterfaces) != 2 || len(in.NetworkInterfaces[0].AccessConfigs) != 1 ||
							len(in.NetworkInterfaces[1].AccessConfigs) != 0 || !strings.HasSuffix(in.NetworkInterfaces[1].Network, nets[1][0]) {
							return fmt.Errorf("network interfaces %+v", in.NetworkInterfaces)
						}
						return nil
					}),
				},
			},
			{
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"runtime_version", "framework"}, // not reported by Compute Engine
			},
		},
	})
}

// TestAccTPUVM_productionSettingsPlanErrors: each misuse of boot_disk and
// network_configs fails at plan, on its attribute, naming the value and
// what to write instead; nothing is created.
func TestAccTPUVM_productionSettingsPlanErrors(t *testing.T) {
	tg := acctest.New(t)
	t.Cleanup(func() { tg.AssertNoCalls(t, emulator.MethodTPUNodesCreate) })
	vm := func(body string) string {
		return tg.Config(`
resource "accel_tpu_vm" "test" {
  name = "tf-acc-production"
` + body + `
}
`)
	}
	keyForm := regexp.QuoteMeta(`"` + gcp.CryptoKeyNameFormat + `"`)
	cases := map[string]acctest.PlanErrorCase{
		"key id alone": {
			Config: vm(`  accelerator_type = "v5litepod-4"
  boot_disk {
    kms_key_name = "tpu-boot"
  }`),
			Want: onLine(`Invalid Cloud KMS Key Name`, `kms_key_name = "tpu-boot"`, `"tpu-boot".*`+keyForm+`.*google_kms_crypto_key`),
		},
		"empty key": {
			Config: vm(`  accelerator_type = "v5litepod-4"
  boot_disk {
    kms_key_name = ""
  }`),
			Want: onLine(`Invalid Cloud KMS Key Name`, `kms_key_name = ""`, keyForm),
		},
		"both network blocks": {
			Config: vm(`  accelerator_type = "v5litepod-4"
  network_config {
    enable_external_ips = true
  }
  network_configs {
    network = "default"
  }`),
			Want: regexp.MustCompile(`(?s)Conflicting Network Settings.*` + words("network_config and network_configs are both set") +
				`.*` + words("mutually exclusive") + `.*` + words("in the first network_configs block")),
		},
		"empty network": {
			Config: vm(`  accelerator_type = "v5litepod-4"
  network_configs {
    network = ""
  }`),
			Want: onLine(`Invalid Attribute Value Length`, `network = ""`, `network_configs\[0\]\.network`),
		},
		"compute engine forwarding per interface": {
			Config: vm(`  accelerator_type = "tpu7x-8"
  zones            = ["us-central1-c"]
  network_configs {
    can_ip_forward = true
  }
  network_configs {
    network        = "projects/p/global/networks/second"
    can_ip_forward = false
  }`),
			Want: regexp.MustCompile(`(?s)Not Available Through Compute Engine.*` +
				words("network_configs[1].can_ip_forward is false, but network_configs[0].can_ip_forward is true") + `.*` +
				words("for the whole instance") + `.*` + words("Set the same can_ip_forward in every network_configs block")),
		},
	}
	resource.ParallelTest(t, acctest.PlanErrorTest(t, cases))
}

// TestAccTPUVM_productionSettingsUnknownAtPlan: a boot disk key, and a
// network_configs block beside network_config, known only at apply are
// checked then, before any API call, with the same errors.
func TestAccTPUVM_productionSettingsUnknownAtPlan(t *testing.T) {
	tg := acctest.New(t)
	t.Cleanup(func() { tg.AssertNoCalls(t, emulator.MethodTPUNodesCreate) })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: tg.Config(`
resource "terraform_data" "key" {
  input = "keyRings/tpu/cryptoKeys/boot"
}

resource "accel_tpu_vm" "test" {
  name             = "tf-acc-unknown-key"
  accelerator_type = "v5litepod-4"
  boot_disk {
    kms_key_name = terraform_data.key.output
  }
}
`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Cloud KMS Key Name.*keyRings/tpu/cryptoKeys/boot`),
			},
			{
				Config: tg.Config(`
resource "terraform_data" "nics" {
  input = [{ network = "default" }]
}

resource "accel_tpu_vm" "test" {
  name             = "tf-acc-unknown-nics"
  accelerator_type = "v5litepod-4"
  network_config {
    enable_external_ips = true
  }
  dynamic "network_configs" {
    for_each = terraform_data.nics.output
    content {
      network = network_configs.value.network
    }
  }
}
`),
				ExpectError: regexp.MustCompile(`(?s)Conflicting Network Settings`),
			},
		},
	})
}

// TestAccTPUVM_bootDiskKeyWarnings: a key of another region than the VM's
// zone, and a key version, are warnings that name the value and what to
// use; a key of the zone's region and a global key are not.
func TestAccTPUVM_bootDiskKeyWarnings(t *testing.T) {
	tg := acctest.New(t)
	env, tf := acctest.DevInstall(t), acctest.TerraformPath(t)
	zone, region := tg.Zone, catalog.RegionOf(tg.Zone)
	accel, _, _ := smallType(tg)
	const other = "asia-northeast1" // a region neither target's zone is in
	cases := []struct {
		name, key, summary, detail string
	}{
		{"other region", gcp.CryptoKeyName("k", other, "r", "boot"), "Boot Disk Key in Another Location",
			`a key of location "` + other + `", but the VM may be created in ` + zone},
		{"key version", gcp.CryptoKeyName("k", region, "r", "boot") + "/cryptoKeyVersions/3", "Cloud KMS Key Version Instead of a Key",
			`set boot_disk.kms_key_name = "` + gcp.CryptoKeyName("k", region, "r", "boot") + `"`},
		{"zone's region", gcp.CryptoKeyName("k", region, "r", "boot"), "", ""},
		{"global", gcp.CryptoKeyName("k", "global", "r", "boot"), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			diags, stdout, err := acctest.PlanDiagnostics(t, env, tf, tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-key-warnings"
  accelerator_type = %q
  zones            = [%q]
  boot_disk {
    kms_key_name = %q
  }
}
`, accel, zone, tc.key)))
			if err != nil {
				t.Fatalf("plan error = %v\nstdout:\n%s", err, stdout)
			}
			var warnings []acctest.Diagnostic
			for _, d := range diags {
				if d.Severity == "warning" && strings.Contains(d.Summary, "Key") {
					warnings = append(warnings, d)
				}
			}
			switch {
			case tc.summary == "" && len(warnings) > 0:
				t.Errorf("want no key warning, got %+v", warnings)
			case tc.summary != "" && (len(warnings) != 1 || warnings[0].Summary != tc.summary || !strings.Contains(warnings[0].Detail, tc.detail)):
				t.Errorf("want one warning %q with %q, got %+v", tc.summary, tc.detail, warnings)
			}
		})
	}
}

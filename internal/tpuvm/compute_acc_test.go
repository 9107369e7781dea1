// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// instancesNamed returns the ids of the emulator's Compute Engine instances
// named name.
func instancesNamed(srv *emulator.Server, name string) []string {
	var out []string
	for _, in := range srv.Instances() {
		if in.Name == name {
			out = append(out, in.SelfLink[strings.Index(in.SelfLink, "projects/"):])
		}
	}
	return out
}

// expectInstances is a state check on the emulator: exactly the given
// instance ids exist under name.
type expectInstances struct {
	srv  *emulator.Server
	name string
	ids  []string
}

func (e expectInstances) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = sameIDs("instances named "+e.name, instancesNamed(e.srv, e.name), e.ids)
}

func instancesGone(srv *emulator.Server, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := instancesNamed(srv, name); len(got) > 0 {
			return fmt.Errorf("instances left behind: %v", got)
		}
		return nil
	}
}

// TestAccTPUVM_computeEngineTPU7x: a TPU7x VM is created through Compute
// Engine without any api setting (the catalog's default), with the
// catalog's boot image and machine type, known in the plan. Labels, metadata
// and tags change in place; a new description replaces the VM. The VM
// imports by its instance id, and by the short id (which names a node) when
// there is no node of that name.
func TestAccTPUVM_computeEngineTPU7x(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "TPU7x capacity is granted on request; call counts are the emulator's")
	name := acctest.RandomName("tpu7x")
	const zone = "us-central1-c"
	ce, fs := catalog.Default().ComputeEngineTPU("tpu7x-8")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	config := func(description, team string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  zones            = [%[2]q]
  accelerator_type = "tpu7x-8"
  framework        = "jax"
  description      = %[3]q
  labels           = { team = %[4]q }
  metadata         = { startup-script = "echo ready" }
  tags             = ["tpu"]
}
`, name, zone, description, team))
	}
	id := gcp.InstanceID(tg.Project, zone, name)
	srv := tg.Emulator
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{
				Config: config("first", "serving"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("api"), knownvalue.StringExact("compute_engine")),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(ce.DefaultImage)),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("chips"), knownvalue.Int64Exact(4)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("RUNNING")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("accelerator_type"), knownvalue.StringExact("tpu7x-8")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(ce.DefaultImage)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("effective_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("serving"), "accel-managed": ownerID,
					})),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("network_endpoints"), knownvalue.ListSizeExact(1)),
					expectInstances{srv: srv, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodComputeInstancesInsert: 1, emulator.MethodTPUNodesCreate: 0}),
					checkInstance(srv, id, func(in instanceView) error {
						if !strings.HasSuffix(in.MachineType, "/machineTypes/"+ce.MachineType) {
							return fmt.Errorf("machine type %s, want %s", in.MachineType, ce.MachineType)
						}
						if in.Metadata["startup-script"] != "echo ready" || strings.Join(in.Tags, ",") != "tpu" {
							return fmt.Errorf("metadata %v, tags %v", in.Metadata, in.Tags)
						}
						return nil
					}),
				},
			},
			{
				// Labels change in place: one setLabels, no new instance.
				Config: config("first", "research"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tg.CallsSinceStart().Exactly(map[string]int64{
						emulator.MethodComputeInstancesInsert: 1, emulator.MethodComputeInstancesSetLabels: 1,
					}),
					checkInstance(srv, id, func(in instanceView) error {
						if in.Labels["team"] != "research" || in.Labels["accel-managed"] == "" {
							return fmt.Errorf("labels %v, want team=research and the ownership label", in.Labels)
						}
						return nil
					}),
				},
			},
			{
				ResourceName:            address,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"runtime_version", "framework"},
			},
			{
				// The short id names a node; there is none, so the instance
				// of that name is imported.
				ResourceName:            address,
				ImportState:             true,
				ImportStateId:           zone + "/" + name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"runtime_version", "framework"},
			},
			{
				// Compute Engine cannot change a description in place.
				Config: config("second", "research"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectInstances{srv: srv, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodComputeInstancesInsert: 2, emulator.MethodComputeInstancesDelete: 1}),
				},
			},
		},
	})
}

// TestAccTPUVM_computeEngineFallbackAndSpot: a Spot v6e VM through Compute
// Engine falls back to the next zone when the first has no capacity (the
// insert's operation ends ZONE_RESOURCE_POOL_EXHAUSTED), and a preemption
// (the instance TERMINATED) is drift the next plan replaces.
func TestAccTPUVM_computeEngineFallbackAndSpot(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects a stockout and a preemption")
	name := acctest.RandomName("cespot")
	zones := []string{"us-east5-a", "us-central1-b"}
	srv := tg.Emulator
	srv.SetCapacity(zones[0], "ct6e-standard-4t", 0)
	config := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %[1]q
  zones            = [%[2]s]
  accelerator_type = "v6e-4"
  api              = "compute_engine"
  scheduling_config {
    spot = true
  }
}
`, name, quoted(zones)))
	id := gcp.InstanceID(tg.Project, zones[1], name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("zone"), knownvalue.StringExact(zones[1])),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("scheduling_config").AtMapKey("spot"), knownvalue.Bool(true)),
					expectInstances{srv: srv, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodComputeInstancesInsert: 2}),
					checkInstance(srv, id, func(in instanceView) error {
						if in.ProvisioningModel != "SPOT" {
							return fmt.Errorf("provisioning model %q, want SPOT", in.ProvisioningModel)
						}
						return nil
					}),
				},
			},
			{
				PreConfig: func() {
					if err := srv.PreemptInstance(id); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("RUNNING")),
					expectInstances{srv: srv, name: name, ids: []string{id}},
				},
			},
		},
	})
}

// TestAccTPUVM_computeEngineAllZonesStockedOut: when no zone has capacity,
// the apply fails naming each zone's stockout, and no instance is left.
func TestAccTPUVM_computeEngineAllZonesStockedOut(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "injects stockouts")
	name := acctest.RandomName("cenocap")
	srv := tg.Emulator
	srv.SetCapacity("us-central1-c", "tpu7x-standard-4t", 0)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = ["us-central1-c"]
  accelerator_type = "tpu7x-8"
}
`, name)),
			ExpectError: regexp.MustCompile(`(?s)us-central1-c.*no capacity.*ZONE_RESOURCE_POOL_EXHAUSTED|(?s)us-central1-c.*does not have enough resources`),
		}},
	})
}

// instanceView is what the tests check of an emulator instance.
type instanceView struct {
	MachineType       string
	Labels            map[string]string
	Metadata          map[string]string
	Tags              []string
	ProvisioningModel string
}

func checkInstance(srv *emulator.Server, id string, check func(instanceView) error) statecheck.StateCheck {
	return acctest.CheckFunc(func() error {
		in, err := srv.Instance(id)
		if err != nil {
			return err
		}
		v := instanceView{MachineType: in.MachineType, Labels: in.Labels, Metadata: map[string]string{}}
		if in.Metadata != nil {
			for _, it := range in.Metadata.Items {
				if it.Value != nil {
					v.Metadata[it.Key] = *it.Value
				}
			}
		}
		if in.Tags != nil {
			v.Tags = in.Tags.Items
		}
		if in.Scheduling != nil {
			v.ProvisioningModel = in.Scheduling.ProvisioningModel
		}
		return check(v)
	})
}

// TestAccTPUVM_computeEngineForeignAndDisappears: an instance of the same
// name that this resource did not create (here made behind Terraform's
// back, as another state or a killed apply would leave it) is refused with
// its import id and never changed or deleted; an instance of this resource
// deleted outside Terraform is planned again.
func TestAccTPUVM_computeEngineForeignAndDisappears(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "creates and deletes Compute Engine instances behind Terraform's back through the emulator's endpoint")
	srv := tg.Emulator
	ctx := context.Background()
	svc, err := compute.NewService(ctx, option.WithEndpoint(srv.ComputeEndpoint()), option.WithoutAuthentication())
	mustNoErr(t, err)
	const zone = "us-central1-c"
	foreign, mine := acctest.RandomName("ceforeign"), acctest.RandomName("cemine")
	ce, _ := catalog.Default().ComputeEngineTPU("tpu7x-8")
	insert := func(name string) {
		t.Helper()
		op, err := svc.Instances.Insert(tg.Project, zone, &compute.Instance{
			Name: name, MachineType: "zones/" + zone + "/machineTypes/" + ce.MachineType,
			Labels: map[string]string{"owner": "someone-else"},
			Disks: []*compute.AttachedDisk{{Boot: true, AutoDelete: true,
				InitializeParams: &compute.AttachedDiskInitializeParams{SourceImage: ce.DefaultImage, DiskType: "zones/" + zone + "/diskTypes/hyperdisk-balanced"}}},
			NetworkInterfaces: []*compute.NetworkInterface{{Network: "global/networks/default"}},
		}).Context(ctx).Do()
		mustNoErr(t, err)
		_, err = svc.ZoneOperations.Wait(tg.Project, zone, op.Name).Context(ctx).Do()
		mustNoErr(t, err)
	}
	insert(foreign)
	foreignID := gcp.InstanceID(tg.Project, zone, foreign)
	before, err := srv.Instance(foreignID)
	mustNoErr(t, err)
	config := func(name string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = "tpu7x-8"
}
`, name, zone))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, mine),
		Steps: []resource.TestStep{
			{
				Config:      config(foreign),
				ExpectError: regexp.MustCompile(`(?s)TPU VM Name Already in Use.*` + regexp.QuoteMeta(foreignID)),
			},
			{
				Config: config(mine),
				ConfigStateChecks: []statecheck.StateCheck{
					expectInstances{srv: srv, name: mine, ids: []string{gcp.InstanceID(tg.Project, zone, mine)}},
				},
			},
			{
				PreConfig: func() {
					op, err := svc.Instances.Delete(tg.Project, zone, mine).Context(ctx).Do()
					mustNoErr(t, err)
					_, err = svc.ZoneOperations.Wait(tg.Project, zone, op.Name).Context(ctx).Do()
					mustNoErr(t, err)
				},
				Config: config(mine),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectInstances{srv: srv, name: mine, ids: []string{gcp.InstanceID(tg.Project, zone, mine)}},
				},
			},
		},
	})
	after, err := srv.Instance(foreignID)
	mustNoErr(t, err)
	if after.Id != before.Id || after.LabelFingerprint != before.LabelFingerprint || after.Labels["owner"] != "someone-else" {
		t.Errorf("the foreign instance changed: before %+v, after %+v", before, after)
	}
}

// TestAccTPUVM_computeEngineLiveZone: when the plan can reach Compute
// Engine, a zone the catalog lists for the generation (the AI zone
// us-central1-ai1a) but whose Compute Engine does not offer the VM's TPU
// machine type (the emulator has no such zone) is an error on its zones
// element, naming the zones that offer it, before anything is created.
func TestAccTPUVM_computeEngineLiveZone(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "relies on the emulator's answer of which zones offer tpu7x-standard-4t")
	t.Cleanup(func() { tg.AssertNoCalls(t, emulator.MethodComputeInstancesInsert) })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.Config(`
resource "accel_tpu_vm" "test" {
  name             = "tf-acc-celive"
  zones            = ["us-central1-c", "us-central1-ai1a"]
  accelerator_type = "tpu7x-8"
}
`),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Zone Does Not Offer Accelerator.*Compute Engine does not offer machine type\s+"tpu7x-standard-4t" in\s+zone\s+"us-central1-ai1a".*us-central1-c`),
		}},
	})
}

// TestAccTPUVM_computeEngineEndpointAnswersHTML: a Compute Engine endpoint
// that answers an HTML page (a proxy's sign-in page) fails the insert after
// gcp.NotAPIAttempts calls with a message naming the setting, records
// nothing and creates nothing; a refresh that gets HTML (from the zone's
// list, then from its own get) fails the same way and leaves the state as it
// was, which plans empty once the API answers.
func TestAccTPUVM_computeEngineEndpointAnswersHTML(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "answers Compute Engine calls with an HTML page")
	srv := tg.Emulator
	name := acctest.RandomName("cehtml")
	const forever = 1 << 30
	cfg := tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = ["us-central1-c"]
  accelerator_type = "tpu7x-8"
}
`, name))
	notAPI := regexp.MustCompile(`(?s)did\s+not\s+answer\s+like\s+the\s+API.*text/html.*compute_endpoint\s+\(or\s+ACCEL_COMPUTE_ENDPOINT\)`)
	answerHTML := func(method string, n int) {
		if err := srv.AnswerHTML(method, n, 200); err != nil {
			t.Fatal(err)
		}
	}
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { answerHTML(emulator.MethodComputeInstancesInsert, forever) },
				Config:      cfg,
				ExpectError: notAPI,
			},
			{
				PreConfig: func() {
					if got := srv.Counters()[emulator.MethodComputeInstancesInsert]; got != gcp.NotAPIAttempts {
						t.Errorf("instances.insert called %d times, want %d", got, gcp.NotAPIAttempts)
					}
					if got := instancesNamed(srv, name); len(got) > 0 {
						t.Errorf("instances created from HTML answers: %v", got)
					}
					answerHTML(emulator.MethodComputeInstancesInsert, 0)
				},
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectInstances{srv: srv, name: name, ids: []string{gcp.InstanceID(tg.Project, "us-central1-c", name)}},
				},
			},
			{
				PreConfig: func() {
					before = srv.Counters()[emulator.MethodComputeInstancesGet]
					answerHTML(emulator.MethodComputeInstancesList, forever)
					answerHTML(emulator.MethodComputeInstancesGet, forever)
				},
				RefreshState: true,
				ExpectError:  notAPI,
			},
			{
				PreConfig: func() {
					if got := srv.Counters()[emulator.MethodComputeInstancesGet] - before; got != gcp.NotAPIAttempts {
						t.Errorf("the refresh called instances.get %d times, want %d", got, gcp.NotAPIAttempts)
					}
					answerHTML(emulator.MethodComputeInstancesList, 0)
					answerHTML(emulator.MethodComputeInstancesGet, 0)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccTPUVM_apiSwitch: changing api replaces the VM through the other
// API both ways, with runtime_version and cidr_block unset: the values the
// old API reported and the state kept (a Cloud TPU runtime, the VM's CIDR
// block; a boot image) are planned again for the new one, never checked
// against it.
func TestAccTPUVM_apiSwitch(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "counts the Cloud TPU and Compute Engine creates")
	name := acctest.RandomName("apisw")
	const zone = "us-central1-b"
	ce, fs := catalog.Default().ComputeEngineTPU("v6e-4")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	config := func(api string) string {
		line := ""
		if api != "" {
			line = fmt.Sprintf("  api              = %q\n", api)
		}
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = "v6e-4"
%s}
`, name, zone, line))
	}
	srv := tg.Emulator
	nodeID := "projects/" + tg.Project + "/locations/" + zone + "/nodes/" + name
	instanceID := gcp.InstanceID(tg.Project, zone, name)
	var cloudRuntime string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             resource.ComposeTestCheckFunc(instancesGone(srv, name), checkGone(tg, name)),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("api"), knownvalue.StringExact("cloud_tpu")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(nodeID)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("cidr_block"), knownvalue.NotNull()),
				},
				Check: func(s *terraform.State) error {
					cloudRuntime = s.RootModule().Resources[address].Primary.Attributes["runtime_version"]
					return nil
				},
			},
			{
				Config: config("compute_engine"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(ce.DefaultImage)),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(instanceID)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("runtime_version"), knownvalue.StringExact(ce.DefaultImage)),
					expectInstances{srv: srv, name: name, ids: []string{instanceID}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 1, emulator.MethodTPUNodesDelete: 1,
						emulator.MethodComputeInstancesInsert: 1}),
				},
			},
			{
				Config: config("cloud_tpu"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[address].Primary.Attributes["runtime_version"]; got != cloudRuntime {
						return fmt.Errorf("runtime_version %q after switching back, want the catalog's %q", got, cloudRuntime)
					}
					return nil
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("id"), knownvalue.StringExact(nodeID)),
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodTPUNodesCreate: 2, emulator.MethodComputeInstancesDelete: 1}),
				},
			},
		},
	})
}

// TestAccTPUVM_computeEngineStoppedKept: an on-demand instance stopped
// outside Terraform (status TERMINATED, as gcloud compute instances stop
// leaves it) is kept, not replaced: the next plan is empty, and its labels
// are still updated in place; started again, it is the same instance.
func TestAccTPUVM_computeEngineStoppedKept(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "stops the instance out of band")
	name := acctest.RandomName("cestop")
	const zone = "us-central1-c"
	config := func(team string) string {
		return tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = "tpu7x-8"
  labels           = { team = %q }
}
`, name, zone, team))
	}
	id := gcp.InstanceID(tg.Project, zone, name)
	srv := tg.Emulator
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{
			{Config: config("a")},
			{
				PreConfig: func() {
					if err := srv.SetInstanceStatus(id, "TERMINATED"); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("TERMINATED")),
				},
			},
			{
				Config: config("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("labels").AtMapKey("team"), knownvalue.StringExact("b")),
					expectInstances{srv: srv, name: name, ids: []string{id}},
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodComputeInstancesInsert: 1, emulator.MethodComputeInstancesDelete: 0}),
				},
			},
			{
				PreConfig: func() {
					if err := srv.SetInstanceStatus(id, "RUNNING"); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("b"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("state"), knownvalue.StringExact("RUNNING")),
					tg.CallsSinceStart().Exactly(map[string]int64{emulator.MethodComputeInstancesInsert: 1}),
				},
			},
		},
	})
}

// TestAccTPUVM_computeEngineBareNetworkNames: network_config with bare
// network and subnetwork names (which the Cloud TPU API takes) creates the
// instance on the partial URLs Compute Engine takes, and the next plan is
// empty. The emulator refuses a bare name, as Compute Engine does.
func TestAccTPUVM_computeEngineBareNetworkNames(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "reads the instance's network interface from the emulator")
	name := acctest.RandomName("cenet")
	const zone = "us-central1-c"
	id := gcp.InstanceID(tg.Project, zone, name)
	srv := tg.Emulator
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             instancesGone(srv, name),
		Steps: []resource.TestStep{{
			Config: tg.Config(fmt.Sprintf(`
resource "accel_tpu_vm" "test" {
  name             = %q
  zones            = [%q]
  accelerator_type = "tpu7x-8"
  network_config {
    network    = "default"
    subnetwork = "default"
  }
}
`, name, zone)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("network_config").AtMapKey("subnetwork"), knownvalue.StringExact("default")),
				acctest.CheckFunc(func() error {
					in, err := srv.Instance(id)
					if err != nil {
						return err
					}
					nic := in.NetworkInterfaces[0]
					if !strings.HasSuffix(nic.Subnetwork, "/projects/"+tg.Project+"/regions/us-central1/subnetworks/default") ||
						!strings.HasSuffix(nic.Network, "/projects/"+tg.Project+"/global/networks/default") {
						return fmt.Errorf("network %s, subnetwork %s", nic.Network, nic.Subnetwork)
					}
					return nil
				}),
			},
		}},
	})
}

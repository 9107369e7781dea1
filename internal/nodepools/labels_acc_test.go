// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccFallbackNodePools_defaultLabels: the provider's default_labels are
// written to each tier's pool as Compute Engine resource labels, with the
// tier's resource_labels over them (terraform_resource_labels), next to the
// ownership label; a label added outside Terraform shows in
// effective_resource_labels and plans nothing; a change of default_labels
// updates the pool in place; import reads the pool's labels back.
func TestAccFallbackNodePools_defaultLabels(t *testing.T) {
	tg := newTarget(t)
	tg.RequireEmulatorFor(t, "adds a resource label behind Terraform's back through the emulator's endpoint")
	_, gpuZone := zones(tg)
	name := acctest.RandomName("deflabels")
	body := config(tg, name, "", gpuTier(name, gpuZone, "g2-standard-4", line("resource_labels", `{ team = "serving" }`)))
	// config renders the provider block too: keep only the resource.
	resourceBody := body[len(tg.ProviderConfig()):]
	first := tg.ConfigWithDefaultLabels(map[string]string{"env": "prod", "team": "platform"}, resourceBody)
	second := tg.ConfigWithDefaultLabels(map[string]string{"env": "staging"}, resourceBody)
	str := knownvalue.StringExact
	const gke = "goog-gke-node-pool-provisioning-model" // added by GKE
	owner := knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{20}$`))
	labelsAre := func(want map[string]string) func(*container.NodePool) bool {
		return func(np *container.NodePool) bool {
			got := maps.Clone(np.Config.ResourceLabels)
			maps.DeleteFunc(got, func(k, _ string) bool { return k == "accel-managed" || strings.HasPrefix(k, "goog-") })
			return ours(np) && maps.Equal(got, want)
		}
	}
	creates := tg.Calls()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, name),
		Steps: []resource.TestStep{{
			Config: first,
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: name, check: reports("default labels", labelsAre(map[string]string{"env": "prod", "team": "serving"}))},
				statecheck.ExpectKnownValue(address, tierPath(0, "resource_labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": str("serving")})),
				statecheck.ExpectKnownValue(address, tierPath(0, "terraform_resource_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"env": str("prod"), "team": str("serving"),
				})),
				statecheck.ExpectKnownValue(address, tierPath(0, "effective_resource_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"env": str("prod"), "team": str("serving"), "accel-managed": owner, gke: str("on-demand"),
				})),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}, {
			// A resource label added outside Terraform: shown, never a diff.
			PreConfig: func() { addResourceLabel(t, tg, name, "owner", "someone-else") },
			Config:    first,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tierPath(0, "effective_resource_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"env": str("prod"), "team": str("serving"), "owner": str("someone-else"), "accel-managed": owner, gke: str("on-demand"),
				})),
			},
		}, {
			PreConfig: creates.Snapshot,
			Config:    second,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				poolCheck{tg: tg, name: name, check: reports("changed default labels", func(np *container.NodePool) bool {
					return ours(np) && np.Config.ResourceLabels["env"] == "staging" && np.Config.ResourceLabels["team"] == "serving"
				})},
				poolsCreated(creates, false, "default_labels"),
				statecheck.ExpectKnownValue(address, tierPath(0, "terraform_resource_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"env": str("staging"), "team": str("serving"),
				})),
				statecheck.ExpectKnownValue(address, tierPath(0, "effective_resource_labels").AtMapKey("accel-managed"), owner),
			},
		}, {
			// Import takes every label of the pool's own as managed, as the
			// google provider does.
			ResourceName:            address,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateId:           tg.Cluster + "/nodePools/" + name,
			ImportStateVerifyIgnore: []string{"timeouts", "pools", "tiers.0.resource_labels", "tiers.0.terraform_resource_labels"},
		}},
	})
}

// addResourceLabel adds a Compute Engine resource label to a pool the way
// gcloud would, keeping the others.
func addResourceLabel(t *testing.T, tg *acctest.Target, pool, key, value string) {
	t.Helper()
	ctx := t.Context()
	svc, err := container.NewService(ctx, option.WithEndpoint(tg.Emulator.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	id := tg.Cluster + "/nodePools/" + pool
	np, err := svc.Projects.Locations.Clusters.NodePools.Get(id).Context(ctx).Do()
	if err != nil {
		t.Fatal(err)
	}
	labels := maps.Clone(np.Config.ResourceLabels)
	labels[key] = value
	op, err := svc.Projects.Locations.Clusters.NodePools.Update(id, &container.UpdateNodePoolRequest{
		ResourceLabels: &container.ResourceLabels{Labels: labels},
	}).Context(ctx).Do()
	if err != nil {
		t.Fatal(err)
	}
	// The emulator applies the update when its operation ends: wait for
	// that, however long it takes, rather than for a fixed time.
	if err := tg.WaitGKE(ctx, op); err != nil {
		t.Fatalf("out-of-band update failed: %v", err)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// poolsIdentity is the identity of the target cluster's pools, given in
// tier order.
func poolsIdentity(tg *acctest.Target, names ...string) map[string]knownvalue.Check {
	project, location, cluster, _ := gcp.ParseClusterID(tg.Cluster)
	var pools []knownvalue.Check
	for _, n := range names {
		pools = append(pools, knownvalue.StringExact(n))
	}
	return map[string]knownvalue.Check{
		"project":    knownvalue.StringExact(project),
		"location":   knownvalue.StringExact(location),
		"cluster":    knownvalue.StringExact(cluster),
		"node_pools": knownvalue.ListExact(pools),
	}
}

// TestAccFallbackNodePools_identity pins the resource identity (Terraform
// 1.12 and later): recorded on create with the pools in tier order, and an
// import block with identity instead of id imports the pools in the tier
// order it lists them, with or without the project.
func TestAccFallbackNodePools_identity(t *testing.T) {
	tg := newTarget(t)
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("id")
	class := prefix + "-class"
	tpuName, gpuName := prefix+"-v6e", prefix+"-l4"
	cfg := config(tg, class, "",
		tpuTier(tpuName, tpuZone, "v6e-4", line("node_count", "1")),
		gpuTier(gpuName, gpuZone, "g2-standard-4"))
	_, location, cluster, _ := gcp.ParseClusterID(tg.Cluster)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, tpuName, gpuName),
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(address, poolsIdentity(tg, tpuName, gpuName))},
			},
			{
				ResourceName:    address,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				// The project left to the provider; the pools in tier order.
				Config: cfg + fmt.Sprintf(`
import {
  to       = accel_fallback_nodepools.test
  identity = { location = %q, cluster = %q, node_pools = [%q, %q] }
}
`, location, cluster, tpuName, gpuName),
				ResourceName:           address,
				ImportState:            true,
				ImportStateKind:        resource.ImportBlockWithResourceIdentity,
				ImportStateConfigExact: true,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(address, plancheck.ResourceActionNoop),
						plancheck.ExpectKnownValue(address, tierPath(0, "name"), knownvalue.StringExact(tpuName)),
						plancheck.ExpectKnownValue(address, tierPath(1, "name"), knownvalue.StringExact(gpuName)),
					},
				},
			},
		},
	})
}

// TestAccFallbackNodePools_query pins the list resource (terraform query,
// Terraform 1.14 and later): the pools one resource created are one result,
// TPU tier first, with the configuration an import of them plans no change
// for; a pool created outside this provider is a result of its own.
func TestAccFallbackNodePools_query(t *testing.T) {
	tg := newTarget(t)
	tpuZone, gpuZone := zones(tg)
	prefix := acctest.RandomName("q")
	class := prefix + "-class"
	// Names chosen so that name order puts the GPU pool first.
	tpuName, gpuName := prefix+"-z-v6e", prefix+"-a-l4"
	cfg := config(tg, class, "",
		tpuTier(tpuName, tpuZone, "v6e-4", line("node_count", "1")),
		gpuTier(gpuName, gpuZone, "g2-standard-4"))
	project, location, cluster, _ := gcp.ParseClusterID(tg.Cluster)
	// The query file is read with the configuration of the step before,
	// which has the provider block.
	query := fmt.Sprintf(`
list "accel_fallback_nodepools" "all" {
  provider         = accel
  include_resource = true
  config {
    project  = %q
    location = %q
    cluster  = %q
  }
}
`, project, location, cluster)
	ours := poolsIdentity(tg, tpuName, gpuName) // TPU tier first
	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectIdentity("accel_fallback_nodepools.all", ours),
		querycheck.ExpectResourceDisplayName("accel_fallback_nodepools.all", queryfilter.ByResourceIdentity(ours),
			knownvalue.StringRegexp(regexp.MustCompile("^"+regexp.QuoteMeta(cluster+": "+tpuName+", "+gpuName+" (accel-managed = ")))),
		querycheck.ExpectResourceKnownValues("accel_fallback_nodepools.all", queryfilter.ByResourceIdentity(ours), []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("compute_class"), KnownValue: knownvalue.StringExact(class)},
			{Path: tierPath(0, "name"), KnownValue: knownvalue.StringExact(tpuName)},
			{Path: tierPath(0, "accelerator_type"), KnownValue: knownvalue.StringExact("v6e-4")},
			{Path: tierPath(1, "name"), KnownValue: knownvalue.StringExact(gpuName)},
			{Path: tierPath(1, "gpu_type"), KnownValue: knownvalue.StringExact("nvidia-l4")},
		}),
	}
	if tg.Emulator != nil {
		// The seeded default-pool carries no ownership label: a result of its own.
		checks = append(checks,
			querycheck.ExpectIdentity("accel_fallback_nodepools.all", poolsIdentity(tg, "default-pool")),
			querycheck.ExpectLength("accel_fallback_nodepools.all", 2))
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(tg, tpuName, gpuName),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				Query:             true,
				Config:            query,
				QueryResultChecks: checks,
			},
		},
	})
}

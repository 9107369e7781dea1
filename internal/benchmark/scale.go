// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"strings"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// The scale comparison plans N TPU VMs, and N node-pool resources of three
// tiers, against the emulator, with this provider and with the Google
// providers side by side (N google-beta google_tpu_v2_vm; 3N google
// google_container_node_pool, the pools this provider creates): a plan of a
// create (no state) and a plan with state (every resource refreshed), each
// command's API calls counted. Each provider and size has a project of its
// own, so that a list holds only the objects of that configuration.
const (
	scaleAccelProject  = "bench-accel"
	scaleGoogleProject = "bench-google"
	// scaleCluster is the emulator's seeded cluster of every project.
	scaleCluster = "us-central1/clusters/serving"
)

// googleUniverse is the Google providers' universe_domain in the plans at
// scale. When they are configured they ask openidconnect.googleapis.com
// whose identity their credentials are, retrying for minutes when it cannot
// be reached (transport.GetCurrentUserEmail), unless the universe domain is
// not googleapis.com; every API the configurations use has a custom
// endpoint, so no call leaves the emulator.
const googleUniverse = "emulator.test"

// ScaleKinds are the resources of the scale comparison: this provider's and
// the Google providers' of the same objects, and the floors of the two TPU
// VM schemas.
var ScaleKinds = []Kind{KindResources, KindGoogleBeta, KindNodePools, KindGooglePools, KindRawTPUVM, KindRawGoogleTPUVM}

// ScalePeer is the Google provider resource compared with kind.
func ScalePeer(kind Kind) Kind {
	if kind == KindNodePools {
		return KindGooglePools
	}
	return KindGoogleBeta
}

// ScaleResult is the plans of N resources of one kind at scale.
type ScaleResult struct {
	Kind Kind
	// N is the number of accel_tpu_vm or google_tpu_v2_vm, or of
	// accel_fallback_nodepools (google_container_node_pool: 3N pools).
	N int
	// Zones is how many zones the TPU VMs are spread over (1 for the pools:
	// one cluster).
	Zones int
	// Latency is the emulator's delay before every answer (0 for the
	// floors, which call no API).
	Latency time.Duration
	// Create is a plan with no state; Refresh a plan with the state of an
	// apply of the same configuration, which reads every resource.
	Create, Refresh Sample
	// Before marks this provider built from another revision (planbench
	// -before), planned in the same rounds for before-and-after figures;
	// the guide leaves such results out.
	Before bool `json:",omitempty"`
}

// ScaleZones is the number of distinct zones of ScaleConfig's TPU VMs.
func ScaleZones(n int) int {
	seen := map[string]bool{}
	for i := range min(n, len(planShapes)) {
		seen[planShapes[i].zone] = true
	}
	return len(seen)
}

// googleTiers are the pools this provider creates for planTiers, as
// google_container_node_pool arguments (machine type, accelerators, zone):
// the compute-class label and taint of the resource, and the taint GKE
// places on TPU and GPU nodes, are added for each.
var googleTiers = []struct{ machine, accelerator, taint, zone string }{
	{"ct6e-standard-4t", "", "google.com/tpu", "us-central1-b"},
	{"g2-standard-4", "nvidia-l4", "nvidia.com/gpu", "us-central1-a"},
	{"ct5lp-hightpu-4t", "", "google.com/tpu", "us-central1-a"},
}

// ScaleConfig is the configuration of n resources of kind planned against
// the emulator at baseURL: the TPU VMs as PlanConfig configures them, the
// node pools as PlanConfig's (3N google_container_node_pool for
// KindGooglePools).
func ScaleConfig(kind Kind, n int, baseURL string) string {
	return scaleConfig(kind, n, baseURL, false)
}

// scaleConfig is ScaleConfig, of the provider built from the -before
// revision (BeforeSource, in a project of its own) when before is set.
func scaleConfig(kind Kind, n int, baseURL string, before bool) string {
	if kind.Raw() { // no API: the floor of the schema
		return planConfig(kind, n, "")
	}
	var b strings.Builder
	project := fmt.Sprintf("%s-%d", scaleAccelProject, n)
	source := AccelSource
	if before {
		project, source = fmt.Sprintf("%s-before-%d", scaleAccelProject, n), BeforeSource
	}
	if kind == KindGoogleBeta || kind == KindGooglePools {
		project = fmt.Sprintf("%s-%d", scaleGoogleProject, n)
	}
	if kind == KindNodePools || kind == KindGooglePools {
		project += "-pools"
	}
	cluster := "projects/" + project + "/locations/" + scaleCluster
	switch kind {
	case KindGoogleBeta, KindGooglePools:
		name, source := "google-beta", GoogleBetaSource
		if kind == KindGooglePools {
			name, source = "google", GoogleSource
		}
		fmt.Fprintf(&b, "terraform {\n  required_providers {\n    %s = { source = %q }\n  }\n}\n\n", name, source)
		fmt.Fprintf(&b, "provider %q {\n  project                   = %q\n  zone                      = \"us-central1-a\"\n"+
			"  access_token              = \"emulator\"\n  universe_domain           = %q\n"+
			"  container_custom_endpoint = \"%s/v1/\"\n  compute_custom_endpoint   = \"%s/compute/v1/\"\n",
			name, project, googleUniverse, baseURL, baseURL)
		if kind == KindGoogleBeta { // the google provider has no tpu_v2_custom_endpoint
			fmt.Fprintf(&b, "  tpu_v2_custom_endpoint    = \"%s/v2/\"\n", baseURL)
		}
		b.WriteString("}\n")
	default:
		b.WriteString(requiredSource(source))
		fmt.Fprintf(&b, "provider \"accel\" {\n  project            = %q\n  zone               = \"us-central1-a\"\n"+
			"  tpu_endpoint       = \"%s/\"\n  container_endpoint = \"%s/\"\n  compute_endpoint   = \"%s/compute/v1/\"\n}\n",
			project, baseURL, baseURL, baseURL)
	}
	switch kind {
	case KindGooglePools:
		for i := range n {
			for j, t := range googleTiers {
				fmt.Fprintf(&b, "\nresource \"google_container_node_pool\" \"np%d_%d\" {\n  cluster        = %q\n  name           = \"bench-%d-%d\"\n"+
					"  node_locations = [%q]\n  node_count     = 1\n\n  node_config {\n    machine_type = %q\n"+
					"    labels       = { \"cloud.google.com/compute-class\" = \"bench-%d\" }\n", i, j, cluster, i, j, t.zone, t.machine, i)
				if t.accelerator != "" {
					fmt.Fprintf(&b, "\n    guest_accelerator {\n      type  = %q\n      count = 1\n"+
						"      gpu_driver_installation_config {\n        gpu_driver_version = \"DEFAULT\"\n      }\n    }\n", t.accelerator)
				}
				fmt.Fprintf(&b, "\n    taint {\n      key    = %q\n      value  = \"present\"\n      effect = \"NO_SCHEDULE\"\n    }\n", t.taint)
				fmt.Fprintf(&b, "\n    taint {\n      key    = \"cloud.google.com/compute-class\"\n      value  = \"bench-%d\"\n      effect = \"NO_SCHEDULE\"\n    }\n  }\n}\n", i)
			}
		}
	default:
		config := planConfig(kind, n, source)
		// The blocks of PlanConfig, after its provider settings, on this
		// project's cluster.
		blocks := config[strings.Index(config, "\nresource "):]
		b.WriteString(strings.ReplaceAll(blocks, emulatorCluster, cluster))
	}
	return b.String()
}

// ScaleJobs are the jobs of the scale comparison of kind at n with srv
// answering after latency: a plan of a create and a plan with state (its
// workspace applied first, with no latency), both counting srv's API calls.
// The jobs of kind and n at other latencies share their workspaces. With
// before, they plan the provider built from the -before revision.
func ScaleJobs(kind Kind, n int, srv *emulator.Server, latency time.Duration, before bool) []Job {
	config := scaleConfig(kind, n, srv.URL(), before)
	setLatency := func() error { return srv.SetLatency("", latency) }
	at, workspace := "", fmt.Sprintf("%s %d", kind, n)
	if latency > 0 {
		at = " at " + latency.String()
	}
	if before {
		at += ", before"
		workspace += " before"
	}
	return []Job{
		{Label: fmt.Sprintf("plan of a create of %d %s%s", n, kind, at), Config: config, Args: PlanArgs, Calls: srv.Counters,
			Before: setLatency, Workspace: "create " + workspace},
		{Label: fmt.Sprintf("plan with state of %d %s%s", n, kind, at), Config: config, Args: PlanArgs, Calls: srv.Counters,
			Before: setLatency, Workspace: "state " + workspace,
			Setup: []string{"apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=32"}},
	}
}

// StartScaleEmulator starts the emulator of the scale comparison: instant
// operations, unlimited capacity, lists of at most pageSize items a page
// (0: everything in one page).
func StartScaleEmulator(pageSize int) (*emulator.Server, error) {
	sc := emulator.Default()
	sc.Durations = emulator.Durations{}
	sc.ListPageSize = pageSize
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		return nil, fmt.Errorf("starting the emulator: %w", err)
	}
	return srv, nil
}

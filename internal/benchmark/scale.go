// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"strings"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// The scale comparison plans N TPU VMs against the emulator, with this
// provider and with google-beta side by side: a plan of a create (no state)
// and a plan with state (every VM refreshed), each command's API calls
// counted. Each provider and size has a project of its own, so that a list
// of a zone holds only the VMs of that configuration.
const (
	scaleAccelProject  = "bench-accel"
	scaleGoogleProject = "bench-google"
)

// ScaleKinds are the resources of the scale comparison.
var ScaleKinds = []Kind{KindResources, KindGoogleBeta}

// ScaleResult is the plans of N resources of one kind at scale.
type ScaleResult struct {
	Kind Kind
	N    int
	// Zones is how many zones the N resources are spread over.
	Zones int
	// Create is a plan with no state; Refresh a plan with the state of an
	// apply of the same configuration, which reads every resource.
	Create, Refresh Sample
}

// ScaleZones is the number of distinct zones of ScaleConfig's blocks.
func ScaleZones(n int) int {
	seen := map[string]bool{}
	for i := range min(n, len(planShapes)) {
		seen[planShapes[i].zone] = true
	}
	return len(seen)
}

// ScaleConfig is n blocks of kind (KindResources or KindGoogleBeta) planned
// against the emulator at baseURL, configured as PlanConfig configures them.
func ScaleConfig(kind Kind, n int, baseURL string) string {
	var b strings.Builder
	switch kind {
	case KindGoogleBeta:
		fmt.Fprintf(&b, "terraform {\n  required_providers {\n    google-beta = { source = %q }\n  }\n}\n\n", GoogleBetaSource)
		fmt.Fprintf(&b, "provider \"google-beta\" {\n  project                = %q\n  zone                   = \"us-central1-a\"\n"+
			"  access_token           = \"emulator\"\n  tpu_v2_custom_endpoint  = \"%s/v2/\"\n  compute_custom_endpoint = \"%s/compute/v1/\"\n}\n",
			fmt.Sprintf("%s-%d", scaleGoogleProject, n), baseURL, baseURL)
	default:
		b.WriteString(requiredProviders)
		fmt.Fprintf(&b, "provider \"accel\" {\n  project            = %q\n  zone               = \"us-central1-a\"\n"+
			"  tpu_endpoint       = \"%s/\"\n  container_endpoint = \"%s/\"\n  compute_endpoint   = \"%s/compute/v1/\"\n}\n",
			fmt.Sprintf("%s-%d", scaleAccelProject, n), baseURL, baseURL, baseURL)
	}
	config := planConfig(kind, n, AccelSource)
	// The blocks of PlanConfig, after its provider settings.
	b.WriteString(config[strings.Index(config, "\nresource "):])
	return b.String()
}

// ScaleJobs are the jobs of the scale comparison of kind at n: a plan of a
// create and a plan with state (its workspace applied first), both counting
// srv's API calls.
func ScaleJobs(kind Kind, n int, srv *emulator.Server) []Job {
	config := ScaleConfig(kind, n, srv.URL())
	return []Job{
		{Label: fmt.Sprintf("plan of a create of %d %s", n, kind), Config: config, Args: PlanArgs, Calls: srv.Counters},
		{Label: fmt.Sprintf("plan with state of %d %s", n, kind), Config: config, Args: PlanArgs, Calls: srv.Counters,
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

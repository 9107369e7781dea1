// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"strings"
)

// requiredProviders selects the provider by its dev_overrides address.
var requiredProviders = requiredSource(AccelSource)

// Sources of the providers, as dev_overrides knows them. BeforeSource is
// another build of this provider (planbench -before), planned with the same
// configurations.
const (
	AccelSource      = "accel-dev/accel"
	BeforeSource     = "accel-dev/accelbefore"
	GoogleBetaSource = "hashicorp/google-beta"
	GoogleSource     = "hashicorp/google"
)

// requiredSource selects source as the provider of local name accel.
func requiredSource(source string) string {
	return "terraform {\n  required_providers {\n    accel = { source = \"" + source + "\" }\n  }\n}\n\n"
}

// FloorConfig is Terraform's floor: a configuration with no provider.
const FloorConfig = "locals {\n  floor = 1\n}\n"

// Kind is what a plan configuration is made of.
type Kind string

// Plan configuration kinds.
const (
	// KindBaseline is N resources of the baseline provider
	// (cmd/baselineprovider), the smallest plugin-framework provider: what
	// any provider costs Terraform.
	KindBaseline Kind = "baseline_thing"
	// KindResources is N accel_tpu_vm resources, planned for create.
	KindResources Kind = "accel_tpu_vm"
	// KindDataSources is N accel_runtime_version data sources, read at plan time.
	KindDataSources Kind = "accel_runtime_version"
	// KindNodePools is N accel_fallback_nodepools of three tiers each
	// (a v6e tier, an L4 GPU tier, a v5e tier), planned for create.
	KindNodePools Kind = "accel_fallback_nodepools"
	// KindBaselineTPUVM and KindBaselineNodePools are N resources of the
	// baseline provider with the bare schemas of accel_tpu_vm and
	// accel_fallback_nodepools (BareSchema), configured as KindResources and
	// KindNodePools are.
	KindBaselineTPUVM     Kind = "baseline_tpu_vm"
	KindBaselineNodePools Kind = "baseline_fallback_nodepools"
	// KindGoogleBeta is N google_tpu_v2_vm of the google-beta provider,
	// the resource users of the Google provider plan instead of
	// accel_tpu_vm, configured alike (with the runtime version it requires).
	KindGoogleBeta Kind = "google_tpu_v2_vm"
	// KindGooglePools is the google provider's google_container_node_pool,
	// three for each KindNodePools resource, configured as this provider
	// creates that resource's pools (ScaleConfig).
	KindGooglePools Kind = "google_container_node_pool"
)

// Kinds of the quiet baseline provider and of the raw provider.
const (
	// KindBaselineQuiet, KindBaselineQuietTPUVM and
	// KindBaselineQuietNodePools are KindBaseline, KindBaselineTPUVM and
	// KindBaselineNodePools served by the baseline provider with unrequested
	// logs off, as the accel provider serves its resources.
	KindBaselineQuiet          Kind = "baselinequiet_thing"
	KindBaselineQuietTPUVM     Kind = "baselinequiet_tpu_vm"
	KindBaselineQuietNodePools Kind = "baselinequiet_fallback_nodepools"
	// KindRawThing, KindRawTPUVM and KindRawNodePools are resources of the
	// raw provider (cmd/rawprovider, RawServer): the plugin protocol with
	// no framework and no behaviour, of baseline_thing's schema and of the
	// exact schemas of accel_tpu_vm and accel_fallback_nodepools. They are
	// the floor under any provider of those schemas.
	KindRawThing     Kind = "raw_thing"
	KindRawTPUVM     Kind = "raw_tpu_vm"
	KindRawNodePools Kind = "raw_fallback_nodepools"
	// KindRawGoogleTPUVM is the raw provider's resource of google-beta's
	// google_tpu_v2_vm schema (RawSchemasEnv): the floor under any provider
	// of that schema.
	KindRawGoogleTPUVM Kind = "raw_google_tpu_v2_vm"
)

// PlanKinds are the kinds make bench-plan plans, in the order of the
// report. The baselines of this provider's schemas are planned with
// unrequested logs off, as this provider runs; the smallest one both ways.
var PlanKinds = []Kind{
	KindRawThing, KindBaselineQuiet, KindBaseline,
	KindRawTPUVM, KindBaselineQuietTPUVM, KindResources,
	KindRawNodePools, KindBaselineQuietNodePools, KindNodePools,
	KindDataSources,
}

// providerName is the local name (and source type) of kind's provider: the
// resource type's prefix.
func (k Kind) providerName() string {
	name, _, _ := strings.Cut(string(k), "_")
	return name
}

// Baseline reports whether kind is a resource of the baseline provider.
func (k Kind) Baseline() bool {
	return k.providerName() == "baseline" || k.providerName() == "baselinequiet"
}

// Raw reports whether kind is a resource of the raw provider.
func (k Kind) Raw() bool { return k.providerName() == "raw" }

// Quiet reports whether kind's provider turns unrequested logs off.
func (k Kind) Quiet() bool { return !k.Baseline() || k.providerName() == "baselinequiet" }

// BaselineOf is the baseline resource of the same schema as kind, if any:
// the one with unrequested logs off, as this provider runs.
func (k Kind) BaselineOf() (Kind, bool) {
	switch k {
	case KindResources, KindGoogleBeta:
		return KindBaselineQuietTPUVM, true
	case KindNodePools:
		return KindBaselineQuietNodePools, true
	}
	return "", false
}

// RawOf is the raw resource of the same schema as kind, if any.
func (k Kind) RawOf() (Kind, bool) {
	switch k {
	case KindResources, KindBaselineTPUVM, KindBaselineQuietTPUVM, KindGoogleBeta:
		return KindRawTPUVM, true
	case KindNodePools, KindBaselineNodePools, KindBaselineQuietNodePools:
		return KindRawNodePools, true
	case KindBaseline, KindBaselineQuiet:
		return KindRawThing, true
	}
	return "", false
}

// offlineProvider has no credential and no endpoint: nothing the plan does
// may need the network. The project and zone are names, not calls.
const offlineProvider = "provider \"accel\" {\n  project = \"bench-project\"\n  zone    = \"us-central1-a\"\n}\n"

// planShapes are the accelerator types the blocks cycle through, so that the
// catalog answers more than one question.
var planShapes = []struct{ accelerator, zone, runtime string }{
	{"v5litepod-4", "us-central1-a", "v2-alpha-tpuv5-lite"},
	{"v6e-8", "us-east5-a", "v2-alpha-tpuv6e"},
	{"v5p-8", "us-east5-a", "v2-alpha-tpuv5"},
	{"v4-8", "us-central2-b", "tpu-ubuntu2204-base"},
}

// benchProvider selects the baseline or raw provider of local name and
// source type name.
func benchProvider(name string) string {
	return fmt.Sprintf("terraform {\n  required_providers {\n    %s = { source = \"accel-dev/%s\" }\n  }\n}\n", name, name)
}

// googleBetaProvider selects the google-beta provider, offline: a token that
// is never sent, since a plan for create calls no API, and the universe
// domain that keeps its configure from asking Google for the token's
// identity (see googleUniverse).
// GoogleBetaRequired requires the google-beta provider, and nothing else.
const GoogleBetaRequired = "terraform {\n  required_providers {\n    google-beta = { source = \"" + GoogleBetaSource + "\" }\n  }\n}\n"

const googleBetaProvider = GoogleBetaRequired + "\n" +
	"provider \"google-beta\" {\n  project         = \"bench-project\"\n  zone            = \"us-central1-a\"\n  access_token    = \"offline\"\n" +
	"  universe_domain = \"" + googleUniverse + "\"\n}\n"

// planTiers are the tiers of every KindNodePools resource.
var planTiers = poolTiers[:3]

// PlanConfig returns a configuration of n blocks of kind for an offline plan.
func PlanConfig(kind Kind, n int) string { return planConfig(kind, n, AccelSource) }

// BeforeConfig is PlanConfig for the provider built from another version
// (BeforeSource).
func BeforeConfig(kind Kind, n int) string { return planConfig(kind, n, BeforeSource) }

func planConfig(kind Kind, n int, source string) string {
	var b strings.Builder
	switch {
	case kind.Baseline() || kind.Raw():
		b.WriteString(benchProvider(kind.providerName()))
	case kind == KindGoogleBeta:
		b.WriteString(googleBetaProvider)
	default:
		b.WriteString(requiredSource(source))
		b.WriteString(offlineProvider)
	}
	for i := range n {
		s := planShapes[i%len(planShapes)]
		switch kind {
		case KindBaseline, KindBaselineQuiet, KindRawThing:
			fmt.Fprintf(&b, "\nresource %q \"t%d\" {\n  name = \"t%d\"\n}\n", kind, i, i)
		case KindResources, KindBaselineTPUVM, KindBaselineQuietTPUVM, KindRawTPUVM:
			fmt.Fprintf(&b, "\nresource %q \"vm%d\" {\n  name             = \"bench-vm-%d\"\n  accelerator_type = %q\n  zones            = [%q]\n}\n",
				kind, i, i, s.accelerator, s.zone)
		case KindGoogleBeta:
			fmt.Fprintf(&b, "\nresource %q \"vm%d\" {\n  provider         = google-beta\n  name             = \"bench-vm-%d\"\n  accelerator_type = %q\n  zone             = %q\n  runtime_version  = %q\n}\n",
				kind, i, i, s.accelerator, s.zone, s.runtime)
		case KindRawGoogleTPUVM:
			fmt.Fprintf(&b, "\nresource %q \"vm%d\" {\n  name             = \"bench-vm-%d\"\n  accelerator_type = %q\n  zone             = %q\n  runtime_version  = %q\n}\n",
				kind, i, i, s.accelerator, s.zone, s.runtime)
		case KindDataSources:
			fmt.Fprintf(&b, "\ndata \"accel_runtime_version\" \"rv%d\" {\n  accelerator_type = %q\n  zone             = %q\n}\n",
				i, s.accelerator, s.zone)
		case KindNodePools, KindBaselineNodePools, KindBaselineQuietNodePools, KindRawNodePools:
			fmt.Fprintf(&b, "\nresource %q \"np%d\" {\n  cluster       = %q\n  compute_class = \"bench-%d\"\n", kind, i, emulatorCluster, i)
			for j, t := range planTiers {
				fmt.Fprintf(&b, "\n  tiers {\n    name             = \"bench-%d-%d\"\n    %s\n  }\n", i, j, t)
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// EmulatorProvider is the provider block for an emulator at baseURL, polling
// at most every poll.
func EmulatorProvider(project, zone, baseURL, poll string) string {
	return fmt.Sprintf("provider \"accel\" {\n  project            = %q\n  zone               = %q\n  tpu_endpoint       = \"%s/\"\n  container_endpoint = \"%s/\"\n  poll_interval      = %q\n}\n",
		project, zone, baseURL, baseURL, poll)
}

// poolTiers are the tiers of NodePoolsConfig, in order: each fits the
// emulator's us-central1 cluster.
var poolTiers = []string{
	"accelerator_type = \"v6e-4\"\n    node_locations   = [\"us-central1-b\"]",
	"machine_type     = \"g2-standard-4\"\n    gpu_type         = \"nvidia-l4\"\n    node_locations   = [\"us-central1-a\"]",
	"accelerator_type = \"v5litepod-4\"\n    node_locations   = [\"us-central1-a\"]",
	"machine_type     = \"g2-standard-8\"\n    gpu_type         = \"nvidia-l4\"\n    node_locations   = [\"us-central1-b\"]",
	"machine_type     = \"g2-standard-4\"\n    gpu_type         = \"nvidia-l4\"\n    node_locations   = [\"us-central1-c\"]",
	"machine_type     = \"a2-highgpu-1g\"\n    gpu_type         = \"nvidia-tesla-a100\"\n    node_locations   = [\"us-central1-a\"]",
}

// MaxPools is the largest n NodePoolsConfig accepts.
var MaxPools = len(poolTiers)

// NodePoolsConfig is one accel_fallback_nodepools with n tiers (n <=
// MaxPools) on cluster, after provider.
func NodePoolsConfig(provider, cluster string, n int) string {
	var b strings.Builder
	b.WriteString(requiredProviders)
	b.WriteString(provider)
	fmt.Fprintf(&b, "\nresource \"accel_fallback_nodepools\" \"bench\" {\n  cluster       = %q\n  compute_class = \"bench\"\n", cluster)
	for i := range min(n, len(poolTiers)) {
		fmt.Fprintf(&b, "\n  tiers {\n    name             = \"bench-%d\"\n    %s\n  }\n", i, poolTiers[i])
	}
	b.WriteString("}\n")
	return b.String()
}

// TPUVMConfig is one accel_tpu_vm of type v5litepod-4 in zones, after provider.
func TPUVMConfig(provider string, zones ...string) string {
	q := make([]string, len(zones))
	for i, z := range zones {
		q[i] = fmt.Sprintf("%q", z)
	}
	return requiredProviders + provider + fmt.Sprintf(
		"\nresource \"accel_tpu_vm\" \"bench\" {\n  name             = \"bench-vm\"\n  accelerator_type = \"v5litepod-4\"\n  zones            = [%s]\n}\n",
		strings.Join(q, ", "))
}

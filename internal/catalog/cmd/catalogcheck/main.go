// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command catalogcheck compares the compatibility catalog with what the live
// APIs offer a project, zone by zone: the Cloud TPU API's accelerator types
// and runtime versions, and Compute Engine's accelerator machine types and
// GPU types. It prints each difference on a line of its own and exits with
// status 1 when there is any, so that refreshing the catalog starts from a
// list of what changed (see CONTRIBUTING.md, "Refreshing the catalog").
//
//	go run ./internal/catalog/cmd/catalogcheck -project my-project [-zones us-central1-a,us-east5-a]
//
// Credentials and endpoints are the provider's: Application Default
// Credentials, or ACCEL_TPU_ENDPOINT and ACCEL_COMPUTE_ENDPOINT for the
// local emulator.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

func main() {
	project := flag.String("project", os.Getenv("GOOGLE_PROJECT"), "project whose offer is compared (default $GOOGLE_PROJECT)")
	zones := flag.String("zones", "", "comma-separated zones to compare (default: every zone Compute Engine lists)")
	timeout := flag.Duration("timeout", 10*time.Minute, "bound of the whole comparison")
	flag.Parse()
	if *project == "" {
		fmt.Fprintln(os.Stderr, "catalogcheck: set -project (or GOOGLE_PROJECT)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	clients := gcp.NewClients(gcp.Config{
		Project:         *project,
		TPUEndpoint:     os.Getenv(gcp.TPUEndpointEnv),
		ComputeEndpoint: os.Getenv(gcp.ComputeEndpointEnv),
	})
	var only []string
	if *zones != "" {
		only = strings.Split(*zones, ",")
	}
	n, err := run(ctx, os.Stdout, catalog.Default(), clients, *project, only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogcheck:", err)
		os.Exit(2)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "catalogcheck: %d differences\n", n)
		os.Exit(1)
	}
}

// diff is one difference between the catalog and the live APIs.
type diff struct {
	zone, what string
}

// run compares the catalog with the live offer of project in zones (every
// zone when empty), writes the differences to w, sorted, and returns their
// number.
func run(ctx context.Context, w io.Writer, cat *catalog.Catalog, clients *gcp.Clients, project string, zones []string) (int, error) {
	cc, err := clients.ComputeCatalog(ctx)
	if err != nil {
		return 0, err
	}
	if len(zones) == 0 {
		if zones, err = cc.Zones(ctx, project); err != nil {
			return 0, fmt.Errorf("listing zones: %w", err)
		}
	}
	known := knownNames(cat)
	var diffs []diff
	for _, z := range zones {
		zd, err := compareZone(ctx, cat, known, clients, cc, project, z)
		if err != nil {
			return 0, err
		}
		diffs = append(diffs, zd...)
	}
	sort.Slice(diffs, func(i, j int) bool {
		if diffs[i].zone != diffs[j].zone {
			return diffs[i].zone < diffs[j].zone
		}
		return diffs[i].what < diffs[j].what
	})
	for _, d := range diffs {
		if _, err := fmt.Fprintf(w, "%s: %s\n", d.zone, d.what); err != nil {
			return 0, err
		}
	}
	return len(diffs), nil
}

// names is what the catalog knows, by kind.
type names struct {
	tpuMachines map[string]string // GKE TPU machine type -> generation
	gpuMachines map[string]bool
	gpuTypes    map[string]bool
	prefixes    map[string]string // accelerator type prefix -> generation
}

func knownNames(cat *catalog.Catalog) names {
	n := names{tpuMachines: map[string]string{}, gpuMachines: map[string]bool{}, gpuTypes: map[string]bool{}, prefixes: map[string]string{}}
	for _, g := range cat.Generations() {
		n.prefixes[g.APIPrefix] = g.Name
		if g.GKE != nil {
			for _, m := range g.GKE.MachineTypes {
				n.tpuMachines[m.Name] = g.Name
			}
		}
	}
	for _, m := range cat.GPUMachineTypes() {
		n.gpuMachines[m.Name] = true
	}
	for _, a := range cat.GPUAccelerators() {
		n.gpuTypes[a.Name] = true
	}
	return n
}

// isAcceleratorMachine reports whether a machine type belongs to an
// accelerator family: TPU machine types (ct*, tpu7x*) or the GPU families
// the catalog has machine types of.
func isAcceleratorMachine(cat *catalog.Catalog, name string) bool {
	if strings.HasPrefix(name, "ct") || strings.HasPrefix(name, "tpu7") {
		return true
	}
	for _, m := range cat.GPUMachineTypes() {
		if family, _, _ := strings.Cut(m.Name, "-"); strings.HasPrefix(name, family+"-") {
			return true
		}
	}
	return false
}

func compareZone(ctx context.Context, cat *catalog.Catalog, known names, clients *gcp.Clients, cc *gcp.ComputeCatalog, project, zone string) ([]diff, error) {
	var out []diff
	add := func(format string, args ...any) { out = append(out, diff{zone, fmt.Sprintf(format, args...)}) }
	region := catalog.RegionOf(zone)

	mts, err := cc.MachineTypes(ctx, project, zone)
	if err != nil {
		return nil, fmt.Errorf("listing machine types of %s: %w", zone, err)
	}
	for _, m := range mts {
		gen, isTPU := known.tpuMachines[m.Name]
		switch {
		case isTPU:
			if regions := cat.GKERegions(gen); regions != nil && !slices.Contains(regions, region) {
				add("GKE TPU availability: %s (%s) is offered in region %s, which the catalog's GKE table lacks", m.Name, gen, region)
			}
		case known.gpuMachines[m.Name]:
		case isAcceleratorMachine(cat, m.Name):
			add("machine type %s (%s x%d) is not in the catalog", m.Name, m.AcceleratorType, m.AcceleratorCount)
		}
	}
	gpus, err := cc.AcceleratorTypes(ctx, project, zone)
	if err != nil {
		return nil, fmt.Errorf("listing accelerator types of %s: %w", zone, err)
	}
	for _, g := range gpus {
		if strings.HasPrefix(g, "nvidia-") && !known.gpuTypes[g] {
			add("GPU type %s is not in the catalog", g)
		}
	}

	offer, err := clients.ListTPUZoneOffer(ctx, project, zone)
	if err != nil {
		if gcp.Classify(err) == gcp.ClassNotFound {
			return out, nil // no Cloud TPU location in this zone
		}
		return nil, fmt.Errorf("listing the Cloud TPU offer of %s: %w", zone, err)
	}
	liveGens := map[string]bool{}
	for _, t := range offer.AcceleratorTypes {
		acc, fs := cat.Accelerator(t)
		if fs.HasErrors() {
			add("TPU accelerator type %s is not in the catalog", t)
			continue
		}
		liveGens[acc.Generation] = true
		g, _ := cat.Generation(acc.Generation)
		if !zoneListed(g, zone, t) {
			add("TPU accelerator type %s is offered, but the catalog does not list %s for %s", t, zone, acc.Generation)
		}
	}
	for _, g := range cat.Generations() {
		if zoneListed(g, zone, "") && !liveGens[g.Name] && g.TPUAPI.Supported {
			add("the catalog lists %s for %s, but the Cloud TPU API offers none of its types there", zone, g.Name)
		}
	}
	for _, v := range offer.RuntimeVersions {
		if r := cat.ResolveRuntime(catalog.RuntimeQuery{RuntimeVersion: v}); r.Findings.HasErrors() {
			add("TPU runtime version %s is not in the catalog", v)
		}
	}
	return out, nil
}

// zoneListed reports whether the catalog lists zone for g (and, when t is
// set, for accelerator type t).
func zoneListed(g catalog.Generation, zone, t string) bool {
	for _, z := range g.Zones {
		if z.Zone == zone {
			return t == "" || len(z.AcceleratorTypes) == 0 || slices.Contains(z.AcceleratorTypes, t)
		}
	}
	return false
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	compute "google.golang.org/api/compute/v1"
)

// Compute returns the Compute Engine v1 client, building it on first use.
// See Config for how it authenticates.
func (c *Clients) Compute(ctx context.Context) (*compute.Service, error) {
	c.computeMu.Lock()
	defer c.computeMu.Unlock()
	if c.compute != nil {
		return c.compute, nil
	}
	opts, err := c.serviceOptions(ctx, endpointRef{api: "Compute Engine API", url: c.cfg.ComputeEndpoint,
		setting: ComputeEndpointSetting, env: ComputeEndpointEnv}, defaultComputeEndpoint)
	if err != nil {
		return nil, err
	}
	svc, err := compute.NewService(context.WithoutCancel(ctx), opts...)
	if err != nil {
		return nil, fmt.Errorf("creating the Compute Engine client: %w", err)
	}
	c.compute = svc
	return svc, nil
}

// GKEConfigured reports, without any network access, whether GKE calls
// can be attempted: container_endpoint is set, or credentials are (see
// [Clients.TPUConfigured]).
func (c *Clients) GKEConfigured() bool {
	return c.cfg.ContainerEndpoint != "" || c.credentialsConfigured()
}

// ComputeConfigured reports, without any network access, whether Compute
// Engine calls can be attempted: compute_endpoint is set, or credentials
// are (see [Clients.TPUConfigured]).
func (c *Clients) ComputeConfigured() bool {
	return c.cfg.ComputeEndpoint != "" || c.credentialsConfigured()
}

// ComputeCatalog reads what Compute Engine offers per zone: zones, machine
// types (with their built-in accelerators) and accelerator types. Every
// call is retried with the clients' backoff until its context ends.
type ComputeCatalog struct {
	c   *Clients
	svc *compute.Service
}

// ComputeCatalog returns the Compute Engine catalog client, building the
// Compute Engine client on first use.
func (c *Clients) ComputeCatalog(ctx context.Context) (*ComputeCatalog, error) {
	svc, err := c.Compute(ctx)
	if err != nil {
		return nil, err
	}
	return &ComputeCatalog{c: c, svc: svc}, nil
}

// ZoneMachineType is one machine type in one zone, with the accelerators
// built into it ("" and 0 when none).
type ZoneMachineType struct {
	Zone             string
	Name             string
	AcceleratorType  string
	AcceleratorCount int
}

// zoneOfScope turns an aggregated list key ("zones/us-central1-a") into the zone.
func zoneOfScope(scope string) string {
	return strings.TrimPrefix(scope, "zones/")
}

// MachineTypeZones lists the zones that offer machine type name to project,
// with one machineTypes.aggregatedList call filtered by name.
func (cc *ComputeCatalog) MachineTypeZones(ctx context.Context, project, name string) ([]ZoneMachineType, error) {
	var out []ZoneMachineType
	err := cc.c.listPages(ctx, "machineTypes.aggregatedList "+name, 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.MachineTypes.AggregatedList(project).Filter(fmt.Sprintf("name = %q", name)).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for scope, l := range page.Items {
			for _, mt := range l.MachineTypes {
				if mt != nil && mt.Name == name {
					out = append(out, zoneMachineType(zoneOfScope(scope), mt))
				}
			}
		}
		return page.NextPageToken, nil
	})
	slices.SortFunc(out, func(a, b ZoneMachineType) int { return strings.Compare(a.Zone, b.Zone) })
	return out, err
}

// AcceleratorTypeZones lists the zones that offer accelerator type name
// (such as "nvidia-tesla-t4") to project, with one
// acceleratorTypes.aggregatedList call filtered by name.
func (cc *ComputeCatalog) AcceleratorTypeZones(ctx context.Context, project, name string) ([]string, error) {
	var out []string
	err := cc.c.listPages(ctx, "acceleratorTypes.aggregatedList "+name, 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.AcceleratorTypes.AggregatedList(project).Filter(fmt.Sprintf("name = %q", name)).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for scope, l := range page.Items {
			for _, at := range l.AcceleratorTypes {
				if at != nil && at.Name == name {
					out = append(out, zoneOfScope(scope))
				}
			}
		}
		return page.NextPageToken, nil
	})
	slices.Sort(out)
	return out, err
}

// Zones lists the zone names of project.
func (cc *ComputeCatalog) Zones(ctx context.Context, project string) ([]string, error) {
	var out []string
	err := cc.c.listPages(ctx, "zones.list", 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.Zones.List(project).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, z := range page.Items {
			out = append(out, z.Name)
		}
		return page.NextPageToken, nil
	})
	return out, err
}

// MachineTypes lists the machine types of a zone.
func (cc *ComputeCatalog) MachineTypes(ctx context.Context, project, zone string) ([]ZoneMachineType, error) {
	var out []ZoneMachineType
	err := cc.c.listPages(ctx, "machineTypes.list "+zone, 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.MachineTypes.List(project, zone).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, mt := range page.Items {
			out = append(out, zoneMachineType(zone, mt))
		}
		return page.NextPageToken, nil
	})
	return out, err
}

// AcceleratorTypes lists the accelerator type names of a zone.
func (cc *ComputeCatalog) AcceleratorTypes(ctx context.Context, project, zone string) ([]string, error) {
	var out []string
	err := cc.c.listPages(ctx, "acceleratorTypes.list "+zone, 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.AcceleratorTypes.List(project, zone).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, at := range page.Items {
			out = append(out, at.Name)
		}
		return page.NextPageToken, nil
	})
	return out, err
}

func zoneMachineType(zone string, mt *compute.MachineType) ZoneMachineType {
	z := ZoneMachineType{Zone: zone, Name: mt.Name}
	for _, a := range mt.Accelerators {
		if a != nil {
			z.AcceleratorType, z.AcceleratorCount = a.GuestAcceleratorType, int(a.GuestAcceleratorCount)
		}
	}
	return z
}

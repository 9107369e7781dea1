// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"slices"
	"strings"

	compute "google.golang.org/api/compute/v1"
)

// QuotaValue is one regional quota: its limit and current usage.
type QuotaValue struct {
	Limit float64
	Usage float64
}

// RegionQuotas reads a region's Compute Engine quotas with one regions.get
// call, by metric (such as "NVIDIA_L4_GPUS"). regions.get fails open: a
// metric it has no data for is left out, so a missing metric is unknown,
// not zero (https://cloud.google.com/compute/docs/reference/rest/v1/regions/get).
func (cc *ComputeCatalog) RegionQuotas(ctx context.Context, project, region string) (map[string]QuotaValue, error) {
	out := map[string]QuotaValue{}
	err := cc.c.withRetry(ctx, "regions.get "+region, 0, nil, func(ctx context.Context) error {
		r, err := cc.svc.Regions.Get(project, region).Fields("quotas").Context(ctx).Do()
		if err != nil {
			return err
		}
		clear(out)
		for _, q := range r.Quotas {
			if q != nil {
				out[q.Metric] = QuotaValue{Limit: q.Limit, Usage: q.Usage}
			}
		}
		return nil
	})
	return out, err
}

// ZoneReservation is a zonal reservation of identical VMs.
type ZoneReservation struct {
	Zone        string
	Name        string
	MachineType string
	// Accelerators are the attached accelerators of each VM, by type.
	Accelerators map[string]int64
	Count        int64
	InUseCount   int64
	// SpecificOnly: only VMs that name the reservation consume it.
	SpecificOnly bool
}

// Free is the number of reserved VMs not in use.
func (r ZoneReservation) Free() int64 { return max(r.Count-r.InUseCount, 0) }

// Reservations lists the project's zonal reservations, every zone, with one
// reservations.aggregatedList call. Reservations made from an instance
// template carry no machine type here.
func (cc *ComputeCatalog) Reservations(ctx context.Context, project string) ([]ZoneReservation, error) {
	var out []ZoneReservation
	err := cc.c.listPages(ctx, "reservations.aggregatedList", 0, func(ctx context.Context, token string) (string, error) {
		page, err := cc.svc.Reservations.AggregatedList(project).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for scope, l := range page.Items {
			for _, r := range l.Reservations {
				if r != nil {
					out = append(out, zoneReservation(zoneOfScope(scope), r))
				}
			}
		}
		return page.NextPageToken, nil
	})
	slices.SortFunc(out, func(a, b ZoneReservation) int {
		return strings.Compare(a.Zone+"/"+a.Name, b.Zone+"/"+b.Name)
	})
	return out, err
}

func zoneReservation(zone string, r *compute.Reservation) ZoneReservation {
	out := ZoneReservation{Zone: zone, Name: r.Name, SpecificOnly: r.SpecificReservationRequired, Accelerators: map[string]int64{}}
	if sr := r.SpecificReservation; sr != nil {
		out.Count, out.InUseCount = sr.Count, sr.InUseCount
		if p := sr.InstanceProperties; p != nil {
			out.MachineType = p.MachineType
			for _, a := range p.GuestAccelerators {
				if a != nil {
					out.Accelerators[a.AcceleratorType] += a.AcceleratorCount
				}
			}
		}
	}
	return out
}

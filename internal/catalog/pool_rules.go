// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Attribute names of the rules below, as the resources' schemas spell them.
const (
	AttrLabels    = "labels"
	AttrTaints    = "taints"
	AttrDataDisks = "data_disks"
)

// DefaultGPUDriverVersion is the gpu_driver_version of a GPU pool that sets
// none: GKE installs its default driver for the node version (GKE
// 1.30.1-gke.1156000 and later; source topic "gpu_driver_versions").
const DefaultGPUDriverVersion = "DEFAULT"

// AutoscalingBounds checks a node pool's autoscaling bounds: GKE requires
// maxNodeCount to be at least minNodeCount (NodePoolAutoscaling).
func (c *Catalog) AutoscalingBounds(minNodes, maxNodes int64) Findings {
	if maxNodes >= minNodes {
		return nil
	}
	return Findings{newRule(AttrMaxNodeCount, fmt.Sprint(maxNodes), "Autoscaling Bounds Out of Order",
		c.Source("gke_autoscaling"), nil, fmt.Sprintf("max_node_count %d is below min_node_count %d.", maxNodes, minNodes))}
}

// AutoscalingTotals checks total (cluster-wide) autoscaling limits, nil
// when left out: both or neither, in order, and never with the per-zone
// limits (perZone) or a fixed node_count (fixed), which
// NodePoolAutoscaling says are mutually exclusive with them.
func (c *Catalog) AutoscalingTotals(totalMin, totalMax *int64, perZone, fixed bool) Findings {
	if totalMin == nil && totalMax == nil {
		return nil
	}
	src := c.Source("gke_autoscaling")
	errf := func(attr string, value *int64, summary, detail string) Findings {
		return Findings{newFinding(SeverityError, attr, fmt.Sprint(*value), summary, src, nil, detail)}
	}
	attr, value := AttrTotalMinNodeCount, totalMin
	if totalMin == nil {
		attr, value = AttrTotalMaxNodeCount, totalMax
	}
	switch {
	case perZone:
		return errf(attr, value, "Per-Zone and Total Autoscaling Limits",
			"GKE's total_min_node_count and total_max_node_count (limits for the whole pool) are mutually exclusive with min_node_count and max_node_count (limits per zone); set one pair.")
	case fixed:
		return errf(attr, value, "Total Autoscaling Limits With a Fixed Size",
			"total_min_node_count and total_max_node_count make the pool autoscale; remove node_count, or remove them.")
	case totalMin == nil || totalMax == nil:
		return errf(attr, value, "Total Autoscaling Limits Need Both",
			"Set both total_min_node_count and total_max_node_count (the pool autoscales between them), or neither.")
	case *totalMax < *totalMin:
		return errf(AttrTotalMaxNodeCount, totalMax, "Autoscaling Bounds Out of Order",
			fmt.Sprintf("total_max_node_count %d is below total_min_node_count %d.", *totalMax, *totalMin))
	}
	return nil
}

// PoolTaint is a node pool taint as a configuration writes it.
type PoolTaint struct {
	Key, Value, Effect string
}

// PoolMetadata checks the labels and taints a node pool's configuration sets
// against what this provider sets on every pool itself, the ComputeClass
// label and taint (which bind a manual pool to a ComputeClass) and the
// accelerator taints, and against Kubernetes keeping one taint per key and
// effect. Findings on taints carry the taint's index.
func (c *Catalog) PoolMetadata(labels map[string]string, taints []PoolTaint) Findings {
	var fs Findings
	if _, ok := labels[LabelComputeClass]; ok {
		fs = append(fs, newLimit(AttrLabels, LabelComputeClass, "Label Set by the Provider",
			c.Source("compute_class_binding"), nil,
			fmt.Sprintf("The provider sets %q to compute_class on every tier; remove it from labels.", LabelComputeClass)))
	}
	reserved := []string{TaintTPU, TaintGPU, TaintComputeClass}
	seen := map[[2]string]bool{}
	for i, t := range taints {
		key := [2]string{t.Key, t.Effect}
		var f Finding
		switch {
		case slices.Contains(reserved, t.Key):
			f = newLimit(AttrTaints, t.Key, "Taint Set by the Provider", c.Source("accelerator_taints"), nil,
				fmt.Sprintf("The provider sets the %q taint itself (see node_taints); remove it from taints.", t.Key))
		case seen[key]:
			f = newRule(AttrTaints, t.Key, "Duplicate Taint", c.Source("kubernetes_taints"), nil,
				fmt.Sprintf("The taint key %q with effect %s is listed twice; Kubernetes keeps one taint per key and effect.", t.Key, t.Effect))
		}
		seen[key] = true
		if f.Summary != "" {
			f.Index = i
			fs = append(fs, f)
		}
	}
	return fs
}

// DataDisks checks the data disks of a TPU VM of generation gen ("" when
// unknown): how many a VM of the generation has room for beside its boot
// disk (Generation.MaxDisks), and that each zonal disk, given as
// "projects/{p}/zones/{zone}/disks/{d}" (other forms are not checked), is
// in the VM's zones: the Cloud TPU API attaches a zonal persistent disk
// only to a VM in its own zone. Findings on a disk carry its index.
func (c *Catalog) DataDisks(gen string, disks []string, zones []string) Findings {
	var fs Findings
	if g, ok := c.Generation(gen); ok && g.MaxDisks > 0 && len(disks)+1 > g.MaxDisks {
		fs = append(fs, newFinding(SeverityError, AttrDataDisks, fmt.Sprint(len(disks)), "Too Many Data Disks", c.Source("tpu_persistent_disk"),
			[]string{fmt.Sprint(g.MaxDisks - 1)},
			fmt.Sprintf("A %s TPU VM has at most %d disks, its boot disk included, so at most %d data disks; data_disks lists %d.",
				g.Name, g.MaxDisks, g.MaxDisks-1, len(disks))))
	}
	for i, d := range disks {
		diskZone := diskZoneOf(d)
		if diskZone == "" {
			continue
		}
		var other []string
		for _, z := range zones {
			if z != diskZone {
				other = append(other, z)
			}
		}
		if len(other) == 0 {
			continue
		}
		f := newFinding(SeverityError, AttrDataDisks, d, "Data Disk in Another Zone", c.Source("tpu_persistent_disk"), nil,
			fmt.Sprintf("Disk %q is in zone %s, and a zonal disk can only be attached to a TPU VM in its own zone, "+
				"but zones also lists %s. Set zones = [%q], or use a disk in each zone.", d, diskZone, strings.Join(other, ", "), diskZone))
		f.Index = i
		fs = append(fs, f)
	}
	return fs
}

// diskZoneOf returns the zone of a zonal disk path, or "".
func diskZoneOf(disk string) string {
	parts := strings.Split(disk, "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "zones" && parts[i+1] != "" {
			return parts[i+1]
		}
	}
	return ""
}

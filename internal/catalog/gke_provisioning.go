// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"slices"
	"time"
)

// GKEProvisioning holds the rules of GKE flex-start and queued provisioning
// node pools (catalog.json "gke_provisioning").
type GKEProvisioning struct {
	FlexStart struct {
		MinGKEVersionGPU  string   `json:"min_gke_version_gpu"`
		MinGKEVersionTPU  string   `json:"min_gke_version_tpu"`
		UnsupportedTPUGen []string `json:"unsupported_tpu_generations"`
		MaxRunHours       int      `json:"max_run_hours"`
		NodeLabel         string   `json:"node_label"`
		Source            string   `json:"source"`
		// NotOfferedMachineTypes are machine types GKE's machine table
		// marks as not offered for flex-start (DWS).
		NotOfferedMachineTypes []string `json:"not_offered_machine_types"`
		NotOfferedSource       string   `json:"not_offered_source"`
	} `json:"flex_start"`
	Queued struct {
		MinGKEVersion string `json:"min_gke_version"`
		TaintValue    string `json:"taint_value"`
		Source        string `json:"source"`
	} `json:"queued_provisioning"`
	Decision string `json:"decision"`
}

// Attributes of a node pool tier that provisioning findings name.
const (
	AttrFlexStart          = "flex_start"
	AttrQueuedProvisioning = "queued_provisioning"
	AttrSpot               = "spot"
	AttrAutoRepair         = "auto_repair"
)

// TaintQueued is the taint key GKE puts on queued-provisioning nodes (value
// in catalog.json gke_provisioning.queued_provisioning.taint_value).
const TaintQueued = "cloud.google.com/gke-queued"

// SandboxKey is the node label and the NoSchedule taint (value gvisor) GKE
// puts on a node pool with GKE Sandbox, which the gvisor RuntimeClass's
// pods select and tolerate
// (https://cloud.google.com/kubernetes-engine/docs/concepts/sandbox-pods).
const SandboxKey = "sandbox.gke.io/runtime"

// ReservationNone is the reservation affinity flex-start and queued pools use.
const ReservationNone = "NO_RESERVATION"

// PoolProvisioningQuery is a tier's provisioning model and what it depends
// on; empty strings are unknown or left out.
type PoolProvisioningQuery struct {
	FlexStart       bool
	Queued          bool
	MachineType     string
	MaxRunDuration  string
	TPU             bool
	Generation      string // TPU generation, "" for GPU tiers or when unknown
	GKEVersion      string
	Spot            bool
	Autoscaling     bool
	MinNodes        int64
	NodeCountSet    bool
	ReservationType string
	AutoRepair      bool
}

// QueuedTaint returns the taint GKE puts on queued-provisioning nodes.
func (c *Catalog) QueuedTaint() (key, value string) {
	return TaintQueued, c.data.GKEProvisioning.Queued.TaintValue
}

// FlexStartNodeLabel returns the node label GKE puts on flex-start nodes.
func (c *Catalog) FlexStartNodeLabel() string { return c.data.GKEProvisioning.FlexStart.NodeLabel }

// GKEFlexStartMaxRunHours is the longest a flex-start node runs.
func (c *Catalog) GKEFlexStartMaxRunHours() int { return c.data.GKEProvisioning.FlexStart.MaxRunHours }

// PoolProvisioning checks a tier's flex-start and queued provisioning
// against GKE's documented constraints.
func (c *Catalog) PoolProvisioning(q PoolProvisioningQuery) Findings {
	p := c.data.GKEProvisioning
	var fs Findings
	if q.MaxRunDuration != "" {
		if f, bad := positiveDuration(AttrMaxRunDuration, q.MaxRunDuration, p.FlexStart.Source); bad {
			fs = append(fs, f)
		} else if d, _ := time.ParseDuration(q.MaxRunDuration); q.FlexStart && d > time.Duration(p.FlexStart.MaxRunHours)*time.Hour {
			fs = append(fs, newFinding(SeverityError, AttrMaxRunDuration, q.MaxRunDuration, "Max Run Duration Too Long", p.FlexStart.Source,
				[]string{fmt.Sprintf("%dh", p.FlexStart.MaxRunHours)},
				fmt.Sprintf("%q is longer than a flex-start node runs: at most %d hours (7 days).", q.MaxRunDuration, p.FlexStart.MaxRunHours)))
		}
	}
	type model struct {
		on         bool
		attr, name string
		minVersion string
		source     string
	}
	flexMin := p.FlexStart.MinGKEVersionGPU
	if q.TPU {
		flexMin = p.FlexStart.MinGKEVersionTPU
	}
	for _, m := range []model{
		{q.FlexStart, AttrFlexStart, "Flex-start", flexMin, p.FlexStart.Source},
		{q.Queued, AttrQueuedProvisioning, "Queued provisioning", p.Queued.MinGKEVersion, p.Queued.Source},
	} {
		if !m.on {
			continue
		}
		if olderGKE(q.GKEVersion, m.minVersion) {
			fs = append(fs, newFinding(SeverityError, AttrGKEVersion, q.GKEVersion, m.name+" Needs a Newer GKE", m.source, []string{m.minVersion},
				fmt.Sprintf("%s node pools need GKE %s or later; the cluster runs %s. Upgrade the cluster or remove %s.", m.name, m.minVersion, q.GKEVersion, m.attr)))
		}
		if q.Spot {
			fs = append(fs, newFinding(SeverityError, AttrSpot, "true", m.name+" Excludes Spot", m.source, nil,
				fmt.Sprintf("%s nodes are their own provisioning model; a pool cannot also be Spot. Remove spot, or remove %s.", m.name, m.attr)))
		}
		if !q.Autoscaling || q.MinNodes != 0 || q.NodeCountSet {
			fs = append(fs, newFinding(SeverityError, AttrMinNodeCount, "", m.name+" Needs Autoscaling From Zero", m.source, nil,
				fmt.Sprintf("%s pools start empty and the cluster autoscaler adds nodes when capacity is found: set min_node_count = 0 and max_node_count, and no node_count.", m.name)))
		}
		if q.ReservationType != "" && q.ReservationType != ReservationNone {
			fs = append(fs, newFinding(SeverityError, AttrReservationAffinity, q.ReservationType, m.name+" Consumes No Reservation", m.source, []string{ReservationNone},
				fmt.Sprintf("%s pools take capacity outside reservations: consume_reservation_type must be %q (or leave reservation_affinity out), not %q.", m.name, ReservationNone, q.ReservationType)))
		}
	}
	if q.FlexStart && q.TPU && q.Generation != "" && slices.Contains(p.FlexStart.UnsupportedTPUGen, q.Generation) {
		fs = append(fs, newFinding(SeverityError, AttrFlexStart, "true", "Flex-Start Not Offered for This Generation", p.FlexStart.Source, nil,
			fmt.Sprintf("GKE flex-start does not support TPU %s (not offered for %v). Use a newer generation, or remove flex_start.", q.Generation, p.FlexStart.UnsupportedTPUGen)))
	}
	if q.FlexStart {
		fs = append(fs, c.FlexStartMachine(AttrFlexStart, q.MachineType)...)
	}
	if q.Queued && q.AutoRepair {
		f := newFinding(SeverityWarning, AttrAutoRepair, "true", "Auto-Repair on a Queued Pool", p.Queued.Source, []string{"false"},
			"GKE recommends turning auto-repair off on queued-provisioning pools: a repair re-creates a node the workload was admitted on. Set auto_repair = false.")
		fs = append(fs, f)
	}
	return fs
}

// FlexStartMachine warns, on attr, of flex-start on a machine type GKE's
// machine table marks as not offered for flex-start; a fact of GKE's code,
// not of a docs page (Compute Engine documents flex-start VMs on every
// accelerator-optimized machine type but A4X and G4), so a warning.
func (c *Catalog) FlexStartMachine(attr, machineType string) Findings {
	fs := c.data.GKEProvisioning.FlexStart
	if !slices.Contains(fs.NotOfferedMachineTypes, machineType) {
		return nil
	}
	return Findings{newFinding(SeverityWarning, attr, "true", "Flex-Start Not Offered for Machine Type", fs.NotOfferedSource, nil,
		fmt.Sprintf("GKE's machine table marks %q as not offered for flex-start (Dynamic Workload Scheduler), so its pool may never get "+
			"nodes. Use another machine type of the GPU (such as an A3 High or Mega one) for flex-start, or leave flex_start out.", machineType))}
}

// FlexStartNotOffered lists the machine types GKE's machine table marks as
// not offered for flex-start, with its source.
func (c *Catalog) FlexStartNotOffered() ([]string, string) {
	fs := c.data.GKEProvisioning.FlexStart
	return fs.NotOfferedMachineTypes, fs.NotOfferedSource
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"strings"
)

// Attribute names of a node pool's Local SSDs, as the schemas spell them.
const (
	AttrEphemeralStorageLocalSSDCount = "ephemeral_storage_local_ssd_count"
	AttrLocalNVMeSSDBlockCount        = "local_nvme_ssd_block_count"
)

// LabelEphemeralStorageLocalSSD is the node label GKE sets on nodes whose
// ephemeral storage is backed by Local SSDs (source topic: the local_ssd
// section's node_label_source).
const LabelEphemeralStorageLocalSSD = "cloud.google.com/gke-ephemeral-storage-local-ssd"

// Kinds of LocalSSDMachineRule.
const (
	LocalSSDUnsupported = "unsupported"
	LocalSSDFixed       = "fixed"
	LocalSSDUnchecked   = "unchecked"
)

// LocalSSDRules are GKE's and Compute Engine's rules for Local SSDs on nodes.
type LocalSSDRules struct {
	Description         string                `json:"description"`
	MinGKEVersion       string                `json:"min_gke_version"`
	MinGKEVersionSource string                `json:"min_gke_version_source"`
	MaxCount            int64                 `json:"max_count"`
	MaxCountSource      string                `json:"max_count_source"`
	MaxCountDecision    string                `json:"max_count_decision"`
	ZeroSource          string                `json:"zero_source"`
	ZeroDecision        string                `json:"zero_decision"`
	ExclusiveSource     string                `json:"exclusive_source"`
	ExclusiveDecision   string                `json:"exclusive_decision"`
	ImmutableSource     string                `json:"immutable_source"`
	NodeLabel           string                `json:"node_label"`
	NodeLabelSource     string                `json:"node_label_source"`
	MachineRules        []LocalSSDMachineRule `json:"machine_rules"`
	FixedDecision       string                `json:"fixed_decision"`
	TPUDecision         string                `json:"tpu_decision"`
}

// LocalSSDMachineRule says how machine types whose names start with Prefix
// (or end with Suffix) take Local SSDs: not at all (unsupported), a fixed
// built-in number (fixed), or as the API decides (unchecked). The first
// rule that matches applies.
type LocalSSDMachineRule struct {
	Prefix string `json:"prefix,omitempty"`
	Suffix string `json:"suffix,omitempty"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Source string `json:"source"`
}

// LocalSSDQuery is the Local SSD configuration of a node pool; a nil count
// is one left out.
type LocalSSDQuery struct {
	MachineType string
	TPU         bool
	GKEVersion  string
	Ephemeral   *int64
	RawBlock    *int64
}

// LocalSSDMaxCount is the most Local SSDs a VM can have.
func (c *Catalog) LocalSSDMaxCount() int64 { return c.data.PoolSettings.LocalSSD.MaxCount }

// LocalSSDMinGKEVersion is the first GKE version with NVMe Local SSDs.
func (c *Catalog) LocalSSDMinGKEVersion() string { return c.data.PoolSettings.LocalSSD.MinGKEVersion }

// localSSDRule returns the first machine rule that matches machineType.
func (c *Catalog) localSSDRule(machineType string) (LocalSSDMachineRule, bool) {
	for _, r := range c.data.PoolSettings.LocalSSD.MachineRules {
		if (r.Prefix != "" && strings.HasPrefix(machineType, r.Prefix)) || (r.Suffix != "" && strings.HasSuffix(machineType, r.Suffix)) {
			return r, true
		}
	}
	return LocalSSDMachineRule{}, false
}

// LocalSSDLabels returns the node labels GKE sets for a pool's Local SSDs:
// LabelEphemeralStorageLocalSSD when they back ephemeral storage (ephemeral
// is the configured count, nil when left out).
func (c *Catalog) LocalSSDLabels(ephemeral *int64) map[string]string {
	if ephemeral == nil {
		return nil
	}
	return map[string]string{c.data.PoolSettings.LocalSSD.NodeLabel: "true"}
}

// LocalSSD checks a node pool's Local SSDs against the documented rules.
func (c *Catalog) LocalSSD(q LocalSSDQuery) Findings {
	r := &c.data.PoolSettings.LocalSSD
	if q.Ephemeral == nil && q.RawBlock == nil {
		return nil
	}
	var fs Findings
	if q.Ephemeral != nil && q.RawBlock != nil {
		fs = append(fs, newRule(AttrLocalNVMeSSDBlockCount, fmt.Sprint(*q.RawBlock), "Two Local SSD Modes", r.ExclusiveSource, nil,
			fmt.Sprintf("A node pool uses its Local SSDs either for ephemeral storage (ephemeral_storage_local_ssd_count) or as raw block devices (local_nvme_ssd_block_count), not both. %s Remove one of them.", r.ExclusiveDecision)))
	}
	for _, m := range []struct {
		attr  string
		count *int64
	}{{AttrEphemeralStorageLocalSSDCount, q.Ephemeral}, {AttrLocalNVMeSSDBlockCount, q.RawBlock}} {
		if m.count != nil {
			fs = append(fs, c.localSSDCountFindings(q, m.attr, *m.count)...)
		}
	}
	fs = append(fs, c.localSSDVersionFindings(q.GKEVersion)...)
	return fs
}

func (c *Catalog) localSSDCountFindings(q LocalSSDQuery, attr string, n int64) Findings {
	r := &c.data.PoolSettings.LocalSSD
	if n < 0 || n > r.MaxCount {
		return Findings{newFinding(SeverityError, attr, fmt.Sprint(n), "Local SSD Count Out of Range", r.MaxCountSource, nil,
			fmt.Sprintf("%s %d is outside 0 to %d, the most Local SSDs a VM can have. %s", attr, n, r.MaxCount, r.MaxCountDecision))}
	}
	rule, ok := c.localSSDRule(q.MachineType)
	if q.TPU || !ok || n == 0 {
		return nil
	}
	switch rule.Kind {
	case LocalSSDUnsupported:
		return Findings{newFinding(SeverityError, attr, fmt.Sprint(n), "Machine Type Without Local SSD", rule.Source, nil,
			fmt.Sprintf("%s cannot have Local SSDs: %s. Use another machine type (such as n1-standard-4 or a GPU machine type), or remove %s.", q.MachineType, rule.Reason, attr))}
	case LocalSSDFixed:
		return Findings{newFinding(SeverityWarning, attr, fmt.Sprint(n), "Machine Type With Built-in Local SSDs", rule.Source, []string{"0"},
			fmt.Sprintf("%s: %s, and a count of 0 uses all of them. %s", q.MachineType, rule.Reason, r.FixedDecision))}
	}
	return nil
}

func (c *Catalog) localSSDVersionFindings(version string) Findings {
	r := &c.data.PoolSettings.LocalSSD
	if !olderGKE(version, r.MinGKEVersion) {
		return nil
	}
	return Findings{newFinding(SeverityError, AttrGKEVersion, version, "GKE Version Too Old for NVMe Local SSDs", r.MinGKEVersionSource,
		[]string{r.MinGKEVersion}, fmt.Sprintf("GKE %s is older than %s, the first version whose node pools use Local SSDs over NVMe for ephemeral storage or raw block devices; upgrade the cluster.", version, r.MinGKEVersion))}
}

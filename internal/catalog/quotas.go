// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// ComputeQuotas names the regional Compute Engine quota metrics that
// regions.get reports for accelerators (see catalog.json "compute_quotas").
type ComputeQuotas struct {
	Source   string         `json:"source"`
	Decision string         `json:"decision"`
	Metrics  []ComputeQuota `json:"metrics"`
}

// ComputeQuota is the quota of one accelerator: a GKE GPU type
// ("nvidia-l4") or a TPU generation on GKE ("v5e").
type ComputeQuota struct {
	Accelerator string `json:"accelerator"`
	OnDemand    string `json:"on_demand"`
	Spot        string `json:"spot"`
	Unit        string `json:"unit"` // "GPUs" or "chips"
	Source      string `json:"source"`
	Note        string `json:"note,omitempty"`
}

// Metric is the quota metric of the accelerator for Spot or on-demand.
func (q ComputeQuota) Metric(spot bool) string {
	if spot {
		return q.Spot
	}
	return q.OnDemand
}

// ComputeQuota returns the regional quota of an accelerator, if the
// catalog knows one regions.get reports.
func (c *Catalog) ComputeQuota(accelerator string) (ComputeQuota, bool) {
	for _, q := range c.data.ComputeQuotas.Metrics {
		if q.Accelerator == accelerator {
			return q, true
		}
	}
	return ComputeQuota{}, false
}

// ComputeQuotaDecision is how the catalog decided which quotas it checks.
func (c *Catalog) ComputeQuotaDecision() (decision, source string) {
	return c.data.ComputeQuotas.Decision, c.data.ComputeQuotas.Source
}

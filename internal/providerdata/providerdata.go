// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package providerdata holds what the provider's Configure hands to every
// resource and data source: the lazily built Google Cloud clients. (The
// validation mode travels in validation.Modes instead: resources need it
// while Terraform validates them, before any provider is configured.)
package providerdata

import (
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/livecheck"
)

// Data is the provider's configured state, shared by all resources.
type Data struct {
	// Clients builds the TPU and GKE API clients on first use.
	Clients *gcp.Clients
	// Unknown lists provider arguments that were unknown at configure time
	// (they become known during apply).
	Unknown []string
	// DefaultLabels are the provider's default_labels (nil when unset), which
	// every resource adds to the labels it manages (WithDefaultLabels).
	DefaultLabels map[string]string
	// HoldStockouts is set by stockout_retry = "hold": plans keep node
	// pools GKE left in ERROR for lack of capacity as they are.
	HoldStockouts bool

	liveOnce sync.Once
	live     *livecheck.Checker

	claimsMu sync.Mutex
	claims   map[string]Claim
}

// Claim is who holds a key (see Data.Claim), and whether its plan changes
// anything.
type Claim struct {
	Claimant string
	Changes  bool
}

// Claim records c as the holder of key for this provider process (a plan
// or an apply of one configuration), and returns the holder: c, or what
// claimed key first. Resources use it for what no two of them may declare,
// such as one ComputeClass on one cluster.
func (d *Data) Claim(key string, c Claim) Claim {
	d.claimsMu.Lock()
	defer d.claimsMu.Unlock()
	if d.claims == nil {
		d.claims = map[string]Claim{}
	}
	if held, ok := d.claims[key]; ok {
		return held
	}
	d.claims[key] = c
	return c
}

// The values of the provider's stockout_retry.
const (
	StockoutRetryPlan = "plan"
	StockoutRetryHold = "hold"
)

// StockoutRetries lists the values of stockout_retry.
var StockoutRetries = []string{StockoutRetryPlan, StockoutRetryHold}

// Live is the live availability checker of this provider process, built
// on first use: every resource and data source of a plan shares its cached
// answers.
func (d *Data) Live() *livecheck.Checker {
	d.liveOnce.Do(func() { d.live = livecheck.New(d.Clients) })
	return d.live
}

// Project is the provider's default project ("" when unset).
func (d *Data) Project() string { return d.Clients.Config().Project }

// Zone is the provider's default zone ("" when unset).
func (d *Data) Zone() string { return d.Clients.Config().Zone }

// From converts the ProviderData of a Configure request. It returns nil
// without a diagnostic when the provider is not configured yet (Terraform
// calls Configure on resources before the provider during validation).
func From(providerData any, diags *diag.Diagnostics) *Data {
	if providerData == nil {
		return nil
	}
	d, ok := providerData.(*Data)
	if !ok {
		diags.AddError(
			"Unexpected Provider Data Type",
			fmt.Sprintf("Expected *providerdata.Data, got: %T. Please report this issue to the provider developers.", providerData),
		)
		return nil
	}
	return d
}

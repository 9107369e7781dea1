// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// A tier's upgrade strategy beside surge (settings.go's max_surge and
// max_unavailable): UpgradeSettings.strategy and, for blue-green upgrades,
// UpgradeSettings.blueGreenSettings, with the google provider's names
// (upgrade_settings.strategy, blue_green_settings). Both are fields of
// nodePools.update: changed in place.
// https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools#UpgradeSettings
// https://cloud.google.com/kubernetes-engine/docs/concepts/node-pool-upgrade-strategies#blue-green-upgrade-strategy

const (
	strategySurge     = "SURGE"
	strategyBlueGreen = "BLUE_GREEN"
	upgradesSource    = "https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools#BlueGreenSettings"
)

var (
	upgradeStrategies = []string{strategySurge, strategyBlueGreen}

	// durationRE is a protobuf Duration in JSON: seconds with up to nine
	// fractional digits, ending in "s" ("3600s", "0.5s").
	durationRE   = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,9})?s$`)
	durationRule = `must be a duration in seconds ending in "s", such as "3600s"`
)

type blueGreenModel struct {
	NodePoolSoakDuration  types.String `tfsdk:"node_pool_soak_duration"`
	StandardRolloutPolicy types.Object `tfsdk:"standard_rollout_policy"`
}

type rolloutModel struct {
	BatchPercentage   types.Float64 `tfsdk:"batch_percentage"`
	BatchNodeCount    types.Int64   `tfsdk:"batch_node_count"`
	BatchSoakDuration types.String  `tfsdk:"batch_soak_duration"`
}

// upgradeStrategyAttribute is upgrade_strategy.
func upgradeStrategyAttribute() schema.Attribute {
	return schema.StringAttribute{
		Optional: true, Computed: true,
		MarkdownDescription: "How GKE upgrades the pool's nodes: `SURGE` (`max_surge` and `max_unavailable`) or `BLUE_GREEN` " +
			"(a second set of nodes, drained into in batches and kept for a soak time before the old ones go, which a serving " +
			"pool can roll back; see `blue_green_settings`). One of " + schemadoc.Codes(upgradeStrategies) + ". Without it, as GKE " +
			"reports it (`SURGE` for a new pool). Updated in place.",
		Validators: []validator.String{stringvalidator.OneOf(upgradeStrategies...)},
	}
}

// blueGreenBlock is blue_green_settings.
func blueGreenBlock() schema.Block {
	duration := func(what string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: what + ", in seconds, such as `\"3600s\"`.",
			Validators: []validator.String{stringvalidator.RegexMatches(durationRE, durationRule)}}
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Blue-green upgrades (`upgrade_strategy = \"BLUE_GREEN\"`): how GKE drains the old nodes. The " +
			"apply sends the whole block. Without it, GKE's defaults, never compared. Updated in place.",
		Attributes: map[string]schema.Attribute{
			"node_pool_soak_duration": duration("Time to keep the old nodes after the last batch is drained, to roll back to"),
		},
		Blocks: map[string]schema.Block{
			"standard_rollout_policy": schema.SingleNestedBlock{
				MarkdownDescription: "Drain the old nodes in batches: of a share of the nodes (`batch_percentage`) or of a " +
					"number of them (`batch_node_count`), not both.",
				Attributes: map[string]schema.Attribute{
					"batch_percentage": schema.Float64Attribute{Optional: true,
						MarkdownDescription: "Share of the old nodes drained in one batch, above 0 and at most 1 (`0.25`).",
						Validators:          []validator.Float64{float64validator.Between(0, 1)}},
					"batch_node_count": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "Old nodes drained in one batch.",
						Validators:          []validator.Int64{int64validator.AtLeast(1)}},
					"batch_soak_duration": duration("Time to wait after each batch"),
				},
			},
		},
	}
}

// blueGreen is blue_green_settings as Go values; "" and nil are left out.
type blueGreen struct {
	PoolSoak string
	Rollout  *rollout
}

type rollout struct {
	Percentage *float64
	NodeCount  *int64
	BatchSoak  string
}

// blueGreenOf reads the block; nil when it is null or unknown.
func blueGreenOf(ctx context.Context, o types.Object, diags *diag.Diagnostics) *blueGreen {
	if !tfmodel.Known(o) || o.IsNull() {
		return nil
	}
	var m blueGreenModel
	diags.Append(tfmodel.As(ctx, o, &m, tfmodel.ObjectAsOptions)...)
	out := &blueGreen{PoolSoak: m.NodePoolSoakDuration.ValueString()}
	if r := m.StandardRolloutPolicy; tfmodel.Known(r) && !r.IsNull() {
		var rm rolloutModel
		diags.Append(tfmodel.As(ctx, r, &rm, tfmodel.ObjectAsOptions)...)
		out.Rollout = &rollout{Percentage: rm.BatchPercentage.ValueFloat64Pointer(), NodeCount: tfmodel.Int64Ptr(rm.BatchNodeCount),
			BatchSoak: rm.BatchSoakDuration.ValueString()}
	}
	return out
}

// upgradeFindings checks the strategy against GKE's reference: a batch is a
// share or a count of nodes (one of the two), a share is above 0, blue-green
// settings apply to BLUE_GREEN, and surge settings to SURGE.
func upgradeFindings(s poolSettings) catalog.Findings {
	var fs catalog.Findings
	if bg := s.BlueGreen; bg != nil && bg.Rollout != nil {
		r := bg.Rollout
		if r.Percentage != nil && r.NodeCount != nil {
			f := tierFinding("blue_green_settings", fmt.Sprint(*r.Percentage), "Batch Size Given Twice",
				"blue_green_settings.standard_rollout_policy sets batch_percentage and batch_node_count; GKE takes one of them "+
					"(a share of the nodes, or a number of nodes). Remove one.", upgradesSource)
			f.Basis = catalog.BasisRule
			fs = append(fs, f)
		}
		if p := r.Percentage; p != nil && *p <= 0 {
			f := tierFinding("blue_green_settings", fmt.Sprint(*p), "Batch Percentage Out of Range",
				fmt.Sprintf("blue_green_settings.standard_rollout_policy.batch_percentage = %v; GKE takes a share above 0 and at "+
					"most 1, such as 0.25.", *p), upgradesSource)
			f.Basis = catalog.BasisRule
			fs = append(fs, f)
		}
	}
	warn := func(attr, value, summary, detail string) {
		f := tierFinding(attr, value, summary, detail, upgradesSource)
		f.Severity = catalog.SeverityWarning
		fs = append(fs, f)
	}
	if s.BlueGreen != nil && s.Strategy == strategySurge {
		warn("blue_green_settings", "", "Blue-Green Settings With Surge Upgrades",
			"blue_green_settings applies to blue-green upgrades, and upgrade_strategy is SURGE: GKE does not use it. Set "+
				"upgrade_strategy = \"BLUE_GREEN\", or remove the block.")
	}
	if s.Strategy == strategyBlueGreen && (s.MaxSurge != nil || s.MaxUnavailable != nil) {
		warn("upgrade_strategy", s.Strategy, "Surge Settings With Blue-Green Upgrades",
			"max_surge and max_unavailable apply to surge upgrades, and upgrade_strategy is BLUE_GREEN: GKE does not use them. "+
				"Remove them, or set upgrade_strategy = \"SURGE\".")
	}
	return fs
}

// api is bg as GKE's BlueGreenSettings.
func (bg *blueGreen) api() *container.BlueGreenSettings {
	out := &container.BlueGreenSettings{NodePoolSoakDuration: bg.PoolSoak}
	if r := bg.Rollout; r != nil {
		out.StandardRolloutPolicy = &container.StandardRolloutPolicy{BatchPercentage: valueOr(r.Percentage, 0),
			BatchNodeCount: valueOr(r.NodeCount, 0), BatchSoakDuration: r.BatchSoak}
	}
	return out
}

// blueGreenOfPool reads what GKE reports.
func blueGreenOfPool(u *container.UpgradeSettings) *blueGreen {
	if u == nil || u.BlueGreenSettings == nil {
		return nil
	}
	b := u.BlueGreenSettings
	out := &blueGreen{PoolSoak: b.NodePoolSoakDuration}
	if r := b.StandardRolloutPolicy; r != nil {
		out.Rollout = &rollout{BatchSoak: r.BatchSoakDuration}
		if r.BatchPercentage != 0 {
			out.Rollout.Percentage = &r.BatchPercentage
		}
		if r.BatchNodeCount != 0 {
			out.Rollout.NodeCount = &r.BatchNodeCount
		}
	}
	return out
}

// blueGreenMatches reports whether got is what want sets; settings want
// leaves out are not compared.
func blueGreenMatches(want, got *blueGreen) bool {
	if want == nil {
		return true
	}
	if got == nil {
		got = &blueGreen{}
	}
	if want.PoolSoak != "" && want.PoolSoak != got.PoolSoak {
		return false
	}
	if w := want.Rollout; w != nil {
		g := got.Rollout
		if g == nil {
			g = &rollout{}
		}
		return setOrEqual(w.Percentage, g.Percentage) && setOrEqual(w.NodeCount, g.NodeCount) &&
			(w.BatchSoak == "" || w.BatchSoak == g.BatchSoak)
	}
	return true
}

// blueGreenValue converts what GKE reports (got) to the block's value for a
// tier whose prior block is prior: null when prior is (an import records a
// blue-green pool's settings), else the settings prior sets.
func blueGreenValue(got *blueGreen, prior types.Object, importing bool) types.Object {
	if got == nil || (!importing && (!tfmodel.Known(prior) || prior.IsNull())) {
		return types.ObjectNull(schemaTypes().blueGreen.AttrTypes)
	}
	var priorRollout types.Object
	if importing {
		priorRollout = types.ObjectNull(schemaTypes().rollout.AttrTypes)
	} else if v, ok := prior.Attributes()["standard_rollout_policy"].(types.Object); ok {
		priorRollout = v
	}
	soak := types.StringNull()
	if got.PoolSoak != "" && kept(prior, "node_pool_soak_duration", importing) {
		soak = types.StringValue(got.PoolSoak)
	}
	policy := types.ObjectNull(schemaTypes().rollout.AttrTypes)
	if r := got.Rollout; r != nil && (importing || tfmodel.Known(priorRollout) && !priorRollout.IsNull()) {
		batchSoak := types.StringNull()
		if r.BatchSoak != "" && kept(priorRollout, "batch_soak_duration", importing) {
			batchSoak = types.StringValue(r.BatchSoak)
		}
		pct, count := types.Float64Null(), types.Int64Null()
		if kept(priorRollout, "batch_percentage", importing) {
			pct = types.Float64PointerValue(r.Percentage)
		}
		if kept(priorRollout, "batch_node_count", importing) {
			count = types.Int64PointerValue(r.NodeCount)
		}
		policy = types.ObjectValueMust(schemaTypes().rollout.AttrTypes, map[string]attr.Value{
			"batch_percentage": pct, "batch_node_count": count, "batch_soak_duration": batchSoak,
		})
	}
	return types.ObjectValueMust(schemaTypes().blueGreen.AttrTypes, map[string]attr.Value{"node_pool_soak_duration": soak, "standard_rollout_policy": policy})
}

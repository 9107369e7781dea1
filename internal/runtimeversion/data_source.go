// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package runtimeversion implements the accel_runtime_version data source:
// it picks (or validates) the Cloud TPU runtime version for an accelerator
// type and framework from the compatibility catalog, offline, and, when the
// provider can reach the Cloud TPU API, checks the answer against what the
// zone offers.
//
// The data source reaches the live checks through liveAPI, a small
// interface of its own that *livecheck.Checker satisfies, built by the
// newLive factory: Configure sets it to the provider data's one checker, so
// the data source shares its cached answers with the resources of the same
// plan; tests replace it with a fake.
package runtimeversion

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var (
	_ datasource.DataSource                   = &runtimeVersionDataSource{}
	_ datasource.DataSourceWithConfigure      = &runtimeVersionDataSource{}
	_ datasource.DataSourceWithValidateConfig = &runtimeVersionDataSource{}
)

// NewDataSource returns the accel_runtime_version data source. modes carries
// the provider-level validation mode.
func NewDataSource(cat *catalog.Catalog, modes *validation.Modes) datasource.DataSource {
	return &runtimeVersionDataSource{modes: modes, cat: cat}
}

type runtimeVersionDataSource struct {
	modes *validation.Modes
	// data is nil until the provider is configured (and during validation).
	data *providerdata.Data
	// cat is the compatibility catalog every check uses.
	cat *catalog.Catalog
	// newLive returns the live availability checks; replaced in tests.
	newLive func() liveAPI
}

func (d *runtimeVersionDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_runtime_version"
}

func (d *runtimeVersionDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	pd := providerdata.From(req.ProviderData, &resp.Diagnostics)
	if pd == nil {
		return
	}
	d.data = pd
	if d.newLive == nil {
		d.newLive = func() liveAPI { return pd.Live() }
	}
}

// ValidateConfig reports the catalog's errors as soon as the inputs are
// known, so that `terraform validate` and `terraform plan` fail on them.
//
// ValidateConfig reports the catalog's errors and Read every finding, the
// project-wide rule of package validation, so each finding is shown once.
func (d *runtimeVersionDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var cfg runtimeVersionModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q, known := queryFrom(cfg)
	if !known {
		return
	}
	mode := d.modes.For(cfg.Validation)
	res := runtimeOf(d.cat, q)
	validation.AppendErrors(&resp.Diagnostics, path.Empty(), res.Findings, mode)
}

// Read reports the catalog's findings, sets the outputs from the catalog's answer, and then checks the answer
// against the zone's live offer when it can.
func (d *runtimeVersionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg runtimeVersionModel
	resp.Diagnostics.Append(tfmodel.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q, _ := queryFrom(cfg)
	mode := d.modes.For(cfg.Validation)
	res := runtimeOf(d.cat, q)
	if res.Findings.WithMode(mode.Mode).HasErrors() {
		validation.Append(&resp.Diagnostics, path.Empty(), res.Findings, mode)
		return
	}
	tflog.Debug(ctx, "resolved TPU runtime version", map[string]any{
		"accelerator_type": q.AcceleratorType,
		"framework":        q.Framework,
		"runtime_version":  res.RuntimeVersion,
		"candidates":       res.Candidates,
		"findings":         len(res.Findings),
	})

	if live, ok := d.liveCheckable(ctx, q); ok {
		resp.Diagnostics.Append(d.checkLive(ctx, live, d.data.Project(), q.Zones[0], res, mode)...)
	} else {
		validation.Append(&resp.Diagnostics, path.Empty(), res.Findings, mode)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	state, diags := flatten(ctx, d.cat, cfg, res)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfmodel.SetState(ctx, &resp.State, &state)...)
}

// liveCheckable returns the live checks when the zone's live offer can be
// asked for: a zone is set, the provider is configured, has a project and
// can reach the Cloud TPU API.
func (d *runtimeVersionDataSource) liveCheckable(ctx context.Context, q catalog.RuntimeQuery) (liveAPI, bool) {
	if len(q.Zones) == 0 {
		return nil, false
	}
	if d.data == nil || d.newLive == nil {
		tflog.Debug(ctx, "live zone check skipped: provider not configured")
		return nil, false
	}
	project := d.data.Project()
	if project == "" {
		tflog.Debug(ctx, "live zone check skipped: the provider has no project", map[string]any{"zone": q.Zones[0]})
		return nil, false
	}
	live := d.newLive()
	if !live.TPUConfigured(project) {
		tflog.Debug(ctx, "live zone check skipped: no credentials and no tpu_endpoint", map[string]any{"zone": q.Zones[0]})
		return nil, false
	}
	return live, true
}

// queryFrom builds the catalog query from the configuration. known is false
// when an input the catalog needs is unknown (it becomes known later).
func queryFrom(cfg runtimeVersionModel) (q catalog.RuntimeQuery, known bool) {
	for _, v := range []types.String{cfg.AcceleratorType, cfg.Framework, cfg.FrameworkVersion, cfg.Zone, cfg.RuntimeVersion} {
		if v.IsUnknown() {
			return q, false
		}
	}
	q = catalog.RuntimeQuery{
		AcceleratorType:  cfg.AcceleratorType.ValueString(),
		Framework:        cfg.Framework.ValueString(),
		FrameworkVersion: cfg.FrameworkVersion.ValueString(),
		RuntimeVersion:   cfg.RuntimeVersion.ValueString(),
	}
	if z := cfg.Zone.ValueString(); z != "" {
		q.Zones = []string{z}
	}
	return q, true
}

// runtimeOf asks the catalog and moves zone findings from the catalog's list
// attribute "zones" to this data source's single "zone".
func runtimeOf(cat *catalog.Catalog, q catalog.RuntimeQuery) catalog.RuntimeResult {
	res := cat.ResolveRuntime(q)
	if len(res.Findings) > 0 {
		fs := make(catalog.Findings, len(res.Findings))
		copy(fs, res.Findings)
		for i := range fs {
			if fs[i].Attribute == catalog.AttrZones {
				fs[i].Attribute = attrZone
				fs[i].Index = -1
			}
		}
		res.Findings = fs
	}
	return res
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// attrZone is this data source's zone attribute; the catalog names the
// zone list of its queries "zones".
const attrZone = "zone"

// runtimeVersionModel is the data source's configuration and state.
type runtimeVersionModel struct {
	AcceleratorType  types.String `tfsdk:"accelerator_type"`
	Framework        types.String `tfsdk:"framework"`
	FrameworkVersion types.String `tfsdk:"framework_version"`
	Zone             types.String `tfsdk:"zone"`
	RuntimeVersion   types.String `tfsdk:"runtime_version"`
	Validation       types.String `tfsdk:"validation"`

	Candidates      types.List   `tfsdk:"candidates"`
	Generation      types.String `tfsdk:"generation"`
	TensorCores     types.Int64  `tfsdk:"tensor_cores"`
	Chips           types.Int64  `tfsdk:"chips"`
	Hosts           types.Int64  `tfsdk:"hosts"`
	ChipsPerHost    types.Int64  `tfsdk:"chips_per_host"`
	Topology        types.String `tfsdk:"topology"`
	MultiHost       types.Bool   `tfsdk:"multi_host"`
	TPUAPISupported types.Bool   `tfsdk:"tpu_api_supported"`
	GKEMachineType  types.String `tfsdk:"gke_machine_type"`
	GKEAccelerator  types.String `tfsdk:"gke_accelerator"`
	GKENodeCount    types.Int64  `tfsdk:"gke_node_count"`
	CEMachineType   types.String `tfsdk:"compute_engine_machine_type"`
	CEImage         types.String `tfsdk:"compute_engine_image"`
	Reason          types.String `tfsdk:"reason"`
	CatalogVersion  types.String `tfsdk:"catalog_version"`
	ID              types.String `tfsdk:"id"`
}

func (d *runtimeVersionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dataSourceSchema(d.cat)
}

// dataSourceSchema builds the schema; allowed values in descriptions come
// from the same catalog lists the checks use.
func dataSourceSchema(cat *catalog.Catalog) schema.Schema { //nolint:funlen // a schema literal
	return schema.Schema{
		MarkdownDescription: "Chooses the Cloud TPU runtime version (software version) for an accelerator type and framework, " +
			"or validates the one you give, from the provider's compatibility catalog (version " + cat.Version() + ", reviewed " + cat.Date() + "). " +
			"It works offline: `terraform validate` and `terraform plan` need no credentials, and misconfigurations " +
			"(a runtime for another generation, a size that does not exist, a framework the generation does not support, " +
			"a TensorFlow runtime without `-pod` on a multi-host slice, a zone that does not offer the generation) fail at plan time " +
			"with a did-you-mean. Uncertain facts (an unverified image, an experimental framework, a zone only an older page lists) are warnings, " +
			"shown when the data source is read.\n\n" +
			"When `zone` is set and the provider can reach the Cloud TPU API (credentials or `tpu_endpoint` configured, and a `project`), " +
			"the zone's live accelerator types and runtime versions are also listed: a zone that does not offer the accelerator type is an error, " +
			"a chosen runtime the zone does not list is a warning, and an unreachable API is ignored. " +
			"The outputs always come from the catalog, so they are the same with and without API access.",
		Attributes: map[string]schema.Attribute{
			"accelerator_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Cloud TPU accelerator type, `<generation>-<size>` as the TPU API names it, such as `v6e-4`, `v5litepod-16`, `v5p-8` or `tpu7x-8`. " +
					"Generation prefixes: " + schemadoc.CodeList(cat.APIPrefixes(), "and") + ". " +
					"The size counts chips for v5e and v6e, and TensorCores for the others. Case matters.",
				Validators: []validator.String{validation.NotEmpty(cat.AcceleratorTypeHint())},
			},
			"framework": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Framework the VM will run: " + schemadoc.CodeList(cat.Frameworks(), "or") + ". " +
					"Checked against the generation (for example TensorFlow is not supported on TPU7x). " +
					"For TensorFlow the runtime embeds the framework; for the others the runtime is a base image and you install the framework on the VM. " +
					"Unset: the generation's base image.",
			},
			"framework_version": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Framework version, such as `2.16.1`. For TensorFlow it selects the runtime (`2.16` picks the newest listed 2.16 release); " +
					"for other frameworks it is checked against the generation's minimum version. Needs `framework`.",
			},
			"zone": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Zone to check, such as `us-central1-b`: against the catalog's zone list, and against the zone's live offer " +
					"when the provider can reach the Cloud TPU API and has a `project`. The provider's `zone` is not used. Unset: no zone check.",
			},
			"runtime_version": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "When set, this runtime version is validated against the accelerator type, framework and framework version instead of chosen. " +
					"Otherwise the catalog's best runtime: the generation's documented base image, or the TensorFlow runtime in its single-host or `-pod` form.",
			},
			"validation": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Overrides the provider's `validation` for this data source: " + schemadoc.CodeList(catalog.ModeNames, "or") + ". " +
					"`warn` reports catalog errors (and a zone whose live offer lacks the accelerator type) as warnings. Unset: the provider's setting.",
				Validators: []validator.String{stringvalidator.OneOf(catalog.ModeNames...)},
			},
			"candidates": schema.ListAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Every runtime version the catalog considers compatible with the inputs, best first (legacy images excluded).",
			},
			"generation": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "TPU generation: one of " + schemadoc.CodeList(cat.GenerationNames(), "or") + ".",
			},
			"tensor_cores": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "TensorCores in the slice.",
			},
			"chips": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "TPU chips in the slice.",
			},
			"hosts": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "TPU VMs (hosts, workers) in the slice.",
			},
			"chips_per_host": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "TPU chips per TPU VM.",
			},
			"topology": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Chip topology of the slice, such as `2x2` or `2x2x1`.",
			},
			"multi_host": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the slice spans more than one TPU VM (TensorFlow then needs a `-pod` runtime).",
			},
			"tpu_api_supported": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether Google's Cloud TPU API pages support this generation. TPU7x is not: `accel_tpu_vm` creates it through Compute Engine (`api = \"compute_engine\"`), and GKE runs it in node pools.",
			},
			"gke_machine_type": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "GKE machine type of the slice's nodes, such as `ct6e-standard-4t`; null when GKE does not offer the generation.",
			},
			"gke_accelerator": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Value of the `cloud.google.com/gke-tpu-accelerator` node label, such as `tpu-v6e-slice`; null when GKE does not offer the generation.",
			},
			"gke_node_count": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "GKE nodes in one slice of `gke_machine_type`; null when GKE does not offer the generation.",
			},
			"compute_engine_machine_type": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Compute Engine machine type of a TPU VM of this type created as a Compute Engine instance " +
					"(`accel_tpu_vm` with `api = \"compute_engine\"`, or `google_compute_instance`), such as `tpu7x-standard-4t`; " +
					"null when Compute Engine does not create the type (another generation, or a multi-host slice).",
			},
			"compute_engine_image": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The catalog's boot image for that instance, an image family such as " +
					"`projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accel-2404-amd64-tpu-tpu7x`; null with " +
					"`compute_engine_machine_type`. `runtime_version` stays the Cloud TPU software version.",
			},
			"reason": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "One sentence saying why `runtime_version` was chosen or accepted.",
			},
			"catalog_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Version of the compatibility catalog that answered.",
			},
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<accelerator_type>/<runtime_version>` (just the accelerator type when no runtime version fits).",
			},
		},
	}
}

// flatten fills the computed attributes from the catalog's answer; the
// arguments keep their configured values.
func flatten(ctx context.Context, cat *catalog.Catalog, cfg runtimeVersionModel, res catalog.RuntimeResult) (runtimeVersionModel, diag.Diagnostics) {
	m := cfg
	a := res.Accelerator
	candidates := res.Candidates
	if candidates == nil {
		candidates = []string{}
	}
	list, diags := tfmodel.ListOf(ctx, types.StringType, candidates)
	m.Candidates = list
	if cfg.RuntimeVersion.IsNull() || cfg.RuntimeVersion.IsUnknown() {
		m.RuntimeVersion = tfmodel.StringOrNull(res.RuntimeVersion)
	}
	m.Generation = tfmodel.StringOrNull(a.Generation)
	m.TensorCores = types.Int64Value(int64(a.TensorCores))
	m.Chips = types.Int64Value(int64(a.Chips))
	m.Hosts = types.Int64Value(int64(a.Hosts))
	m.ChipsPerHost = types.Int64Value(int64(a.ChipsPerHost))
	m.Topology = tfmodel.StringOrNull(a.Topology)
	m.MultiHost = types.BoolValue(a.MultiHost)
	m.TPUAPISupported = types.BoolValue(a.TPUAPISupported)
	m.GKEMachineType = tfmodel.StringOrNull(a.GKEMachineType)
	m.GKEAccelerator = tfmodel.StringOrNull(a.GKEAccelerator)
	m.GKENodeCount = types.Int64Null()
	if a.GKENodeCount > 0 {
		m.GKENodeCount = types.Int64Value(int64(a.GKENodeCount))
	}
	m.CEMachineType, m.CEImage = types.StringNull(), types.StringNull()
	if ce, fs := cat.ComputeEngineTPU(cfg.AcceleratorType.ValueString()); !fs.HasErrors() {
		m.CEMachineType, m.CEImage = types.StringValue(ce.MachineType), types.StringValue(ce.DefaultImage)
	}
	m.Reason = types.StringValue(res.Reason)
	m.CatalogVersion = types.StringValue(cat.Version())
	m.ID = types.StringValue(cfg.AcceleratorType.ValueString())
	if rv := m.RuntimeVersion.ValueString(); rv != "" {
		m.ID = types.StringValue(cfg.AcceleratorType.ValueString() + "/" + rv)
	}
	return m, diags
}

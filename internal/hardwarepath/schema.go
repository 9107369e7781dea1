// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package hardwarepath

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/decisiontree"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// model is the data source's configuration and state.
type model struct {
	Start              types.String `tfsdk:"start"`
	Zones              types.List   `tfsdk:"zones"`
	RunsOnOther        types.Bool   `tfsdk:"runs_on_other"`
	ConversionFeasible types.Bool   `tfsdk:"conversion_feasible"`
	TPU                types.List   `tfsdk:"tpu"`
	GPU                types.List   `tfsdk:"gpu"`
	SmallerGPU         types.List   `tfsdk:"smaller_gpu"`

	Decision        types.String `tfsdk:"decision"`
	ConvertModel    types.Bool   `tfsdk:"convert_model"`
	CapacityChecked types.Bool   `tfsdk:"capacity_checked"`
	Steps           types.List   `tfsdk:"steps"`
	Tiers           types.List   `tfsdk:"tiers"`
}

// tpuModel is one tpu block.
type tpuModel struct {
	AcceleratorType types.String `tfsdk:"accelerator_type"`
}

// gpuModel is one gpu or smaller_gpu block.
type gpuModel struct {
	MachineType types.String `tfsdk:"machine_type"`
	GPUType     types.String `tfsdk:"gpu_type"`
	GPUCount    types.Int64  `tfsdk:"gpu_count"`
}

var (
	stepAttrTypes = map[string]attr.Type{
		"question": types.StringType,
		"answer":   types.StringType,
		"evidence": types.StringType,
	}
	tierAttrTypes = map[string]attr.Type{
		"name":             types.StringType,
		"family":           types.StringType,
		"accelerator_type": types.StringType,
		"machine_type":     types.StringType,
		"gpu_type":         types.StringType,
		"gpu_count":        types.Int64Type,
		"node_locations":   types.ListType{ElemType: types.StringType},
		"available":        types.BoolType,
		"evidence":         types.StringType,
	}
)

func dataSourceSchema(cat *catalog.Catalog) schema.Schema { //nolint:funlen // a schema literal
	gpuBlock := func(what string) schema.ListNestedBlock {
		return schema.ListNestedBlock{
			MarkdownDescription: what + " Repeat the block for each, in order of preference.",
			NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"machine_type": schema.StringAttribute{
					Required: true,
					MarkdownDescription: "Compute Engine machine type: one with built-in GPUs (`a3-highgpu-8g`, `a2-ultragpu-1g`, " +
						"`g2-standard-8`...) or an N1 type with `gpu_type` and `gpu_count`.",
					Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				},
				"gpu_type": schema.StringAttribute{Optional: true, MarkdownDescription: "GPU type, for N1 machine types (for " +
					"example `nvidia-tesla-t4`); derived for machine types with built-in GPUs.",
					Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
				"gpu_count": schema.Int64Attribute{Optional: true, MarkdownDescription: "GPUs a node, for N1 machine types.",
					Validators: []validator.Int64{int64validator.AtLeast(1)}},
			}},
		}
	}
	return schema.Schema{
		MarkdownDescription: "Walks the two accelerator decision trees (TPU first, GPU first) for a model and a set of " +
			"candidate accelerators, and returns the decision (" + schemadoc.Codes(decisiontree.Outcomes) + "), the questions " +
			"asked with their answers and evidence, and the tiers to create, in order, ready for `accel_fallback_nodepools`.\n\n" +
			"Each capacity question (\"do you have access to the required TPUs?\") is answered per candidate and zone.\n\n" +
			"- **Offline** (no `project`, or neither credentials nor `compute_endpoint`): from the compatibility catalog. A candidate " +
			"is available in the zones the catalog lists for it (TPUs; the catalog lists no zones for GPUs, so a GPU keeps every zone); " +
			"a capacity answer is then `unknown`, never `yes`, its evidence says `capacity not checked`, and `capacity_checked` is " +
			"`false`, so the decision is the first configuration Google offers in your zones, not a promise of capacity. No API is called.\n" +
			"- **Online**: Compute Engine is asked, once per plan, which of the zones offer the candidate's machine type or GPU " +
			"(`machineTypes` and `acceleratorTypes`), the region's quota for it (`regions.get`: limit and usage of metrics such as " +
			"`NVIDIA_L4_GPUS` or `TPU_LITE_PODSLICE_V5`) and the matching reservations. A candidate is available where a zone offers " +
			"it and the quota has room for one node. Quotas `regions.get` does not report (v6e, v5p, TPU7x and, in some projects, the " +
			"newest GPUs are Cloud Quotas family quotas without usage) are not checked: the answer is then `unknown`, and `capacity_checked` says so; quota is not " +
			"capacity, so a zone can still be stocked out. A read the caller may not make is a warning naming the permission.\n\n" +
			"Candidates that are not valid configurations (an accelerator type that does not exist, an N1 type without its GPU) are errors.",
		Attributes: map[string]schema.Attribute{
			"start": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The family the model code was written for, where the walk starts: `tpu` (tree 1: TPU " +
					"first) or `gpu` (tree 2: GPU first, then smaller GPUs).",
				Validators: []validator.String{stringvalidator.OneOf(decisiontree.Families...)},
			},
			"zones": schema.ListAttribute{
				Required:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Zones the tiers may use, such as the node locations your GKE cluster allows.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues()},
			},
			"runs_on_other": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether the model also runs, as it is, on the other family (GPUs when `start = \"tpu\"`, " +
					"TPUs when `start = \"gpu\"`). Default: `false`.",
			},
			"conversion_feasible": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When the model runs on one family only: whether converting it to the other is feasible. " +
					"Default: `false`.",
			},
			"decision": schema.StringAttribute{Computed: true, MarkdownDescription: "Where the walk ends: " +
				schemadoc.Codes(decisiontree.Outcomes) + ". Tentative when `capacity_checked` is `false` (offline, the " +
				"decision is the first candidate Google offers in your zones, not a promise of capacity). The decision is " +
				"for choosing hardware; build pools from `tiers`, which do not follow it."},
			"convert_model": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the decision needs the model " +
				"converted to the other family first."},
			"capacity_checked": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every capacity answer " +
				"came from live checks of the zone offer and the quota; `false` offline, or when a quota could not be read."},
			"steps": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The questions of the walk, in order, each with its `answer` (`yes`, `no`, `unknown`, `stuck`) and `evidence`. A capacity question is `yes` only when the live APIs checked the zone offer and the quota; `unknown` when a candidate is taken on the catalog's word or with a quota that could not be read.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"question": schema.StringAttribute{Computed: true, MarkdownDescription: "The question."},
					"answer":   schema.StringAttribute{Computed: true, MarkdownDescription: "The answer."},
					"evidence": schema.StringAttribute{Computed: true, MarkdownDescription: "Why: per candidate for capacity questions."},
				}},
			},
			"tiers": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The tiers to create, in priority order: every candidate Google offers in `zones` that the " +
					"model runs on as it is, in the order of the tree (the start family first, then the other family when " +
					"`runs_on_other`, then `smaller_gpu`), whether or not its quota has room now (`available` says). The tiers " +
					"depend on the configuration and on where Google offers each candidate, never on quota, so a plan does not " +
					"drop a tier whose own nodes fill its quota: choosing among the tiers at run time is the ComputeClass's job. " +
					"A model that must be converted (`convert_model`) gets no tiers of the other family until it is converted " +
					"(then set `runs_on_other`). Feed it to `accel_fallback_nodepools` with a `dynamic \"tiers\"` block.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Computed: true, MarkdownDescription: "A pool name for the tier, such as " +
						"`tpu-v6e-4` or `gpu-g2-standard-8` (with `-x2` and the like when candidates of one machine and GPU type differ " +
						"only in their GPU count); unique within `tiers`, as a candidate listed twice is an error. Prefix it to keep " +
						"pool names unique in the cluster."},
					"family":           schema.StringAttribute{Computed: true, MarkdownDescription: "`tpu` or `gpu`."},
					"accelerator_type": schema.StringAttribute{Computed: true, MarkdownDescription: "TPU tiers: the accelerator type; null for GPU tiers."},
					"machine_type":     schema.StringAttribute{Computed: true, MarkdownDescription: "GPU tiers: the machine type; null for TPU tiers (the node pool derives it)."},
					"gpu_type":         schema.StringAttribute{Computed: true, MarkdownDescription: "GPU tiers with N1 machine types: the GPU type; else null."},
					"gpu_count":        schema.Int64Attribute{Computed: true, MarkdownDescription: "GPU tiers with N1 machine types: GPUs a node; else null."},
					"node_locations": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The " +
						"zones of `zones` that offer the tier (one zone for a multi-host TPU slice)."},
					"available": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the tier can be provisioned " +
						"now as far as the evidence goes: its quota has room (or could not be checked). `false` for a tier whose " +
						"quota is full, which stays in `tiers`."},
					"evidence": schema.StringAttribute{Computed: true, MarkdownDescription: "What is known of the tier's offer and quota."},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"tpu": schema.ListNestedBlock{
				MarkdownDescription: "A TPU candidate. Repeat the block for each, in order of preference.",
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"accelerator_type": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Cloud TPU accelerator type, such as `v6e-4` or `v5litepod-8`.",
						Validators:          []validator.String{validation.NotEmpty(cat.AcceleratorTypeHint())},
					},
				}},
			},
			"gpu":         gpuBlock("A GPU candidate."),
			"smaller_gpu": gpuBlock("A smaller GPU candidate, for the GPU-first tree's \"can you use smaller GPUs?\" step (and a fallback tier after `gpu`)."),
		},
	}
}

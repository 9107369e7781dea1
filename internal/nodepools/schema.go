// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// Operation timeouts. GKE accelerator pools can take long to provision; the
// google provider moved its node pool default to 2 hours after shorter
// defaults left pools half-created (reference anchors §1.4).
const (
	defaultCreateTimeout = 2 * time.Hour
	defaultUpdateTimeout = 2 * time.Hour
	defaultDeleteTimeout = time.Hour
)

// on_stockout values.
const (
	onStockoutFail     = "fail"
	onStockoutContinue = "continue"
)

// onStockoutTaintNote explains what a stockout does to the state in the
// resource's first apply with on_stockout = "fail": Terraform taints any
// resource whose create returns an error, and a create cannot fail the
// apply without returning one.
const onStockoutTaintNote = "tainted, as Terraform does for every create that fails, so the next apply deletes and " +
	"re-creates every pool, the healthy ones included. To keep them, run `terraform untaint` on the resource before the " +
	"next apply, which then keeps the healthy pools and re-creates only the one in `ERROR`, or use `continue`. A " +
	"stockout in a later apply (a tier added or re-created) fails that apply but taints nothing. Either way, a pool " +
	"left in `ERROR` is re-created by the next apply, and the plan says so."

// onStockoutValues lists the accepted values, default first. continue is
// the default: the resource exists to fall back when a tier has no
// capacity, and a failed first create is tainted by Terraform, whose next
// apply would delete the healthy pools with it.
var onStockoutValues = []string{onStockoutContinue, onStockoutFail}

// GKE NodeTaint.effect values and their Kubernetes spelling
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig#NodeTaint).
const (
	effectNoSchedule       = "NO_SCHEDULE"
	effectPreferNoSchedule = "PREFER_NO_SCHEDULE"
	effectNoExecute        = "NO_EXECUTE"
)

var taintEffects = []string{effectNoSchedule, effectPreferNoSchedule, effectNoExecute}

// kubernetesEffect maps a GKE taint effect to its Kubernetes name.
var kubernetesEffect = map[string]string{
	effectNoSchedule:       "NoSchedule",
	effectPreferNoSchedule: "PreferNoSchedule",
	effectNoExecute:        "NoExecute",
}

// gkeEffect maps a Kubernetes taint effect (as the catalog writes it) to GKE's.
func gkeEffect(k8s string) string {
	for g, k := range kubernetesEffect {
		if k == k8s {
			return g
		}
	}
	return k8s
}

// ReservationAffinity.consumeReservationType values a tier may set
// (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig#ReservationAffinity).
var reservationTypes = []string{"NO_RESERVATION", "ANY_RESERVATION", "SPECIFIC_RESERVATION"}

func gpuTypeNames(cat *catalog.Catalog) []string {
	var out []string
	for _, a := range cat.GPUAccelerators() {
		out = append(out, a.Name)
	}
	return out
}

// taintNestedObject is an element of the computed taint lists.
func taintNestedObject() schema.NestedAttributeObject {
	return schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
		"key":    schema.StringAttribute{Computed: true, MarkdownDescription: "Taint key."},
		"value":  schema.StringAttribute{Computed: true, MarkdownDescription: "Taint value."},
		"effect": schema.StringAttribute{Computed: true, MarkdownDescription: "GKE taint effect: " + schemadoc.Codes(taintEffects) + "."},
	}}
}

// taintBlockObject is the content of a tier's taints block.
func taintBlockObject() schema.NestedBlockObject {
	return schema.NestedBlockObject{Validators: requiredInElement("key", "value", "effect"), Attributes: map[string]schema.Attribute{
		"key": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Required. Taint key. Keys the provider sets itself (the accelerator taints and `cloud.google.com/compute-class`) are rejected here.",
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 317)},
		},
		"value": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Required. Taint value; may be empty.",
			Validators:          []validator.String{stringvalidator.LengthAtMost(63)},
		},
		"effect": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Required. Taint effect, as GKE spells it: " + schemadoc.Codes(taintEffects) + ".",
			Validators:          []validator.String{taintEffectValidator{}},
		},
	}}
}

func tolerationNestedObject() schema.NestedAttributeObject {
	return schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
		"key":      schema.StringAttribute{Computed: true, MarkdownDescription: "Taint key tolerated."},
		"operator": schema.StringAttribute{Computed: true, MarkdownDescription: "`Exists` or `Equal`."},
		"value":    schema.StringAttribute{Computed: true, MarkdownDescription: "Taint value for `Equal`; empty for `Exists`."},
		"effect":   schema.StringAttribute{Computed: true, MarkdownDescription: "Kubernetes taint effect: `NoSchedule`, `PreferNoSchedule` or `NoExecute`."},
	}}
}

// Schema describes accel_fallback_nodepools.
func (r *fallbackNodePoolsResource) Schema(ctx context.Context, _ resourceSchemaRequest, resp *resourceSchemaResponse) { //nolint:funlen // a schema literal
	cat := r.catalog
	resp.Schema = schema.Schema{
		MarkdownDescription: "An ordered set of GKE node pools for one serving workload: TPU pools first for performance, GPU pools " +
			"(and smaller GPUs) after them for availability and cost, tied together by a GKE custom ComputeClass whose " +
			"`spec.priorities` follow the order of `tiers`. Every tier is checked against the provider's catalog at plan time " +
			"(machine type, topology, node count, GPU attachment, zones, minimum GKE version), the accelerator and ComputeClass " +
			"taints and labels are set explicitly, and the resource outputs the ComputeClass manifest and the `nodeSelector` and " +
			"`tolerations` a Deployment needs to run on any tier.\n\n" +
			"Pools are created concurrently where GKE allows it and one at a time, in priority order, where it does not. An " +
			"operation GKE refuses because another operation runs on the cluster (including operations started outside " +
			"Terraform) waits for that operation and is retried as soon as it ends; one refused for the per-cluster operation " +
			"quota is retried with backoff, until the timeout.\n\n" +
			"Every pool this resource creates carries the GKE resource label `" + ownership.LabelKey + " = <owner_id>`, a random " +
			"id drawn when the resource is created. The resource only ever adopts, changes or deletes a pool that carries its own " +
			"owner id (or that was imported): a pool of the same name created by anyone else, or by another state, is an error and " +
			"is never recorded, changed or deleted. See the \"Ownership\" section below.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The cluster id followed by `/nodePools/` and the pool names in name order, separated by " +
					"commas, so that reordering tiers keeps it. An import identifier has the same form, with the pools in tier order.",
			},
			"cluster": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The GKE Standard cluster, as `projects/{project}/locations/{location}/clusters/{cluster}` " +
					"(the `id` of a `google_container_cluster`). Changing it replaces every pool.",
				Validators:    []validator.String{validation.ClusterID{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"compute_class": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the GKE ComputeClass (at most 63 lowercase letters, digits, `-` and `.`). Every pool gets the " +
					"node label and the `NoSchedule` taint `cloud.google.com/compute-class=<compute_class>`, which bind a manual pool to " +
					"the class. Changing it updates the pools' labels and taints in place.",
				Validators: []validator.String{stringvalidator.LengthAtMost(computeclass.NameMaxLen),
					stringvalidator.RegexMatches(computeclass.NameRE, computeclass.NameRule)},
			},
			"on_stockout": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(onStockoutContinue),
				MarkdownDescription: "What a tier that GKE cannot provision for lack of capacity does to the apply: `continue` " +
					"(default) records the tier with the status GKE reports and a warning, and the apply succeeds, so the " +
					"ComputeClass falls back to the other tiers and the next apply re-creates the pool GKE left in `ERROR`; " +
					"`fail` fails the apply after every other tier was attempted (pools that exist are kept in state). One of " +
					schemadoc.Codes(onStockoutValues) + ". With `fail`, a stockout in the resource's first apply leaves the resource " +
					onStockoutTaintNote,
				Validators: []validator.String{stringvalidator.OneOf(onStockoutValues...)},
			},
			"when_unsatisfiable": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(computeclass.DoNotScaleUp),
				MarkdownDescription: "The ComputeClass `spec.whenUnsatisfiable`: `DoNotScaleUp` (default) leaves pods Pending when no " +
					"tier has capacity; `ScaleUpAnyway` lets GKE create general-purpose nodes without accelerators. One of " +
					schemadoc.Codes(computeclass.WhenUnsatisfiableValues) + ".",
				Validators: []validator.String{stringvalidator.OneOf(computeclass.WhenUnsatisfiableValues...)},
			},
			"active_migration": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "Sets `spec.activeMigration.optimizeRulePriority: true` in the ComputeClass, so that GKE moves " +
					"workloads back to a higher tier when it has capacity again (PodDisruptionBudgets are honoured). Default: `false`.",
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "While `true`, no pool is deleted without a running replacement: `terraform destroy`, a " +
					"plan that removes or renames a tier, one that re-creates a pool, and a change of `cluster` are refused at plan, " +
					"and again by the apply. A tier that names the old one in `replaces` still goes through: the old pool is deleted " +
					"only once its replacement is `RUNNING`. To delete pools, set it to `false` and apply first. Changing it changes " +
					"only the state. Default: `false` (an import sets `false`).",
			},
			"validation": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Overrides the provider's `validation` for this resource: `strict` keeps catalog errors as errors, " +
					"`warn` reports them as warnings. One of " + schemadoc.Codes(catalog.ModeNames) + ".",
				Validators: []validator.String{stringvalidator.OneOf(catalog.ModeNames...)},
			},
			"owner_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The value of the GKE resource label `" + ownership.LabelKey + "` on every pool this resource " +
					"created: 20 random hexadecimal digits drawn when the resource is created (on import, the label of the imported " +
					"pools). A pool is adopted, changed or deleted only when it carries this value, or was imported without the label.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"pools": schema.MapNestedAttribute{
				Computed: true,
				MarkdownDescription: "The node pools of this resource, by pool name, so that the plan names each pool it touches: " +
					"a new key is a pool the apply creates, a removed key a pool it deletes, a `created_at` shown as " +
					"`(known after apply)` a pool it creates again (deletes and re-creates), and a changed `tier` a pool " +
					"that moves to another priority.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"tier": schema.Int64Attribute{Computed: true, MarkdownDescription: "The pool's tier: its position " +
						"in `tiers`, from 1 (tried first)."},
					"created_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When an apply of this " +
						"resource created the pool (UTC, RFC 3339); empty for a pool that was imported."},
				}},
			},
			"compute_class_manifest": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The ComputeClass as YAML (`apiVersion: cloud.google.com/v1`, `kind: ComputeClass`), one " +
					"`nodepools` priority per tier in tier order. Apply it with `kubernetes_manifest` " +
					"(`manifest = yamldecode(...)`) or `kubectl apply -f -`.",
			},
			"node_selector": schema.MapAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "The `nodeSelector` for a Deployment that may run on any tier: `cloud.google.com/compute-class=<compute_class>`.",
			},
			"tolerations": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The union of every tier's `tolerations`: what one Deployment needs to schedule on any tier " +
					"(accelerator taints, the ComputeClass taint, the Spot taint when a tier is Spot, and the tiers' own taints).",
				NestedObject: tolerationNestedObject(),
			},
		},
		Blocks: map[string]schema.Block{
			"tiers": schema.ListNestedBlock{
				MarkdownDescription: "Required, at least one. A node pool; repeat the block for each, in priority order: the " +
					"first tier is tried first. Each tier is either a TPU tier (`accelerator_type`) or a GPU tier (`gpu_type` and/or a GPU " +
					"`machine_type`). Tiers are matched by `name`: adding, removing or reordering tiers touches only those pools " +
					"and the ComputeClass.",
				Validators:   []validator.List{listvalidator.IsRequired(), listvalidator.SizeAtLeast(1)},
				NestedObject: tierBlockObject(cat),
			},
			"timeouts": timeoutsBlock(ctx),
		},
	}
	resp.Schema = tfmodel.FixTypes(resp.Schema)
}

// timeoutsBlock is the framework's timeouts block, documented with this
// resource's defaults.
func timeoutsBlock(ctx context.Context) schema.Block {
	b := timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true, CreateDescription: fmt.Sprintf(
		"Time to create every pool (default `%s`).", defaultCreateTimeout), UpdateDescription: fmt.Sprintf(
		"Time to update, add, re-create and remove pools (default `%s`).", defaultUpdateTimeout), DeleteDescription: fmt.Sprintf(
		"Time to delete every pool (default `%s`).", defaultDeleteTimeout)})
	if n, ok := b.(schema.SingleNestedBlock); ok {
		n.MarkdownDescription = "How long each operation may take, as Go durations such as `\"45m\"`."
		return n
	}
	return b
}

func tierBlockObject(cat *catalog.Catalog) schema.NestedBlockObject { //nolint:funlen // a schema literal
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	computedMap := func(desc string) schema.MapAttribute {
		return schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
	}
	obj := schema.NestedBlockObject{Validators: append(requiredInElement("name", "node_locations"), nodeCountValidator{}), Attributes: map[string]schema.Attribute{
		"name": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("Required. The GKE node pool name: 1 to %d lowercase letters, digits and hyphens, starting with a letter "+
				"and ending with a letter or digit. Unique among the tiers.", maxPoolNameLength),
			Validators: []validator.String{stringvalidator.RegexMatches(poolNameRE,
				fmt.Sprintf("must be 1 to %d lowercase letters, digits and hyphens, start with a letter and end with a letter or digit", maxPoolNameLength))},
		},
		"replaces": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The name of a tier removed in the same change whose pool this tier takes over with no gap in " +
				"serving: the apply creates this tier's pool, waits until GKE reports it `RUNNING`, and only then deletes the " +
				"removed tier's pool; if this tier's pool cannot be created (a stockout, an error), the old pool is kept and " +
				"the apply fails, so that the next apply tries again. The recipe for changing a setting GKE cannot change in " +
				"place (machine type, accelerator, topology, zones): rename the tier, set `replaces` to its old name, and " +
				"change the setting. It needs the quota of both pools for a while. Naming a tier that is still configured is " +
				"an error; naming one the state does not hold does nothing, so it can stay after the change.",
			Validators: []validator.String{stringvalidator.RegexMatches(poolNameRE, "must be the name of a tier (a node pool name)")},
		},
		"accelerator_type": schema.StringAttribute{
			Optional:   true,
			Validators: []validator.String{validation.NotEmpty(cat.AcceleratorTypeHint() + " Leave accelerator_type out for a GPU tier.")},
			MarkdownDescription: "TPU tiers: the TPU slice as a Cloud TPU accelerator type, such as `v6e-4` or `v6e-16` (generations: " +
				schemadoc.Codes(cat.GenerationNames()) + "). The machine type, topology, placement and node count follow from it. Changing it re-creates the pool.",
		},
		"machine_type": schema.StringAttribute{
			Optional:   true,
			Computed:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			MarkdownDescription: "The Compute Engine machine type. TPU tiers: derived from `accelerator_type` (set it only to pick " +
				"between two layouts of one slice, such as one `ct6e-standard-8t` or two `ct6e-standard-4t` for `v6e-8`), or, as GKE " +
				"writes a TPU pool, a TPU machine type with `topology` and no `accelerator_type` (`ct6e-standard-4t` with `2x2`). GPU tiers: " +
				"a machine type with built-in GPUs (such as `g2-standard-4` or `a3-highgpu-8g`), or an N1 type with attached GPUs. " +
				"Changing it re-creates the pool.",
		},
		"topology": schema.StringAttribute{
			Optional:   true,
			Computed:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			MarkdownDescription: "TPU tiers: the slice topology, such as `2x2` or `4x4`; derived from `accelerator_type` (set it only " +
				"where a slice has two documented layouts). Changing it re-creates the pool.",
		},
		"workload_policy": schema.StringAttribute{
			Optional:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			MarkdownDescription: "Multi-host TPU7x tiers: the Compute Engine workload policy (a `HIGH_THROUGHPUT` resource policy with " +
				"the slice's `accelerator_topology`, in the cluster's project and region) that places the slice, by name or as " +
				"`projects/PROJECT/regions/REGION/resourcePolicies/NAME`. GKE places a multi-host TPU7x slice with a workload " +
				"policy instead of a TPU topology. Unset, the provider creates one named like the pool before the pool, marks it " +
				"as this resource's in its description, and deletes it after the pool; a policy of that name it did not create " +
				"is refused, never used. Set, the named policy is used as it is and never changed or deleted. Other tiers: must " +
				"be unset. Changing it re-creates the pool.",
		},
		"gpu_type": schema.StringAttribute{
			Optional:   true,
			Computed:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			MarkdownDescription: "GPU tiers: the GPU accelerator type, one of " + schemadoc.Codes(gpuTypeNames(cat)) + ". Derived from a " +
				"machine type with built-in GPUs (which it must match when set); required with N1 machine types. Changing it re-creates the pool.",
		},
		"gpu_count": schema.Int64Attribute{
			Optional:            true,
			Computed:            true,
			MarkdownDescription: "GPU tiers: GPUs per node; derived from a machine type with built-in GPUs. Changing it re-creates the pool.",
			Validators:          []validator.Int64{int64validator.AtLeast(1)},
		},
		"gpu_driver_version": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: fmt.Sprintf("GPU tiers: how GKE installs the NVIDIA driver, one of %s (default `%s`). Changing it "+
				"re-creates the pool.", schemadoc.Codes(cat.GPUDriverVersionValues()), catalog.DefaultGPUDriverVersion),
			Validators: []validator.String{stringvalidator.OneOf(cat.GPUDriverVersionValues()...)},
		},
		"node_locations": schema.ListAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Required. The zones of the pool's nodes, in the cluster's region; each must offer the tier's accelerator. " +
				"A multi-host TPU slice needs exactly one zone. Changing them re-creates the pool.",
			Validators: []validator.List{
				listvalidator.SizeAtLeast(1),
				listvalidator.UniqueValues(),
				listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
			},
		},
		"node_count": schema.Int64Attribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Fixed number of nodes per zone, when the pool does not autoscale. Multi-host TPU tiers: derived as the " +
				"slice's hosts (one slice per pool). Single-host tiers without autoscaling default to `1`. Updated in place. " +
				"Conflicts with `min_node_count` and `max_node_count`.",
			Validators: []validator.Int64{
				int64validator.AtLeast(0), // and nodeCountValidator
			},
		},
		"min_node_count": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Autoscaling: minimum nodes per zone. Multi-host TPU tiers scale in whole slices, so it must be " +
				"`0` or the slice's hosts. Updated in place. Requires `max_node_count`.",
			Validators: []validator.Int64{
				int64validator.AtLeast(0), // and nodeCountValidator
			},
		},
		"max_node_count": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Autoscaling: maximum nodes per zone, at least `min_node_count`. Multi-host TPU tiers: a multiple " +
				"of the slice's hosts, at least one slice. Updated in place. Requires `min_node_count`.",
			Validators: []validator.Int64{
				int64validator.AtLeast(1), // and nodeCountValidator
			},
		},
		"spot": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
			MarkdownDescription: "Use Spot VMs. Spot nodes carry the taint `cloud.google.com/gke-spot=true:NoSchedule`, which the " +
				"tier's `tolerations` then include. Default: `false`. Changing it re-creates the pool.",
		},
		"auto_repair": schema.BoolAttribute{
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(true),
			MarkdownDescription: "Node auto-repair. Default: `true`. Updated in place.",
		},
		"auto_upgrade": schema.BoolAttribute{
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(true),
			MarkdownDescription: "Node auto-upgrade. Default: `true`. Updated in place.",
		},
		"labels": schema.MapAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Extra Kubernetes node labels. The provider adds `cloud.google.com/compute-class` itself (see " +
				"`node_labels`); labels GKE adds never cause a diff. Updated in place.",
			Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.LengthBetween(1, 317))},
		},
		"placement_policy": computedString("Derived: `COMPACT` for multi-host TPU slices (with `topology` as the placement's TPU topology), " +
			"the name of the workload policy that places a multi-host TPU7x slice (`workload_policy`, or the one the provider creates), else null."),
		"pool_name": computedString("The node pool name GKE reports: what the ComputeClass lists for this tier."),
		"status": computedString("The pool's status as GKE reports it (`PROVISIONING`, `RUNNING`, `RUNNING_WITH_ERROR`, `RECONCILING`, " +
			"`STOPPING`, `ERROR`), `MISSING` when the pool no longer exists (the next apply re-creates it), or `UNKNOWN` when an apply could not read the pool back (the next refresh reads it)."),
		"status_message": computedString("GKE's message about the status, such as the reason of an `ERROR`; empty when there is none."),
		"accelerator_labels": computedMap("Derived: the labels GKE itself puts on this tier's nodes to describe the accelerator " +
			"(`cloud.google.com/gke-tpu-accelerator` and `cloud.google.com/gke-tpu-topology` for TPU tiers, " +
			"`cloud.google.com/gke-accelerator` for GPU tiers), for selectors that target one tier."),
		"node_labels": computedMap("Derived: the Kubernetes node labels the provider sets on the pool: `labels` plus " +
			"`cloud.google.com/compute-class`."),
		"node_taints": schema.ListNestedAttribute{
			Computed: true,
			MarkdownDescription: "Derived: the node taints the provider sets on the pool: the accelerator taint (`google.com/tpu` or " +
				"`nvidia.com/gpu`, `present`, `NO_SCHEDULE`), the ComputeClass taint, then `taints`.",
			NestedObject: taintNestedObject(),
		},
		"effective_labels": computedMap("All node labels GKE reports for the pool, including those GKE adds."),
		"effective_taints": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "All node taints GKE reports for the pool, including those GKE adds.",
			NestedObject:        taintNestedObject(),
		},
		"node_selector": computedMap("The `nodeSelector` that targets this tier through the ComputeClass: " +
			"`cloud.google.com/compute-class=<compute_class>`."),
		"tolerations": schema.ListNestedAttribute{
			Computed: true,
			MarkdownDescription: "The Kubernetes tolerations a pod needs for this tier's taints: the accelerator taint (`Exists`), " +
				"the ComputeClass taint, `cloud.google.com/gke-spot` when `spot`, and `taints`.",
			NestedObject: tolerationNestedObject(),
		},
	}, Blocks: map[string]schema.Block{
		"taints": schema.ListNestedBlock{
			MarkdownDescription: "An extra Kubernetes node taint; repeat the block for each. The provider adds the accelerator taint and the ComputeClass taint " +
				"itself (see `node_taints`); taints GKE adds never cause a diff. Updated in place.",
			NestedObject: taintBlockObject(),
		},
		"reservation_affinity": schema.SingleNestedBlock{
			MarkdownDescription: "Which Compute Engine reservations the nodes consume. Without the block: GKE's default. " +
				"Changing it re-creates the pool.",
			// consume_reservation_type is optional in the schema, as the
			// framework checks required attributes of an absent single
			// block; this requires it when the block is written.
			Validators: requiredInElement("consume_reservation_type"),
			Attributes: map[string]schema.Attribute{
				"consume_reservation_type": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: "Required. One of " + schemadoc.Codes(reservationTypes) + ".",
					Validators:          []validator.String{stringvalidator.OneOf(reservationTypes...)},
				},
				"key": schema.StringAttribute{
					Optional:   true,
					Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
					MarkdownDescription: "For `SPECIFIC_RESERVATION`: the reservation label key, such as " +
						"`compute.googleapis.com/reservation-name`.",
				},
				"values": schema.ListAttribute{
					Optional:            true,
					ElementType:         types.StringType,
					Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
					MarkdownDescription: "For `SPECIFIC_RESERVATION`: the label values, such as the reservation names.",
				},
			},
		},
	}}
	maps.Copy(obj.Attributes, settingsAttributes(cat))
	maps.Copy(obj.Blocks, settingsBlocks(cat))
	maps.Copy(obj.Attributes, provisioningAttributes(cat))
	maps.Copy(obj.Attributes, capacityAttributes())
	maps.Copy(obj.Attributes, localSSDAttributes(cat))
	maps.Copy(obj.Attributes, labelsAttributes())
	maps.Copy(obj.Attributes, bootAttributes())
	maps.Copy(obj.Blocks, bootBlocks())
	maps.Copy(obj.Attributes, networkAttributes())
	maps.Copy(obj.Blocks, networkBlocks())
	return obj
}

// requiredInElement requires the named attributes in every element of a
// list of nested objects, or in a single block when it is written. The
// attributes are optional in the schema, as the framework reports a
// required attribute missing when a whole element is unknown at plan time
// (it comes from another resource), or in a single block left out; this
// checks each element once it is known.
func requiredInElement(names ...string) []validator.Object {
	return []validator.Object{requiredAttributesValidator{names: names}}
}

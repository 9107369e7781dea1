// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

func dataSourceSchema(cat *catalog.Catalog) schema.Schema { //nolint:funlen // a schema literal
	podsMin, podsMax := cat.MaxPodsPerNodeRange()
	optString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	derived := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	return schema.Schema{
		MarkdownDescription: "A GKE custom ComputeClass whose priorities describe hardware (TPU slices, GPUs, machine types), for " +
			"node-pool auto-creation: GKE creates and removes the pools itself, in priority order, as pods need them. Every " +
			"priority is checked at plan time with the checks `accel_fallback_nodepools` runs on its tiers; the data source " +
			"renders the manifest (for `kubernetes_manifest` with `yamldecode`) and the `nodeSelector` and `tolerations` a " +
			"Deployment needs to run on any priority.\n\n" +
			"Beyond the hardware, the plan refuses what the ComputeClass CRD or GKE refuses: an empty priority, `nodepools` " +
			"beside other fields, a TPU priority whose `machine_type` is not the slice's, Spot with specific reservations, " +
			"flex-start for more than seven days, zones outside the cluster's region, a `reservation_block` without exactly one " +
			"reservation. With the cluster read, it warns of `nodepools` the cluster does not have and of `AnyBestEffort` " +
			"reservations on Autopilot.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true, MarkdownDescription: "The ComputeClass name (at most 63 lowercase " +
				"letters, digits, `-` and `.`): pods select it with the node selector `cloud.google.com/compute-class`.",
				Validators: []validator.String{stringvalidator.LengthAtMost(computeclass.NameMaxLen),
					stringvalidator.RegexMatches(computeclass.NameRE, computeclass.NameRule)}},
			"cluster": schema.StringAttribute{Optional: true, MarkdownDescription: "The GKE cluster the class is for, as " +
				"`projects/{project}/locations/{location}/clusters/{cluster}` (the `id` of a `google_container_cluster`); its " +
				"location bounds the priorities' zones, offline too. When GKE " +
				"can be reached (`container_endpoint` or credentials), the plan reads it and checks the class against it: " +
				"Autopilot or Standard, its GKE version (instead of `gke_version`), and on Standard clusters node " +
				"auto-provisioning and its resource limits for every accelerator the priorities name. Offline, nothing is read.",
				Validators: []validator.String{validation.ClusterID{}}},
			"gke_version": optString("The cluster's GKE version, such as `1.33.5-gke.1000000` (the `master_version` of a " +
				"`google_container_cluster`): each field is checked against the first GKE version that takes it. A `cluster` " +
				"read at plan time gives its own version instead."),
			"node_pool_auto_creation": schema.BoolAttribute{Optional: true, MarkdownDescription: "Sets " +
				"`spec.nodePoolAutoCreation.enabled`. Default: `true`."},
			"when_unsatisfiable": schema.StringAttribute{Optional: true, MarkdownDescription: "`spec.whenUnsatisfiable`: " +
				"`DoNotScaleUp` (default, always written: GKE before 1.33 defaults to `ScaleUpAnyway`) or `ScaleUpAnyway`.",
				Validators: []validator.String{stringvalidator.OneOf(computeclass.WhenUnsatisfiableValues...)}},
			"active_migration": schema.BoolAttribute{Optional: true, MarkdownDescription: "Sets " +
				"`spec.activeMigration.optimizeRulePriority: true`. Default: `false`."},
			"image_type":      optString("`spec.nodePoolConfig.imageType` of the auto-created pools."),
			"service_account": optString("`spec.nodePoolConfig.serviceAccount` of the auto-created pools."),
			"node_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "`spec.nodePoolConfig.nodeLabels` of the auto-created pools."},
			"validation": schema.StringAttribute{Optional: true, MarkdownDescription: "Overrides the provider's `validation`: " +
				schemadoc.Codes(catalog.ModeNames) + ".", Validators: []validator.String{stringvalidator.OneOf(catalog.ModeNames...)}},
			"manifest": schema.StringAttribute{Computed: true, MarkdownDescription: "The ComputeClass as YAML."},
			"node_selector": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "`cloud.google.com/compute-class=<name>`."},
			"cluster_checked": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether `cluster` was read and the " +
				"class checked against it (false offline, without `cluster`, or when GKE could not be reached: a warning says why)."},
			"autopilot": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether `cluster` is an Autopilot " +
				"cluster; null when it was not read."},
			"tolerations": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "What a pod needs to run on any priority.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key":      schema.StringAttribute{Computed: true, MarkdownDescription: "Taint key."},
					"operator": schema.StringAttribute{Computed: true, MarkdownDescription: "`Exists` or `Equal`."},
					"value":    schema.StringAttribute{Computed: true, MarkdownDescription: "Value for `Equal`."},
					"effect":   schema.StringAttribute{Computed: true, MarkdownDescription: "Kubernetes taint effect."},
				}}},
		},
		Blocks: map[string]schema.Block{
			"priority": schema.ListNestedBlock{
				MarkdownDescription: "Required, at least one: a priority, in order (the first is tried first). A TPU priority " +
					"sets `accelerator_type` or `tpu_type`; a GPU priority `gpu_type` and/or a GPU `machine_type`.",
				Validators: []validator.List{listvalidator.IsRequired(), listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"accelerator_type": optString("TPU: the slice as a Cloud TPU accelerator type (`v6e-4`); `tpu_type`, " +
						"`tpu_count` and `topology` follow from it."),
					"tpu_type": derived("TPU: GKE's accelerator label (" + schemadoc.Codes(cat.TPULabels()) + ")."),
					"tpu_count": schema.Int64Attribute{Optional: true, Computed: true,
						MarkdownDescription: "TPU: chips per node (not per slice)."},
					"topology":           derived("TPU: the slice topology, such as `2x2` or `4x4x4`."),
					"gpu_type":           optString("GPU: the GPU type, such as `nvidia-l4`."),
					"gpu_count":          schema.Int64Attribute{Optional: true, MarkdownDescription: "GPU: GPUs per node."},
					"gpu_driver_version": optString("GPU: `default` or `latest` (the CRD's spelling)."),
					"machine_type":       optString("A machine type, such as `g2-standard-8`."),
					"machine_family":     optString("A machine family, such as `g2`."),
					"nodepools": schema.ListAttribute{Optional: true, ElementType: types.StringType,
						MarkdownDescription: "Standard clusters only: existing node pools, as equal candidates. No other field of " +
							"the priority may be set beside it (the CRD's rule).",
						Validators: []validator.List{listvalidator.SizeAtLeast(1),
							listvalidator.ValueStringsAre(stringvalidator.RegexMatches(validation.PoolNameRE, validation.PoolNameRule))}},
					"node_locations": schema.ListAttribute{Optional: true, ElementType: types.StringType,
						MarkdownDescription: "`location.zones`."},
					"spot":                     schema.BoolAttribute{Optional: true, MarkdownDescription: "Spot VMs."},
					"flex_start":               schema.BoolAttribute{Optional: true, MarkdownDescription: "Flex-start VMs."},
					"max_run_duration_seconds": schema.Int64Attribute{Optional: true, MarkdownDescription: "`maxRunDurationSeconds`."},
					"reservation_affinity": schema.StringAttribute{Optional: true, MarkdownDescription: "`reservations.affinity`: " +
						schemadoc.Codes(computeclass.AffinityValues) + ".", Validators: []validator.String{stringvalidator.OneOf(computeclass.AffinityValues...)}},
					"reservations": schema.ListAttribute{Optional: true, ElementType: types.StringType,
						MarkdownDescription: "Reservation names (`name` or `projects/<p>/reservations/<name>`), consumed with `Specific` affinity (the default when names are given)."},
					"placement_policy": optString("`placement.policyName`: a compact placement or workload policy."),
					"reservation_block": optString("`reservations.specific[].reservationBlock.name`: the block of the one " +
						"reservation named in `reservations` whose capacity the nodes use."),
					"node_recycling_lead_time_seconds": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "Flex-start: `flexStart.nodeRecycling.leadTimeSeconds`, how long before a node's " +
							"run ends GKE starts its replacement.",
						Validators: []validator.Int64{int64validator.AtLeast(0)}},
					"min_cores": schema.Int64Attribute{Optional: true, MarkdownDescription: "`minCores`: the fewest vCPUs a node may have.",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
					"min_memory_gb": schema.Int64Attribute{Optional: true, MarkdownDescription: "`minMemoryGb`: the least memory a node may have.",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
					"max_pods_per_node": schema.Int64Attribute{Optional: true,
						MarkdownDescription: fmt.Sprintf("`maxPodsPerNode`, %d to %d.", podsMin, podsMax),
						Validators:          []validator.Int64{int64validator.Between(podsMin, podsMax)}},
					"boot_disk_size_gb": schema.Int64Attribute{Optional: true,
						MarkdownDescription: fmt.Sprintf("`storage.bootDiskSize`, in GB (at least %d).", cat.MinDiskSizeGB()),
						Validators:          []validator.Int64{int64validator.AtLeast(cat.MinDiskSizeGB())}},
					"boot_disk_type": optString("`storage.bootDiskType`, such as " + schemadoc.Codes(cat.DiskTypeNames()) + "."),
					"boot_disk_kms_key": schema.StringAttribute{Optional: true,
						MarkdownDescription: "`storage.bootDiskKMSKey`: the Cloud KMS key of the nodes' boot disks.",
						Validators:          []validator.String{validation.CryptoKeyName{}}},
					"local_ssd_count": schema.Int64Attribute{Optional: true,
						MarkdownDescription: fmt.Sprintf("`storage.localSSDCount`: Local SSDs of each node, 0 to %d.", cat.LocalSSDMaxCount()),
						Validators:          []validator.Int64{int64validator.Between(0, cat.LocalSSDMaxCount())}},
				}},
			},
		},
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package autoclass implements the accel_compute_class data source: a GKE
// custom ComputeClass whose priorities describe hardware (TPU, GPU,
// machine) for node-pool auto-creation, rendered and checked at plan time
// by the catalog's node-pool checks, as aws_iam_policy_document renders a
// policy. Files: model.go (configuration and state), schema.go,
// data_source.go (read: checks and rendering).
package autoclass

import "github.com/hashicorp/terraform-plugin-framework/types"

// model is the data source's configuration and state.
type model struct {
	Name              types.String `tfsdk:"name"`
	Cluster           types.String `tfsdk:"cluster"`
	GKEVersion        types.String `tfsdk:"gke_version"`
	AutoCreation      types.Bool   `tfsdk:"node_pool_auto_creation"`
	WhenUnsatisfiable types.String `tfsdk:"when_unsatisfiable"`
	ActiveMigration   types.Bool   `tfsdk:"active_migration"`
	ImageType         types.String `tfsdk:"image_type"`
	ServiceAccount    types.String `tfsdk:"service_account"`
	NodeLabels        types.Map    `tfsdk:"node_labels"`
	Validation        types.String `tfsdk:"validation"`
	Priority          types.List   `tfsdk:"priority"`

	Manifest       types.String `tfsdk:"manifest"`
	NodeSelector   types.Map    `tfsdk:"node_selector"`
	ClusterChecked types.Bool   `tfsdk:"cluster_checked"`
	Autopilot      types.Bool   `tfsdk:"autopilot"`
	Tolerations    types.List   `tfsdk:"tolerations"`
}

// priorityModel is one priority block.
type priorityModel struct {
	AcceleratorType       types.String `tfsdk:"accelerator_type"`
	TPUType               types.String `tfsdk:"tpu_type"`
	TPUCount              types.Int64  `tfsdk:"tpu_count"`
	Topology              types.String `tfsdk:"topology"`
	GPUType               types.String `tfsdk:"gpu_type"`
	GPUCount              types.Int64  `tfsdk:"gpu_count"`
	GPUDriverVersion      types.String `tfsdk:"gpu_driver_version"`
	MachineType           types.String `tfsdk:"machine_type"`
	MachineFamily         types.String `tfsdk:"machine_family"`
	Nodepools             types.List   `tfsdk:"nodepools"`
	NodeLocations         types.List   `tfsdk:"node_locations"`
	Spot                  types.Bool   `tfsdk:"spot"`
	FlexStart             types.Bool   `tfsdk:"flex_start"`
	MaxRunDurationSeconds types.Int64  `tfsdk:"max_run_duration_seconds"`
	ReservationAffinity   types.String `tfsdk:"reservation_affinity"`
	Reservations          types.List   `tfsdk:"reservations"`
	PlacementPolicy       types.String `tfsdk:"placement_policy"`
	ReservationBlock      types.String `tfsdk:"reservation_block"`
	NodeRecyclingLead     types.Int64  `tfsdk:"node_recycling_lead_time_seconds"`
	MinCores              types.Int64  `tfsdk:"min_cores"`
	MinMemoryGB           types.Int64  `tfsdk:"min_memory_gb"`
	MaxPodsPerNode        types.Int64  `tfsdk:"max_pods_per_node"`
	BootDiskSizeGB        types.Int64  `tfsdk:"boot_disk_size_gb"`
	BootDiskType          types.String `tfsdk:"boot_disk_type"`
	BootDiskKMSKey        types.String `tfsdk:"boot_disk_kms_key"`
	LocalSSDCount         types.Int64  `tfsdk:"local_ssd_count"`
}

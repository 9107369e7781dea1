// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// resourceModel is the resource's state and plan.
type resourceModel struct {
	ID                   types.String   `tfsdk:"id"`
	Cluster              types.String   `tfsdk:"cluster"`
	ComputeClass         types.String   `tfsdk:"compute_class"`
	Tiers                types.List     `tfsdk:"tiers"`
	OnStockout           types.String   `tfsdk:"on_stockout"`
	WhenUnsatisfiable    types.String   `tfsdk:"when_unsatisfiable"`
	ActiveMigration      types.Bool     `tfsdk:"active_migration"`
	DeletionProtection   types.Bool     `tfsdk:"deletion_protection"`
	Validation           types.String   `tfsdk:"validation"`
	Timeouts             timeouts.Value `tfsdk:"timeouts"`
	OwnerID              types.String   `tfsdk:"owner_id"`
	Pools                types.Map      `tfsdk:"pools"`
	ComputeClassManifest types.String   `tfsdk:"compute_class_manifest"`
	NodeSelector         types.Map      `tfsdk:"node_selector"`
	Tolerations          types.List     `tfsdk:"tolerations"`
}

// tierModel is one element of tiers.
type tierModel struct {
	Name                types.String `tfsdk:"name"`
	Replaces            types.String `tfsdk:"replaces"`
	AcceleratorType     types.String `tfsdk:"accelerator_type"`
	MachineType         types.String `tfsdk:"machine_type"`
	Topology            types.String `tfsdk:"topology"`
	GPUType             types.String `tfsdk:"gpu_type"`
	GPUCount            types.Int64  `tfsdk:"gpu_count"`
	GPUDriverVersion    types.String `tfsdk:"gpu_driver_version"`
	NodeLocations       types.List   `tfsdk:"node_locations"`
	NodeCount           types.Int64  `tfsdk:"node_count"`
	MinNodeCount        types.Int64  `tfsdk:"min_node_count"`
	MaxNodeCount        types.Int64  `tfsdk:"max_node_count"`
	Spot                types.Bool   `tfsdk:"spot"`
	AutoRepair          types.Bool   `tfsdk:"auto_repair"`
	AutoUpgrade         types.Bool   `tfsdk:"auto_upgrade"`
	Labels              types.Map    `tfsdk:"labels"`
	Taints              types.List   `tfsdk:"taints"`
	ReservationAffinity types.Object `tfsdk:"reservation_affinity"`
	WorkloadPolicy      types.String `tfsdk:"workload_policy"`
	tierSettingsModel
	tierProvisioningModel
	tierCapacityModel
	tierLocalSSDModel
	tierLabelsModel
	tierBootModel
	tierNetworkModel

	PlacementPolicy   types.String `tfsdk:"placement_policy"`
	PoolName          types.String `tfsdk:"pool_name"`
	Status            types.String `tfsdk:"status"`
	StatusMessage     types.String `tfsdk:"status_message"`
	AcceleratorLabels types.Map    `tfsdk:"accelerator_labels"`
	NodeLabels        types.Map    `tfsdk:"node_labels"`
	NodeTaints        types.List   `tfsdk:"node_taints"`
	EffectiveLabels   types.Map    `tfsdk:"effective_labels"`
	EffectiveTaints   types.List   `tfsdk:"effective_taints"`
	NodeSelector      types.Map    `tfsdk:"node_selector"`
	Tolerations       types.List   `tfsdk:"tolerations"`
}

// taintModel is one element of taints, node_taints and effective_taints.
type taintModel struct {
	Key    types.String `tfsdk:"key"`
	Value  types.String `tfsdk:"value"`
	Effect types.String `tfsdk:"effect"`
}

// tolerationModel is one Kubernetes toleration.
type tolerationModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Value    types.String `tfsdk:"value"`
	Effect   types.String `tfsdk:"effect"`
}

// reservationModel is reservation_affinity.
type reservationModel struct {
	ConsumeReservationType types.String `tfsdk:"consume_reservation_type"`
	Key                    types.String `tfsdk:"key"`
	Values                 types.List   `tfsdk:"values"`
}

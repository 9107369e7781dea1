// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// vmModel is the Terraform state and plan of one accel_tpu_vm.
type vmModel struct {
	ID                     types.String   `tfsdk:"id"`
	Name                   types.String   `tfsdk:"name"`
	Project                types.String   `tfsdk:"project"`
	Zones                  types.List     `tfsdk:"zones"`
	Zone                   types.String   `tfsdk:"zone"`
	AcceleratorType        types.String   `tfsdk:"accelerator_type"`
	API                    types.String   `tfsdk:"api"`
	RuntimeVersion         types.String   `tfsdk:"runtime_version"`
	Framework              types.String   `tfsdk:"framework"`
	FrameworkVersion       types.String   `tfsdk:"framework_version"`
	Description            types.String   `tfsdk:"description"`
	Labels                 types.Map      `tfsdk:"labels"`
	EffectiveLabels        types.Map      `tfsdk:"effective_labels"`
	TerraformLabels        types.Map      `tfsdk:"terraform_labels"`
	Metadata               types.Map      `tfsdk:"metadata"`
	Tags                   types.List     `tfsdk:"tags"`
	CIDRBlock              types.String   `tfsdk:"cidr_block"`
	NetworkConfig          types.Object   `tfsdk:"network_config"`
	NetworkConfigs         types.List     `tfsdk:"network_configs"`
	BootDisk               types.Object   `tfsdk:"boot_disk"`
	DeletionProtection     types.Bool     `tfsdk:"deletion_protection"`
	ServiceAccount         types.Object   `tfsdk:"service_account"`
	SchedulingConfig       types.Object   `tfsdk:"scheduling_config"`
	ShieldedInstanceConfig types.Object   `tfsdk:"shielded_instance_config"`
	DataDisks              types.List     `tfsdk:"data_disks"`
	Capacity               types.Object   `tfsdk:"capacity"`
	QueuedResource         types.String   `tfsdk:"queued_resource"`
	QueuedResourceState    types.String   `tfsdk:"queued_resource_state"`
	SliceCount             types.Int64    `tfsdk:"slice_count"`
	SliceNodes             types.List     `tfsdk:"slice_nodes"`
	Validation             types.String   `tfsdk:"validation"`
	Timeouts               timeouts.Value `tfsdk:"timeouts"`
	State                  types.String   `tfsdk:"state"`
	Health                 types.String   `tfsdk:"health"`
	HealthDescription      types.String   `tfsdk:"health_description"`
	NetworkEndpoints       types.List     `tfsdk:"network_endpoints"`
	EffectiveNetwork       types.Object   `tfsdk:"effective_network_config"`
	EffectiveSA            types.Object   `tfsdk:"effective_service_account"`
	Generation             types.String   `tfsdk:"generation"`
	Chips                  types.Int64    `tfsdk:"chips"`
	Hosts                  types.Int64    `tfsdk:"hosts"`
	CreateTime             types.String   `tfsdk:"create_time"`
}

// networkConfigModel is network_config, an element of network_configs, and
// effective_network_config.
type networkConfigModel struct {
	Network           types.String `tfsdk:"network"`
	Subnetwork        types.String `tfsdk:"subnetwork"`
	EnableExternalIPs types.Bool   `tfsdk:"enable_external_ips"`
	CanIPForward      types.Bool   `tfsdk:"can_ip_forward"`
}

// bootDiskModel is boot_disk.
type bootDiskModel struct {
	KMSKeyName types.String `tfsdk:"kms_key_name"`
}

// serviceAccountModel is service_account (and effective_service_account).
type serviceAccountModel struct {
	Email  types.String `tfsdk:"email"`
	Scopes types.Set    `tfsdk:"scopes"`
}

// schedulingConfigModel is scheduling_config.
type schedulingConfigModel struct {
	Preemptible types.Bool `tfsdk:"preemptible"`
	Reserved    types.Bool `tfsdk:"reserved"`
	Spot        types.Bool `tfsdk:"spot"`
}

// shieldedInstanceConfigModel is shielded_instance_config.
type shieldedInstanceConfigModel struct {
	EnableSecureBoot types.Bool `tfsdk:"enable_secure_boot"`
}

// dataDiskModel is one element of data_disks.
type dataDiskModel struct {
	SourceDisk types.String `tfsdk:"source_disk"`
	Mode       types.String `tfsdk:"mode"`
}

// networkEndpointModel is one element of network_endpoints.
type networkEndpointModel struct {
	IPAddress  types.String `tfsdk:"ip_address"`
	ExternalIP types.String `tfsdk:"external_ip"`
	Port       types.Int64  `tfsdk:"port"`
}

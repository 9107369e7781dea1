// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// objectTypes are the node-pool resource's nested object types, for the
// values it builds: taken from its schema, as each attribute is declared in
// the schema and the model only.
type objectTypes struct {
	tier, taint, reservation, capacity, poolEntry, timeouts types.ObjectType
	gpuSharing, kubelet, linux, blueGreen, rollout          types.ObjectType
	containerd, registryAccess, caDomain, secretConfig      types.ObjectType
	nodeNetwork, podNetwork, secondaryBootDisk              types.ObjectType
}

// schemaTypes works the types out once. The catalog a resource is given
// changes descriptions and validators, never a type, so the embedded one
// serves every resource.
var schemaTypes = sync.OnceValue(func() objectTypes {
	root := tfmodel.SchemaType(&fallbackNodePoolsResource{catalog: catalog.Default()})
	tier := tfmodel.ObjectTypeAt(root, "tiers")
	at := func(path ...string) types.ObjectType { return tfmodel.ObjectTypeAt(tier, path...) }
	registry := at("containerd_config", "private_registry_access_config")
	caDomain := tfmodel.ObjectTypeAt(registry, "certificate_authority_domain_config")
	return objectTypes{
		tier:              tier,
		taint:             at("taints"),
		reservation:       at("reservation_affinity"),
		capacity:          at("capacity"),
		poolEntry:         tfmodel.ObjectTypeAt(root, "pools"),
		timeouts:          tfmodel.ObjectTypeAt(root, "timeouts"),
		gpuSharing:        at("gpu_sharing_config"),
		kubelet:           at("kubelet_config"),
		linux:             at("linux_node_config"),
		blueGreen:         at("blue_green_settings"),
		rollout:           at("blue_green_settings", "standard_rollout_policy"),
		containerd:        at("containerd_config"),
		registryAccess:    registry,
		caDomain:          caDomain,
		secretConfig:      tfmodel.ObjectTypeAt(caDomain, "gcp_secret_manager_certificate_config"),
		nodeNetwork:       at("additional_node_network_configs"),
		podNetwork:        at("additional_pod_network_configs"),
		secondaryBootDisk: at("secondary_boot_disks"),
	}
})

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// objectTypes are the types of the resource's nested objects, the ones its
// values are built with. They are taken from the schema, so an attribute is
// declared in the schema and in its model and nowhere else.
type objectTypes struct {
	networkConfig, bootDisk, serviceAccount, schedulingConfig             types.ObjectType
	shieldedInstanceConfig, dataDisk, networkEndpoint, capacity, timeouts types.ObjectType
}

// schemaTypes works the types out once. The catalog a resource is given
// changes descriptions and validators, never a type, so the embedded one
// serves every resource.
var schemaTypes = sync.OnceValue(func() objectTypes {
	root := tfmodel.SchemaType(&vmResource{catalog: catalog.Default()})
	return objectTypes{
		networkConfig:          tfmodel.ObjectTypeAt(root, "network_config"),
		bootDisk:               tfmodel.ObjectTypeAt(root, "boot_disk"),
		serviceAccount:         tfmodel.ObjectTypeAt(root, "service_account"),
		schedulingConfig:       tfmodel.ObjectTypeAt(root, "scheduling_config"),
		shieldedInstanceConfig: tfmodel.ObjectTypeAt(root, "shielded_instance_config"),
		dataDisk:               tfmodel.ObjectTypeAt(root, "data_disks"),
		networkEndpoint:        tfmodel.ObjectTypeAt(root, "network_endpoints"),
		capacity:               tfmodel.ObjectTypeAt(root, "capacity"),
		timeouts:               tfmodel.ObjectTypeAt(root, "timeouts"),
	}
})

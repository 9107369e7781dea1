// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"strings"

	container "google.golang.org/api/container/v1"
)

// Local SSD rules of a new node pool, from the public documentation:
//   - NodeConfig.ephemeralStorageLocalSsdConfig.localSsdCount and
//     NodeConfig.localNvmeSsdBlockConfig.localSsdCount: "The limit for this
//     value is dependent upon the maximum number of disk available on a
//     machine per zone"
//     (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig);
//     a VM has at most 32 Local SSD disks
//     (https://cloud.google.com/compute/docs/disks/local-ssd).
//   - Both in one pool: GKE answers "Can not use local SSDs as volumes when
//     using ephemeral storage backed by local SSDs."
//     (https://github.com/terraform-google-modules/terraform-google-kubernetes-engine/pull/902).
//   - E2 machine types support no Local SSD
//     (https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/local-ssd).
//   - NVMe Local SSDs need GKE 1.25.3-gke.1800 or later
//     (https://cloud.google.com/kubernetes-engine/docs/concepts/local-ssd).
//
// nodePools.update has no Local SSD field: a change needs a new pool.
// Messages are assumptions in GKE's "Invalid value for field" style.
const (
	maxLocalSSDsPerVM     = 32
	minLocalSSDGKEVersion = "1.25.3-gke.1800"
)

// checkLocalSSD checks the Local SSDs of a new node pool whose nodes run
// GKE version.
func (s *Server) checkLocalSSD(cfg *container.NodeConfig, version string) *apiError {
	e, b := cfg.EphemeralStorageLocalSsdConfig, cfg.LocalNvmeSsdBlockConfig
	if e == nil && b == nil {
		return nil
	}
	if e != nil && b != nil {
		return s.gkeInvalid("Can not use local SSDs as volumes when using ephemeral storage backed by local SSDs.")
	}
	field, count := "node_pool.config.ephemeral_storage_local_ssd_config.local_ssd_count", int64(0)
	if e != nil {
		count = e.LocalSsdCount
	} else {
		field, count = "node_pool.config.local_nvme_ssd_block_config.local_ssd_count", b.LocalSsdCount
	}
	if count < 0 || count > maxLocalSSDsPerVM {
		return s.gkeInvalid("Invalid value for field %q: %d. Must be between 0 and %d.", field, count, maxLocalSSDsPerVM)
	}
	if count > 0 && strings.HasPrefix(cfg.MachineType, "e2-") {
		return s.gkeInvalid("Invalid value for field %q: %d. Machine type %q does not support Local SSDs.", field, count, cfg.MachineType)
	}
	if version != "" && compareVersions(version, minLocalSSDGKEVersion) < 0 {
		return s.gkeInvalid("Invalid value for field %q: NVMe Local SSDs need GKE %s or later; node version is %s.", field, minLocalSSDGKEVersion, version)
	}
	return nil
}

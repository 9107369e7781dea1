// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"strings"

	container "google.golang.org/api/container/v1"
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

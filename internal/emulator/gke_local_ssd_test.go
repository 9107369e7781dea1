// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"testing"

	container "google.golang.org/api/container/v1"
)

// TestNodePoolLocalSSD: a pool's Local SSD configuration is stored and
// returned as sent, and each documented refusal is a 400 naming the field.
func TestNodePoolLocalSSD(t *testing.T) {
	t.Parallel()
	e := start(t, instant())
	pool := func(name, mt, version string, eph, raw *int64) *container.NodePool {
		np := &container.NodePool{Name: name, InitialNodeCount: 1, Version: version, Locations: []string{"us-central1-a"},
			Config: &container.NodeConfig{MachineType: mt}}
		if eph != nil {
			np.Config.EphemeralStorageLocalSsdConfig = &container.EphemeralStorageLocalSsdConfig{LocalSsdCount: *eph, ForceSendFields: []string{"LocalSsdCount"}}
		}
		if raw != nil {
			np.Config.LocalNvmeSsdBlockConfig = &container.LocalNvmeSsdBlockConfig{LocalSsdCount: *raw, ForceSendFields: []string{"LocalSsdCount"}}
		}
		return np
	}
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name string
		pool *container.NodePool
		want *wantErr
	}{
		{"ephemeral", pool("eph", "n1-standard-8", "", n(2), nil), nil},
		{"raw block", pool("raw", "g2-standard-8", "", nil, n(1)), nil},
		{"zero on e2", pool("e2zero", "e2-standard-4", "", n(0), nil), nil},
		{"both", pool("both", "n1-standard-8", "", n(1), n(1)), &wantErr{400, statusInvalidArgument, "", "Can not use local SSDs as volumes when using ephemeral storage backed by local SSDs."}},
		{"too many", pool("many", "n1-standard-8", "", nil, n(33)), &wantErr{400, statusInvalidArgument, "", `"node_pool.config.local_nvme_ssd_block_config.local_ssd_count": 33. Must be between 0 and 32.`}},
		{"e2", pool("e2", "e2-standard-4", "", n(1), nil), &wantErr{400, statusInvalidArgument, "", `Machine type "e2-standard-4" does not support Local SSDs.`}},
		{"old nodes", pool("old", "n1-standard-8", "1.25.3-gke.1700", n(1), nil), &wantErr{400, statusInvalidArgument, "", "NVMe Local SSDs need GKE 1.25.3-gke.1800 or later; node version is 1.25.3-gke.1700."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, err := e.createPool(serving, tt.pool)
			if tt.want != nil {
				checkErr(t, err, *tt.want)
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if done := e.gkeOp(t, op.Location, op.Name); done.Error != nil {
				t.Fatalf("operation failed: %+v", done.Error)
			}
			got := e.pool(t, serving, tt.pool.Name).Config
			sent := tt.pool.Config
			if (got.EphemeralStorageLocalSsdConfig == nil) != (sent.EphemeralStorageLocalSsdConfig == nil) ||
				(got.LocalNvmeSsdBlockConfig == nil) != (sent.LocalNvmeSsdBlockConfig == nil) {
				t.Fatalf("got ephemeral %+v raw %+v, sent %+v and %+v", got.EphemeralStorageLocalSsdConfig, got.LocalNvmeSsdBlockConfig,
					sent.EphemeralStorageLocalSsdConfig, sent.LocalNvmeSsdBlockConfig)
			}
			if c := got.EphemeralStorageLocalSsdConfig; c != nil && c.LocalSsdCount != sent.EphemeralStorageLocalSsdConfig.LocalSsdCount {
				t.Errorf("ephemeral count %d, sent %d", c.LocalSsdCount, sent.EphemeralStorageLocalSsdConfig.LocalSsdCount)
			}
			if c := got.LocalNvmeSsdBlockConfig; c != nil && c.LocalSsdCount != sent.LocalNvmeSsdBlockConfig.LocalSsdCount {
				t.Errorf("raw block count %d, sent %d", c.LocalSsdCount, sent.LocalNvmeSsdBlockConfig.LocalSsdCount)
			}
		})
	}
}

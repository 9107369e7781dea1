// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

func TestFlattenPool(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := catalog.Default()
	gkeTaint := &container.NodeTaint{Key: "sandbox.gke.io/runtime", Value: "gvisor", Effect: effectNoSchedule}
	gpuPool := &container.NodePool{
		Name: "l4", Status: statusRunning, InitialNodeCount: 1, Locations: []string{"us-central1-a"},
		Management: &container.NodeManagement{AutoRepair: true, AutoUpgrade: true},
		Config: &container.NodeConfig{
			MachineType: "g2-standard-4",
			Labels:      map[string]string{"app": "vllm", catalog.LabelComputeClass: "cc", "sandbox.gke.io/runtime": "gvisor"},
			Taints: []*container.NodeTaint{
				{Key: catalog.TaintGPU, Value: "present", Effect: effectNoSchedule},
				{Key: catalog.TaintComputeClass, Value: "cc", Effect: effectNoSchedule},
				{Key: "team", Value: "a", Effect: effectNoExecute},
				gkeTaint,
			},
			Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-l4", AcceleratorCount: 1}},
		},
	}
	tpuPool := &container.NodePool{
		Name: "v6e16", Status: statusRunning, InitialNodeCount: 4, Locations: []string{"us-central1-b"},
		PlacementPolicy: &container.PlacementPolicy{Type: "COMPACT", TpuTopology: "4x4"},
		Config: &container.NodeConfig{
			MachineType: "ct6e-standard-4t",
			Labels:      map[string]string{catalog.LabelComputeClass: "cc"},
			Taints:      []*container.NodeTaint{{Key: catalog.TaintTPU, Value: "present", Effect: effectNoSchedule}},
		},
	}
	declared := nullTier()
	declared.Name = types.StringValue("l4")
	declared.MachineType = types.StringValue("g2-standard-4")
	declared.NodeLocations = tfmodel.StringList([]string{"us-central1-a"})
	declared.NodeCount = types.Int64Value(3) // set by setSize; GKE reports only the initial size
	declared.Labels = tfmodel.StringMap(map[string]string{"app": "old"})
	declared.Taints = taintList([]taint{{Key: "team", Value: "a", Effect: effectNoExecute}})

	type want struct {
		AcceleratorType, Topology, GPUType, GPUDriver string
		NodeCount                                     types.Int64
		Labels                                        map[string]string
		Taints, NodeTaints                            []taint
		EffectiveTaints                               int
	}
	tests := map[string]struct {
		prior     tierModel
		pool      *container.NodePool
		importing bool
		want      want
	}{
		"declared labels and taints only; GKE's own never show": {
			prior: declared, pool: gpuPool,
			want: want{
				GPUType: "nvidia-l4", NodeCount: types.Int64Value(3),
				Labels: map[string]string{"app": "vllm"},
				Taints: []taint{{Key: "team", Value: "a", Effect: effectNoExecute}},
				NodeTaints: []taint{
					{Key: catalog.TaintGPU, Value: "present", Effect: effectNoSchedule},
					{Key: catalog.TaintComputeClass, Value: "cc", Effect: effectNoSchedule},
					{Key: "team", Value: "a", Effect: effectNoExecute},
				},
				EffectiveTaints: 4,
			},
		},
		"import of a GPU pool takes every label and taint but the provider's": {
			prior: func() tierModel { t := nullTier(); t.Name = types.StringValue("l4"); return t }(), pool: gpuPool, importing: true,
			want: want{
				GPUType: "nvidia-l4", GPUDriver: catalog.DefaultGPUDriverVersion, NodeCount: types.Int64Value(1),
				Labels: map[string]string{"app": "vllm", "sandbox.gke.io/runtime": "gvisor"},
				Taints: []taint{{Key: "team", Value: "a", Effect: effectNoExecute}, {Key: gkeTaint.Key, Value: gkeTaint.Value, Effect: gkeTaint.Effect}},
				NodeTaints: []taint{
					{Key: catalog.TaintGPU, Value: "present", Effect: effectNoSchedule},
					{Key: catalog.TaintComputeClass, Value: "cc", Effect: effectNoSchedule},
					{Key: "team", Value: "a", Effect: effectNoExecute},
					{Key: gkeTaint.Key, Value: gkeTaint.Value, Effect: gkeTaint.Effect},
				},
				EffectiveTaints: 4,
			},
		},
		"import of a multi-host TPU pool rebuilds the accelerator type": {
			prior: func() tierModel { t := nullTier(); t.Name = types.StringValue("v6e16"); return t }(), pool: tpuPool, importing: true,
			want: want{
				AcceleratorType: "v6e-16", Topology: "4x4", NodeCount: types.Int64Value(4),
				NodeTaints:      []taint{{Key: catalog.TaintTPU, Value: "present", Effect: effectNoSchedule}},
				EffectiveTaints: 1,
			},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := flattenPool(ctx, cat, tt.prior, tt.pool, "cc", tt.importing, checked(t))
			in := inputOf(ctx, got, checked(t))
			gotWant := want{
				AcceleratorType: in.AcceleratorType, Topology: in.Topology, GPUType: in.GPUType, GPUDriver: in.GPUDriver,
				NodeCount: got.NodeCount, Labels: in.Labels, Taints: in.Taints, NodeTaints: taintsOf(ctx, got.NodeTaints, checked(t)),
				EffectiveTaints: len(got.EffectiveTaints.Elements()),
			}
			if diff := cmp.Diff(tt.want, gotWant); diff != "" {
				t.Errorf("flattenPool (-want +got):\n%s", diff)
			}
			if got.Status.ValueString() != statusRunning || got.PoolName.ValueString() != tt.pool.Name {
				t.Errorf("status %s, pool_name %s", got.Status, got.PoolName)
			}
		})
	}
}

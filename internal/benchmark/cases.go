// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"fmt"
	"time"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// Emulator settings of the apply cases.
const (
	emulatorProject = "bench-project"
	emulatorCluster = "projects/" + emulatorProject + "/locations/us-central1/clusters/serving"
	// stockoutZone has no capacity in the TPU VM stockout case; fallbackZone does.
	stockoutZone = "us-central1-a"
	fallbackZone = "us-south1-a"
	tpuType      = "v5litepod-4"
)

// poolConcurrency mirrors the provider's per-cluster limit of concurrent
// node-pool operations (GKE's quota of concurrent operations per cluster).
const poolConcurrency = 5

// StartEmulator starts an emulator whose operations all take d, with GKE
// serializing node-pool creates when serialize is set, and the given TPU
// capacity limits.
func StartEmulator(d time.Duration, serialize bool, capacity ...emulator.Capacity) (*emulator.Server, error) {
	sc := emulator.Default()
	sc.Durations = emulator.Durations{
		TPUCreate: d, TPUDelete: d, TPUStart: d, TPUStop: d, TPUUpdate: d,
		PoolCreate: d, PoolDelete: d, PoolUpdate: d, PoolSetSize: d, PoolSetAutoscaling: d, PoolSetManagement: d,
	}
	sc.SerializePoolCreates = serialize
	sc.Capacity = capacity
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		return nil, fmt.Errorf("starting the emulator: %w", err)
	}
	return srv, nil
}

// NodePoolsCase is the create of one accel_fallback_nodepools with n tiers
// on srv, whose operations take d and which serializes pool creates or not.
func NodePoolsCase(srv *emulator.Server, serialized bool, n int, d time.Duration, poll string) ApplyCase {
	mode, ideal, limitIdeal := "concurrent creates", d, time.Duration((n+poolConcurrency-1)/poolConcurrency)*d
	note := "Concurrent creates: the ideal is one operation duration, whatever the number of pools. " +
		fmt.Sprintf("The provider starts at most %d node-pool operations at once on a cluster (GKE's quota of concurrent operations per cluster), ", poolConcurrency) +
		fmt.Sprintf("so more than %d pools take at least two operation durations: the ideal within that limit is one duration per started group of %d.", poolConcurrency, poolConcurrency)
	if serialized {
		mode, ideal = "serialized creates", time.Duration(n)*d
		limitIdeal = ideal
		note = "Serialized creates: GKE refuses a pool create while another runs on the cluster (`CLUSTER_ALREADY_HAS_OPERATION`); " +
			"the ideal is the sum of the durations, and the extra create calls per pool are the refused attempts."
	}
	return ApplyCase{
		Name:         fmt.Sprintf("`accel_fallback_nodepools`, %d pool(s), %s", n, mode),
		Config:       NodePoolsConfig(EmulatorProvider(emulatorProject, "us-central1-a", srv.URL(), poll), emulatorCluster, n),
		Addr:         "accel_fallback_nodepools.bench",
		Units:        n,
		Ideal:        ideal,
		LimitIdeal:   limitIdeal,
		Note:         note,
		Reset:        srv.Reset,
		Calls:        srv.Counters,
		CreateMethod: emulator.MethodNodePoolsCreate,
		PollMethod:   emulator.MethodContainerOperationsGet,
	}
}

// TPUStockoutCapacity is the capacity for TPUVMCase with a stockout: none
// of the VM's type in its first zone.
func TPUStockoutCapacity() emulator.Capacity {
	return emulator.Capacity{Zone: stockoutZone, Type: tpuType, Count: 0}
}

// TPUVMCase is the create of one accel_tpu_vm with two zones on srv, whose
// operations take d; with stockout, srv must have been started with
// TPUStockoutCapacity.
func TPUVMCase(srv *emulator.Server, stockout bool, d time.Duration, poll string) ApplyCase {
	c := ApplyCase{
		Name:         "`accel_tpu_vm`, capacity in the first zone",
		Config:       TPUVMConfig(EmulatorProvider(emulatorProject, stockoutZone, srv.URL(), poll), stockoutZone, fallbackZone),
		Addr:         "accel_tpu_vm.bench",
		Units:        1,
		Ideal:        d,
		LimitIdeal:   d,
		Reset:        srv.Reset,
		Calls:        srv.Counters,
		CreateMethod: emulator.MethodTPUNodesCreate,
		PollMethod:   emulator.MethodTPUOperationsGet,
	}
	if stockout {
		c.Name = "`accel_tpu_vm`, stockout in the first zone"
		c.Ideal, c.LimitIdeal = 2*d, 2*d
		c.Note = "TPU VM stockout: the emulator ends the create in the first zone with `RESOURCE_EXHAUSTED` after a full operation duration, " +
			"then the VM is created in the second zone; the ideal is both operations."
	}
	return c
}

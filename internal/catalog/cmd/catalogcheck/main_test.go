// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// TestRunAgainstTheEmulator compares the catalog with an emulator whose
// zones differ from it in every way the command reports, and with one that
// agrees with it.
func TestRunAgainstTheEmulator(t *testing.T) {
	t.Parallel()
	sc := emulator.Default()
	sc.Zones = []emulator.Zone{
		{Name: "us-central1-b", TPUAcceleratorTypes: []string{"v6e-4"}, RuntimeVersions: []string{"v2-alpha-tpuv6e", "v2-alpha-tpuv9"},
			MachineTypes: []string{"ct6e-standard-4t", "a3-hypergpu-8g", "nvidia-l4", "nvidia-tesla-k80"}},
		{Name: "asia-east2-a", TPUAcceleratorTypes: []string{"v6e-8"}, RuntimeVersions: []string{"v2-alpha-tpuv6e"},
			MachineTypes: []string{"ct6e-standard-8t"}},
		{Name: "us-central2-b", TPUAcceleratorTypes: []string{"v4-8"}, RuntimeVersions: []string{"tpu-ubuntu2204-base"},
			MachineTypes: []string{"ct4p-hightpu-4t"}},
	}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	clients := gcp.NewClients(gcp.Config{Project: "p", TPUEndpoint: srv.TPUEndpoint(), ComputeEndpoint: srv.ComputeEndpoint()})

	var out strings.Builder
	n, err := run(context.Background(), &out, catalog.Default(), clients, "p", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"asia-east2-a: GKE TPU availability: ct6e-standard-8t (v6e) is offered in region asia-east2, which the catalog's GKE table lacks",
		"asia-east2-a: TPU accelerator type v6e-8 is offered, but the catalog does not list asia-east2-a for v6e",
		"us-central1-b: GPU type nvidia-tesla-k80 is not in the catalog",
		"us-central1-b: TPU runtime version v2-alpha-tpuv9 is not in the catalog",
		"us-central1-b: machine type a3-hypergpu-8g ( x0) is not in the catalog",
		"us-central1-b: the catalog lists us-central1-b for v2, but the Cloud TPU API offers none of its types there",
		"us-central1-b: the catalog lists us-central1-b for v3, but the Cloud TPU API offers none of its types there",
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("differences (-want +got):\n%s", d)
	}
	if n != len(got) {
		t.Errorf("run returned %d differences, printed %d", n, len(got))
	}

	// One zone that agrees with the catalog: nothing to report.
	out.Reset()
	n, err = run(context.Background(), &out, catalog.Default(), clients, "p", []string{"us-central2-b"})
	if err != nil || n != 0 || out.Len() != 0 {
		t.Errorf("agreeing zone: %d differences, err %v, output %q", n, err, out.String())
	}
}

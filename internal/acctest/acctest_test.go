// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"testing"

	"google.golang.org/api/option"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
)

// TestCallCount: against the emulator CallCount counts the calls it served;
// against a sandbox project (no emulator) nothing counts.
func TestCallCount(t *testing.T) {
	t.Setenv(EnvTarget, "")
	tg := New(t)
	if n, counting := tg.CallCount(emulator.MethodTPUNodesCreate); !counting || n != 0 {
		t.Fatalf("before any call: CallCount = %d, %v; want 0, true", n, counting)
	}
	svc, err := tpu.NewService(t.Context(), option.WithEndpoint(tg.Emulator.TPUEndpoint()), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	parent := "projects/" + tg.Project + "/locations/" + tg.Zone
	if _, err := svc.Projects.Locations.Nodes.Create(parent, &tpu.Node{AcceleratorType: "v5litepod-4", RuntimeVersion: "v2-alpha-tpuv5-lite"}).NodeId("tf-acc-count").Do(); err != nil {
		t.Fatal(err)
	}
	if n, counting := tg.CallCount(emulator.MethodTPUNodesCreate); !counting || n != 1 {
		t.Errorf("after one create: CallCount = %d, %v; want 1, true", n, counting)
	}
	sandbox := &Target{Project: "p", Zone: "us-east5-b"}
	if n, counting := sandbox.CallCount(emulator.MethodTPUNodesCreate); counting || n != 0 {
		t.Errorf("against a sandbox project: CallCount = %d, %v; want 0, false", n, counting)
	}
	sandbox.AssertNoCalls(t, emulator.MethodTPUNodesCreate) // checks nothing, so cannot fail here
}

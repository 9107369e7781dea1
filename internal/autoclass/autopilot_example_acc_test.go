// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package autoclass_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/computeclass"
	"github.com/accel-dev/terraform-provider-accel/internal/examplecheck"
)

// accelProviderBlock is the example's own provider block, replaced by the
// target's.
var accelProviderBlock = regexp.MustCompile(`(?s)provider "accel" \{\n.*?\n\}\n`)

// autopilotExample is examples/serving-autopilot without its Kubernetes
// blocks (they need a real cluster) and without its provider block.
func autopilotExample(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, f := range []string{"main.tf", "variables.tf", "outputs.tf"} {
		src, err := os.ReadFile(filepath.Join("../../examples/serving-autopilot", f))
		if err != nil {
			t.Fatal(err)
		}
		kept, _ := examplecheck.AccelOnly(string(src))
		b.WriteString(accelProviderBlock.ReplaceAllString(kept, ""))
		b.WriteString("\n")
	}
	return b.String()
}

// TestAccComputeClass_autopilotServing applies the Autopilot serving
// example (its accel part) against the emulator's Autopilot cluster: the
// cluster is read and found Autopilot, every priority resolves, the class
// decodes strictly with its four priorities in order, and the TPU pods'
// node selector names the first priority's slice.
func TestAccComputeClass_autopilotServing(t *testing.T) {
	tg := acctest.New(t)
	tg.RequireEmulatorFor(t, "the example's cluster is the emulator's Autopilot cluster us-central1/autopilot")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:          tg.Config(autopilotExample(t)),
			ConfigVariables: config.Variables{"project": config.StringVariable(tg.Project)},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("cluster_checked"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(exampleAddress, tfjsonpath.New("autopilot"), knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("tpu_node_selector", knownvalue.MapExact(map[string]knownvalue.Check{
					"cloud.google.com/compute-class":       knownvalue.StringExact("vllm-fallback"),
					"cloud.google.com/gke-tpu-accelerator": knownvalue.StringExact("tpu-v6e-slice"),
					"cloud.google.com/gke-tpu-topology":    knownvalue.StringExact("2x2"),
				})),
			},
			Check: checkAutopilotClass,
		}},
	})
}

// checkAutopilotClass decodes the example's class strictly: TPU v6e Spot,
// TPU v6e, L4 Spot, L4, created by GKE (node-pool auto-creation).
func checkAutopilotClass(s *terraform.State) error {
	doc := s.RootModule().Resources[exampleAddress].Primary.Attributes["manifest"]
	c, err := computeclass.Decode(doc)
	if err != nil {
		return fmt.Errorf("the manifest does not decode against the CRD: %w\n%s", err, doc)
	}
	if back := c.YAML(); back != doc {
		return fmt.Errorf("the decoded manifest writes back differently:\n%s\n---\n%s", doc, back)
	}
	p := c.Spec.Priorities
	if len(p) != 4 || c.Spec.NodePoolAutoCreation == nil || !*c.Spec.NodePoolAutoCreation.Enabled {
		return fmt.Errorf("want four priorities and node-pool auto-creation:\n%s", doc)
	}
	spot := func(i int) bool { return p[i].Spot != nil && *p[i].Spot }
	for i, want := range []struct {
		tpu  bool
		spot bool
	}{{true, true}, {true, false}, {false, true}, {false, false}} {
		if (p[i].TPU != nil) != want.tpu || (p[i].GPU != nil) == want.tpu || spot(i) != want.spot {
			return fmt.Errorf("priority %d is not as configured (TPU %v, Spot %v):\n%s", i+1, want.tpu, want.spot, doc)
		}
	}
	if p[0].TPU.Type != "tpu-v6e-slice" || p[2].GPU.Type != "nvidia-l4" {
		return fmt.Errorf("priorities name the wrong accelerators:\n%s", doc)
	}
	return nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Source URLs the expected findings refer to.
const (
	srcTypesTopo    = "https://cloud.google.com/tpu/docs/types-topologies"
	srcRuntimes     = "https://cloud.google.com/tpu/docs/runtimes"
	srcRuntimesMD   = "https://docs.cloud.google.com/tpu/docs/runtimes.md.txt"
	srcSupported    = "https://cloud.google.com/tpu/docs/supported-versions"
	srcTFOld        = "https://cloud.google.com/tpu/docs/supported-tpu-versions"
	srcV5E          = "https://cloud.google.com/tpu/docs/v5e"
	srcV6E          = "https://docs.cloud.google.com/tpu/docs/v6e"
	srcTPU7xNew     = "https://docs.cloud.google.com/tpu/docs/tpu7x.md.txt"
	srcXPK          = "https://github.com/AI-Hypercomputer/xpk/blob/367c838253bea41e7d7716145ad6513f44c1a21e/src/xpk/core/system_characteristics.py"
	srcZones        = "https://docs.cloud.google.com/tpu/docs/types-zones"
	srcZonesOld     = "https://cloud.google.com/tpu/docs/regions-zones"
	srcGKETPUs      = "https://cloud.google.com/kubernetes-engine/docs/concepts/tpus"
	srcRay          = "https://github.com/ray-project/ray/blob/02745f527856b07d09c266967b026c7a1cd60121/doc/source/cluster/kubernetes/user-guides/gcp-gke-tpu-cluster.md"
	srcIronwood     = "https://docs.cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood.md.txt"
	srcVLLMReadme   = "https://github.com/vllm-project/tpu-inference/blob/b8692ff01fa191343836996c27a39dc95f008b88/README.md"
	srcTPUInference = "https://cloud.google.com/tpu/docs/tpu-inference"
	srcGKENodePool  = "https://github.com/GoogleCloudPlatform/magic-modules/blob/d57784406a440397f4edea072ae4f606a57e172d/mmv1/third_party/terraform/website/docs/r/container_node_pool.html.markdown"
	srcPlanTPUs     = "https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus"
	srcComputeGPUs  = "https://cloud.google.com/compute/docs/gpus"
	srcV5PTraining  = "https://cloud.google.com/tpu/docs/v5p-training"
	srcTorchV6E     = "https://github.com/pytorch/xla/commit/e8601ea3bc70c5a57732f75b9352ebaff863071b"
	srcJAXLog       = "https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/CHANGELOG.md"
	srcCTTPU        = "https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/tpu-definition/main.tf"
	srcCTGPU        = "https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/e07b3ea5dd665400a34111245f306cd3411af73a/modules/internal/gpu-definition/main.tf"
	srcGPUSupport   = "https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/1047080375afbb44da4b596be314634e7486af4a/docs/gpu-support.md"
	srcNodeConfig   = "https://github.com/GoogleCloudPlatform/magic-modules/blob/d57784406a440397f4edea072ae4f606a57e172d/mmv1/third_party/terraform/services/container/node_config.go.tmpl"
	srcUserScripts  = "https://github.com/Prz00124/tpu-vm-examples-2025/tree/2f077b912a195e96fc3eb2f6d93df9b0103e9d02/tensorflow"
)

// diffFindings compares whole findings; nil and empty are equal.
// The zone-list mark (Finding.ZoneList) is asserted by
// TestZoneListWarningsAreMarked.
func diffFindings(want, got Findings) string {
	return cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Finding{}, "ZoneList"))
}

// errAt builds an expected error finding on a scalar attribute.
func errAt(attr, value, summary, detail, source string, sugg ...string) Finding {
	return Finding{Attribute: attr, Index: -1, Value: value, Summary: summary, Detail: detail,
		Suggestions: sugg, Severity: SeverityError, Source: source}
}

// warnAt builds an expected warning finding on a scalar attribute.
func warnAt(attr, value, summary, detail, source string, sugg ...string) Finding {
	f := errAt(attr, value, summary, detail, source, sugg...)
	f.Severity = SeverityWarning
	return f
}

// atIndex sets the list index of a finding.
func atIndex(f Finding, i int) Finding {
	f.Index = i
	return f
}

func mustNoFindings(t *testing.T, what string, fs Findings) {
	t.Helper()
	if len(fs) > 0 {
		t.Errorf("%s: want no findings, got:\n%v", what, fs)
	}
}

// limit marks f as one of the provider's own limits (BasisLimit).
func limit(f Finding) Finding {
	f.Basis = BasisLimit
	return f
}

// rule marks f as a rule of the API itself (BasisRule).
func rule(f Finding) Finding {
	f.Basis = BasisRule
	return f
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"testing"
)

func TestResolveRuntimeFindings(t *testing.T) {
	t.Parallel()
	const v6eZones = "us-central1-b, us-east1-d, us-east5-a, us-east5-b, us-central1-ai1, us-south1-ai1b, europe-west4-a, asia-northeast1-b, us-east5-c, us-east4-a, us-east4-b, us-west1-c"
	tests := []struct {
		name string
		q    RuntimeQuery
		want Findings
	}{
		{"wrong runtime for generation",
			RuntimeQuery{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-ubuntu2204-base"},
			Findings{errAt(AttrRuntimeVersion, "tpu-ubuntu2204-base", "Runtime Version Does Not Support Generation",
				`"tpu-ubuntu2204-base" does not support v6e; use "v2-alpha-tpuv6e".`, srcRuntimes, "v2-alpha-tpuv6e")}},
		{"runtime typo",
			RuntimeQuery{AcceleratorType: "v4-8", RuntimeVersion: "tpu-ubuntu2004-base"},
			Findings{errAt(AttrRuntimeVersion, "tpu-ubuntu2004-base", "Unknown Runtime Version",
				`"tpu-ubuntu2004-base" is not a known TPU runtime version; did you mean "tpu-ubuntu2204-base"?`, srcRuntimes, "tpu-ubuntu2204-base")}},
		{"runtime wrong case",
			RuntimeQuery{AcceleratorType: "v6e-4", RuntimeVersion: "V2-ALPHA-TPUV6E"},
			Findings{errAt(AttrRuntimeVersion, "V2-ALPHA-TPUV6E", "Unknown Runtime Version",
				`"V2-ALPHA-TPUV6E" is not a known TPU runtime version; did you mean "v2-alpha-tpuv6e"?`, srcRuntimes, "v2-alpha-tpuv6e")}},
		{"unknown runtime",
			RuntimeQuery{AcceleratorType: "v6e-4", RuntimeVersion: "my-image"},
			Findings{errAt(AttrRuntimeVersion, "my-image", "Unknown Runtime Version",
				`"my-image" is not a known TPU runtime version; for v6e use "v2-alpha-tpuv6e".`, srcRuntimes, "v2-alpha-tpuv6e")}},
		{"deprecated runtime",
			RuntimeQuery{AcceleratorType: "v4-8", RuntimeVersion: "tpu-vm-v4-base"},
			Findings{warnAt(AttrRuntimeVersion, "tpu-vm-v4-base", "Deprecated Runtime Version",
				`"tpu-vm-v4-base" is a legacy image that the current runtime list no longer shows; use "tpu-ubuntu2204-base".`, srcRuntimes, "tpu-ubuntu2204-base")}},
		{"legacy runtime built for another framework",
			RuntimeQuery{AcceleratorType: "v3-8", Framework: "jax", RuntimeVersion: "tpu-vm-pt-2.0"},
			Findings{
				warnAt(AttrRuntimeVersion, "tpu-vm-pt-2.0", "Deprecated Runtime Version",
					`"tpu-vm-pt-2.0" is a legacy image that the current runtime list no longer shows; use "tpu-ubuntu2204-base".`, srcRuntimes, "tpu-ubuntu2204-base"),
				warnAt(AttrRuntimeVersion, "tpu-vm-pt-2.0", "Runtime Built for Another Framework",
					`"tpu-vm-pt-2.0" was built for PyTorch/XLA; for JAX use "tpu-ubuntu2204-base".`, srcRuntimes, "tpu-ubuntu2204-base"),
			}},
		{"TensorFlow with a base image",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow", RuntimeVersion: "v2-alpha-tpuv6e"},
			Findings{errAt(AttrRuntimeVersion, "v2-alpha-tpuv6e", "TensorFlow Needs a TensorFlow Runtime",
				`"v2-alpha-tpuv6e" is a base image without TensorFlow; TensorFlow runtimes name the version, e.g. "tpu-vm-tf-2.18.0-pjrt".`, srcRuntimes, "tpu-vm-tf-2.18.0-pjrt")}},
		{"TensorFlow runtime for JAX",
			RuntimeQuery{AcceleratorType: "v5p-8", Framework: "jax", RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt"},
			Findings{warnAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1-pjrt", "TensorFlow Runtime for Another Framework",
				`"tpu-vm-tf-2.16.1-pjrt" is a TensorFlow image; for JAX on v5p use "v2-alpha-tpuv5".`, srcRuntimes, "v2-alpha-tpuv5")}},
		{"TensorFlow name missing -pod on multi-host",
			RuntimeQuery{AcceleratorType: "v6e-16", RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1-pjrt", "TensorFlow Runtime Missing -pod",
				`"tpu-vm-tf-2.16.1-pjrt" is for single-host slices, but v6e-16 spans 4 hosts; use "tpu-vm-tf-2.16.1-pod-pjrt".`, srcRuntimes, "tpu-vm-tf-2.16.1-pod-pjrt")}},
		{"TensorFlow -pod on single host",
			RuntimeQuery{AcceleratorType: "v3-8", RuntimeVersion: "tpu-vm-tf-2.14.1-pod"},
			Findings{warnAt(AttrRuntimeVersion, "tpu-vm-tf-2.14.1-pod", "TensorFlow -pod Runtime on a Single Host",
				`"tpu-vm-tf-2.14.1-pod" is a -pod runtime for multi-host slices, but v3-8 is single-host; use "tpu-vm-tf-2.14.1".`, srcRuntimes, "tpu-vm-tf-2.14.1")}},
		{"TensorFlow below 2.15 on v6e (runtime)",
			RuntimeQuery{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-vm-tf-2.14.1"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.14.1", "TensorFlow Version Too Old for Generation",
				`"tpu-vm-tf-2.14.1" (TensorFlow 2.14.1) is below 2.15.0, the minimum TensorFlow version on v6e; use 2.15.0 or later. v5e, v5p and v6e support TensorFlow 2.15.0 and later.`,
				srcSupported, "tpu-vm-tf-2.18.0-pjrt", "tpu-vm-tf-2.15.0-pjrt")}},
		{"TensorFlow below 2.15 on v6e (framework_version)",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.14.1"},
			Findings{errAt(AttrFrameworkVersion, "2.14.1", "Framework Version Too Old",
				`TensorFlow 2.14.1 is below 2.15.0, the minimum TensorFlow version on v6e; use 2.15.0 or later. v5e, v5p and v6e support TensorFlow 2.15.0 and later.`,
				srcSupported, "2.18.0", "2.15.0")}},
		{"TensorFlow without device API suffix",
			RuntimeQuery{AcceleratorType: "v4-8", RuntimeVersion: "tpu-vm-tf-2.16.1"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.16.1" lacks the device API suffix that TensorFlow 2.15.0 and later require; use "tpu-vm-tf-2.16.1-pjrt" or "tpu-vm-tf-2.16.1-se".`,
				srcTFOld, "tpu-vm-tf-2.16.1-pjrt", "tpu-vm-tf-2.16.1-se")}},
		{"TensorFlow suffix before 2.15",
			RuntimeQuery{AcceleratorType: "v3-8", RuntimeVersion: "tpu-vm-tf-2.14.1-pjrt"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.14.1-pjrt", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.14.1-pjrt" has a device API suffix, but TensorFlow runtimes before 2.15.0 have none; use "tpu-vm-tf-2.14.1".`, srcTFOld, "tpu-vm-tf-2.14.1")}},
		{"TensorFlow stream executor on v5p",
			RuntimeQuery{AcceleratorType: "v5p-8", RuntimeVersion: "tpu-vm-tf-2.16.1-se"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1-se", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.16.1-se" uses the stream executor, but v5p supports only the PJRT device API; use "tpu-vm-tf-2.16.1-pjrt".`, srcSupported, "tpu-vm-tf-2.16.1-pjrt")}},
		{"TensorFlow 2.10 on v4 without -v4",
			RuntimeQuery{AcceleratorType: "v4-16", RuntimeVersion: "tpu-vm-tf-2.10.0-pod"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.10.0-pod", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.10.0-pod" lacks -v4: TensorFlow 2.10.0 and older on v4 need the v4 runtime; use "tpu-vm-tf-2.10.0-pod-v4".`, srcSupported, "tpu-vm-tf-2.10.0-pod-v4")}},
		{"TensorFlow -v4 on v3",
			RuntimeQuery{AcceleratorType: "v3-8", RuntimeVersion: "tpu-vm-tf-2.10.0-v4"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.10.0-v4", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.10.0-v4" has -v4, but -v4 runtimes exist only for v4 with TensorFlow 2.10.0 or older; use "tpu-vm-tf-2.10.0".`, srcSupported, "tpu-vm-tf-2.10.0")}},
		{"TensorFlow name in the wrong order",
			RuntimeQuery{AcceleratorType: "v5p-16", RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt-pod"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1-pjrt-pod", "Invalid TensorFlow Runtime Name",
				`"tpu-vm-tf-2.16.1-pjrt-pod" is not a valid TensorFlow runtime name; the form is tpu-vm-tf-X.Y.Z[-pod][-pjrt|-se][-v4]; did you mean "tpu-vm-tf-2.16.1-pod-pjrt"?`,
				srcRuntimes, "tpu-vm-tf-2.16.1-pod-pjrt", "tpu-vm-tf-2.17.1-pod-pjrt", "tpu-vm-tf-2.16.2-pod-pjrt")}},
		{"TensorFlow version without runtimes",
			RuntimeQuery{AcceleratorType: "v3-8", RuntimeVersion: "tpu-vm-tf-2.6.0"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.6.0", "Unsupported TensorFlow Version",
				`"tpu-vm-tf-2.6.0" names TensorFlow 2.6.0, which has no TPU VM runtime; versions with runtimes: 2.18.0, 2.17.1, 2.17.0, 2.16.2, 2.16.1, 2.16.0, 2.15.1, 2.15.0, 2.14.1, 2.14.0, 2.13.1, 2.13.0, 2.12.1, 2.12.0, 2.11.1, 2.11.0, 2.10.1, 2.10.0, 2.9.3, 2.9.2, 2.9.1, 2.8.4, 2.8.3, 2.8.0, 2.7.4, 2.7.3.`,
				srcRuntimes, "tpu-vm-tf-2.8.0", "tpu-vm-tf-2.14.0", "tpu-vm-tf-2.13.0")}},
		{"TensorFlow newer than the catalog",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.21.0"},
			Findings{warnAt(AttrFrameworkVersion, "2.21.0", "Unknown TensorFlow Version",
				`TensorFlow 2.21.0 is newer than the catalog (newest known: 2.18.0), so its runtime names are not checked.`, srcRuntimes)}},
		{"TensorFlow framework_version mismatch",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.15.0", RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt"},
			Findings{errAt(AttrRuntimeVersion, "tpu-vm-tf-2.16.1-pjrt", "Framework Version Mismatch",
				`framework_version "2.15.0" does not match "tpu-vm-tf-2.16.1-pjrt" (TensorFlow 2.16.1); use "tpu-vm-tf-2.15.0-pjrt" or remove framework_version.`,
				srcRuntimes, "tpu-vm-tf-2.15.0-pjrt")}},
		{"unverified TensorFlow suffix",
			RuntimeQuery{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-vm-tf-2.18.0-pjrt-v5e-and-v6"},
			Findings{warnAt(AttrRuntimeVersion, "tpu-vm-tf-2.18.0-pjrt-v5e-and-v6", "Unverified TensorFlow Runtime Name",
				`"tpu-vm-tf-2.18.0-pjrt-v5e-and-v6" is not a documented runtime name. Seen only in user scripts (e.g. tpu-vm-tf-2.18.0-pjrt-v5e-and-v6); accepted on v5e and v6e with a warning.`,
				srcUserScripts, "tpu-vm-tf-2.18.0-pjrt")}},
		{"TensorFlow on TPU7x",
			RuntimeQuery{AcceleratorType: "tpu7x-8", Framework: "tensorflow"},
			Findings{errAt(AttrFramework, "tensorflow", "Framework Not Supported on Generation",
				`TensorFlow is not supported on tpu7x; use JAX, PyTorch/XLA, vLLM (vLLM JAX) or vLLM (PyTorch-native TPU).`, srcTPU7xNew, "jax", "pytorch", "vllm", "vllm-torchtpu")}},
		{"TPU7x through the Cloud TPU API",
			RuntimeQuery{AcceleratorType: "tpu7x-8", Framework: "jax", ForTPUAPI: true},
			Findings{warnAt(AttrAcceleratorType, "tpu7x-8", "TPU Generation Not Supported by the Cloud TPU API",
				`"tpu7x-8" is TPU7x (Ironwood), which the Cloud TPU API (api = "cloud_tpu") does not support according to the Cloud TPU docs. Google documents Compute Engine for it: set api = "compute_engine" (machine type tpu7x-standard-4t), or use a GKE node pool with accel_fallback_nodepools (machine type tpu7x-standard-4t). The Cloud TPU runtimes page says "The Cloud TPU API is not supported on TPU7x and later TPU versions" and the API enum has no TPU7x value, yet Google's own benchmark repository creates tpu7x-8 through the Cloud TPU API with v2-alpha-tpu7-ubuntu2404 (as does vLLM's CI). The sources disagree, so accel_tpu_vm accepts TPU7x with api = "cloud_tpu" with a warning that points to api = "compute_engine", the way Google documents, rejecting nothing Google accepts.`,
				srcRuntimesMD)}},
		{"unsupported framework",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "mxnet"},
			Findings{errAt(AttrFramework, "mxnet", "Unsupported Framework",
				`"mxnet" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu".`, srcRuntimes)}},
		{"framework wrong case",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "JAX"},
			Findings{errAt(AttrFramework, "JAX", "Unsupported Framework",
				`"JAX" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu"; did you mean "jax"?`, srcRuntimes, "jax")}},
		{"framework alias",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "torch_xla"},
			Findings{errAt(AttrFramework, "torch_xla", "Unsupported Framework",
				`"torch_xla" is not a supported framework; use one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu"; did you mean "pytorch"?`, srcRuntimes, "pytorch")}},
		{"framework version too old (derived, warning)",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "pytorch", FrameworkVersion: "2.4.0"},
			Findings{warnAt(AttrFrameworkVersion, "2.4.0", "Framework Version Too Old",
				`PyTorch/XLA 2.4.0 is below 2.5, the minimum PyTorch/XLA version on v6e; use 2.5 or later. v6e chip detection first shipped in torch_xla 2.5.0; derived from the code, so a warning.`,
				srcTorchV6E)}},
		{"JAX before the v6e fix",
			RuntimeQuery{AcceleratorType: "v6e-8", Framework: "jax", FrameworkVersion: "0.4.35"},
			Findings{warnAt(AttrFrameworkVersion, "0.4.35", "Framework Version Too Old",
				`JAX 0.4.35 is below 0.4.37, the minimum JAX version on v6e; use 0.4.37 or later. jax 0.4.37 pinned a libtpu that fixes a v6e compiler bug; a fix, not a stated minimum.`,
				srcJAXLog)}},
		{"invalid framework version",
			RuntimeQuery{AcceleratorType: "v6e-4", Framework: "jax", FrameworkVersion: "v0.4.37"},
			Findings{errAt(AttrFrameworkVersion, "v0.4.37", "Invalid Framework Version",
				`"v0.4.37" is not a version of the jax package; use a version such as "2.5.0"; did you mean "0.4.37"?`,
				"https://github.com/jax-ml/jax/blob/00528b9858a0a6da2c32434f46fa6ab53149cebc/docs/installation.md", "0.4.37")}},
		{"framework version without framework",
			RuntimeQuery{AcceleratorType: "v6e-4", FrameworkVersion: "2.5"},
			Findings{errAt(AttrFrameworkVersion, "2.5", "Framework Version Without Framework",
				`framework_version "2.5" names a version of no framework; set framework to one of "jax", "pytorch", "tensorflow", "vllm" or "vllm-torchtpu", or remove framework_version.`, srcRuntimes,
				"jax", "pytorch", "tensorflow", "vllm", "vllm-torchtpu")}},
		{"vLLM experimental generation",
			RuntimeQuery{AcceleratorType: "v5p-8", Framework: "vllm"},
			Findings{warnAt(AttrFramework, "vllm", "Experimental Framework Support",
				`vLLM (vLLM JAX) support for v5p is experimental; the recommended generations are v5e, v6e and tpu7x.`, srcVLLMReadme)}},
		{"vLLM on v2",
			RuntimeQuery{AcceleratorType: "v2-8", Framework: "vllm"},
			Findings{errAt(AttrFramework, "vllm", "Framework Not Supported on Generation",
				`vLLM (vLLM JAX) is not supported on v2; use JAX, PyTorch/XLA or TensorFlow. No vLLM release lists v2 (neither tpu-inference nor the 0.6.x in-tree docs); vLLM's own docs decide vLLM support, so this is an error.`,
				srcVLLMReadme, "jax", "pytorch", "tensorflow")}},
		{"vLLM multi-host",
			RuntimeQuery{AcceleratorType: "v6e-16", Framework: "vllm"},
			Findings{warnAt(AttrFramework, "vllm", "Multi-Host Framework Support",
				`vLLM (vLLM JAX) on a multi-host slice (v6e-16, 4 hosts) may not work. vLLM JAX (formerly tpu-inference) serves multi-host slices only through its Ray or Pathways setups, and the GKE vLLM tutorial still calls multi-host unsupported; for multi-host PyTorch serving use framework = "vllm-torchtpu", which runs multi-host slices.`,
				srcTPUInference)}},
		{"vLLM PyTorch-native multi-host",
			RuntimeQuery{AcceleratorType: "tpu7x-32", Framework: "vllm-torchtpu"},
			nil},
		{"vLLM PyTorch-native on an unlisted generation",
			RuntimeQuery{AcceleratorType: "v5p-8", Framework: "vllm-torchtpu"},
			Findings{warnAt(AttrFramework, "vllm-torchtpu", "Framework Support Not Listed",
				`vLLM (PyTorch-native TPU) does not list v5p. The PyTorch-native vLLM backend's docs do not list this generation; it is accepted with a warning.`,
				srcTPUInference)}},
		{"zones",
			RuntimeQuery{AcceleratorType: "v6e-4", Zones: []string{"us-east5-b", "us-west2-a", "us-central1-f", "US-EAST1-D", "us-east1", "nowhere"}},
			Findings{
				atIndex(warnAt(AttrZones, "us-west2-a", "Zone Not Listed for TPU Generation",
					`"us-west2-a" is not listed for v6e: no zone in region us-west2 is. v6e zones: `+v6eZones+`. Zone lists change month to month; with the API reachable at plan time the provider checks the zone's live list, and offline this is a warning only.`,
					srcZones, "us-west1-c", "us-east5-a", "us-east4-a"), 1),
				atIndex(warnAt(AttrZones, "us-central1-f", "Zone Not Listed for TPU Generation",
					`"us-central1-f" is not listed for v6e, but region us-central1 offers v6e in us-central1-b and us-central1-ai1; zone lists change, so check with "gcloud compute tpus accelerator-types list --zone=us-central1-f".`,
					srcZones, "us-central1-b", "us-central1-ai1"), 2),
				atIndex(rule(errAt(AttrZones, "US-EAST1-D", "Invalid Zone",
					`"US-EAST1-D" is not a zone name (zone names are lower case, without spaces); did you mean "us-east1-d"?`, srcZones, "us-east1-d")), 3),
				atIndex(rule(errAt(AttrZones, "us-east1", "Invalid Zone",
					`"us-east1" is a region, not a zone; use a zone such as "us-east1-d".`, srcZones, "us-east1-d")), 4),
				atIndex(rule(errAt(AttrZones, "nowhere", "Invalid Zone",
					`"nowhere" is not a zone name; zones look like "us-central1-a".`, srcZones)), 5),
			}},
		{"zone listing other sizes and older pages",
			RuntimeQuery{AcceleratorType: "v2-32", Zones: []string{"us-central1-b", "us-central1-a", "asia-east1-c"}},
			Findings{
				atIndex(warnAt(AttrZones, "us-central1-b", "Zone Not Listed for Accelerator Type",
					`"us-central1-b" lists only v2-8 for v2; zones listing v2-32: us-central1-a, europe-west4-a.`,
					srcZones, "us-central1-a", "europe-west4-a"), 0),
				atIndex(warnAt(AttrZones, "asia-east1-c", "Zone Not Listed for Accelerator Type",
					`"asia-east1-c" lists only v2-8 for v2; zones listing v2-32: us-central1-a, europe-west4-a.`,
					srcZonesOld, "us-central1-a", "europe-west4-a"), 2),
			}},
		{"zone in an area listed without zones",
			RuntimeQuery{AcceleratorType: "v5litepod-4", Zones: []string{"europe-west4-b"}},
			Findings{atIndex(warnAt(AttrZones, "europe-west4-b", "Zone Not Listed for TPU Generation",
				`"europe-west4-b" is not listed for v5e. Docs list this generation in Europe without naming the zone. Any well-formed europe-* zone gets a warning instead of an error (a third-party report uses europe-west4-b).`,
				srcZones), 0)}},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := c.ResolveRuntime(tt.q)
			if d := diffFindings(tt.want, got.Findings); d != "" {
				t.Errorf("ResolveRuntime(%+v) findings (-want +got):\n%s", tt.q, d)
			}
		})
	}
}

func TestResolveRuntimePicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		q          RuntimeQuery
		runtime    string
		reason     string
		candidates []string // leading candidates, best first
	}{
		{"v2 default", RuntimeQuery{AcceleratorType: "v2-8"}, "tpu-ubuntu2204-base",
			`"tpu-ubuntu2204-base" is the documented base image for v2; install your framework on the VM after it starts.`,
			[]string{"tpu-ubuntu2204-base"}},
		{"v5e JAX", RuntimeQuery{AcceleratorType: "v5litepod-16", Framework: "jax"}, "v2-alpha-tpuv5-lite",
			`"v2-alpha-tpuv5-lite" is the documented base image for v5e; install JAX on the VM after it starts.`,
			[]string{"v2-alpha-tpuv5-lite"}},
		{"v5p PyTorch", RuntimeQuery{AcceleratorType: "v5p-8", Framework: "pytorch"}, "v2-alpha-tpuv5",
			`"v2-alpha-tpuv5" is the documented base image for v5p; install PyTorch/XLA on the VM after it starts.`,
			[]string{"v2-alpha-tpuv5"}},
		{"TPU7x outside the TPU API", RuntimeQuery{AcceleratorType: "tpu7x-8", Framework: "jax"}, "v2-alpha-tpu7-ubuntu2404",
			`"v2-alpha-tpu7-ubuntu2404" is the tpu7x image seen in use (Google documents no Cloud TPU API runtime for tpu7x); install JAX on the VM after it starts.`,
			[]string{"v2-alpha-tpu7-ubuntu2404"}},
		{"TensorFlow newest on single-host v6e", RuntimeQuery{AcceleratorType: "v6e-8", Framework: "tensorflow"}, "tpu-vm-tf-2.18.0-pjrt",
			`"tpu-vm-tf-2.18.0-pjrt" is the newest TensorFlow runtime the docs list as a runtime name, in its single-host form for v6e.`,
			[]string{"tpu-vm-tf-2.18.0-pjrt", "tpu-vm-tf-2.17.1-pjrt"}},
		{"TensorFlow multi-host v5p", RuntimeQuery{AcceleratorType: "v5p-16", Framework: "tensorflow"}, "tpu-vm-tf-2.18.0-pod-pjrt",
			`"tpu-vm-tf-2.18.0-pod-pjrt" is the newest TensorFlow runtime the docs list as a runtime name, in its multi-host form for v5p.`,
			[]string{"tpu-vm-tf-2.18.0-pod-pjrt"}},
		{"TensorFlow on v3 offers both device APIs", RuntimeQuery{AcceleratorType: "v3-8", Framework: "tensorflow"}, "tpu-vm-tf-2.18.0-pjrt",
			`"tpu-vm-tf-2.18.0-pjrt" is the newest TensorFlow runtime the docs list as a runtime name, in its single-host form for v3.`,
			[]string{"tpu-vm-tf-2.18.0-pjrt", "tpu-vm-tf-2.18.0-se", "tpu-vm-tf-2.17.1-pjrt"}},
		{"TensorFlow 2.18.0 named runtime", RuntimeQuery{AcceleratorType: "v5litepod-16", RuntimeVersion: "tpu-vm-tf-2.18.0-pod-pjrt"},
			"tpu-vm-tf-2.18.0-pod-pjrt", `"tpu-vm-tf-2.18.0-pod-pjrt" is compatible with v5litepod-16.`,
			[]string{"tpu-vm-tf-2.18.0-pod-pjrt"}},
		{"TensorFlow version on v4 needs -v4", RuntimeQuery{AcceleratorType: "v4-16", Framework: "tensorflow", FrameworkVersion: "2.10.0"},
			"tpu-vm-tf-2.10.0-pod-v4", `"tpu-vm-tf-2.10.0-pod-v4" is the TensorFlow 2.10.0 runtime for multi-host v4 slices.`,
			[]string{"tpu-vm-tf-2.10.0-pod-v4"}},
		{"TensorFlow minor version picks the listed patch", RuntimeQuery{AcceleratorType: "v3-32", Framework: "tensorflow", FrameworkVersion: "2.14"},
			"tpu-vm-tf-2.14.1-pod", `"tpu-vm-tf-2.14.1-pod" is the TensorFlow 2.14.1 runtime for multi-host v3 slices.`,
			[]string{"tpu-vm-tf-2.14.1-pod"}},
		{"TensorFlow runtime implies the framework", RuntimeQuery{AcceleratorType: "v6e-16", RuntimeVersion: "tpu-vm-tf-2.16.0-pod-pjrt"},
			"tpu-vm-tf-2.16.0-pod-pjrt", `"tpu-vm-tf-2.16.0-pod-pjrt" is compatible with v6e-16.`,
			[]string{"tpu-vm-tf-2.18.0-pod-pjrt"}},
		{"given runtime", RuntimeQuery{AcceleratorType: "v4-8", RuntimeVersion: "tpu-ubuntu2204-base"}, "tpu-ubuntu2204-base",
			`"tpu-ubuntu2204-base" is compatible with v4-8.`, []string{"tpu-ubuntu2204-base"}},
		{"no accelerator", RuntimeQuery{RuntimeVersion: "v2-alpha-tpuv6e"}, "v2-alpha-tpuv6e",
			`"v2-alpha-tpuv6e" is a known runtime version; set accelerator_type to check it against a generation.`, nil},
		{"nothing", RuntimeQuery{}, "", "Set accelerator_type to choose a runtime version.", nil},
		{"TensorFlow newer than the catalog follows the naming rules", RuntimeQuery{AcceleratorType: "v5p-16", Framework: "tensorflow", FrameworkVersion: "2.21.0"},
			"tpu-vm-tf-2.21.0-pod-pjrt", `"tpu-vm-tf-2.21.0-pod-pjrt" is the TensorFlow 2.21.0 runtime for multi-host v5p slices.`,
			[]string{"tpu-vm-tf-2.21.0-pod-pjrt"}},
		{"no TensorFlow runtime fits", RuntimeQuery{AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.14.1"}, "",
			"The configuration has errors; see the findings.", nil},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.ResolveRuntime(tt.q)
			if r.RuntimeVersion != tt.runtime {
				t.Errorf("RuntimeVersion = %q, want %q", r.RuntimeVersion, tt.runtime)
			}
			if r.Reason != tt.reason {
				t.Errorf("Reason = %q, want %q", r.Reason, tt.reason)
			}
			if len(r.Candidates) < len(tt.candidates) || !slices.Equal(r.Candidates[:len(tt.candidates)], tt.candidates) {
				t.Errorf("Candidates = %v, want to start with %v", r.Candidates, tt.candidates)
			}
			if tt.runtime != "" && tt.q.RuntimeVersion == "" && !slices.Contains(r.Candidates, tt.runtime) {
				t.Errorf("chosen runtime %q is not among the candidates %v", tt.runtime, r.Candidates)
			}
		})
	}
}

func TestResolveRuntimeCandidatesAreCompatible(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, at := range []string{"v2-8", "v3-32", "v4-8", "v4-16", "v5litepod-1", "v5litepod-16", "v5p-8", "v5p-128", "v6e-8", "v6e-64"} {
		for _, fw := range []string{"", "jax", "tensorflow"} {
			r := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, Framework: fw})
			if len(r.Candidates) == 0 {
				t.Errorf("%s %s: no candidates", at, fw)
			}
			for _, cand := range r.Candidates {
				got := c.ResolveRuntime(RuntimeQuery{AcceleratorType: at, Framework: fw, RuntimeVersion: cand})
				if got.Findings.HasErrors() {
					t.Errorf("%s %s: candidate %q has errors: %v", at, fw, cand, got.Findings)
				}
			}
		}
	}
}

func TestRuntimeFramework(t *testing.T) {
	t.Parallel()
	cases := map[string][2]string{
		"tpu-vm-tf-2.18.0-pjrt":     {FrameworkTensorFlow, "2.18.0"},
		"tpu-vm-tf-2.16.0-pod-pjrt": {FrameworkTensorFlow, "2.16.0"},
		"v2-alpha-tpuv6e":           {"", ""},
		"tpu-vm-tf-":                {"", ""},
		"no-such-runtime":           {"", ""},
	}
	for runtime, want := range cases {
		fw, v := Default().RuntimeFramework(runtime)
		if fw != want[0] || v != want[1] {
			t.Errorf("RuntimeFramework(%q) = %q, %q; want %q, %q", runtime, fw, v, want[0], want[1])
		}
	}
}

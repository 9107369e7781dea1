package catalog

import "testing"

func dump(t *testing.T, name string, v any, f Findings) {
	t.Logf("%s => %+v", name, v)
	for _, x := range f {
		t.Logf("   %s %q %s", x, x.Suggestions, x.Source)
	}
}

func TestSmoke(t *testing.T) {
	c := Default()
	for _, q := range []RuntimeQuery{
		{AcceleratorType: "v6e-8"},
		{AcceleratorType: "v6e-16", Framework: "tensorflow"},
		{AcceleratorType: "v6e-16", RuntimeVersion: "tpu-vm-tf-2.16.1-pjrt"},
		{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-vm-tf-2.14.1"},
		{AcceleratorType: "v6e-4", Framework: "tensorflow", FrameworkVersion: "2.14.1"},
		{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-ubuntu2204-base"},
		{AcceleratorType: "v4-8", Framework: "tensorflow", FrameworkVersion: "2.10.0"},
		{AcceleratorType: "v4-16", RuntimeVersion: "tpu-vm-tf-2.10.0-pod"},
		{AcceleratorType: "tpu7x-8", ForTPUAPI: true},
		{AcceleratorType: "tpu7x-8", Framework: "tensorflow"},
		{AcceleratorType: "v4-8", Framework: "vllm"},
		{AcceleratorType: "v2-8", Framework: "vllm"},
		{AcceleratorType: "v6e-4", Framework: "JAX"},
		{AcceleratorType: "v6e-4", Framework: "pytorch", FrameworkVersion: "2.4.0"},
		{AcceleratorType: "v6e-4", Zones: []string{"us-central1-b", "us-central1-f", "us-west2-a", "US-EAST1-D", "us-east1", "europe-west4-b"}},
		{AcceleratorType: "v5litepod-4", Zones: []string{"europe-west4-b"}},
		{AcceleratorType: "v4-8", RuntimeVersion: "tpu-vm-v4-base"},
		{AcceleratorType: "v4-8", RuntimeVersion: "tpu-ubuntu2004-base"},
		{AcceleratorType: "v5p-8", RuntimeVersion: "tpu-vm-tf-2.16.1-se"},
		{AcceleratorType: "v6e-4", RuntimeVersion: "tpu-vm-tf-2.18.0-pjrt-v5e-and-v6"},
	} {
		r := c.ResolveRuntime(q)
		dump(t, q.AcceleratorType+" "+q.Framework+" "+q.FrameworkVersion+" "+q.RuntimeVersion, []any{r.RuntimeVersion, r.Reason, r.Candidates}, r.Findings)
	}
	for _, q := range []TPUPoolQuery{
		{AcceleratorType: "v6e-16"},
		{MachineType: "ct6e-standard-4t", Topology: "2x4"},
		{MachineType: "ct6e-standard-8t", Topology: "2x2"},
		{MachineType: "ct6e-standard-8t", Topology: "4x4"},
		{AcceleratorType: "v6e-16", NodeCount: 3, MinNodeCount: 2, MaxNodeCount: 8, GKEVersion: "1.30.5-gke.1"},
		{AcceleratorType: "tpu7x-64", GKEVersion: "1.33"},
		{MachineType: "ct4p-hightpu-4t", Topology: "2x2x2"},
		{MachineType: "ct4p-hightpu-4t", Topology: "2x1x2"},
		{MachineType: "ct4p-hightpu-4t", Topology: "4x4x6"},
		{MachineType: "ct5p-hightpu-4t", Topology: "2x2"},
		{AcceleratorType: "v3-8"},
		{AcceleratorType: "v6e-8", MachineType: "ct5lp-hightpu-8t"},
		{AcceleratorType: "v6e-8", Topology: "4x2"},
		{MachineType: "ct6e-standard-4", NodeLocations: []string{"us-east5-a"}},
		{AcceleratorType: "v6e-4", GKEVersion: "1.31.3-gke.100"},
	} {
		s, f := c.TPUNodePool(q)
		dump(t, q.AcceleratorType+" "+q.MachineType+" "+q.Topology, s, f)
	}
	for _, q := range []GPUPoolQuery{
		{MachineType: "g2-standard-4"},
		{MachineType: "a2-highgpu-2g", GPUCount: 4, GPUType: "nvidia-l4"},
		{MachineType: "a2-ultragpu-1g", GPUType: "nvidia-tesla-a100"},
		{MachineType: "n1-standard-8", GPUType: "nvidia-tesla-t4", GPUCount: 3, DriverVersion: "latest"},
		{MachineType: "n1-standard-8", GPUType: "nvidia-l4"},
		{MachineType: "e2-standard-4"},
		{MachineType: "g4-standard-6"},
	} {
		s, f := c.GPUNodePool(q)
		dump(t, q.MachineType, s, f)
	}
}

# Pick the runtime for a v6e slice that will serve with vLLM. Works offline:
# a typo, a size that does not exist or a framework the generation does not
# support fails `terraform plan`, with a did-you-mean.
data "accel_runtime_version" "serve" {
  accelerator_type = "v6e-8"
  framework        = "vllm"

  # Optional: also check the zone. With credentials (or tpu_endpoint) and a
  # project, the zone's live accelerator types and runtime versions are
  # listed too.
  zone = "us-east5-b"
}

# Validate a runtime you chose instead: TensorFlow on a multi-host slice
# needs the -pod runtime, so "tpu-vm-tf-2.16.1-pjrt" would fail here.
data "accel_runtime_version" "train" {
  accelerator_type  = "v5p-16"
  framework         = "tensorflow"
  framework_version = "2.16.1"
  runtime_version   = "tpu-vm-tf-2.16.1-pod-pjrt"
}

output "serve" {
  value = {
    runtime_version  = data.accel_runtime_version.serve.runtime_version
    reason           = data.accel_runtime_version.serve.reason
    hosts            = data.accel_runtime_version.serve.hosts
    gke_machine_type = data.accel_runtime_version.serve.gke_machine_type
  }
}

output "train_hosts" {
  value = data.accel_runtime_version.train.hosts
}

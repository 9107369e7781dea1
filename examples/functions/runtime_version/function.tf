# The runtime version the catalog picks for an accelerator type and framework
# (null or "" for the generation's base image). Needs Terraform 1.8 or later.
output "v6e_jax_runtime" {
  value = provider::accel::runtime_version("v6e-4", "jax") # "v2-alpha-tpuv6e"
}

output "v5p_tensorflow_runtime" {
  value = provider::accel::runtime_version("v5p-16", "tensorflow") # "tpu-vm-tf-2.18.0-pod-pjrt"
}

output "v5e_base_runtime" {
  value = provider::accel::runtime_version("v5litepod-4", null) # "v2-alpha-tpuv5-lite"
}

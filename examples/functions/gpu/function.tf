# The GPUs built into a machine type.
# Needs Terraform 1.8 or later.
locals {
  gpu = provider::accel::gpu("a3-highgpu-8g")
}

output "gpus" {
  value = "${local.gpu.gpu_count} x ${local.gpu.gpu_type}" # "8 x nvidia-h100-80gb"
}

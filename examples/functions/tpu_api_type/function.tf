# The Cloud TPU API AcceleratorConfig type of an accelerator type.
# Needs Terraform 1.8 or later.
output "accelerator_config" {
  value = {
    type     = provider::accel::tpu_api_type("v5litepod-16")         # "V5LITE_POD"
    topology = provider::accel::accelerator("v5litepod-16").topology # "4x4"
  }
}

# A single-host v6e slice in one zone, for JAX. runtime_version is omitted:
# the plan shows the one chosen from the catalog ("v2-alpha-tpuv6e"), and a
# runtime, size or zone that does not fit v6e fails `terraform plan`.
resource "accel_tpu_vm" "dev" {
  name             = "jax-dev"
  zones            = ["us-east5-b"]
  accelerator_type = "v6e-8"
  framework        = "jax"
  description      = "JAX development VM"

  labels = {
    team = "research"
  }

  metadata = {
    startup-script = <<-EOT
      #!/bin/bash
      pip install -U "jax[tpu]"
    EOT
  }
}

output "dev_worker_ip" {
  value = accel_tpu_vm.dev.network_endpoints[0].ip_address
}

# A deliberate mistake: "tpu-ubuntu2204-base" is the runtime for v4 and older
# TPUs, not for v6e. `terraform plan` stops here, offline, before any API call.

terraform {
  required_providers {
    accel = {
      source = "accel-dev/accel"
    }
  }
}

provider "accel" {}

resource "accel_tpu_vm" "serve" {
  name             = "serve"
  zones            = ["us-central1-b"]
  accelerator_type = "v6e-8"
  runtime_version  = "tpu-ubuntu2204-base"
}

terraform {
  required_providers {
    accel = { source = "accel-dev/accel" }
  }
}

resource "accel_tpu_vm" "serve" {
  name             = "serve"
  zones            = ["us-central1-b"]
  accelerator_type = "v6e-8"
  runtime_version  = "tpu-ubuntu2204-base"
}

# A deliberate mistake: "tpu-ubuntu2204-base" is the runtime of v4 and older
# TPUs, not of v6e. `terraform plan` stops at it, offline, before any API call.

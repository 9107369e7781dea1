# A TPU7x (Ironwood) VM: one host, 4 chips. The Cloud TPU API does not
# create TPU7x, so the VM is a Compute Engine instance of machine type
# tpu7x-standard-4t (api defaults to "compute_engine" for TPU7x), booted from
# the catalog's TPU7x image, which the plan shows as runtime_version.
resource "accel_tpu_vm" "ironwood" {
  name             = "serve-tpu7x"
  zones            = ["us-central1-c"]
  accelerator_type = "tpu7x-8"
  framework        = "jax"

  labels = {
    team = "serving"
  }
}

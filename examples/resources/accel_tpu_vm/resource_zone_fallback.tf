# v6e capacity is scarce. The VM is created in the first zone of the list
# that has capacity: on a stockout ("no more capacity in the zone") the next
# zone is tried, until the create timeout. A failed VM left in a stocked-out
# zone is deleted first, and the apply's warnings list each zone tried.
#
# Every zone must offer v6e (checked at plan time). Editing the list later
# does not replace the VM as long as its zone stays in the list.
resource "accel_tpu_vm" "serve" {
  name             = "vllm-serve"
  zones            = ["us-east5-b", "us-east5-a", "us-central1-b"]
  accelerator_type = "v6e-4"
  framework        = "vllm"

  timeouts {
    create = "45m"
  }
}

output "serve_zone" {
  value = accel_tpu_vm.serve.zone
}

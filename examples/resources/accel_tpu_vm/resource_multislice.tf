# Four Spot v5p slices for one training job (Cloud TPU Multislice), requested
# together as one queued resource: the nodes train-0 ... train-3 are created,
# preempted (one preempted slice suspends the request; the next plan
# replaces all four) and deleted together.
resource "accel_tpu_vm" "train" {
  name             = "train"
  zones            = ["us-east5-a"]
  accelerator_type = "v5p-16"
  slice_count      = 4

  capacity {
    mode = "spot"
  }
}

# The hosts of every slice, slice 0's first, for the job's launcher.
output "worker_ips" {
  value = accel_tpu_vm.train.network_endpoints[*].ip_address
}

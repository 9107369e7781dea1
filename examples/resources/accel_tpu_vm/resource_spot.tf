# A Spot v5e slice for PyTorch/XLA batch jobs, with external IPs. A Spot VM
# that Google preempts (state PREEMPTED) is replaced by the next apply.
resource "accel_tpu_vm" "batch" {
  name              = "pytorch-spot"
  zones             = ["us-west4-a", "us-central1-a"]
  accelerator_type  = "v5litepod-8"
  framework         = "pytorch"
  framework_version = "2.8.0"

  scheduling_config {
    spot = true
  }

  network_config {
    enable_external_ips = true
  }
}

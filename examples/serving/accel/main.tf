# The accelerator half of the vLLM serving scenario: everything here is
# checked by `terraform plan` against the provider's catalog, offline, before
# any API call.

# The team's TPU choice. The runtime (software) version is chosen for the
# accelerator type and framework, and the slice's shape (chips, topology, GKE
# machine type) comes with it: the VM and the TPU pool below use the same
# answer, so they cannot drift apart.
data "accel_runtime_version" "team" {
  accelerator_type = var.tpu_accelerator_type
  framework        = var.framework
  zone             = var.experiment_zones[0]

  lifecycle {
    postcondition {
      # vLLM JAX (framework "vllm") serves a slice from one VM in this
      # scenario; the PyTorch-native backend ("vllm-torchtpu") also serves
      # multi-host slices (https://cloud.google.com/tpu/docs/tpu-inference).
      condition     = !self.multi_host || var.framework == "vllm-torchtpu"
      error_message = "A multi-host TPU slice needs a vLLM backend that serves multi-host slices: set framework = \"vllm-torchtpu\", or choose a single-host slice (up to 8 chips on v5e and v6e)."
    }
  }
}

# A TPU VM for experiments, outside the cluster. It is created in the first
# zone of `zones` that has capacity: a stockout in the first zone moves it to
# the next one instead of failing the apply.
resource "accel_tpu_vm" "experiments" {
  name             = "${var.name}-experiments"
  accelerator_type = data.accel_runtime_version.team.accelerator_type
  runtime_version  = data.accel_runtime_version.team.runtime_version
  framework        = var.framework
  zones            = var.experiment_zones
  description      = "vLLM experiments on ${data.accel_runtime_version.team.accelerator_type}"

  labels = {
    purpose = "experiments"
  }

  scheduling_config {
    spot = var.experiment_spot
  }
}

# The serving cluster's node pools, in priority order: the TPU slice first for
# peak performance, then an A100 80GB GPU, then a smaller L4 GPU on Spot.
# Every pool carries the ComputeClass label and taint, and the resource
# renders the ComputeClass that tries the pools in this order.
resource "accel_fallback_nodepools" "serving" {
  cluster          = var.cluster
  compute_class    = var.compute_class
  active_migration = true

  tiers {
    name             = "${var.name}-tpu"
    accelerator_type = data.accel_runtime_version.team.accelerator_type
    node_locations   = var.tpu_zones
    min_node_count   = 0
    max_node_count   = var.max_nodes_per_tier
  }

  tiers {
    name           = "${var.name}-a100"
    machine_type   = "a2-ultragpu-1g"
    node_locations = var.gpu_zones
    min_node_count = 0
    max_node_count = var.max_nodes_per_tier
    # Scale up in whichever zone has A100s, rather than spreading evenly.
    location_policy = "ANY"
  }

  tiers {
    name           = "${var.name}-l4"
    machine_type   = "g2-standard-8"
    gpu_type       = "nvidia-l4"
    node_locations = var.small_gpu_zones
    spot           = true
    min_node_count = 0
    max_node_count = var.max_nodes_per_tier
  }
}

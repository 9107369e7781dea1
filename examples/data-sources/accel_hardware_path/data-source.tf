# Tree 1, TPU first: a model written for TPUs that also runs on GPUs.
data "accel_hardware_path" "serving" {
  start         = "tpu"
  zones         = ["us-central1-a", "us-central1-b"]
  runs_on_other = true

  tpu { accelerator_type = "v6e-4" }
  tpu { accelerator_type = "v5litepod-4" }

  gpu { machine_type = "g2-standard-24" }
  gpu { machine_type = "g2-standard-8" }
}

# The decision, and why.
output "decision" {
  value = data.accel_hardware_path.serving.decision
}

output "why" {
  value = [for s in data.accel_hardware_path.serving.steps : "${s.question} ${s.answer}: ${s.evidence}"]
}

variable "cluster_id" {
  description = "A GKE Standard cluster, for example google_container_cluster.serving.id."
  type        = string
  default     = "projects/my-ml-project/locations/us-central1/clusters/serving"
}

# The tiers, in order, as node pools behind one ComputeClass.
resource "accel_fallback_nodepools" "serving" {
  cluster       = var.cluster_id
  compute_class = "vllm-fallback"

  dynamic "tiers" {
    for_each = data.accel_hardware_path.serving.tiers
    content {
      name             = "serving-${tiers.value.name}"
      accelerator_type = tiers.value.accelerator_type
      machine_type     = tiers.value.machine_type
      gpu_type         = tiers.value.gpu_type
      gpu_count        = tiers.value.gpu_count
      node_locations   = tiers.value.node_locations
      min_node_count   = 0
      max_node_count   = 4
    }
  }
}

# Or hand the same decision to node-pool auto-creation: the tiers, in order,
# as the priorities of a ComputeClass whose pools GKE creates itself
# (Autopilot, or Standard with node-pool auto-creation).
data "accel_compute_class" "serving" {
  name    = "vllm-auto"
  cluster = var.cluster_id

  dynamic "priority" {
    for_each = data.accel_hardware_path.serving.tiers
    content {
      accelerator_type = priority.value.accelerator_type
      machine_type     = priority.value.machine_type
      gpu_type         = priority.value.gpu_type
      gpu_count        = priority.value.gpu_count
      node_locations   = priority.value.node_locations
    }
  }
}

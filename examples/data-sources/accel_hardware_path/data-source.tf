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

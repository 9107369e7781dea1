output "compute_class_manifest" {
  description = "The ComputeClass both Deployments select."
  value       = data.accel_compute_class.vllm.manifest
}

output "cluster_checked" {
  description = "Whether the plan read the cluster (Autopilot, its GKE version) and checked the class against it."
  value       = data.accel_compute_class.vllm.cluster_checked
}

output "tpu_node_selector" {
  description = "What a TPU pod selects: the class and the slice of the first priority."
  value       = merge(data.accel_compute_class.vllm.node_selector, local.deployments.tpu.selector)
}

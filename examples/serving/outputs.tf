output "runtime_version" {
  description = "The TPU runtime version chosen for the team's slice, and why."
  value       = "${module.accel.runtime_version}: ${module.accel.runtime_reason}"
}

output "experiment_vm" {
  description = "The experiment TPU VM and the zone it landed in."
  value       = module.accel.experiment_vm
}

output "pools" {
  description = "The serving node pools in priority order, with their taints."
  value       = module.accel.pools
}

output "compute_class_manifest" {
  description = "The GKE ComputeClass applied to the cluster."
  value       = module.accel.compute_class_manifest
}

output "endpoint" {
  description = "The vLLM OpenAI-compatible endpoint inside the cluster."
  value       = "http://${kubernetes_service_v1.vllm.metadata[0].name}.${var.namespace}.svc.cluster.local:8000/v1"
}

output "runtime_version" {
  description = "The TPU runtime version chosen for the accelerator type and framework."
  value       = data.accel_runtime_version.team.runtime_version
}

output "runtime_reason" {
  description = "Why that runtime version was chosen."
  value       = data.accel_runtime_version.team.reason
}

output "tpu" {
  description = "The shape of the team's TPU slice, from the catalog."
  value = {
    accelerator_type = data.accel_runtime_version.team.accelerator_type
    generation       = data.accel_runtime_version.team.generation
    chips            = data.accel_runtime_version.team.chips
    chips_per_host   = data.accel_runtime_version.team.chips_per_host
    topology         = data.accel_runtime_version.team.topology
    gke_machine_type = data.accel_runtime_version.team.gke_machine_type
  }
}

output "experiment_vm" {
  description = "The experiment TPU VM: the zone it landed in, out of the zones it was allowed."
  value = {
    name      = accel_tpu_vm.experiments.name
    zone      = accel_tpu_vm.experiments.zone
    zones     = accel_tpu_vm.experiments.zones
    state     = accel_tpu_vm.experiments.state
    endpoints = [for e in accel_tpu_vm.experiments.network_endpoints : e.ip_address]
  }
}

output "pools" {
  description = "The serving pools in priority order, with the taints the provider set on each and its capacity evidence (quota and reservations, as Compute Engine last reported them)."
  value = [
    for t in accel_fallback_nodepools.serving.tiers : {
      name         = t.name
      machine_type = t.machine_type
      status       = t.status
      taints       = [for taint in t.node_taints : "${taint.key}=${taint.value}:${taint.effect}"]
      capacity     = t.capacity.summary
    }
  ]
}

output "compute_class_manifest" {
  description = "The GKE ComputeClass as YAML: apply it with kubernetes_manifest (yamldecode) or kubectl."
  value       = accel_fallback_nodepools.serving.compute_class_manifest
}

output "node_selector" {
  description = "The nodeSelector for a Deployment that may run on any tier."
  value       = accel_fallback_nodepools.serving.node_selector
}

output "tolerations" {
  description = "The tolerations a Deployment needs to run on any tier."
  value       = accel_fallback_nodepools.serving.tolerations
}

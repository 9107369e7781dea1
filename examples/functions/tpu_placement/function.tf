# How GKE places a TPU slice: a compact placement with a TPU topology,
# or (multi-host TPU7x) a workload policy with an accelerator topology.
# Needs Terraform 1.8 or later.
locals {
  v6e   = provider::accel::tpu_placement("v6e-16")
  tpu7x = provider::accel::tpu_placement("tpu7x-16")
}

output "v6e_placement" {
  value = {
    type         = local.v6e.placement_type         # "COMPACT"
    tpu_topology = local.v6e.placement_tpu_topology # "4x4"
    nodes        = local.v6e.node_count             # 4
  }
}

output "tpu7x_workload_policy_topology" {
  value = local.tpu7x.workload_policy_topology # "2x2x2"
}

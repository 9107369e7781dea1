# The shape of a TPU slice: chips, hosts, topology and its GKE layout.
# Needs Terraform 1.8 or later.
locals {
  slice = provider::accel::accelerator("v6e-16")
}

output "slice" {
  value = {
    chips            = local.slice.chips            # 16
    hosts            = local.slice.hosts            # 4
    topology         = local.slice.topology         # "4x4"
    gke_machine_type = local.slice.gke_machine_type # "ct6e-standard-4t"
    gke_node_count   = local.slice.gke_node_count   # 4
  }
}

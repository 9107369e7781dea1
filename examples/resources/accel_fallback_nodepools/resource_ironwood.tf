# Ironwood (TPU7x) first at any size, then L4 GPUs. A multi-host TPU7x slice
# is placed by a Compute Engine workload policy, not a TPU topology: the plan
# shows the machine type (tpu7x-standard-4t), the node count (the slice's
# VMs), the topology and, as placement_policy, the workload policy. The apply
# creates that policy (HIGH_THROUGHPUT, with the slice's topology) before the
# pool and deletes it after the pool. GKE Standard 1.34.0-gke.2201000 or
# later; TPU7x is offered in us-central1-c.
resource "accel_fallback_nodepools" "ironwood" {
  cluster       = "projects/my-ml-project/locations/us-central1/clusters/ironwood"
  compute_class = "tpu7x-first"

  tiers {
    # tpu7x-32: 16 chips, a 2x2x4 slice of four tpu7x-standard-4t nodes.
    name             = "tpu7x-32"
    accelerator_type = "tpu7x-32"
    node_locations   = ["us-central1-c"]
  }

  tiers {
    name           = "l4"
    machine_type   = "g2-standard-48"
    node_locations = ["us-central1-a"]
    min_node_count = 0
    max_node_count = 2
  }
}

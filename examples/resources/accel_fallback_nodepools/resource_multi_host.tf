# A multi-host TPU slice first, then the same chip count as two single-host
# slices elsewhere. For a multi-host slice the plan shows the machine type,
# the topology, COMPACT placement and the node count (the slice's hosts).
resource "accel_fallback_nodepools" "training" {
  cluster       = "projects/my-ml-project/locations/us-east5/clusters/training"
  compute_class = "v6e-16-or-2x8"

  tiers {
    # v6e-16: a 4x4 slice of four ct6e-standard-4t nodes; node_count = 4 is derived.
    name             = "v6e-16"
    accelerator_type = "v6e-16"
    node_locations   = ["us-east5-a"]
  }

  tiers {
    # v6e-8 as two ct6e-standard-4t nodes (2x4) instead of one ct6e-standard-8t.
    # Autoscaling of a multi-host pool moves in whole slices: 0 or 2 nodes.
    name             = "v6e-8-two-hosts"
    accelerator_type = "v6e-8"
    machine_type     = "ct6e-standard-4t"
    node_locations   = ["us-east5-a"]
    min_node_count   = 0
    max_node_count   = 2

    taints {
      key    = "workload"
      value  = "training"
      effect = "NO_SCHEDULE"
    }
  }

  timeouts {
    create = "3h"
  }
}

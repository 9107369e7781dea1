# TPU first, L4 fallback, with no hand-made node pools: GKE creates the
# pools from the ComputeClass as pods need them (Autopilot, or Standard
# with node-pool auto-creation).

variable "cluster_id" {
  description = "An Autopilot cluster, or a Standard one with node auto-provisioning (or on GKE 1.33.3-gke.1136000 or later), for example google_container_cluster.serving.id."
  type        = string
  default     = "projects/my-ml-project/locations/us-central1/clusters/autoprovisioned"
}

data "accel_compute_class" "vllm" {
  name = "vllm-fallback"
  # Read at plan time when GKE is reachable: Autopilot or Standard, its GKE
  # version, node auto-provisioning's limits for each accelerator below.
  # Offline, gke_version = "1.33.5-gke.1000000" checks each field's version.
  cluster = var.cluster_id

  # Trillium, Spot first.
  priority {
    accelerator_type = "v6e-4"
    spot             = true
  }

  # Trillium on demand, in GKE's own terms: label, chips per node, topology.
  priority {
    tpu_type  = "tpu-v6e-slice"
    tpu_count = 4
    topology  = "2x2"
  }

  # An L4 GPU when no TPU can be had.
  priority {
    gpu_type           = "nvidia-l4"
    gpu_count          = 1
    machine_family     = "g2"
    gpu_driver_version = "latest"
  }
}

# Apply the class with the kubernetes provider.
resource "kubernetes_manifest" "vllm_class" {
  manifest = yamldecode(data.accel_compute_class.vllm.manifest)
}

# What the vLLM Deployment's pod template needs to run on any priority.
output "node_selector" {
  value = data.accel_compute_class.vllm.node_selector
}

output "tolerations" {
  value = data.accel_compute_class.vllm.tolerations
}

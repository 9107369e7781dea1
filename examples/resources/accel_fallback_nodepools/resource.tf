# One vLLM Deployment that runs on TPU v6e when GKE has capacity, and on GPUs
# when it does not: a GKE custom ComputeClass tries the tiers in order.

terraform {
  required_providers {
    accel = {
      source = "accel-dev/accel"
    }
    kubernetes = {
      source = "hashicorp/kubernetes"
    }
  }
}

variable "cluster_id" {
  description = "A GKE Standard cluster on 1.31.2-gke.1115000 or later (v6e), for example google_container_cluster.serving.id."
  type        = string
  default     = "projects/my-ml-project/locations/us-central1/clusters/serving"
}

resource "accel_fallback_nodepools" "vllm" {
  cluster          = var.cluster_id
  compute_class    = "vllm-fallback"
  active_migration = true # move pods back up to the TPU tier when it has capacity again
  on_stockout      = "continue"

  tiers {
    # TPU first, for performance: one v6e-4 slice (2x2, one ct6e-standard-4t node) per node.
    name             = "v6e-4-spot"
    accelerator_type = "v6e-4"
    node_locations   = ["us-central1-b"]
    spot             = true
    min_node_count   = 0
    max_node_count   = 2
  }

  tiers {
    # Then a large GPU: the GPU type and count follow from the machine type.
    name           = "h100"
    machine_type   = "a3-highgpu-1g"
    node_locations = ["us-central1-a"]
    min_node_count = 0
    max_node_count = 2
  }

  tiers {
    # Then the small GPU that is usually available.
    name               = "l4"
    machine_type       = "g2-standard-8"
    gpu_type           = "nvidia-l4"
    gpu_driver_version = "LATEST"
    node_locations     = ["us-central1-a", "us-central1-c"]
    min_node_count     = 1
    max_node_count     = 4
    labels             = { team = "serving" }
  }
}

# The ComputeClass that orders the pools.
resource "kubernetes_manifest" "compute_class" {
  manifest = yamldecode(accel_fallback_nodepools.vllm.compute_class_manifest)
}

# One Deployment for every tier: the node selector picks the ComputeClass, the
# tolerations cover every tier's taints. Each pod has a TPU and a GPU
# container; the one without its accelerator on the node sleeps.
resource "kubernetes_deployment_v1" "vllm" {
  metadata {
    name = "vllm"
  }

  spec {
    replicas = 1

    selector {
      match_labels = { app = "vllm" }
    }

    template {
      metadata {
        labels = { app = "vllm" }
      }

      spec {
        node_selector = accel_fallback_nodepools.vllm.node_selector

        dynamic "toleration" {
          for_each = accel_fallback_nodepools.vllm.tolerations
          content {
            key      = toleration.value.key
            operator = toleration.value.operator
            value    = toleration.value.operator == "Exists" ? null : toleration.value.value
            effect   = toleration.value.effect
          }
        }

        container {
          name  = "vllm-tpu"
          image = "vllm/vllm-tpu:latest"
          args  = ["--host=0.0.0.0", "--port=8000", "--model=Qwen/Qwen2-1.5B"]
          security_context {
            privileged = true
          }
        }

        container {
          name  = "vllm-gpu"
          image = "vllm/vllm-openai:latest"
          args  = ["--host=0.0.0.0", "--port=8000", "--model=Qwen/Qwen2-1.5B"]
          security_context {
            privileged = true
          }
        }
      }
    }
  }

  depends_on = [kubernetes_manifest.compute_class]
}

output "compute_class_manifest" {
  value = accel_fallback_nodepools.vllm.compute_class_manifest
}

output "tier_status" {
  value = { for t in accel_fallback_nodepools.vllm.tiers : t.name => t.status }
}

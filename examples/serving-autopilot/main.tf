# The seed's vLLM scenario on a GKE Autopilot cluster: TPU first, L4 GPUs
# when no TPU can be had, with no node pools to create (GKE creates the
# nodes from the ComputeClass).
#
# Autopilot changes the pod, not the class. The fungible pod of
# examples/serving reaches the TPU and the GPU as privileged containers,
# without device requests, so that one pod fits either node; Autopilot
# refuses privileged containers, and an accelerator pod there requests its
# device (google.com/tpu, nvidia.com/gpu). A pod that requests TPU chips can
# only use the TPU priorities, one that requests a GPU only the L4 ones. So
# each accelerator has a Deployment of its own, both select the one class,
# and one Service sends requests to whichever pods are ready.

provider "accel" {
  project = var.project
}

provider "kubernetes" {
  config_path    = var.kubeconfig_path
  config_context = var.kubeconfig_context
}

data "accel_compute_class" "vllm" {
  name    = "vllm-fallback"
  cluster = "projects/${var.project}/locations/${var.region}/clusters/${var.cluster_name}"

  # Trillium, Spot first, then on demand.
  priority {
    accelerator_type = "v6e-4"
    spot             = true
  }
  priority {
    accelerator_type = "v6e-4"
  }

  # An L4 GPU, Spot first, then on demand.
  priority {
    gpu_type       = "nvidia-l4"
    gpu_count      = 1
    machine_family = "g2"
    spot           = true
  }
  priority {
    gpu_type       = "nvidia-l4"
    gpu_count      = 1
    machine_family = "g2"
  }
}

resource "kubernetes_manifest" "compute_class" {
  manifest = yamldecode(data.accel_compute_class.vllm.manifest)
}

locals {
  tpu = data.accel_compute_class.vllm.priority[0]
  gpu = data.accel_compute_class.vllm.priority[2]

  # Each Deployment's pods: the class's node selector and tolerations, the
  # accelerator's own node labels (Autopilot's TPU and GPU selectors) and
  # its device request.
  deployments = {
    tpu = {
      image    = var.vllm_tpu_image
      replicas = var.tpu_replicas
      selector = {
        "cloud.google.com/gke-tpu-accelerator" = local.tpu.tpu_type
        "cloud.google.com/gke-tpu-topology"    = local.tpu.topology
      }
      device = { "google.com/tpu" = tostring(local.tpu.tpu_count) }
      args   = ["--tensor-parallel-size=${local.tpu.tpu_count}"]
    }
    gpu = {
      image    = var.vllm_gpu_image
      replicas = var.gpu_replicas
      selector = { "cloud.google.com/gke-accelerator" = local.gpu.gpu_type }
      device   = { "nvidia.com/gpu" = tostring(local.gpu.gpu_count) }
      args     = ["--tensor-parallel-size=${local.gpu.gpu_count}"]
    }
  }
}

resource "kubernetes_deployment_v1" "vllm" {
  for_each = local.deployments

  metadata {
    name      = "vllm-${each.key}"
    namespace = var.namespace
    labels    = { app = "vllm", accelerator = each.key }
  }

  spec {
    replicas = each.value.replicas

    selector {
      match_labels = { app = "vllm", accelerator = each.key }
    }

    template {
      metadata {
        labels = { app = "vllm", accelerator = each.key }
      }

      spec {
        node_selector = merge(data.accel_compute_class.vllm.node_selector, each.value.selector)

        dynamic "toleration" {
          for_each = data.accel_compute_class.vllm.tolerations
          content {
            key      = toleration.value.key
            operator = toleration.value.operator
            value    = toleration.value.operator == "Exists" ? null : toleration.value.value
            effect   = toleration.value.effect
          }
        }

        container {
          name  = "vllm"
          image = each.value.image
          args  = concat(["--model=${var.model}", "--host=0.0.0.0", "--port=8000"], each.value.args)

          resources {
            requests = merge({ cpu = "8", memory = "32Gi" }, each.value.device)
            limits   = each.value.device
          }

          readiness_probe {
            http_get {
              path = "/health"
              port = 8000
            }
            period_seconds = 10
          }
        }
      }
    }
  }

  depends_on = [kubernetes_manifest.compute_class]
}

resource "kubernetes_service_v1" "vllm" {
  metadata {
    name      = "vllm"
    namespace = var.namespace
  }

  spec {
    selector = { app = "vllm" }

    port {
      port        = 8000
      target_port = 8000
    }
  }
}

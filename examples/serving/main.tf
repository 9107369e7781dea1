# Serve one model with vLLM on TPUs first, then on GPUs, on GKE.
#
# 1. module "accel" (./accel) checks the team's TPU choice against the accel
#    provider's catalog, picks its runtime version, creates an experiment TPU
#    VM with zone fallback, and creates three node pools in priority order
#    (TPU v6e, A100 80GB, L4 on Spot) with the labels and taints that bind
#    them to one GKE ComputeClass.
# 2. The ComputeClass it renders is applied with kubernetes_manifest.
# 3. One Deployment runs on whichever tier GKE finds capacity in: its pod has
#    the ComputeClass node selector, tolerates every tier's taints, and holds
#    two containers, vllm-tpu and vllm-gpu. Each checks for its hardware at
#    start and idles when it is absent, so exactly one of them serves port
#    8000. This follows Google's GKE AI Labs GPU/TPU fungibility recipe
#    (https://gke-ai-labs.dev/docs/tutorials/gpu-tpu/fungibility-recipes/),
#    with the TPU settings derived from the catalog instead of written by hand.
#
# Prerequisites: a GKE Standard cluster, credentials for the accel provider
# (Application Default Credentials) and a kubeconfig context for the cluster
# (`gcloud container clusters get-credentials CLUSTER --region REGION`).

provider "accel" {
  project = var.project
}

provider "kubernetes" {
  config_path    = var.kubeconfig_path
  config_context = var.kubeconfig_context
}

module "accel" {
  source = "./accel"

  cluster = "projects/${var.project}/locations/${var.region}/clusters/${var.cluster_name}"
}

# The ComputeClass that tries the pools in tier order. Its CRD
# (computeclasses.cloud.google.com) exists on GKE 1.30.3-gke.1451000 and later;
# kubernetes_manifest reads it from the cluster at plan time.
resource "kubernetes_manifest" "compute_class" {
  manifest = yamldecode(module.accel.compute_class_manifest)
}

locals {
  tpu = module.accel.tpu

  # Without a google.com/tpu resource request (a pod that also fits GPU nodes
  # cannot request it), GKE does not inject the TPU environment, so the TPU
  # container sets it, as the fungibility recipe does for v6e-1. Here it is
  # derived from the catalog's answer for the team's slice (single-host, which
  # the module checks): chips per host = the topology, one host.
  tpu_bounds = join(",", slice(concat([for d in split("x", local.tpu.topology) : d], ["1", "1"]), 0, 3))
  tpu_env = {
    TPU_ACCELERATOR_TYPE      = local.tpu.accelerator_type
    TPU_TOPOLOGY              = local.tpu.topology
    TPU_CHIPS_PER_HOST_BOUNDS = local.tpu_bounds
    CHIPS_PER_HOST_BOUNDS     = local.tpu_bounds
    TPU_HOST_BOUNDS           = "1,1,1"
    HOST_BOUNDS               = "1,1,1"
    TPU_WORKER_ID             = "0"
    TPU_WORKER_HOSTNAMES      = "localhost"
    TPU_SKIP_MDS_QUERY        = "true"
    TPU_TOPOLOGY_WRAP         = "false,false,false"
    TPU_TOPOLOGY_ALT          = "false"
    TPU_RUNTIME_METRICS_PORTS = join(",", [for i in range(local.tpu.chips) : tostring(8431 + i)])
    VBAR_CONTROL_SERVICE_URL  = "$(NODE_IP):8353"
  }

  # Each container serves only where its hardware is: otherwise it marks
  # itself idle (so its readiness probe passes) and sleeps.
  tpu_entrypoint = <<-EOT
    if [ ! -c /dev/vfio/0 ]; then
      echo "no TPU on this node: the vllm-gpu container serves; idling"
      touch /tmp/idle
      while true; do sleep 10000; done
    fi
    exec vllm serve "$MODEL" --host=0.0.0.0 --port=8000 --tensor-parallel-size=${local.tpu.chips}
  EOT

  gpu_entrypoint = <<-EOT
    if [ ! -x /usr/local/nvidia/bin/nvidia-smi ]; then
      echo "no GPU on this node: the vllm-tpu container serves; idling"
      touch /tmp/idle
      while true; do sleep 10000; done
    fi
    export PATH="/usr/local/nvidia/bin:$PATH" LD_LIBRARY_PATH="/usr/local/nvidia/lib64:$${LD_LIBRARY_PATH:-}"
    exec vllm serve "$MODEL" --host=0.0.0.0 --port=8000 --tensor-parallel-size="$(nvidia-smi -L | wc -l)"
  EOT

  # Ready when idle, or when vLLM answers /health.
  readiness = ["/bin/sh", "-c", "test -e /tmp/idle || python3 -c \"import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health')\""]
}

resource "kubernetes_deployment_v1" "vllm" {
  metadata {
    name      = "vllm"
    namespace = var.namespace
    labels    = { app = "vllm" }
  }

  spec {
    replicas = var.replicas

    selector {
      match_labels = { app = "vllm" }
    }

    template {
      metadata {
        labels = { app = "vllm" }
      }

      spec {
        # cloud.google.com/compute-class = <class>: GKE places the pod on the
        # highest tier with capacity.
        node_selector = module.accel.node_selector

        # Every tier's taints: google.com/tpu, nvidia.com/gpu, the
        # ComputeClass taint and the Spot taint of the L4 tier.
        dynamic "toleration" {
          for_each = module.accel.tolerations
          content {
            key      = toleration.value.key
            operator = toleration.value.operator
            value    = toleration.value.operator == "Exists" ? null : toleration.value.value
            effect   = toleration.value.effect
          }
        }

        container {
          name    = "vllm-tpu"
          image   = var.vllm_tpu_image
          command = ["/bin/sh", "-c", local.tpu_entrypoint]

          # No google.com/tpu request (see tpu_env): the container reaches the
          # TPU devices as a privileged container, as in the recipe.
          security_context {
            privileged = true
          }

          env {
            name  = "MODEL"
            value = var.model
          }
          env {
            name = "NODE_IP"
            value_from {
              field_ref {
                field_path = "status.hostIP"
              }
            }
          }
          dynamic "env" {
            for_each = local.tpu_env
            content {
              name  = env.key
              value = env.value
            }
          }

          readiness_probe {
            exec {
              command = local.readiness
            }
            period_seconds    = 10
            failure_threshold = 3
          }

          volume_mount {
            name       = "dshm"
            mount_path = "/dev/shm"
          }
        }

        container {
          name    = "vllm-gpu"
          image   = var.vllm_gpu_image
          command = ["/bin/sh", "-c", local.gpu_entrypoint]

          # No nvidia.com/gpu request either: the NVIDIA driver and tools come
          # from the node (GKE installs them under /home/kubernetes/bin/nvidia).
          security_context {
            privileged = true
          }

          env {
            name  = "MODEL"
            value = var.model
          }

          readiness_probe {
            exec {
              command = local.readiness
            }
            period_seconds    = 10
            failure_threshold = 3
          }

          volume_mount {
            name       = "nvidia"
            mount_path = "/usr/local/nvidia"
          }
          volume_mount {
            name       = "dshm"
            mount_path = "/dev/shm"
          }
        }

        volume {
          name = "nvidia"
          host_path {
            path = "/home/kubernetes/bin/nvidia"
            # Empty on TPU nodes, where vllm-gpu then idles.
            type = "DirectoryOrCreate"
          }
        }

        volume {
          name = "dshm"
          empty_dir {
            medium = "Memory"
          }
        }
      }
    }
  }

  # The pool for the first replica may have to scale up from zero.
  wait_for_rollout = false

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
      name        = "http"
      port        = 8000
      target_port = 8000
    }
  }
}

variable "project" {
  description = "Google Cloud project of the cluster."
  type        = string
}

variable "region" {
  description = "Region of the GKE cluster."
  type        = string
  default     = "us-central1"
}

variable "cluster_name" {
  description = "An existing GKE Autopilot cluster (1.31.2-gke.1115000 or later for v6e) in var.region."
  type        = string
  default     = "autopilot"
}

variable "kubeconfig_path" {
  description = "Kubeconfig with a context for the cluster, as written by `gcloud container clusters get-credentials`."
  type        = string
  default     = "~/.kube/config"
}

variable "kubeconfig_context" {
  description = "Kubeconfig context of the cluster; null uses the current context."
  type        = string
  default     = null
}

variable "namespace" {
  description = "Kubernetes namespace of the vLLM Deployments and Service."
  type        = string
  default     = "default"
}

variable "model" {
  description = "Hugging Face model served by vLLM, small enough for one v6e-4 slice and one L4."
  type        = string
  default     = "Qwen/Qwen2-1.5B"
}

variable "vllm_tpu_image" {
  description = "vLLM image for TPUs (vLLM TPU, https://github.com/vllm-project/tpu-inference). Pin a tag or digest in production."
  type        = string
  default     = "vllm/vllm-tpu:latest"
}

variable "vllm_gpu_image" {
  description = "vLLM image for NVIDIA GPUs. Pin a tag or digest in production."
  type        = string
  default     = "vllm/vllm-openai:latest"
}

variable "tpu_replicas" {
  description = "Replicas of the TPU Deployment: each lands on the first TPU priority with capacity (Spot v6e, then on-demand v6e)."
  type        = number
  default     = 1
}

variable "gpu_replicas" {
  description = "Replicas of the L4 Deployment: the serving floor when no TPU can be had. Raise it (or scale it with an autoscaler) while TPU pods are Pending."
  type        = number
  default     = 1
}

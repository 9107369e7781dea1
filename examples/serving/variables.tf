variable "project" {
  description = "Google Cloud project of the cluster and the experiment TPU VM."
  type        = string
}

variable "region" {
  description = "Region of the GKE cluster."
  type        = string
  default     = "us-central1"
}

variable "cluster_name" {
  description = "An existing GKE Standard cluster (1.31.2-gke.1115000 or later for v6e node pools) in var.region."
  type        = string
}

variable "kubeconfig_path" {
  description = "Kubeconfig with a context for the cluster, as written by `gcloud container clusters get-credentials`."
  type        = string
  default     = "~/.kube/config"
}

variable "kubeconfig_context" {
  description = "Kubeconfig context of the cluster; null uses the current context. gcloud names it gke_<project>_<region>_<cluster>."
  type        = string
  default     = null
}

variable "namespace" {
  description = "Kubernetes namespace of the vLLM Deployment and Service."
  type        = string
  default     = "default"
}

variable "model" {
  description = "Hugging Face model served by vLLM. The default is small enough for every tier (one TPU slice, one A100, one L4)."
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

variable "replicas" {
  description = "vLLM replicas. Each lands on the highest tier that has room, in the ComputeClass order."
  type        = number
  default     = 1
}

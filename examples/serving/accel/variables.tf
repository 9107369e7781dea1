variable "cluster" {
  description = "The GKE Standard cluster that serves the model, as projects/{project}/locations/{location}/clusters/{cluster} (the id of a google_container_cluster). ComputeClass needs GKE 1.30.3-gke.1451000 or later, and v6e node pools 1.31.2-gke.1115000 or later."
  type        = string
}

variable "name" {
  description = "Prefix of the experiment TPU VM and of the node pools."
  type        = string
  default     = "vllm"
}

variable "compute_class" {
  description = "Name of the GKE ComputeClass that orders the serving tiers; pods select it with the node_selector output."
  type        = string
  default     = "vllm-fallback"
}

variable "tpu_accelerator_type" {
  description = "The team's TPU choice, as the Cloud TPU API names it. v6e-4 is a single-host 2x2 slice (4 chips, one ct6e-standard-4t node), which vLLM serves on one VM."
  type        = string
  default     = "v6e-4"
}

variable "framework" {
  description = "What runs on the TPU: the runtime version is chosen for it (vllm for vLLM JAX, vllm-torchtpu for PyTorch-native vLLM, jax, pytorch or tensorflow)."
  type        = string
  default     = "vllm"
}

variable "experiment_zones" {
  description = "Zones for the experiment TPU VM, in order of preference: on a stockout in one zone the VM is created in the next. Every zone must offer the TPU generation (checked at plan time)."
  type        = list(string)
  default     = ["us-central1-b", "us-east5-a"]
}

variable "experiment_spot" {
  description = "Create the experiment TPU VM as a Spot VM (cheaper, can be preempted)."
  type        = bool
  default     = false
}

variable "tpu_zones" {
  description = "Zones of the TPU serving pool, in the cluster's region."
  type        = list(string)
  default     = ["us-central1-b"]
}

variable "gpu_zones" {
  description = "Zones of the A100 80GB serving pool (a2-ultragpu-1g), in the cluster's region."
  type        = list(string)
  default     = ["us-central1-c"]
}

variable "small_gpu_zones" {
  description = "Zones of the L4 serving pool (g2-standard-8, Spot), in the cluster's region."
  type        = list(string)
  default     = ["us-central1-a", "us-central1-b", "us-central1-c"]
}

variable "max_nodes_per_tier" {
  description = "Autoscaling ceiling of each serving pool, per zone. Every pool starts at zero nodes and grows when pods wait for it."
  type        = number
  default     = 2
}

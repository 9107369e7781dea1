terraform {
  required_version = ">= 1.8"

  required_providers {
    accel = {
      source = "accel-dev/accel"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.23"
    }
  }
}

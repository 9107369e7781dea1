terraform {
  # Provider-defined functions and the plugin protocol 6 features the accel
  # provider uses need Terraform 1.8 or later (or OpenTofu 1.8 or later).
  required_version = ">= 1.8"

  required_providers {
    accel = {
      source = "accel-dev/accel"
    }
  }
}

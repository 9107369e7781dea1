terraform {
  required_providers {
    accel = {
      source = "accel-dev/accel"
    }
  }
}

# Every argument is optional. Without credentials, `terraform validate` and
# `terraform plan` still check every accelerator setting against the catalog.
provider "accel" {
  project = "my-ml-project"
  zone    = "us-east5-b"

  # Turn catalog errors into warnings when Google ships hardware or software
  # newer than this provider's catalog.
  # validation = "warn"
}

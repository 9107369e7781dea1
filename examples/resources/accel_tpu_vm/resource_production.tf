# A serving VM set up for production: Terraform refuses to destroy or
# replace it while deletion_protection is true, its boot disk is encrypted
# with a customer-managed Cloud KMS key of the zone's region, and it has two
# network interfaces, the first on the default network with external IPs,
# the second on a storage VPC.
resource "accel_tpu_vm" "prod" {
  name                = "jax-prod"
  zones               = ["us-east5-b"]
  accelerator_type    = "v6e-8"
  framework           = "jax"
  deletion_protection = true

  boot_disk {
    kms_key_name = "projects/my-kms-project/locations/us-east5/keyRings/tpu/cryptoKeys/boot"
  }

  network_configs {
    enable_external_ips = true
  }

  network_configs {
    network    = "projects/my-ml-project/global/networks/storage"
    subnetwork = "projects/my-ml-project/regions/us-east5/subnetworks/storage"
  }
}

# A multi-host v5p slice (v5p-16: 8 chips on 2 hosts) for TensorFlow 2.16.1.
# The runtime is chosen for the slice: "tpu-vm-tf-2.16.1-pod-pjrt", the -pod
# form multi-host slices need. The data disk is zonal, so the VM stays in
# its zone.
resource "accel_tpu_vm" "train" {
  name              = "tf-train"
  zones             = ["us-east5-a"]
  accelerator_type  = "v5p-16"
  framework         = "tensorflow"
  framework_version = "2.16.1"

  data_disks {
    source_disk = "projects/my-ml-project/zones/us-east5-a/disks/training-data"
    mode        = "READ_ONLY"
  }

  service_account {
    email  = "tpu-training@my-ml-project.iam.gserviceaccount.com"
    scopes = ["https://www.googleapis.com/auth/cloud-platform"]
  }
}

output "train_runtime" {
  value = accel_tpu_vm.train.runtime_version
}

# A v5p slice in a named reservation of the project, created through a
# queued resource once the reservation has room.
resource "accel_tpu_vm" "reserved" {
  name             = "train-reserved"
  zones            = ["us-east5-a"]
  accelerator_type = "v5p-8"

  capacity {
    mode        = "reserved"
    reservation = "my-v5p-reservation"
  }
}

# A Spot v6e slice requested through a queued resource: the apply waits for
# spare capacity for up to 2 hours (timeouts.create). A request still waiting
# then stays queued and in the state; the next apply waits on. If it is not
# served within 12 hours (max_wait) it fails in us-east5-a and is requested
# again in us-central1-b. A preempted Spot VM is replaced by the next apply.
resource "accel_tpu_vm" "spot" {
  name             = "serve-spot"
  zones            = ["us-east5-a", "us-central1-b"]
  accelerator_type = "v6e-8"

  capacity {
    mode     = "spot"
    max_wait = "12h"
  }

  timeouts {
    create = "2h"
  }
}

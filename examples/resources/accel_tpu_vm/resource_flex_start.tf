# A flex-start v6e slice for a fine-tuning run: queued until capacity is
# available, then it runs for at most 24 hours, after which Google deletes
# it (the next plan replaces it).
resource "accel_tpu_vm" "finetune" {
  name             = "finetune-flex"
  zones            = ["us-east5-a"]
  accelerator_type = "v6e-8"

  capacity {
    mode             = "flex-start"
    max_run_duration = "24h"
  }
}

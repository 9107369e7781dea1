# The full resource name, projects/{project}/locations/{zone}/nodes/{name}:
terraform import accel_tpu_vm.dev projects/my-ml-project/locations/us-east5-b/nodes/jax-dev

# A TPU VM created through Compute Engine (api = "compute_engine"), by its instance id:
terraform import accel_tpu_vm.ironwood projects/my-ml-project/zones/us-central1-c/instances/serve-tpu7x

# {project}/{zone}/{name} (a Cloud TPU VM, or else the Compute Engine instance of that name):
terraform import accel_tpu_vm.dev my-ml-project/us-east5-b/jax-dev

# {zone}/{name}, in the provider's project:
terraform import accel_tpu_vm.dev us-east5-b/jax-dev

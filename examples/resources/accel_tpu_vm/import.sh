# The full resource name, projects/{project}/locations/{zone}/nodes/{name}:
terraform import accel_tpu_vm.dev projects/my-ml-project/locations/us-east5-b/nodes/jax-dev

# {project}/{zone}/{name}:
terraform import accel_tpu_vm.dev my-ml-project/us-east5-b/jax-dev

# {zone}/{name}, in the provider's project:
terraform import accel_tpu_vm.dev us-east5-b/jax-dev

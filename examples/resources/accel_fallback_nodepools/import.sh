# The cluster id, then /nodePools/ and the node pool names in tier order
# (first = highest priority), separated by commas. The tiers are rebuilt from
# the pools, and compute_class from their cloud.google.com/compute-class label.
terraform import accel_fallback_nodepools.vllm projects/my-ml-project/locations/us-central1/clusters/serving/nodePools/v6e-4-spot,h100,l4

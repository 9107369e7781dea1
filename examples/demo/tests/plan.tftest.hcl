# Plan-time assertions on what the provider derives: no credentials, no API
# call. Run with `terraform test` in examples/demo (see the CI guide).
run "serving_plan" {
  command = plan

  assert {
    condition     = module.serving.runtime_version == "v2-alpha-tpuv5-lite"
    error_message = "unexpected runtime version"
  }

  assert {
    condition     = length(module.serving.pools) == 3
    error_message = "expected three tiers"
  }
}

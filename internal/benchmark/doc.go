// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package benchmark measures the provider the way users meet it: the wall
// time and memory of `terraform plan` for growing configurations against
// Terraform's own floor, the provider's start-up, and applies against the
// local emulator with fixed operation durations, compared with the ideal
// those durations allow. Its command, cmd/planbench (`make bench-plan`),
// runs everything and writes the results as a documentation guide.
//
// Figures are medians over several runs. Nothing here asserts on time: the
// package's tests check the arithmetic, the generated configurations and
// the report, never a duration.
package benchmark

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package security holds the provider's secret-leak tests: the provider is
// built and driven by the real Terraform CLI with TF_LOG=trace against the
// local emulator, configured with an access token or a service account key,
// and the tests check that no secret appears in the log, the plan, the state
// or the CLI's output, while API calls did carry the credential.
//
// The tests need TF_ACC=1 and a terraform binary, like every acceptance test.
package security

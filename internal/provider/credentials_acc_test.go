// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
)

// TestAccProvider_lazyCredentials: with no credential anywhere, validate and
// plan succeed, and the first API call fails with one diagnostic that says
// how to authenticate.
func TestAccProvider_lazyCredentials(t *testing.T) {
	if acctest.Sandbox() {
		t.Skip("needs a machine without credentials")
	}
	for _, k := range []string{
		"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON", "GOOGLE_OAUTH_ACCESS_TOKEN",
		"GOOGLE_IMPERSONATE_SERVICE_ACCOUNT", "ACCEL_TPU_ENDPOINT", "ACCEL_CONTAINER_ENDPOINT",
	} {
		t.Setenv(k, "")
	}
	// The lookup asks a loopback server that is no metadata server, as off
	// Google Cloud, instead of 169.254.169.254.
	acctest.NoMetadataServer(t)
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir()) // no gcloud application-default file

	config := `provider "accel" {
  project = "accel-acc"
}

resource "accel_tpu_vm" "lazy" {
  name             = "tf-acc-lazy"
  zones            = ["us-east5-a"]
  accelerator_type = "v6e-4"
  framework        = "jax"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)gcloud auth application-default login.*GOOGLE_APPLICATION_CREDENTIALS`),
			},
		},
	})
}

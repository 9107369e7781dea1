// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// findings is what a misconfigured accel_tpu_vm produces: errors and a
// warning, one of them on a list element.
var findings = catalog.Findings{
	{Attribute: "runtime_version", Index: -1, Value: "tpu-vm-tf-2.10.0-v4", Summary: "Runtime Version Does Not Support the Accelerator",
		Detail: "tpu-vm-tf-2.10.0-v4 is for TPU v4.", Suggestions: []string{"v2-alpha-tpuv6e"}, Severity: catalog.SeverityError,
		Source: "https://cloud.google.com/tpu/docs/runtimes"},
	{Attribute: "zones", Index: 1, Value: "us-central1-a", Summary: "Accelerator Not Offered in Zone",
		Detail: "v6e is not offered in us-central1-a.", Severity: catalog.SeverityError, Source: "https://cloud.google.com/tpu/docs/regions-zones"},
	{Attribute: "framework_version", Index: -1, Value: "2.1.0", Summary: "Old Framework Version",
		Detail: "2.1.0 predates the generation.", Severity: catalog.SeverityWarning},
}

// BenchmarkValidationAppend is the glue between catalog findings and
// Terraform diagnostics, run for every resource in ValidateConfig and
// ModifyPlan, in both modes and at the root and under a nested attribute.
func BenchmarkValidationAppend(b *testing.B) {
	cases := []struct {
		name string
		base path.Path
		mode catalog.Mode
	}{
		{"root/strict", path.Empty(), catalog.ModeStrict},
		{"root/warn", path.Empty(), catalog.ModeWarn},
		{"nested/strict", path.Root("tiers").AtListIndex(2), catalog.ModeStrict},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var diags diag.Diagnostics
				validation.Append(&diags, c.base, findings, validation.Mode{Mode: c.mode})
				if len(diags) != len(findings) {
					b.Fatalf("%d diagnostics for %d findings", len(diags), len(findings))
				}
			}
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCryptoKeyName(t *testing.T) {
	t.Parallel()
	const key = "projects/p/locations/us-central1/keyRings/r/cryptoKeys/k"
	p := path.Root("boot_disk").AtName("kms_key_name")
	cases := map[string]struct {
		value  types.String
		want   []shown
		detail string
	}{
		"key":     {value: types.StringValue(key)},
		"null":    {value: types.StringNull()},
		"unknown": {value: types.StringUnknown()},
		"empty": {value: types.StringValue(""),
			want:   []shown{{Path: p.String(), Severity: diag.SeverityError, Summary: "Invalid Cloud KMS Key Name"}},
			detail: `invalid Cloud KMS key id "": expected the format "projects/{project}/locations/{location}/keyRings/{key_ring}/cryptoKeys/{key}"`},
		"key id alone": {value: types.StringValue("boot"),
			want:   []shown{{Path: p.String(), Severity: diag.SeverityError, Summary: "Invalid Cloud KMS Key Name"}},
			detail: `"boot"`},
		"key ring": {value: types.StringValue("projects/p/locations/us-central1/keyRings/r"),
			want:   []shown{{Path: p.String(), Severity: diag.SeverityError, Summary: "Invalid Cloud KMS Key Name"}},
			detail: "google_kms_crypto_key"},
		"version": {value: types.StringValue(key + "/cryptoKeyVersions/2")},
		"version of no key": {value: types.StringValue("keyRings/r/cryptoKeys/k/cryptoKeyVersions/2"),
			want:   []shown{{Path: p.String(), Severity: diag.SeverityError, Summary: "Invalid Cloud KMS Key Name"}},
			detail: `"keyRings/r/cryptoKeys/k/cryptoKeyVersions/2"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			CryptoKeyName{}.ValidateString(context.Background(), validator.StringRequest{Path: p, ConfigValue: tc.value}, &resp)
			if diff := cmp.Diff(tc.want, summarize(resp.Diagnostics)); diff != "" {
				t.Fatalf("diagnostics mismatch (-want +got):\n%s", diff)
			}
			if tc.detail != "" && !strings.Contains(resp.Diagnostics[0].Detail(), tc.detail) {
				t.Errorf("detail %q does not contain %q", resp.Diagnostics[0].Detail(), tc.detail)
			}
		})
	}
}

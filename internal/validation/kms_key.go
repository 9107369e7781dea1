// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// CryptoKeyName checks that a string is a Cloud KMS key name,
// projects/P/locations/L/keyRings/R/cryptoKeys/K (the id of a
// google_kms_crypto_key), the form both TPU VM APIs take (see
// gcp.CryptoKeyNameFormat). Anything else is an error, except a key version
// name (…/cryptoKeyVersions/V): the APIs document the key name as input and
// may report a version when read, and nothing says they refuse a version,
// so the version is accepted here; the resource's plan may warn of it
// (a validator's warning would show twice, see the package comment).
type CryptoKeyName struct{}

var _ validator.String = CryptoKeyName{}

func (v CryptoKeyName) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (CryptoKeyName) MarkdownDescription(context.Context) string {
	return "must be a Cloud KMS key name such as `projects/my-project/locations/us-central1/keyRings/tpu/cryptoKeys/boot`"
}

func (CryptoKeyName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	key, _ := gcp.CryptoKeyOfVersion(req.ConfigValue.ValueString())
	if _, _, _, _, err := gcp.ParseCryptoKeyName(key); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Cloud KMS Key Name",
			fmt.Sprintf("%s: %s. Use the id of a google_kms_crypto_key, or build it as "+
				"\"projects/${var.kms_project}/locations/${var.region}/keyRings/${var.key_ring}/cryptoKeys/${var.key}\".", req.Path, err))
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package validation

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// NotEmpty rejects an empty string with a diagnostic on the attribute that
// says what to set instead (fix).
func NotEmpty(fix string) validator.String { return notEmpty{fix: fix} }

type notEmpty struct{ fix string }

func (v notEmpty) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (notEmpty) MarkdownDescription(context.Context) string { return "must not be empty" }

func (v notEmpty) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Empty Value", fmt.Sprintf("%s is \"\". %s", req.Path, v.fix))
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var (
	_ validator.String = endpointValidator{}
	_ validator.String = durationValidator{}
)

// checkEndpoint returns why v is not a usable API base URL, or "".
func checkEndpoint(v string) string {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("%q is not an absolute http:// or https:// URL; use a base URL such as \"https://tpu.googleapis.com/\" or \"http://127.0.0.1:8089/\".", v)
	}
	return ""
}

// endpointValidator checks that an endpoint is an absolute http(s) URL.
type endpointValidator struct{}

func (v endpointValidator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (endpointValidator) MarkdownDescription(context.Context) string {
	return "value must be an absolute `http://` or `https://` URL"
}

func (endpointValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := checkEndpoint(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Endpoint", msg)
	}
}

// durationValidator checks that a value is a positive Go duration.
type durationValidator struct{}

func (v durationValidator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (durationValidator) MarkdownDescription(context.Context) string {
	return "value must be a positive Go duration such as `10s`"
}

func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("%q is not a positive Go duration; use a value such as \"10s\" or \"500ms\".", req.ConfigValue.ValueString()))
	}
}

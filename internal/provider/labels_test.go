// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
)

// TestSetDefaultLabels: default_labels reach the provider data, an unknown
// map (or element) is listed as unknown until apply, and a resource's own
// label wins over a default one.
func TestSetDefaultLabels(t *testing.T) {
	t.Parallel()
	m := func(vals map[string]attr.Value) types.Map { return types.MapValueMust(types.StringType, vals) }
	tests := []struct {
		name        string
		in          types.Map
		want        map[string]string
		wantUnknown bool
	}{
		{"null", types.MapNull(types.StringType), nil, false},
		{"set", m(map[string]attr.Value{"env": types.StringValue("prod")}), map[string]string{"env": "prod"}, false},
		{"unknown", types.MapUnknown(types.StringType), nil, true},
		{"unknown element", m(map[string]attr.Value{"env": types.StringUnknown()}), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := &providerdata.Data{}
			var diags diag.Diagnostics
			setDefaultLabels(t.Context(), data, tt.in, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if !maps.Equal(data.DefaultLabels, tt.want) {
				t.Errorf("DefaultLabels = %v, want %v", data.DefaultLabels, tt.want)
			}
			if got := slices.Contains(data.Unknown, providerdata.DefaultLabelsAttr); got != tt.wantUnknown {
				t.Errorf("unknown = %t, want %t", got, tt.wantUnknown)
			}
		})
	}
	data := &providerdata.Data{DefaultLabels: map[string]string{"env": "prod", "team": "platform"}}
	got := data.WithDefaultLabels(map[string]string{"team": "serving"})
	if want := map[string]string{"env": "prod", "team": "serving"}; !maps.Equal(got, want) {
		t.Errorf("WithDefaultLabels = %v, want %v", got, want)
	}
	if got := (*providerdata.Data)(nil).WithDefaultLabels(map[string]string{"a": "b"}); !maps.Equal(got, map[string]string{"a": "b"}) {
		t.Errorf("nil data: WithDefaultLabels = %v", got)
	}
}

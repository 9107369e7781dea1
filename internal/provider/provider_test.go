// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolve(t *testing.T) {
	t.Parallel()
	s := settingByAttr("project")
	cases := map[string]struct {
		value types.String
		env   map[string]string
		want  picked
	}{
		"explicit wins over environment": {
			value: types.StringValue("from-config"),
			env:   map[string]string{"GOOGLE_PROJECT": "from-env"},
			want:  picked{value: "from-config", source: "configuration"},
		},
		"environment used when null": {
			value: types.StringNull(),
			env:   map[string]string{"GOOGLE_PROJECT": "from-env"},
			want:  picked{value: "from-env", source: "GOOGLE_PROJECT"},
		},
		"first environment variable in order wins": {
			value: types.StringNull(),
			env:   map[string]string{"GCLOUD_PROJECT": "third", "GOOGLE_CLOUD_PROJECT": "second"},
			want:  picked{value: "second", source: "GOOGLE_CLOUD_PROJECT"},
		},
		"empty string counts as unset": {
			value: types.StringValue(""),
			env:   map[string]string{"GOOGLE_PROJECT": "from-env"},
			want:  picked{value: "from-env", source: "GOOGLE_PROJECT"},
		},
		"unknown is reported, not picked": {
			value: types.StringUnknown(),
			env:   map[string]string{"GOOGLE_PROJECT": "from-env"},
			want:  picked{unknown: true},
		},
		"nothing set": {
			value: types.StringNull(),
			want:  picked{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := pickSetting(tc.value, s, env(tc.env))
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(picked{})); diff != "" {
				t.Errorf("pickSetting() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func nullModel() accelProviderModel {
	return accelProviderModel{
		Project: types.StringNull(), Zone: types.StringNull(),
		Credentials: types.StringNull(), AccessToken: types.StringNull(),
		ImpersonateServiceAccount: types.StringNull(), TPUEndpoint: types.StringNull(),
		ContainerEndpoint: types.StringNull(), Validation: types.StringNull(), PollInterval: types.StringNull(),
	}
}

func TestConfigureDefaultsAndEnvironment(t *testing.T) {
	t.Parallel()
	m := nullModel()
	m.Zone = types.StringValue("us-east5-b")
	m.Validation = types.StringUnknown()
	c, diags := configure(m, env(map[string]string{
		"GOOGLE_PROJECT":            "env-project",
		"GOOGLE_ZONE":               "us-central1-a",
		"GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.secret",
		"ACCEL_TPU_ENDPOINT":        "http://127.0.0.1:9/",
		"ACCEL_POLL_INTERVAL":       "200ms",
	}), "ua")
	if diags.HasError() {
		t.Fatalf("configure: %v", diags)
	}
	cfg := c.data.Clients.Config()
	got := map[string]string{
		"project": cfg.Project, "zone": cfg.Zone, "token": cfg.AccessToken,
		"tpu": cfg.TPUEndpoint, "container": cfg.ContainerEndpoint, "ua": cfg.UserAgent,
	}
	want := map[string]string{
		"project": "env-project", "zone": "us-east5-b", "token": "ya29.secret",
		"tpu": "http://127.0.0.1:9/", "container": "", "ua": "ua",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config mismatch (-want +got):\n%s", diff)
	}
	if cfg.Polling.Max != 200*time.Millisecond || cfg.Polling.Initial != 10*time.Millisecond {
		t.Errorf("polling = %+v, want initial 10ms, max 200ms", cfg.Polling)
	}
	if c.mode != catalog.ModeStrict {
		t.Errorf("validation = %v, want strict default", c.mode)
	}
	if diff := cmp.Diff([]string{"validation"}, c.data.Unknown); diff != "" {
		t.Errorf("unknown mismatch (-want +got):\n%s", diff)
	}
}

func TestConfigureInvalidValues(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		mutate   func(*accelProviderModel)
		env      map[string]string
		wantPath string
		wantText string
	}{
		"bad validation mode": {
			mutate:   func(m *accelProviderModel) { m.Validation = types.StringValue("loose") },
			wantPath: "validation", wantText: `validation = "loose" is not a validation mode. Set validation to one of strict, warn.`,
		},
		"bad poll interval": {
			mutate:   func(m *accelProviderModel) { m.PollInterval = types.StringValue("soon") },
			wantPath: "poll_interval", wantText: `poll_interval = "soon" is not a positive Go duration`,
		},
		"relative endpoint": {
			mutate:   func(m *accelProviderModel) { m.ContainerEndpoint = types.StringValue("localhost:8080") },
			wantPath: "container_endpoint", wantText: `container_endpoint = "localhost:8080" is not an absolute`,
		},
		"bad validation mode from the environment": {
			env:      map[string]string{"ACCEL_VALIDATION": "loose"},
			wantPath: "validation",
			wantText: `The environment variable ACCEL_VALIDATION = "loose" is not a validation mode. Set ACCEL_VALIDATION to one of strict, warn, or unset it and set validation in the provider block.`,
		},
		"bad poll interval from the environment": {
			env:      map[string]string{"ACCEL_POLL_INTERVAL": "banana"},
			wantPath: "poll_interval", wantText: `The environment variable ACCEL_POLL_INTERVAL = "banana" is not a positive Go duration. Set ACCEL_POLL_INTERVAL to`,
		},
		"bad endpoint from the environment": {
			env:      map[string]string{"ACCEL_TPU_ENDPOINT": "ftp://x"},
			wantPath: "tpu_endpoint", wantText: `The environment variable ACCEL_TPU_ENDPOINT = "ftp://x" is not an absolute http:// or https:// URL`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := nullModel()
			if tc.mutate != nil {
				tc.mutate(&m)
			}
			_, diags := configure(m, env(tc.env), "ua")
			if len(diags) != 1 {
				t.Fatalf("want exactly one diagnostic, got %v", diags)
			}
			d := diags[0]
			wp, ok := d.(diag.DiagnosticWithPath)
			if !ok || wp.Path().String() != tc.wantPath {
				t.Errorf("diagnostic path = %v, want %s", d, tc.wantPath)
			}
			if !strings.Contains(d.Detail(), tc.wantText) {
				t.Errorf("detail %q does not contain %q", d.Detail(), tc.wantText)
			}
			for _, v := range tc.env {
				if n := strings.Count(d.Detail(), v); n != 1 {
					t.Errorf("detail names the value %q %d times, want once: %q", v, n, d.Detail())
				}
			}
		})
	}
}

func TestConfigureDoesNoIO(t *testing.T) {
	t.Parallel()
	// No credentials anywhere and an unroutable endpoint: configure must still
	// succeed, since nothing is contacted until an API call is made.
	m := nullModel()
	m.TPUEndpoint = types.StringValue("https://192.0.2.1/")
	if _, diags := configure(m, env(nil), "ua"); diags.HasError() {
		t.Fatalf("configure without credentials failed: %v", diags)
	}
}

func TestSchemaDescribesEverySetting(t *testing.T) {
	t.Parallel()
	var resp fwprovider.SchemaResponse
	New("test")().Schema(context.Background(), fwprovider.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	var attrs []string
	for name, a := range resp.Schema.Attributes {
		attrs = append(attrs, name)
		if a.GetMarkdownDescription() == "" {
			t.Errorf("attribute %s has no description", name)
		}
	}
	// default_labels, a map without environment fallback, is the one
	// attribute that is not a setting.
	if len(attrs) != len(settings)+1 || resp.Schema.Attributes["default_labels"] == nil {
		t.Errorf("schema has %d attributes %v, want the %d settings and default_labels", len(attrs), attrs, len(settings))
	}
	for _, s := range settings {
		if resp.Schema.Attributes[s.attr] == nil {
			t.Errorf("setting %s has no attribute", s.attr)
		}
	}
	for _, secret := range []string{"credentials", "access_token"} {
		if !resp.Schema.Attributes[secret].IsSensitive() {
			t.Errorf("%s must be sensitive", secret)
		}
	}
}

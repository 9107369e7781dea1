// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// testConfig builds a configuration of the data source from string inputs;
// every other attribute is null.
func testConfig(tb testing.TB, inputs map[string]string) tfsdk.Config {
	tb.Helper()
	s := dataSourceSchema(catalog.Default())
	typ := s.Type().TerraformType(context.Background())
	obj, ok := typ.(tftypes.Object)
	if !ok {
		tb.Fatalf("schema type is %T, want an object", typ)
	}
	vals := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		if v, ok := inputs[name]; ok {
			vals[name] = tftypes.NewValue(tftypes.String, v)
			continue
		}
		vals[name] = tftypes.NewValue(at, nil)
	}
	return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(obj, vals)}
}

// testRead runs ValidateConfig and then Read, as Terraform does before
// reading a data source, and returns the diagnostics of each.
func testRead(t *testing.T, data *providerdata.Data, mode catalog.Mode, inputs map[string]string) (validate, read diag.Diagnostics, state tfsdk.State) {
	t.Helper()
	modes := &validation.Modes{}
	modes.Set(mode)
	return readWith(t, NewDataSource(catalog.Default(), modes), data, inputs)
}

// readWith is testRead with a data source of the caller's.
func readWith(t *testing.T, ds datasource.DataSource, data *providerdata.Data, inputs map[string]string) (validate, read diag.Diagnostics, state tfsdk.State) {
	t.Helper()
	ctx := context.Background()
	configurable, ok := ds.(datasource.DataSourceWithConfigure)
	if !ok {
		t.Fatal("data source does not implement Configure")
	}
	var cresp datasource.ConfigureResponse
	if data != nil {
		configurable.Configure(ctx, datasource.ConfigureRequest{ProviderData: data}, &cresp)
	}
	if cresp.Diagnostics.HasError() {
		t.Fatalf("configure: %v", cresp.Diagnostics)
	}
	cfg := testConfig(t, inputs)
	validator, ok := ds.(datasource.DataSourceWithValidateConfig)
	if !ok {
		t.Fatal("data source does not implement ValidateConfig")
	}
	var vresp datasource.ValidateConfigResponse
	validator.ValidateConfig(ctx, datasource.ValidateConfigRequest{Config: cfg}, &vresp)
	if vresp.Diagnostics.HasError() {
		return vresp.Diagnostics, nil, tfsdk.State{}
	}
	rresp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
	ds.Read(ctx, datasource.ReadRequest{Config: cfg}, &rresp)
	return vresp.Diagnostics, rresp.Diagnostics, rresp.State
}

// summaries lists "severity: attribute path: summary" for each diagnostic.
func summaries(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Severity().String() + ": "
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			s += wp.Path().String() + ": "
		}
		out = append(out, s+d.Summary())
	}
	return out
}

func TestReadReportsEachFindingOnce(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		mode         catalog.Mode
		inputs       map[string]string
		wantValidate []string
		wantRead     []string
	}{
		"valid": {
			inputs: map[string]string{"accelerator_type": "v6e-4", "framework": "jax"},
		},
		"warning at read only": {
			inputs:   map[string]string{"accelerator_type": "v6e-4", "framework": "pytorch", "framework_version": "2.4.0"},
			wantRead: []string{"Warning: framework_version: Framework Version Too Old"},
		},
		"error at validate only": {
			inputs:       map[string]string{"accelerator_type": "v6e-3"},
			wantValidate: []string{"Error: accelerator_type: Invalid TPU Accelerator Type"},
		},
		"provider warn mode turns the error into a warning at read": {
			mode:     catalog.ModeWarn,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "runtime_version": "tpu-ubuntu2204-base"},
			wantRead: []string{"Warning: runtime_version: Runtime Version Does Not Support Generation"},
		},
		"data source warn overrides provider strict": {
			inputs:   map[string]string{"accelerator_type": "v6e-4", "runtime_version": "tpu-ubuntu2204-base", "validation": "warn"},
			wantRead: []string{"Warning: runtime_version: Runtime Version Does Not Support Generation"},
		},
		"data source strict overrides provider warn": {
			mode:         catalog.ModeWarn,
			inputs:       map[string]string{"accelerator_type": "v6e-4", "runtime_version": "tpu-ubuntu2204-base", "validation": "strict"},
			wantValidate: []string{"Error: runtime_version: Runtime Version Does Not Support Generation"},
		},
		"zone error on the zone attribute": {
			inputs:       map[string]string{"accelerator_type": "v4-8", "zone": "Europe-West4-A"},
			wantValidate: []string{"Error: zone: Invalid Zone"},
		},
		"offline zone availability is a warning on the zone attribute": {
			inputs:   map[string]string{"accelerator_type": "v4-8", "zone": "europe-west4-a"},
			wantRead: []string{"Warning: zone: Zone Not Listed for TPU Generation"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v, r, _ := testRead(t, nil, tc.mode, tc.inputs)
			if diff := cmp.Diff(tc.wantValidate, summaries(v)); diff != "" {
				t.Errorf("ValidateConfig diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantRead, summaries(r)); diff != "" {
				t.Errorf("Read diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadLiveCheck(t *testing.T) {
	t.Parallel()
	sc := emulator.Default()
	for i := range sc.Zones {
		if sc.Zones[i].Name == "us-central1-b" {
			// A zone whose runtime list lags behind the catalog.
			sc.Zones[i].RuntimeVersions = slices.DeleteFunc(sc.Zones[i].RuntimeVersions, func(v string) bool {
				return v == "v2-alpha-tpuv6e" || v == "tpu-vm-tf-2.16.1-pjrt"
			})
		}
	}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	online := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: "accel-acc", TPUEndpoint: srv.TPUEndpoint()})}
	noProject := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{TPUEndpoint: srv.TPUEndpoint()})}
	unreachable := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: "accel-acc", TPUEndpoint: "http://127.0.0.1:1/"})}

	tests := map[string]struct {
		data     *providerdata.Data
		mode     catalog.Mode
		inputs   map[string]string
		wantRead []string
		wantCall bool
	}{
		"zone offers type and runtime": {
			data:     online,
			inputs:   map[string]string{"accelerator_type": "v5litepod-4", "zone": "us-central1-a"},
			wantCall: true,
		},
		"zone does not offer the type": {
			data:   online,
			inputs: map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-a"},
			// The live answer replaces the catalog's zone-list warning.
			wantRead: []string{"Error: zone: Zone Does Not Offer Accelerator Type"},
			wantCall: true,
		},
		"warn mode downgrades the live error": {
			data:     online,
			mode:     catalog.ModeWarn,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-a"},
			wantRead: []string{"Warning: zone: Zone Does Not Offer Accelerator Type"},
			wantCall: true,
		},
		"chosen runtime not live": {
			data:     online,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-b"},
			wantRead: []string{"Warning: runtime_version: Runtime Version Not Offered in Zone"},
			wantCall: true,
		},
		"chosen TensorFlow runtime not live, another candidate is": {
			data:     online,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "framework": "tensorflow", "framework_version": "2.17.0", "zone": "us-central1-b"},
			wantRead: []string{"Warning: runtime_version: Runtime Version Not Offered in Zone"},
			wantCall: true,
		},
		"no zone, no call": {
			data:   online,
			inputs: map[string]string{"accelerator_type": "v6e-4"},
		},
		"no project, no call": {
			data:   noProject,
			inputs: map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-a"},
			wantRead: []string{
				"Warning: zone: Zone Not Listed for TPU Generation",
			},
		},
		"unreachable API is ignored": {
			data:     unreachable,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-b"},
			wantRead: nil,
		},
		"unreachable API leaves the catalog's zone-list warning": {
			data:     unreachable,
			inputs:   map[string]string{"accelerator_type": "v6e-4", "zone": "us-central1-a"},
			wantRead: []string{"Warning: zone: Zone Not Listed for TPU Generation"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Not parallel: the emulator's call counter is shared.
			before := srv.Counters()[emulator.MethodTPUAcceleratorTypesList]
			// A new provider process per case: live answers are cached per process.
			data := &providerdata.Data{Clients: tc.data.Clients}
			v, r, state := testRead(t, data, tc.mode, tc.inputs)
			if v.HasError() {
				t.Fatalf("ValidateConfig: %v", v)
			}
			if diff := cmp.Diff(tc.wantRead, summaries(r)); diff != "" {
				t.Errorf("Read diagnostics (-want +got):\n%s", diff)
			}
			called := srv.Counters()[emulator.MethodTPUAcceleratorTypesList] > before
			if called != tc.wantCall {
				t.Errorf("accelerator types listed = %v, want %v", called, tc.wantCall)
			}
			if !r.HasError() {
				var m runtimeVersionModel
				if diags := state.Get(context.Background(), &m); diags.HasError() {
					t.Fatalf("state: %v", diags)
				}
				if m.RuntimeVersion.IsNull() || m.Generation.IsNull() {
					t.Errorf("outputs not set: runtime_version %v, generation %v", m.RuntimeVersion, m.Generation)
				}
			}
		})
	}
}

func TestReadLiveCheckNamesLiveCandidate(t *testing.T) {
	t.Parallel()
	sc := emulator.Default()
	for i := range sc.Zones {
		if sc.Zones[i].Name == "us-central1-b" {
			sc.Zones[i].RuntimeVersions = slices.DeleteFunc(sc.Zones[i].RuntimeVersions, func(v string) bool {
				return v == "tpu-vm-tf-2.18.0-pjrt"
			})
		}
	}
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	data := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: "accel-acc", TPUEndpoint: srv.TPUEndpoint()})}
	_, r, _ := testRead(t, data, catalog.ModeStrict, map[string]string{"accelerator_type": "v6e-4", "framework": "tensorflow", "zone": "us-central1-b"})
	if len(r) != 1 {
		t.Fatalf("diagnostics = %v, want one warning", r)
	}
	const want = `The Cloud TPU API does not list runtime version "tpu-vm-tf-2.18.0-pjrt" in zone "us-central1-b", although the catalog considers it compatible with v6e-4. ` +
		`Compatible runtime versions the zone lists: "tpu-vm-tf-2.17.1-pjrt", "tpu-vm-tf-2.16.1-pjrt", "tpu-vm-tf-2.15.1-pjrt"; consider runtime_version = "tpu-vm-tf-2.17.1-pjrt".`
	if diff := cmp.Diff(want, r[0].Detail()); diff != "" {
		t.Errorf("warning detail (-want +got):\n%s", diff)
	}
}

// BenchmarkValidateAndRead measures the data source's full offline path as
// Terraform drives it: ValidateConfig, then Read, for a TensorFlow runtime on
// a multi-host slice with a zone (the query with the most checks).
func BenchmarkValidateAndRead(b *testing.B) {
	ctx := context.Background()
	ds := NewDataSource(catalog.Default(), &validation.Modes{})
	cfg := testConfig(b, map[string]string{
		"accelerator_type": "v6e-16", "framework": "tensorflow", "framework_version": "2.16", "zone": "us-east5-a",
	})
	validator, ok := ds.(datasource.DataSourceWithValidateConfig)
	if !ok {
		b.Fatal("data source does not implement ValidateConfig")
	}
	b.ReportAllocs()
	for b.Loop() {
		var vresp datasource.ValidateConfigResponse
		validator.ValidateConfig(ctx, datasource.ValidateConfigRequest{Config: cfg}, &vresp)
		rresp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
		ds.Read(ctx, datasource.ReadRequest{Config: cfg}, &rresp)
		if vresp.Diagnostics.HasError() || rresp.Diagnostics.HasError() {
			b.Fatalf("diagnostics: %v %v", vresp.Diagnostics, rresp.Diagnostics)
		}
	}
}

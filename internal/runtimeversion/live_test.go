// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package runtimeversion

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"google.golang.org/api/googleapi"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// fakeLive is a liveAPI that answers every zone with offer and err, and
// records what it was asked.
type fakeLive struct {
	configured bool
	offer      gcp.TPUZoneOffer
	err        error

	mu    sync.Mutex
	asked []string // "project/zone" of each TPUZoneOffer call
}

func (f *fakeLive) TPUConfigured(project string) bool { return f.configured && project != "" }

func (f *fakeLive) TPUZoneOffer(_ context.Context, project, zone string) (gcp.TPUZoneOffer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, project+"/"+zone)
	return f.offer, f.err
}

func (f *fakeLive) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.asked)
}

// withFake returns the data source with its live checks replaced by live.
func withFake(mode catalog.Mode, live liveAPI) datasource.DataSource {
	modes := &validation.Modes{}
	modes.Set(mode)
	ds := &runtimeVersionDataSource{modes: modes, cat: catalog.Default(), newLive: func() liveAPI { return live }}
	return ds
}

// TestConfigureUsesProviderChecker: outside tests the live checks are the
// provider data's one checker, so every data source and resource of a plan
// shares its cached answers.
func TestConfigureUsesProviderChecker(t *testing.T) {
	t.Parallel()
	data := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: "accel-acc"})}
	var got []liveAPI
	for range 2 {
		ds, ok := NewDataSource(catalog.Default(), &validation.Modes{}).(*runtimeVersionDataSource)
		if !ok {
			t.Fatal("NewDataSource does not return *runtimeVersionDataSource")
		}
		var resp datasource.ConfigureResponse
		ds.Configure(context.Background(), datasource.ConfigureRequest{ProviderData: data}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("configure: %v", resp.Diagnostics)
		}
		if ds.newLive == nil {
			t.Fatal("Configure left newLive nil")
		}
		got = append(got, ds.newLive())
	}
	for i, l := range got {
		if l != liveAPI(data.Live()) {
			t.Errorf("data source %d: live checks are %T %p, want the provider data's checker %p", i, l, l, data.Live())
		}
	}
}

// TestReadLiveFake drives the data source's live check with a fake: what
// each answer of the zone's offer becomes, and when no call is made.
func TestReadLiveFake(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	gen, ok := cat.Generation("v6e")
	if !ok || len(gen.Zones) == 0 {
		t.Fatal("the catalog lists no zone for v6e")
	}
	// A zone the catalog lists for v6e: the offline check says nothing, so
	// every diagnostic below is the live check's.
	zone := gen.Zones[0].Zone
	res := cat.ResolveRuntime(catalog.RuntimeQuery{AcceleratorType: "v6e-4", Zones: []string{zone}})
	if res.RuntimeVersion == "" || res.Findings.HasErrors() {
		t.Fatalf("catalog answer for v6e-4 in %s: %+v", zone, res)
	}
	offersAll := gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-4"}, RuntimeVersions: []string{res.RuntimeVersion}}
	inputs := map[string]string{"accelerator_type": "v6e-4", "zone": zone}
	// A zone without the type: the check then asks the catalog's other v6e
	// zones, to name those whose live list has it.
	missAsked := []string{"accel-acc/" + zone}
	if g, ok := cat.Generation("v6e"); ok {
		for _, z := range g.Zones {
			if z.Zone != zone {
				missAsked = append(missAsked, "accel-acc/"+z.Zone)
			}
		}
	}
	online := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{Project: "accel-acc"})}
	noProject := &providerdata.Data{Clients: gcp.NewClients(gcp.Config{})}
	refused := &googleapi.Error{Code: 403, Message: "Permission 'tpu.acceleratorTypes.list' denied on 'projects/accel-acc/locations/" + zone + "'"}
	unreachable := &gcp.EndpointError{API: "Cloud TPU API", Endpoint: "https://tpu.googleapis.com/", Setting: "tpu_endpoint",
		Env: "ACCEL_TPU_ENDPOINT", Method: "GET", Path: "/v2/projects/accel-acc/locations/" + zone + "/acceleratorTypes", Err: syscall.ECONNREFUSED}
	notAPI := &gcp.EndpointError{API: "Cloud TPU API", Endpoint: "https://proxy.example/", Setting: "tpu_endpoint",
		Env: "ACCEL_TPU_ENDPOINT", Method: "GET", Status: 200, ContentType: "text/html", Body: "<html>sign in", Problem: "not JSON"}

	tests := map[string]struct {
		data       *providerdata.Data
		mode       catalog.Mode
		inputs     map[string]string
		live       *fakeLive
		wantRead   []string
		wantDetail string // a part of the first diagnostic's detail
		wantAsked  []string
		wantState  bool
	}{
		"zone offers type and runtime": {
			data: online, inputs: inputs, live: &fakeLive{configured: true, offer: offersAll},
			wantAsked: []string{"accel-acc/" + zone}, wantState: true,
		},
		"zone does not offer the type": {
			data: online, inputs: inputs,
			live:       &fakeLive{configured: true, offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-8"}, RuntimeVersions: offersAll.RuntimeVersions}},
			wantRead:   []string{"Error: zone: Zone Does Not Offer Accelerator Type"},
			wantDetail: `The Cloud TPU API does not list "v6e-4" in zone "` + zone + `"; v6e types it lists: v6e-8.`,
			wantAsked:  missAsked,
		},
		"warn mode turns the zone's refusal into a warning": {
			data: online, mode: catalog.ModeWarn, inputs: inputs,
			live:      &fakeLive{configured: true, offer: gcp.TPUZoneOffer{}},
			wantRead:  []string{"Warning: zone: Zone Does Not Offer Accelerator Type"},
			wantAsked: missAsked, wantState: true,
		},
		"runtime version not listed": {
			data: online, inputs: inputs,
			live:      &fakeLive{configured: true, offer: gcp.TPUZoneOffer{AcceleratorTypes: []string{"v6e-4"}}},
			wantRead:  []string{"Warning: runtime_version: Runtime Version Not Offered in Zone"},
			wantAsked: []string{"accel-acc/" + zone}, wantState: true,
		},
		"refused read is a warning naming the permission": {
			data: online, inputs: inputs, live: &fakeLive{configured: true, err: refused},
			wantRead:   []string{"Warning: zone: Live Availability Not Checked"},
			wantDetail: "Grant the permission tpu.acceleratorTypes.list",
			wantAsked:  []string{"accel-acc/" + zone}, wantState: true,
		},
		"unreachable API leaves the catalog's answer": {
			data: online, inputs: inputs, live: &fakeLive{configured: true, err: fmtErr(unreachable)},
			wantAsked: []string{"accel-acc/" + zone}, wantState: true,
		},
		"endpoint that is not the API leaves the catalog's answer": {
			data: online, inputs: inputs, live: &fakeLive{configured: true, err: fmtErr(notAPI)},
			wantAsked: []string{"accel-acc/" + zone}, wantState: true,
		},
		"offline provider, no call": {
			data: online, inputs: inputs, live: &fakeLive{configured: false, err: refused},
			wantState: true,
		},
		"no project, no call": {
			data: noProject, inputs: inputs, live: &fakeLive{configured: true, err: refused},
			wantState: true,
		},
		"provider not configured, no call": {
			inputs: inputs, live: &fakeLive{configured: true, err: refused},
			wantState: true,
		},
		"no zone, no call": {
			data: online, inputs: map[string]string{"accelerator_type": "v6e-4"}, live: &fakeLive{configured: true, err: refused},
			wantState: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v, r, state := readWith(t, withFake(tc.mode, tc.live), tc.data, tc.inputs)
			if v.HasError() {
				t.Fatalf("ValidateConfig: %v", v)
			}
			if diff := cmp.Diff(tc.wantRead, summaries(r)); diff != "" {
				t.Errorf("Read diagnostics (-want +got):\n%s", diff)
			}
			if tc.wantDetail != "" && (len(r) == 0 || !strings.Contains(r[0].Detail(), tc.wantDetail)) {
				t.Errorf("detail of %v does not contain %q", r, tc.wantDetail)
			}
			if diff := cmp.Diff(tc.wantAsked, tc.live.calls()); diff != "" {
				t.Errorf("zone offers asked for (-want +got):\n%s", diff)
			}
			if got := !state.Raw.IsNull(); got != tc.wantState {
				t.Fatalf("state set = %v, want %v", got, tc.wantState)
			}
			if !tc.wantState {
				return
			}
			var m runtimeVersionModel
			if diags := state.Get(context.Background(), &m); diags.HasError() {
				t.Fatalf("state: %v", diags)
			}
			if got := m.RuntimeVersion.ValueString(); got != res.RuntimeVersion {
				t.Errorf("runtime_version = %q, want the catalog's %q", got, res.RuntimeVersion)
			}
		})
	}
}

// fmtErr wraps err as gcp.Clients.ListTPUZoneOffer does.
func fmtErr(err error) error {
	return fmt.Errorf("listing accelerator types of projects/accel-acc/locations/us-east5-b: %w", err)
}

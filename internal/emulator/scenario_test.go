// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
)

func TestDefaultScenarioIsValid(t *testing.T) {
	t.Parallel()
	sc := Default()
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, z := range sc.Zones {
		if len(z.TPUAcceleratorTypes) > 0 && len(z.RuntimeVersions) == 0 {
			t.Errorf("zone %s offers TPUs but no runtime versions", z.Name)
		}
		for _, mt := range z.MachineTypes {
			if isTPUMachine(mt) {
				if _, _, ok := tpuMachine(mt); !ok {
					t.Errorf("zone %s: TPU machine type %s has no chip count", z.Name, mt)
				}
			}
		}
	}
	if sc.Durations != allDurations(DefaultDuration) {
		t.Errorf("default durations = %+v", sc.Durations)
	}
}

func TestLoadScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sc, err := LoadScenario(write("partial.json", `{
		"projects": ["p1"],
		"durations": {"tpuCreate": "3s"},
		"serializePoolCreates": true,
		"capacity": [{"zone": "us-central1-a", "type": "v5p-8", "count": 2}],
		"minNodeVersions": {"ct5p-": "1.30.0-gke.1"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Durations.TPUCreate != 3*time.Second || sc.Durations.PoolCreate != DefaultDuration {
		t.Errorf("durations = %+v; want tpuCreate 3s and the rest default", sc.Durations)
	}
	if len(sc.Zones) != len(Default().Zones) || len(sc.Clusters) != len(Default().Clusters) || !sc.SerializePoolCreates {
		t.Errorf("defaults not kept: %d zones %d clusters serialize %v", len(sc.Zones), len(sc.Clusters), sc.SerializePoolCreates)
	}
	if sc.MinNodeVersions["ct6e-"] == "" || sc.MinNodeVersions["ct5p-"] != "1.30.0-gke.1" {
		t.Errorf("minNodeVersions not merged: %v", sc.MinNodeVersions)
	}

	// The loaded scenario drives a server: only p1 is served, capacity holds.
	e := start(t, sc)
	_, err = e.tpu.Projects.Locations.Nodes.List(zoneParent("us-central1-a")).Do()
	checkErr(t, err, wantErr{403, statusPermissionDenied, "CONSUMER_INVALID", "project accel-sandbox"})

	bad := []struct {
		name, body, want string
	}{
		{"unknown field", `{"zonez": []}`, "unknown field"},
		{"unknown duration", `{"durations": {"tpuExplode": "1s"}}`, "unknown key"},
		{"bad duration", `{"durations": {"tpuCreate": "soon"}}`, "tpuCreate"},
		{"unknown TPU type", `{"zones": [{"name": "z-a", "tpuAcceleratorTypes": ["v9-8"]}]}`, "unknown TPU accelerator type"},
		{"duplicate zone", `{"zones": [{"name": "z-a"}, {"name": "z-a"}]}`, "listed twice"},
		{"cluster without version", `{"clusters": [{"name": "c", "location": "us-central1", "locations": ["us-central1-a"]}]}`, "needs a name, a location and a version"},
		{"bad version", `{"clusters": [{"name": "c", "location": "us-central1", "version": "1.33", "locations": ["us-central1-a"]}]}`, "not of the form"},
		{"node zone outside region", `{"clusters": [{"name": "c", "location": "us-central1", "version": "1.33.5-gke.1", "locations": ["europe-west4-a"]}]}`, "outside us-central1"},
		{"bad capacity", `{"capacity": [{"zone": "z", "type": "t", "count": -2}]}`, "count >= -1"},
		{"bad seeded pool", `{"clusters": [{"name": "c", "location": "us-central1", "version": "1.33.5-gke.1", "locations": ["us-central1-a"], "nodePools": [{"name": "Bad"}]}]}`, "seeded node pool"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadScenario(write(strings.ReplaceAll(tt.name, " ", "_")+".json", tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	if _, err := LoadScenario(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := Start(Options{Scenario: &Scenario{Zones: []Zone{{}}}}); err == nil {
		t.Error("Start accepted an invalid scenario")
	}
}

func TestDurationsJSON(t *testing.T) {
	t.Parallel()
	d := allDurations(time.Second)
	d.PoolSetSize = 1500 * time.Millisecond
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back Durations
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != d || !strings.Contains(string(b), `"poolSetSize":"1.5s"`) {
		t.Errorf("round trip: %s -> %+v", b, back)
	}
}

func TestCustomScenarioClustersAndProjects(t *testing.T) {
	t.Parallel()
	sc := &Scenario{
		Zones: []Zone{{Name: "us-central2-b", TPUAcceleratorTypes: []string{"v4-8"}, RuntimeVersions: []string{"tpu-ubuntu2204-base"}, MachineTypes: []string{"ct4p-hightpu-4t"}}},
		Clusters: []ClusterSeed{{
			Project: "only-here", Location: "us-central2", Name: "research", Version: "1.32.1-gke.100", NodeVersion: "1.31.9-gke.100",
			Locations: []string{"us-central2-b"},
		}},
	}
	e := start(t, sc)
	c, err := e.gke.Projects.Locations.Clusters.Get("projects/only-here/locations/us-central2/clusters/research").Do()
	if err != nil || c.CurrentNodeVersion != "1.31.9-gke.100" || c.CurrentMasterVersion != "1.32.1-gke.100" {
		t.Fatalf("cluster = %+v, %v", c, err)
	}
	_, err = e.gke.Projects.Locations.Clusters.Get("projects/" + project + "/locations/us-central2/clusters/research").Do()
	checkErr(t, err, wantErr{404, statusNotFound, "", "Not found"})
	// Zero durations: the v4 2x2x2 slice is RUNNING at the next read.
	op, err := e.createPool("projects/only-here/locations/us-central2/clusters/research", &container.NodePool{
		Name: "v4", InitialNodeCount: 2, Config: &container.NodeConfig{MachineType: "ct4p-hightpu-4t"},
		PlacementPolicy: &container.PlacementPolicy{Type: "COMPACT", TpuTopology: "2x2x2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if op.Status != "RUNNING" {
		t.Errorf("the create answer shows the operation as started, got %s", op.Status)
	}
	np, err := e.gke.Projects.Locations.Clusters.NodePools.Get("projects/only-here/locations/us-central2/clusters/research/nodePools/v4").Do()
	if err != nil || np.Status != "RUNNING" || np.Version != "1.31.9-gke.100" {
		t.Errorf("pool = %+v, %v", np, err)
	}
	// The zonal form of the operations API sees the same operation.
	zop, err := e.gke.Projects.Zones.Operations.Get("only-here", "us-central2", op.Name).Do()
	if err != nil || zop.Status != "DONE" {
		t.Errorf("zonal operations.get = %+v, %v", zop, err)
	}
}

func TestTPUShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		ok       bool
		chips    int
		topology string
		workers  int
	}{
		{"v2-8", true, 4, "2x2", 1},
		{"v2-512", true, 256, "16x16", 64},
		{"v3-64", true, 32, "4x8", 8},
		{"v4-16", true, 8, "2x2x2", 2},
		{"v4-64", true, 32, "2x4x4", 8},
		{"v5litepod-1", true, 1, "1x1", 1},
		{"v5litepod-8", true, 8, "2x4", 1},
		{"v5litepod-16", true, 16, "4x4", 4},
		{"v5p-8", true, 4, "2x2x1", 1},
		{"v5p-256", true, 128, "4x4x8", 32},
		{"v5p-12288", true, 6144, "16x16x24", 1536},
		{"v6e-4", true, 4, "2x2", 1},
		{"v6e-64", true, 64, "8x8", 16},
		{"tpu7x-8", true, 4, "2x2x1", 1},
		{"v2-9", false, 0, "", 0},
		{"v5p-24", false, 0, "", 0},
		{"v9-8", false, 0, "", 0},
		{"v6e", false, 0, "", 0},
		{"v6e-x", false, 0, "", 0},
	}
	for _, tt := range tests {
		got, ok := parseTPUType(tt.name)
		if ok != tt.ok {
			t.Errorf("parseTPUType(%q) ok = %v", tt.name, ok)
			continue
		}
		if ok && (got.chips != tt.chips || got.topology != tt.topology || got.workers != tt.workers) {
			t.Errorf("parseTPUType(%q) = %+v, want chips %d topology %s workers %d", tt.name, got, tt.chips, tt.topology, tt.workers)
		}
	}
	cfgs := []struct {
		cfg  tpu.AcceleratorConfig
		want string
	}{
		{tpu.AcceleratorConfig{Type: "V5LITE_POD", Topology: "2x2"}, "v5litepod-4"},
		{tpu.AcceleratorConfig{Type: "V4", Topology: "2x2x2"}, "v4-16"},
		{tpu.AcceleratorConfig{Type: "V2", Topology: "2x2"}, "v2-8"},
		{tpu.AcceleratorConfig{Type: "V5P", Topology: "2x2"}, ""},
		{tpu.AcceleratorConfig{Type: "V6E", Topology: "3x3"}, ""},
		{tpu.AcceleratorConfig{Type: "V7", Topology: "2x2"}, ""},
	}
	for _, tt := range cfgs {
		got, _ := typeForConfig(&tt.cfg)
		if got != tt.want {
			t.Errorf("typeForConfig(%+v) = %q, want %q", tt.cfg, got, tt.want)
		}
	}
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	versions := []struct {
		a, b string
		want int
	}{
		{"1.33.5-gke.1000000", "1.33.5-gke.1000000", 0},
		{"1.31.2-gke.1115000", "1.31.10-gke.1", -1},
		{"1.34.0-gke.2201000", "1.33.99-gke.9999999", 1},
		{"1.30.5-gke.1014001", "1.30.5-gke.1014000", 1},
	}
	for _, tt := range versions {
		if got := compareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("compareVersions(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	regions := map[string]string{"us-central1-a": "us-central1", "us-central1": "us-central1", "europe-west4-a": "europe-west4", "-": "-"}
	for in, want := range regions {
		if got := regionOf(in); got != want {
			t.Errorf("regionOf(%s) = %s, want %s", in, got, want)
		}
	}
	masks := map[string]string{"networkConfig.enableExternalIps": "network_config.enable_external_ips", "labels": "labels", "network_config.enable_external_ips": "network_config.enable_external_ips"}
	for in, want := range masks {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%s) = %s, want %s", in, got, want)
		}
	}
	if a, b := projectNumber("accel-sandbox"), projectNumber("accel-sandbox"); a != b || len(a) != 12 || projectNumber("123456") != "123456" {
		t.Errorf("projectNumber: %s %s", a, b)
	}
	if diff := cmp.Diff(statusInternal, statusForRPC(13)); diff != "" {
		t.Error(diff)
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/podspec"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

func TestParseImportID(t *testing.T) {
	t.Parallel()
	const cluster = "projects/p/locations/us-central1/clusters/serving"
	tests := map[string]struct {
		id      string
		cluster string
		pools   []string
		wantErr string
	}{
		"two pools in order":   {id: cluster + "/nodePools/tpu-a,gpu-b", cluster: cluster, pools: []string{"tpu-a", "gpu-b"}},
		"one pool":             {id: cluster + "/nodePools/only", cluster: cluster, pools: []string{"only"}},
		"spaces after commas":  {id: cluster + "/nodePools/a, b", cluster: cluster, pools: []string{"a", "b"}},
		"no pools segment":     {id: cluster, wantErr: "no nodePools segment"},
		"bad cluster":          {id: "projects/p/clusters/c/nodePools/a", wantErr: "invalid GKE cluster id"},
		"empty pool":           {id: cluster + "/nodePools/a,", wantErr: `"" is not a GKE node pool name`},
		"uppercase pool":       {id: cluster + "/nodePools/Pool", wantErr: `"Pool" is not a GKE node pool name`},
		"duplicate pool":       {id: cluster + "/nodePools/a,a", wantErr: `node pool "a" is listed twice`},
		"pool name too long":   {id: cluster + "/nodePools/" + strings.Repeat("a", 41), wantErr: "is not a GKE node pool name"},
		"trailing slash junk":  {id: cluster + "/nodePools/a/b", wantErr: `"a/b" is not a GKE node pool name`},
		"nothing but the word": {id: "/nodePools/", wantErr: "invalid GKE cluster id"},
		"bytes not UTF-8":      {id: "projects/p\xff/locations/l/clusters/c/nodePools/a", wantErr: "not valid UTF-8"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, p, err := parseImportID(tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseImportID(%q) error = %v, want one containing %q", tt.id, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseImportID(%q): %v", tt.id, err)
			}
			if c != tt.cluster || !slices.Equal(p, tt.pools) {
				t.Errorf("parseImportID(%q) = %q, %v; want %q, %v", tt.id, c, p, tt.cluster, tt.pools)
			}
			if got := resourceID(c, p); got != strings.ReplaceAll(tt.id, " ", "") {
				t.Errorf("resourceID round trip = %q", got)
			}
		})
	}
}

func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{
		"projects/p/locations/l/clusters/c/nodePools/a,b",
		"projects/p/locations/l/clusters/c/nodePools/",
		"/nodePools/a", "", ",,,", "projects//locations//clusters//nodePools/a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		cluster, pools, err := parseImportID(id)
		if err != nil {
			if !utf8.ValidString(err.Error()) {
				t.Errorf("error for %q is not valid UTF-8: %q", id, err)
			}
			// The id, its cluster part and one pool name, each shortened to
			// gcp.MaxShownID bytes, each byte quoted as up to four characters.
			if len(err.Error()) > 3*4*gcp.MaxShownID+400 {
				t.Errorf("error of %d bytes for an id of %d bytes", len(err.Error()), len(id))
			}
			if !strings.HasPrefix(err.Error(), "invalid import id ") {
				t.Errorf("error %q does not start like the other resource's", err)
			}
			return
		}
		if !utf8.ValidString(cluster) {
			t.Errorf("parseImportID(%q) returned cluster %q, which is not valid UTF-8", id, cluster)
		}
		if len(pools) == 0 {
			t.Fatalf("parseImportID(%q) accepted no pools", id)
		}
		for _, p := range pools {
			if !poolNameRE.MatchString(p) {
				t.Fatalf("parseImportID(%q) returned invalid pool name %q", id, p)
			}
		}
		c2, p2, err := parseImportID(resourceID(cluster, pools))
		if err != nil || c2 != cluster || !slices.Equal(p2, pools) {
			t.Fatalf("round trip of %q failed: %q %v %v", id, c2, p2, err)
		}
	})
}

func TestDerive(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	one, two, four := int64(1), int64(2), int64(4)
	zero := int64(0)
	tpuTaint := taint{Key: catalog.TaintTPU, Value: "present", Effect: effectNoSchedule}
	gpuTaint := taint{Key: catalog.TaintGPU, Value: "present", Effect: effectNoSchedule}
	classTaint := taint{Key: catalog.TaintComputeClass, Value: "cc", Effect: effectNoSchedule}
	tests := map[string]struct {
		in       tierInput
		want     tierSpec
		findings []string // summaries
	}{
		"single-host TPU with autoscaling": {
			in: tierInput{Name: "t", AcceleratorType: "v6e-4", Locations: []string{"us-central1-b"}, MinNodes: &zero, MaxNodes: &two, AutoRepair: true, AutoUpgrade: true},
			want: tierSpec{
				Name: "t", TPU: true, AcceleratorType: "v6e-4", MachineType: "ct6e-standard-4t", Topology: "2x2", Hosts: 1,
				Locations: []string{"us-central1-b"}, Autoscaling: true, MaxNodes: 2, AutoRepair: true, AutoUpgrade: true,
				NodeLabels: map[string]string{catalog.LabelComputeClass: "cc"},
				NodeTaints: []taint{tpuTaint, classTaint},
				AcceleratorLabels: map[string]string{
					catalog.LabelTPUAccelerator: "tpu-v6e-slice", catalog.LabelTPUTopology: "2x2",
				},
				NodeSelector: map[string]string{catalog.LabelComputeClass: "cc"},
				Tolerations: []podspec.Toleration{
					{Key: catalog.TaintTPU, Operator: podspec.OperatorExists, Effect: "NoSchedule"},
					{Key: catalog.TaintComputeClass, Operator: podspec.OperatorEqual, Value: "cc", Effect: "NoSchedule"},
				},
			},
		},
		"multi-host TPU gets the slice's hosts and compact placement": {
			in: tierInput{Name: "m", AcceleratorType: "v6e-16", Locations: []string{"us-central1-b"}},
			want: tierSpec{
				Name: "m", TPU: true, AcceleratorType: "v6e-16", MachineType: "ct6e-standard-4t", Topology: "4x4", Placement: "COMPACT",
				Hosts: 4, NodeCount: 4, Locations: []string{"us-central1-b"},
				NodeLabels: map[string]string{catalog.LabelComputeClass: "cc"},
				NodeTaints: []taint{tpuTaint, classTaint},
				AcceleratorLabels: map[string]string{
					catalog.LabelTPUAccelerator: "tpu-v6e-slice", catalog.LabelTPUTopology: "4x4",
				},
				NodeSelector: map[string]string{catalog.LabelComputeClass: "cc"},
				Tolerations: []podspec.Toleration{
					{Key: catalog.TaintTPU, Operator: podspec.OperatorExists, Effect: "NoSchedule"},
					{Key: catalog.TaintComputeClass, Operator: podspec.OperatorEqual, Value: "cc", Effect: "NoSchedule"},
				},
			},
		},
		"spot GPU with built-in GPUs and user labels and taints": {
			in: tierInput{
				Name: "g", MachineType: "g2-standard-24", Locations: []string{"us-central1-a"}, NodeCount: &one, Spot: true,
				Labels: map[string]string{"app": "vllm"}, Taints: []taint{{Key: "team", Value: "a", Effect: effectNoExecute}},
			},
			want: tierSpec{
				Name: "g", MachineType: "g2-standard-24", GPUType: "nvidia-l4", GPUCount: 2, GPUDriver: catalog.DefaultGPUDriverVersion,
				Hosts: 1, NodeCount: 1, Locations: []string{"us-central1-a"}, Spot: true,
				UserLabels: map[string]string{"app": "vllm"}, UserTaints: []taint{{Key: "team", Value: "a", Effect: effectNoExecute}},
				NodeLabels:        map[string]string{catalog.LabelComputeClass: "cc", "app": "vllm"},
				NodeTaints:        []taint{gpuTaint, classTaint, {Key: "team", Value: "a", Effect: effectNoExecute}},
				AcceleratorLabels: map[string]string{catalog.LabelGPUAccelerator: "nvidia-l4"},
				NodeSelector:      map[string]string{catalog.LabelComputeClass: "cc"},
				Tolerations: []podspec.Toleration{
					{Key: catalog.TaintGPU, Operator: podspec.OperatorExists, Effect: "NoSchedule"},
					{Key: catalog.TaintComputeClass, Operator: podspec.OperatorEqual, Value: "cc", Effect: "NoSchedule"},
					{Key: "team", Operator: podspec.OperatorEqual, Value: "a", Effect: "NoExecute"},
					{Key: catalog.TaintSpot, Operator: podspec.OperatorEqual, Value: "true", Effect: "NoSchedule"},
				},
			},
		},
		"both TPU and GPU": {
			in:       tierInput{Name: "x", AcceleratorType: "v6e-4", GPUType: "nvidia-l4", Locations: []string{"us-central1-b"}},
			findings: []string{"Tier Is Both TPU and GPU"},
		},
		"neither TPU nor GPU": {
			in:       tierInput{Name: "x", Locations: []string{"us-central1-b"}},
			findings: []string{"Tier Has No Accelerator"},
		},
		"multi-host in two zones": {
			in:       tierInput{Name: "x", AcceleratorType: "v6e-16", Locations: []string{"us-east5-a", "us-east5-b"}},
			findings: []string{"Multi-Host Slice Needs One Zone"},
		},
		"autoscaling bounds out of order": {
			in:       tierInput{Name: "x", MachineType: "g2-standard-4", Locations: []string{"us-central1-a"}, MinNodes: &four, MaxNodes: &two},
			findings: []string{"Autoscaling Bounds Out of Order"},
		},
		"provider's label and a duplicate taint": {
			in: tierInput{Name: "x", MachineType: "g2-standard-4", Locations: []string{"us-central1-a"},
				Labels: map[string]string{catalog.LabelComputeClass: "other"},
				Taints: []taint{{Key: "a", Value: "1", Effect: effectNoSchedule}, {Key: "a", Value: "2", Effect: effectNoSchedule}}},
			findings: []string{"Label Set by the Provider", "Duplicate Taint"},
		},
		"topology on a GPU tier": {
			in:       tierInput{Name: "x", MachineType: "g2-standard-4", Topology: "2x2", Locations: []string{"us-central1-a"}},
			findings: []string{"Topology Set on a GPU Tier"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, fs := derive(cat, tt.in, "cc", "")
			var summaries []string
			for _, f := range fs {
				if f.Severity == catalog.SeverityError {
					summaries = append(summaries, f.Summary)
				}
			}
			if diff := cmp.Diff(tt.findings, summaries); diff != "" {
				t.Fatalf("error findings (-want +got):\n%s\nall: %v", diff, fs)
			}
			if tt.findings != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodePoolRequest(t *testing.T) {
	t.Parallel()
	cat := catalog.Default()
	zero, four := int64(0), int64(4)
	s, fs := derive(cat, tierInput{Name: "m", AcceleratorType: "v6e-16", Locations: []string{"us-central1-b"}, MinNodes: &zero, MaxNodes: &four,
		Reservation: &reservation{Type: "SPECIFIC_RESERVATION", Key: "compute.googleapis.com/reservation-name", Values: []string{"r1"}}}, "cc", "")
	if fs.HasErrors() {
		t.Fatal(fs)
	}
	np := s.nodePool(catalog.Default())
	if np.InitialNodeCount != 0 || !slices.Contains(np.ForceSendFields, "InitialNodeCount") {
		t.Errorf("initial node count %d must be sent as 0", np.InitialNodeCount)
	}
	if np.Autoscaling == nil || !np.Autoscaling.Enabled || np.Autoscaling.MaxNodeCount != 4 || np.Autoscaling.LocationPolicy != "ANY" {
		t.Errorf("autoscaling = %+v", np.Autoscaling)
	}
	if np.PlacementPolicy == nil || np.PlacementPolicy.Type != "COMPACT" || np.PlacementPolicy.TpuTopology != "4x4" {
		t.Errorf("placement = %+v", np.PlacementPolicy)
	}
	if r := np.Config.ReservationAffinity; r == nil || r.ConsumeReservationType != "SPECIFIC_RESERVATION" || !slices.Equal(r.Values, []string{"r1"}) {
		t.Errorf("reservation affinity = %+v", r)
	}
	if len(np.Config.Accelerators) != 0 {
		t.Errorf("a TPU pool attaches no GPUs: %+v", np.Config.Accelerators)
	}
	if got := np.Config.Labels[catalog.LabelComputeClass]; got != "cc" {
		t.Errorf("compute class label = %q", got)
	}
}

func TestPlanSteps(t *testing.T) {
	t.Parallel()
	base := tierSpec{Name: "a", MachineType: "g2-standard-4", GPUType: "nvidia-l4", GPUCount: 1, Locations: []string{"z"}, NodeCount: 1,
		NodeLabels: map[string]string{"k": "v"}}
	moved := base
	moved.Locations = []string{"y"}
	bigger := base
	bigger.NodeCount = 3
	relabeled := base
	relabeled.NodeLabels = map[string]string{"k": "w"}
	b := base
	b.Name = "b"
	state := map[string]tierModel{"a": {Status: types.StringValue("RUNNING")}, "gone": {Status: types.StringValue("RUNNING")}}
	missing := map[string]tierModel{"a": {Status: types.StringValue(statusMissing)}}
	tests := map[string]struct {
		want  []tierSpec
		state map[string]tierModel
		specs map[string]tierSpec
		order []string
		acts  []action
	}{
		"unchanged":           {want: []tierSpec{base}, state: state, specs: map[string]tierSpec{"a": base}, order: []string{"a"}, acts: []action{actionNone}},
		"zone change":         {want: []tierSpec{moved}, state: state, specs: map[string]tierSpec{"a": base}, order: []string{"a"}, acts: []action{actionReplace}},
		"resize":              {want: []tierSpec{bigger}, state: state, specs: map[string]tierSpec{"a": base}, order: []string{"a"}, acts: []action{actionUpdate}},
		"relabel":             {want: []tierSpec{relabeled}, state: state, specs: map[string]tierSpec{"a": base}, order: []string{"a"}, acts: []action{actionUpdate}},
		"missing pool":        {want: []tierSpec{base}, state: missing, specs: map[string]tierSpec{"a": base}, order: []string{"a"}, acts: []action{actionCreate}},
		"removal comes first": {want: []tierSpec{base, b}, state: state, specs: map[string]tierSpec{"a": base, "gone": base}, order: []string{"a", "gone"}, acts: []action{actionDelete, actionNone, actionCreate}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var got []action
			for _, st := range planSteps(tt.want, tt.state, tt.specs, tt.order) {
				got = append(got, st.action)
			}
			if !slices.Equal(got, tt.acts) {
				t.Errorf("actions = %v, want %v", got, tt.acts)
			}
		})
	}
}

// TestObjectTypesMatchModels: every nested object type, taken from the
// schema, has exactly the attributes its model's tfsdk tags name.
func TestObjectTypesMatchModels(t *testing.T) {
	t.Parallel()
	ot := schemaTypes()
	for _, c := range []struct {
		typ   types.ObjectType
		model any
	}{
		{ot.tier, tierModel{}}, {ot.taint, taintModel{}}, {ot.reservation, reservationModel{}}, {ot.poolEntry, poolEntry{}},
		{ot.gpuSharing, gpuSharingModel{}}, {ot.kubelet, kubeletModel{}}, {ot.linux, linuxModel{}},
		{ot.blueGreen, blueGreenModel{}}, {ot.rollout, rolloutModel{}}, {ot.containerd, containerdModel{}},
		{ot.registryAccess, registryAccessModel{}}, {ot.caDomain, caDomainModel{}}, {ot.nodeNetwork, nodeNetworkModel{}},
		{ot.podNetwork, podNetworkModel{}}, {ot.secondaryBootDisk, secondaryBootDiskModel{}},
	} {
		if d := tfmodel.ModelMismatch(tfmodel.Names(c.typ.AttrTypes), c.model); d != "" {
			t.Error(d)
		}
	}
}

// TestSchemaModelParity checks that every schema attribute has a model
// field with the same tfsdk name and the same type, and the reverse.
func TestSchemaModelParity(t *testing.T) {
	t.Parallel()
	var resp resource.SchemaResponse
	(&fallbackNodePoolsResource{catalog: catalog.Default()}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(context.Background()); diags.HasError() {
		t.Fatal(diags)
	}
	problems := tfmodel.SchemaProblems("resource", resp.Schema.Attributes, resp.Schema.Blocks, resourceModel{})
	tiers, ok := resp.Schema.Blocks["tiers"].(schema.ListNestedBlock)
	if !ok {
		t.Fatal("tiers is not a list nested block")
	}
	problems = append(problems, tfmodel.SchemaProblems("tiers", tiers.NestedObject.Attributes, tiers.NestedObject.Blocks, tierModel{})...)
	if diff := cmp.Diff(schemaTypes().tier, tiers.NestedObject.Type()); diff != "" {
		t.Errorf("tier object type differs from the schema (-model +schema):\n%s", diff)
	}
	for name, b := range tiers.NestedObject.Blocks {
		for an, a := range b.GetNestedObject().GetAttributes() {
			if a.GetMarkdownDescription() == "" {
				problems = append(problems, fmt.Sprintf("tiers.%s.%s has no description", name, an))
			}
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestOnStockoutDescription: the on_stockout description states that a
// stockout in the first apply taints the resource, and the way out.
func TestOnStockoutDescription(t *testing.T) {
	t.Parallel()
	var resp resource.SchemaResponse
	(&fallbackNodePoolsResource{catalog: catalog.Default()}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	desc := resp.Schema.Attributes["on_stockout"].GetMarkdownDescription()
	for _, want := range []string{"tainted", "re-creates every pool", "terraform untaint"} {
		if !strings.Contains(desc, want) {
			t.Errorf("on_stockout description does not say %q: %s", want, desc)
		}
	}
}

// TestTierAction: the one decision of what happens to a tier's pool, which
// the plan and the apply share.
func TestTierAction(t *testing.T) {
	t.Parallel()
	base := gpuSpecs(t, "pool")[0]
	resized, relabelled, unmanaged, spot := base, base, base, base
	resized.NodeCount = 3
	relabelled.NodeLabels = map[string]string{"team": "ml"}
	unmanaged.AutoRepair = false
	spot.Spot = true
	tests := map[string]struct {
		recorded bool
		status   string
		was      tierSpec
		want     action
	}{
		"new tier":                    {recorded: false, was: base, want: actionCreate},
		"pool missing":                {recorded: true, status: statusMissing, was: base, want: actionCreate},
		"unchanged":                   {recorded: true, status: statusRunning, was: base, want: actionNone},
		"unread pool, unchanged":      {recorded: true, status: statusUnknown, was: base, want: actionNone},
		"pool in ERROR":               {recorded: true, status: statusError, was: base, want: actionReplace},
		"size":                        {recorded: true, status: statusRunning, was: resized, want: actionUpdate},
		"labels":                      {recorded: true, status: statusRunning, was: relabelled, want: actionUpdate},
		"management":                  {recorded: true, status: statusRunning, was: unmanaged, want: actionUpdate},
		"a setting GKE cannot change": {recorded: true, status: statusRunning, was: spot, want: actionReplace},
	}
	for name, tt := range tests {
		if got := tierAction(tt.recorded, tt.status, tt.was, base); got != tt.want {
			t.Errorf("%s: tierAction = %d, want %d", name, got, tt.want)
		}
	}
}

// TestAlwaysOnWarning: a tier that sets no size warns, naming the tier and
// what to set, when its default pool is costly (several GPUs a node, or a
// multi-host TPU slice), and only then.
func TestAlwaysOnWarning(t *testing.T) {
	t.Parallel()
	n := int64(1)
	tests := map[string]struct {
		in   tierInput
		want string // substring of the warning; "" for none
	}{
		"eight H100s in two zones": {
			in: tierInput{Name: "h100", MachineType: "a3-highgpu-8g", Locations: []string{"us-central1-a", "us-central1-b"}},
			want: `Tier "h100" sets neither node_count nor min_node_count and max_node_count, so its pool keeps 1 a3-highgpu-8g node ` +
				`with 8 nvidia-h100-80gb GPUs running in each of its 2 zones (us-central1-a, us-central1-b)`,
		},
		"a multi-host v6e slice": {
			in:   tierInput{Name: "v6e", AcceleratorType: "v6e-16", Locations: []string{"us-east5-b"}},
			want: `so its pool keeps a v6e-16 slice of 4 ct6e-standard-4t VMs running in us-east5-b`,
		},
		"one L4":                {in: tierInput{Name: "l4", MachineType: "g2-standard-4", GPUType: "nvidia-l4", Locations: []string{"us-central1-a"}}},
		"a single-host slice":   {in: tierInput{Name: "v6e", AcceleratorType: "v6e-4", Locations: []string{"us-east5-b"}}},
		"node_count set":        {in: tierInput{Name: "h100", MachineType: "a3-highgpu-8g", Locations: []string{"us-central1-a"}, NodeCount: &n}},
		"autoscaling from zero": {in: tierInput{Name: "h100", MachineType: "a3-highgpu-8g", Locations: []string{"us-central1-a"}, MinNodes: new(int64), MaxNodes: &n}},
	}
	for name, tt := range tests {
		tt.in.known, tt.in.AutoRepair, tt.in.AutoUpgrade = true, true, true
		_, fs := derive(catalog.Default(), tt.in, "cc", "")
		var got []catalog.Finding
		for _, f := range fs.Warnings() {
			if f.Summary == "Accelerators Always On" {
				got = append(got, f)
			}
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: unexpected warning %v", name, got)
		case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0].Detail, tt.want) || got[0].Attribute != catalog.AttrNodeCount):
			t.Errorf("%s: warnings %v, want one on node_count containing %q (all findings: %v)", name, got, tt.want, fs)
		}
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package podspec

import (
	"context"
	"testing"
)

func TestUnionKeepsFirstSeenOrder(t *testing.T) {
	tpu := Toleration{Key: "google.com/tpu", Operator: OperatorExists, Effect: EffectNoSchedule}
	gpu := Toleration{Key: "nvidia.com/gpu", Operator: OperatorExists, Effect: EffectNoSchedule}
	spot := Toleration{Key: "cloud.google.com/gke-spot", Operator: OperatorEqual, Value: "true", Effect: EffectNoSchedule}
	got := Union([]Toleration{tpu, spot}, nil, []Toleration{gpu, tpu, spot})
	if len(got) != 3 || got[0] != tpu || got[1] != spot || got[2] != gpu {
		t.Errorf("Union = %v, want tpu, spot, gpu", got)
	}
}

func TestList(t *testing.T) {
	if l := List(nil); l.IsNull() || len(l.Elements()) != 0 {
		t.Errorf("List(nil) = %v, want an empty list", l)
	}
	l := List([]Toleration{{Key: "k", Operator: OperatorEqual, Value: "v", Effect: EffectNoSchedule}})
	var got []struct {
		Key      string `tfsdk:"key"`
		Operator string `tfsdk:"operator"`
		Value    string `tfsdk:"value"`
		Effect   string `tfsdk:"effect"`
	}
	if diags := l.ElementsAs(context.Background(), &got, false); diags.HasError() {
		t.Fatal(diags)
	}
	if len(got) != 1 || got[0].Key != "k" || got[0].Operator != "Equal" || got[0].Value != "v" || got[0].Effect != "NoSchedule" {
		t.Errorf("List = %+v", got)
	}
}

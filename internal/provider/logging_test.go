// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuietUnrequestedLogs(t *testing.T) {
	off := map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_ACCEL": "OFF"}
	cases := []struct {
		name    string
		environ []string
		want    map[string]string
	}{
		{"no logging variable", []string{"PATH=/bin", "HOME=/root", "GOOGLE_PROJECT=p"}, off},
		{"empty TF_LOG is unset", []string{"TF_LOG=", "TF_LOG_PROVIDER="}, off},
		{"a variable that only ends in TF_LOG", []string{"MY_TF_LOG=trace"}, off},
		{"TF_LOG", []string{"TF_LOG=trace"}, nil},
		{"TF_LOG=off leaves the choice to the libraries", []string{"TF_LOG=off"}, nil},
		{"TF_LOG as JSON", []string{"TF_LOG=JSON"}, nil},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=debug"}, nil},
		{"this provider's own level", []string{"TF_LOG_PROVIDER_ACCEL=info"}, nil},
		{"an SDK level", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, nil},
		{"a log path alone", []string{"TF_LOG_PATH=/tmp/tf.log"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]string{}
			quieted := QuietUnrequestedLogs(tc.environ, func(k, v string) error { set[k] = v; return nil })
			if quieted != (tc.want != nil) {
				t.Errorf("QuietUnrequestedLogs = %v, want %v", quieted, tc.want != nil)
			}
			want := tc.want
			if want == nil {
				want = map[string]string{}
			}
			if diff := cmp.Diff(want, set); diff != "" {
				t.Errorf("variables set (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuietUnrequestedLogs_setenvFails(t *testing.T) {
	set := map[string]string{}
	calls := 0
	quieted := QuietUnrequestedLogs(nil, func(k, v string) error {
		calls++
		if calls == 2 {
			return errors.New("no environment")
		}
		set[k] = v
		return nil
	})
	if quieted {
		t.Error("QuietUnrequestedLogs reported the logs off although setting a level failed")
	}
	if want := map[string]string{"TF_LOG_SDK": "OFF"}; !maps.Equal(set, want) {
		t.Errorf("variables set = %v, want %v", set, want)
	}
}

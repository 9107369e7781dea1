// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stateV4 has what the suite meets in a state file: a resource, a tainted
// instance, counted and keyed instances, a module, and a data source.
const stateV4 = `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 7,
  "lineage": "a",
  "outputs": {},
  "resources": [
    {"mode": "managed", "type": "accel_tpu_vm", "name": "test", "provider": "provider[\"registry.terraform.io/accel-dev/accel\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "projects/p/locations/z/nodes/a"}}]},
    {"mode": "managed", "type": "accel_fallback_nodepools", "name": "pools", "provider": "provider[\"registry.terraform.io/accel-dev/accel\"]",
     "instances": [{"status": "tainted", "schema_version": 0, "attributes": {"id": "c"}}]},
    {"mode": "managed", "type": "accel_tpu_vm", "name": "many", "provider": "provider[\"registry.terraform.io/accel-dev/accel\"]",
     "instances": [{"index_key": 0, "attributes": {"id": "n0"}}, {"index_key": "k", "attributes": {"id": "nk"}}]},
    {"module": "module.m", "mode": "managed", "type": "accel_tpu_vm", "name": "inner", "provider": "provider[\"registry.terraform.io/accel-dev/accel\"]",
     "instances": [{"attributes": {"id": "ni"}}]},
    {"mode": "data", "type": "accel_runtime_version", "name": "rv", "provider": "provider[\"registry.terraform.io/accel-dev/accel\"]",
     "instances": [{"attributes": {"id": "rv"}}]}
  ],
  "check_results": null
}`

func TestDecodeStateFile(t *testing.T) {
	t.Parallel()
	s, err := DecodeStateFile([]byte(stateV4))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Address string
		Tainted bool
		ID      any
	}
	var out []got
	for _, r := range s.Resources() {
		out = append(out, got{r.Address, r.Tainted, r.Values["id"]})
	}
	slices.SortFunc(out, func(a, b got) int {
		if a.Address < b.Address {
			return -1
		}
		return 1
	})
	want := []got{
		{"accel_fallback_nodepools.pools", true, "c"},
		{"accel_tpu_vm.many[\"k\"]", false, "nk"},
		{"accel_tpu_vm.many[0]", false, "n0"},
		{"accel_tpu_vm.test", false, "projects/p/locations/z/nodes/a"},
		{"module.m.accel_tpu_vm.inner", false, "ni"},
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("managed instances (-want +got):\n%s", diff)
	}
}

func TestDecodeStateFileRefusesOtherVersions(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`{"version": 3, "modules": []}`, `<!DOCTYPE html>`, ``} {
		if _, err := DecodeStateFile([]byte(raw)); err == nil {
			t.Errorf("DecodeStateFile(%q) succeeded, want an error", raw)
		}
	}
}

func TestWorkspaceStateWithoutFileOrEmptyIsEmpty(t *testing.T) {
	t.Parallel()
	w := &Workspace{Dir: t.TempDir()}
	s, err := w.State()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Resources()); n != 0 {
		t.Errorf("%d resources in a workspace without state, want none", n)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "terraform.tfstate"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = w.State(); err != nil || len(s.Resources()) != 0 {
		t.Errorf("state of an empty file: %v, %d resources, want none", err, len(s.Resources()))
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "terraform.tfstate"), []byte(stateV4), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = w.State(); err != nil || len(s.Resources()) != 5 {
		t.Errorf("state with the file: %v, %d resources, want 5", err, len(s.Resources()))
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestLoadRawSchemas: a schema as `terraform providers schema -json` shows
// it becomes the protocol schema a provider of it sends, attributes and
// blocks in name order, types and flags kept.
func TestLoadRawSchemas(t *testing.T) {
	t.Parallel()
	const cli = `{"raw_google_tpu_v2_vm": {"version": 1, "block": {
	  "attributes": {
	    "zone": {"type": "string", "optional": true, "computed": true},
	    "name": {"type": "string", "required": true},
	    "labels": {"type": ["map", "string"], "optional": true},
	    "network_endpoints": {"type": ["list", ["object", {"ip_address": "string", "port": "number"}]], "computed": true}
	  },
	  "block_types": {
	    "scheduling_config": {"nesting_mode": "list", "max_items": 1, "block": {
	      "attributes": {"spot": {"type": "bool", "optional": true}}}}
	  }}}}`
	path := filepath.Join(t.TempDir(), "raw.json")
	if err := os.WriteFile(path, []byte(cli), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRawSchemas(path)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"ip_address": tftypes.String, "port": tftypes.Number}}
	want := map[string]*tfprotov6.Schema{"raw_google_tpu_v2_vm": {Version: 1, Block: &tfprotov6.SchemaBlock{
		Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "labels", Type: tftypes.Map{ElementType: tftypes.String}, Optional: true},
			{Name: "name", Type: tftypes.String, Required: true},
			{Name: "network_endpoints", Type: tftypes.List{ElementType: endpoint}, Computed: true},
			{Name: "zone", Type: tftypes.String, Optional: true, Computed: true},
		},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "scheduling_config", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, MaxItems: 1,
			Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "spot", Type: tftypes.Bool, Optional: true}}}}},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LoadRawSchemas (-want +got):\n%s", diff)
	}
	if _, err := ProtocolSchema(nil); err == nil {
		t.Error("ProtocolSchema(nil) succeeded")
	}
}

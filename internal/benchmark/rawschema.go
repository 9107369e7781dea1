// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// RawSchemasEnv names the environment variable that gives the raw provider
// more resources: a JSON file of resource schemas by type name, in the form
// of `terraform providers schema -json`. planbench writes it with the
// schema of google-beta's google_tpu_v2_vm as raw_google_tpu_v2_vm, so that
// the floor of that schema is measured beside the floor of accel_tpu_vm's.
const RawSchemasEnv = "ACCEL_BENCH_RAW_SCHEMAS"

// LoadRawSchemas reads the file RawSchemasEnv names, in the protocol's form.
func LoadRawSchemas(path string) (map[string]*tfprotov6.Schema, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the benchmark's own file
	if err != nil {
		return nil, err
	}
	var in map[string]*tfjson.Schema
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make(map[string]*tfprotov6.Schema, len(in))
	for name, s := range in {
		ps, err := ProtocolSchema(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, name, err)
		}
		out[name] = ps
	}
	return out, nil
}

// ProtocolSchema is the protocol form of a schema as the CLI shows it: the
// attributes and nested blocks with their types and flags, in name order
// (as providers send them). Descriptions are left out: they do not change
// what a plan costs.
func ProtocolSchema(s *tfjson.Schema) (*tfprotov6.Schema, error) {
	if s == nil || s.Block == nil {
		return nil, fmt.Errorf("no schema block")
	}
	b, err := protocolBlock(s.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.Schema{Version: int64(s.Version), Block: b}, nil
}

var nestingModes = map[tfjson.SchemaNestingMode]tfprotov6.SchemaNestedBlockNestingMode{
	tfjson.SchemaNestingModeSingle: tfprotov6.SchemaNestedBlockNestingModeSingle,
	tfjson.SchemaNestingModeGroup:  tfprotov6.SchemaNestedBlockNestingModeGroup,
	tfjson.SchemaNestingModeList:   tfprotov6.SchemaNestedBlockNestingModeList,
	tfjson.SchemaNestingModeSet:    tfprotov6.SchemaNestedBlockNestingModeSet,
	tfjson.SchemaNestingModeMap:    tfprotov6.SchemaNestedBlockNestingModeMap,
}

func protocolBlock(b *tfjson.SchemaBlock) (*tfprotov6.SchemaBlock, error) {
	out := &tfprotov6.SchemaBlock{}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		if a.AttributeNestedType != nil {
			return nil, fmt.Errorf("attribute %s: nested attribute types are not converted", name)
		}
		j, err := a.AttributeType.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		typ, err := tftypes.ParseJSONType(j) //nolint:staticcheck // the CLI's JSON type, as the protocol library reads it
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		out.Attributes = append(out.Attributes, &tfprotov6.SchemaAttribute{Name: name, Type: typ,
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive})
	}
	for _, name := range slices.Sorted(maps.Keys(b.NestedBlocks)) {
		nb := b.NestedBlocks[name]
		mode, ok := nestingModes[nb.NestingMode]
		if !ok {
			return nil, fmt.Errorf("block %s: nesting mode %q", name, nb.NestingMode)
		}
		inner, err := protocolBlock(nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", name, err)
		}
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{TypeName: name, Block: inner, Nesting: mode,
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems)})
	}
	return out, nil
}

// WriteRawSchema writes the schema of resource type of the provider source
// (as `terraform providers schema -json` shows it) to a file of r.WorkDir
// under the name rawName, and returns the file for RawSchemasEnv.
func (r *Runner) WriteRawSchema(ctx context.Context, requiredProviders, source, typ, rawName string) (string, error) {
	dir, err := r.workspace(requiredProviders)
	if err != nil {
		return "", err
	}
	out, err := r.command(ctx, dir, "providers", "schema", "-json").Output()
	if err != nil {
		return "", fmt.Errorf("terraform providers schema -json: %w", err)
	}
	var ps tfjson.ProviderSchemas
	if err := json.Unmarshal(out, &ps); err != nil {
		return "", fmt.Errorf("terraform providers schema -json: %w", err)
	}
	for addr, p := range ps.Schemas {
		if s, ok := p.ResourceSchemas[typ]; ok && filepath.Base(addr) == filepath.Base(source) {
			b, err := json.Marshal(map[string]*tfjson.Schema{rawName: s})
			if err != nil {
				return "", err
			}
			path := filepath.Join(r.WorkDir, "raw-schemas.json")
			return path, os.WriteFile(path, b, 0o600)
		}
	}
	return "", fmt.Errorf("no schema of %s in %s's", typ, source)
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// BareSchema returns s with the same attributes and blocks, of the same
// types and with the same required, optional, computed and sensitive
// flags, but without a validator, plan modifier or default anywhere: the
// schema a framework resource of the same size has before it adds any
// behaviour of its own. The baseline provider serves the bare schemas of
// this provider's resources, so that a plan of them measures what Terraform
// and the framework cost for a resource of that size.
func BareSchema(s schema.Schema) (schema.Schema, error) {
	attrs, err := bareAttributes(s.Attributes)
	if err != nil {
		return schema.Schema{}, err
	}
	blocks, err := bareBlocks(s.Blocks)
	if err != nil {
		return schema.Schema{}, err
	}
	return schema.Schema{Attributes: attrs, Blocks: blocks, MarkdownDescription: s.MarkdownDescription}, nil
}

func bareAttributes(in map[string]schema.Attribute) (map[string]schema.Attribute, error) {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		var err error
		switch a := a.(type) {
		case schema.StringAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.BoolAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.Int64Attribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.Float64Attribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.ListAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.SetAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.MapAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			out[name] = a
		case schema.SingleNestedAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			a.Attributes, err = bareAttributes(a.Attributes)
			out[name] = a
		case schema.ListNestedAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			a.NestedObject.Validators, a.NestedObject.PlanModifiers = nil, nil
			a.NestedObject.Attributes, err = bareAttributes(a.NestedObject.Attributes)
			out[name] = a
		case schema.MapNestedAttribute:
			a.Validators, a.PlanModifiers, a.Default = nil, nil, nil
			a.NestedObject.Validators, a.NestedObject.PlanModifiers = nil, nil
			a.NestedObject.Attributes, err = bareAttributes(a.NestedObject.Attributes)
			out[name] = a
		default:
			return nil, fmt.Errorf("attribute %q: BareSchema does not know %T; add it", name, a)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

func bareBlocks(in map[string]schema.Block) (map[string]schema.Block, error) {
	out := make(map[string]schema.Block, len(in))
	for name, b := range in {
		var err, berr error
		switch b := b.(type) {
		case schema.SingleNestedBlock:
			b.Validators, b.PlanModifiers = nil, nil
			b.Attributes, err = bareAttributes(b.Attributes)
			if err == nil {
				b.Blocks, berr = bareBlocks(b.Blocks)
			}
			out[name] = b
		case schema.ListNestedBlock:
			b.Validators, b.PlanModifiers = nil, nil
			b.NestedObject.Validators, b.NestedObject.PlanModifiers = nil, nil
			b.NestedObject.Attributes, err = bareAttributes(b.NestedObject.Attributes)
			if err == nil {
				b.NestedObject.Blocks, berr = bareBlocks(b.NestedObject.Blocks)
			}
			out[name] = b
		default:
			return nil, fmt.Errorf("block %q: BareSchema does not know %T; add it", name, b)
		}
		if err = errors.Join(err, berr); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

// NewBareResource is a framework resource of the bare schema (BareSchema)
// of another resource, of, named after it (<provider type name><suffix>),
// with no behaviour of its own: it stores its plan, with null for every
// value left unknown, as its state.
func NewBareResource(suffix string, of resource.Resource) resource.Resource {
	return &bareResource{suffix: suffix, of: of}
}

var _ resource.Resource = &bareResource{}

type bareResource struct {
	suffix string
	of     resource.Resource
}

func (r *bareResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.suffix
}

func (r *bareResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	var full resource.SchemaResponse
	r.of.Schema(ctx, req, &full)
	resp.Diagnostics.Append(full.Diagnostics...)
	s, err := BareSchema(full.Schema)
	if err != nil {
		resp.Diagnostics.AddError("Bare Schema", err.Error())
		return
	}
	resp.Schema = s
}

func (r *bareResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	v, err := tftypes.Transform(req.Plan.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		resp.Diagnostics.AddError("Create", err.Error())
		return
	}
	resp.State.Raw = v
}

func (r *bareResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *bareResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (r *bareResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

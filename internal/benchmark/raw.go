// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// RawThingSchema is the schema of the raw provider's smallest resource, the
// protocol form of baseline_thing: a computed id and a required name.
var RawThingSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
	{Name: "id", Type: tftypes.String, Computed: true},
	{Name: "name", Type: tftypes.String, Required: true},
}}}

// RawServer is the least a provider can do for Terraform to plan its
// resources: a tfprotov6.ProviderServer written against the plugin protocol
// alone, with no framework, that serves the schemas it was given (converted
// once, before it serves), accepts every configuration and plans every
// create as the proposed new state with each computed value left unset
// unknown. A plan of its resources costs Terraform, the plugin protocol and
// the schema's size, and nothing else: the floor under any provider of
// those schemas.
type RawServer struct {
	schemas map[string]*tfprotov6.Schema
	types   map[string]tftypes.Type
}

var _ tfprotov6.ProviderServer = &RawServer{}

// NewRawServer serves the resources of schemas, by type name.
func NewRawServer(schemas map[string]*tfprotov6.Schema) *RawServer {
	s := &RawServer{schemas: schemas, types: make(map[string]tftypes.Type, len(schemas))}
	for name, sc := range schemas {
		s.types[name] = sc.ValueType()
	}
	return s
}

func (s *RawServer) errorf(format string, args ...any) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Raw Provider", Detail: fmt.Sprintf(format, args...)}}
}

// rawCapabilities are those terraform-plugin-framework announces, so that
// Terraform treats the raw provider as it treats a framework provider.
var rawCapabilities = &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true, MoveResourceState: true, PlanDestroy: true}

// GetMetadata lists the resources.
func (s *RawServer) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp := &tfprotov6.GetMetadataResponse{ServerCapabilities: rawCapabilities}
	for name := range s.schemas {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	return resp, nil
}

// GetProviderSchema serves the schemas and an empty provider schema.
func (s *RawServer) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: rawCapabilities,
		Provider:           &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas:    s.schemas,
	}, nil
}

// GetResourceIdentitySchemas: no resource has an identity.
func (s *RawServer) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

// ValidateProviderConfig accepts every configuration.
func (s *RawServer) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

// ConfigureProvider has nothing to configure.
func (s *RawServer) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

// StopProvider has nothing to stop.
func (s *RawServer) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

// ValidateResourceConfig accepts every configuration.
func (s *RawServer) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

// UpgradeResourceState reads the stored state as it is.
func (s *RawServer) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	typ, ok := s.types[req.TypeName]
	if !ok || req.RawState == nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: s.errorf("no state of %q to upgrade", req.TypeName)}, nil
	}
	v, err := req.RawState.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{})
	if err == nil {
		var dv tfprotov6.DynamicValue
		if dv, err = tfprotov6.NewDynamicValue(typ, v); err == nil {
			return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, nil
		}
	}
	return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: s.errorf("%s", err)}, nil
}

// ReadResource returns the state it was given.
func (s *RawServer) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
}

// PlanResourceChange plans a create as the proposed new state with every
// computed value the configuration leaves null unknown, as every provider
// must; any other change is planned as proposed.
func (s *RawServer) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	sc, ok := s.schemas[req.TypeName]
	if !ok {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: s.errorf("unknown resource type %q", req.TypeName)}, nil
	}
	typ := s.types[req.TypeName]
	prior, err := req.PriorState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: s.errorf("prior state: %s", err)}, nil
	}
	if !prior.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}, nil
	}
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err == nil && !proposed.IsNull() {
		proposed, err = UnknownComputed(sc.Block, proposed)
	}
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: s.errorf("proposed new state: %s", err)}, nil
	}
	planned, err := tfprotov6.NewDynamicValue(typ, proposed)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: s.errorf("planned state: %s", err)}, nil
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &planned}, nil
}

// UnknownComputed returns v, an object of block b, with every computed
// attribute that is null unknown, in nested attributes and blocks too.
func UnknownComputed(b *tfprotov6.SchemaBlock, v tftypes.Value) (tftypes.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return v, nil
	}
	var vals map[string]tftypes.Value
	if err := v.As(&vals); err != nil {
		return v, err
	}
	var err error
	for _, a := range b.Attributes {
		av := vals[a.Name]
		switch {
		case a.Computed && av.IsNull():
			vals[a.Name] = tftypes.NewValue(av.Type(), tftypes.UnknownValue)
		case a.NestedType != nil:
			nested := &tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes}
			vals[a.Name], err = eachElement(a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle, av,
				func(e tftypes.Value) (tftypes.Value, error) { return UnknownComputed(nested, e) })
		}
		if err != nil {
			return v, fmt.Errorf("%s: %w", a.Name, err)
		}
	}
	for _, bt := range b.BlockTypes {
		single := bt.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle || bt.Nesting == tfprotov6.SchemaNestedBlockNestingModeGroup
		vals[bt.TypeName], err = eachElement(single, vals[bt.TypeName],
			func(e tftypes.Value) (tftypes.Value, error) { return UnknownComputed(bt.Block, e) })
		if err != nil {
			return v, fmt.Errorf("%s: %w", bt.TypeName, err)
		}
	}
	return tftypes.NewValue(v.Type(), vals), nil
}

// eachElement applies f to v when single, else to every element of the
// list, set or map v.
func eachElement(single bool, v tftypes.Value, f func(tftypes.Value) (tftypes.Value, error)) (tftypes.Value, error) {
	if single || v.IsNull() || !v.IsKnown() {
		return f(v)
	}
	if v.Type().Is(tftypes.Map{}) {
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return v, err
		}
		for k, e := range m {
			var err error
			if m[k], err = f(e); err != nil {
				return v, err
			}
		}
		return tftypes.NewValue(v.Type(), m), nil
	}
	var l []tftypes.Value
	if err := v.As(&l); err != nil {
		return v, err
	}
	for i, e := range l {
		var err error
		if l[i], err = f(e); err != nil {
			return v, err
		}
	}
	return tftypes.NewValue(v.Type(), l), nil
}

// ApplyResourceChange stores the planned state, with every unknown value null.
func (s *RawServer) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	typ, ok := s.types[req.TypeName]
	if !ok {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: s.errorf("unknown resource type %q", req.TypeName)}, nil
	}
	planned, err := req.PlannedState.Unmarshal(typ)
	if err == nil {
		planned, err = tftypes.Transform(planned, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			if !v.IsKnown() {
				return tftypes.NewValue(v.Type(), nil), nil
			}
			return v, nil
		})
	}
	var dv tfprotov6.DynamicValue
	if err == nil {
		dv, err = tfprotov6.NewDynamicValue(typ, planned)
	}
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: s.errorf("%s", err)}, nil
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: &dv}, nil
}

// ImportResourceState is not supported.
func (s *RawServer) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return &tfprotov6.ImportResourceStateResponse{Diagnostics: s.errorf("%s cannot be imported", req.TypeName)}, nil
}

// MoveResourceState is not supported.
func (s *RawServer) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: s.errorf("%s cannot be moved", req.TargetTypeName)}, nil
}

// UpgradeResourceIdentity: no resource has an identity.
func (s *RawServer) UpgradeResourceIdentity(_ context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: s.errorf("%s has no identity", req.TypeName)}, nil
}

// GenerateResourceConfig is not supported.
func (s *RawServer) GenerateResourceConfig(_ context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: s.errorf("%s cannot generate configuration", req.TypeName)}, nil
}

// ValidateDataResourceConfig: there are no data sources.
func (s *RawServer) ValidateDataResourceConfig(_ context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: s.errorf("no data source %q", req.TypeName)}, nil
}

// ReadDataSource: there are no data sources.
func (s *RawServer) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return &tfprotov6.ReadDataSourceResponse{Diagnostics: s.errorf("no data source %q", req.TypeName)}, nil
}

// GetFunctions: there are no functions.
func (s *RawServer) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{}, nil
}

// CallFunction: there are no functions.
func (s *RawServer) CallFunction(_ context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: "no function " + req.Name}}, nil
}

// ValidateEphemeralResourceConfig: there are no ephemeral resources.
func (s *RawServer) ValidateEphemeralResourceConfig(_ context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{Diagnostics: s.errorf("no ephemeral resource %q", req.TypeName)}, nil
}

// OpenEphemeralResource: there are no ephemeral resources.
func (s *RawServer) OpenEphemeralResource(_ context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: s.errorf("no ephemeral resource %q", req.TypeName)}, nil
}

// RenewEphemeralResource: there are no ephemeral resources.
func (s *RawServer) RenewEphemeralResource(_ context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{Diagnostics: s.errorf("no ephemeral resource %q", req.TypeName)}, nil
}

// CloseEphemeralResource: there are no ephemeral resources.
func (s *RawServer) CloseEphemeralResource(_ context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{Diagnostics: s.errorf("no ephemeral resource %q", req.TypeName)}, nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// protocolServer is every RPC set the framework's protocol 6 server
// serves; a server of this provider serves them all.
type protocolServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// NewServer returns the provider's protocol 6 server, as the binary and the
// acceptance tests serve it: the framework's, with null function arguments
// read as OpenTofu sends them (see nullArguments).
func NewServer(version string) (tfprotov6.ProviderServer, error) {
	s, err := providerserver.NewProtocol6WithError(New(version)())()
	if err != nil {
		return nil, err
	}
	full, ok := s.(protocolServer)
	if !ok {
		return nil, fmt.Errorf("the framework's server %T lacks an RPC set this provider serves", s)
	}
	return nullArguments{full}, nil
}

// nullArguments reads a provider-defined function's argument that comes with
// no data as null. OpenTofu (1.12.6) sends a null argument, such as
// runtime_version("v5litepod-4", null), as a DynamicValue with neither
// MessagePack nor JSON set; the framework cannot decode that ("DynamicValue
// had no JSON or msgpack data set") and fails the call. Terraform sends
// MessagePack nil, which is what the argument becomes here.
type nullArguments struct{ protocolServer }

// msgpackNil is MessagePack's nil: a null of any type.
var msgpackNil = []byte{0xc0}

func (s nullArguments) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	if req != nil {
		for i, a := range req.Arguments {
			if a == nil || (a.MsgPack == nil && a.JSON == nil) {
				req.Arguments[i] = &tfprotov6.DynamicValue{MsgPack: msgpackNil}
			}
		}
	}
	return s.protocolServer.CallFunction(ctx, req)
}

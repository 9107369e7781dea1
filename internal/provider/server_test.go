// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestServerReadsArgumentsWithoutDataAsNull: a function argument sent with
// no data, as OpenTofu sends a null, is the null the function accepts; the
// framework alone fails the call.
func TestServerReadsArgumentsWithoutDataAsNull(t *testing.T) {
	ctx := context.Background()
	s, err := NewServer("test")
	if err != nil {
		t.Fatal(err)
	}
	accel, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "v5litepod-4"))
	if err != nil {
		t.Fatal(err)
	}
	call := func(s tfprotov6.ProviderServer, framework *tfprotov6.DynamicValue) *tfprotov6.CallFunctionResponse {
		t.Helper()
		resp, err := s.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "runtime_version", Arguments: []*tfprotov6.DynamicValue{&accel, framework}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for name, arg := range map[string]*tfprotov6.DynamicValue{"no data": {}, "nil": nil, "MessagePack nil": {MsgPack: msgpackNil}} {
		resp := call(s, arg)
		if resp.Error != nil {
			t.Fatalf("%s: %s", name, resp.Error.Text)
		}
		var got string
		v, err := resp.Result.Unmarshal(tftypes.String)
		if err != nil || v.As(&got) != nil || got != "v2-alpha-tpuv5-lite" {
			t.Errorf("%s: runtime_version(v5litepod-4, null) = %q (%v), want v2-alpha-tpuv5-lite", name, got, err)
		}
	}
	// Without the wrapper the framework refuses the argument with no data:
	// if it ever stops refusing, the wrapper can go.
	wrapped, ok := s.(nullArguments)
	if !ok {
		t.Fatalf("NewServer returned a %T, not the wrapper", s)
	}
	if resp := call(wrapped.protocolServer, &tfprotov6.DynamicValue{}); resp.Error == nil {
		t.Error("the framework now reads an argument with no data; nullArguments is no longer needed")
	}
}

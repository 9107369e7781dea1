// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Command rawprovider is the floor of the plan benchmarks: a provider
// written against the plugin protocol alone (terraform-plugin-go, no
// framework; benchmark.RawServer) that does the least Terraform needs to
// plan a create. raw_thing has baseline_thing's two attributes;
// raw_tpu_vm and raw_fallback_nodepools have exactly the schemas Terraform
// receives for accel_tpu_vm and accel_fallback_nodepools, taken from this
// provider once at start-up. A plan of them measures Terraform's own cost
// and the protocol's for resources of those schemas, which no provider of
// the same schemas can go under. With benchmark.RawSchemasEnv set, it also
// serves the schemas of that file (google-beta's google_tpu_v2_vm, as
// raw_google_tpu_v2_vm). Like the accel provider, it turns the
// plugin library's unrequested logs off (provider.QuietUnrequestedLogs).
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/accel-dev/terraform-provider-accel/internal/benchmark"
	"github.com/accel-dev/terraform-provider-accel/internal/provider"
)

func main() {
	provider.QuietUnrequestedLogs(os.Environ(), os.Setenv)
	schemas, err := rawSchemas(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	srv := benchmark.NewRawServer(schemas)
	if err := tf6server.Serve("registry.terraform.io/accel-dev/raw", func() tfprotov6.ProviderServer { return srv }); err != nil {
		log.Fatal(err)
	}
}

// rawSchemas are the raw provider's resource schemas: raw_thing, and the
// protocol schemas of this provider's resources under raw_ names.
func rawSchemas(ctx context.Context) (map[string]*tfprotov6.Schema, error) {
	accel, err := providerserver.NewProtocol6WithError(provider.New("raw")())()
	if err != nil {
		return nil, err
	}
	resp, err := accel.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	out := map[string]*tfprotov6.Schema{"raw_thing": benchmark.RawThingSchema}
	for _, name := range []string{"tpu_vm", "fallback_nodepools"} {
		s, ok := resp.ResourceSchemas["accel_"+name]
		if !ok {
			return nil, fmt.Errorf("the provider has no accel_%s", name)
		}
		out["raw_"+name] = s
	}
	if path := os.Getenv(benchmark.RawSchemasEnv); path != "" {
		more, err := benchmark.LoadRawSchemas(path)
		if err != nil {
			return nil, err
		}
		for name, s := range more {
			out[name] = s
		}
	}
	return out, nil
}

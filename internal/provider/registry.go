// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	providerfunctions "github.com/accel-dev/terraform-provider-accel/internal/functions"
	"github.com/accel-dev/terraform-provider-accel/internal/hardwarepath"
	"github.com/accel-dev/terraform-provider-accel/internal/nodepools"
	"github.com/accel-dev/terraform-provider-accel/internal/runtimeversion"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// resources lists every resource the provider serves.
func resources(modes *validation.Modes) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return tpuvm.NewResource(modes) },
		func() resource.Resource { return nodepools.NewResource(modes) },
	}
}

var _ provider.ProviderWithListResources = &accelProvider{}

// listResources lists the list resources terraform query uses (Terraform
// 1.14 and later), one per resource.
func listResources(modes *validation.Modes) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return tpuvm.NewListResource(modes) },
		func() list.ListResource { return nodepools.NewListResource(modes) },
	}
}

func (p *accelProvider) ListResources(_ context.Context) []func() list.ListResource {
	return listResources(p.modes)
}

// dataSources lists every data source the provider serves.
func dataSources(modes *validation.Modes) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return runtimeversion.NewDataSource(modes) },
		func() datasource.DataSource { return hardwarepath.NewDataSource(modes) },
	}
}

// functions lists every provider-defined function.
func functions() []func() function.Function {
	return []func() function.Function{
		providerfunctions.NewRuntimeVersion, providerfunctions.NewAccelerator,
		providerfunctions.NewTPUPlacement, providerfunctions.NewTPUAPIType, providerfunctions.NewGPU,
	}
}

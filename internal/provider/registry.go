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

	"github.com/accel-dev/terraform-provider-accel/internal/autoclass"
	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	providerfunctions "github.com/accel-dev/terraform-provider-accel/internal/functions"
	"github.com/accel-dev/terraform-provider-accel/internal/hardwarepath"
	"github.com/accel-dev/terraform-provider-accel/internal/nodepools"
	"github.com/accel-dev/terraform-provider-accel/internal/runtimeversion"
	"github.com/accel-dev/terraform-provider-accel/internal/tpuvm"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// resources lists every resource the provider serves.
func resources(cat *catalog.Catalog, modes *validation.Modes) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return tpuvm.NewResource(cat, modes) },
		func() resource.Resource { return nodepools.NewResource(cat, modes) },
	}
}

var _ provider.ProviderWithListResources = &accelProvider{}

// listResources lists the list resources terraform query uses (Terraform
// 1.14 and later), one per resource.
func listResources(cat *catalog.Catalog, modes *validation.Modes) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return tpuvm.NewListResource(cat, modes) },
		func() list.ListResource { return nodepools.NewListResource(cat, modes) },
	}
}

func (p *accelProvider) ListResources(_ context.Context) []func() list.ListResource {
	return listResources(p.catalog, p.modes)
}

// dataSources lists every data source the provider serves.
func dataSources(cat *catalog.Catalog, modes *validation.Modes) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return runtimeversion.NewDataSource(cat, modes) },
		func() datasource.DataSource { return hardwarepath.NewDataSource(cat, modes) },
		func() datasource.DataSource { return autoclass.NewDataSource(cat, modes) },
	}
}

// functions lists every provider-defined function.
func functions(cat *catalog.Catalog) []func() function.Function {
	out := []func() function.Function{}
	for _, f := range []func(*catalog.Catalog) function.Function{
		providerfunctions.NewRuntimeVersion, providerfunctions.NewAccelerator,
		providerfunctions.NewTPUPlacement, providerfunctions.NewTPUAPIType, providerfunctions.NewGPU,
	} {
		out = append(out, func() function.Function { return f(cat) })
	}
	return out
}

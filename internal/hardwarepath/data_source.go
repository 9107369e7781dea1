// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package hardwarepath implements the accel_hardware_path data source: it
// walks the TPU-first or GPU-first decision tree (package capacity) for a
// model's candidate accelerators and returns the decision, the steps and
// the tiers for accel_fallback_nodepools.
package hardwarepath

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/decisiontree"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

var (
	_ datasource.DataSource                   = &hardwarePathDataSource{}
	_ datasource.DataSourceWithConfigure      = &hardwarePathDataSource{}
	_ datasource.DataSourceWithValidateConfig = &hardwarePathDataSource{}
)

// NewDataSource returns the accel_hardware_path data source. modes carries
// the provider-level validation mode.
func NewDataSource(cat *catalog.Catalog, modes *validation.Modes) datasource.DataSource {
	return &hardwarePathDataSource{modes: modes, cat: cat}
}

type hardwarePathDataSource struct {
	modes *validation.Modes
	cat   *catalog.Catalog
	// data is nil until the provider is configured.
	data *providerdata.Data
}

func (d *hardwarePathDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerdata.From(req.ProviderData, &resp.Diagnostics)
}

func (d *hardwarePathDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_hardware_path"
}

func (d *hardwarePathDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dataSourceSchema(d.cat)
}

// group is one candidate block: its path and candidates (nil where a
// value is unknown).
type group struct {
	block string
	cands []*decisiontree.Candidate
}

// inputs reads the configuration. Unknown values are left out (Terraform
// reads a data source only once its configuration is known; validation
// checks what is known).
func inputs(ctx context.Context, m model, diags *diag.Diagnostics) (in decisiontree.Input, zones []string, groups []group) {
	in.Start = decisiontree.Family(m.Start.ValueString())
	in.RunsOnOther = m.RunsOnOther.ValueBool()
	in.ConversionFeasible = m.ConversionFeasible.ValueBool()
	if !m.Zones.IsUnknown() {
		for _, z := range m.Zones.Elements() {
			s, ok := z.(types.String)
			if !ok || s.IsUnknown() {
				continue
			}
			zones = append(zones, s.ValueString())
		}
	}
	read := func(block string, l types.List, smaller bool) []decisiontree.Candidate {
		g := group{block: block}
		var out []decisiontree.Candidate
		for _, e := range l.Elements() {
			obj, ok := e.(types.Object)
			if !ok || obj.IsUnknown() {
				g.cands = append(g.cands, nil)
				continue
			}
			c := decisiontree.Candidate{Family: decisiontree.GPU, Smaller: smaller}
			if block == "tpu" {
				var t tpuModel
				diags.Append(tfmodel.As(ctx, obj, &t, tfmodel.ObjectAsOptions)...)
				c.Family, c.AcceleratorType = decisiontree.TPU, t.AcceleratorType.ValueString()
				if t.AcceleratorType.IsUnknown() {
					g.cands = append(g.cands, nil)
					continue
				}
			} else {
				var t gpuModel
				diags.Append(tfmodel.As(ctx, obj, &t, tfmodel.ObjectAsOptions)...)
				if t.MachineType.IsUnknown() || t.GPUType.IsUnknown() || t.GPUCount.IsUnknown() {
					g.cands = append(g.cands, nil)
					continue
				}
				c.MachineType, c.GPUType, c.GPUCount = t.MachineType.ValueString(), t.GPUType.ValueString(), int(t.GPUCount.ValueInt64())
			}
			g.cands = append(g.cands, &c)
			out = append(out, c)
		}
		groups = append(groups, g)
		return out
	}
	in.TPU = read("tpu", m.TPU, false)
	in.GPU = read("gpu", m.GPU, false)
	in.SmallerGPU = read("smaller_gpu", m.SmallerGPU, true)
	return in, zones, groups
}

// check reports the catalog's findings on the zones and on each candidate
// that is known; errorsOnly keeps the errors (ValidateConfig).
func (d *hardwarePathDataSource) check(zones []string, groups []group, mode validation.Mode, errorsOnly bool, diags *diag.Diagnostics) {
	add := validation.Append
	if errorsOnly {
		add = validation.AppendErrors
	}
	add(diags, path.Empty(), d.cat.ZoneNames(zones, "zones"), mode)
	for _, g := range groups {
		for i, c := range g.cands {
			if c == nil {
				continue
			}
			fs, _ := shape(d.cat, *c)
			add(diags, path.Root(g.block).AtListIndex(i), fs, mode)
		}
	}
	duplicates(d.cat, groups, diags)
}

// ValidateConfig reports invalid zones and candidates as soon as they are
// known, so that `terraform validate` fails on them.
func (d *hardwarePathDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, zones, groups := inputs(ctx, m, &resp.Diagnostics)
	if !m.TPU.IsUnknown() && !m.GPU.IsUnknown() && !m.SmallerGPU.IsUnknown() &&
		len(m.TPU.Elements())+len(m.GPU.Elements())+len(m.SmallerGPU.Elements()) == 0 {
		resp.Diagnostics.AddError("No Candidate Accelerators",
			"Give at least one candidate: a tpu, gpu or smaller_gpu block, in order of preference.")
	}
	d.check(zones, groups, d.modes.Provider(), true, &resp.Diagnostics)
}

func (d *hardwarePathDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in, zones, groups := inputs(ctx, m, &resp.Diagnostics)
	d.check(zones, groups, d.modes.Provider(), false, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	evidence := func(c decisiontree.Candidate) decisiontree.Evidence { return catalogEvidence(d.cat, c, zones) }
	if project := d.project(); project != "" {
		live := d.data.Live()
		warned := map[string]bool{}
		warn := func(fs catalog.Findings) {
			for _, f := range fs {
				if !warned[f.Summary+f.Detail] {
					warned[f.Summary+f.Detail] = true
					resp.Diagnostics.AddWarning(f.Summary, f.Detail)
				}
			}
		}
		evidence = func(c decisiontree.Candidate) decisiontree.Evidence {
			ev := catalogEvidence(d.cat, c, zones)
			if !ev.Available {
				return ev
			}
			return liveEvidence(ctx, d.cat, live, project, c, ev, warn)
		}
	}
	res := decisiontree.Walk(in, evidence)
	m.Decision = types.StringValue(string(res.Decision))
	m.ConvertModel = types.BoolValue(res.ConvertModel)
	m.CapacityChecked = types.BoolValue(res.CapacityChecked)
	m.Steps = stepList(res.Steps, &resp.Diagnostics)
	m.Tiers = tierList(d.cat, res.Tiers, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// project is the project whose capacity the live APIs can be asked for,
// "" when the plan stays offline (no project, or neither compute_endpoint
// nor credentials configured).
func (d *hardwarePathDataSource) project() string {
	if d.data == nil || !d.data.Live().ComputeConfigured(d.data.Project()) {
		return ""
	}
	return d.data.Project()
}

// tierName is the tier name a candidate gives: tpu-ACCELERATOR_TYPE, or
// gpu-MACHINE_TYPE with the GPU type when set.
func tierName(c decisiontree.Candidate) string {
	if c.Family == decisiontree.TPU {
		return "tpu-" + c.AcceleratorType
	}
	name := "gpu-" + c.MachineType
	if c.GPUType != "" {
		name += "-" + strings.TrimPrefix(c.GPUType, "nvidia-")
	}
	return name
}

// duplicates reports every known candidate that asks for the same hardware
// as an earlier one (the GPU type and count a machine type implies count as
// given): each would be one more tier of the same pools.
func duplicates(cat *catalog.Catalog, groups []group, diags *diag.Diagnostics) {
	first := map[string]string{}
	for _, g := range groups {
		for i, c := range g.cands {
			if c == nil {
				continue
			}
			key, what := "tpu/"+c.AcceleratorType, c.AcceleratorType
			if c.Family != decisiontree.TPU {
				gpuType, count := c.GPUType, c.GPUCount
				if s, fs := cat.GPUNodePool(catalog.GPUPoolQuery{MachineType: c.MachineType, GPUType: c.GPUType, GPUCount: c.GPUCount}); !fs.HasErrors() {
					gpuType, count = s.GPUType, s.GPUCount
				}
				key, what = fmt.Sprintf("gpu/%s/%s/%d", c.MachineType, gpuType, count), fmt.Sprintf("%s with %d × %s", c.MachineType, count, gpuType)
			}
			at := fmt.Sprintf("%s[%d]", g.block, i)
			if earlier, ok := first[key]; ok {
				diags.AddAttributeError(path.Root(g.block).AtListIndex(i), "Duplicate Candidate",
					fmt.Sprintf("%s asks for the same hardware as %s (%s): each candidate becomes one tier, and two tiers of one "+
						"accelerator are two pools of the same nodes (accel_fallback_nodepools refuses tiers of the same name). "+
						"List it once, in the group and position of its priority.", at, earlier, what))
				continue
			}
			first[key] = at
		}
	}
}

func stepList(steps []decisiontree.Step, diags *diag.Diagnostics) types.List {
	elems := make([]attr.Value, len(steps))
	for i, s := range steps {
		obj, d := types.ObjectValue(stepAttrTypes, map[string]attr.Value{
			"question": types.StringValue(s.Question), "answer": types.StringValue(s.Answer), "evidence": types.StringValue(s.Evidence),
		})
		diags.Append(d...)
		elems[i] = obj
	}
	l, d := types.ListValue(types.ObjectType{AttrTypes: stepAttrTypes}, elems)
	diags.Append(d...)
	return l
}

func tierList(cat *catalog.Catalog, tiers []decisiontree.Choice, diags *diag.Diagnostics) types.List {
	elems := make([]attr.Value, 0, len(tiers))
	names := make([]string, len(tiers))
	seen := map[string]int{}
	for i, t := range tiers {
		names[i] = tierName(t.Candidate)
		seen[names[i]]++
	}
	for i, t := range tiers {
		// Candidates of one machine and GPU type that differ in their count
		// would share a name, which accel_fallback_nodepools refuses.
		if seen[names[i]] > 1 && t.Candidate.GPUCount > 0 {
			names[i] += fmt.Sprintf("-x%d", t.Candidate.GPUCount)
		}
	}
	for i, t := range tiers {
		c := t.Candidate
		zones := t.Evidence.Zones
		if _, multiHost := shape(cat, c); multiHost && len(zones) > 1 {
			zones = zones[:1] // a multi-host slice lives in one zone
		}
		locs, d := types.ListValueFrom(context.Background(), types.StringType, zones)
		diags.Append(d...)
		v := map[string]attr.Value{
			"family": types.StringValue(string(c.Family)), "node_locations": locs, "evidence": types.StringValue(t.Evidence.Detail),
			"available":        types.BoolValue(t.Evidence.Available),
			"accelerator_type": types.StringNull(), "machine_type": types.StringNull(), "gpu_type": types.StringNull(), "gpu_count": types.Int64Null(),
		}
		v["name"] = types.StringValue(names[i])
		if c.Family == decisiontree.TPU {
			v["accelerator_type"] = types.StringValue(c.AcceleratorType)
		} else {
			v["machine_type"] = types.StringValue(c.MachineType)
			if c.GPUType != "" {
				v["gpu_type"] = types.StringValue(c.GPUType)
			}
			if c.GPUCount > 0 {
				v["gpu_count"] = types.Int64Value(int64(c.GPUCount))
			}
		}
		obj, d := types.ObjectValue(tierAttrTypes, v)
		diags.Append(d...)
		elems = append(elems, obj)
	}
	l, d := types.ListValue(types.ObjectType{AttrTypes: tierAttrTypes}, elems)
	diags.Append(d...)
	return l
}

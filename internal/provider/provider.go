// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package provider defines the accel provider: its configuration schema, the
// resolution of settings from configuration and environment, and the explicit
// list of resources, data sources and functions it serves.
package provider

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/providerdata"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/accel-dev/accel"

// defaultPollInterval is the longest wait between two polls of a long-running
// operation when poll_interval is not set.
const defaultPollInterval = 10 * time.Second

var (
	_ provider.Provider                   = &accelProvider{}
	_ provider.ProviderWithFunctions      = &accelProvider{}
	_ provider.ProviderWithValidateConfig = &accelProvider{}
)

// New returns a constructor of the provider for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		cat := catalog.Default()
		return &accelProvider{version: version, catalog: cat, modes: validation.NewModes(cat)}
	}
}

type accelProvider struct {
	version string
	// catalog is the compatibility catalog every resource, data source
	// and function checks against: built once, handed to each constructor.
	catalog *catalog.Catalog
	// modes carries the provider-level validation mode to resources, which
	// Terraform validates before it configures the provider.
	modes *validation.Modes
}

type accelProviderModel struct {
	Project                   types.String `tfsdk:"project"`
	Zone                      types.String `tfsdk:"zone"`
	Credentials               types.String `tfsdk:"credentials"`
	AccessToken               types.String `tfsdk:"access_token"`
	ImpersonateServiceAccount types.String `tfsdk:"impersonate_service_account"`
	TPUEndpoint               types.String `tfsdk:"tpu_endpoint"`
	ContainerEndpoint         types.String `tfsdk:"container_endpoint"`
	ComputeEndpoint           types.String `tfsdk:"compute_endpoint"`
	Validation                types.String `tfsdk:"validation"`
	PollInterval              types.String `tfsdk:"poll_interval"`
	StockoutRetry             types.String `tfsdk:"stockout_retry"`
	DefaultLabels             types.Map    `tfsdk:"default_labels"`
}

// setting describes one provider argument: its environment fallbacks, in
// order, and its default.
type setting struct {
	attr    string
	env     []string
	def     string
	secret  bool
	summary string
}

// settings is the single list the schema descriptions and the resolution in
// Configure are built from.
var settings = []setting{
	{attr: "project", env: []string{"GOOGLE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT"},
		summary: "Default Google Cloud project ID for resources that do not set one."},
	{attr: "zone", env: []string{"GOOGLE_ZONE", "GCLOUD_ZONE", "CLOUDSDK_COMPUTE_ZONE"},
		summary: "Default zone, used by `accel_tpu_vm` when `zones` is not set."},
	{attr: "credentials", env: []string{"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON"}, secret: true,
		summary: "Path to a service account key file, or its JSON contents. When no credential is set, Application Default Credentials are used (including `GOOGLE_APPLICATION_CREDENTIALS`), and only when an API call is needed."},
	{attr: "access_token", env: []string{"GOOGLE_OAUTH_ACCESS_TOKEN"}, secret: true,
		summary: "OAuth 2.0 access token; takes precedence over `credentials`."},
	{attr: "impersonate_service_account", env: []string{"GOOGLE_IMPERSONATE_SERVICE_ACCOUNT"},
		summary: "Email of a service account to impersonate with the base credentials."},
	{attr: "tpu_endpoint", env: []string{"ACCEL_TPU_ENDPOINT"},
		summary: "Base URL of the Cloud TPU API, for a private endpoint or the local emulator (e.g. `http://127.0.0.1:8089/`). Over plain `http://` with no explicit credential, no credentials are sent."},
	{attr: "container_endpoint", env: []string{"ACCEL_CONTAINER_ENDPOINT"},
		summary: "Base URL of the GKE API, for a private endpoint or the local emulator. Over plain `http://` with no explicit credential, no credentials are sent."},
	{attr: "compute_endpoint", env: []string{"ACCEL_COMPUTE_ENDPOINT"},
		summary: "Base URL of the Compute Engine API with its path (Google's is `https://compute.googleapis.com/compute/v1/`; the local emulator's is `http://127.0.0.1:8089/compute/v1/`). Plans use it to check live which zones offer a tier's machine type or GPU; without it (and without credentials) they use the catalog's zone lists and only warn. Over plain `http://` with no explicit credential, no credentials are sent."},
	{attr: "validation", env: []string{"ACCEL_VALIDATION"}, def: "strict",
		summary: "How catalog findings are reported: `strict` makes known-incompatible configurations errors; `warn` reports them as warnings, an escape hatch for hardware or software newer than the provider's catalog."},
	{attr: "poll_interval", env: []string{"ACCEL_POLL_INTERVAL"}, def: defaultPollInterval.String(),
		summary: "Longest wait between two polls of a long-running operation, as a Go duration. Polling starts quickly and grows to this cap."},
	{attr: "stockout_retry", env: []string{"ACCEL_STOCKOUT_RETRY"}, def: providerdata.StockoutRetryPlan,
		summary: "What a plan does with an `accel_fallback_nodepools` pool that GKE left in `ERROR` for lack of capacity: `" +
			providerdata.StockoutRetryPlan + "` re-creates it (the plan is not empty while the stockout lasts, and the apply " +
			"tries again); `" + providerdata.StockoutRetryHold + "` keeps it as it is and warns, so that a drift check's plan " +
			"(`terraform plan -detailed-exitcode`) stays empty for a known stockout while every other change still shows. " +
			"Only a stockout GKE reports on the pool is held, read live when the plan refreshes."},
}

func settingByAttr(attr string) setting {
	for _, s := range settings {
		if s.attr == attr {
			return s
		}
	}
	panic("provider: unknown setting " + attr) // programming error, covered by tests
}

func (s setting) description() string {
	var b strings.Builder
	b.WriteString(s.summary)
	if len(s.env) > 0 {
		b.WriteString(" Environment fallback: ")
		for i, e := range s.env {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "`%s`", e)
		}
		b.WriteString(" (first set wins).")
	}
	if s.def != "" {
		fmt.Fprintf(&b, " Default: `%s`.", s.def)
	}
	return b.String()
}

// picked is a setting's value and where it came from.
type picked struct {
	value   string
	source  string // "configuration", the environment variable name, "default" or ""
	unknown bool
}

// pickSetting applies the precedence explicit configuration > environment > default.
func pickSetting(v types.String, s setting, getenv func(string) string) picked {
	if v.IsUnknown() {
		return picked{unknown: true}
	}
	if !v.IsNull() && v.ValueString() != "" {
		return picked{value: v.ValueString(), source: "configuration"}
	}
	for _, e := range s.env {
		if val := getenv(e); val != "" {
			return picked{value: val, source: e}
		}
	}
	if s.def != "" {
		return picked{value: s.def, source: "default"}
	}
	return picked{}
}

func (p *accelProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "accel"
	resp.Version = p.version
}

func (p *accelProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	attr := func(name string, validators ...validator.String) schema.StringAttribute {
		s := settingByAttr(name)
		return schema.StringAttribute{
			Optional:            true,
			Sensitive:           s.secret,
			MarkdownDescription: s.description(),
			Validators:          validators,
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The accel provider validates Cloud TPU and GKE accelerator configurations at plan time, " +
			"offline, against a catalog of documented facts, and creates TPU VMs (with zone fallback on stockout) and " +
			"TPU-first, GPU-fallback GKE node pools. Every argument is optional; nothing needs credentials until an API call does.",
		Attributes: map[string]schema.Attribute{
			"project":                     attr("project"),
			"zone":                        attr("zone"),
			"credentials":                 attr("credentials"),
			"access_token":                attr("access_token"),
			"impersonate_service_account": attr("impersonate_service_account"),
			"tpu_endpoint":                attr("tpu_endpoint", endpointValidator{}),
			"container_endpoint":          attr("container_endpoint", endpointValidator{}),
			"compute_endpoint":            attr("compute_endpoint", endpointValidator{}),
			"validation":                  attr("validation", stringvalidator.OneOf(catalog.ModeNames...)),
			"poll_interval":               attr("poll_interval", durationValidator{}),
			"stockout_retry":              attr("stockout_retry", stringvalidator.OneOf(providerdata.StockoutRetries...)),
			"default_labels":              defaultLabelsAttribute(p.catalog),
		},
	}
}

func (p *accelProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m accelProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, diags := configure(m, os.Getenv, p.userAgent(req.TerraformVersion))
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := c.data
	setDefaultLabels(ctx, data, m.DefaultLabels, &resp.Diagnostics)
	if len(data.Unknown) > 0 {
		tflog.Debug(ctx, "provider arguments unknown until apply", map[string]any{"attributes": data.Unknown})
	}
	cfg := data.Clients.Config()
	tflog.Debug(ctx, "configured accel provider", map[string]any{
		"project": cfg.Project, "zone": cfg.Zone,
		"tpu_endpoint": cfg.TPUEndpoint, "container_endpoint": cfg.ContainerEndpoint, "compute_endpoint": cfg.ComputeEndpoint,
		"validation": c.mode.String(), "poll_max": cfg.Polling.Max.String(),
	})
	p.modes.Set(c.mode)
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.ListResourceData = data
}

// ValidateConfig records the provider-level validation mode so that resource
// validation, which Terraform runs before Configure, already honours it.
func (p *accelProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var v types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("validation"), &v)...)
	if resp.Diagnostics.HasError() || v.IsUnknown() {
		return
	}
	r := pickSetting(v, settingByAttr("validation"), os.Getenv)
	if mode, err := catalog.ParseMode(r.value); err == nil {
		p.modes.Set(mode)
	}
}

// configure resolves every setting and builds the provider data. It does no
// I/O: clients and credentials are built on first use.
func configure(m accelProviderModel, getenv func(string) string, userAgent string) (*configured, diag.Diagnostics) {
	var diags diag.Diagnostics
	values := map[string]types.String{
		"project": m.Project, "zone": m.Zone, "credentials": m.Credentials,
		"access_token": m.AccessToken, "impersonate_service_account": m.ImpersonateServiceAccount,
		"tpu_endpoint": m.TPUEndpoint, "container_endpoint": m.ContainerEndpoint, "compute_endpoint": m.ComputeEndpoint,
		"validation": m.Validation, "poll_interval": m.PollInterval, "stockout_retry": m.StockoutRetry,
	}
	got := map[string]string{}
	from := map[string]picked{}
	var unknown []string
	for _, s := range settings {
		r := pickSetting(values[s.attr], s, getenv)
		if r.unknown {
			unknown = append(unknown, s.attr)
			r = pickSetting(types.StringNull(), s, getenv)
		}
		got[s.attr] = r.value
		from[s.attr] = r
	}

	// One diagnostic per bad value, on the argument's path (Terraform shows
	// the provider block), naming the environment variable it came from.
	mode, err := catalog.ParseMode(got["validation"])
	if err != nil {
		diags.AddAttributeError(path.Root("validation"), "Invalid Validation Mode",
			badSetting(settingByAttr("validation"), from["validation"], "is not a validation mode",
				"one of "+strings.Join(catalog.ModeNames, ", ")))
	}
	poll, err := time.ParseDuration(got["poll_interval"])
	if err != nil || poll <= 0 {
		diags.AddAttributeError(path.Root("poll_interval"), "Invalid Poll Interval",
			badSetting(settingByAttr("poll_interval"), from["poll_interval"], "is not a positive Go duration",
				`a duration such as "10s" or "500ms"`))
	}
	if !slices.Contains(providerdata.StockoutRetries, got["stockout_retry"]) {
		diags.AddAttributeError(path.Root("stockout_retry"), "Invalid Stockout Retry",
			badSetting(settingByAttr("stockout_retry"), from["stockout_retry"], "is not a stockout retry mode",
				"one of "+strings.Join(providerdata.StockoutRetries, ", ")))
	}
	credential := got["access_token"] != "" || got["credentials"] != ""
	for _, attr := range []string{"tpu_endpoint", "container_endpoint", "compute_endpoint"} {
		switch v := got[attr]; {
		case v != "" && checkEndpoint(v) != "":
			diags.AddAttributeError(path.Root(attr), "Invalid Endpoint",
				badSetting(settingByAttr(attr), from[attr], "is not an absolute http:// or https:// URL",
					`a base URL such as "https://tpu.googleapis.com/" or "http://127.0.0.1:8089/"`))
		case credential && gcp.CleartextToRemote(v):
			// A credential goes over plain HTTP only to loopback.
			diags.AddAttributeError(path.Root(attr), "Credential Over Plain HTTP",
				badSetting(settingByAttr(attr), from[attr], "is a plain http:// endpoint on another host, and a credential "+
					"(credentials or access_token, or their environment variables) is configured, which would cross the "+
					"network in clear text", `an https:// URL, or a loopback address (127.0.0.1, ::1, localhost) for a local `+
					`emulator; or unset the credential`))
		}
	}
	if diags.HasError() {
		return nil, diags
	}

	cfg := gcp.Config{
		Project:                   got["project"],
		Zone:                      got["zone"],
		Credentials:               got["credentials"],
		AccessToken:               got["access_token"],
		ImpersonateServiceAccount: got["impersonate_service_account"],
		TPUEndpoint:               got["tpu_endpoint"],
		ContainerEndpoint:         got["container_endpoint"],
		ComputeEndpoint:           got["compute_endpoint"],
		UserAgent:                 userAgent,
		Polling:                   gcp.Polling{Max: poll}, // polling starts quickly and grows to the cap (see gcp.NewClients)
		Logger:                    slog.New(tflogHandler{}),
	}
	data := &providerdata.Data{Clients: gcp.NewClients(cfg), Unknown: unknown, HoldStockouts: got["stockout_retry"] == providerdata.StockoutRetryHold}
	return &configured{data: data, mode: mode}, diags
}

// configured is what configure resolves: the data every resource receives,
// and the provider-level validation mode, which reaches resources through
// the provider's Modes (see accelProvider.modes).
type configured struct {
	data *providerdata.Data
	mode catalog.Mode
}

// badSetting is the detail of an invalid setting: the value, where it came
// from, why it is rejected, and where to set what instead.
func badSetting(s setting, r picked, why, want string) string {
	if r.source == "configuration" || r.source == "default" || r.source == "" {
		return fmt.Sprintf("%s = %q %s. Set %s to %s.", s.attr, r.value, why, s.attr, want)
	}
	return fmt.Sprintf("The environment variable %s = %q %s. Set %s to %s, or unset it and set %s in the provider block.",
		r.source, r.value, why, r.source, want, s.attr)
}

func (p *accelProvider) userAgent(terraformVersion string) string {
	ua := fmt.Sprintf("terraform-provider-accel/%s (+https://%s)", p.version, strings.TrimPrefix(Address, "registry.terraform.io/"))
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua
}

func (p *accelProvider) Resources(_ context.Context) []func() resource.Resource {
	return resources(p.catalog, p.modes)
}

func (p *accelProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return dataSources(p.catalog, p.modes)
}

func (p *accelProvider) Functions(_ context.Context) []func() function.Function {
	return functions(p.catalog)
}

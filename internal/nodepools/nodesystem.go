// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// A tier's node system configuration: kubelet settings
// (NodeConfig.kubeletConfig) and Linux kernel settings
// (NodeConfig.linuxNodeConfig), with the google provider's names. Both are
// fields of nodePools.update: a change is made in place, and the apply
// sends the whole block, so a setting removed from it goes back to GKE's
// default. A block left out is GKE's, never compared. The rules are GKE's
// node system configuration page:
// https://cloud.google.com/kubernetes-engine/docs/how-to/node-system-config

const nodeSystemSource = "https://cloud.google.com/kubernetes-engine/docs/how-to/node-system-config"

var (
	cpuManagerPolicies = []string{"none", "static"}
	cgroupModes        = []string{"CGROUP_MODE_V1", "CGROUP_MODE_V2"}
)

// kubeletModel is kubelet_config.
type kubeletModel struct {
	CPUManagerPolicy   types.String `tfsdk:"cpu_manager_policy"`
	CPUCFSQuota        types.Bool   `tfsdk:"cpu_cfs_quota"`
	CPUCFSQuotaPeriod  types.String `tfsdk:"cpu_cfs_quota_period"`
	PodPidsLimit       types.Int64  `tfsdk:"pod_pids_limit"`
	ImageGCLowPercent  types.Int64  `tfsdk:"image_gc_low_threshold_percent"`
	ImageGCHighPercent types.Int64  `tfsdk:"image_gc_high_threshold_percent"`
	ContainerLogFiles  types.Int64  `tfsdk:"container_log_max_files"`
}

// linuxModel is linux_node_config.
type linuxModel struct {
	Sysctls    types.Map    `tfsdk:"sysctls"`
	CgroupMode types.String `tfsdk:"cgroup_mode"`
	Huge2M     types.Int64  `tfsdk:"hugepage_size_2m"`
	Huge1G     types.Int64  `tfsdk:"hugepage_size_1g"`
}

// nodeSystemBlocks are the schema blocks.
func nodeSystemBlocks() map[string]schema.Block {
	return map[string]schema.Block{
		"kubelet_config": schema.SingleNestedBlock{
			MarkdownDescription: "Kubelet settings of the nodes (GKE's `kubeletConfig`, the google provider's " +
				"`node_config.kubelet_config`), such as the static CPU manager a latency-sensitive server needs. The apply sends " +
				"the whole block: a setting removed from it goes back to GKE's default. Without the block, GKE's defaults, " +
				"never compared. Updated in place.",
			Attributes: map[string]schema.Attribute{
				"cpu_manager_policy": schema.StringAttribute{Optional: true,
					MarkdownDescription: "`static` gives Guaranteed pods with integer CPU requests exclusive CPUs; `none` is the " +
						"default. One of " + schemadoc.Codes(cpuManagerPolicies) + ".",
					Validators: []validator.String{stringvalidator.OneOf(cpuManagerPolicies...)}},
				"cpu_cfs_quota": schema.BoolAttribute{Optional: true,
					MarkdownDescription: "Whether CPU limits are enforced (CFS quota); `false` ignores them."},
				"cpu_cfs_quota_period": schema.StringAttribute{Optional: true,
					MarkdownDescription: "The CFS quota period, as a duration such as `100ms` (the default).",
					Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}},
				"pod_pids_limit": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Maximum process IDs per pod."},
				"image_gc_low_threshold_percent": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Disk usage, in percent, below which image garbage collection never runs (GKE's default " +
						"80); less than `image_gc_high_threshold_percent`.",
					Validators: []validator.Int64{int64validator.Between(0, 100)}},
				"image_gc_high_threshold_percent": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Disk usage, in percent, above which image garbage collection runs (GKE's default 85).",
					Validators:          []validator.Int64{int64validator.Between(0, 100)}},
				"container_log_max_files": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Log files kept per container, 2 to 10 (GKE's default 5).",
					Validators:          []validator.Int64{int64validator.Between(2, 10)}},
			},
		},
		"linux_node_config": schema.SingleNestedBlock{
			MarkdownDescription: "Linux kernel settings of the nodes (GKE's `linuxNodeConfig`, the google provider's " +
				"`node_config.linux_node_config`). The apply sends the whole block. Without the block, GKE's defaults, never " +
				"compared. Updated in place.",
			Attributes: map[string]schema.Attribute{
				"sysctls": schema.MapAttribute{Optional: true, ElementType: types.StringType,
					MarkdownDescription: "Kernel parameters by name, such as `net.core.somaxconn = \"4096\"`. GKE takes the " +
						"parameters its node system configuration page lists and refuses others when the pool is created or updated.",
					Validators: []validator.Map{mapvalidator.SizeAtLeast(1), mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1))}},
				"cgroup_mode": schema.StringAttribute{Optional: true,
					MarkdownDescription: "The cgroup version of the nodes, one of " + schemadoc.Codes(cgroupModes) + ".",
					Validators:          []validator.String{stringvalidator.OneOf(cgroupModes...)}},
				"hugepage_size_2m": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "2 MiB huge pages to reserve on each node (the google provider's " +
						"`hugepages_config.hugepage_size_2m`). GKE refuses more than its page allows for the machine.",
					Validators: []validator.Int64{int64validator.AtLeast(0)}},
				"hugepage_size_1g": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "1 GiB huge pages to reserve on each node (`hugepages_config.hugepage_size_1g`).",
					Validators:          []validator.Int64{int64validator.AtLeast(0)}},
			},
		},
	}
}

// nodeSystem is the two blocks as Go values; a nil block is left to GKE,
// and within a block a nil or "" setting is left out.
type nodeSystem struct {
	Kubelet *kubelet
	Linux   *linuxConfig
}

type kubelet struct {
	CPUManagerPolicy   string
	CPUCFSQuota        *bool
	CPUCFSQuotaPeriod  string
	PodPidsLimit       *int64
	ImageGCLowPercent  *int64
	ImageGCHighPercent *int64
	ContainerLogFiles  *int64
}

type linuxConfig struct {
	Sysctls        map[string]string
	CgroupMode     string
	Huge2M, Huge1G *int64
}

// nodeSystemOf reads the blocks; known is false when a value is unknown.
func nodeSystemOf(ctx context.Context, k, l types.Object, diags *diag.Diagnostics) (nodeSystem, bool) {
	var out nodeSystem
	known := tfmodel.WhollyKnown(k) && tfmodel.WhollyKnown(l)
	if tfmodel.Known(k) && !k.IsNull() {
		var m kubeletModel
		diags.Append(tfmodel.As(ctx, k, &m, tfmodel.ObjectAsOptions)...)
		out.Kubelet = &kubelet{CPUManagerPolicy: m.CPUManagerPolicy.ValueString(), CPUCFSQuota: tfmodel.BoolPtr(m.CPUCFSQuota),
			CPUCFSQuotaPeriod: m.CPUCFSQuotaPeriod.ValueString(), PodPidsLimit: tfmodel.Int64Ptr(m.PodPidsLimit),
			ImageGCLowPercent: tfmodel.Int64Ptr(m.ImageGCLowPercent), ImageGCHighPercent: tfmodel.Int64Ptr(m.ImageGCHighPercent),
			ContainerLogFiles: tfmodel.Int64Ptr(m.ContainerLogFiles)}
	}
	if tfmodel.Known(l) && !l.IsNull() {
		var m linuxModel
		diags.Append(tfmodel.As(ctx, l, &m, tfmodel.ObjectAsOptions)...)
		out.Linux = &linuxConfig{Sysctls: tfmodel.KnownStringMap(m.Sysctls), CgroupMode: m.CgroupMode.ValueString(),
			Huge2M: tfmodel.Int64Ptr(m.Huge2M), Huge1G: tfmodel.Int64Ptr(m.Huge1G)}
	}
	return out, known
}

// nodeSystemFindings checks what GKE's page documents beyond each value's
// own form: the CFS quota period is a duration, and the low image GC
// threshold is below the high one.
func nodeSystemFindings(s nodeSystem) catalog.Findings {
	k := s.Kubelet
	if k == nil {
		return nil
	}
	var fs catalog.Findings
	if p := k.CPUCFSQuotaPeriod; p != "" {
		if _, err := time.ParseDuration(p); err != nil {
			fs = append(fs, tierFinding("kubelet_config", p, "Invalid CPU CFS Quota Period",
				fmt.Sprintf("kubelet_config.cpu_cfs_quota_period = %q is not a duration; GKE takes one such as \"100ms\" (its default), "+
					"with the units ns, us, ms, s, m or h.", p), nodeSystemSource))
		}
	}
	if lo, hi := k.ImageGCLowPercent, k.ImageGCHighPercent; lo != nil && hi != nil && *lo >= *hi {
		fs = append(fs, tierFinding("kubelet_config", fmt.Sprint(*lo), "Image GC Thresholds Out of Order",
			fmt.Sprintf("kubelet_config.image_gc_low_threshold_percent (%d) must be less than image_gc_high_threshold_percent (%d), "+
				"as GKE's node system configuration requires.", *lo, *hi), nodeSystemSource))
	}
	for i := range fs {
		fs[i].Basis = catalog.BasisRule
	}
	return fs
}

// kubeletAPI is k as GKE's NodeKubeletConfig, with every setting k sets sent.
func (k *kubelet) api() *container.NodeKubeletConfig {
	out := &container.NodeKubeletConfig{CpuManagerPolicy: k.CPUManagerPolicy, CpuCfsQuotaPeriod: k.CPUCFSQuotaPeriod}
	if v := k.CPUCFSQuota; v != nil {
		out.CpuCfsQuota, out.ForceSendFields = *v, append(out.ForceSendFields, "CpuCfsQuota")
	}
	out.PodPidsLimit = valueOr(k.PodPidsLimit, 0)
	out.ImageGcLowThresholdPercent = valueOr(k.ImageGCLowPercent, 0)
	out.ImageGcHighThresholdPercent = valueOr(k.ImageGCHighPercent, 0)
	out.ContainerLogMaxFiles = valueOr(k.ContainerLogFiles, 0)
	return out
}

func (l *linuxConfig) api() *container.LinuxNodeConfig {
	out := &container.LinuxNodeConfig{Sysctls: maps.Clone(l.Sysctls), CgroupMode: l.CgroupMode}
	if l.Huge2M != nil || l.Huge1G != nil {
		out.Hugepages = &container.HugepagesConfig{HugepageSize2m: valueOr(l.Huge2M, 0), HugepageSize1g: valueOr(l.Huge1G, 0)}
	}
	return out
}

// writeTo sets the blocks on a create request's node pool.
func (s nodeSystem) writeTo(cfg *container.NodeConfig) {
	if s.Kubelet != nil {
		cfg.KubeletConfig = s.Kubelet.api()
	}
	if s.Linux != nil {
		cfg.LinuxNodeConfig = s.Linux.api()
	}
}

// nodeSystemOfPool reads what GKE reports; a block GKE does not report is
// nil.
func nodeSystemOfPool(cfg *container.NodeConfig) nodeSystem {
	var out nodeSystem
	if k := cfg.KubeletConfig; k != nil {
		quota := k.CpuCfsQuota
		out.Kubelet = &kubelet{CPUManagerPolicy: k.CpuManagerPolicy, CPUCFSQuota: &quota, CPUCFSQuotaPeriod: k.CpuCfsQuotaPeriod,
			PodPidsLimit: nonZero(k.PodPidsLimit), ImageGCLowPercent: nonZero(k.ImageGcLowThresholdPercent),
			ImageGCHighPercent: nonZero(k.ImageGcHighThresholdPercent), ContainerLogFiles: nonZero(k.ContainerLogMaxFiles)}
	}
	if l := cfg.LinuxNodeConfig; l != nil {
		mode := l.CgroupMode
		if mode == "CGROUP_MODE_UNSPECIFIED" {
			mode = ""
		}
		out.Linux = &linuxConfig{Sysctls: maps.Clone(l.Sysctls), CgroupMode: mode}
		if h := l.Hugepages; h != nil {
			out.Linux.Huge2M, out.Linux.Huge1G = &h.HugepageSize2m, &h.HugepageSize1g
		}
	}
	return out
}

func nonZero(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}

// kubeletMatches reports whether the pool's kubelet settings (got) are
// what want sets; settings want leaves out are not compared.
func kubeletMatches(want, got *kubelet) bool {
	if want == nil {
		return true
	}
	if got == nil {
		got = &kubelet{}
	}
	return (want.CPUManagerPolicy == "" || want.CPUManagerPolicy == got.CPUManagerPolicy) &&
		setOrEqual(want.CPUCFSQuota, got.CPUCFSQuota) &&
		(want.CPUCFSQuotaPeriod == "" || want.CPUCFSQuotaPeriod == got.CPUCFSQuotaPeriod) &&
		setOrEqual(want.PodPidsLimit, got.PodPidsLimit) && setOrEqual(want.ImageGCLowPercent, got.ImageGCLowPercent) &&
		setOrEqual(want.ImageGCHighPercent, got.ImageGCHighPercent) && setOrEqual(want.ContainerLogFiles, got.ContainerLogFiles)
}

func linuxMatches(want, got *linuxConfig) bool {
	if want == nil {
		return true
	}
	if got == nil {
		got = &linuxConfig{}
	}
	return (want.Sysctls == nil || maps.Equal(want.Sysctls, got.Sysctls)) && (want.CgroupMode == "" || want.CgroupMode == got.CgroupMode) &&
		(want.Huge2M == nil || *want.Huge2M == valueOr(got.Huge2M, 0)) && (want.Huge1G == nil || *want.Huge1G == valueOr(got.Huge1G, 0))
}

// updateTo adds to req the blocks that differ from was.
func (s nodeSystem) updateTo(req *container.UpdateNodePoolRequest, was nodeSystem) {
	if !kubeletMatches(s.Kubelet, was.Kubelet) {
		req.KubeletConfig = s.Kubelet.api()
	}
	if !linuxMatches(s.Linux, was.Linux) {
		req.LinuxNodeConfig = s.Linux.api()
	}
}

// nodeSystemModels converts the blocks GKE reports (got) to values for a
// tier whose prior blocks are priorKubelet and priorLinux: a block prior
// leaves out stays null, and so does a setting; an import keeps every
// setting GKE reports but its defaults.
func nodeSystemModels(got nodeSystem, priorKubelet, priorLinux types.Object, importing bool) (types.Object, types.Object) {
	return kubeletValue(got.Kubelet, priorKubelet, importing), linuxValue(got.Linux, priorLinux, importing)
}

// kept returns whether setting name of a block recorded as prior keeps
// what GKE reports: on import, or when prior sets it.
func kept(prior types.Object, name string, importing bool) bool {
	if importing {
		return true
	}
	if !tfmodel.Known(prior) || prior.IsNull() {
		return false
	}
	v, ok := prior.Attributes()[name]
	return ok && !v.IsNull()
}

func kubeletValue(g *kubelet, prior types.Object, importing bool) types.Object {
	if g == nil || (!importing && (!tfmodel.Known(prior) || prior.IsNull())) {
		return types.ObjectNull(schemaTypes().kubelet.AttrTypes)
	}
	str := func(name, v string) attr.Value {
		if !kept(prior, name, importing) || v == "" {
			return types.StringNull()
		}
		return types.StringValue(v)
	}
	num := func(name string, v *int64) attr.Value {
		if !kept(prior, name, importing) {
			return types.Int64Null()
		}
		return types.Int64PointerValue(v)
	}
	quota := types.BoolNull() // GKE reports its default on every pool: an import leaves it out
	if !importing && kept(prior, "cpu_cfs_quota", false) {
		quota = types.BoolPointerValue(g.CPUCFSQuota)
	}
	k := types.ObjectValueMust(schemaTypes().kubelet.AttrTypes, map[string]attr.Value{
		"cpu_manager_policy": str("cpu_manager_policy", g.CPUManagerPolicy), "cpu_cfs_quota": quota,
		"cpu_cfs_quota_period": str("cpu_cfs_quota_period", g.CPUCFSQuotaPeriod), "pod_pids_limit": num("pod_pids_limit", g.PodPidsLimit),
		"image_gc_low_threshold_percent":  num("image_gc_low_threshold_percent", g.ImageGCLowPercent),
		"image_gc_high_threshold_percent": num("image_gc_high_threshold_percent", g.ImageGCHighPercent),
		"container_log_max_files":         num("container_log_max_files", g.ContainerLogFiles),
	})
	if importing && allNull(k) {
		return types.ObjectNull(schemaTypes().kubelet.AttrTypes)
	}
	return k
}

func linuxValue(g *linuxConfig, prior types.Object, importing bool) types.Object {
	if g == nil || (!importing && (!tfmodel.Known(prior) || prior.IsNull())) {
		return types.ObjectNull(schemaTypes().linux.AttrTypes)
	}
	sysctls := types.MapNull(types.StringType)
	if kept(prior, "sysctls", importing) && (len(g.Sysctls) > 0 || !importing) {
		sysctls = tfmodel.StringMapOrEmpty(g.Sysctls)
	}
	mode := types.StringNull()
	if kept(prior, "cgroup_mode", importing) && g.CgroupMode != "" {
		mode = types.StringValue(g.CgroupMode)
	}
	huge := func(name string, v *int64) attr.Value {
		if !kept(prior, name, importing) || (importing && valueOr(v, 0) == 0) {
			return types.Int64Null()
		}
		return types.Int64Value(valueOr(v, 0))
	}
	l := types.ObjectValueMust(schemaTypes().linux.AttrTypes, map[string]attr.Value{"sysctls": sysctls, "cgroup_mode": mode,
		"hugepage_size_2m": huge("hugepage_size_2m", g.Huge2M), "hugepage_size_1g": huge("hugepage_size_1g", g.Huge1G)})
	if importing && allNull(l) {
		return types.ObjectNull(schemaTypes().linux.AttrTypes)
	}
	return l
}

// allNull reports whether every attribute of o is null.
func allNull(o types.Object) bool {
	for _, v := range o.Attributes() {
		if !v.IsNull() {
			return false
		}
	}
	return true
}

// containerd_config: containerd's access to private registries whose
// certificates a private CA signed (GKE's containerdConfig
// .privateRegistryAccessConfig), with the google provider's shape. A field
// of nodePools.update: changed in place; the apply sends the whole block.
// https://cloud.google.com/kubernetes-engine/docs/how-to/access-private-registries-private-certificates

const containerdSource = "https://cloud.google.com/kubernetes-engine/docs/how-to/access-private-registries-private-certificates"

// secretVersionRE is a Secret Manager secret version, as GKE takes the CA
// certificate: projects/PROJECT/secrets/SECRET/versions/VERSION.
var secretVersionRE = regexp.MustCompile(`^projects/[^/]+/secrets/[^/]+/versions/[^/]+$`)

// containerdBlock is containerd_config.
func containerdBlock() schema.Block {
	return schema.SingleNestedBlock{
		MarkdownDescription: "containerd settings (GKE's `containerdConfig`): access to private registries whose " +
			"certificates a private certificate authority signed. The apply sends the whole block. Without it, GKE's " +
			"defaults, never compared. Updated in place.",
		Blocks: map[string]schema.Block{
			"private_registry_access_config": schema.SingleNestedBlock{
				MarkdownDescription: "Private registry access.",
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{Optional: true, MarkdownDescription: "Required. Whether containerd trusts the CAs below."},
				},
				Blocks: map[string]schema.Block{
					"certificate_authority_domain_config": schema.ListNestedBlock{
						MarkdownDescription: "A CA certificate and the registries it signs for.",
						NestedObject: schema.NestedBlockObject{
							Attributes: map[string]schema.Attribute{
								"fqdns": schema.ListAttribute{Optional: true, ElementType: types.StringType,
									MarkdownDescription: "Required. The registries' domain names or IP addresses, with a port if any.",
									Validators:          nonEmptyStrings()},
							},
							Blocks: map[string]schema.Block{
								"gcp_secret_manager_certificate_config": schema.SingleNestedBlock{
									MarkdownDescription: "Required. Where the CA certificate is.",
									Attributes: map[string]schema.Attribute{
										"secret_uri": schema.StringAttribute{Optional: true,
											MarkdownDescription: "Required. The Secret Manager secret version that holds the certificate, " +
												"`projects/PROJECT/secrets/SECRET/versions/VERSION`.",
											Validators: []validator.String{stringvalidator.RegexMatches(secretVersionRE,
												"must be a Secret Manager secret version: projects/PROJECT/secrets/SECRET/versions/VERSION")}},
									},
									Validators: requiredInElement("secret_uri"),
								},
							},
							Validators: requiredInElement("fqdns"),
						},
					},
				},
				Validators: requiredInElement("enabled"),
			},
		},
	}
}

// containerd is containerd_config as Go values; nil is left to GKE.
type containerd struct {
	// Access is whether private_registry_access_config is set.
	Access  bool
	Enabled bool
	CAs     []caDomain
}

type caDomain struct {
	FQDNs     []string
	SecretURI string
}

type containerdModel struct {
	PrivateRegistryAccess types.Object `tfsdk:"private_registry_access_config"`
}

type registryAccessModel struct {
	Enabled types.Bool `tfsdk:"enabled"`
	CAs     types.List `tfsdk:"certificate_authority_domain_config"`
}

type caDomainModel struct {
	FQDNs  types.List   `tfsdk:"fqdns"`
	Secret types.Object `tfsdk:"gcp_secret_manager_certificate_config"`
}

// containerdOf reads the block; nil when null or unknown.
func containerdOf(ctx context.Context, o types.Object, diags *diag.Diagnostics) *containerd {
	if !tfmodel.Known(o) || o.IsNull() {
		return nil
	}
	var m containerdModel
	diags.Append(tfmodel.As(ctx, o, &m, tfmodel.ObjectAsOptions)...)
	out := &containerd{}
	if !tfmodel.Known(m.PrivateRegistryAccess) || m.PrivateRegistryAccess.IsNull() {
		return out
	}
	var r registryAccessModel
	diags.Append(tfmodel.As(ctx, m.PrivateRegistryAccess, &r, tfmodel.ObjectAsOptions)...)
	out.Access, out.Enabled = true, r.Enabled.ValueBool()
	var cas []caDomainModel
	if tfmodel.Known(r.CAs) {
		diags.Append(tfmodel.ElementsAs(ctx, r.CAs, &cas)...)
	}
	for _, c := range cas {
		d := caDomain{FQDNs: tfmodel.KnownStrings(c.FQDNs)}
		if tfmodel.Known(c.Secret) && !c.Secret.IsNull() {
			if v, ok := c.Secret.Attributes()["secret_uri"].(types.String); ok {
				d.SecretURI = v.ValueString()
			}
		}
		out.CAs = append(out.CAs, d)
	}
	return out
}

func (c *containerd) api() *container.ContainerdConfig {
	if !c.Access {
		return &container.ContainerdConfig{}
	}
	p := &container.PrivateRegistryAccessConfig{Enabled: c.Enabled, ForceSendFields: []string{"Enabled"}}
	for _, d := range c.CAs {
		p.CertificateAuthorityDomainConfig = append(p.CertificateAuthorityDomainConfig, &container.CertificateAuthorityDomainConfig{
			Fqdns: slices.Clone(d.FQDNs), GcpSecretManagerCertificateConfig: &container.GCPSecretManagerCertificateConfig{SecretUri: d.SecretURI},
		})
	}
	return &container.ContainerdConfig{PrivateRegistryAccessConfig: p}
}

// containerdOfPool reads what GKE reports; nil without private registry
// access.
func containerdOfPool(cfg *container.NodeConfig) *containerd {
	if cfg.ContainerdConfig == nil || cfg.ContainerdConfig.PrivateRegistryAccessConfig == nil {
		return nil
	}
	p := cfg.ContainerdConfig.PrivateRegistryAccessConfig
	out := &containerd{Access: true, Enabled: p.Enabled}
	for _, d := range p.CertificateAuthorityDomainConfig {
		if d == nil {
			continue
		}
		c := caDomain{FQDNs: slices.Clone(d.Fqdns)}
		if s := d.GcpSecretManagerCertificateConfig; s != nil {
			c.SecretURI = s.SecretUri
		}
		out.CAs = append(out.CAs, c)
	}
	return out
}

// containerdMatches reports whether got is what want sets.
func containerdMatches(want, got *containerd) bool {
	if want == nil {
		return true
	}
	if got == nil {
		got = &containerd{}
	}
	if !want.Access {
		return true
	}
	return want.Enabled == got.Enabled && slices.EqualFunc(want.CAs, got.CAs, func(a, b caDomain) bool {
		return a.SecretURI == b.SecretURI && slices.Equal(a.FQDNs, b.FQDNs)
	})
}

// containerdValue converts what GKE reports to the block's value: null
// when prior is (an import records private registry access GKE reports).
func containerdValue(got *containerd, prior types.Object, importing bool) types.Object {
	if !importing && tfmodel.Known(prior) && !prior.IsNull() {
		if a, ok := prior.Attributes()["private_registry_access_config"]; ok && a.IsNull() {
			return prior // the block sets nothing to compare
		}
	}
	if got == nil || (!importing && (!tfmodel.Known(prior) || prior.IsNull())) {
		return types.ObjectNull(schemaTypes().containerd.AttrTypes)
	}
	cas := make([]attr.Value, len(got.CAs))
	for i, d := range got.CAs {
		cas[i] = types.ObjectValueMust(schemaTypes().caDomain.AttrTypes, map[string]attr.Value{
			"fqdns": tfmodel.StringListOrEmpty(d.FQDNs),
			"gcp_secret_manager_certificate_config": types.ObjectValueMust(schemaTypes().secretConfig.AttrTypes,
				map[string]attr.Value{"secret_uri": types.StringValue(d.SecretURI)}),
		})
	}
	access := types.ObjectValueMust(schemaTypes().registryAccess.AttrTypes, map[string]attr.Value{
		"enabled": types.BoolValue(got.Enabled), "certificate_authority_domain_config": types.ListValueMust(schemaTypes().caDomain, cas),
	})
	return types.ObjectValueMust(schemaTypes().containerd.AttrTypes, map[string]attr.Value{"private_registry_access_config": access})
}

// containerdFindings: GKE's guide pairs private registry access with CAs;
// enabled with none is a warning.
func containerdFindings(c *containerd) catalog.Findings {
	if c == nil || !c.Enabled || len(c.CAs) > 0 {
		return nil
	}
	f := tierFinding("containerd_config", "", "Private Registry Access Without a Certificate",
		"containerd_config.private_registry_access_config is enabled with no certificate_authority_domain_config: containerd "+
			"trusts no private CA. Add the CA's Secret Manager secret version and the registries it signs for.", containerdSource)
	f.Severity = catalog.SeverityWarning
	return catalog.Findings{f}
}

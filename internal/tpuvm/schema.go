// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/schemadoc"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// Default timeouts. Creation covers every zone of the fallback list, so it
// is longer than the Google provider's 20 minutes per TPU VM operation
// (magic-modules mmv1/products/tpuv2/Vm.yaml).
const (
	defaultCreateTimeout = 30 * time.Minute
	defaultUpdateTimeout = 20 * time.Minute
	defaultDeleteTimeout = 20 * time.Minute
)

// ownerLabelKey is the ownership label (package ownership): every TPU VM
// this resource creates carries it with the resource's owner id.
const ownerLabelKey = ownership.LabelKey

// Disk modes of data_disks, from the v2 REST reference (AttachedDisk.mode).
var diskModes = []string{"READ_WRITE", "READ_ONLY"}

// maxDescriptionLength is the API's limit on Node.description ("Maximum of
// 512 characters", v2 REST reference).
const maxDescriptionLength = 512

// nameRE is the TPU node name rule: an RFC 1035 label of 1 to 63 characters,
// as for Compute Engine resources
// (https://cloud.google.com/compute/docs/naming-resources#resource-name-format).
var nameRE = regexp.MustCompile(`^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$`)

// PubSubScope is added to a TPU VM's service account scopes by the API on
// its own; it is ignored when comparing scopes (the Google provider's
// tpuServiceAccountAddedScopesSuppress does the same).
const pubSubScope = "https://www.googleapis.com/auth/pubsub"

func (r *vmResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) { //nolint:funlen // a schema literal
	cat := r.catalog
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Cloud TPU VM (Cloud TPU API v2), validated at plan time against the provider's " +
			"compatibility catalog and created in the first zone of `zones` that has capacity.\n\n" +
			"Before anything is created, the plan checks that the runtime version, accelerator generation, slice size " +
			"and framework fit together, and that every zone in `zones` offers the generation. When the runtime " +
			"version is omitted it is chosen from the catalog and shown in the plan.\n\n" +
			"On a stockout (`RESOURCE_EXHAUSTED`, no more capacity in the zone) the VM is tried in the next zone, " +
			"within the create timeout; a failed VM left in a stocked-out zone is deleted first. Every VM this " +
			"resource creates carries the label `" + ownerLabelKey + "` with a random owner id drawn when it is created " +
			"(shown in `effective_labels`). The resource only ever changes or deletes the VM that carries its own owner id " +
			"(or that was imported): a VM of the same name created by anyone else, or by another state, is an error and is " +
			"never recorded, changed or deleted. An apply interrupted with Ctrl-C records the VM as it is; one that was " +
			"killed before it could record the VM leaves a VM that the next apply refuses with its import id (and that the next " +
			"plan reports when it can reach the Cloud TPU API, if zones was edited to leave its zone out).\n\n" +
			"TPU7x, which Google's Cloud TPU API pages do not support, is created through Compute Engine as an instance " +
			"with a TPU machine type (`api = \"compute_engine\"`, the default for TPU7x; also available for single-host v6e " +
			"and v5p). Multi-host TPU7x slices need GKE: use `accel_fallback_nodepools`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The TPU VM's resource name: `projects/{project}/locations/{zone}/nodes/{name}` for a VM of the " +
					"Cloud TPU API, `projects/{project}/zones/{zone}/instances/{name}` for one created through Compute Engine.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the TPU VM: 1 to 63 lowercase letters, digits and hyphens, starting with a " +
					"letter and not ending with a hyphen. Changing it replaces the VM.",
				Validators: []validator.String{stringvalidator.RegexMatches(nameRE,
					"must be 1 to 63 lowercase letters, digits and hyphens, start with a letter and not end with a hyphen")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"project": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Project ID. Default: the provider's `project`. Changing it replaces the VM; a change " +
					"of the provider's default alone does not.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"zones": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				MarkdownDescription: "Zones to create the VM in, in order of preference. The VM is created in the first " +
					"zone with capacity; on a stockout the next zone is tried, within the create timeout. Every zone " +
					"must offer the accelerator's generation (checked at plan time). Default: the provider's `zone` when the VM is created. " +
					"Changing the list does not replace a VM whose `zone` is still listed; removing its zone replaces it. A list known " +
					"only at apply (computed from another resource) is planned as an in-place change, never a replacement; if, once " +
					"known, it no longer lists the VM's zone, Terraform stops that apply before any change with \"Provider produced " +
					"inconsistent final plan\" (a provider cannot turn an update into a replacement after the plan), and the next " +
					"plan, with the value known, shows the replacement.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
				PlanModifiers: []planmodifier.List{zonesPlanModifier{}},
			},
			"zone": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The zone the VM was created in: one of `zones`. Known at plan time when `zones` has " +
					"a single element.",
			},
			"accelerator_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "TPU type as the Cloud TPU API names it, `<generation>-<size>`, for example " +
					"`v5litepod-4`, `v6e-8` or `v5p-16`. There is no default. Documented types: " +
					schemadoc.Codes(tpuAPIAcceleratorTypes(cat)) + ". Changing it replaces the VM.",
				Validators:    []validator.String{validation.NotEmpty(cat.AcceleratorTypeHint())},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"api": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "The API that creates the VM: `cloud_tpu` (a Cloud TPU node) or `compute_engine` (a Compute " +
					"Engine instance with a TPU machine type, single-host shapes of the generations Compute Engine offers). " +
					"Default: `compute_engine` for TPU7x, which Google's Cloud TPU API pages do not support, else `cloud_tpu`. " +
					"With `compute_engine`, `runtime_version` is the boot image (default: the catalog's image for the generation), " +
					"queued resources (`capacity`, `slice_count`), `cidr_block` and `scheduling_config.reserved` are refused at plan " +
					"time, and changing `description` or `network_config.enable_external_ips` replaces the VM. Changing `api` replaces the VM.",
				Validators: []validator.String{stringvalidator.OneOf(apiCloudTPU, apiComputeEngine)},
			},
			"runtime_version": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "TPU software version, for example `v2-alpha-tpuv6e` or `tpu-vm-tf-2.18.0-pjrt`. " +
					"Checked at plan time against the generation and `framework`. When omitted, the catalog's choice for " +
					"the generation and `framework` is used and shown in the plan; once the VM exists it is kept until " +
					"`accelerator_type` changes or `framework` or `framework_version` is set to another value. Changing the value replaces the VM.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{runtimeVersionPlanModifier{}},
			},
			"framework": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "ML framework the VM will run, used to choose and check `runtime_version`. One of " +
					schemadoc.Codes(frameworkNames(cat)) + ". Not sent to the API; changing it replaces the VM only if the " +
					"chosen runtime version changes. When omitted, the framework the runtime version implies " +
					"(`tensorflow` for a `tpu-vm-tf-*` runtime), else null, so that a VM imported from the API reads back " +
					"the same value; once the VM exists, omitting it keeps the value in state. Checked by the catalog, with a " +
					"did-you-mean.",
				Validators: []validator.String{validation.NotEmpty("Set framework to one of " + strings.Join(frameworkNames(cat), ", ") +
					", or leave it out for the generation's base image.")},
				PlanModifiers: []planmodifier.String{keepWhenOmittedPlanModifier{}},
			},
			"framework_version": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Version of `framework`, for example `2.18.0` for TensorFlow (which selects the " +
					"`tpu-vm-tf-<version>` runtime) or `2.8.0` for PyTorch/XLA (checked against the generation's minimum). " +
					"Checked only together with `framework`. Not sent to the API. When omitted, the version the runtime " +
					"version implies (`2.18.0` for `tpu-vm-tf-2.18.0-pjrt`), else null; once the VM exists, omitting it keeps " +
					"the value in state.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{keepWhenOmittedPlanModifier{}},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: fmt.Sprintf("Free-text description, at most %d characters. Updated in place.", maxDescriptionLength),
				Validators:          []validator.String{stringvalidator.LengthAtMost(maxDescriptionLength)},
			},
			"labels": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Labels managed by this configuration. " + cat.LabelRules() + " Non-authoritative: " +
					"labels added outside Terraform are kept and shown in `effective_labels`. The provider's `default_labels` " +
					"apply too, a key set here winning (see `terraform_labels`). The key `" + ownerLabelKey +
					"` is reserved; it and `default_labels` count toward the limit. Updated in place.",
			},
			"terraform_labels": schema.MapAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "The labels this configuration manages on the VM: the provider's `default_labels` merged " +
					"with `labels`, whose value wins for a key set in both. A change of `default_labels` updates the VM in place.",
			},
			"effective_labels": schema.MapAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "Every label on the VM: `labels`, the ownership label `" + ownerLabelKey + "` (this " +
					"resource's owner id, known once the VM is created), and labels added outside Terraform.",
			},
			"metadata": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Metadata for the TPU workers, for example `startup-script`. Non-authoritative: keys " +
					"added outside Terraform (such as `ssh-keys` added by `gcloud`) are kept. Updated in place. Not marked " +
					"sensitive, as in the google provider's TPU and Compute Engine resources: metadata is readable by anyone " +
					"who can read the VM, so keep secrets out of it (read them at boot from Secret Manager), and pass any value " +
					"that must stay out of plan output through a `sensitive` variable, whose redaction Terraform keeps.",
			},
			"tags": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Network tags, used by firewall rules. Updated in place.",
				Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"cidr_block": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "IPv4 CIDR block the VM takes its internal IP from, such as `10.0.0.8/29`: a `/29` " +
					"(the size the v2 REST reference asks for) or a larger block, as the API reports for a VM created " +
					"without one (the subnetwork's range). Default: chosen by the API. Changing it replaces the VM.",
				Validators: []validator.String{cidrBlockValidator{}},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIfConfigured(),
				},
			},
			"validation": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How catalog findings for this VM are reported, one of " + schemadoc.Codes(modeNames()) +
					": `strict` makes known-incompatible settings errors, `warn` reports them as warnings. " +
					"Default: the provider's `validation`.",
				Validators: []validator.String{stringvalidator.OneOf(modeNames()...)},
			},
			"state": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "TPU node state, for example `READY`, `CREATING`, `STOPPED` or `PREEMPTED`. A VM in a failed state (" + schemadoc.Codes(replaceStates) + ") is replaced by the next apply. For a VM created " +
					"through Compute Engine it is the instance's status, and only a Spot or preemptible instance that is `TERMINATED` " +
					"(preempted) is replaced: a stopped on-demand instance (`TERMINATED` after `gcloud compute instances stop`) is kept.",
			},
			"health": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "TPU node health, for example `HEALTHY`; empty while the VM is created.",
			},
			"health_description": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Why the VM is unhealthy, when it is.",
			},
			"network_endpoints": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "One endpoint per TPU worker (host), worker 0 first.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"ip_address":  schema.StringAttribute{Computed: true, MarkdownDescription: "Internal IP address."},
						"external_ip": schema.StringAttribute{Computed: true, MarkdownDescription: "External IP address, when `enable_external_ips` is set."},
						"port":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Port of the TPU runtime."},
					},
				},
			},
			"effective_network_config": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "The VM's network settings as the API reports them, whether or not `network_config` is set: " +
					"the network and subnetwork the API chose when `network_config` leaves them out, and whether " +
					"external IPs and IP forwarding are on.",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"network":             schema.StringAttribute{Computed: true, MarkdownDescription: "VPC network."},
					"subnetwork":          schema.StringAttribute{Computed: true, MarkdownDescription: "Subnetwork."},
					"enable_external_ips": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the workers have external IPs."},
					"can_ip_forward":      schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the workers may forward packets."},
				},
			},
			"effective_service_account": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "The VM's service account as the API reports it, whether or not `service_account` is set " +
					"(the Compute Engine default service account when it is not).",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"email":  schema.StringAttribute{Computed: true, MarkdownDescription: "Service account email."},
					"scopes": schema.SetAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "OAuth scopes, including any the API added."},
				},
			},
			"generation": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "TPU generation of `accelerator_type` from the catalog, one of " + schemadoc.Codes(generationNames(cat)) + ". Known at plan time.",
			},
			"chips": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Number of TPU chips in the slice, from the catalog. Known at plan time.",
			},
			"hosts": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Number of TPU VM hosts (workers) in the slice, from the catalog. Known at plan time.",
			},
			"queued_resource":       queuedResourceAttribute(),
			"queued_resource_state": queuedResourceStateAttribute(),
			"slice_count":           sliceCountAttribute(cat),
			"slice_nodes":           sliceNodesAttribute(),
			"deletion_protection": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "Whether Terraform may delete the VM. While `true`, `terraform destroy`, removing the resource from " +
					"the configuration and any change that replaces the VM fail at plan time with an error that names the VM, and " +
					"the delete itself refuses while the state says `true`: set `deletion_protection = false` and apply first. It guards " +
					"Terraform only: the VM can still be deleted with `gcloud` or the console. Changing it only changes the state " +
					"(no API call). Default: `false`, so that configurations written before it existed keep working. An import " +
					"sets it to `false`.",
			},
			"create_time": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the VM was created (RFC 3339).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"network_config": schema.SingleNestedBlock{
				MarkdownDescription: "Network settings of the VM's one network interface. Without the block (and without " +
					"`network_configs`): the network and subnetwork the API chooses (the project's `default`), no external IPs, no IP " +
					"forwarding; the values the API chose are in `effective_network_config`. Conflicts with `network_configs`.",
				Attributes: map[string]schema.Attribute{
					"network": schema.StringAttribute{
						Optional: true,
						Computed: true,
						MarkdownDescription: "VPC network name or self link. Default: chosen by the API (`default`). A name and a self " +
							"link of the same network are the same value. Changing it replaces the VM.",
						Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers: []planmodifier.String{currentStringPlanModifier{effective: "effective_network_config", same: sameResource, replace: true}},
					},
					"subnetwork": schema.StringAttribute{
						Optional: true,
						Computed: true,
						MarkdownDescription: "Subnetwork name or self link. Default: chosen by the API (`default`). A name and a self " +
							"link of the same subnetwork are the same value. Changing it replaces the VM.",
						Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers: []planmodifier.String{currentStringPlanModifier{effective: "effective_network_config", same: sameResource, replace: true}},
					},
					"enable_external_ips": schema.BoolAttribute{
						Optional: true,
						Computed: true,
						Default:  booldefault.StaticBool(false),
						MarkdownDescription: "Give every TPU worker an external IP. Default: `false` (the network then needs " +
							"Private Google Access). Updated in place.",
					},
					"can_ip_forward": schema.BoolAttribute{
						Optional:            true,
						Computed:            true,
						Default:             booldefault.StaticBool(false),
						MarkdownDescription: "Allow the workers to forward packets. Default: `false`. Changing it replaces the VM.",
						PlanModifiers:       []planmodifier.Bool{currentBoolPlanModifier{effective: "effective_network_config"}},
					},
				},
				PlanModifiers: []planmodifier.Object{absentBlockPlanModifier{changed: networkChanged}},
			},
			"network_configs": schema.ListNestedBlock{
				MarkdownDescription: "Several network interfaces, one block each, the first being the primary one (the Cloud TPU " +
					"API's `networkConfigs`, `network_configs` in `google_tpu_v2_vm`). Conflicts with `network_config`, which " +
					"describes one interface: the API refuses a VM with both. Through Compute Engine each block is one of the " +
					"instance's network interfaces, and every block must set the same `can_ip_forward`, as Compute Engine " +
					"forwards IP packets for the whole instance. `effective_network_config` shows the first interface. Changing " +
					"the blocks replaces the VM.",
				PlanModifiers: []planmodifier.List{networkConfigsPlanModifier{}},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"network": schema.StringAttribute{
							Optional: true,
							MarkdownDescription: "VPC network name or self link. Default: chosen by the API (`default`). A name and a self " +
								"link of the same network are the same value.",
							Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
						},
						"subnetwork": schema.StringAttribute{
							Optional: true,
							MarkdownDescription: "Subnetwork name or self link. Default: chosen by the API (`default`). A name and a self " +
								"link of the same subnetwork are the same value.",
							Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
						},
						"enable_external_ips": schema.BoolAttribute{
							Optional: true, Computed: true, Default: booldefault.StaticBool(false),
							MarkdownDescription: "Give every TPU worker an external IP on this interface. Default: `false`.",
						},
						"can_ip_forward": schema.BoolAttribute{
							Optional: true, Computed: true, Default: booldefault.StaticBool(false),
							MarkdownDescription: "Allow the workers to forward packets on this interface. Default: `false`.",
						},
					},
				},
			},
			"boot_disk": schema.SingleNestedBlock{
				MarkdownDescription: "The boot disk's encryption. Without the block, or without `kms_key_name`, Google-managed " +
					"encryption. Changing the key replaces the VM.",
				Attributes: map[string]schema.Attribute{
					"kms_key_name": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "Cloud KMS key that encrypts the boot disk (a customer-managed encryption key, CMEK), " +
							"by its full name `" + gcp.CryptoKeyNameFormat + "` (the id of a `google_kms_crypto_key`). Sent as the " +
							"Cloud TPU API's `bootDiskConfig.customerEncryptionKey.kmsKeyName`, or through Compute Engine as the boot " +
							"disk's `diskEncryptionKey.kmsKeyName`, the names of the API fields (`google_tpu_v2_vm` has no boot disk " +
							"settings). The key's location should be the region of the VM's zone or `global` (a warning otherwise), " +
							"and the project's Compute Engine service agent needs `roles/cloudkms.cryptoKeyEncrypterDecrypter` on it. " +
							"Changing it replaces the VM.",
						Validators: []validator.String{validation.CryptoKeyName{}},
					},
				},
				PlanModifiers: []planmodifier.Object{bootDiskPlanModifier{}},
			},
			"service_account": schema.SingleNestedBlock{
				MarkdownDescription: "Service account of the TPU workers. Without the block: the Compute Engine default service " +
					"account with the API's default scopes, shown in `effective_service_account`. Changing it replaces the VM.",
				Attributes: map[string]schema.Attribute{
					"email": schema.StringAttribute{
						Optional:            true,
						Computed:            true,
						MarkdownDescription: "Service account email. Default: the Compute Engine default service account.",
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers:       []planmodifier.String{currentStringPlanModifier{effective: "effective_service_account", replace: true}},
					},
					"scopes": schema.SetAttribute{
						ElementType: types.StringType,
						Optional:    true,
						Computed:    true,
						MarkdownDescription: "OAuth scopes. Default: chosen by the API (`cloud-platform`). The Pub/Sub scope " +
							"the API adds on its own is ignored.",
						Validators: []validator.Set{
							setvalidator.SizeAtLeast(1),
							setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
						},
						PlanModifiers: []planmodifier.Set{scopesPlanModifier{}},
					},
				},
				PlanModifiers: []planmodifier.Object{absentBlockPlanModifier{changed: serviceAccountChanged}},
			},
			"scheduling_config": schema.SingleNestedBlock{
				MarkdownDescription: "Provisioning model. Without the block: on-demand (every flag `false`). Changing it replaces the VM.",
				Attributes: map[string]schema.Attribute{
					"spot": schema.BoolAttribute{
						Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Create a Spot VM. Default: `false`.",
						PlanModifiers:       []planmodifier.Bool{currentBoolPlanModifier{}},
					},
					"preemptible": schema.BoolAttribute{
						Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Create a preemptible VM (the older form of Spot). Default: `false`.",
						PlanModifiers:       []planmodifier.Bool{currentBoolPlanModifier{}},
					},
					"reserved": schema.BoolAttribute{
						Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Create the VM from the project's TPU reservation. Default: `false`.",
						PlanModifiers:       []planmodifier.Bool{currentBoolPlanModifier{}},
					},
				},
				PlanModifiers: []planmodifier.Object{absentBlockPlanModifier{changed: anyFlagSet}},
			},
			"shielded_instance_config": schema.SingleNestedBlock{
				MarkdownDescription: "Shielded VM options. Without the block: Secure Boot off. Changing them replaces the VM.",
				Attributes: map[string]schema.Attribute{
					"enable_secure_boot": schema.BoolAttribute{
						Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Enable Secure Boot. Default: `false`.",
						PlanModifiers:       []planmodifier.Bool{currentBoolPlanModifier{}},
					},
				},
				PlanModifiers: []planmodifier.Object{absentBlockPlanModifier{changed: anyFlagSet}},
			},
			"data_disks": schema.ListNestedBlock{
				MarkdownDescription: "An existing persistent disk to attach; repeat the block for each disk. A zonal disk can only " +
					"be attached in its own zone, so with a zonal disk `zones` must name only that zone (checked at plan time). " +
					"Changing the disks replaces the VM (the API cannot update data disks).",
				PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"source_disk": schema.StringAttribute{
							Required:            true,
							MarkdownDescription: "Full path of the disk, `projects/{project}/zones/{zone}/disks/{disk}`.",
							Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						},
						"mode": schema.StringAttribute{
							Optional:            true,
							Computed:            true,
							Default:             stringdefault.StaticString(diskModes[0]),
							MarkdownDescription: "Attach mode, one of " + schemadoc.Codes(diskModes) + ". Default: `" + diskModes[0] + "`.",
							Validators:          []validator.String{stringvalidator.OneOf(diskModes...)},
						},
					},
				},
			},
			"capacity": capacityBlock(cat),
			"timeouts": timeoutsBlock(ctx),
		},
	}
	resp.Schema = tfmodel.FixTypes(resp.Schema)
}

// timeoutsBlock is the framework's timeouts block, documented with this
// resource's defaults.
func timeoutsBlock(ctx context.Context) schema.Block {
	b := timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})
	if n, ok := b.(schema.SingleNestedBlock); ok {
		n.MarkdownDescription = fmt.Sprintf("How long each operation may take, as Go durations such as `\"45m\"`. "+
			"Defaults: create `%s` (all zones of `zones` together), update `%s`, delete `%s`.",
			shortDuration(defaultCreateTimeout), shortDuration(defaultUpdateTimeout), shortDuration(defaultDeleteTimeout))
		return n
	}
	return b
}

// shortDuration formats whole minutes and hours as "30m" and "1h" rather than "30m0s" and "1h0m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

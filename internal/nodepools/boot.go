// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
	"github.com/accel-dev/terraform-provider-accel/internal/validation"
)

// What a tier's nodes boot from and run in: the boot disk's customer-managed
// encryption key (NodeConfig.bootDiskKmsKey), secondary boot disks that
// preload container images or data (NodeConfig.secondaryBootDisks), and the
// GKE Sandbox (NodeConfig.sandboxConfig). All are sent on create;
// nodePools.update has no field for them, so a change re-creates the pool
// (the google provider makes them ForceNew too).
// https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/NodeConfig

// tierBootModel holds the attributes, embedded in tierModel.
type tierBootModel struct {
	BootDiskKMSKey     types.String `tfsdk:"boot_disk_kms_key"`
	SandboxType        types.String `tfsdk:"sandbox_type"`
	SecondaryBootDisks types.List   `tfsdk:"secondary_boot_disks"`
}

// secondaryBootDiskModel is one secondary_boot_disks block.
type secondaryBootDiskModel struct {
	DiskImage types.String `tfsdk:"disk_image"`
	Mode      types.String `tfsdk:"mode"`
}

// diskImageRE is a Compute Engine image, as the google provider documents
// secondary_boot_disks.disk_image (global/images/NAME) or with its project.
var diskImageRE = regexp.MustCompile(`^(projects/[^/]+/)?global/images/[^/]+$`)

// The sandbox types and secondary boot disk modes
// (SandboxConfig.type, SecondaryBootDisk.mode), as the google provider
// spells them: GKE's own are upper case.
var (
	sandboxTypes            = []string{"gvisor"}
	secondaryBootDiskModes  = []string{"CONTAINER_IMAGE_CACHE"}
	containerImageCacheMode = "CONTAINER_IMAGE_CACHE"
)

// bootAttributes are the schema attributes.
func bootAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"boot_disk_kms_key": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The Cloud KMS key that encrypts the nodes' boot disks (customer-managed encryption), as " +
				"`projects/PROJECT/locations/LOCATION/keyRings/RING/cryptoKeys/KEY`. The Compute Engine service agent needs " +
				"`roles/cloudkms.cryptoKeyEncrypterDecrypter` on it. Changing it re-creates the pool.",
			// GKE's NodeConfig.bootDiskKmsKey takes the same key name.
			Validators: []validator.String{validation.CryptoKeyName{}},
		},
		"sandbox_type": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "`gvisor` runs the pods in GKE Sandbox (gVisor), which isolates them from the node's kernel " +
				"(GKE's `sandboxConfig`, the google provider's `sandbox_config.sandbox_type`). GKE adds the node label " +
				"`sandbox.gke.io/runtime=gvisor` and a taint that only pods with `runtimeClassName: gvisor` tolerate. One of " +
				"`gvisor`. Changing it re-creates the pool.",
			Validators: []validator.String{stringvalidator.OneOf(sandboxTypes...)},
		},
	}
}

// bootBlocks are the schema blocks.
func bootBlocks() map[string]schema.Block {
	return map[string]schema.Block{
		"secondary_boot_disks": schema.ListNestedBlock{
			MarkdownDescription: "A secondary boot disk of each node, created from a disk image: with `mode = " +
				"\"CONTAINER_IMAGE_CACHE\"`, the container images preloaded on it start without being pulled (large serving " +
				"images start in seconds when a tier scales up); without a mode, the disk holds data. GKE 1.28.3-gke.1067000 " +
				"or later. [GKE's guide](https://cloud.google.com/kubernetes-engine/docs/how-to/data-container-image-preloading) " +
				"shows the image cache with image streaming on. Changing them re-creates the pool.",
			NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"disk_image": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "Required. The disk image, as `global/images/NAME` (in the cluster's project) or " +
						"`projects/PROJECT/global/images/NAME`.",
					Validators: []validator.String{stringvalidator.RegexMatches(diskImageRE,
						"must be a Compute Engine image: global/images/NAME or projects/PROJECT/global/images/NAME")},
				},
				"mode": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: "`CONTAINER_IMAGE_CACHE` to use the disk as a container image cache; without it, a data disk.",
					Validators:          []validator.String{stringvalidator.OneOf(secondaryBootDiskModes...)},
				},
			}, Validators: requiredInElement("disk_image")},
		},
	}
}

// nodeBoot is the attributes as Go values; "" and nil are left out.
type nodeBoot struct {
	KMSKey    string
	Sandbox   string // lower case, as configured
	Secondary []secondaryBootDisk
}

type secondaryBootDisk struct {
	Image, Mode string
}

// bootOf reads the attributes; known is false when one of them is unknown.
func bootOf(ctx context.Context, m tierBootModel, diags *diag.Diagnostics) (nodeBoot, bool) {
	b := nodeBoot{KMSKey: m.BootDiskKMSKey.ValueString(), Sandbox: m.SandboxType.ValueString()}
	known := !m.BootDiskKMSKey.IsUnknown() && !m.SandboxType.IsUnknown() && tfmodel.WhollyKnown(m.SecondaryBootDisks)
	if tfmodel.Known(m.SecondaryBootDisks) {
		var disks []secondaryBootDiskModel
		diags.Append(tfmodel.ElementsAs(ctx, m.SecondaryBootDisks, &disks)...)
		for _, d := range disks {
			b.Secondary = append(b.Secondary, secondaryBootDisk{Image: d.DiskImage.ValueString(), Mode: d.Mode.ValueString()})
		}
	}
	return b, known
}

// bootFindings checks the boot settings beyond their form: GKE's guide
// pairs a container image cache with image streaming (a warning when the
// tier turns streaming off), and GKE Sandbox runs on Container-Optimized OS
// with containerd (a warning for another image type).
func bootFindings(in tierInput) catalog.Findings {
	var fs catalog.Findings
	for i, d := range in.Boot.Secondary {
		if d.Mode == containerImageCacheMode && in.Settings.ImageStreaming != nil && !*in.Settings.ImageStreaming {
			f := tierFinding("secondary_boot_disks", d.Image, "Image Cache Without Image Streaming",
				fmt.Sprintf("secondary_boot_disks[%d] is a container image cache, and the tier sets image_streaming = false: GKE's "+
					"guide uses the image cache with image streaming on, which reads the preloaded images. Set image_streaming = true, "+
					"or leave it out.", i), "https://cloud.google.com/kubernetes-engine/docs/how-to/data-container-image-preloading")
			f.Severity = catalog.SeverityWarning
			fs = append(fs, f)
		}
	}
	if in.Boot.Sandbox != "" && in.Settings.ImageType != "" && !strings.EqualFold(in.Settings.ImageType, "COS_CONTAINERD") {
		f := tierFinding("image_type", in.Settings.ImageType, "GKE Sandbox on Another Image",
			fmt.Sprintf("sandbox_type = %q runs on Container-Optimized OS with containerd (COS_CONTAINERD); image_type is %q. "+
				"Use COS_CONTAINERD, or leave image_type out.", in.Boot.Sandbox, in.Settings.ImageType),
			"https://cloud.google.com/kubernetes-engine/docs/how-to/sandbox-pods")
		f.Severity = catalog.SeverityWarning
		fs = append(fs, f)
	}
	return fs
}

// writeTo sets the attributes on a create request's node pool.
func (b nodeBoot) writeTo(np *container.NodePool) {
	np.Config.BootDiskKmsKey = b.KMSKey
	if b.Sandbox != "" {
		np.Config.SandboxConfig = &container.SandboxConfig{Type: strings.ToUpper(b.Sandbox)}
	}
	for _, d := range b.Secondary {
		np.Config.SecondaryBootDisks = append(np.Config.SecondaryBootDisks, &container.SecondaryBootDisk{DiskImage: d.Image, Mode: d.Mode})
	}
}

// bootOfPool reads what GKE reports for a pool.
func bootOfPool(np *container.NodePool) nodeBoot {
	cfg := np.Config
	if cfg == nil {
		return nodeBoot{}
	}
	b := nodeBoot{KMSKey: cfg.BootDiskKmsKey}
	if sc := cfg.SandboxConfig; sc != nil && sc.Type != "" && sc.Type != "UNSPECIFIED" {
		b.Sandbox = strings.ToLower(sc.Type)
	}
	for _, d := range cfg.SecondaryBootDisks {
		if d != nil {
			mode := d.Mode
			if mode == "MODE_UNSPECIFIED" {
				mode = ""
			}
			b.Secondary = append(b.Secondary, secondaryBootDisk{Image: d.DiskImage, Mode: mode})
		}
	}
	return b
}

// bootEqual compares the attributes as GKE reads them.
func bootEqual(a, b nodeBoot) bool {
	return a.KMSKey == b.KMSKey && a.Sandbox == b.Sandbox && slices.Equal(a.Secondary, b.Secondary)
}

// flattenBoot sets the attributes from the pool GKE reports.
func flattenBoot(t *tierModel, np *container.NodePool) {
	t.tierBootModel = bootModelOf(bootOfPool(np))
}

// bootModelOf converts the attributes to values; "" is null, and no
// secondary boot disk an empty list.
func bootModelOf(b nodeBoot) tierBootModel {
	disks := make([]attr.Value, len(b.Secondary))
	for i, d := range b.Secondary {
		disks[i] = types.ObjectValueMust(schemaTypes().secondaryBootDisk.AttrTypes, map[string]attr.Value{
			"disk_image": types.StringValue(d.Image), "mode": tfmodel.StringOrNull(d.Mode),
		})
	}
	return tierBootModel{
		BootDiskKMSKey:     tfmodel.StringOrNull(b.KMSKey),
		SandboxType:        tfmodel.StringOrNull(b.Sandbox),
		SecondaryBootDisks: types.ListValueMust(schemaTypes().secondaryBootDisk, disks),
	}
}

// bootValues lists the attributes (tierValues).
func bootValues(m tierBootModel) map[string]attr.Value {
	return map[string]attr.Value{
		"boot_disk_kms_key": m.BootDiskKMSKey, "sandbox_type": m.SandboxType, "secondary_boot_disks": m.SecondaryBootDisks,
	}
}

// unknownBoot and nullBoot are every attribute unknown, or null (no
// secondary boot disk: an empty list, as a tier without the blocks).
func unknownBoot() tierBootModel {
	return tierBootModel{BootDiskKMSKey: types.StringUnknown(), SandboxType: types.StringUnknown(),
		SecondaryBootDisks: types.ListUnknown(schemaTypes().secondaryBootDisk)}
}

func nullBoot() tierBootModel { return bootModelOf(nodeBoot{}) }

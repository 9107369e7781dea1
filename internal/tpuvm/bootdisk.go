// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// boot_disk: the boot disk's customer-managed encryption key. The Cloud TPU
// API takes it as Node.bootDiskConfig.customerEncryptionKey.kmsKeyName
// (https://cloud.google.com/tpu/docs/reference/rest/v2/projects.locations.nodes),
// Compute Engine as the boot disk's disks[].diskEncryptionKey.kmsKeyName
// (gcp.InstanceNodes); neither changes it on an existing VM.

var _ planmodifier.Object = bootDiskPlanModifier{}

// kmsKeyOf returns boot_disk.kms_key_name of a boot_disk value: null for an
// absent block, unknown for an unknown one.
func kmsKeyOf(o types.Object) types.String {
	if o.IsUnknown() {
		return types.StringUnknown()
	}
	return priorString(o, "kms_key_name")
}

// expandBootDisk is the node's boot disk settings for boot_disk, nil for
// Google-managed encryption.
func expandBootDisk(o types.Object) *tpu.BootDiskConfig {
	key := tfmodel.KnownString(kmsKeyOf(o))
	if key == "" {
		return nil
	}
	return &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: key}}
}

// flattenBootDisk maps the node's boot disk key onto boot_disk: absent while
// prior has no block and the disk has Google-managed encryption (so a key
// set outside the configuration shows as drift, and an import has the block
// only when there is a key). A key the API reports as one of its versions
// keeps prior's spelling of the same key, else it is the key's name.
func flattenBootDisk(n *tpu.Node, prior types.Object, diags *diag.Diagnostics) types.Object {
	api := ""
	if b := n.BootDiskConfig; b != nil && b.CustomerEncryptionKey != nil {
		api = b.CustomerEncryptionKey.KmsKeyName
	}
	if api == "" && !tfmodel.Known(prior) {
		return types.ObjectNull(schemaTypes().bootDisk.AttrTypes)
	}
	key := types.StringNull()
	if p := priorString(prior, "kms_key_name"); api != "" && tfmodel.Known(p) && gcp.SameCryptoKey(p.ValueString(), api) {
		key = p
	} else if api != "" {
		name, _ := gcp.CryptoKeyOfVersion(api)
		key = types.StringValue(name)
	}
	return objectValue(schemaTypes().bootDisk.AttrTypes, map[string]attr.Value{"kms_key_name": key}, diags)
}

// bootDiskPlanModifier replaces the VM when its boot disk key changes. No
// block and a block without kms_key_name are the same (Google-managed
// encryption), and a key and one of its versions are the same key.
type bootDiskPlanModifier struct{}

func (m bootDiskPlanModifier) Description(ctx context.Context) string {
	return m.MarkdownDescription(ctx)
}

func (bootDiskPlanModifier) MarkdownDescription(context.Context) string {
	return "Changing the boot disk's key replaces the VM."
}

func (bootDiskPlanModifier) PlanModifyObject(_ context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	planned, current := kmsKeyOf(req.PlanValue), kmsKeyOf(req.StateValue)
	switch {
	case planned.IsUnknown():
		resp.RequiresReplace = true
	case planned.IsNull() || current.IsNull():
		resp.RequiresReplace = !planned.Equal(current)
	default:
		resp.RequiresReplace = !gcp.SameCryptoKey(planned.ValueString(), current.ValueString())
	}
}

// bootDiskKeyWarnings warns when the boot disk's key is a key version, and
// when it is in neither the region of a zone the VM may be in nor
// "global". Both APIs document the key's name as the value to send and
// say a read may report a version (see gcp.CryptoKeyOfVersion); nothing
// says they refuse a version, hence a warning. An older version of
// Google's CMEK page for TPU VMs said that the key ring must be in the TPU's
// location ("a Cloud TPU in the us-central1-a zone can only use a key in the
// us-central1 region", https://cloud.google.com/tpu/docs/cmek-tpu); the
// current page no longer says so, and Compute Engine encrypts a zonal disk
// with a global key (the --kms-location=global example of
// https://cloud.google.com/sdk/gcloud/reference/compute/disks/update-kms-key).
// With no rule documented as the API's, a warning, not an error. Nothing is
// said while the key or the zones are unknown, or when the key is not a key
// name (its validator reports that).
func bootDiskKeyWarnings(plan vmModel, diags *diag.Diagnostics) {
	key := kmsKeyOf(plan.BootDisk)
	if !tfmodel.Known(key) {
		return
	}
	name, version := gcp.CryptoKeyOfVersion(key.ValueString())
	_, location, _, _, err := gcp.ParseCryptoKeyName(name)
	if err != nil {
		return
	}
	if version {
		diags.AddAttributeWarning(path.Root("boot_disk").AtName("kms_key_name"), "Cloud KMS Key Version Instead of a Key",
			fmt.Sprintf("boot_disk.kms_key_name %q names a version of the key %q. Google documents the key's name as the value "+
				"to send (a read may report the version the disk uses): set boot_disk.kms_key_name = %q unless you need this "+
				"version.", key.ValueString(), name, name))
	}
	if location == "global" {
		return
	}
	zones, ok := listStrings(plan.Zones)
	if tfmodel.Known(plan.Zone) {
		zones, ok = []string{plan.Zone.ValueString()}, true
	}
	if !ok {
		return
	}
	var elsewhere []string
	for _, z := range zones {
		if catalog.RegionOf(z) != location {
			elsewhere = append(elsewhere, z)
		}
	}
	if len(elsewhere) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("boot_disk").AtName("kms_key_name"), "Boot Disk Key in Another Location",
		fmt.Sprintf("boot_disk.kms_key_name %q is a key of location %q, but the VM may be created in %s, whose region differs. "+
			"Google's CMEK guide for TPU VMs has said that the key ring must be in the VM's region "+
			"(https://cloud.google.com/tpu/docs/cmek-tpu), so the create may fail: use a key in the zone's region (or a "+
			"global key), or a zone of region %q.", key.ValueString(), location, strings.Join(elsewhere, ", "), location))
}

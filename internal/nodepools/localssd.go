// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// A tier's Local SSDs, over NVMe: backing the nodes' ephemeral storage
// (NodeConfig.ephemeralStorageLocalSsdConfig) or as raw block devices
// (NodeConfig.localNvmeSsdBlockConfig). Both are sent on create;
// nodePools.update has no field for them, so a change re-creates the pool
// (the google provider makes them ForceNew too). The catalog checks them
// (catalog.LocalSSD).

// tierLocalSSDModel holds the Local SSD attributes, embedded in tierModel.
type tierLocalSSDModel struct {
	EphemeralStorageLocalSSDCount types.Int64 `tfsdk:"ephemeral_storage_local_ssd_count"`
	LocalNVMeSSDBlockCount        types.Int64 `tfsdk:"local_nvme_ssd_block_count"`
}

// localSSDAttributes are the Local SSD schema attributes.
func localSSDAttributes(cat *catalog.Catalog) map[string]schema.Attribute {
	common := fmt.Sprintf("Each Local SSD holds 375 GB; a VM has at most %d. Machine types whose names end in `-lssd`, "+
		"and A2 Ultra, A3, A4 and A4X machine types, come with a fixed number: `0` uses all of them (another count is a plan "+
		"warning, as the catalog does not list each built-in count). E2 and shared-core machine types cannot have Local SSDs "+
		"(a plan error). Needs GKE %s or later. Excludes the other Local SSD mode. Changing it re-creates the pool.",
		cat.LocalSSDMaxCount(), cat.LocalSSDMinGKEVersion())
	return map[string]schema.Attribute{
		catalog.AttrEphemeralStorageLocalSSDCount: schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Local SSDs (NVMe) that back the nodes' ephemeral storage (`emptyDir` volumes, container " +
				"layers and logs), as GKE's `ephemeralStorageLocalSsdConfig.localSsdCount` and the google provider's " +
				"`ephemeral_storage_local_ssd_config.local_ssd_count`. GKE labels the nodes `" +
				catalog.LabelEphemeralStorageLocalSSD + "=true` (see `accelerator_labels`). " + common,
			Validators: []validator.Int64{int64validator.Between(0, cat.LocalSSDMaxCount())},
		},
		catalog.AttrLocalNVMeSSDBlockCount: schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Local SSDs (NVMe) attached to the nodes as raw block devices, for a cache or local " +
				"PersistentVolumes a workload formats itself, as GKE's `localNvmeSsdBlockConfig.localSsdCount` and the " +
				"google provider's `local_nvme_ssd_block_config.local_ssd_count`. " + common,
			Validators: []validator.Int64{int64validator.Between(0, cat.LocalSSDMaxCount())},
		},
	}
}

// localSSD is a tier's Local SSDs as Go values; nil is a count left out.
type localSSD struct {
	Ephemeral *int64
	RawBlock  *int64
}

// localSSDOf reads the Local SSD attributes; known is false when one of
// them is unknown.
func localSSDOf(m tierLocalSSDModel) (localSSD, bool) {
	return localSSD{Ephemeral: tfmodel.Int64Ptr(m.EphemeralStorageLocalSSDCount), RawBlock: tfmodel.Int64Ptr(m.LocalNVMeSSDBlockCount)},
		!m.EphemeralStorageLocalSSDCount.IsUnknown() && !m.LocalNVMeSSDBlockCount.IsUnknown()
}

// localSSDFindings checks a tier's Local SSDs (catalog.LocalSSD) on the
// machine type the tier resolves to.
func localSSDFindings(cat *catalog.Catalog, in tierInput, s tierSpec, gkeVersion string) catalog.Findings {
	return cat.LocalSSD(catalog.LocalSSDQuery{MachineType: cmp.Or(s.MachineType, in.MachineType), TPU: s.TPU, GKEVersion: gkeVersion,
		Ephemeral: in.LocalSSD.Ephemeral, RawBlock: in.LocalSSD.RawBlock})
}

// addLocalSSDLabels adds the node label GKE sets for Local SSD-backed
// ephemeral storage to the tier's accelerator labels.
func addLocalSSDLabels(cat *catalog.Catalog, s *tierSpec) {
	extra := cat.LocalSSDLabels(s.LocalSSD.Ephemeral)
	if len(extra) == 0 {
		return
	}
	if s.AcceleratorLabels == nil {
		s.AcceleratorLabels = map[string]string{}
	}
	maps.Copy(s.AcceleratorLabels, extra)
}

// writeTo sets the Local SSDs on a create request's node pool; a
// count of 0 is sent as written (on machine types with built-in Local
// SSDs, it asks for all of them).
func (l localSSD) writeTo(np *container.NodePool) {
	if n := l.Ephemeral; n != nil {
		np.Config.EphemeralStorageLocalSsdConfig = &container.EphemeralStorageLocalSsdConfig{LocalSsdCount: *n, ForceSendFields: []string{"LocalSsdCount"}}
	}
	if n := l.RawBlock; n != nil {
		np.Config.LocalNvmeSsdBlockConfig = &container.LocalNvmeSsdBlockConfig{LocalSsdCount: *n, ForceSendFields: []string{"LocalSsdCount"}}
	}
}

// localSSDOfPool reads the Local SSDs GKE reports for a pool.
func localSSDOfPool(np *container.NodePool) localSSD {
	var l localSSD
	if cfg := np.Config; cfg != nil {
		if e := cfg.EphemeralStorageLocalSsdConfig; e != nil {
			l.Ephemeral = &e.LocalSsdCount
		}
		if b := cfg.LocalNvmeSsdBlockConfig; b != nil {
			l.RawBlock = &b.LocalSsdCount
		}
	}
	return l
}

// localSSDEqual compares Local SSDs as GKE reads them: the API reference
// gives a count of 0 and one left out the same meaning.
func localSSDEqual(a, b localSSD) bool {
	return valueOr(a.Ephemeral, 0) == valueOr(b.Ephemeral, 0) && valueOr(a.RawBlock, 0) == valueOr(b.RawBlock, 0)
}

// flattenLocalSSD sets a tier's Local SSDs from the pool GKE reports; a
// count of 0 is null unless prior wrote 0.
func flattenLocalSSD(t *tierModel, prior tierModel, np *container.NodePool) {
	got := localSSDOfPool(np)
	count := func(n *int64, was types.Int64) types.Int64 {
		if valueOr(n, 0) == 0 {
			if !was.IsUnknown() && !was.IsNull() && was.ValueInt64() == 0 {
				return was
			}
			return types.Int64Null()
		}
		return types.Int64Value(*n)
	}
	t.EphemeralStorageLocalSSDCount = count(got.Ephemeral, prior.EphemeralStorageLocalSSDCount)
	t.LocalNVMeSSDBlockCount = count(got.RawBlock, prior.LocalNVMeSSDBlockCount)
}

// localSSDValues lists the Local SSD attributes (tierValues).
func localSSDValues(m tierLocalSSDModel) map[string]attr.Value {
	return map[string]attr.Value{
		catalog.AttrEphemeralStorageLocalSSDCount: m.EphemeralStorageLocalSSDCount,
		catalog.AttrLocalNVMeSSDBlockCount:        m.LocalNVMeSSDBlockCount,
	}
}

// unknownLocalSSD and nullLocalSSD are every attribute unknown or null.
func unknownLocalSSD() tierLocalSSDModel {
	return tierLocalSSDModel{EphemeralStorageLocalSSDCount: types.Int64Unknown(), LocalNVMeSSDBlockCount: types.Int64Unknown()}
}

func nullLocalSSD() tierLocalSSDModel {
	return tierLocalSSDModel{EphemeralStorageLocalSSDCount: types.Int64Null(), LocalNVMeSSDBlockCount: types.Int64Null()}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package computeclass

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// CRD is a ComputeClass as the CRD defines it: the fields of the CRD's
// OpenAPI schema (GKE's computeclasses.cloud.google.com, as published in
// the CRD reference, https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass,
// and in the schema GKE serves), written from the reference. It serves both
// directions: Class.YAML marshals one, and Decode reads one, refusing any
// key the CRD does not have. Fields this provider never renders whose
// contents are deep (nodeSystemConfig, gpuSharing) are maps; the field
// order is the rendered order.
type CRD struct {
	APIVersion string      `yaml:"apiVersion"`
	Kind       string      `yaml:"kind"`
	Metadata   CRDMetadata `yaml:"metadata"`
	Spec       CRDSpec     `yaml:"spec"`
}

// CRDMetadata is the object's metadata.
type CRDMetadata struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// CRDSpec is the ComputeClass spec.
type CRDSpec struct {
	Priorities           []CRDPriority       `yaml:"priorities"`
	PriorityDefaults     map[string]any      `yaml:"priorityDefaults,omitempty"`
	ActiveMigration      *CRDActiveMigration `yaml:"activeMigration,omitempty"`
	Autopilot            *CRDEnabled         `yaml:"autopilot,omitempty"`
	AutoscalingPolicy    *CRDAutoscaling     `yaml:"autoscalingPolicy,omitempty"`
	Description          string              `yaml:"description,omitempty"`
	NodePoolAutoCreation *CRDEnabled         `yaml:"nodePoolAutoCreation,omitempty"`
	NodePoolConfig       *CRDNodePoolConfig  `yaml:"nodePoolConfig,omitempty"`
	NodePoolGroup        *CRDNodePoolGroup   `yaml:"nodePoolGroup,omitempty"`
	// WhenUnsatisfiable is ScaleUpAnyway or DoNotScaleUp.
	WhenUnsatisfiable string `yaml:"whenUnsatisfiable,omitempty"`
}

// CRDActiveMigration is spec.activeMigration.
type CRDActiveMigration struct {
	OptimizeRulePriority          *bool `yaml:"optimizeRulePriority,omitempty"`
	EnsureAllDaemonSetPodsRunning *bool `yaml:"ensureAllDaemonSetPodsRunning,omitempty"`
}

// CRDEnabled is a field of one switch (autopilot, nodePoolAutoCreation).
type CRDEnabled struct {
	Enabled *bool `yaml:"enabled,omitempty"`
}

// CRDAutoscaling is spec.autoscalingPolicy.
type CRDAutoscaling struct {
	ConsolidationDelayMinutes *int64 `yaml:"consolidationDelayMinutes,omitempty"`
	ConsolidationThreshold    *int64 `yaml:"consolidationThreshold,omitempty"`
	GPUConsolidationThreshold *int64 `yaml:"gpuConsolidationThreshold,omitempty"`
}

// CRDNodePoolGroup is spec.nodePoolGroup.
type CRDNodePoolGroup struct {
	Name string `yaml:"name,omitempty"`
}

// CRDNodePoolConfig is spec.nodePoolConfig.
type CRDNodePoolConfig struct {
	ImageType            string            `yaml:"imageType,omitempty"`
	IPType               string            `yaml:"ipType,omitempty"`
	ServiceAccount       string            `yaml:"serviceAccount,omitempty"`
	AutoRepair           *bool             `yaml:"autoRepair,omitempty"`
	AutoUpgrade          *bool             `yaml:"autoUpgrade,omitempty"`
	WorkloadType         string            `yaml:"workloadType,omitempty"`
	NodeLabels           map[string]string `yaml:"nodeLabels,omitempty"`
	ConfidentialNodeType string            `yaml:"confidentialNodeType,omitempty"`
	Taints               []CRDTaint        `yaml:"taints,omitempty"`
	ImageStreaming       map[string]any    `yaml:"imageStreaming,omitempty"`
	GVNIC                map[string]any    `yaml:"gvnic,omitempty"`
	DRA                  map[string]any    `yaml:"dra,omitempty"`
	ResourceManagerTags  []map[string]any  `yaml:"resourceManagerTags,omitempty"`
	LoggingConfig        map[string]any    `yaml:"loggingConfig,omitempty"`
}

// CRDPriority is one spec.priorities rule.
type CRDPriority struct {
	Nodepools                    []string          `yaml:"nodepools,omitempty"`
	MachineFamily                string            `yaml:"machineFamily,omitempty"`
	MachineType                  string            `yaml:"machineType,omitempty"`
	TPU                          *CRDTPU           `yaml:"tpu,omitempty"`
	GPU                          *CRDGPU           `yaml:"gpu,omitempty"`
	Spot                         *bool             `yaml:"spot,omitempty"`
	FlexStart                    *CRDFlexStart     `yaml:"flexStart,omitempty"`
	Reservations                 *CRDReservations  `yaml:"reservations,omitempty"`
	Location                     *CRDLocation      `yaml:"location,omitempty"`
	Placement                    *CRDPlacement     `yaml:"placement,omitempty"`
	MaxRunDurationSeconds        *int64            `yaml:"maxRunDurationSeconds,omitempty"`
	MinCores                     *int64            `yaml:"minCores,omitempty"`
	MinMemoryGb                  *int64            `yaml:"minMemoryGb,omitempty"`
	MaxPodsPerNode               *int64            `yaml:"maxPodsPerNode,omitempty"`
	Storage                      *CRDStorage       `yaml:"storage,omitempty"`
	MinCPUPlatform               string            `yaml:"minCpuPlatform,omitempty"`
	PodFamily                    string            `yaml:"podFamily,omitempty"`
	CapacityCheckWaitTimeSeconds *int64            `yaml:"capacityCheckWaitTimeSeconds,omitempty"`
	PriorityScore                *int64            `yaml:"priorityScore,omitempty"`
	AcceleratorNetworkProfile    string            `yaml:"acceleratorNetworkProfile,omitempty"`
	NodeLabels                   map[string]string `yaml:"nodeLabels,omitempty"`
	Taints                       []CRDTaint        `yaml:"taints,omitempty"`
	NodeSystemConfig             map[string]any    `yaml:"nodeSystemConfig,omitempty"`
}

// CRDTPU is a priority's tpu.
type CRDTPU struct {
	Type     string `yaml:"type,omitempty"`
	Count    *int64 `yaml:"count,omitempty"`
	Topology string `yaml:"topology,omitempty"`
}

// CRDGPU is a priority's gpu.
type CRDGPU struct {
	Type          string         `yaml:"type,omitempty"`
	Count         *int64         `yaml:"count,omitempty"`
	DriverVersion string         `yaml:"driverVersion,omitempty"`
	GPUSharing    map[string]any `yaml:"gpuSharing,omitempty"`
}

// CRDFlexStart is a priority's flexStart.
type CRDFlexStart struct {
	Enabled       *bool             `yaml:"enabled,omitempty"`
	NodeRecycling *CRDNodeRecycling `yaml:"nodeRecycling,omitempty"`
}

// CRDNodeRecycling is flexStart.nodeRecycling.
type CRDNodeRecycling struct {
	LeadTimeSeconds *int64 `yaml:"leadTimeSeconds,omitempty"`
}

// CRDReservations is a priority's reservations.
type CRDReservations struct {
	Affinity string                   `yaml:"affinity,omitempty"`
	Specific []CRDSpecificReservation `yaml:"specific,omitempty"`
}

// CRDSpecificReservation is one reservations.specific entry.
type CRDSpecificReservation struct {
	Name             string               `yaml:"name,omitempty"`
	Project          string               `yaml:"project,omitempty"`
	Zones            []string             `yaml:"zones,omitempty"`
	ReservationBlock *CRDReservationBlock `yaml:"reservationBlock,omitempty"`
}

// CRDReservationBlock is specific[].reservationBlock.
type CRDReservationBlock struct {
	Name string `yaml:"name,omitempty"`
}

// CRDLocation is a priority's location.
type CRDLocation struct {
	Zones          []string `yaml:"zones,omitempty"`
	LocationPolicy string   `yaml:"locationPolicy,omitempty"`
	ZoneTypes      []string `yaml:"zoneTypes,omitempty"`
}

// CRDPlacement is a priority's placement.
type CRDPlacement struct {
	PolicyName string `yaml:"policyName,omitempty"`
}

// CRDStorage is a priority's storage: the fields this provider renders,
// and any other the CRD's storage holds (Other), kept as read.
type CRDStorage struct {
	BootDiskKMSKey string         `yaml:"bootDiskKMSKey,omitempty"`
	BootDiskSize   *int64         `yaml:"bootDiskSize,omitempty"`
	BootDiskType   string         `yaml:"bootDiskType,omitempty"`
	LocalSSDCount  *int64         `yaml:"localSSDCount,omitempty"`
	Other          map[string]any `yaml:",inline"`
}

// CRDTaint is a taint of nodePoolConfig or of a priority.
type CRDTaint struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// Decode parses one ComputeClass manifest, refusing a key the CRD does not
// define, a value of the wrong type, and an apiVersion, kind,
// whenUnsatisfiable, reservation affinity or taint effect the CRD's enums
// do not hold.
func Decode(manifest string) (*CRD, error) {
	var c CRD
	dec := yaml.NewDecoder(strings.NewReader(manifest))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	if c.APIVersion != APIVersion || c.Kind != Kind {
		return nil, fmt.Errorf("apiVersion %q, kind %q: want %s %s", c.APIVersion, c.Kind, APIVersion, Kind)
	}
	if c.Metadata.Name == "" {
		return nil, fmt.Errorf("metadata.name is empty")
	}
	if w := c.Spec.WhenUnsatisfiable; w != "" && w != DoNotScaleUp && w != ScaleUpAnyway {
		return nil, fmt.Errorf("spec.whenUnsatisfiable %q is not %s or %s", w, DoNotScaleUp, ScaleUpAnyway)
	}
	for i, p := range c.Spec.Priorities {
		if r := p.Reservations; r != nil && r.Affinity != AffinitySpecific && r.Affinity != AffinityAnyBestEffort && r.Affinity != AffinityNone {
			return nil, fmt.Errorf("spec.priorities[%d].reservations.affinity %q is not Specific, AnyBestEffort or None", i, r.Affinity)
		}
		for _, t := range p.Taints {
			if !validEffect(t.Effect) {
				return nil, fmt.Errorf("spec.priorities[%d].taints: effect %q", i, t.Effect)
			}
		}
	}
	if pc := c.Spec.NodePoolConfig; pc != nil {
		for _, t := range pc.Taints {
			if !validEffect(t.Effect) {
				return nil, fmt.Errorf("spec.nodePoolConfig.taints: effect %q is not one of %v", t.Effect, TaintEffects)
			}
		}
	}
	return &c, nil
}

func validEffect(e string) bool { return slices.Contains(TaintEffects, e) }

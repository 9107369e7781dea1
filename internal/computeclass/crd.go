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
// and in the schema GKE serves), written from the reference and not from
// the renderer. Fields this provider never renders whose contents are deep
// (nodeSystemConfig, storage) are decoded as maps. Decode refuses any key
// the CRD does not have.
type CRD struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name        string            `yaml:"name"`
		Labels      map[string]string `yaml:"labels"`
		Annotations map[string]string `yaml:"annotations"`
	} `yaml:"metadata"`
	Spec CRDSpec `yaml:"spec"`
}

// CRDSpec is the ComputeClass spec.
type CRDSpec struct {
	ActiveMigration *struct {
		OptimizeRulePriority          *bool `yaml:"optimizeRulePriority"`
		EnsureAllDaemonSetPodsRunning *bool `yaml:"ensureAllDaemonSetPodsRunning"`
	} `yaml:"activeMigration"`
	Autopilot *struct {
		Enabled *bool `yaml:"enabled"`
	} `yaml:"autopilot"`
	AutoscalingPolicy *struct {
		ConsolidationDelayMinutes *int64 `yaml:"consolidationDelayMinutes"`
		ConsolidationThreshold    *int64 `yaml:"consolidationThreshold"`
		GPUConsolidationThreshold *int64 `yaml:"gpuConsolidationThreshold"`
	} `yaml:"autoscalingPolicy"`
	Description          string `yaml:"description"`
	NodePoolAutoCreation *struct {
		Enabled *bool `yaml:"enabled"`
	} `yaml:"nodePoolAutoCreation"`
	NodePoolConfig *struct {
		ImageType            string            `yaml:"imageType"`
		IPType               string            `yaml:"ipType"`
		ServiceAccount       string            `yaml:"serviceAccount"`
		AutoRepair           *bool             `yaml:"autoRepair"`
		AutoUpgrade          *bool             `yaml:"autoUpgrade"`
		WorkloadType         string            `yaml:"workloadType"`
		NodeLabels           map[string]string `yaml:"nodeLabels"`
		ConfidentialNodeType string            `yaml:"confidentialNodeType"`
		Taints               []CRDTaint        `yaml:"taints"`
		ImageStreaming       map[string]any    `yaml:"imageStreaming"`
		GVNIC                map[string]any    `yaml:"gvnic"`
		DRA                  map[string]any    `yaml:"dra"`
		ResourceManagerTags  []map[string]any  `yaml:"resourceManagerTags"`
		LoggingConfig        map[string]any    `yaml:"loggingConfig"`
	} `yaml:"nodePoolConfig"`
	NodePoolGroup *struct {
		Name string `yaml:"name"`
	} `yaml:"nodePoolGroup"`
	Priorities       []CRDPriority  `yaml:"priorities"`
	PriorityDefaults map[string]any `yaml:"priorityDefaults"`
	// WhenUnsatisfiable is ScaleUpAnyway or DoNotScaleUp.
	WhenUnsatisfiable string `yaml:"whenUnsatisfiable"`
}

// CRDPriority is one spec.priorities rule.
type CRDPriority struct {
	MachineFamily  string   `yaml:"machineFamily"`
	MachineType    string   `yaml:"machineType"`
	MinCores       *int64   `yaml:"minCores"`
	MinMemoryGb    *int64   `yaml:"minMemoryGb"`
	MinCPUPlatform string   `yaml:"minCpuPlatform"`
	Nodepools      []string `yaml:"nodepools"`
	PodFamily      string   `yaml:"podFamily"`
	Spot           *bool    `yaml:"spot"`
	GPU            *struct {
		Type          string         `yaml:"type"`
		Count         *int64         `yaml:"count"`
		DriverVersion string         `yaml:"driverVersion"`
		GPUSharing    map[string]any `yaml:"gpuSharing"`
	} `yaml:"gpu"`
	TPU *struct {
		Type     string `yaml:"type"`
		Count    *int64 `yaml:"count"`
		Topology string `yaml:"topology"`
	} `yaml:"tpu"`
	FlexStart *struct {
		Enabled       *bool `yaml:"enabled"`
		NodeRecycling *struct {
			LeadTimeSeconds *int64 `yaml:"leadTimeSeconds"`
		} `yaml:"nodeRecycling"`
	} `yaml:"flexStart"`
	CapacityCheckWaitTimeSeconds *int64 `yaml:"capacityCheckWaitTimeSeconds"`
	Reservations                 *struct {
		Affinity string `yaml:"affinity"`
		Specific []struct {
			Name             string         `yaml:"name"`
			Project          string         `yaml:"project"`
			Zones            []string       `yaml:"zones"`
			ReservationBlock map[string]any `yaml:"reservationBlock"`
		} `yaml:"specific"`
	} `yaml:"reservations"`
	Location *struct {
		Zones          []string `yaml:"zones"`
		LocationPolicy string   `yaml:"locationPolicy"`
		ZoneTypes      []string `yaml:"zoneTypes"`
	} `yaml:"location"`
	Placement *struct {
		PolicyName string `yaml:"policyName"`
	} `yaml:"placement"`
	MaxRunDurationSeconds     *int64            `yaml:"maxRunDurationSeconds"`
	MaxPodsPerNode            *int64            `yaml:"maxPodsPerNode"`
	PriorityScore             *int64            `yaml:"priorityScore"`
	AcceleratorNetworkProfile string            `yaml:"acceleratorNetworkProfile"`
	Storage                   map[string]any    `yaml:"storage"`
	NodeLabels                map[string]string `yaml:"nodeLabels"`
	Taints                    []CRDTaint        `yaml:"taints"`
	NodeSystemConfig          map[string]any    `yaml:"nodeSystemConfig"`
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

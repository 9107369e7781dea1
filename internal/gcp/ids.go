// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"fmt"
	"strings"
	"unicode"
)

const (
	nodeIDFormat    = "projects/{project}/locations/{zone}/nodes/{name}"
	clusterIDFormat = "projects/{project}/locations/{location}/clusters/{cluster}"
)

// ParseNodeID splits a TPU node id "projects/P/locations/Z/nodes/N".
func ParseNodeID(s string) (project, zone, name string, err error) {
	parts, err := parseID(s, "TPU node", nodeIDFormat, "projects", "locations", "nodes")
	if err != nil {
		return "", "", "", err
	}
	return parts[0], parts[1], parts[2], nil
}

// NodeID formats a TPU node id, the inverse of ParseNodeID.
func NodeID(project, zone, name string) string {
	return "projects/" + project + "/locations/" + zone + "/nodes/" + name
}

// ParseClusterID splits a GKE cluster id "projects/P/locations/L/clusters/C".
func ParseClusterID(s string) (project, location, cluster string, err error) {
	parts, err := parseID(s, "GKE cluster", clusterIDFormat, "projects", "locations", "clusters")
	if err != nil {
		return "", "", "", err
	}
	return parts[0], parts[1], parts[2], nil
}

// ClusterID formats a GKE cluster id, the inverse of ParseClusterID.
func ClusterID(project, location, cluster string) string {
	return "projects/" + project + "/locations/" + location + "/clusters/" + cluster
}

// parseID parses "k0/v0/k1/v1/k2/v2" with the given keys and returns the
// values, which must be non-empty and free of white space.
func parseID(s, what, format string, keys ...string) ([]string, error) {
	segs := strings.Split(s, "/")
	if len(segs) != 2*len(keys) {
		return nil, idError(s, what, format)
	}
	vals := make([]string, 0, len(keys))
	for i, k := range keys {
		v := segs[2*i+1]
		if segs[2*i] != k || v == "" || strings.ContainsFunc(v, isSpaceOrControl) {
			return nil, idError(s, what, format)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

func isSpaceOrControl(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r)
}

func idError(s, what, format string) error {
	return fmt.Errorf("invalid %s id %q: expected the format %q", what, ShownID(s), format)
}

// MaxShownID is how many bytes of a malformed id an error message shows.
// The limit is in bytes: %q may show each byte of a malformed id as four
// characters.
const MaxShownID = 200

// ShownID shortens an id for an error message to MaxShownID bytes.
func ShownID(s string) string {
	if len(s) > MaxShownID {
		return s[:MaxShownID] + "..."
	}
	return s
}

const instanceIDFormat = "projects/{project}/zones/{zone}/instances/{name}"

// ParseInstanceID splits a Compute Engine instance id
// "projects/P/zones/Z/instances/N" (the instance's self link without the
// API's base URL).
func ParseInstanceID(s string) (project, zone, name string, err error) {
	parts, err := parseID(s, "Compute Engine instance", instanceIDFormat, "projects", "zones", "instances")
	if err != nil {
		return "", "", "", err
	}
	return parts[0], parts[1], parts[2], nil
}

// InstanceID formats a Compute Engine instance id, the inverse of
// ParseInstanceID.
func InstanceID(project, zone, name string) string {
	return "projects/" + project + "/zones/" + zone + "/instances/" + name
}

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

// CryptoKeyNameFormat is the resource name of a Cloud KMS key, the form the
// Cloud TPU API (Node.bootDiskConfig.customerEncryptionKey.kmsKeyName,
// https://cloud.google.com/tpu/docs/reference/rest/v2/projects.locations.nodes#CustomerEncryptionKey)
// and Compute Engine (disks[].diskEncryptionKey.kmsKeyName,
// https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert)
// take; https://cloud.google.com/kms/docs/resource-hierarchy#keys.
const CryptoKeyNameFormat = "projects/{project}/locations/{location}/keyRings/{key_ring}/cryptoKeys/{key}"

// ParseCryptoKeyName splits a Cloud KMS key name
// "projects/P/locations/L/keyRings/R/cryptoKeys/K".
func ParseCryptoKeyName(s string) (project, location, keyRing, key string, err error) {
	parts, err := parseID(s, "Cloud KMS key", CryptoKeyNameFormat, "projects", "locations", "keyRings", "cryptoKeys")
	if err != nil {
		return "", "", "", "", err
	}
	return parts[0], parts[1], parts[2], parts[3], nil
}

// CryptoKeyName formats a Cloud KMS key name, the inverse of
// ParseCryptoKeyName.
func CryptoKeyName(project, location, keyRing, key string) string {
	return "projects/" + project + "/locations/" + location + "/keyRings/" + keyRing + "/cryptoKeys/" + key
}

// CryptoKeyOfVersion returns the key a key version name
// ("…/cryptoKeys/K/cryptoKeyVersions/V") belongs to, and true; anything
// else is returned as it is, with false. Both APIs that take a key name
// say that a read "may" return the key version the disk is encrypted with
// instead of the key (the references of CustomerEncryptionKey.kmsKeyName
// cited at CryptoKeyNameFormat).
func CryptoKeyOfVersion(s string) (string, bool) {
	key, version, ok := strings.Cut(s, "/cryptoKeyVersions/")
	if !ok || version == "" || strings.ContainsFunc(version, func(r rune) bool { return r == '/' || isSpaceOrControl(r) }) {
		return s, false
	}
	if _, _, _, _, err := ParseCryptoKeyName(key); err != nil {
		return s, false
	}
	return key, true
}

// SameCryptoKey reports whether two key names (or key version names) name
// the same Cloud KMS key.
func SameCryptoKey(a, b string) bool {
	ka, _ := CryptoKeyOfVersion(a)
	kb, _ := CryptoKeyOfVersion(b)
	return ka == kb
}

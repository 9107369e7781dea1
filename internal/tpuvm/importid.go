// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// importFormats are the accepted import ids, longest first.
var importFormats = []string{
	"projects/{project}/locations/{zone}/nodes/{name}",
	"projects/{project}/zones/{zone}/instances/{name}",
	"{project}/{zone}/{name}",
	"{zone}/{name}",
}

// parseImportID turns an import id in any of importFormats into a node id,
// or an instance id for the Compute Engine form. The short forms name a
// node; the import's read falls back on the Compute Engine instance of that
// name when there is no such node (see vmResource.Read). The short form
// {zone}/{name} takes defaultProject, the provider's project.
func parseImportID(id, defaultProject string) (string, error) {
	formats := "expected one of " + strings.Join(importFormats, ", ")
	if !utf8.ValidString(id) {
		// Terraform's state holds UTF-8 strings only.
		return "", fmt.Errorf("invalid import id %q: it is not valid UTF-8; %s", gcp.ShownID(id), formats)
	}
	var project, zone, name string
	parts := strings.Split(id, "/")
	switch {
	case strings.HasPrefix(id, "projects/") && isInstanceID(id):
		_, _, n, _, _ := parseVMID(id)
		if !nameRE.MatchString(n) {
			return "", fmt.Errorf("invalid import id %q: %q is not a TPU VM name", gcp.ShownID(id), gcp.ShownID(n))
		}
		return id, nil
	case strings.HasPrefix(id, "projects/"):
		p, z, n, err := gcp.ParseNodeID(id)
		if err != nil {
			return "", fmt.Errorf("invalid import id %q: %s", gcp.ShownID(id), formats)
		}
		project, zone, name = p, z, n
	case len(parts) == 3:
		project, zone, name = parts[0], parts[1], parts[2]
	case len(parts) == 2:
		if defaultProject == "" {
			return "", fmt.Errorf("import id %q has no project and the provider has none: use %s", gcp.ShownID(id), importFormats[2])
		}
		project, zone, name = defaultProject, parts[0], parts[1]
	default:
		return "", fmt.Errorf("invalid import id %q: %s", gcp.ShownID(id), formats)
	}
	nodeID := gcp.NodeID(project, zone, name)
	if _, _, _, err := gcp.ParseNodeID(nodeID); err != nil {
		return "", fmt.Errorf("invalid import id %q: %s", gcp.ShownID(id), formats)
	}
	if !nameRE.MatchString(name) {
		return "", fmt.Errorf("invalid import id %q: %q is not a TPU VM name", gcp.ShownID(id), gcp.ShownID(name))
	}
	return nodeID, nil
}

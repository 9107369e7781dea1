// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"cmp"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	container "google.golang.org/api/container/v1"
)

// validatePool checks a new node pool like GKE does, modestly, and returns
// the VM count of one TPU slice (>1 for multi-host pools, else 0).
func (s *Server) validatePool(c *gkeCluster, np *container.NodePool) (int, *apiError) {
	for _, check := range []func(*gkeCluster, *container.NodePool) *apiError{
		s.checkPoolSettings, s.checkPoolGPUs, s.checkPoolProvisioning,
	} {
		if err := check(c, np); err != nil {
			return 0, err
		}
	}
	topology, err := s.poolTopology(c, np)
	if err != nil {
		return 0, err
	}
	hosts, err := s.checkTPUShape(np, topology)
	if err != nil {
		return 0, err
	}
	if err := s.checkLocations(c, np.Locations, np.Config); err != nil {
		return 0, err
	}
	if err := s.checkVersion(c, np.Version, np.Config.MachineType); err != nil {
		return 0, err
	}
	if err := s.checkLocalSSD(np.Config, cmp.Or(np.Version, c.c.CurrentMasterVersion)); err != nil {
		return 0, err
	}
	return hosts, nil
}

// checkPoolSettings checks a new pool's node count, autoscaling, upgrade
// and node settings.
func (s *Server) checkPoolSettings(_ *gkeCluster, np *container.NodePool) *apiError {
	if np.InitialNodeCount < 0 {
		return s.gkeInvalid("Invalid value for field \"node_pool.initial_node_count\": %d. Must be non-negative.", np.InitialNodeCount)
	}
	if msg := checkAutoscaling(np.Autoscaling); msg != "" {
		return s.gkeInvalid("%s", msg)
	}
	if err := s.checkLocationPolicy(np.Autoscaling); err != nil {
		return err
	}
	if err := s.checkUpgradeSettings(np.UpgradeSettings); err != nil {
		return err
	}
	return s.checkNodeSettings(np.Config, np.MaxPodsConstraint)
}

// checkPoolGPUs checks the GPUs a new pool attaches (attachedGPUProblem).
func (s *Server) checkPoolGPUs(_ *gkeCluster, np *container.NodePool) *apiError {
	for _, a := range np.Config.Accelerators {
		if a == nil {
			continue
		}
		if why := attachedGPUProblem(np.Config.MachineType, a.AcceleratorType, a.AcceleratorCount); why != "" {
			return s.gkeInvalid("%s", why)
		}
	}
	return nil
}

// checkPoolProvisioning checks a new pool's network configuration and its
// flex-start or queued provisioning.
func (s *Server) checkPoolProvisioning(_ *gkeCluster, np *container.NodePool) *apiError {
	if err := s.checkNetworkConfig(np.NetworkConfig); err != nil {
		return err
	}
	return s.checkProvisioning(np)
}

// checkLocations checks node zones are in the cluster's region and offer the
// accelerator machine type and GPU types.
func (s *Server) checkLocations(c *gkeCluster, locations []string, cfg *container.NodeConfig) *apiError {
	region := regionOf(c.location)
	for _, z := range locations {
		if regionOf(z) != region || z == region {
			return s.gkeInvalid("Invalid value for field \"node_pool.locations\": zone %q is not in the cluster's region %q.", z, region)
		}
		zone := s.zone(z)
		mt := cfg.MachineType
		if (isTPUMachine(mt) || isGPUMachine(mt)) && (zone == nil || !contains(zone.MachineTypes, mt)) {
			// GKE's answer for a machine type a zone does not have.
			return s.gkeInvalid("Invalid machine type %q in zone %q: GCE_NOT_FOUND", mt, z)
		}
		for _, a := range cfg.Accelerators {
			if a == nil || a.AcceleratorType == "" {
				continue
			}
			if zone == nil || !contains(zone.MachineTypes, a.AcceleratorType) {
				// Compute Engine's answer for an accelerator type a zone lacks.
				return s.gkeInvalid("The resource 'projects/%s/zones/%s/acceleratorTypes/%s' was not found", c.project, z, a.AcceleratorType)
			}
		}
	}
	return nil
}

// resolveVersion resolves a node version alias as nodePools.create and
// update take them ("latest" and "-" are the control plane's version;
// "1.X" and "1.X.Y" the newest version they name), from the versions the
// emulator knows: the control plane's and the cluster's node version.
// Assumption: GKE's wording for an alias that names no version.
func (s *Server) resolveVersion(c *gkeCluster, v string) (string, *apiError) {
	switch {
	case v == "-" || v == "latest":
		return c.c.CurrentMasterVersion, nil
	case validVersion(v):
		return v, nil
	}
	for _, known := range []string{c.c.CurrentMasterVersion, c.c.CurrentNodeVersion} {
		if strings.HasPrefix(known, v+".") || strings.HasPrefix(known, v+"-") {
			return known, nil
		}
	}
	return "", s.gkeInvalid("No valid versions with the prefix %q found.", v)
}

// checkVersion checks a node version against the control plane and the
// scenario's minimum versions per machine type.
func (s *Server) checkVersion(c *gkeCluster, version, machineType string) *apiError {
	if !validVersion(version) {
		return s.gkeInvalid("Invalid value for field \"node_pool.version\": %q. Versions look like 1.33.5-gke.1000000.", version)
	}
	if compareVersions(version, c.c.CurrentMasterVersion) > 0 {
		return s.gkeInvalid("Node version %q must not be newer than the cluster control plane version %q.", version, c.c.CurrentMasterVersion)
	}
	var prefixes []string
	for p := range s.sc.MinNodeVersions {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	for _, p := range prefixes {
		minVersion := s.sc.MinNodeVersions[p]
		if strings.HasPrefix(machineType, p) && compareVersions(version, minVersion) < 0 {
			// Assumption: wording of GKE's minimum-version refusal.
			return s.gkeInvalid("Machine type %q requires GKE version %s or later; node version is %s.", machineType, minVersion, version)
		}
	}
	return nil
}

// checkAutoscaling returns GKE's complaint about autoscaling limits, or "".
func checkAutoscaling(as *container.NodePoolAutoscaling) string {
	if as == nil || !as.Enabled {
		return ""
	}
	if as.MinNodeCount < 0 || as.TotalMinNodeCount < 0 {
		return "Invalid value for field \"node_pool.autoscaling.min_node_count\": must be non-negative."
	}
	perZone := as.MaxNodeCount > 0 || as.MinNodeCount > 0
	total := as.TotalMaxNodeCount > 0 || as.TotalMinNodeCount > 0
	if perZone && total {
		return "Autoscaling limits must be either per zone (min/max_node_count) or total (total_min/total_max_node_count), not both."
	}
	if total {
		if as.TotalMaxNodeCount < as.TotalMinNodeCount {
			return fmt.Sprintf("Invalid value for field \"node_pool.autoscaling.total_max_node_count\": %d. Must be at least total_min_node_count (%d).", as.TotalMaxNodeCount, as.TotalMinNodeCount)
		}
		return ""
	}
	if as.MaxNodeCount < as.MinNodeCount || as.MaxNodeCount == 0 {
		return fmt.Sprintf("Invalid value for field \"node_pool.autoscaling.max_node_count\": %d. Must be positive and at least min_node_count (%d).", as.MaxNodeCount, as.MinNodeCount)
	}
	return ""
}

var versionRE = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)-gke\.(\d+)$`)

func validVersion(v string) bool { return versionRE.MatchString(v) }

// compareVersions orders GKE versions like 1.33.5-gke.1000000.
func compareVersions(a, b string) int {
	pa, pb := versionRE.FindStringSubmatch(a), versionRE.FindStringSubmatch(b)
	if pa == nil || pb == nil {
		return strings.Compare(a, b)
	}
	for i := 1; i <= 4; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

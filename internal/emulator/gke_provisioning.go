// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"strconv"
	"strings"
	"time"

	container "google.golang.org/api/container/v1"
)

// Flex-start and queued provisioning, from GKE's pages: flex-start
// (NodeConfig.flexStart, https://cloud.google.com/kubernetes-engine/docs/concepts/dws)
// runs a node for at most seven days (NodeConfig.maxRunDuration, default
// seven days); queued provisioning (NodePool.queuedProvisioning.enabled,
// https://cloud.google.com/kubernetes-engine/docs/how-to/provisioningrequest)
// obtains nodes only through ProvisioningRequests. Both are scaled by the
// cluster autoscaler from zero nodes and consume no reservation (the pages'
// commands pass --enable-autoscaling --num-nodes=0 --reservation-affinity=none),
// and neither is Spot. Messages are assumptions in GKE's style.
// The seven days are maxFlexStartRun (core_facts.go), the same bound.
// Additions: flex-start pools report the provisioning model resource label
// "flex-start"; queued pools report the taint
// cloud.google.com/gke-queued=true:NO_SCHEDULE in config.taints (as public
// node pool dumps show).

// checkProvisioning checks the flex-start and queued provisioning of a new pool.
func (s *Server) checkProvisioning(np *container.NodePool) *apiError {
	cfg := np.Config
	queued := np.QueuedProvisioning != nil && np.QueuedProvisioning.Enabled
	if d := cfg.MaxRunDuration; d != "" {
		secs, err := strconv.ParseInt(strings.TrimSuffix(d, "s"), 10, 64)
		if err != nil || !strings.HasSuffix(d, "s") || secs <= 0 {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.max_run_duration\": %q. Must be a positive duration in seconds, such as \"86400s\".", d)
		}
		if cfg.FlexStart && time.Duration(secs)*time.Second > maxFlexStartRun {
			return s.gkeInvalid("Invalid value for field \"node_pool.config.max_run_duration\": %q. Flex-start nodes run at most 7 days.", d)
		}
	}
	if !cfg.FlexStart && !queued {
		return nil
	}
	what := "flex_start"
	if queued {
		what = "queued_provisioning"
	}
	if cfg.Spot || cfg.Preemptible {
		return s.gkeInvalid("Node pools with %s cannot use Spot or preemptible VMs.", what)
	}
	if as := np.Autoscaling; as == nil || !as.Enabled {
		return s.gkeInvalid("Node pools with %s require autoscaling to be enabled.", what)
	}
	if queued && np.InitialNodeCount != 0 {
		return s.gkeInvalid("Invalid value for field \"node_pool.initial_node_count\": %d. Node pools with queued_provisioning must start with 0 nodes.", np.InitialNodeCount)
	}
	if ra := cfg.ReservationAffinity; ra == nil || ra.ConsumeReservationType != "NO_RESERVATION" {
		return s.gkeInvalid("Node pools with %s require reservation_affinity NO_RESERVATION.", what)
	}
	return nil
}

// addProvisioningAdditions adds what GKE adds to flex-start and queued
// pools, before applyAdditions fills the defaults.
func (s *Server) addProvisioningAdditions(np *container.NodePool) {
	cfg := np.Config
	if cfg.FlexStart && !s.sc.GKEAdditions.SkipProvisioningModelLabel {
		if cfg.ResourceLabels == nil {
			cfg.ResourceLabels = map[string]string{}
		}
		cfg.ResourceLabels[provisioningModelLabel] = "flex-start"
	}
	if np.QueuedProvisioning != nil && np.QueuedProvisioning.Enabled {
		cfg.Taints = append(cfg.Taints, &container.NodeTaint{Key: "cloud.google.com/gke-queued", Value: "true", Effect: "NO_SCHEDULE"})
	}
}

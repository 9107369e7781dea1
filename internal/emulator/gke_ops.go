// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"time"

	container "google.golang.org/api/container/v1"
)

// clusterLevelOp returns the running cluster-level operation, if any.
func (s *Server) clusterLevelOp(key string) *operation {
	for _, op := range s.runningOps(key) {
		if op.pool == "" {
			return op
		}
	}
	return nil
}

// incompatible is GKE's refusal while another operation holds the cluster
// or the pool. Message and reason as seen from GKE (FAILED_PRECONDITION,
// "Cluster is running incompatible operation operation-….",
// CLUSTER_ALREADY_HAS_OPERATION).
func incompatible(op *operation) *apiError {
	return newError(statusFailedPrecondition, "Cluster is running incompatible operation %s.", op.id).
		with(errorInfo("CLUSTER_ALREADY_HAS_OPERATION", "container.googleapis.com", nil))
}

// admit applies the concurrency rules before a node-pool operation starts:
// one cluster-level operation at a time; one operation per node pool;
// with SerializePoolCreates, CREATE_NODE_POOL excludes every other node-pool
// operation; and the per-cluster concurrent operations quota, answered like
// GKE with 429 "Too many operations: cluster "c" hits the concurrent
// operations quota 5, please try again later." (terraform-provider-google
// issue 15205).
func (s *Server) admit(c *gkeCluster, pool, opType string) *apiError {
	running := s.runningOps(c.key)
	for _, op := range running {
		if op.pool == "" || op.pool == pool {
			return incompatible(op)
		}
	}
	if s.sc.SerializePoolCreates {
		for _, op := range running {
			if opType == opCreateNodePool || op.opType == opCreateNodePool {
				return incompatible(op)
			}
		}
	}
	if quota := s.sc.MaxConcurrentOperationsPerCluster; quota > 0 && len(running) >= quota {
		return newError(statusResourceExhausted,
			"Too many operations: cluster %q hits the concurrent operations quota %d, please try again later.", c.c.Name, quota).
			with(requestInfo(s.requestID()))
	}
	return nil
}

// newPoolOperation starts a GKE operation on a node pool.
func (s *Server) newPoolOperation(q *gkeRequest, c *gkeCluster, method, opType, pool string, d time.Duration) *operation {
	op := s.newOperation(apiContainer, method, q.project, c.location, d, q.now)
	op.opType = opType
	op.clusterKey = c.key
	op.pool = pool
	op.targetLink = s.url + "/v1/" + c.key + "/nodePools/" + pool
	return op
}

func (s *Server) gkeOperationsList(q *gkeRequest) (any, *apiError) {
	out := &container.ListOperationsResponse{Operations: []*container.Operation{}}
	for _, op := range s.ops {
		if op.api == apiContainer && op.project == q.project && (q.location == "-" || op.location == q.location) {
			out.Operations = append(out.Operations, s.gkeOpJSON(op))
		}
	}
	return out, nil
}

func (s *Server) gkeOperationsGet(q *gkeRequest, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiContainer || op.project != q.project || op.location != q.location {
		return nil, s.gkeNotFound("projects/" + q.project + "/locations/" + q.location + "/operations/" + id)
	}
	return s.gkeOpJSON(op), nil
}

// gkeOpJSON renders a GKE operation. Its name is the bare id
// ("operation-…"); selfLink uses the project number, as GKE's does.
func (s *Server) gkeOpJSON(op *operation) *container.Operation {
	out := &container.Operation{
		Name:          op.id,
		OperationType: op.opType,
		Status:        opRunning,
		SelfLink:      s.url + "/v1/projects/" + projectNumber(op.project) + "/locations/" + op.location + "/operations/" + op.id,
		TargetLink:    op.targetLink,
		Location:      op.location,
		Zone:          op.location,
		StartTime:     rfc3339(op.created),
	}
	if !op.done {
		return out
	}
	out.Status = opDone
	out.EndTime = rfc3339(op.ended)
	out.StatusMessage = op.statusMessage
	if op.err != nil {
		out.Error = &container.Status{Code: int64(op.err.Code), Message: op.err.Message, Details: rawDetails(op.err.Details)}
	}
	return out
}

// runningOps lists the unfinished operations on a GKE cluster.
func (s *Server) runningOps(clusterKey string) []*operation {
	var out []*operation
	for _, op := range s.pending {
		if op.api == apiContainer && op.clusterKey == clusterKey {
			out = append(out, op)
		}
	}
	return out
}

// HoldCluster starts an external cluster-level operation (UPGRADE_MASTER)
// on a GKE cluster that lasts d and returns its operation name. While it runs
// the cluster is RECONCILING and node-pool operations are refused with 400
// FAILED_PRECONDITION CLUSTER_ALREADY_HAS_OPERATION.
func (s *Server) HoldCluster(project, location, cluster string, d time.Duration) (string, error) {
	if d < 0 {
		return "", fmt.Errorf("HoldCluster: negative duration %s", d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	op, err := s.holdCluster(project, location, cluster, d)
	if err != nil {
		return "", err
	}
	return op.id, nil
}

// HoldClusterUntilCalls starts an operation on the whole cluster, like
// HoldCluster, that ends once the emulator has counted calls more calls of
// method, for example the first container.operations.get of a caller that
// waits for it: the call that reaches the count still sees it running, the
// next one sees it done.
func (s *Server) HoldClusterUntilCalls(project, location, cluster, method string, calls int) (string, error) {
	if err := checkMethod(method); err != nil {
		return "", err
	}
	if calls < 1 {
		return "", fmt.Errorf("HoldClusterUntilCalls: calls must be at least 1, not %d", calls)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	op, err := s.holdCluster(project, location, cluster, 0)
	if err != nil {
		return "", err
	}
	op.hung = true
	s.faults.releases = append(s.faults.releases, &callRelease{method: method, left: calls, release: func(now time.Time) {
		op.hung, op.started, op.dur = false, now, 0
	}})
	return op.id, nil
}

// holdCluster starts a cluster-level operation of duration d. The caller
// holds s.mu.
func (s *Server) holdCluster(project, location, cluster string, d time.Duration) (*operation, error) {
	now := s.clock.Now()
	s.settle(now)
	c, aerr := s.getCluster(project, location, cluster)
	if aerr != nil {
		return nil, aerr
	}
	if cur := s.clusterLevelOp(c.key); cur != nil {
		return nil, fmt.Errorf("HoldCluster: cluster %s already runs %s", c.key, cur.id)
	}
	op := s.newOperation(apiContainer, methodHoldCluster, project, location, d, now)
	op.opType = "UPGRADE_MASTER"
	op.clusterKey = c.key
	op.targetLink = s.url + "/v1/" + c.key
	return op, nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"net/http"
	"strings"
)

// routeContainer maps a /v1/ path to its method and handler. Both the
// projects/*/locations/* and the deprecated projects/*/zones/* forms are
// accepted.
func (s *Server) routeContainer(r *http.Request, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) < 5 || segs[0] != "projects" || (segs[2] != "locations" && segs[2] != "zones") {
		return "", "", nil
	}
	rt := gkeRoute{s: s, project: segs[1], location: segs[3], method: r.Method}
	m := r.Method
	switch {
	case len(segs) == 5 && segs[4] == "clusters" && m == http.MethodGet:
		return rt.to(MethodClustersList, s.gkeClustersList)
	case len(segs) == 5 && segs[4] == "clusters" && m == http.MethodPost:
		return rt.to(MethodClustersCreate, s.gkeClustersCreate)
	case len(segs) == 5 && segs[4] == "operations" && m == http.MethodGet:
		return rt.to(MethodContainerOperationsList, s.gkeOperationsList)
	case len(segs) == 6 && segs[4] == "operations" && m == http.MethodGet && !strings.Contains(segs[5], ":"):
		return rt.to(MethodContainerOperationsGet, func(q *gkeRequest) (any, *apiError) { return s.gkeOperationsGet(q, segs[5]) })
	case len(segs) < 6 || segs[4] != "clusters" || strings.Contains(segs[5], ":"):
		return "", "", nil
	}
	return rt.cluster(segs[5], segs[6:])
}

// gkeRoute is a GKE path being routed: its project and location (a region,
// or the zone of the projects/*/zones/* form) and the HTTP method.
type gkeRoute struct {
	s                 *Server
	project, location string
	method            string
}

// to is the route to method, served by f.
func (rt gkeRoute) to(method string, f func(q *gkeRequest) (any, *apiError)) (string, string, handler) {
	return method, rt.project, func(req *request) (any, *apiError) {
		return f(&gkeRequest{request: req, project: rt.project, location: rt.location})
	}
}

// cluster routes the path below clusters/{cluster}.
func (rt gkeRoute) cluster(cluster string, rest []string) (string, string, handler) {
	s, m := rt.s, rt.method
	switch {
	case len(rest) == 0 && m == http.MethodGet:
		return rt.to(MethodClustersGet, func(q *gkeRequest) (any, *apiError) { return s.gkeClustersGet(q, cluster) })
	case len(rest) == 0 && m == http.MethodDelete:
		return rt.to(MethodClustersDelete, func(q *gkeRequest) (any, *apiError) { return s.gkeClustersDelete(q, cluster) })
	case len(rest) == 1 && rest[0] == "nodePools" && m == http.MethodGet:
		return rt.to(MethodNodePoolsList, func(q *gkeRequest) (any, *apiError) { return s.gkePoolsList(q, cluster) })
	case len(rest) == 1 && rest[0] == "nodePools" && m == http.MethodPost:
		return rt.to(MethodNodePoolsCreate, func(q *gkeRequest) (any, *apiError) { return s.gkePoolsCreate(q, cluster) })
	case len(rest) < 2 || rest[0] != "nodePools":
		return "", "", nil
	}
	return rt.pool(cluster, rest[1:])
}

// zonalPoolVerbs are the verbs of the zonal form's
// .../nodePools/{pool}/{verb} paths.
var zonalPoolVerbs = map[string]string{"setSize": "setSize", "autoscaling": "setAutoscaling", "setManagement": "setManagement", "update": "update"}

// pool routes the path below nodePools/: {pool}[:verb], or the zonal form
// {pool}/{verb}.
func (rt gkeRoute) pool(cluster string, rest []string) (string, string, handler) {
	s, m := rt.s, rt.method
	pool, verb, _ := strings.Cut(rest[0], ":")
	if len(rest) == 2 && verb == "" && m == http.MethodPost {
		verb = zonalPoolVerbs[rest[1]]
		if verb == "" {
			return "", "", nil
		}
	} else if len(rest) != 1 {
		return "", "", nil
	}
	poolOp := func(method string, f func(q *gkeRequest, c *gkeCluster, p *gkePool) (any, *apiError)) (string, string, handler) {
		return rt.to(method, func(q *gkeRequest) (any, *apiError) {
			c, p, err := s.lookupPool(q, cluster, pool)
			if err != nil {
				return nil, err
			}
			return f(q, c, p)
		})
	}
	switch {
	case verb == "" && m == http.MethodGet:
		return poolOp(MethodNodePoolsGet, func(_ *gkeRequest, _ *gkeCluster, p *gkePool) (any, *apiError) { return p.np, nil })
	case verb == "" && m == http.MethodPut, verb == "update" && m == http.MethodPost:
		return poolOp(MethodNodePoolsUpdate, s.gkePoolsUpdate)
	case verb == "" && m == http.MethodDelete:
		return poolOp(MethodNodePoolsDelete, s.gkePoolsDelete)
	case verb == "setSize" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetSize, s.gkePoolsSetSize)
	case verb == "setAutoscaling" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetAutoscaling, s.gkePoolsSetAutoscaling)
	case verb == "setManagement" && m == http.MethodPost:
		return poolOp(MethodNodePoolsSetManagement, s.gkePoolsSetManagement)
	}
	return "", "", nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/api/container/v1"
)

// The Compute Engine managed instance groups behind GKE node pools: one per
// node pool and zone, named in the pool's instanceGroupUrls. GKE reports no
// node count on a node pool; clients (the google provider's
// google_container_node_pool among them) read each instance group manager's
// targetSize instead. Sources:
// https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools
// ("instanceGroupUrls: [Output only] The resource URLs of the managed instance
// groups associated with this node pool"),
// https://cloud.google.com/compute/docs/reference/rest/v1/instanceGroupManagers/get
// and .../instanceGroupManagers/list.
const (
	MethodComputeIGMList = "compute.instanceGroupManagers.list"
	MethodComputeIGMGet  = "compute.instanceGroupManagers.get"
)

// computeIGMMethods are the managed instance group methods (methodNames).
var computeIGMMethods = []string{MethodComputeIGMList, MethodComputeIGMGet}

// computeIGM is an InstanceGroupManager resource, with the fields a GKE
// node pool's group reports.
type computeIGM struct {
	Kind              string            `json:"kind"`
	ID                string            `json:"id"`
	CreationTimestamp string            `json:"creationTimestamp"`
	Name              string            `json:"name"`
	Zone              string            `json:"zone"`
	InstanceTemplate  string            `json:"instanceTemplate"`
	InstanceGroup     string            `json:"instanceGroup"`
	BaseInstanceName  string            `json:"baseInstanceName"`
	Fingerprint       string            `json:"fingerprint"`
	CurrentActions    igmCurrentActions `json:"currentActions"`
	Status            igmStatus         `json:"status"`
	TargetSize        int64             `json:"targetSize"`
	SelfLink          string            `json:"selfLink"`
}

type igmCurrentActions struct {
	Abandoning int64 `json:"abandoning"`
	Creating   int64 `json:"creating"`
	Deleting   int64 `json:"deleting"`
	None       int64 `json:"none"`
	Recreating int64 `json:"recreating"`
	Refreshing int64 `json:"refreshing"`
	Restarting int64 `json:"restarting"`
	Verifying  int64 `json:"verifying"`
}

type igmStatus struct {
	IsStable bool `json:"isStable"`
}

type computeIGMList struct {
	Kind          string        `json:"kind"`
	ID            string        `json:"id"`
	Items         []*computeIGM `json:"items,omitempty"`
	NextPageToken string        `json:"nextPageToken,omitempty"`
	SelfLink      string        `json:"selfLink"`
}

// routeComputeIGM maps a /compute/v1/ path to the instanceGroupManagers
// methods the emulator serves.
func (s *Server) routeComputeIGM(r *http.Request, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if r.Method != http.MethodGet || len(segs) < 5 || segs[0] != "projects" || segs[2] != "zones" || segs[4] != "instanceGroupManagers" {
		return "", "", nil
	}
	project, zone := segs[1], segs[3]
	switch len(segs) {
	case 5:
		return MethodComputeIGMList, project, func(q *request) (any, *apiError) { return s.computeIGMList(q, project, zone) }
	case 6:
		return MethodComputeIGMGet, project, func(*request) (any, *apiError) { return s.computeIGMGet(project, zone, segs[5]) }
	}
	return "", "", nil
}

// computeResourceNotFound is Compute Engine's 404. Assumption: Compute Engine answers
// with the JSON error envelope of the Google JSON APIs, its legacy errors
// list carrying domain "global" and reason "notFound", and the message "The
// resource '…' was not found".
func computeResourceNotFound(resource string) *apiError {
	msg := fmt.Sprintf("The resource '%s' was not found", resource)
	e := newError(statusNotFound, "%s", msg)
	e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "notFound"}}
	return e
}

// igmName is the name GKE gives a node pool's instance group manager:
// gke-CLUSTER-POOL-HASH-grp. Assumption: the hash is 8 hex digits, as in
// the names GKE shows; the emulator derives it from the pool's name.
func igmName(c *gkeCluster, np *container.NodePool) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(c.key + "/" + np.Name))
	return fmt.Sprintf("gke-%s-%s-%08x-grp", c.c.Name, np.Name, h.Sum32())
}

// igmURL is the emulator's own URL of an instance group manager, so that a
// client that follows a node pool's instanceGroupUrls reaches the emulator.
func (s *Server) igmURL(project, zone, name string) string {
	return fmt.Sprintf("%s/compute/v1/projects/%s/zones/%s/instanceGroupManagers/%s", s.url, project, zone, name)
}

// poolIGMs lists the instance group managers of a project's node pools in
// zone, by name.
func (s *Server) poolIGMs(project, zone string) []*computeIGM {
	s.ensureProject(project)
	var out []*computeIGM
	for _, c := range s.gke.clusters {
		if c.project != project {
			continue
		}
		for _, name := range c.order {
			p := c.pools[name]
			if !contains(p.np.Locations, zone) {
				continue
			}
			out = append(out, s.renderIGM(c, p, zone))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// renderIGM is the group of pool p in zone. Its target size is the number
// of nodes the pool runs there. Assumption: while GKE still creates or
// resizes the pool, the group reports the nodes already running, and the
// rest as "creating" only once the operation ends (the emulator does not
// model instance-level progress).
func (s *Server) renderIGM(c *gkeCluster, p *gkePool, zone string) *computeIGM {
	name := igmName(c, p.np)
	h := fnv.New64a()
	_, _ = h.Write([]byte(c.project + "/" + zone + "/" + name))
	n := int64(p.nodes[zone])
	base := strings.TrimSuffix(name, "-grp")
	zoneURL := s.url + "/compute/v1/projects/" + c.project + "/zones/" + zone
	return &computeIGM{
		Kind:              "compute#instanceGroupManager",
		ID:                strconv.FormatUint(h.Sum64(), 10),
		CreationTimestamp: c.c.CreateTime,
		Name:              name,
		Zone:              zoneURL,
		InstanceTemplate:  s.url + "/compute/v1/projects/" + c.project + "/global/instanceTemplates/" + base,
		InstanceGroup:     zoneURL + "/instanceGroups/" + name,
		BaseInstanceName:  base,
		Fingerprint:       p.np.Etag,
		CurrentActions:    igmCurrentActions{None: n},
		Status:            igmStatus{IsStable: p.np.Status == poolRunning || p.np.Status == poolError || p.np.Status == poolRunningWithError},
		TargetSize:        n,
		SelfLink:          s.igmURL(c.project, zone, name),
	}
}

func (s *Server) computeIGMGet(project, zone, name string) (any, *apiError) {
	if s.zone(zone) == nil {
		return nil, computeResourceNotFound("projects/" + project + "/zones/" + zone)
	}
	for _, igm := range s.poolIGMs(project, zone) {
		if igm.Name == name {
			return igm, nil
		}
	}
	return nil, computeResourceNotFound("projects/" + project + "/zones/" + zone + "/instanceGroupManagers/" + name)
}

func (s *Server) computeIGMList(q *request, project, zone string) (any, *apiError) {
	if s.zone(zone) == nil {
		return nil, computeResourceNotFound("projects/" + project + "/zones/" + zone)
	}
	all := s.poolIGMs(project, zone)
	page, next, err := s.paginateBy(len(all), q, "maxResults")
	if err != nil {
		return nil, err
	}
	return &computeIGMList{
		Kind:          "compute#instanceGroupManagerList",
		ID:            "projects/" + project + "/zones/" + zone + "/instanceGroupManagers",
		Items:         all[page.lo:page.hi],
		NextPageToken: next,
		SelfLink:      s.url + "/compute/v1/projects/" + project + "/zones/" + zone + "/instanceGroupManagers",
	}, nil
}

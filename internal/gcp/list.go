// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"

	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"
)

// List lists every node of project in location, a zone or "-" for every zone
// (AIP-159), reading all pages; the whole list is retried until ctx ends.
func (n *TPUNodes) List(ctx context.Context, project, location string) ([]*tpu.Node, error) {
	return n.list(ctx, "projects/"+project+"/locations/"+location, 0)
}

// list lists every node of parent, reading all pages; the whole list is
// retried until ctx ends or maxAttempts (0: no bound) calls failed.
func (n *TPUNodes) list(ctx context.Context, parent string, maxAttempts int) ([]*tpu.Node, error) {
	var out []*tpu.Node
	err := n.c.listPages(ctx, "nodes.list "+parent, maxAttempts, func(ctx context.Context, token string) (string, error) {
		r, err := n.svc.Projects.Locations.Nodes.List(parent).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, node := range r.Nodes {
			if node != nil {
				out = append(out, node)
			}
		}
		return r.NextPageToken, nil
	})
	return out, err
}

// listPages reads every page of a list within the bounds of one withRetry
// (maxAttempts failed calls, 0: until ctx ends). page reads the page of
// token, keeps its items and returns the next page's token, "" after the
// last. A page that fails is asked again, after the retry's backoff, with
// the token it had: a rate limit met on page 5 costs a call, not pages 1 to
// 4 again.
func (c *Clients) listPages(ctx context.Context, what string, maxAttempts int, page func(ctx context.Context, token string) (string, error)) error {
	token := ""
	return c.withRetry(ctx, what, maxAttempts, nil, func(ctx context.Context) error {
		for {
			next, err := page(ctx, token)
			if err != nil {
				return err
			}
			if next == "" {
				return nil
			}
			token = next
		}
	})
}

// ClusterIDs lists the ids (projects/P/locations/L/clusters/C) of the GKE
// clusters of project in location, a region, a zone or "-" for every
// location, retried until ctx ends.
func (c *Clients) ClusterIDs(ctx context.Context, project, location string) ([]string, error) {
	svc, err := c.Container(ctx)
	if err != nil {
		return nil, err
	}
	parent := "projects/" + project + "/locations/" + location
	resp, err := retryValue(ctx, c, "clusters.list "+parent, func(ctx context.Context) (*container.ListClustersResponse, error) {
		return svc.Projects.Locations.Clusters.List(parent).Context(ctx).Do()
	})
	if err != nil {
		return nil, fmt.Errorf("listing the GKE clusters of %s: %w", parent, err)
	}
	var ids []string
	for _, cl := range resp.Clusters {
		if cl != nil {
			ids = append(ids, ClusterID(project, cl.Location, cl.Name))
		}
	}
	return ids, nil
}

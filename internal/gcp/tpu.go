// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tpu "google.golang.org/api/tpu/v2"
)

// TPUNodes calls the Cloud TPU API's nodes. Every call is retried with
// [Retry] and the clients' backoff until its context ends; waits follow the
// clients' [Poller].
type TPUNodes struct {
	c   *Clients
	svc *tpu.Service
}

// TPUNodes returns the nodes client, building the Cloud TPU client on first use.
func (c *Clients) TPUNodes(ctx context.Context) (*TPUNodes, error) {
	svc, err := c.TPU(ctx)
	if err != nil {
		return nil, err
	}
	return &TPUNodes{c: c, svc: svc}, nil
}

// Get reads the node name (projects/P/locations/Z/nodes/N).
func (n *TPUNodes) Get(ctx context.Context, name string) (*tpu.Node, error) {
	return retryValue(ctx, n.c, "nodes.get", func(ctx context.Context) (*tpu.Node, error) {
		return n.svc.Projects.Locations.Nodes.Get(name).Context(ctx).Do()
	})
}

// Read reads the node name (projects/P/locations/Z/nodes/N) for a refresh:
// from the one nodes.list of its zone that these clients share among every
// node they refresh there until their next write (see sharedReads), or with
// Get when that list does not hold the node (created after the list, or
// the list failed). Only Get's 404 reports a node gone: a list can miss a
// node, it never proves one absent. Callers must not change the node.
func (n *TPUNodes) Read(ctx context.Context, name string) (*tpu.Node, error) {
	if i := strings.LastIndex(name, "/nodes/"); i > 0 {
		if node, ok := n.sharedNodes(ctx, name[:i])[name]; ok && node != nil {
			return node, nil
		}
	}
	return n.Get(ctx, name)
}

// sharedNodes are the nodes of parent by name, from the list these clients
// share; nil when that list failed.
func (n *TPUNodes) sharedNodes(ctx context.Context, parent string) map[string]*tpu.Node {
	nodes, ok := sharedList(ctx, &n.c.reads.tpuNodes, parent, func(ctx context.Context) ([]*tpu.Node, error) {
		return n.list(ctx, parent, LookupAttempts)
	}, func(node *tpu.Node) string { return node.Name })
	if !ok {
		return nil
	}
	return nodes
}

// Create starts creating node nodeID under parent (projects/P/locations/Z).
func (n *TPUNodes) Create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error) {
	n.c.written()
	return retryValue(ctx, n.c, "nodes.create", func(ctx context.Context) (*tpu.Operation, error) {
		return n.svc.Projects.Locations.Nodes.Create(parent, node).NodeId(nodeID).Context(ctx).Do()
	})
}

// Patch starts changing the fields of updateMask of the node name.
func (n *TPUNodes) Patch(ctx context.Context, name, updateMask string, node *tpu.Node) (*tpu.Operation, error) {
	n.c.written()
	return retryValue(ctx, n.c, "nodes.patch", func(ctx context.Context) (*tpu.Operation, error) {
		return n.svc.Projects.Locations.Nodes.Patch(name, node).UpdateMask(updateMask).Context(ctx).Do()
	})
}

// Delete starts deleting the node name.
func (n *TPUNodes) Delete(ctx context.Context, name string) (*tpu.Operation, error) {
	n.c.written()
	return retryValue(ctx, n.c, "nodes.delete", func(ctx context.Context) (*tpu.Operation, error) {
		return n.svc.Projects.Locations.Nodes.Delete(name).Context(ctx).Do()
	})
}

// Wait polls op until it is done; a failed operation is an *OperationError.
// See [Clients.WaitTPUOperation].
func (n *TPUNodes) Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	return n.c.WaitTPUOperation(ctx, op)
}

// ListNamed lists the nodes of project named name, in every zone, with one
// nodes.list on locations/- (AIP-159; the response lists the locations it
// could not reach).
func (n *TPUNodes) ListNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	all, err := n.List(ctx, project, "-")
	if err != nil {
		return nil, err
	}
	var out []*tpu.Node
	for _, node := range all {
		if node.Name[strings.LastIndex(node.Name, "/")+1:] == name {
			out = append(out, node)
		}
	}
	return out, nil
}

// ReadNamed is ListNamed for a plan: the one nodes.list of every zone
// (locations/-) that these clients share among every plan of a VM of
// project until their next write, filtered by name; ListNamed when that list
// failed. Callers must not change the nodes.
func (n *TPUNodes) ReadNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	all := n.sharedNodes(ctx, "projects/"+project+"/locations/-")
	if all == nil {
		return n.ListNamed(ctx, project, name)
	}
	var out []*tpu.Node
	for full, node := range all {
		if full[strings.LastIndex(full, "/")+1:] == name {
			out = append(out, node)
		}
	}
	slices.SortFunc(out, func(a, b *tpu.Node) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Poller is the schedule for reading a node that is changing state (see [WaitFor]).
func (n *TPUNodes) Poller() *Poller { return n.c.poller }

// TPUZoneOffer is what the Cloud TPU API lists for one zone.
type TPUZoneOffer struct {
	AcceleratorTypes []string
	RuntimeVersions  []string
}

// ListTPUZoneOffer lists the accelerator types and runtime versions the
// Cloud TPU API offers project in zone, each call retried with the clients'
// backoff until ctx ends.
func (c *Clients) ListTPUZoneOffer(ctx context.Context, project, zone string) (TPUZoneOffer, error) {
	var offer TPUZoneOffer
	svc, err := c.TPU(ctx)
	if err != nil {
		return offer, fmt.Errorf("creating the Cloud TPU client: %w", err)
	}
	parent := fmt.Sprintf("projects/%s/locations/%s", project, zone)
	err = c.listPages(ctx, "acceleratorTypes.list "+parent, 0, func(ctx context.Context, token string) (string, error) {
		page, err := svc.Projects.Locations.AcceleratorTypes.List(parent).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, t := range page.AcceleratorTypes {
			offer.AcceleratorTypes = append(offer.AcceleratorTypes, t.Type)
		}
		return page.NextPageToken, nil
	})
	if err != nil {
		return offer, fmt.Errorf("listing accelerator types of %s: %w", parent, err)
	}
	err = c.listPages(ctx, "runtimeVersions.list "+parent, 0, func(ctx context.Context, token string) (string, error) {
		page, err := svc.Projects.Locations.RuntimeVersions.List(parent).PageToken(token).Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, v := range page.RuntimeVersions {
			offer.RuntimeVersions = append(offer.RuntimeVersions, v.Version)
		}
		return page.NextPageToken, nil
	})
	if err != nil {
		return offer, fmt.Errorf("listing runtime versions of %s: %w", parent, err)
	}
	return offer, nil
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// nodeAPI is the part of the Cloud TPU API the resource uses. Every method
// retries rate limits, conflicts and transient errors until ctx ends.
type nodeAPI interface {
	get(ctx context.Context, name string) (*tpu.Node, error)
	create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error)
	patch(ctx context.Context, name, updateMask string, node *tpu.Node) (*tpu.Operation, error)
	remove(ctx context.Context, name string) (*tpu.Operation, error)
	// wait polls op until it is done; a failed operation is an *gcp.OperationError.
	wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error)
	// polling is the schedule for reading a node that is changing state.
	polling() gcp.Polling
	// namedAnywhere lists the nodes of project named name, in every zone.
	namedAnywhere(ctx context.Context, project, name string) ([]*tpu.Node, error)
}

// liveAPI is nodeAPI over the provider's clients.
type liveAPI struct {
	clients *gcp.Clients
	svc     *tpu.Service
}

func newLiveAPI(ctx context.Context, clients *gcp.Clients) (*liveAPI, error) {
	svc, err := clients.TPU(ctx)
	if err != nil {
		return nil, err
	}
	return &liveAPI{clients: clients, svc: svc}, nil
}

// retry runs fn with the library's backoff, logging each retry.
func retry(ctx context.Context, what string, fn func(context.Context) error) error {
	return gcp.Retry(ctx, gcp.DefaultBackoff(), func(err error, class gcp.Class, attempt int, wait time.Duration) {
		tflog.Debug(ctx, "retrying Cloud TPU call", map[string]any{
			"call": what, "class": class.String(), "attempt": attempt, "wait": wait.String(), "error": err.Error(),
		})
	}, fn)
}

func (a *liveAPI) get(ctx context.Context, name string) (*tpu.Node, error) {
	var n *tpu.Node
	err := retry(ctx, "nodes.get", func(ctx context.Context) error {
		var err error
		n, err = a.svc.Projects.Locations.Nodes.Get(name).Context(ctx).Do()
		return err
	})
	return n, err
}

func (a *liveAPI) create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error) {
	var op *tpu.Operation
	err := retry(ctx, "nodes.create", func(ctx context.Context) error {
		var err error
		op, err = a.svc.Projects.Locations.Nodes.Create(parent, node).NodeId(nodeID).Context(ctx).Do()
		return err
	})
	return op, err
}

func (a *liveAPI) patch(ctx context.Context, name, updateMask string, node *tpu.Node) (*tpu.Operation, error) {
	var op *tpu.Operation
	err := retry(ctx, "nodes.patch", func(ctx context.Context) error {
		var err error
		op, err = a.svc.Projects.Locations.Nodes.Patch(name, node).UpdateMask(updateMask).Context(ctx).Do()
		return err
	})
	return op, err
}

func (a *liveAPI) remove(ctx context.Context, name string) (*tpu.Operation, error) {
	var op *tpu.Operation
	err := retry(ctx, "nodes.delete", func(ctx context.Context) error {
		var err error
		op, err = a.svc.Projects.Locations.Nodes.Delete(name).Context(ctx).Do()
		return err
	})
	return op, err
}

// namedAnywhere reads across every zone with nodes.list on locations/-
// (AIP-159; the response lists the locations it could not reach).
func (a *liveAPI) namedAnywhere(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	var out []*tpu.Node
	err := retry(ctx, "nodes.list", func(ctx context.Context) error {
		out = nil
		return a.svc.Projects.Locations.Nodes.List("projects/"+project+"/locations/-").Context(ctx).Pages(ctx, func(r *tpu.ListNodesResponse) error {
			for _, n := range r.Nodes {
				if n != nil && n.Name[strings.LastIndex(n.Name, "/")+1:] == name {
					out = append(out, n)
				}
			}
			return nil
		})
	})
	return out, err
}

func (a *liveAPI) wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	return a.clients.WaitTPUOperation(ctx, op)
}

func (a *liveAPI) polling() gcp.Polling {
	p, d := a.clients.Config().Polling, gcp.DefaultPolling()
	if p.Initial <= 0 {
		p.Initial = d.Initial
	}
	if p.Max < p.Initial {
		p.Max = max(d.Max, p.Initial)
	}
	if p.Multiplier < 1 {
		p.Multiplier = d.Multiplier
	}
	return p
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"

	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// nodeAPI is the part of the Cloud TPU API the resource uses: *gcp.TPUNodes,
// or a fake in tests. Every method retries rate limits, conflicts and
// transient errors until ctx ends.
type nodeAPI interface {
	Get(ctx context.Context, name string) (*tpu.Node, error)
	// Read is Get for a refresh, whose answer may come from a list shared
	// with the refresh of other VMs of the zone; only Get's 404 means gone.
	Read(ctx context.Context, name string) (*tpu.Node, error)
	Create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error)
	Patch(ctx context.Context, name, updateMask string, node *tpu.Node) (*tpu.Operation, error)
	Delete(ctx context.Context, name string) (*tpu.Operation, error)
	// Wait polls op until it is done; a failed operation is an *gcp.OperationError.
	Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error)
	// ListNamed lists the nodes of project named name, in every zone.
	ListNamed(ctx context.Context, project, name string) ([]*tpu.Node, error)
	// ReadNamed is ListNamed for a plan, whose answer may come from a list
	// shared with the plans of other VMs of the project.
	ReadNamed(ctx context.Context, project, name string) ([]*tpu.Node, error)
	// Poller paces the reads of a node that is changing state.
	Poller() *gcp.Poller
}

var _ nodeAPI = (*gcp.TPUNodes)(nil)

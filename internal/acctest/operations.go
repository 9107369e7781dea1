// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package acctest

import (
	"context"
	"time"

	container "google.golang.org/api/container/v1"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// Clients are API clients of the target, for the changes a test makes
// behind Terraform's back: the emulator's endpoints, polled every few
// milliseconds; against a sandbox project, the application default
// credentials and the default polling.
func (tg *Target) Clients() *gcp.Clients {
	if tg.Emulator == nil {
		return gcp.NewClients(gcp.Config{Project: tg.Project})
	}
	return gcp.NewClients(gcp.Config{
		Project:           tg.Project,
		TPUEndpoint:       tg.Emulator.TPUEndpoint(),
		ContainerEndpoint: tg.Emulator.ContainerEndpoint(),
		ComputeEndpoint:   tg.Emulator.ComputeEndpoint(),
		Polling:           gcp.Polling{Initial: 10 * time.Millisecond, Max: 50 * time.Millisecond},
	})
}

// WaitGKE waits, with the provider's own waiter, for a GKE operation a
// test started on the target's cluster, and returns its error.
func (tg *Target) WaitGKE(ctx context.Context, op *container.Operation) error {
	project, location, _, err := gcp.ParseClusterID(tg.Cluster)
	if err != nil {
		return err
	}
	_, err = tg.Clients().WaitContainerOperation(ctx, project, location, op)
	return err
}

// WaitTPU waits, with the provider's own waiter, for a Cloud TPU operation a
// test started, and returns its error.
func (tg *Target) WaitTPU(ctx context.Context, op *tpu.Operation) error {
	_, err := tg.Clients().WaitTPUOperation(ctx, op)
	return err
}

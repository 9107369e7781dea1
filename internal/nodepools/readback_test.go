// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/container/v1"
	"google.golang.org/api/googleapi"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
	"github.com/accel-dev/terraform-provider-accel/internal/tfmodel"
)

// stalledAPI is a GKE API whose operations never end before the caller's
// deadline and whose pool lists always answer 503. It records the deadline
// of every list: the read-back after a timed-out apply must carry one no
// later than gcp.FinalReadTimeout from the call, so that it stops however
// long the API keeps failing.
type stalledAPI struct {
	poolAPI // calls the test does not expect panic on the nil interface
	owner   string
	pool    *container.NodePool

	mu        sync.Mutex
	lists     int
	unbounded int
	tooLate   int
}

func (a *stalledAPI) Cluster() string             { return "projects/p/locations/us-central1/clusters/c" }
func (a *stalledAPI) PoolName(pool string) string { return a.Cluster() + "/nodePools/" + pool }

func (a *stalledAPI) block(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

func (a *stalledAPI) Create(ctx context.Context, _ *container.NodePool) error { return a.block(ctx) }
func (a *stalledAPI) Delete(ctx context.Context, _ string) error              { return a.block(ctx) }

// Get answers the delete gate with the one pool.
func (a *stalledAPI) Get(context.Context, string) (*container.NodePool, error) { return a.pool, nil }
func (a *stalledAPI) SetSize(ctx context.Context, _ string, _ *container.SetNodePoolSizeRequest) error {
	return a.block(ctx)
}

func (a *stalledAPI) Update(ctx context.Context, _ string, _ *container.UpdateNodePoolRequest) error {
	return a.block(ctx)
}

func (a *stalledAPI) SetAutoscaling(ctx context.Context, _ string, _ *container.SetNodePoolAutoscalingRequest) error {
	return a.block(ctx)
}

// ListBounded answers the guard before changes with the one pool, this
// resource's.
func (a *stalledAPI) ListBounded(context.Context) (map[string]*container.NodePool, error) {
	if a.pool == nil {
		return map[string]*container.NodePool{}, nil
	}
	return map[string]*container.NodePool{a.pool.Name: a.pool}, nil
}

func (a *stalledAPI) List(ctx context.Context) (map[string]*container.NodePool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lists++
	d, ok := ctx.Deadline()
	switch {
	case !ok:
		a.unbounded++
	case time.Until(d) > gcp.FinalReadTimeout:
		a.tooLate++
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, &googleapi.Error{Code: http.StatusServiceUnavailable, Message: "The service is currently unavailable."}
}

func (a *stalledAPI) Run(ctx context.Context, jobs []gcp.PoolJob) []error {
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		errs[i] = j.Run(ctx)
	}
	return errs
}

// TestApplyReadBackIsBounded: a create or a change that outlasts its
// timeout while GKE answers every pool list with 503 returns, and the read of
// the pools after the timeout is bounded by gcp.FinalReadTimeout (the margin
// documented for the final read), never by the API's willingness to answer.
// gcp's own tests show that a call stops retrying when its context ends.
func TestApplyReadBackIsBounded(t *testing.T) {
	t.Parallel()
	const owner = "0123456789abcdef0123"
	for name, update := range map[string]bool{"create": false, "change of an existing pool": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tm := nullTier()
			tm.Name = types.StringValue("l4")
			tm.MachineType = types.StringValue("g2-standard-4")
			tm.GPUType = types.StringValue("nvidia-l4")
			tm.NodeLocations = tfmodel.StringList([]string{"us-central1-a"})
			tm.NodeCount = types.Int64Value(1)
			api := &stalledAPI{owner: owner}
			var state []tierModel
			if update {
				state = []tierModel{tm}
				api.pool = &container.NodePool{Name: "l4", Status: statusRunning,
					Config: &container.NodeConfig{ResourceLabels: map[string]string{ownership.LabelKey: owner}}}
				tm.NodeCount = types.Int64Value(2)
			}
			ctx := t.Context()
			plan := resourceModel{
				Cluster: types.StringValue(api.Cluster()), ComputeClass: types.StringValue("cc"),
				Tiers: tierList(ctx, []tierModel{tm}, checked(t)), OnStockout: types.StringValue(onStockoutFail),
				Pools: poolMap(map[string]poolEntry{"l4": {Tier: types.Int64Value(1), CreatedAt: types.StringUnknown()}}, checked(t)),
			}
			// The resource's timeout: it ends while the operation runs.
			ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			var diags diag.Diagnostics
			r := &fallbackNodePoolsResource{catalog: catalog.Default()}
			r.applyTiers(ctx, &poolOps{api: api, cat: catalog.Default(), owner: poolOwner{id: owner}}, plan, state, &diags)
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Fatalf("apply returned before its timeout: %v", diags)
			}
			if api.lists == 0 || api.unbounded != 0 || api.tooLate != 0 {
				t.Errorf("%d pool lists after the timeout, %d without a deadline, %d with a deadline beyond %v; want every one bounded",
					api.lists, api.unbounded, api.tooLate, gcp.FinalReadTimeout)
			}
			var found bool
			for _, d := range diags.Errors() {
				if strings.Contains(d.Detail(), "could not be read") && strings.Contains(d.Detail(), "503") {
					found = true
				}
			}
			if !found {
				t.Errorf("diagnostics %v, want one saying the pools could not be read, naming GKE's 503", diags)
			}
		})
	}
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	compute "google.golang.org/api/compute/v1"
)

// ResourcePolicies is Compute Engine's regional resource policies, of
// which a multi-host TPU7x slice node pool needs one: a workload policy
// (https://cloud.google.com/compute/docs/reference/rest/v1/resourcePolicies;
// GKE "About Ironwood (TPU7x) in GKE"). Every call is retried with [Retry]
// and the clients' backoff until its context ends; calls that change a
// policy carry one requestId across their retries, and Insert and Delete
// wait for their region operation with the clients' [Poller].
type ResourcePolicies struct {
	c   *Clients
	svc *compute.Service
}

// ResourcePolicies returns the resource policies client, building the
// Compute Engine client on first use.
func (c *Clients) ResourcePolicies(ctx context.Context) (*ResourcePolicies, error) {
	svc, err := c.Compute(ctx)
	if err != nil {
		return nil, err
	}
	return &ResourcePolicies{c: c, svc: svc}, nil
}

// ResourcePolicyID is projects/P/regions/R/resourcePolicies/N.
func ResourcePolicyID(project, region, name string) string {
	return "projects/" + project + "/regions/" + region + "/resourcePolicies/" + name
}

// Get reads the policy name of project in region.
func (rp *ResourcePolicies) Get(ctx context.Context, project, region, name string) (*compute.ResourcePolicy, error) {
	return retryValue(ctx, rp.c, "resourcePolicies.get "+ResourcePolicyID(project, region, name), func(ctx context.Context) (*compute.ResourcePolicy, error) {
		return rp.svc.ResourcePolicies.Get(project, region, name).Context(ctx).Do()
	})
}

// Insert creates p in project and region and waits until its operation is
// done. A policy of that name that exists already is an error of
// ClassAlreadyExists, returned at once.
func (rp *ResourcePolicies) Insert(ctx context.Context, project, region string, p *compute.ResourcePolicy) error {
	if p == nil {
		return errors.New("resourcePolicies.insert: no policy")
	}
	id := newRequestID()
	op, err := retryValue(ctx, rp.c, "resourcePolicies.insert "+ResourcePolicyID(project, region, p.Name), func(ctx context.Context) (*compute.Operation, error) {
		return rp.svc.ResourcePolicies.Insert(project, region, p).RequestId(id).Context(ctx).Do()
	})
	if err != nil {
		return err
	}
	return rp.wait(ctx, project, region, op)
}

// Delete deletes the policy name and waits until its operation is done; a
// policy that does not exist is no error.
func (rp *ResourcePolicies) Delete(ctx context.Context, project, region, name string) error {
	id := newRequestID()
	op, err := retryValue(ctx, rp.c, "resourcePolicies.delete "+ResourcePolicyID(project, region, name), func(ctx context.Context) (*compute.Operation, error) {
		return rp.svc.ResourcePolicies.Delete(project, region, name).RequestId(id).Context(ctx).Do()
	})
	if Classify(err) == ClassNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	return rp.wait(ctx, project, region, op)
}

// wait polls a region operation until DONE through the one waiter
// ([WaitFor]); a DONE operation with an error is an *OperationError.
func (rp *ResourcePolicies) wait(ctx context.Context, project, region string, op *compute.Operation) error {
	if op == nil {
		return errors.New("waiting for a Compute Engine operation: no operation")
	}
	name := "projects/" + project + "/regions/" + region + "/operations/" + op.Name
	final, err := waitOperation(ctx, rp.c.poller, name, op, op.Status, func(ctx context.Context) (*compute.Operation, string, error) {
		o, err := rp.svc.RegionOperations.Get(project, region, op.Name).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return o, o.Status, nil
	})
	if err != nil {
		return err
	}
	if oe := computeOperationError(name, final); oe != nil {
		return oe
	}
	return nil
}

// ParseResourcePolicyName reads a resource policy reference as GKE's
// NodePool.placementPolicy.policyName and gcloud take it: a bare name (of
// the cluster's project and region), or a full or partial URL
// (…projects/P/regions/R/resourcePolicies/N). It returns the project and
// region the reference names, "" for a bare name.
func ParseResourcePolicyName(ref string) (project, region, name string, err error) {
	if !strings.Contains(ref, "/") {
		if ref == "" {
			return "", "", "", errors.New("empty resource policy name")
		}
		return "", "", ref, nil
	}
	segs := strings.Split(ref, "/")
	for i := 0; i+5 < len(segs); i++ {
		if segs[i] == "projects" && segs[i+2] == "regions" && segs[i+4] == "resourcePolicies" && i+6 == len(segs) &&
			segs[i+1] != "" && segs[i+3] != "" && segs[i+5] != "" {
			return segs[i+1], segs[i+3], segs[i+5], nil
		}
	}
	return "", "", "", fmt.Errorf("%q is neither a resource policy name nor projects/PROJECT/regions/REGION/resourcePolicies/NAME", ref)
}

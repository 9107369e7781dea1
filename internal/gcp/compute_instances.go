// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	compute "google.golang.org/api/compute/v1"
	"google.golang.org/api/googleapi"
)

// ComputeInstances is Compute Engine instances (TPU VMs created through
// Compute Engine, https://cloud.google.com/compute/docs/tpus/tpu-machines).
// Every call is retried with [Retry] and the clients' backoff until its
// context ends, except that a stale fingerprint (HTTP 412) is returned at
// once (see [IsStaleFingerprint]); calls that change an instance carry one
// requestId across their retries, so that Compute Engine ignores a repeat of
// a request it already took
// (https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert,
// query parameter requestId). Waits follow the clients' [Poller].
type ComputeInstances struct {
	c   *Clients
	svc *compute.Service
}

// ComputeInstances returns the instances client, building the Compute
// Engine client on first use.
func (c *Clients) ComputeInstances(ctx context.Context) (*ComputeInstances, error) {
	svc, err := c.Compute(ctx)
	if err != nil {
		return nil, err
	}
	return &ComputeInstances{c: c, svc: svc}, nil
}

// Get reads the instance name in project and zone.
func (ci *ComputeInstances) Get(ctx context.Context, project, zone, name string) (*compute.Instance, error) {
	return retryValue(ctx, ci.c, "instances.get "+InstanceID(project, zone, name), func(ctx context.Context) (*compute.Instance, error) {
		return ci.svc.Instances.Get(project, zone, name).Context(ctx).Do()
	})
}

// Read reads the instance name in project and zone for a refresh: from the
// one instances.list of the zone that these clients share among every
// instance they refresh there until their next write, or with Get when that
// list does not hold it (see TPUNodes.Read). Callers must not change it.
func (ci *ComputeInstances) Read(ctx context.Context, project, zone, name string) (*compute.Instance, error) {
	insts, ok := sharedList(ctx, &ci.c.reads.instances, project+"/"+zone, func(ctx context.Context) ([]*compute.Instance, error) {
		return ci.list(ctx, project, zone, "", LookupAttempts)
	}, func(inst *compute.Instance) string { return inst.Name })
	if inst := insts[name]; ok && inst != nil {
		return inst, nil
	}
	return ci.Get(ctx, project, zone, name)
}

// Insert starts creating inst in project and zone.
func (ci *ComputeInstances) Insert(ctx context.Context, project, zone string, inst *compute.Instance) (*compute.Operation, error) {
	if inst == nil {
		return nil, errors.New("instances.insert: no instance")
	}
	return ci.change(ctx, "instances.insert "+InstanceID(project, zone, inst.Name), func(ctx context.Context, id string) (*compute.Operation, error) {
		return ci.svc.Instances.Insert(project, zone, inst).RequestId(id).Context(ctx).Do()
	})
}

// Delete starts deleting the instance name.
func (ci *ComputeInstances) Delete(ctx context.Context, project, zone, name string) (*compute.Operation, error) {
	return ci.change(ctx, "instances.delete "+InstanceID(project, zone, name), func(ctx context.Context, id string) (*compute.Operation, error) {
		return ci.svc.Instances.Delete(project, zone, name).RequestId(id).Context(ctx).Do()
	})
}

// SetLabels starts replacing the labels of the instance name;
// req.LabelFingerprint must be the one last read.
func (ci *ComputeInstances) SetLabels(ctx context.Context, project, zone, name string, req *compute.InstancesSetLabelsRequest) (*compute.Operation, error) {
	return ci.change(ctx, "instances.setLabels "+InstanceID(project, zone, name), func(ctx context.Context, id string) (*compute.Operation, error) {
		return ci.svc.Instances.SetLabels(project, zone, name, req).RequestId(id).Context(ctx).Do()
	})
}

// SetMetadata starts replacing the metadata of the instance name;
// md.Fingerprint must be the one last read.
func (ci *ComputeInstances) SetMetadata(ctx context.Context, project, zone, name string, md *compute.Metadata) (*compute.Operation, error) {
	return ci.change(ctx, "instances.setMetadata "+InstanceID(project, zone, name), func(ctx context.Context, id string) (*compute.Operation, error) {
		return ci.svc.Instances.SetMetadata(project, zone, name, md).RequestId(id).Context(ctx).Do()
	})
}

// SetTags starts replacing the network tags of the instance name;
// tags.Fingerprint must be the one last read.
func (ci *ComputeInstances) SetTags(ctx context.Context, project, zone, name string, tags *compute.Tags) (*compute.Operation, error) {
	return ci.change(ctx, "instances.setTags "+InstanceID(project, zone, name), func(ctx context.Context, id string) (*compute.Operation, error) {
		return ci.svc.Instances.SetTags(project, zone, name, tags).RequestId(id).Context(ctx).Do()
	})
}

// change makes a call that starts an operation, retried like every call
// with one requestId, and stops at once on a stale fingerprint: retrying
// the same request cannot succeed, the caller must read the instance again.
func (ci *ComputeInstances) change(ctx context.Context, what string, call func(ctx context.Context, requestID string) (*compute.Operation, error)) (*compute.Operation, error) {
	ci.c.written()
	id := newRequestID()
	var stale error
	op, err := retryValue(ctx, ci.c, what, func(ctx context.Context) (*compute.Operation, error) {
		op, err := call(ctx, id)
		if IsStaleFingerprint(err) {
			stale = err
			return nil, nil
		}
		return op, err
	})
	if stale != nil {
		return nil, Compact(stale)
	}
	return op, err
}

// IsStaleFingerprint reports whether err is Compute Engine's answer to a
// change made with a fingerprint that is no longer the resource's: HTTP 412
// (reason conditionNotMet). Its Class is ClassConflict, but unlike other
// conflicts it does not pass by itself: the caller reads the resource
// again and retries with the new fingerprint.
func IsStaleFingerprint(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && ge.Code == http.StatusPreconditionFailed
}

// newRequestID is a random (version 4) UUID, the form requestId takes.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// ListNamed lists the instances named name in every zone of project
// (aggregatedList with a name filter), sorted by zone.
func (ci *ComputeInstances) ListNamed(ctx context.Context, project, name string) ([]*compute.Instance, error) {
	out, err := ci.list(ctx, project, "-", fmt.Sprintf("name = %q", name), 0)
	return slices.DeleteFunc(out, func(inst *compute.Instance) bool { return inst.Name != name }), err
}

// List lists the instances of project in zone, or in every zone when zone
// is "-" (aggregatedList), sorted by zone and name.
func (ci *ComputeInstances) List(ctx context.Context, project, zone string) ([]*compute.Instance, error) {
	return ci.list(ctx, project, zone, "", 0)
}

// list is instances.list of zone, or aggregatedList when zone is "-", with
// an optional filter; every page, sorted by zone and name. The whole list is
// retried until ctx ends or maxAttempts (0: no bound) calls failed.
func (ci *ComputeInstances) list(ctx context.Context, project, zone, filter string, maxAttempts int) ([]*compute.Instance, error) {
	var out []*compute.Instance
	err := ci.c.listPages(ctx, "instances.list "+zone+" "+filter, maxAttempts, func(ctx context.Context, token string) (string, error) {
		if zone != "-" {
			call := ci.svc.Instances.List(project, zone).PageToken(token)
			if filter != "" {
				call = call.Filter(filter)
			}
			page, err := call.Context(ctx).Do()
			if err != nil {
				return "", err
			}
			out = append(out, page.Items...)
			return page.NextPageToken, nil
		}
		call := ci.svc.Instances.AggregatedList(project).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		page, err := call.Context(ctx).Do()
		if err != nil {
			return "", err
		}
		for _, l := range page.Items {
			out = append(out, l.Instances...)
		}
		return page.NextPageToken, nil
	})
	out = slices.DeleteFunc(out, func(inst *compute.Instance) bool { return inst == nil })
	slices.SortFunc(out, func(a, b *compute.Instance) int {
		if c := strings.Compare(a.Zone, b.Zone); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, err
}

// Wait polls a zone operation until DONE through the one waiter ([WaitFor],
// the clients' [Poller]); a DONE operation with an error is an
// *OperationError, whose Reasons are the Compute Engine error codes (a
// stockout, ZONE_RESOURCE_POOL_EXHAUSTED, is ClassCapacity).
func (ci *ComputeInstances) Wait(ctx context.Context, op *compute.Operation) (*compute.Operation, error) {
	defer ci.c.written() // what the operation changed is not in answers read while it ran
	if op == nil {
		return nil, errors.New("waiting for a Compute Engine operation: no operation")
	}
	project, zone, ok := operationScope(op)
	if !ok && op.Status != operationDone {
		return op, fmt.Errorf("waiting for Compute Engine operation %q: its selfLink %q names no project and zone", op.Name, op.SelfLink)
	}
	name := "projects/" + project + "/zones/" + zone + "/operations/" + op.Name
	final, err := waitOperation(ctx, ci.c.poller, name, op, op.Status, func(ctx context.Context) (*compute.Operation, string, error) {
		o, err := ci.svc.ZoneOperations.Get(project, zone, op.Name).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return o, o.Status, nil
	})
	if err != nil {
		return final, err
	}
	if oe := computeOperationError(name, final); oe != nil {
		return final, oe
	}
	return final, nil
}

// Poller is the schedule for reading an instance that is changing state (see [WaitFor]).
func (ci *ComputeInstances) Poller() *Poller { return ci.c.poller }

// operationScope reads project and zone from a zone operation's selfLink
// (…/projects/P/zones/Z/operations/N).
func operationScope(op *compute.Operation) (project, zone string, ok bool) {
	segs := strings.Split(op.SelfLink, "/")
	for i := 0; i+4 < len(segs); i++ {
		if segs[i] == "projects" && segs[i+2] == "zones" && segs[i+4] == "operations" {
			return segs[i+1], segs[i+3], true
		}
	}
	return "", "", false
}

// computeOperationError is the *OperationError of a finished operation
// with errors, or nil. Compute Engine reports error.errors[{code, message}]
// with its own codes (such as ZONE_RESOURCE_POOL_EXHAUSTED, listed in
// https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability)
// and the HTTP status of the failure, which gives the google.rpc code.
func computeOperationError(name string, op *compute.Operation) *OperationError {
	if op.Error == nil || len(op.Error.Errors) == 0 {
		return nil
	}
	var info apiErrorInfo
	var msgs []string
	for _, e := range op.Error.Errors {
		if e == nil {
			continue
		}
		info.addReason(e.Code)
		if e.Message != "" {
			msgs = append(msgs, e.Message)
		}
	}
	code := rpcCodeForHTTP(int(op.HttpErrorStatusCode))
	return &OperationError{Operation: name, Code: code, Status: rpcCodeName(code), Message: strings.Join(msgs, "; "), Reasons: info.reasons}
}

// rpcCodeForHTTP is the google.rpc.Code of an HTTP status, by the mapping
// of https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto;
// UNKNOWN (2) for statuses it does not name.
func rpcCodeForHTTP(status int) int {
	codes := map[int]int{
		http.StatusBadRequest: 3, http.StatusUnauthorized: 16, http.StatusForbidden: 7, http.StatusNotFound: 5,
		http.StatusConflict: 6, http.StatusPreconditionFailed: 9, http.StatusTooManyRequests: 8,
		http.StatusInternalServerError: 13, http.StatusNotImplemented: 12, http.StatusServiceUnavailable: 14,
		http.StatusGatewayTimeout: 4,
	}
	if c, ok := codes[status]; ok {
		return c
	}
	return codeUnknown
}

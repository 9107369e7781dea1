// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package gcp is the one place the provider gets its Google Cloud clients
// from: the Cloud TPU v2 REST client (google.golang.org/api/tpu/v2, and
// v2alpha1 for flex-start queued resources), the GKE v1 REST client
// (google.golang.org/api/container/v1) and the Compute Engine v1 REST client
// (google.golang.org/api/compute/v1).
//
// It owns endpoints, authentication, the user agent, long-running operation
// polling, error classification, retry with jitter and a per-cluster operation
// limiter. It has no Terraform dependencies: callers pass a context and,
// optionally, a *slog.Logger in [Config].
//
// # One shape for every cloud call
//
// The provider builds one [Clients] from its configuration and keeps it in
// its provider data; there are no package globals. Every cloud call goes
// through a typed client handed out by it:
//
//   - [TPUNodes]: get, create, patch, delete, wait and list across zones of
//     Cloud TPU VMs; [Clients.ListTPUZoneOffer] lists a zone's accelerator
//     types and runtime versions.
//   - [TPUQueued]: Cloud TPU queued resources (Spot, reserved, flex-start
//     and multislice requests): create, get, delete and the wait for a
//     request to become ACTIVE.
//   - [ComputeCatalog]: Compute Engine zones, machine types, accelerator
//     types, regional quotas ([ComputeCatalog.RegionQuotas]) and
//     reservations, read at plan time for the live checks.
//   - [ComputeInstances]: Compute Engine instances (TPU VMs created through
//     Compute Engine with a TPU machine type): get, insert, delete,
//     setLabels, setMetadata, setTags, the list of one name across zones
//     and the wait for a zone operation. A stale fingerprint
//     ([IsStaleFingerprint]) is returned at once for the caller to read the
//     instance again; a stockout (ZONE_RESOURCE_POOL_EXHAUSTED) is
//     [ClassCapacity].
//   - [NodePools]: the node pools of one GKE cluster: list, get, create,
//     delete, update, setSize, setAutoscaling, setManagement, the cluster
//     itself, running operations and waits. A call GKE refuses because
//     another operation runs on the cluster finds that operation, waits for
//     it and is tried again; operations start through the per-cluster
//     [Limiter] the Clients holds, in the order of the jobs given to
//     [NodePools.Run].
//
// Resources reach these clients through small interfaces of their own, and
// the accel_runtime_version data source reaches the provider's live checks
// (package livecheck, over these clients) through one of its own, so that
// their tests can use a fake or the emulator.
//
// The pieces every client shares exist once:
//
//   - the one waiter, [WaitFor]: a [StateWait] names how to read an object
//     and its state, and which states are pending or a target; operation
//     waits ([Clients.WaitTPUOperation], [Clients.WaitContainerOperation],
//     [ComputeInstances.Wait])
//     and waits for a TPU VM or a node pool to settle all use it, paced by
//     the clients' [Poller] (the schedule of [Polling], jitter, and
//     [PollGroup] wake-ups);
//   - the one backoff source: the clients' backoff, derived from the
//     polling settings (with the defaults, [DefaultBackoff]), used by
//     [Retry] inside every call;
//   - the one normalisation of the polling settings, done by [NewClients];
//   - the one helper for reads after a deadline, [AfterDeadline], and for
//     a call that must outlive the request that started it, [Detach];
//   - the one way reads are shared among the resources a Clients serves
//     until it starts a write (sharedReads): the plan-time read of a GKE
//     cluster, and the lists a refresh reads its objects from, one per zone
//     ([TPUNodes.Read], [ComputeInstances.Read]), cluster
//     ([NodePools.Read]) or project ([TPUNodes.ReadNamed]). A list is only
//     used to find an object: one it does not hold is read with a get, and
//     a list that fails falls back to a get per object.
//
// # Bounds
//
// Every call, retry and wait ends when its context does, and none runs
// without a bound:
//
//   - [Retry] retries rate limits (429), conflicts and Google's own 5xx
//     errors with backoff until the context's deadline (the resource's
//     timeout) or its cancellation (Terraform's stop signal). A context
//     without a deadline, as in a refresh or a plan-time read, is given one
//     of [NoDeadlineTimeout] (2 minutes).
//   - An answer that is not the API's (HTML, a content type other than JSON,
//     an error status without Google's JSON error body, as a proxy's login
//     page or a load balancer in front of nothing gives) is an
//     [*EndpointError] of class [ClassNotAPI]. It gets [NotAPIAttempts] (3)
//     calls in all, in [Retry] and in the operation waiters, then fails with
//     the status, content type and first bytes of the answer, the endpoint,
//     and the provider setting and environment variable that choose it.
//   - The read that records what exists after the deadline passed or the
//     apply was stopped runs on a context from [AfterDeadline]: the
//     context's values without its cancellation, for at most
//     [FinalReadTimeout] (30 seconds).
//   - A list shared by a refresh gets [LookupAttempts] calls and
//     [SharedListTimeout] (30 seconds); after either, every read waiting
//     for it makes its own call.
//
// So an operation returns at most FinalReadTimeout after its timeout or
// Terraform's stop signal, and a refresh against an endpoint that is not
// the API fails after three answers (a few seconds), against one that keeps
// answering Google's 429 or 503 after NoDeadlineTimeout.
package gcp

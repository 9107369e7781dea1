// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

// Package emulator is a local emulator of the Cloud TPU v2 REST API and the
// GKE (container) v1 REST API, for acceptance tests, demos and benchmarks.
//
// It is one HTTP server on loopback. The generated clients
// google.golang.org/api/tpu/v2 and google.golang.org/api/container/v1 talk
// to it unchanged:
//
//	srv, err := emulator.Start(emulator.Options{})
//	if err != nil { ... }
//	defer srv.Close()
//	tpuSvc, _ := tpu.NewService(ctx, option.WithEndpoint(srv.TPUEndpoint()), option.WithoutAuthentication())
//	gkeSvc, _ := container.NewService(ctx, option.WithEndpoint(srv.ContainerEndpoint()), option.WithoutAuthentication())
//
// # What it serves
//
// Cloud TPU API, under /v2/ and the same handlers under /v2alpha1/:
// projects/{p}/locations (list, get); locations/{zone}/nodes (create with
// ?nodeId=, list with pageSize/pageToken, get, patch with ?updateMask=,
// delete, :start, :stop); acceleratorTypes and runtimeVersions (list, get);
// operations (list, get). Operations are google.longrunning operations named
// projects/{p}/locations/{zone}/operations/operation-…, whose response is the
// node with "@type": "type.googleapis.com/google.cloud.tpu.v2.Node".
// Node states: CREATING → READY, STOPPING → STOPPED, STARTING → READY,
// DELETING → gone.
//
// GKE API, under /v1/ (projects/{p}/locations/{l} and the older
// projects/{p}/zones/{z} form): clusters (list, get); nodePools (create, list,
// get, update, delete, :setSize, :setAutoscaling, :setManagement); operations
// (list, get). Operation names are bare ids (operation-…). Node-pool states:
// PROVISIONING → RUNNING, RUNNING_WITH_ERROR or ERROR; RECONCILING during
// updates; STOPPING → gone. Clusters are seeded by the scenario; clients
// cannot create them.
//
// Compute Engine API, under /compute/v1/ (ComputeEndpoint): zones,
// regions, machine types, accelerator types, reservations, the instance
// group managers of node pools, and instances: insert, get, list,
// aggregatedList (filter name = "x", name = x or name eq x), delete,
// setLabels, setMetadata and setTags, with their zone operations
// (zoneOperations get and wait; wait answers at once), and regional
// resource policies of the workload kind (insert, get, list, delete; a
// policy a node pool's placementPolicy.policyName names cannot be
// deleted) with their region operations. Operations are
// compute#operation, PENDING in the answer that starts them, then RUNNING,
// then DONE, with error.errors[{code, message}] when they fail. Instance
// statuses: PROVISIONING → STAGING (half-way through the insert) →
// RUNNING; STOPPING while deleting; TERMINATED after PreemptInstance. An
// insert needs an RFC 1035 name, a machine type of the zone (the TPU
// machine types where the scenario lists them), exactly one boot disk from
// an image of Scenario.Images (by name or family; an unknown one is 404),
// and attached disks of the same zone; set* calls need the current
// fingerprint (412 conditionNotMet otherwise). Compute Engine errors use
// its envelope, {"error":{"code":…,"message":…,"errors":[{"reason":…}]}}.
//
// Errors use the Google envelope
// {"error":{"code":404,"message":"…","status":"NOT_FOUND","details":[…]}}
// with google.rpc detail messages (ErrorInfo, RequestInfo, ResourceInfo,
// BadRequest) that the clients' apierror parser accepts.
//
// # Time
//
// Operations run on the server's Clock (Options.Clock, default the system
// clock; ManualClock for step-by-step tests). Each takes its scenario
// duration (Durations; 50ms by default). Progress is computed lazily when a
// request arrives: no goroutine runs per operation, so an idle emulator costs
// nothing.
//
// # Realism
//
// Validation follows the public API references and TPU and GKE
// documentation, modestly: TPU node ids (RFC 1035), accelerator types and runtime
// versions per zone, GKE node-pool names, TPU slice topologies against
// machine types (a ct6e-standard-4t pool with tpuTopology 4x4 needs
// initialNodeCount 4), accelerator machine types per zone and minimum GKE
// versions. GKE adds taints for TPU and GPU pools and the
// goog-gke-node-pool-provisioning-model resource label (GKEAdditions
// switches them off). Concurrency: one cluster-level operation at a time, one
// operation per node pool, optional serialized pool creates
// (SerializePoolCreates) answered with 400 FAILED_PRECONDITION
// CLUSTER_ALREADY_HAS_OPERATION, and a per-cluster concurrent operations
// quota answered with 429. Each rule's source or assumption is noted where
// it is implemented.
//
// # Faults
//
// From Go, or over HTTP under /admin/ (GET /admin/help lists the
// endpoints):
//   - SetCapacity(zone, type, n): TPU creates end with error code 8 "There is
//     no more capacity in the zone …" and leave no node; GKE creates end DONE
//     with code 8, a GCE_STOCKOUT status message and an ErrorInfo
//     ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS whose metadata
//     zones_available lists the zones with room; the pool is ERROR, or
//     RUNNING_WITH_ERROR when some nodes fit. With a machine type as the
//     type, Compute Engine instance inserts end DONE with error code
//     ZONE_RESOURCE_POOL_EXHAUSTED ("The zone '…' does not have enough
//     resources available to fulfill the request. …") and leave no
//     instance. SetCapacityAfterCalls sets it once a number of calls were
//     counted: capacity that arrives while a client waits. FailQueuedIn
//     fails the queued resources waiting in a zone.
//   - SetLatency(method, d) delays every answer (of one method, or of every
//     method with ""), on the real clock: a Google-like round trip for
//     benchmarks.
//   - FailNext(method, n, httpCode), FailNextOperations(method, n, rpcCode),
//     SetRateLimit(method, every) (429 RATE_LIMIT_EXCEEDED), HangOperations,
//     HoldCluster (an UPGRADE_MASTER operation that blocks pool operations).
//   - Holds that end on an event rather than after a time, for tests that
//     need "the provider acted while X still ran" on any machine:
//     HangOperationsUntilCalls(method, callMethod, n) and
//     HoldClusterUntilCalls(…, method, n) end once n more calls of a method
//     were counted.
//   - Out of band: DeleteNode, DeleteNodePool, PreemptInstance (a Spot VM
//     becomes TERMINATED, or is gone with instanceTerminationAction
//     DELETE), SetInstanceStatus, SetImage; snapshots Nodes, NodePools,
//     Instances, Instance; Counters, Reset, Snapshot (which leaves out
//     instances), LoadSnapshot.
//
// Method names are listed by Methods, such as "tpu.nodes.create",
// "tpu.operations.get", "container.nodePools.create" and
// "compute.instances.insert".
//
// # Command
//
// go run ./internal/emulator/cmd/accel-emulator [-addr 127.0.0.1:8089]
// [-scenario file.json] [-serialize-pool-creates] [-latency 100ms] [-snapshot file] listens on
// a free loopback port unless -addr names one, prints the environment to
// export (ACCEL_TPU_ENDPOINT, ACCEL_CONTAINER_ENDPOINT, ACCEL_COMPUTE_ENDPOINT)
// and serves until SIGINT or SIGTERM. It can then be driven with curl, e.g.
// (with -addr 127.0.0.1:8089)
//
//	curl -s -XPOST localhost:8089/admin/capacity -d '{"zone":"us-central1-a","type":"v5litepod-4","count":0}'
//	curl -s localhost:8089/admin/counters
//
// A scenario file is JSON in the form of Scenario; fields it leaves out keep
// their Default values.
//
// # Layout
//
// One package, in parts named like the APIs it serves, around a shared
// core. The core: server.go (the server, routing by API, pagination,
// capacity, settings), ops.go (the clock and long-running operations),
// errors.go (the error envelopes), faults.go (injected faults and the
// method names), admin.go (the admin API's driver and its core verbs),
// core_snapshot.go (Snapshot, LoadSnapshot), scenario.go (Scenario,
// Default), core_topology.go (TPU slice topologies), kms.go and
// core_facts.go (the facts all APIs share: labels, resource names,
// flex-start). The core reaches an API only through named hooks: its
// route (routeTPU, routeContainer, routeCompute), its state (tpuState,
// gkeState, computeState), its method lists, its admin verbs
// (tpuAdminVerbs, …) and its part of a snapshot.
//
// Cloud TPU, tpu_*.go: tpu.go (state, routing, errors), tpu_catalog.go
// (locations, accelerator types, runtime versions), tpu_nodes.go,
// tpu_ops.go, tpu_queued.go, tpu_admin.go. GKE, gke_*.go: gke.go (state,
// clusters and pools), gke_routes.go, gke_clusters.go, gke_pools.go,
// gke_validate.go, gke_tpu_shape.go, gke_settings.go, gke_local_ssd.go,
// gke_provisioning.go, gke_capacity.go, gke_updates.go, gke_ops.go,
// gke_admin.go. Compute Engine, compute_*.go: compute.go (routing, zones,
// machine and accelerator types), compute_instances.go,
// compute_capacity.go (quotas, reservations), compute_igm.go,
// compute_resource_policies.go, compute_admin.go.
//
// Each API's facts have one home, written from Google's public references
// with their sources beside them: tpu_facts.go (TPU generations, with their
// accelerator types, machine types and boot disks; runtime versions),
// gke_facts.go (names, node pool defaults and limits, minimum versions,
// Default's clusters) and compute_facts.go (GPU machine families, N1 GPUs,
// boot disks, general machine types, images). Adding a GPU family is one
// row of gpuMachineFamilies; adding a TPU generation one entry of
// tpuFamilies.
//
// The package imports nothing else from this project.
package emulator

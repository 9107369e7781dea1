// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// refreshEmulator starts an emulator with instant operations whose lists
// answer pageSize items a page.
func refreshEmulator(t *testing.T, pageSize int) *emulator.Server {
	t.Helper()
	sc := emulator.Default()
	sc.Durations = emulator.Durations{}
	sc.ListPageSize = pageSize
	srv, err := emulator.Start(emulator.Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// calls returns how many calls of each method srv answered since before.
func calls(srv *emulator.Server, before map[string]int64, methods ...string) map[string]int64 {
	now := srv.Counters()
	out := map[string]int64{}
	for _, m := range methods {
		out[m] = now[m] - before[m]
	}
	return out
}

// TestTPUNodesReadSharesOneListPerZone: a refresh of N nodes in Z zones
// reads every page of one nodes.list per zone, each caller getting its own
// node; a node the list lacks is read with a get, and only that get's 404
// says it is gone; a write makes the next read list again; a list the
// caller may not make costs one call, and every read still gets its node.
func TestTPUNodesReadSharesOneListPerZone(t *testing.T) {
	t.Parallel()
	srv := refreshEmulator(t, 2)
	ctx := context.Background()
	newNodes := func() *gcp.TPUNodes {
		c := gcp.NewClients(gcp.Config{TPUEndpoint: srv.TPUEndpoint(), Polling: fastPolling()})
		n, err := c.TPUNodes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	nodes := newNodes()
	zones := []string{"us-central1-b", "us-east5-b"}
	var names []string
	for _, z := range zones {
		parent := "projects/p/locations/" + z
		for i := range 3 {
			id := fmt.Sprintf("vm-%d", i)
			op, err := nodes.Create(ctx, parent, id, &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"})
			if err == nil {
				_, err = nodes.Wait(ctx, op)
			}
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, parent+"/nodes/"+id)
		}
	}
	missing := "projects/p/locations/us-central1-b/nodes/never-made"

	readAll := func(n *gcp.TPUNodes) {
		t.Helper()
		var wg sync.WaitGroup
		for _, name := range names {
			wg.Go(func() {
				got, err := n.Read(ctx, name)
				if err != nil || got.Name != name || got.AcceleratorType != "v6e-4" {
					t.Errorf("Read(%s) = %v, %v; want that node", name, got, err)
				}
			})
		}
		wg.Go(func() {
			if got, err := n.Read(ctx, missing); gcp.Classify(err) != gcp.ClassNotFound {
				t.Errorf("Read of a node that never existed = %v, %v; want not found", got, err)
			}
		})
		wg.Wait()
	}

	before := srv.Counters()
	readAll(nodes)
	readAll(nodes) // answered from the same lists, but for the missing node
	// Three nodes a zone at two a page: two pages in each of two zones.
	want := map[string]int64{emulator.MethodTPUNodesList: 4, emulator.MethodTPUNodesGet: 2}
	if got := calls(srv, before, emulator.MethodTPUNodesList, emulator.MethodTPUNodesGet); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("two refreshes of %d nodes in %d zones made %v, want %v", len(names), len(zones), got, want)
	}

	// The plan-time search for a name in every zone shares one list of
	// locations/- (six nodes at two a page: three pages).
	planner := newNodes()
	before = srv.Counters()
	for range 2 {
		for _, id := range []string{"vm-1", "vm-2"} {
			got, err := planner.ReadNamed(ctx, "p", id)
			if err != nil || len(got) != len(zones) || got[0].Name != "projects/p/locations/us-central1-b/nodes/"+id ||
				got[1].Name != "projects/p/locations/us-east5-b/nodes/"+id {
				t.Errorf("ReadNamed(%s) = %v, %v; want the VM of that name in each zone", id, got, err)
			}
		}
	}
	if got := calls(srv, before, emulator.MethodTPUNodesList, emulator.MethodTPUNodesGet); got[emulator.MethodTPUNodesList] != 3 || got[emulator.MethodTPUNodesGet] != 0 {
		t.Errorf("four plan-time searches made %v, want the three pages of one list", got)
	}

	// A write by these clients: the next read lists again and sees it.
	op, err := nodes.Delete(ctx, names[0])
	if err == nil {
		_, err = nodes.Wait(ctx, op)
	}
	if err != nil {
		t.Fatal(err)
	}
	before = srv.Counters()
	if got, err := nodes.Read(ctx, names[0]); gcp.Classify(err) != gcp.ClassNotFound {
		t.Errorf("Read after the delete = %v, %v; want not found", got, err)
	}
	if got := calls(srv, before, emulator.MethodTPUNodesList, emulator.MethodTPUNodesGet); got[emulator.MethodTPUNodesList] != 1 || got[emulator.MethodTPUNodesGet] != 1 {
		t.Errorf("the read after a write made %v, want a new list (one page) and the get that proves the node gone", got)
	}

	// A role that may not list: one refused list, then a get for each node.
	names = names[1:]
	if err := srv.FailNext(emulator.MethodTPUNodesList, 10, 403); err != nil {
		t.Fatal(err)
	}
	before = srv.Counters()
	readAll(newNodes())
	got := calls(srv, before, emulator.MethodTPUNodesList, emulator.MethodTPUNodesGet)
	if got[emulator.MethodTPUNodesList] != int64(len(zones)) || got[emulator.MethodTPUNodesGet] != int64(len(names)+1) {
		t.Errorf("a refresh whose lists are refused made %v, want one list a zone and one get a node", got)
	}
}

// TestComputeInstancesReadSharesOneListPerZone: the same for Compute
// Engine instances (accel_tpu_vm with api = "compute_engine").
func TestComputeInstancesReadSharesOneListPerZone(t *testing.T) {
	t.Parallel()
	srv := refreshEmulator(t, 0)
	srv.SetCapacity(ciZone, ciMachine, 3)
	ci := instancesClient(t, srv.ComputeEndpoint())
	ctx := context.Background()
	for i := range 3 {
		op, err := ci.Insert(ctx, "p", ciZone, ironwood(fmt.Sprintf("tpu-%d", i)))
		if err == nil {
			_, err = ci.Wait(ctx, op)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	before := srv.Counters()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			name := fmt.Sprintf("tpu-%d", i)
			got, err := ci.Read(ctx, "p", ciZone, name)
			switch {
			case i == 3 && gcp.Classify(err) != gcp.ClassNotFound:
				t.Errorf("Read(%s), never made = %v, %v; want not found", name, got, err)
			case i < 3 && (err != nil || got.Name != name):
				t.Errorf("Read(%s) = %v, %v", name, got, err)
			}
		})
	}
	wg.Wait()
	got := calls(srv, before, emulator.MethodComputeInstancesList, emulator.MethodComputeInstancesGet)
	if got[emulator.MethodComputeInstancesList] != 1 || got[emulator.MethodComputeInstancesGet] != 1 {
		t.Errorf("a refresh of 3 instances and a missing one made %v, want one list and one get", got)
	}
}

// TestListResumesAfterRateLimit: a paged list that meets a rate limit on a
// page asks for that page again, with its token, and goes on from there;
// it does not start over from the first page. Here every third call of
// nodes.list answers 429: starting over, a list of four pages would never
// end; resuming, it takes five calls.
func TestListResumesAfterRateLimit(t *testing.T) {
	t.Parallel()
	srv := refreshEmulator(t, 2)
	ctx := context.Background()
	c := gcp.NewClients(gcp.Config{TPUEndpoint: srv.TPUEndpoint(), Polling: fastPolling()})
	nodes, err := c.TPUNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	parent := "projects/p/locations/us-central1-b"
	for i := range 8 {
		op, err := nodes.Create(ctx, parent, fmt.Sprintf("vm-%d", i), &tpu.Node{AcceleratorType: "v6e-4", RuntimeVersion: "v2-alpha-tpuv6e"})
		if err == nil {
			_, err = nodes.Wait(ctx, op)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	const list = "tpu.nodes.list"
	if err := srv.SetRateLimit(list, 3); err != nil {
		t.Fatal(err)
	}
	before := srv.Counters()
	// A list that started over would never end: the deadline only ends
	// such a failure, it measures nothing.
	lctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	got, err := nodes.List(lctx, "p", "us-central1-b")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 8 {
		t.Errorf("listed %d nodes, want 8", len(got))
	}
	if n := calls(srv, before, list)[list]; n != 5 {
		t.Errorf("%s called %d times for 4 pages with a 429 every third call, want 5 (4 pages and the one retried)", list, n)
	}
}

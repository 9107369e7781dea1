// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package faultsuite_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"

	container "google.golang.org/api/container/v1"
	"google.golang.org/api/option"

	"github.com/accel-dev/terraform-provider-accel/internal/acctest"
	"github.com/accel-dev/terraform-provider-accel/internal/emulator"
	"github.com/accel-dev/terraform-provider-accel/internal/faultsuite"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// poolGuardScenarios are the accel_fallback_nodepools scenarios of what the
// resource must never do: touch a pool it did not create (whatever the
// command: -replace, taint, a saved plan), outlive Terraform, or keep
// calling GKE without bound once interrupted or blocked.
func poolGuardScenarios() []scenario {
	return []scenario{
		{name: "node_pools/replace_beside_foreign_pool", kind: faultsuite.TypeNodePools, want: 1, run: replaceBesideForeignPool},
		{name: "node_pools/foreign_pool_after_plan", kind: faultsuite.TypeNodePools, want: 1, run: foreignPoolAfterPlan},
		{name: "node_pools/sigint_while_list_429", kind: faultsuite.TypeNodePools, want: 2, run: sigintWhileListRateLimited},
		{name: "node_pools/operations_list_500_while_busy", kind: faultsuite.TypeNodePools, want: 2, run: operationsList500WhileBusy},
		{name: "node_pools/forged_owner_label", kind: faultsuite.TypeNodePools, want: 2, run: forgedOwnerLabel},
		{name: "node_pools/terraform_killed_alone", kind: faultsuite.TypeNodePools, want: 1, run: func(h *harness) {
			// Terraform alone is killed while the provider waits for a create
			// that never finishes: the provider must not outlive it.
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
			h.poolsConfig(1, "")
			h.killTerraformAlone(emulator.MethodNodePoolsCreate)
			h.orphansSeen += len(h.reconcile().Orphans)
			mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))
			h.recoverFirstApply()
		}},
	}
}

const poolsAddress = "accel_fallback_nodepools.test"

// mutatingPoolMethods are the GKE calls that change or delete a node pool.
var mutatingPoolMethods = []string{
	emulator.MethodNodePoolsCreate, emulator.MethodNodePoolsDelete, emulator.MethodNodePoolsUpdate,
	emulator.MethodNodePoolsSetSize, emulator.MethodNodePoolsSetAutoscaling, emulator.MethodNodePoolsSetManagement,
}

// replaceBesideForeignPool: neither `apply -replace` nor a taint of a
// healthy resource acts on a pool the resource did not create, whether a
// tier names it or it took the place of the resource's own pool.
func replaceBesideForeignPool(h *harness) {
	replace := "-replace=" + poolsAddress
	foreign := "default-" + h.prefix
	h.foreignPool(foreign)
	body := h.poolsBody(2, "")
	h.write(body)
	h.apply(nil)

	// A tier names the foreign pool: the plan of the replacement stops, and
	// nothing is created, changed or deleted.
	h.write(withGPUTier(body, foreign))
	h.callsNothing(mutatingPoolMethods, "apply -replace while a tier names a foreign pool", func() { h.applyWith(poolExists, replace) })
	h.cli("taint", "-no-color", poolsAddress)
	h.callsNothing(mutatingPoolMethods, "apply of the tainted resource while a tier names a foreign pool", func() { h.apply(poolExists) })
	h.expectForeignUntouched("after the refused replacements")

	// Without that tier, the tainted resource is replaced (-replace asks
	// for the same): its own two pools are deleted and created again.
	h.write(body)
	deletes, creates := h.calls(emulator.MethodNodePoolsDelete), h.calls(emulator.MethodNodePoolsCreate)
	h.applyWith(nil, replace)
	if d, c := h.calls(emulator.MethodNodePoolsDelete)-deletes, h.calls(emulator.MethodNodePoolsCreate)-creates; d != 2 || c != 2 {
		h.t.Fatalf("the replacement made %d delete and %d create calls, want 2 and 2 (the resource's own pools)", d, c)
	}
	h.expectForeignUntouched("after the replacement")

	// Tier 1's pool is deleted outside Terraform and someone else creates a
	// pool of its name: -replace must not delete or adopt it.
	own := h.tg.Cluster + "/nodePools/" + h.prefix + "-1"
	mustFault(h.t, h.tg.Emulator.DeleteNodePool(own))
	h.foreignPool(h.prefix + "-1")
	h.callsNothing(mutatingPoolMethods, "apply -replace after a foreign pool took the place of the resource's own", func() { h.applyWith(poolExists, replace) })
	h.expectForeignUntouched("after the refused -replace")

	// The configuration drops that tier; the destroy at the end deletes
	// tier 0's pool only.
	h.write(h.poolsBody(1, ""))
	h.apply(nil)
	h.expectForeignUntouched("after the apply without the tier")
}

// foreignPoolAfterPlan: unlabelled pools created between `plan -out` and the
// apply of that plan, named by a tier the plan adds to an existing resource
// and by the tier of a resource the plan creates. The apply's own plan
// cannot read the cluster, so the creates are what find them: the engine's
// create refuses the first (ALREADY_EXISTS, not this resource's), the new
// resource's check of existing pools the second. Neither is recorded.
func foreignPoolAfterPlan(h *harness) {
	h.poolsConfig(1, "")
	h.apply(nil)
	late := h.prefix + "-late"
	h.write(h.poolsBody(2, "") + h.gpuPoolsResource("late", late+"-class", late))
	h.cli("plan", "-input=false", "-no-color", "-out=tfplan")
	h.foreignPool(h.prefix + "-1")
	h.foreignPool(late)

	const forever = 1 << 30
	mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodClustersGet, forever, 503))
	creates, deletes := h.calls(emulator.MethodNodePoolsCreate), h.calls(emulator.MethodNodePoolsDelete)
	out := h.applyWith(anyError, "tfplan")
	mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodClustersGet, 0, 503))
	text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " ")
	for _, want := range []string{
		"Node Pool Already Exists", "It is not adopted, not recorded in the state", // the update's create
		"Node Pools Already Exist", "Nothing was created", // the new resource's check
	} {
		if !strings.Contains(text, want) {
			h.t.Fatalf("apply of the saved plan does not say %q:\n%s", want, text)
		}
	}
	if c, d := h.calls(emulator.MethodNodePoolsCreate)-creates, h.calls(emulator.MethodNodePoolsDelete)-deletes; c != 1 || d != 0 {
		h.t.Fatalf("the apply made %d create and %d delete calls, want 1 (the refused create of tier 1) and 0", c, d)
	}
	st, err := h.ws.State()
	if err != nil {
		h.t.Fatal(err)
	}
	if res := st.Resources(); len(res) != 1 || res[0].Address != poolsAddress {
		h.t.Fatalf("state after the refused apply has %d resources, want only %s", len(res), poolsAddress)
	}
	h.expectForeignUntouched("after the apply of the saved plan")

	// The configuration drops what the foreign pools took; the destroy at
	// the end leaves them.
	h.write(h.poolsBody(1, ""))
}

// sigintWhileListRateLimited: Ctrl-C while one pool runs and a second one is
// being created, with every node pool list answering 429. Terraform exits
// after a bounded read (at most gcp.LookupAttempts list calls, not retries
// until gcp.FinalReadTimeout), the running pool is kept (the resource is not
// tainted), and the next apply neither deletes nor creates a pool.
func sigintWhileListRateLimited(h *harness) {
	h.poolsConfig(1, "")
	h.apply(nil)
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, true))
	h.poolsConfig(2, "")
	var lists int64
	took := h.interruptedApplyAt(emulator.MethodNodePoolsCreate, syscall.SIGINT, func() {
		mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodNodePoolsList, 1))
		lists = h.calls(emulator.MethodNodePoolsList)
	})
	// The only list after the signal is the read that records what exists.
	if n := h.calls(emulator.MethodNodePoolsList) - lists; n > gcp.LookupAttempts {
		h.t.Fatalf("%d node pool list calls after SIGINT, want at most gcp.LookupAttempts = %d", n, gcp.LookupAttempts)
	}
	h.t.Logf("faultsuite: scenario=%s observed: terraform exited %s after SIGINT while every node pool list answered 429 "+
		"(the read that records what exists makes at most gcp.LookupAttempts = %d list calls)", h.scenario(), took.Round(100*time.Millisecond), gcp.LookupAttempts)
	h.orphansSeen += len(h.reconcile().Orphans)
	mustFault(h.t, h.tg.Emulator.SetRateLimit(emulator.MethodNodePoolsList, 0))
	mustFault(h.t, h.tg.Emulator.HangOperations(emulator.MethodNodePoolsCreate, false))

	res := h.untainted("after the interrupt")
	status := map[string]string{}
	tiers, _ := res.Values["tiers"].([]any)
	for _, t := range tiers {
		tier, _ := t.(map[string]any)
		name, _ := tier["name"].(string)
		status[name], _ = tier["status"].(string)
	}
	if status[h.prefix+"-0"] != "RUNNING" || status[h.prefix+"-1"] != "UNKNOWN" {
		h.t.Fatalf("tiers in state after the interrupt: %v; want %s-0 RUNNING and %s-1 UNKNOWN (not read: every list answered 429)", status, h.prefix, h.prefix)
	}
	deletes, creates := h.calls(emulator.MethodNodePoolsDelete), h.calls(emulator.MethodNodePoolsCreate)
	h.apply(nil)
	if d, c := h.calls(emulator.MethodNodePoolsDelete)-deletes, h.calls(emulator.MethodNodePoolsCreate)-creates; d != 0 || c != 0 {
		h.t.Fatalf("the apply after the interrupt made %d delete and %d create calls, want none", d, c)
	}
}

// operationsList500WhileBusy: the cluster is held by another operation
// until the provider's third create call, and every operations.list (the
// lookup of what blocks a refused create) answers 500. The apply completes;
// each refused create costs at most gcp.LookupAttempts list calls.
func operationsList500WhileBusy(h *harness) {
	const holdCreates, pools, forever = 3, 2, 1 << 30
	if _, err := h.tg.Emulator.HoldClusterUntilCalls(acctest.EmulatorProject, "us-central1", "serving",
		emulator.MethodNodePoolsCreate, holdCreates); err != nil {
		h.t.Fatal(err)
	}
	mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodContainerOperationsList, forever, 500))
	h.poolsConfig(pools, "")
	h.apply(nil)
	mustFault(h.t, h.tg.Emulator.FailNext(emulator.MethodContainerOperationsList, 0, 500))
	creates, lists := h.calls(emulator.MethodNodePoolsCreate), h.calls(emulator.MethodContainerOperationsList)
	refused := creates - pools
	h.t.Logf("faultsuite: scenario=%s observed: %d create calls (%d refused while the cluster was busy), %d operations.list calls",
		h.scenario(), creates, refused, lists)
	switch {
	case creates < holdCreates || creates > holdCreates+pools:
		h.t.Fatalf("%d create calls, want %d to %d: the hold ends at create call %d", creates, holdCreates, holdCreates+pools, holdCreates)
	case lists < gcp.LookupAttempts || lists > gcp.LookupAttempts*refused:
		h.t.Fatalf("%d operations.list calls for %d refused creates, want %d to %d (gcp.LookupAttempts = %d per refusal)",
			lists, refused, gcp.LookupAttempts, gcp.LookupAttempts*refused, gcp.LookupAttempts)
	}
}

// --- helpers ---------------------------------------------------------------

// untainted returns the only resource of the state, failing unless there
// is exactly one and it is not tainted.
func (h *harness) untainted(when string) faultsuite.StateResource {
	h.t.Helper()
	st, err := h.ws.State()
	if err != nil {
		h.t.Fatal(err)
	}
	res := st.Resources()
	if len(res) != 1 || res[0].Tainted {
		h.t.Fatalf("state %s: %d resources (tainted: %v), want one, not tainted", when, len(res), len(res) == 1 && res[0].Tainted)
	}
	return res[0]
}

// gpuPoolsResource is an accel_fallback_nodepools named name with one L4 tier
// named tier, for ComputeClass class, on the scenario's cluster.
func (h *harness) gpuPoolsResource(name, class, tier string) string {
	return fmt.Sprintf(`
resource "accel_fallback_nodepools" %q {
  cluster       = %q
  compute_class = %q
  tiers {
    name           = %q
    machine_type   = "g2-standard-4"
    gpu_type       = "nvidia-l4"
    node_locations = ["us-central1-a"]
  }
}
`, name, h.tg.Cluster, class, tier)
}

// scenario is the scenario's name, for its log lines.
func (h *harness) scenario() string {
	_, name, _ := strings.Cut(h.t.Name(), "/")
	return name
}

// calls is the number of calls of method the emulator received.
func (h *harness) calls(method string) int64 { return h.tg.Emulator.Counters()[method] }

// callsNothing runs fn and fails if the emulator received a call of any of
// methods meanwhile.
func (h *harness) callsNothing(methods []string, what string, fn func()) {
	h.t.Helper()
	before := h.tg.Emulator.Counters()
	fn()
	after := h.tg.Emulator.Counters()
	for _, m := range methods {
		if n := after[m] - before[m]; n != 0 {
			h.t.Fatalf("%s: %d calls of %s, want none", what, n, m)
		}
	}
}

// cli runs terraform with args and fails on an error.
func (h *harness) cli(args ...string) faultsuite.Output {
	h.t.Helper()
	out, err := h.ws.Run(h.ctx(), args...)
	if err != nil {
		h.t.Fatalf("terraform %v: %v", args, err)
	}
	return out
}

// withGPUTier adds an L4 GPU tier named name to a configuration body of one
// accel_fallback_nodepools (poolsBody).
func withGPUTier(body, name string) string {
	return strings.TrimSuffix(body, "}\n") + fmt.Sprintf("  tiers {\n    name           = %q\n    machine_type   = \"g2-standard-4\"\n"+
		"    gpu_type       = \"nvidia-l4\"\n    node_locations = [\"us-central1-a\"]\n  }\n}\n", name)
}

// foreignPool creates, through the GKE API as someone else would, a node
// pool named name without any label on the scenario's cluster, and waits
// until it runs. The pool is then no orphan for the reconciliation, and the
// scenario fails unless it is still there, exactly as it was, after the
// destroy at the end.
func (h *harness) foreignPool(name string) {
	h.t.Helper()
	h.foreignPoolWith(name, &container.NodeConfig{MachineType: "e2-standard-4"})
}

// foreignPoolWith is foreignPool with the node configuration cfg.
func (h *harness) foreignPoolWith(name string, cfg *container.NodeConfig) {
	h.t.Helper()
	svc, err := container.NewService(h.ctx(), option.WithEndpoint(h.tg.Emulator.ContainerEndpoint()), option.WithoutAuthentication())
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := svc.Projects.Locations.Clusters.NodePools.Create(h.tg.Cluster, &container.CreateNodePoolRequest{NodePool: &container.NodePool{
		Name: name, InitialNodeCount: 1, Locations: []string{"us-central1-a"}, Config: cfg,
	}}).Do(); err != nil {
		h.t.Fatal(err)
	}
	full := h.tg.Cluster + "/nodePools/" + name
	var seen string
	if err := h.waitFor(func() bool {
		p, ok := h.poolInfo(full)
		if ok && p.NodePool.Status == "RUNNING" {
			seen = poolJSON(h, p)
		}
		return seen != ""
	}); err != nil {
		h.t.Fatalf("node pool %s created outside Terraform does not run: %v", full, err)
	}
	if h.foreign == nil {
		h.foreign = map[string]string{}
		h.t.Cleanup(func() { h.expectForeignUntouched("at the end, after the destroy") })
	}
	h.foreign[full] = seen
}

// expectForeignUntouched fails unless every pool foreignPool created exists
// exactly as it was first seen.
func (h *harness) expectForeignUntouched(when string) {
	h.t.Helper()
	for full, want := range h.foreign {
		p, ok := h.poolInfo(full)
		switch {
		case !ok:
			h.t.Errorf("%s: node pool %s, created outside Terraform, was deleted", when, full)
		case poolJSON(h, p) != want:
			h.t.Errorf("%s: node pool %s, created outside Terraform, was changed:\nbefore: %s\nnow:    %s", when, full, want, poolJSON(h, p))
		}
	}
}

// poolInfo is the emulator's pool of the full name.
func (h *harness) poolInfo(full string) (emulator.NodePoolInfo, bool) {
	for _, p := range h.tg.Emulator.NodePools() {
		if p.Name == full {
			return p, true
		}
	}
	return emulator.NodePoolInfo{}, false
}

// poolJSON is a pool as the emulator holds it, for comparisons.
func poolJSON(h *harness, p emulator.NodePoolInfo) string {
	b, err := json.Marshal(p)
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// forgedOwnerLabel: the resource's pool is deleted outside Terraform, and
// someone who may create pools plants one of the same name with the
// resource's owner id (readable from any of its pools), another service
// account, the cloud-platform scope and GCE_METADATA. The refresh does not
// take it for the resource's pool, the plan is not empty, the apply refuses
// to adopt it, and the planted pool is never changed or deleted.
func forgedOwnerLabel(h *harness) {
	h.poolsConfig(2, "")
	h.apply(nil)
	owner, _ := h.untainted("after the first apply").Values["owner_id"].(string)
	gpu := h.prefix + "-1"
	if owner == "" {
		h.t.Fatal("no owner_id in the state")
	}
	if err := h.tg.Emulator.DeleteNodePool(h.tg.Cluster + "/nodePools/" + gpu); err != nil {
		h.t.Fatal(err)
	}
	h.foreignPoolWith(gpu, &container.NodeConfig{
		MachineType: "g2-standard-4", Accelerators: []*container.AcceleratorConfig{{AcceleratorType: "nvidia-l4", AcceleratorCount: 1}},
		ResourceLabels:         map[string]string{"accel-managed": owner},
		Labels:                 map[string]string{"cloud.google.com/compute-class": h.prefix + "-class"},
		ServiceAccount:         "attacker@evil-project.iam.gserviceaccount.com",
		OauthScopes:            []string{"https://www.googleapis.com/auth/cloud-platform"},
		WorkloadMetadataConfig: &container.WorkloadMetadataConfig{Mode: "GCE_METADATA"},
	})
	out, err := h.ws.Run(h.ctx(), "plan", "-detailed-exitcode", "-input=false", "-no-color")
	text := strings.Join(strings.Fields(out.Stdout+out.Stderr), " ")
	if err == nil || !strings.Contains(text, "Node Pool Replaced Outside Terraform") {
		h.t.Fatalf("plan after the planted pool: %v, want a change and the pool named as not this resource's\n%s", err, text)
	}
	h.callsNothing([]string{emulator.MethodNodePoolsDelete, emulator.MethodNodePoolsUpdate, emulator.MethodNodePoolsSetSize},
		"apply beside the planted pool", func() { h.apply(regexp.MustCompile(`(?s)Node Pool Already Exists.*attacker@`)) })
	h.expectForeignUntouched("after the refused apply")
	h.write(strings.Replace(h.poolsBody(2, ""), fmt.Sprintf("%q", gpu), fmt.Sprintf("%q", gpu+"r"), 1))
	h.apply(nil)
}

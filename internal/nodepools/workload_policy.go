// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package nodepools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	compute "google.golang.org/api/compute/v1"
	container "google.golang.org/api/container/v1"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
	"github.com/accel-dev/terraform-provider-accel/internal/ownership"
)

// The workload policies of multi-host TPU7x slices. GKE places such a slice
// with a Compute Engine workload policy named in the pool's
// placementPolicy.policyName, in place of a TPU topology ("About Ironwood
// (TPU7x) in GKE"): a HIGH_THROUGHPUT resource policy with the slice's
// acceleratorTopology, in the cluster's project and region
// (`gcloud compute resource-policies create workload-policy`). A tier
// without workload_policy gets one the apply creates before the pool,
// named like the pool, and deletes after it. Resource policies have no
// labels, so its description says which pool it places (the cluster's pool
// id) and carries the owner id of the resource that created it. A policy
// is the resource's own when it places the very pool the resource creates
// or owns: a pool name is the cluster's alone, so this holds across an
// apply killed between the two creates (whose owner id no state recorded),
// and two states that name one pool still cannot both create it.

// policyAPI is the Compute Engine resource policies access: *gcp.ResourcePolicies.
type policyAPI interface {
	Get(ctx context.Context, project, region, name string) (*compute.ResourcePolicy, error)
	Insert(ctx context.Context, project, region string, p *compute.ResourcePolicy) error
	Delete(ctx context.Context, project, region, name string) error
}

// workloadPolicyType is the workload policy type TPU7x slices use ("Ironwood
// (TPU7x) supports the High throughput workload policy").
const workloadPolicyType = "HIGH_THROUGHPUT"

// policyDescription marks a policy as created by the resource instance of
// owner id owner for the pool poolID (the cluster's pool id).
func policyDescription(owner, poolID string) string {
	return fmt.Sprintf("%s=%s: %s %s", ownership.LabelKey, owner, policyOfPool, poolID)
}

// policyOfPool introduces the pool id in a policy's description.
const policyOfPool = "the workload policy accel_fallback_nodepools created for node pool"

// placesPool reports whether p is a policy this provider created for the
// pool poolID (see the file's comment).
func placesPool(p *compute.ResourcePolicy, poolID string) bool {
	return p != nil && strings.HasPrefix(p.Description, ownership.LabelKey+"=") && strings.HasSuffix(p.Description, ": "+policyOfPool+" "+poolID)
}

// policyScope is the project and region of the cluster's policies.
func (o *poolOps) policyScope() (project, region string, err error) {
	project, location, _, err := gcp.ParseClusterID(o.api.Cluster())
	if err != nil {
		return "", "", err
	}
	return project, catalog.RegionOf(location), nil
}

// policyLocation resolves a workload policy reference (a name, or a URL as
// GKE's placementPolicy.policyName takes it) to the project, region and name
// it names: the cluster's project and region for a bare name.
func (o *poolOps) policyLocation(ref string) (project, region, name string, err error) {
	cp, cr, err := o.policyScope()
	if err != nil {
		return "", "", "", err
	}
	return policyLocationIn(ref, cp, cr)
}

// policyLocationIn is policyLocation for a cluster of project and region.
func policyLocationIn(ref, project, region string) (string, string, string, error) {
	p, r, name, err := gcp.ParseResourcePolicyName(ref)
	if err != nil {
		return "", "", "", err
	}
	return cmp.Or(p, project), cmp.Or(r, region), name, nil
}

// resourcePolicies returns the resource policies access, building it on
// first use.
func (o *poolOps) resourcePolicies(ctx context.Context) (policyAPI, error) {
	if o.policies == nil {
		if o.newPolicies == nil {
			return nil, errors.New("no Compute Engine access for workload policies: set compute_endpoint or credentials")
		}
		p, err := o.newPolicies(ctx)
		if err != nil {
			return nil, err
		}
		o.policies = p
	}
	return o.policies, nil
}

// ensurePolicy makes sure the workload policy want's pool is placed by
// exists before the pool is created: a named policy must exist; the
// resource's own is created, or, when a policy of its name carries this
// resource's owner id and the slice's topology (left by an apply that was
// stopped), used. created reports whether this call created it.
func (o *poolOps) ensurePolicy(ctx context.Context, want tierSpec) (created bool, err error) {
	if want.WorkloadPolicy == "" {
		return false, nil
	}
	api, err := o.resourcePolicies(ctx)
	if err != nil {
		return false, err
	}
	project, region, err := o.policyScope()
	if err != nil {
		return false, err
	}
	if !want.OwnPolicy {
		p, r, name, perr := policyLocationIn(want.WorkloadPolicy, project, region)
		if perr != nil {
			return false, perr
		}
		if _, err := api.Get(ctx, p, r, name); err != nil {
			return false, fmt.Errorf("reading the workload policy %s: %w", want.WorkloadPolicy, err)
		}
		return false, nil
	}
	p := &compute.ResourcePolicy{
		Name:        want.WorkloadPolicy,
		Description: policyDescription(o.owner.id, o.api.PoolName(want.Name)),
		WorkloadPolicy: &compute.ResourcePolicyWorkloadPolicy{
			Type: workloadPolicyType, AcceleratorTopology: want.Topology,
		},
	}
	err = api.Insert(ctx, project, region, p)
	if gcp.Classify(err) != gcp.ClassAlreadyExists {
		return err == nil, err
	}
	existing, gerr := api.Get(ctx, project, region, want.WorkloadPolicy)
	switch {
	case gerr != nil:
		return false, fmt.Errorf("%w; reading the existing policy failed: %w", err, gerr)
	case !placesPool(existing, o.api.PoolName(want.Name)):
		return false, &notOwnedError{reason: fmt.Sprintf("is the name of a workload policy this resource did not create (%s); "+
			"set workload_policy to use it, or rename the tier", gcp.ResourcePolicyID(project, region, want.WorkloadPolicy))}
	case existing.WorkloadPolicy == nil || existing.WorkloadPolicy.AcceleratorTopology != want.Topology:
		// Left by an apply that stopped before its pool was created, for
		// another topology: the provider's own, and no pool of the name
		// exists to use it (the create runs next), so it is replaced.
		if np, gerr := o.api.Get(ctx, want.Name); gerr != nil || np != nil {
			return false, fmt.Errorf("the workload policy %s, which this resource created for node pool %s, places another topology "+
				"than %s, and the pool could not be checked unused: %w", gcp.ResourcePolicyID(project, region, want.WorkloadPolicy),
				o.api.PoolName(want.Name), want.Topology, cmp.Or(gerr, errors.New("the pool exists")))
		}
		if derr := api.Delete(ctx, project, region, want.WorkloadPolicy); derr != nil {
			return false, fmt.Errorf("replacing the workload policy %s of another topology: %w", gcp.ResourcePolicyID(project, region, want.WorkloadPolicy), derr)
		}
		err = api.Insert(ctx, project, region, p)
		return err == nil, err
	}
	tflog.Info(ctx, "found the workload policy an earlier apply created for this pool; using it",
		map[string]any{"policy": gcp.ResourcePolicyID(project, region, want.WorkloadPolicy)})
	return false, nil
}

// deleteOwnPolicy deletes the workload policy of spec s after its pool is
// gone, when it is the resource's own: created for it (workload_policy
// unset) and marked as placing this pool. Any other policy is left as it is.
func (o *poolOps) deleteOwnPolicy(ctx context.Context, s tierSpec) error {
	if s.WorkloadPolicy == "" || !s.OwnPolicy {
		return nil
	}
	if err := o.deleteOwnPolicyOnce(ctx, s); err != nil {
		return &policyDeleteError{pool: o.api.PoolName(s.Name), policy: s.WorkloadPolicy, err: err}
	}
	return nil
}

// policyDeleteError is a failed delete of the workload policy of a pool
// that is gone (or was never created): the pool's delete did not fail.
type policyDeleteError struct {
	pool, policy string
	err          error
}

func (e *policyDeleteError) Error() string {
	why := e.err.Error()
	if gcp.InUse(e.err) {
		why = "another node pool still uses it (" + why + ")"
	}
	return fmt.Sprintf("node pool %s is deleted, but the workload policy %s this resource created for it could not be: %s. "+
		"It stays in the state, and the next apply or destroy deletes it once nothing uses it", e.pool, e.policy, why)
}

func (e *policyDeleteError) Unwrap() error { return e.err }

func (o *poolOps) deleteOwnPolicyOnce(ctx context.Context, s tierSpec) error {
	p, err := o.ownPolicy(ctx, s)
	if p == nil || err != nil {
		return err
	}
	project, region, err := o.policyScope()
	if err != nil {
		return err
	}
	return o.policies.Delete(ctx, project, region, s.WorkloadPolicy)
}

// ownPolicy reads the workload policy of spec s when it is the one this
// resource created for the pool (placesPool); nil when it does not exist
// or is not the resource's own (which is logged and left alone).
func (o *poolOps) ownPolicy(ctx context.Context, s tierSpec) (*compute.ResourcePolicy, error) {
	api, err := o.resourcePolicies(ctx)
	if err != nil {
		return nil, err
	}
	project, region, err := o.policyScope()
	if err != nil {
		return nil, err
	}
	p, err := api.Get(ctx, project, region, s.WorkloadPolicy)
	switch {
	case gcp.Classify(err) == gcp.ClassNotFound:
		return nil, nil
	case err != nil:
		return nil, err
	case !placesPool(p, o.api.PoolName(s.Name)):
		tflog.Warn(ctx, "workload policy left alone: the provider did not create it for this pool",
			map[string]any{"policy": gcp.ResourcePolicyID(project, region, s.WorkloadPolicy)})
		return nil, nil
	}
	return p, nil
}

// ownPoliciesRemain reports whether a workload policy this resource created
// for one of tiers (recorded in state) still exists. When it cannot be
// read, it reports true: the resource is kept rather than leave a policy
// nothing would delete.
func (o *poolOps) ownPoliciesRemain(ctx context.Context, cat *catalog.Catalog, tiers []tierModel, diags *diag.Diagnostics) bool {
	for _, t := range tiers {
		if s := specOfState(ctx, cat, t, diags); s.WorkloadPolicy != "" && s.OwnPolicy {
			if p, err := o.ownPolicy(ctx, s); p != nil || err != nil {
				return true
			}
		}
	}
	return false
}

// topologiesOfPolicies sets, on a copy of each pool placed by a workload
// policy, the TPU topology its policy places (acceleratorTopology): GKE
// reports the policy's name, not the slice's topology, which an import
// needs to name the tier's accelerator type.
func (o *poolOps) topologiesOfPolicies(ctx context.Context, pools map[string]*container.NodePool) error {
	for name, np := range pools {
		pp := np.PlacementPolicy
		if pp == nil || pp.PolicyName == "" || pp.TpuTopology != "" {
			continue
		}
		api, err := o.resourcePolicies(ctx)
		if err != nil {
			return err
		}
		p, r, policy, err := o.policyLocation(pp.PolicyName)
		if err != nil {
			return err
		}
		got, err := api.Get(ctx, p, r, policy)
		if err != nil {
			return fmt.Errorf("node pool %s, workload policy %s: %w", name, pp.PolicyName, err)
		}
		if got.WorkloadPolicy == nil || got.WorkloadPolicy.AcceleratorTopology == "" {
			continue
		}
		placed := *np
		withTopology := *pp
		withTopology.TpuTopology = got.WorkloadPolicy.AcceleratorTopology
		placed.PlacementPolicy = &withTopology
		pools[name] = &placed
	}
	return nil
}

// policyReadTimeout bounds the plan-time read of a workload policy.
const policyReadTimeout = 15 * time.Second

// policyFindings checks a multi-host TPU7x tier's workload policy at plan
// time, on workload_policy: a named policy of another project or region
// than the cluster's (GKE places a pool by a policy of its cluster's
// project and region); and, when the provider can reach Compute Engine, a
// named policy that does not exist, is not HIGH_THROUGHPUT or places
// another topology than the slice's, or a policy of the pool's name that
// the provider did not create for this pool (the apply would refuse it),
// all before anything is created.
func (r *fallbackNodePoolsResource) policyFindings(ctx context.Context, cluster string, spec tierSpec) catalog.Findings {
	if spec.WorkloadPolicy == "" {
		return nil
	}
	project, location, _, err := gcp.ParseClusterID(cluster)
	if err != nil {
		return nil // the cluster attribute's own validator reports it
	}
	region := catalog.RegionOf(location)
	finding := func(summary, detail string, basis catalog.Basis) catalog.Findings {
		f := tierFinding(attrWorkloadPolicy, spec.WorkloadPolicy, summary, detail, policySource)
		f.Basis = basis
		return catalog.Findings{f}
	}
	name := spec.WorkloadPolicy
	if !spec.OwnPolicy {
		p, rg, n, err := policyLocationIn(spec.WorkloadPolicy, project, region)
		if err != nil {
			return finding("Invalid Workload Policy", err.Error()+". Name a workload policy of the cluster's project and region.", catalog.BasisRule)
		}
		if p != project || rg != region {
			return finding("Workload Policy Outside the Cluster's Region",
				fmt.Sprintf("workload_policy = %q is in project %s, region %s; GKE places the pool of cluster %s by a workload policy of "+
					"project %s, region %s. Create the policy there, or unset workload_policy to let the apply create one.",
					spec.WorkloadPolicy, p, rg, cluster, project, region), catalog.BasisRule)
		}
		name = n
	}
	if r.data == nil || !r.data.Clients.ComputeConfigured() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, policyReadTimeout)
	defer cancel()
	api, err := r.data.Clients.ResourcePolicies(ctx)
	if err != nil {
		return nil
	}
	got, err := api.Get(ctx, project, region, name)
	poolID := cluster + poolsSegment + spec.Name
	id := gcp.ResourcePolicyID(project, region, name)
	switch {
	case spec.OwnPolicy && gcp.Classify(err) == gcp.ClassNotFound:
		return nil // the apply creates it
	case !spec.OwnPolicy && gcp.Classify(err) == gcp.ClassNotFound:
		return finding("Workload Policy Not Found", fmt.Sprintf("The workload policy %s does not exist. Create it (gcloud compute resource-policies "+
			"create workload-policy %s --type=%s --accelerator-topology=%s --region=%s), or unset workload_policy to let the apply create one.",
			id, name, workloadPolicyType, spec.Topology, region), catalog.BasisLive)
	case err != nil:
		tflog.Debug(ctx, "workload policy not readable at plan time; checked at apply", map[string]any{"policy": id, "error": err.Error()})
		return nil
	case spec.OwnPolicy && !placesPool(got, poolID):
		return finding("Workload Policy Name Taken", fmt.Sprintf("A workload policy %s exists that this provider did not create for node pool %s; "+
			"the apply would refuse it rather than use it. Rename the tier, or set workload_policy = %q to place the pool by it.",
			id, poolID, name), catalog.BasisLive)
	case spec.OwnPolicy:
		// The policy the provider created for this pool follows its tier:
		// a new topology re-creates the pool, and the apply deletes the old
		// policy with it and creates one for the new topology.
		return nil
	}
	w := got.WorkloadPolicy
	switch {
	case w == nil || w.Type != workloadPolicyType:
		typ := "no workload policy"
		if w != nil {
			typ = "a " + w.Type + " workload policy"
		}
		return finding("Workload Policy of Another Type", fmt.Sprintf("The resource policy %s is %s; a TPU7x slice is placed by a %s workload "+
			"policy (GKE's Ironwood page). Name another policy, or unset workload_policy to let the apply create one.", id, typ, workloadPolicyType), catalog.BasisLive)
	case w.AcceleratorTopology != spec.Topology:
		return finding("Workload Policy of Another Topology", fmt.Sprintf("The workload policy %s places the topology %q; tier %q is a %s slice. "+
			"Name a policy whose accelerator_topology is %s, or unset workload_policy to let the apply create one.",
			id, w.AcceleratorTopology, spec.Name, spec.Topology, spec.Topology), catalog.BasisLive)
	}
	return nil
}

// policySource is where GKE documents the workload policy of TPU7x slices.
const policySource = "https://cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood"

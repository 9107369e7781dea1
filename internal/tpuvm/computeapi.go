// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package tpuvm

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	compute "google.golang.org/api/compute/v1"
	tpu "google.golang.org/api/tpu/v2"

	"github.com/accel-dev/terraform-provider-accel/internal/catalog"
	"github.com/accel-dev/terraform-provider-accel/internal/gcp"
)

// instanceAPI is the part of Compute Engine's instances API the resource
// uses for TPU VMs created through Compute Engine: *gcp.ComputeInstances, or
// a fake in tests. Every method retries rate limits and transient errors
// until ctx ends.
type instanceAPI interface {
	Get(ctx context.Context, project, zone, name string) (*compute.Instance, error)
	Insert(ctx context.Context, project, zone string, inst *compute.Instance) (*compute.Operation, error)
	Delete(ctx context.Context, project, zone, name string) (*compute.Operation, error)
	SetLabels(ctx context.Context, project, zone, name string, req *compute.InstancesSetLabelsRequest) (*compute.Operation, error)
	SetMetadata(ctx context.Context, project, zone, name string, md *compute.Metadata) (*compute.Operation, error)
	SetTags(ctx context.Context, project, zone, name string, tags *compute.Tags) (*compute.Operation, error)
	// ListNamed lists the instances named name in every zone of project.
	ListNamed(ctx context.Context, project, name string) ([]*compute.Instance, error)
	// Wait polls a zone operation until it is done; a failed operation is
	// an *gcp.OperationError.
	Wait(ctx context.Context, op *compute.Operation) (*compute.Operation, error)
	Poller() *gcp.Poller
}

var _ instanceAPI = (*gcp.ComputeInstances)(nil)

// The values of the api attribute.
const (
	apiCloudTPU      = catalog.APICloudTPU
	apiComputeEngine = catalog.APIComputeEngine
)

// vmID is the id of a TPU VM: a Cloud TPU node id, or a Compute Engine
// instance id when instance is set.
func vmID(project, zone, name string, instance bool) string {
	if instance {
		return gcp.InstanceID(project, zone, name)
	}
	return gcp.NodeID(project, zone, name)
}

// parseVMID splits a node id or an instance id; instance tells which.
func parseVMID(id string) (project, zone, name string, instance bool, err error) {
	if p, z, n, ierr := gcp.ParseInstanceID(id); ierr == nil {
		return p, z, n, true, nil
	}
	project, zone, name, err = gcp.ParseNodeID(id)
	return project, zone, name, false, err
}

// isInstanceID reports whether id names a Compute Engine instance.
func isInstanceID(id string) bool {
	_, _, _, instance, err := parseVMID(id)
	return err == nil && instance
}

// apiOfID is the api attribute of the VM id names.
func apiOfID(id string) string {
	if isInstanceID(id) {
		return apiComputeEngine
	}
	return apiCloudTPU
}

// instanceNodes presents TPU VMs that Compute Engine creates as instances
// (TPU machine types such as tpu7x-standard-4t) as Cloud TPU nodes, so that
// the resource's create with zone fallback, its ownership checks, cleanup,
// read, update and delete are one code for both APIs. It maps each node
// field onto the instance field that means the same; what has no
// counterpart is refused at plan time (see computeEngineFindings).
//
// What a node calls its runtime version is, for an instance, the image its
// boot disk is created from. Compute Engine does not report it on the
// instance (a family is resolved to one image when the disk is made), so a
// node read back has an empty RuntimeVersion and the resource keeps the
// value it planned.
type instanceNodes struct {
	api instanceAPI

	mu sync.Mutex
	// ops are the operations handed out as *tpu.Operation, by name.
	ops map[string]*compute.Operation
}

var _ nodeAPI = (*instanceNodes)(nil)

func newInstanceNodes(api instanceAPI) *instanceNodes {
	return &instanceNodes{api: api, ops: map[string]*compute.Operation{}}
}

// nodeOp hands out op as a node operation that Wait maps back.
func (c *instanceNodes) nodeOp(op *compute.Operation) *tpu.Operation {
	if op == nil {
		return &tpu.Operation{Done: true}
	}
	name := op.SelfLink
	if name == "" {
		name = op.Zone + "/operations/" + op.Name
	}
	c.mu.Lock()
	c.ops[name] = op
	c.mu.Unlock()
	return &tpu.Operation{Name: name, Done: op.Status == "DONE" && op.Error == nil}
}

func (c *instanceNodes) Get(ctx context.Context, id string) (*tpu.Node, error) {
	project, zone, name, _, err := parseVMID(id)
	if err != nil {
		return nil, err
	}
	inst, err := c.api.Get(ctx, project, zone, name)
	if err != nil {
		return nil, err
	}
	return nodeFromInstance(project, inst), nil
}

// Create inserts the instance for node in the zone of parent
// ("projects/P/locations/Z").
func (c *instanceNodes) Create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error) {
	segs := strings.Split(parent, "/")
	if len(segs) != 4 || segs[0] != "projects" || segs[2] != "locations" {
		return nil, fmt.Errorf("invalid parent %q: expected projects/{project}/locations/{zone}", parent)
	}
	project, zone := segs[1], segs[3]
	inst, err := instanceFromNode(zone, nodeID, node)
	if err != nil {
		return nil, err
	}
	op, err := c.api.Insert(ctx, project, zone, inst)
	if err != nil {
		return nil, err
	}
	return c.nodeOp(op), nil
}

// Patch changes labels, metadata and tags, the fields Compute Engine
// changes in place on a running instance, each with the fingerprint it
// requires, and waits for each change. Other fields are replaced at plan
// time and refused here.
func (c *instanceNodes) Patch(ctx context.Context, id, updateMask string, node *tpu.Node) (*tpu.Operation, error) {
	project, zone, name, _, err := parseVMID(id)
	if err != nil {
		return nil, err
	}
	for _, field := range strings.Split(updateMask, ",") {
		var set func(inst *compute.Instance) (*compute.Operation, error)
		switch field {
		case "labels":
			set = func(inst *compute.Instance) (*compute.Operation, error) {
				return c.api.SetLabels(ctx, project, zone, name,
					&compute.InstancesSetLabelsRequest{Labels: node.Labels, LabelFingerprint: inst.LabelFingerprint, ForceSendFields: []string{"Labels"}})
			}
		case "metadata":
			set = func(inst *compute.Instance) (*compute.Operation, error) {
				md := &compute.Metadata{Items: metadataItems(node.Metadata)}
				if inst.Metadata != nil {
					md.Fingerprint = inst.Metadata.Fingerprint
				}
				return c.api.SetMetadata(ctx, project, zone, name, md)
			}
		case "tags":
			set = func(inst *compute.Instance) (*compute.Operation, error) {
				tags := &compute.Tags{Items: node.Tags, ForceSendFields: []string{"Items"}}
				if inst.Tags != nil {
					tags.Fingerprint = inst.Tags.Fingerprint
				}
				return c.api.SetTags(ctx, project, zone, name, tags)
			}
		default:
			return nil, fmt.Errorf("the Compute Engine API cannot change %s of a TPU VM in place", field)
		}
		if err := c.setWithFingerprint(ctx, project, zone, name, set); err != nil {
			return nil, fmt.Errorf("setting %s: %w", field, err)
		}
	}
	return &tpu.Operation{Done: true}, nil
}

// fingerprintAttempts is how many times a change refused for a stale
// fingerprint (HTTP 412: the instance changed since it was read) is read and
// sent again.
const fingerprintAttempts = 3

// setWithFingerprint reads the instance and sends a change made from it,
// reading again when Compute Engine answers that the fingerprint is stale.
func (c *instanceNodes) setWithFingerprint(ctx context.Context, project, zone, name string,
	set func(*compute.Instance) (*compute.Operation, error)) error {
	var err error
	for range fingerprintAttempts {
		var inst *compute.Instance
		if inst, err = c.api.Get(ctx, project, zone, name); err != nil {
			return err
		}
		var op *compute.Operation
		if op, err = set(inst); err == nil {
			_, err = c.api.Wait(ctx, op)
			return err
		}
		if !gcp.IsStaleFingerprint(err) {
			return err
		}
	}
	return err
}

func (c *instanceNodes) Delete(ctx context.Context, id string) (*tpu.Operation, error) {
	project, zone, name, _, err := parseVMID(id)
	if err != nil {
		return nil, err
	}
	op, err := c.api.Delete(ctx, project, zone, name)
	if err != nil {
		return nil, err
	}
	return c.nodeOp(op), nil
}

// Wait waits for an operation Create or Delete handed out; one that was
// finished when handed out (Patch) is returned as it is.
func (c *instanceNodes) Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
	c.mu.Lock()
	cop := c.ops[op.Name]
	c.mu.Unlock()
	if cop == nil {
		return op, nil
	}
	if _, err := c.api.Wait(ctx, cop); err != nil {
		return nil, err
	}
	return &tpu.Operation{Name: op.Name, Done: true}, nil
}

func (c *instanceNodes) ListNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	insts, err := c.api.ListNamed(ctx, project, name)
	if err != nil {
		return nil, err
	}
	out := make([]*tpu.Node, 0, len(insts))
	for _, inst := range insts {
		out = append(out, nodeFromInstance(project, inst))
	}
	return out, nil
}

func (c *instanceNodes) Poller() *gcp.Poller { return c.api.Poller() }

// defaultNetwork is the network an instance without one is attached to, as
// the Cloud TPU API does for a node without one.
const defaultNetwork = "global/networks/default"

// networkURL and subnetworkURL spell a network_config value the way
// Compute Engine takes it, a full or partial URL (instances.insert,
// networkInterfaces[].network and .subnetwork): a bare name, which the
// Cloud TPU API accepts, becomes global/networks/NAME or
// regions/REGION/subnetworks/NAME (the region of the VM's zone); anything
// with a slash is sent as written.
func networkURL(v string) string {
	if v == "" || strings.Contains(v, "/") {
		return v
	}
	return "global/networks/" + v
}

func subnetworkURL(zone, v string) string {
	if v == "" || strings.Contains(v, "/") {
		return v
	}
	return "regions/" + catalog.RegionOf(zone) + "/subnetworks/" + v
}

// instanceFromNode is the insert request for node named name in zone: the
// catalog's machine type for the accelerator type, a boot disk from the
// node's runtime version (an image, or the catalog's image for the
// generation when empty), and each node setting on its instance field.
// Accelerator machine types cannot live-migrate, so host maintenance
// stops the VM (scheduling.onHostMaintenance TERMINATE).
func instanceFromNode(zone, name string, n *tpu.Node) (*compute.Instance, error) {
	ce, fs := catalog.Default().ComputeEngineTPU(n.AcceleratorType)
	if fs.HasErrors() {
		return nil, errors.New(fs.Errors()[0].Detail)
	}
	image := n.RuntimeVersion
	if image == "" {
		image = ce.DefaultImage
	}
	inst := &compute.Instance{
		Name:        name,
		Description: n.Description,
		MachineType: "zones/" + zone + "/machineTypes/" + ce.MachineType,
		Labels:      maps.Clone(n.Labels),
		Disks: []*compute.AttachedDisk{{
			Boot: true, AutoDelete: true, Type: "PERSISTENT",
			InitializeParams: &compute.AttachedDiskInitializeParams{SourceImage: image},
		}},
		Scheduling: &compute.Scheduling{OnHostMaintenance: "TERMINATE"},
	}
	if len(n.Metadata) > 0 {
		inst.Metadata = &compute.Metadata{Items: metadataItems(n.Metadata)}
	}
	if len(n.Tags) > 0 {
		inst.Tags = &compute.Tags{Items: slices.Clone(n.Tags)}
	}
	nic := &compute.NetworkInterface{}
	if nc := n.NetworkConfig; nc != nil {
		nic.Network, nic.Subnetwork = networkURL(nc.Network), subnetworkURL(zone, nc.Subnetwork)
		inst.CanIpForward = nc.CanIpForward
		if nc.EnableExternalIps {
			nic.AccessConfigs = []*compute.AccessConfig{{Type: "ONE_TO_ONE_NAT", Name: "External NAT"}}
		}
	}
	if nic.Network == "" && nic.Subnetwork == "" {
		nic.Network = defaultNetwork
	}
	inst.NetworkInterfaces = []*compute.NetworkInterface{nic}
	if sa := n.ServiceAccount; sa != nil {
		inst.ServiceAccounts = []*compute.ServiceAccount{{Email: sa.Email, Scopes: slices.Clone(sa.Scope)}}
	}
	if sc := n.SchedulingConfig; sc != nil {
		inst.Scheduling.Preemptible = sc.Preemptible
		if sc.Spot {
			// A preempted Spot VM stops (Compute Engine's default action);
			// its state TERMINATED then replaces it at the next plan.
			inst.Scheduling.ProvisioningModel = "SPOT"
			inst.Scheduling.InstanceTerminationAction = "STOP"
		}
		if sc.Spot || sc.Preemptible {
			restart := false
			inst.Scheduling.AutomaticRestart = &restart
		}
	}
	if n.ShieldedInstanceConfig != nil && n.ShieldedInstanceConfig.EnableSecureBoot {
		inst.ShieldedInstanceConfig = &compute.ShieldedInstanceConfig{EnableSecureBoot: true}
	}
	for _, d := range n.DataDisks {
		inst.Disks = append(inst.Disks, &compute.AttachedDisk{Source: d.SourceDisk, Mode: d.Mode, Type: "PERSISTENT"})
	}
	return inst, nil
}

func metadataItems(m map[string]string) []*compute.MetadataItems {
	items := make([]*compute.MetadataItems, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		items = append(items, &compute.MetadataItems{Key: k, Value: &v})
	}
	return items
}

// relativeName strips the API's base URL from a Compute Engine self link:
// "https://www.googleapis.com/compute/v1/projects/p/zones/z/disks/d" is
// "projects/p/zones/z/disks/d". Anything else is returned as it is.
func relativeName(link string) string {
	if i := strings.Index(link, "/projects/"); i >= 0 && strings.Contains(link, "://") {
		return link[i+1:]
	}
	return link
}

// nodeFromInstance is the node an instance of project is read back as.
func nodeFromInstance(project string, in *compute.Instance) *tpu.Node {
	if p, _, _, err := gcp.ParseInstanceID(relativeName(in.SelfLink)); err == nil {
		project = p
	}
	zone := path.Base(in.Zone)
	n := &tpu.Node{
		Name:        gcp.InstanceID(project, zone, in.Name),
		Description: in.Description,
		Labels:      maps.Clone(in.Labels),
		State:       in.Status,
		CreateTime:  in.CreationTimestamp,
	}
	mt := path.Base(in.MachineType)
	n.AcceleratorType = mt
	if acc, ok := catalog.Default().AcceleratorTypeOfMachineType(mt); ok {
		n.AcceleratorType = acc
	}
	if in.Metadata != nil && len(in.Metadata.Items) > 0 {
		n.Metadata = map[string]string{}
		for _, it := range in.Metadata.Items {
			if it != nil && it.Value != nil {
				n.Metadata[it.Key] = *it.Value
			}
		}
	}
	if in.Tags != nil {
		n.Tags = slices.Clone(in.Tags.Items)
	}
	n.NetworkConfig = &tpu.NetworkConfig{CanIpForward: in.CanIpForward}
	for i, nic := range in.NetworkInterfaces {
		if nic == nil {
			continue
		}
		ep := &tpu.NetworkEndpoint{IpAddress: nic.NetworkIP}
		for _, ac := range nic.AccessConfigs {
			if ac != nil && ac.Type == "ONE_TO_ONE_NAT" {
				if i == 0 {
					n.NetworkConfig.EnableExternalIps = true
				}
				if ac.NatIP != "" {
					ep.AccessConfig = &tpu.AccessConfig{ExternalIp: ac.NatIP}
				}
			}
		}
		if i == 0 {
			n.NetworkConfig.Network, n.NetworkConfig.Subnetwork = relativeName(nic.Network), relativeName(nic.Subnetwork)
		}
		n.NetworkEndpoints = append(n.NetworkEndpoints, ep)
	}
	if len(in.ServiceAccounts) > 0 && in.ServiceAccounts[0] != nil {
		n.ServiceAccount = &tpu.ServiceAccount{Email: in.ServiceAccounts[0].Email, Scope: slices.Clone(in.ServiceAccounts[0].Scopes)}
	}
	if s := in.Scheduling; s != nil && (s.ProvisioningModel == "SPOT" || s.Preemptible) {
		n.SchedulingConfig = &tpu.SchedulingConfig{Spot: s.ProvisioningModel == "SPOT", Preemptible: s.Preemptible}
	}
	if in.ShieldedInstanceConfig != nil && in.ShieldedInstanceConfig.EnableSecureBoot {
		n.ShieldedInstanceConfig = &tpu.ShieldedInstanceConfig{EnableSecureBoot: true}
	}
	for _, d := range in.Disks {
		if d == nil || d.Boot {
			continue
		}
		n.DataDisks = append(n.DataDisks, &tpu.AttachedDisk{SourceDisk: relativeName(d.Source), Mode: d.Mode})
	}
	return n
}

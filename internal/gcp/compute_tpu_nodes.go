// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package gcp

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	compute "google.golang.org/api/compute/v1"
	tpu "google.golang.org/api/tpu/v2"
)

// InstanceAPI is the part of the Compute Engine instances API that
// InstanceNodes uses: *ComputeInstances, or a fake in tests.
type InstanceAPI interface {
	Get(ctx context.Context, project, zone, name string) (*compute.Instance, error)
	// Read is Get for a refresh, which may be answered from a list shared
	// with the refresh of other instances of the zone.
	Read(ctx context.Context, project, zone, name string) (*compute.Instance, error)
	Insert(ctx context.Context, project, zone string, inst *compute.Instance) (*compute.Operation, error)
	Delete(ctx context.Context, project, zone, name string) (*compute.Operation, error)
	SetLabels(ctx context.Context, project, zone, name string, req *compute.InstancesSetLabelsRequest) (*compute.Operation, error)
	SetMetadata(ctx context.Context, project, zone, name string, md *compute.Metadata) (*compute.Operation, error)
	SetTags(ctx context.Context, project, zone, name string, tags *compute.Tags) (*compute.Operation, error)
	// ListNamed lists the instances named name in every zone of project.
	ListNamed(ctx context.Context, project, name string) ([]*compute.Instance, error)
	// Wait polls a zone operation until it is done; a failed operation is
	// an *OperationError.
	Wait(ctx context.Context, op *compute.Operation) (*compute.Operation, error)
	Poller() *Poller
}

var _ InstanceAPI = (*ComputeInstances)(nil)

// InstanceShapes is what InstanceNodes needs to know of TPU machine types
// (the catalog's tables, handed in by the caller): the machine type and
// default boot image of an accelerator type, the accelerator type of a
// machine type, and the region of a zone.
type InstanceShapes interface {
	// InstanceShape is the machine type and default image of a single-host
	// accelerator type, or an error saying why Compute Engine cannot create it.
	InstanceShape(acceleratorType string) (machineType, defaultImage string, err error)
	AcceleratorTypeOf(machineType string) (string, bool)
	RegionOf(zone string) string
	// BootDiskType is the boot disk type of machineType's family, "" to
	// leave it to Compute Engine (whose default, pd-standard, not every
	// TPU machine family takes).
	BootDiskType(machineType string) string
}

// ParseNodeOrInstanceID splits a Compute Engine instance id or a Cloud TPU
// node id; instance tells which.
func ParseNodeOrInstanceID(id string) (project, zone, name string, instance bool, err error) {
	if p, z, n, ierr := ParseInstanceID(id); ierr == nil {
		return p, z, n, true, nil
	}
	project, zone, name, err = ParseNodeID(id)
	return project, zone, name, false, err
}

// InstanceNodes presents TPU VMs that Compute Engine creates as instances
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
type InstanceNodes struct {
	api    InstanceAPI
	shapes InstanceShapes

	mu sync.Mutex
	// ops are the operations handed out as *tpu.Operation, by name.
	ops map[string]*compute.Operation
}

// NewInstanceNodes presents the instances of api as nodes; shapes maps
// accelerator types to machine types and images, and back.
func NewInstanceNodes(api InstanceAPI, shapes InstanceShapes) *InstanceNodes {
	return &InstanceNodes{api: api, shapes: shapes, ops: map[string]*compute.Operation{}}
}

// nodeOp hands out op as a node operation that Wait maps back.
func (c *InstanceNodes) nodeOp(op *compute.Operation) *tpu.Operation {
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

func (c *InstanceNodes) Get(ctx context.Context, id string) (*tpu.Node, error) {
	return c.get(ctx, id, c.api.Get)
}

// Read is Get for a refresh (see InstanceAPI.Read).
func (c *InstanceNodes) Read(ctx context.Context, id string) (*tpu.Node, error) {
	return c.get(ctx, id, c.api.Read)
}

func (c *InstanceNodes) get(ctx context.Context, id string,
	read func(ctx context.Context, project, zone, name string) (*compute.Instance, error)) (*tpu.Node, error) {
	project, zone, name, _, err := ParseNodeOrInstanceID(id)
	if err != nil {
		return nil, err
	}
	inst, err := read(ctx, project, zone, name)
	if err != nil {
		return nil, err
	}
	return NodeFromInstance(c.shapes, project, inst), nil
}

// Create inserts the instance for node in the zone of parent
// ("projects/P/locations/Z").
func (c *InstanceNodes) Create(ctx context.Context, parent, nodeID string, node *tpu.Node) (*tpu.Operation, error) {
	segs := strings.Split(parent, "/")
	if len(segs) != 4 || segs[0] != "projects" || segs[2] != "locations" {
		return nil, fmt.Errorf("invalid parent %q: expected projects/{project}/locations/{zone}", parent)
	}
	project, zone := segs[1], segs[3]
	inst, err := instanceFromNode(c.shapes, zone, nodeID, node)
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
func (c *InstanceNodes) Patch(ctx context.Context, id, updateMask string, node *tpu.Node) (*tpu.Operation, error) {
	project, zone, name, _, err := ParseNodeOrInstanceID(id)
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
func (c *InstanceNodes) setWithFingerprint(ctx context.Context, project, zone, name string,
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
		if !IsStaleFingerprint(err) {
			return err
		}
	}
	return err
}

func (c *InstanceNodes) Delete(ctx context.Context, id string) (*tpu.Operation, error) {
	project, zone, name, _, err := ParseNodeOrInstanceID(id)
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
func (c *InstanceNodes) Wait(ctx context.Context, op *tpu.Operation) (*tpu.Operation, error) {
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

func (c *InstanceNodes) ListNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	insts, err := c.api.ListNamed(ctx, project, name)
	if err != nil {
		return nil, err
	}
	out := make([]*tpu.Node, 0, len(insts))
	for _, inst := range insts {
		out = append(out, NodeFromInstance(c.shapes, project, inst))
	}
	return out, nil
}

// ReadNamed is ListNamed: Compute Engine filters the aggregated list by
// name, so a plan's list holds only the instances of that name.
func (c *InstanceNodes) ReadNamed(ctx context.Context, project, name string) ([]*tpu.Node, error) {
	return c.ListNamed(ctx, project, name)
}

func (c *InstanceNodes) Poller() *Poller { return c.api.Poller() }

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

func subnetworkURL(shapes InstanceShapes, zone, v string) string {
	if v == "" || strings.Contains(v, "/") {
		return v
	}
	return "regions/" + shapes.RegionOf(zone) + "/subnetworks/" + v
}

// instanceFromNode is the insert request for node named name in zone: the
// shapes' machine type for the accelerator type, a boot disk from the
// node's runtime version (an image, or the catalog's image for the
// generation when empty), and each node setting on its instance field.
// Accelerator machine types cannot live-migrate, so host maintenance
// stops the VM (scheduling.onHostMaintenance TERMINATE).
func instanceFromNode(shapes InstanceShapes, zone, name string, n *tpu.Node) (*compute.Instance, error) {
	machineType, defaultImage, err := shapes.InstanceShape(n.AcceleratorType)
	if err != nil {
		return nil, err
	}
	image := n.RuntimeVersion
	if image == "" {
		image = defaultImage
	}
	inst := &compute.Instance{
		Name:        name,
		Description: n.Description,
		MachineType: "zones/" + zone + "/machineTypes/" + machineType,
		Labels:      maps.Clone(n.Labels),
		Disks: []*compute.AttachedDisk{{
			Boot: true, AutoDelete: true, Type: "PERSISTENT",
			InitializeParams: &compute.AttachedDiskInitializeParams{SourceImage: image},
		}},
		Scheduling: &compute.Scheduling{OnHostMaintenance: "TERMINATE"},
	}
	if t := shapes.BootDiskType(machineType); t != "" {
		inst.Disks[0].InitializeParams.DiskType = "zones/" + zone + "/diskTypes/" + t
	}
	if len(n.Metadata) > 0 {
		inst.Metadata = &compute.Metadata{Items: metadataItems(n.Metadata)}
	}
	if len(n.Tags) > 0 {
		inst.Tags = &compute.Tags{Items: slices.Clone(n.Tags)}
	}
	if k := n.BootDiskConfig; k != nil && k.CustomerEncryptionKey != nil && k.CustomerEncryptionKey.KmsKeyName != "" {
		// A customer-managed key for the boot disk: disks[].diskEncryptionKey.kmsKeyName
		// (https://cloud.google.com/compute/docs/disks/customer-managed-encryption).
		inst.Disks[0].DiskEncryptionKey = &compute.CustomerEncryptionKey{KmsKeyName: k.CustomerEncryptionKey.KmsKeyName}
	}
	configs := n.NetworkConfigs
	if len(configs) == 0 {
		configs = []*tpu.NetworkConfig{n.NetworkConfig}
	}
	for _, nc := range configs {
		nic := networkInterface(shapes, zone, nc)
		// Compute Engine forwards IP packets for the whole instance
		// (canIpForward), not per interface: the plan refuses interfaces
		// that disagree.
		inst.CanIpForward = inst.CanIpForward || (nc != nil && nc.CanIpForward)
		inst.NetworkInterfaces = append(inst.NetworkInterfaces, nic)
	}
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

// networkInterface is the instance's network interface for one network
// config (nil: the default network): Compute Engine takes one
// networkInterfaces[] entry per interface, each with its network,
// subnetwork and, for external IPs, a ONE_TO_ONE_NAT access config
// (https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert).
func networkInterface(shapes InstanceShapes, zone string, nc *tpu.NetworkConfig) *compute.NetworkInterface {
	nic := &compute.NetworkInterface{}
	if nc != nil {
		nic.Network, nic.Subnetwork = networkURL(nc.Network), subnetworkURL(shapes, zone, nc.Subnetwork)
		if nc.EnableExternalIps {
			nic.AccessConfigs = []*compute.AccessConfig{{Type: "ONE_TO_ONE_NAT", Name: "External NAT"}}
		}
	}
	if nic.Network == "" && nic.Subnetwork == "" {
		nic.Network = defaultNetwork
	}
	return nic
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

// NodeFromInstance is the node an instance of project is read back as,
// its accelerator type from shapes.
func NodeFromInstance(shapes InstanceShapes, project string, in *compute.Instance) *tpu.Node {
	if p, _, _, err := ParseInstanceID(relativeName(in.SelfLink)); err == nil {
		project = p
	}
	zone := path.Base(in.Zone)
	n := &tpu.Node{
		Name:             InstanceID(project, zone, in.Name),
		Description:      in.Description,
		Labels:           maps.Clone(in.Labels),
		State:            in.Status,
		CreateTime:       in.CreationTimestamp,
		AcceleratorType:  nodeAcceleratorType(shapes, in.MachineType),
		Metadata:         nodeMetadata(in.Metadata),
		ServiceAccount:   nodeServiceAccount(in.ServiceAccounts),
		SchedulingConfig: nodeSchedulingConfig(in.Scheduling),
	}
	if in.Tags != nil {
		n.Tags = slices.Clone(in.Tags.Items)
	}
	setNodeNetworks(n, in)
	if in.ShieldedInstanceConfig != nil && in.ShieldedInstanceConfig.EnableSecureBoot {
		n.ShieldedInstanceConfig = &tpu.ShieldedInstanceConfig{EnableSecureBoot: true}
	}
	n.BootDiskConfig, n.DataDisks = nodeDisks(in.Disks)
	return n
}

// nodeAcceleratorType is the accelerator type of the machine type (a URL)
// of an instance: the shapes' type, or the machine type's name when the
// shapes do not know it.
func nodeAcceleratorType(shapes InstanceShapes, machineType string) string {
	mt := path.Base(machineType)
	if acc, ok := shapes.AcceleratorTypeOf(mt); ok {
		return acc
	}
	return mt
}

// nodeMetadata is the node's metadata from the instance's items, nil when
// it has none.
func nodeMetadata(md *compute.Metadata) map[string]string {
	if md == nil || len(md.Items) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, it := range md.Items {
		if it != nil && it.Value != nil {
			out[it.Key] = *it.Value
		}
	}
	return out
}

// setNodeNetworks sets the node's network settings and endpoints from the
// instance's network interfaces: one interface is a node's networkConfig;
// several are its networkConfigs, one per interface, in order.
func setNodeNetworks(n *tpu.Node, in *compute.Instance) {
	var configs []*tpu.NetworkConfig
	for _, nic := range in.NetworkInterfaces {
		if nic == nil {
			continue
		}
		nc, ep := nodeNetwork(nic, in.CanIpForward)
		configs = append(configs, nc)
		n.NetworkEndpoints = append(n.NetworkEndpoints, ep)
	}
	switch len(configs) {
	case 0:
		n.NetworkConfig = &tpu.NetworkConfig{CanIpForward: in.CanIpForward}
	case 1:
		n.NetworkConfig = configs[0]
	default:
		n.NetworkConfigs = configs
	}
}

// nodeNetwork is the network config and endpoint of one network interface
// of an instance that forwards IP packets when canIPForward: a
// ONE_TO_ONE_NAT access config is an external IP.
func nodeNetwork(nic *compute.NetworkInterface, canIPForward bool) (*tpu.NetworkConfig, *tpu.NetworkEndpoint) {
	nc := &tpu.NetworkConfig{Network: relativeName(nic.Network), Subnetwork: relativeName(nic.Subnetwork), CanIpForward: canIPForward}
	ep := &tpu.NetworkEndpoint{IpAddress: nic.NetworkIP}
	for _, ac := range nic.AccessConfigs {
		if ac != nil && ac.Type == "ONE_TO_ONE_NAT" {
			nc.EnableExternalIps = true
			if ac.NatIP != "" {
				ep.AccessConfig = &tpu.AccessConfig{ExternalIp: ac.NatIP}
			}
		}
	}
	return nc, ep
}

// nodeServiceAccount is the node's service account: the instance's first,
// nil when it has none.
func nodeServiceAccount(sas []*compute.ServiceAccount) *tpu.ServiceAccount {
	if len(sas) == 0 || sas[0] == nil {
		return nil
	}
	return &tpu.ServiceAccount{Email: sas[0].Email, Scope: slices.Clone(sas[0].Scopes)}
}

// nodeSchedulingConfig is the node's scheduling config: set for a Spot or
// preemptible instance only.
func nodeSchedulingConfig(s *compute.Scheduling) *tpu.SchedulingConfig {
	if s == nil || (s.ProvisioningModel != "SPOT" && !s.Preemptible) {
		return nil
	}
	return &tpu.SchedulingConfig{Spot: s.ProvisioningModel == "SPOT", Preemptible: s.Preemptible}
}

// nodeDisks is the node's boot disk config (the customer-managed key of the
// instance's boot disk, nil for none) and its data disks, the instance's
// other disks in order.
func nodeDisks(disks []*compute.AttachedDisk) (*tpu.BootDiskConfig, []*tpu.AttachedDisk) {
	var boot *tpu.BootDiskConfig
	var data []*tpu.AttachedDisk
	for _, d := range disks {
		if d != nil && d.Boot && d.DiskEncryptionKey != nil && d.DiskEncryptionKey.KmsKeyName != "" {
			boot = &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{KmsKeyName: d.DiskEncryptionKey.KmsKeyName}}
		}
		if d == nil || d.Boot {
			continue
		}
		data = append(data, &tpu.AttachedDisk{SourceDisk: relativeName(d.Source), Mode: d.Mode})
	}
	return boot, data
}

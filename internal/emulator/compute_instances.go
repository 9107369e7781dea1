// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	compute "google.golang.org/api/compute/v1"
)

// Compute Engine instances and their zone operations, as the Compute Engine
// REST reference describes them:
// https://cloud.google.com/compute/docs/reference/rest/v1/instances (insert,
// get, list, aggregatedList, delete, setLabels, setMetadata, setTags) and
// https://cloud.google.com/compute/docs/reference/rest/v1/zoneOperations
// (get, wait). TPU VMs of the accelerator-optimized machine family
// (tpu7x-standard-4t, ct6e-standard-*, ct5p-hightpu-4t) are such instances
// (https://cloud.google.com/compute/docs/tpus/tpu-machines).
const (
	MethodComputeInstancesInsert         = "compute.instances.insert"
	MethodComputeInstancesGet            = "compute.instances.get"
	MethodComputeInstancesList           = "compute.instances.list"
	MethodComputeInstancesAggregatedList = "compute.instances.aggregatedList"
	MethodComputeInstancesDelete         = "compute.instances.delete"
	MethodComputeInstancesSetLabels      = "compute.instances.setLabels"
	MethodComputeInstancesSetMetadata    = "compute.instances.setMetadata"
	MethodComputeInstancesSetTags        = "compute.instances.setTags"
	MethodComputeZoneOperationsGet       = "compute.zoneOperations.get"
	MethodComputeZoneOperationsWait      = "compute.zoneOperations.wait"
)

// computeInstanceMethods are the Compute Engine instance and zone
// operation methods (methodNames).
var computeInstanceMethods = []string{
	MethodComputeInstancesInsert, MethodComputeInstancesGet, MethodComputeInstancesList,
	MethodComputeInstancesAggregatedList, MethodComputeInstancesDelete, MethodComputeInstancesSetLabels,
	MethodComputeInstancesSetMetadata, MethodComputeInstancesSetTags,
	MethodComputeZoneOperationsGet, MethodComputeZoneOperationsWait,
}

// apiCompute marks Compute Engine zone operations.
const apiCompute = "compute"

// Instance statuses (https://cloud.google.com/compute/docs/instances/instance-life-cycle).
const (
	instProvisioning = "PROVISIONING"
	instStaging      = "STAGING"
	instRunning      = "RUNNING"
	instStopping     = "STOPPING"
	instTerminated   = "TERMINATED"
)

// opPending is the first of Compute Engine's operation statuses
// (zoneOperations resource: "status: PENDING, RUNNING, DONE"); RUNNING and
// DONE are GKE's opRunning and opDone.
const opPending = "PENDING"

// Image is a Compute Engine image a boot disk can be created from: a
// public image (Project "ubuntu-os-accelerator-images") or one of the
// caller's. A boot disk names it by name or by family
// (https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert,
// disks[].initializeParams.sourceImage).
type Image struct {
	Project string `json:"project"`
	Name    string `json:"name"`
	Family  string `json:"family,omitempty"`
}

// gceInstance is one instance with what the emulator keeps beside it.
type gceInstance struct {
	inst    *compute.Instance
	project string
	zone    string
	capKey  string     // capacity held, "" when none
	create  *operation // the insert, while it runs
}

// instanceKey is projects/P/zones/Z/instances/N.
func instanceKey(project, zone, name string) string {
	return "projects/" + project + "/zones/" + zone + "/instances/" + name
}

// routeComputeInstances maps the instances and zoneOperations paths:
//
//	POST|GET projects/{p}/zones/{z}/instances
//	GET|DELETE projects/{p}/zones/{z}/instances/{name}
//	POST projects/{p}/zones/{z}/instances/{name}/setLabels|setMetadata|setTags
//	GET projects/{p}/aggregated/instances
//	GET projects/{p}/zones/{z}/operations/{op}, POST …/operations/{op}/wait
func (s *Server) routeComputeInstances(r *http.Request, segs []string) (string, string, handler) {
	if len(segs) < 4 || segs[0] != "projects" {
		return "", "", nil
	}
	project := segs[1]
	cr := func(q *request) *computeRequest { return &computeRequest{request: q, project: project} }
	get, post := r.Method == http.MethodGet, r.Method == http.MethodPost
	if segs[2] == "aggregated" && segs[3] == "instances" && len(segs) == 4 && get {
		return MethodComputeInstancesAggregatedList, project, func(q *request) (any, *apiError) { return s.computeInstancesAggregated(cr(q)) }
	}
	if segs[2] != "zones" || len(segs) < 5 {
		return "", "", nil
	}
	zone := segs[3]
	switch {
	case segs[4] == "instances" && len(segs) == 5 && post:
		return MethodComputeInstancesInsert, project, func(q *request) (any, *apiError) { return s.computeInstancesInsert(cr(q), zone) }
	case segs[4] == "instances" && len(segs) == 5 && get:
		return MethodComputeInstancesList, project, func(q *request) (any, *apiError) { return s.computeInstancesList(cr(q), zone) }
	case segs[4] == "instances" && len(segs) == 6 && get:
		return MethodComputeInstancesGet, project, func(q *request) (any, *apiError) { return s.computeInstancesGet(cr(q), zone, segs[5]) }
	case segs[4] == "instances" && len(segs) == 6 && r.Method == http.MethodDelete:
		return MethodComputeInstancesDelete, project, func(q *request) (any, *apiError) { return s.computeInstancesDelete(cr(q), zone, segs[5]) }
	case segs[4] == "instances" && len(segs) == 7 && post:
		method, ok := map[string]string{"setLabels": MethodComputeInstancesSetLabels,
			"setMetadata": MethodComputeInstancesSetMetadata, "setTags": MethodComputeInstancesSetTags}[segs[6]]
		if !ok {
			return "", "", nil
		}
		return method, project, func(q *request) (any, *apiError) { return s.computeInstancesSet(cr(q), method, zone, segs[5]) }
	case segs[4] == "operations" && len(segs) == 6 && get:
		return MethodComputeZoneOperationsGet, project, func(q *request) (any, *apiError) { return s.computeZoneOperationsGet(cr(q), zone, segs[5]) }
	case segs[4] == "operations" && len(segs) == 7 && segs[6] == "wait" && post:
		return MethodComputeZoneOperationsWait, project, func(q *request) (any, *apiError) { return s.computeZoneOperationsGet(cr(q), zone, segs[5]) }
	}
	return "", "", nil
}

// computeInvalid is Compute Engine's 400 for a bad field, in the form
// "Invalid value for field 'resource.name': 'X'. Must be a match of regex …"
// with reason "invalid" (the form Compute Engine answers for bad request
// fields, as quoted in client issue reports).
func computeInvalid(field, value, why string) *apiError {
	msg := fmt.Sprintf("Invalid value for field '%s': '%s'. %s", field, value, why)
	e := newError(statusInvalidArgument, "%s", msg)
	e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "invalid"}}
	return e
}

// computeConditionNotMet is Compute Engine's 412 for a stale fingerprint:
// reason conditionNotMet, for labels with the message "Labels fingerprint
// either invalid or resource labels have changed" (as reported in
// https://github.com/googleapis/google-cloud-go/issues/7802).
func computeConditionNotMet(msg string) *apiError {
	e := newError(statusFailedPrecondition, "%s", msg)
	e.forceHTTP = http.StatusPreconditionFailed
	e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "conditionNotMet"}}
	return e
}

// instanceNameRE is the instance name rule of the instances resource
// (resourceNameRE).
var instanceNameRE = resourceNameRE

// resourcePath returns the projects/… part of a Compute Engine resource
// URL (full or partial), with the request's project for paths that start
// at global/ or zones/.
func resourcePath(project, url string) string {
	if i := strings.Index(url, "projects/"); i >= 0 {
		return url[i:]
	}
	return "projects/" + project + "/" + strings.TrimPrefix(url, "/")
}

// fingerprint is a Compute Engine style fingerprint (base64 of 8 bytes) of
// the parts, stable for equal content.
func fingerprint(parts ...string) string {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	b := binary.BigEndian.AppendUint64(nil, h.Sum64())
	return base64.StdEncoding.EncodeToString(b)
}

func labelsFingerprint(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{"labels"}
	for _, k := range keys {
		parts = append(parts, k+"="+labels[k])
	}
	return fingerprint(parts...)
}

func metadataFingerprint(items []*compute.MetadataItems) string {
	parts := []string{"metadata"}
	for _, it := range items {
		if it != nil {
			v := ""
			if it.Value != nil {
				v = *it.Value
			}
			parts = append(parts, it.Key+"="+v)
		}
	}
	return fingerprint(parts...)
}

func tagsFingerprint(items []string) string {
	return fingerprint(append([]string{"tags"}, items...)...)
}

// resolveImage finds the image a sourceImage names: projects/P/global/images/N
// or projects/P/global/images/family/F (or global/images/… in the
// caller's project, or a full URL). It returns the resource path for errors.
func (s *Server) resolveImage(project, sourceImage string) (Image, string, bool) {
	path := resourcePath(project, sourceImage)
	segs := strings.Split(path, "/")
	if len(segs) < 5 || segs[2] != "global" || segs[3] != "images" {
		return Image{}, path, false
	}
	p := segs[1]
	for _, img := range s.sc.Images {
		switch {
		case len(segs) == 6 && segs[4] == "family" && img.Project == p && img.Family == segs[5],
			len(segs) == 5 && img.Project == p && img.Name == segs[4]:
			return img, path, true
		}
	}
	return Image{}, path, false
}

// checkInstanceDisks applies the disk rules of instances.insert: exactly one
// boot disk (disks[].boot), created from an image that exists
// (initializeParams.sourceImage; an unknown image is Compute Engine's 404
// "The resource '…' was not found"), and existing disks (disks[].source)
// in the instance's zone, and a customer-managed key
// (disks[].diskEncryptionKey.kmsKeyName) that is a Cloud KMS key name.
// Assumption: the wording of the boot-disk and zone messages.
func (s *Server) checkInstanceDisks(q *computeRequest, zone string, in *compute.Instance) *apiError {
	boots := 0
	for i, d := range in.Disks {
		if d == nil {
			return computeInvalid(fmt.Sprintf("resource.disks[%d]", i), "", "The disk must not be empty.")
		}
		if k := d.DiskEncryptionKey; k != nil && k.KmsKeyName != "" && !kmsKeyNameRE.MatchString(k.KmsKeyName) {
			// disks[].diskEncryptionKey.kmsKeyName names a Cloud KMS key
			// (kmsKeyNameRE). Assumption: the wording after Compute
			// Engine's "Invalid value for field" prefix.
			return computeInvalid(fmt.Sprintf("resource.disks[%d].diskEncryptionKey.kmsKeyName", i), k.KmsKeyName,
				"Must be a Cloud KMS key name, "+kmsKeyForm+".")
		}
		if d.Boot {
			boots++
			if boots > 1 {
				return computeInvalid(fmt.Sprintf("resource.disks[%d].boot", i), "true", "Only one boot disk may be specified.")
			}
			if d.InitializeParams == nil || d.InitializeParams.SourceImage == "" {
				return computeInvalid(fmt.Sprintf("resource.disks[%d].initializeParams.sourceImage", i), "",
					"The boot disk must be created from an image.")
			}
			if _, path, ok := s.resolveImage(q.project, d.InitializeParams.SourceImage); !ok {
				return computeResourceNotFound(path)
			}
			if why := bootDiskProblem(path.Base(in.MachineType), d.InitializeParams.DiskType); why != "" {
				return computeInvalid(fmt.Sprintf("resource.disks[%d].initializeParams.diskType", i), d.InitializeParams.DiskType, why)
			}
			continue
		}
		if d.Source != "" {
			segs := strings.Split(resourcePath(q.project, d.Source), "/")
			if len(segs) != 6 || segs[2] != "zones" || segs[4] != "disks" || segs[3] != zone {
				return computeInvalid(fmt.Sprintf("resource.disks[%d].source", i), d.Source,
					"The disk must be a zonal disk in the instance's zone '"+zone+"'.")
			}
		}
	}
	if boots == 0 {
		return computeInvalid("resource.disks", "", "Boot disk must be specified.")
	}
	return nil
}

// checkInstanceNetworks checks the network and subnetwork of each network
// interface of an insert. Compute Engine takes them as full or partial URLs
// (instances.insert: networkInterfaces[].network, "full or partial URL
// ... global/networks/default"; .subnetwork, "full or partial URL ...
// regions/region/subnetworks/subnetwork";
// https://cloud.google.com/compute/docs/reference/rest/v1/instances), in the
// instance's region for a subnetwork. Assumption: a bare name is refused
// like any malformed URL, with Compute Engine's message for one ("The URL
// is malformed.").
func checkInstanceNetworks(zone string, in *compute.Instance) *apiError {
	for i, nic := range in.NetworkInterfaces {
		if nic == nil {
			continue
		}
		if nic.Network != "" {
			if _, ok := networkRef(nic.Network, "global", "networks"); !ok {
				return computeInvalid(fmt.Sprintf("resource.networkInterfaces[%d].network", i), nic.Network, "The URL is malformed.")
			}
		}
		if nic.Subnetwork != "" {
			region, ok := networkRef(nic.Subnetwork, "regions", "subnetworks")
			field := fmt.Sprintf("resource.networkInterfaces[%d].subnetwork", i)
			if !ok {
				return computeInvalid(field, nic.Subnetwork, "The URL is malformed.")
			}
			if region != regionOf(zone) {
				return computeInvalid(field, nic.Subnetwork, fmt.Sprintf("Subnetwork must be in region '%s' of zone '%s'.", regionOf(zone), zone))
			}
		}
	}
	return nil
}

// networkRef parses a full or partial URL of a network (scope "global",
// collection "networks") or subnetwork ("regions", "subnetworks"):
// [https://HOST/compute/VERSION/][projects/P/]SCOPE[/R]/COLLECTION/NAME. It
// returns the region of a subnetwork.
func networkRef(url, scope, collection string) (region string, ok bool) {
	rest := url
	if strings.Contains(rest, "://") {
		i := strings.Index(rest, "/projects/")
		if i < 0 {
			return "", false
		}
		rest = rest[i+1:]
	}
	segs := strings.Split(rest, "/")
	if len(segs) >= 2 && segs[0] == "projects" {
		if segs[1] == "" {
			return "", false
		}
		segs = segs[2:]
	}
	for _, seg := range segs {
		if seg == "" {
			return "", false
		}
	}
	switch {
	case scope == "global" && len(segs) == 3 && segs[0] == scope && segs[1] == collection:
		return "", true
	case scope == "regions" && len(segs) == 4 && segs[0] == scope && segs[2] == collection:
		return segs[1], true
	}
	return "", false
}

// machineTypeOf checks the machineType URL of an insert
// (zones/Z/machineTypes/M, partial or full) against the zone and returns M.
// The message is Compute Engine's for an unknown machine type.
func machineTypeOf(z *Zone, url string) (string, *apiError) {
	segs := strings.Split(url, "/")
	name := segs[len(segs)-1]
	ok := len(segs) >= 4 && segs[len(segs)-2] == "machineTypes" && segs[len(segs)-3] == z.Name && segs[len(segs)-4] == "zones"
	if !ok || !zoneHasMachineType(z, name) {
		return "", computeInvalid("resource.machineType", url,
			fmt.Sprintf("Machine type with name '%s' does not exist in zone '%s'.", name, z.Name))
	}
	return name, nil
}

func (s *Server) computeInstancesInsert(q *computeRequest, zone string) (any, *apiError) {
	var in compute.Instance
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	z := s.zone(zone)
	if z == nil {
		return nil, computeInvalid("zone", zone, "Unknown zone.")
	}
	if !instanceNameRE.MatchString(in.Name) {
		return nil, computeInvalid("resource.name", in.Name, "Must be a match of regex '"+resourceNamePattern+"'")
	}
	if why := labelsProblem(in.Labels); why != "" {
		return nil, computeInvalid("resource.labels", fmt.Sprint(len(in.Labels)), why)
	}
	for i, a := range in.GuestAccelerators {
		if why := attachedGPUProblem(path.Base(in.MachineType), path.Base(a.AcceleratorType), a.AcceleratorCount); why != "" {
			return nil, computeInvalid(fmt.Sprintf("resource.guestAccelerators[%d].acceleratorCount", i), fmt.Sprint(a.AcceleratorCount), why)
		}
	}
	machine, aerr := machineTypeOf(z, in.MachineType)
	if aerr != nil {
		return nil, aerr
	}
	key := instanceKey(q.project, zone, in.Name)
	if _, dup := s.compute.instances[key]; dup {
		msg := fmt.Sprintf("The resource '%s' already exists", key)
		e := newError(statusAlreadyExists, "%s", msg)
		e.legacy = []legacyError{{Message: msg, Domain: "global", Reason: "alreadyExists"}}
		return nil, e
	}
	if aerr := s.checkInstanceDisks(q, zone, &in); aerr != nil {
		return nil, aerr
	}
	if aerr := checkInstanceNetworks(zone, &in); aerr != nil {
		return nil, aerr
	}
	gi := &gceInstance{inst: s.newInstance(q, zone, machine, in), project: q.project, zone: zone}
	s.compute.instances[key] = gi

	op := s.newComputeOperation(q, MethodComputeInstancesInsert, zone, "insert", gi, s.sc.Durations.InstanceInsert)
	gi.create = op
	failure := s.takeOpFailure(MethodComputeInstancesInsert)
	errCode := ""
	capKey := capKey(zone, machine)
	if failure == nil {
		if s.available(capKey) == 0 {
			failure, errCode = s.instanceStockout(q.project, zone), "ZONE_RESOURCE_POOL_EXHAUSTED"
		} else {
			s.reserve(capKey, 1)
			gi.capKey = capKey
		}
	}
	op.finish = func(op *operation, now time.Time) {
		gi.create = nil
		cur, ok := s.compute.instances[key]
		switch {
		case !ok || cur != gi:
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "The instance was deleted while it was being created."}
		case failure != nil:
			// No instance remains after a failed insert: the stockout
			// message says to try again, which creates it anew.
			s.releaseInstance(gi)
			delete(s.compute.instances, key)
			op.err, op.errCode = failure, errCode
		default:
			gi.inst.Status = instRunning
			s.assignNATIPs(gi.inst)
		}
	}
	return s.computeOpJSON(op, true), nil
}

// instanceStockout is Compute Engine's resource availability error, code
// ZONE_RESOURCE_POOL_EXHAUSTED, with its message
// (https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability).
// Assumption: the operation reports HTTP 503 SERVICE UNAVAILABLE with it.
func (s *Server) instanceStockout(project, zone string) *rpcStatus {
	return &rpcStatus{Code: rpcCodes[statusUnavailable].rpc, Message: fmt.Sprintf(
		"The zone 'projects/%s/zones/%s' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.",
		project, zone)}
}

// newInstance builds the stored instance from the request, with what
// Compute Engine fills in (instances resource, output-only fields):
// id, creationTimestamp, zone and machineType URLs, status, fingerprints,
// nic0 on the default network with an internal IP, and the boot disk named
// after the instance. Assumptions: the defaults of fields the request
// leaves out follow what gcloud shows for an instance created with
// defaults; accelerator (TPU and GPU) machine types default to
// onHostMaintenance TERMINATE, as accelerator VMs do not live-migrate
// (https://cloud.google.com/compute/docs/instances/host-maintenance-overview);
// a Spot VM (scheduling.provisioningModel SPOT) defaults to
// instanceTerminationAction STOP, automaticRestart false and
// onHostMaintenance TERMINATE (https://cloud.google.com/compute/docs/instances/spot).
func (s *Server) newInstance(q *computeRequest, zone, machine string, in compute.Instance) *compute.Instance {
	out := in
	out.Kind = "compute#instance"
	out.Id = s.rand.Uint64() >> 1
	out.CreationTimestamp = rfc3339(q.now)
	out.Zone = s.computeSelf(q, "zones/"+zone)
	out.MachineType = s.computeSelf(q, "zones/"+zone+"/machineTypes/"+machine)
	out.Status = instProvisioning
	out.SelfLink = s.computeSelf(q, "zones/"+zone+"/instances/"+in.Name)
	out.LabelFingerprint = labelsFingerprint(in.Labels)
	md := &compute.Metadata{}
	if in.Metadata != nil {
		md.Items = in.Metadata.Items
	}
	md.Kind, md.Fingerprint = "compute#metadata", metadataFingerprint(md.Items)
	out.Metadata = md
	tags := &compute.Tags{}
	if in.Tags != nil {
		tags.Items = in.Tags.Items
	}
	tags.Fingerprint = tagsFingerprint(tags.Items)
	out.Tags = tags
	out.NetworkInterfaces = s.instanceNICs(q, zone, in.NetworkInterfaces)
	out.Scheduling = instanceScheduling(machine, in.Scheduling)
	if out.ShieldedInstanceConfig == nil {
		out.ShieldedInstanceConfig = &compute.ShieldedInstanceConfig{EnableVtpm: true, EnableIntegrityMonitoring: true}
	}
	out.Disks = nil
	for i, d := range in.Disks {
		out.Disks = append(out.Disks, s.attachedDisk(q, zone, in.Name, i, d))
	}
	return &out
}

// instanceNICs are the network interfaces of a new instance: nic0 on the
// default network when the request names none, each with its network and
// subnetwork URLs, an internal IP and its access configs.
func (s *Server) instanceNICs(q *computeRequest, zone string, nics []*compute.NetworkInterface) []*compute.NetworkInterface {
	if len(nics) == 0 {
		nics = []*compute.NetworkInterface{{}}
	}
	out := make([]*compute.NetworkInterface, 0, len(nics))
	for i, n := range nics {
		nic := compute.NetworkInterface{}
		if n != nil {
			nic = *n
		}
		nic.Kind, nic.Name = "compute#networkInterface", fmt.Sprintf("nic%d", i)
		network := nic.Network
		if network == "" {
			network = "global/networks/default"
		}
		nic.Network = s.computeSelf(q, strings.TrimPrefix(resourcePath(q.project, network), "projects/"+q.project+"/"))
		if nic.Subnetwork == "" {
			nic.Subnetwork = "regions/" + regionOf(zone) + "/subnetworks/default"
		}
		nic.Subnetwork = s.computeSelf(q, strings.TrimPrefix(resourcePath(q.project, nic.Subnetwork), "projects/"+q.project+"/"))
		if nic.NetworkIP == "" {
			s.ipSeq++
			nic.NetworkIP = fmt.Sprintf("10.128.%d.%d", s.ipSeq/250%256, s.ipSeq%250+2)
		}
		nic.AccessConfigs = accessConfigs(nic.AccessConfigs)
		out = append(out, &nic)
	}
	return out
}

// accessConfigs are the external access configs of an interface, with
// their defaults: ONE_TO_ONE_NAT named "External NAT".
func accessConfigs(in []*compute.AccessConfig) []*compute.AccessConfig {
	var out []*compute.AccessConfig
	for _, ac := range in {
		if ac == nil {
			continue
		}
		c := *ac
		c.Kind = "compute#accessConfig"
		if c.Type == "" {
			c.Type = "ONE_TO_ONE_NAT"
		}
		if c.Name == "" {
			c.Name = "External NAT"
		}
		out = append(out, &c)
	}
	return out
}

// instanceScheduling is the scheduling of a new instance of machine, with
// the defaults newInstance describes.
func instanceScheduling(machine string, in *compute.Scheduling) *compute.Scheduling {
	sch := compute.Scheduling{}
	if in != nil {
		sch = *in
	}
	accelerator := isTPUMachine(machine) || isGPUMachine(machine)
	if sch.ProvisioningModel == "" {
		sch.ProvisioningModel = "STANDARD"
	}
	spot := sch.ProvisioningModel == "SPOT" || sch.Preemptible
	if sch.OnHostMaintenance == "" {
		sch.OnHostMaintenance = "MIGRATE"
		if accelerator || spot {
			sch.OnHostMaintenance = "TERMINATE"
		}
	}
	if sch.AutomaticRestart == nil {
		restart := !spot
		sch.AutomaticRestart = &restart
	}
	if sch.ProvisioningModel == "SPOT" && sch.InstanceTerminationAction == "" {
		sch.InstanceTerminationAction = "STOP"
	}
	return &sch
}

// attachedDisk is disk i of a new instance as a read shows it: a
// persistent disk with its source URL (a new disk is named after the
// instance) and size, without the input-only initializeParams.
func (s *Server) attachedDisk(q *computeRequest, zone, instance string, i int, d *compute.AttachedDisk) *compute.AttachedDisk {
	disk := *d
	disk.Kind, disk.Type, disk.Index = "compute#attachedDisk", "PERSISTENT", int64(i)
	if disk.Mode == "" {
		disk.Mode = "READ_WRITE"
	}
	if disk.DeviceName == "" {
		disk.DeviceName = fmt.Sprintf("persistent-disk-%d", i)
	}
	if disk.Source == "" {
		name := instance
		if disk.InitializeParams != nil && disk.InitializeParams.DiskName != "" {
			name = disk.InitializeParams.DiskName
		} else if !disk.Boot {
			name = fmt.Sprintf("%s-%d", instance, i)
		}
		disk.Source = "zones/" + zone + "/disks/" + name
	}
	disk.Source = s.computeSelf(q, strings.TrimPrefix(resourcePath(q.project, disk.Source), "projects/"+q.project+"/"))
	if disk.InitializeParams != nil {
		disk.DiskSizeGb = disk.InitializeParams.DiskSizeGb
	}
	disk.InitializeParams = nil // input only
	if k := d.DiskEncryptionKey; k != nil {
		disk.DiskEncryptionKey = &compute.CustomerEncryptionKey{KmsKeyName: reportedKMSKey(k.KmsKeyName)}
	}
	return &disk
}

// assignNATIPs gives every requested external access config an address
// once the instance runs.
func (s *Server) assignNATIPs(inst *compute.Instance) {
	for _, nic := range inst.NetworkInterfaces {
		for _, ac := range nic.AccessConfigs {
			if ac.NatIP == "" {
				s.ipSeq++
				ac.NatIP = fmt.Sprintf("34.%d.%d.%d", 60+s.ipSeq/62500%100, s.ipSeq/250%250, s.ipSeq%250+2)
			}
		}
	}
}

// releaseInstance returns the capacity an instance holds.
func (s *Server) releaseInstance(gi *gceInstance) {
	if gi.capKey != "" {
		s.release(gi.capKey, 1)
		gi.capKey = ""
	}
}

// renderInstance is a copy of the stored instance as a read shows it: an
// instance whose insert has run half its duration is STAGING.
func (s *Server) renderInstance(gi *gceInstance, now time.Time) *compute.Instance {
	out := copyInstance(gi.inst)
	if op := gi.create; op != nil && out.Status == instProvisioning && !op.hung && !now.Before(op.started.Add(op.dur/2)) {
		out.Status = instStaging
	}
	return out
}

func copyInstance(in *compute.Instance) *compute.Instance {
	return deepCopy(in, &compute.Instance{Name: in.Name})
}

func (s *Server) instanceOf(q *computeRequest, zone, name string) (*gceInstance, *apiError) {
	gi, ok := s.compute.instances[instanceKey(q.project, zone, name)]
	if !ok {
		return nil, computeNotFound(q, "zones/"+zone+"/instances/"+name)
	}
	return gi, nil
}

func (s *Server) computeInstancesGet(q *computeRequest, zone, name string) (any, *apiError) {
	gi, aerr := s.instanceOf(q, zone, name)
	if aerr != nil {
		return nil, aerr
	}
	return s.renderInstance(gi, q.now), nil
}

// zoneInstances lists the project's instances in zone named name ("" for
// all), sorted by name.
func (s *Server) zoneInstances(q *computeRequest, zone, name string) []*compute.Instance {
	var out []*compute.Instance
	for _, gi := range s.compute.instances {
		if gi.project == q.project && gi.zone == zone && (name == "" || gi.inst.Name == name) {
			out = append(out, s.renderInstance(gi, q.now))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (s *Server) computeInstancesList(q *computeRequest, zone string) (any, *apiError) {
	if s.zone(zone) == nil {
		return nil, computeNotFound(q, "zones/"+zone)
	}
	name, aerr := nameFilter(q)
	if aerr != nil {
		return nil, aerr
	}
	all := s.zoneInstances(q, zone, name)
	page, next, aerr := s.paginateBy(len(all), q.request, "maxResults")
	if aerr != nil {
		return nil, aerr
	}
	return &compute.InstanceList{Kind: "compute#instanceList", Id: "projects/" + q.project + "/zones/" + zone + "/instances",
		Items: all[page.lo:page.hi], NextPageToken: next, SelfLink: s.computeSelf(q, "zones/"+zone+"/instances")}, nil
}

// computeInstancesAggregated lists instances per zone scope; the filter
// forms name = "x", name = x and name eq x are understood
// (https://cloud.google.com/compute/docs/reference/rest/v1/instances/aggregatedList,
// filter), and returnPartialSuccess changes nothing as every zone answers.
func (s *Server) computeInstancesAggregated(q *computeRequest) (any, *apiError) {
	name, aerr := nameFilter(q)
	if aerr != nil {
		return nil, aerr
	}
	out := &compute.InstanceAggregatedList{Kind: "compute#instanceAggregatedList", Id: "projects/" + q.project + "/aggregated/instances",
		Items: map[string]compute.InstancesScopedList{}, SelfLink: s.computeSelf(q, "aggregated/instances")}
	for _, z := range s.sc.Zones {
		l := compute.InstancesScopedList{Instances: s.zoneInstances(q, z.Name, name)}
		if len(l.Instances) == 0 {
			w := noResults(z.Name)
			l.Warning = &compute.InstancesScopedListWarning{Code: w.Code, Message: w.Message}
		}
		out.Items["zones/"+z.Name] = l
	}
	return out, nil
}

func (s *Server) computeInstancesDelete(q *computeRequest, zone, name string) (any, *apiError) {
	gi, aerr := s.instanceOf(q, zone, name)
	if aerr != nil {
		return nil, aerr
	}
	key := instanceKey(q.project, zone, name)
	before := gi.inst.Status
	gi.inst.Status = instStopping
	op := s.newComputeOperation(q, MethodComputeInstancesDelete, zone, "delete", gi, s.sc.Durations.InstanceDelete)
	failure := s.takeOpFailure(MethodComputeInstancesDelete)
	op.finish = func(op *operation, _ time.Time) {
		if cur, ok := s.compute.instances[key]; !ok || cur != gi {
			return // already gone: the delete is done
		}
		if failure != nil {
			gi.inst.Status = before
			op.err = failure
			return
		}
		s.releaseInstance(gi)
		delete(s.compute.instances, key)
	}
	return s.computeOpJSON(op, true), nil
}

// computeInstancesSet serves setLabels, setMetadata and setTags. Each
// request carries the fingerprint of what it replaces; a fingerprint that
// is not the current one is 412 conditionNotMet (instances.setLabels:
// "labelFingerprint … Make a get() request to the resource to get the
// latest fingerprint"; setMetadata and setTags likewise). The change
// applies when the operation ends. Assumption: the metadata and tags
// messages follow the labels one.
func (s *Server) computeInstancesSet(q *computeRequest, method, zone, name string) (any, *apiError) {
	gi, aerr := s.instanceOf(q, zone, name)
	if aerr != nil {
		return nil, aerr
	}
	var apply func()
	var verb string
	switch method {
	case MethodComputeInstancesSetLabels:
		var req compute.InstancesSetLabelsRequest
		if err := decodeBody(q.body, &req); err != nil {
			return nil, err
		}
		if req.LabelFingerprint != gi.inst.LabelFingerprint {
			return nil, computeConditionNotMet("Labels fingerprint either invalid or resource labels have changed")
		}
		if why := labelsProblem(req.Labels); why != "" {
			return nil, computeInvalid("labels", fmt.Sprint(len(req.Labels)), why)
		}
		verb = "setLabels"
		apply = func() { gi.inst.Labels, gi.inst.LabelFingerprint = req.Labels, labelsFingerprint(req.Labels) }
	case MethodComputeInstancesSetMetadata:
		var req compute.Metadata
		if err := decodeBody(q.body, &req); err != nil {
			return nil, err
		}
		if req.Fingerprint != gi.inst.Metadata.Fingerprint {
			return nil, computeConditionNotMet("Supplied fingerprint does not match current metadata fingerprint.")
		}
		verb = "setMetadata"
		apply = func() {
			gi.inst.Metadata = &compute.Metadata{Kind: "compute#metadata", Items: req.Items, Fingerprint: metadataFingerprint(req.Items)}
		}
	default:
		var req compute.Tags
		if err := decodeBody(q.body, &req); err != nil {
			return nil, err
		}
		if req.Fingerprint != gi.inst.Tags.Fingerprint {
			return nil, computeConditionNotMet("Supplied fingerprint does not match current tags fingerprint.")
		}
		verb = "setTags"
		apply = func() { gi.inst.Tags = &compute.Tags{Items: req.Items, Fingerprint: tagsFingerprint(req.Items)} }
	}
	key := instanceKey(q.project, zone, name)
	op := s.newComputeOperation(q, method, zone, verb, gi, s.sc.Durations.InstanceUpdate)
	failure := s.takeOpFailure(method)
	op.finish = func(op *operation, _ time.Time) {
		switch cur, ok := s.compute.instances[key]; {
		case failure != nil:
			op.err = failure
		case !ok || cur != gi:
			op.err = &rpcStatus{Code: rpcCodes[statusNotFound].rpc, Message: fmt.Sprintf("The resource '%s' was not found", key)}
			op.errCode = "RESOURCE_NOT_FOUND"
		default:
			apply()
		}
	}
	return s.computeOpJSON(op, true), nil
}

// newComputeOperation starts a zone operation of type opType on gi.
func (s *Server) newComputeOperation(q *computeRequest, method, zone, opType string, gi *gceInstance, d time.Duration) *operation {
	op := s.newOperation(apiCompute, method, q.project, zone, d, q.now)
	op.opType = opType
	op.targetLink = gi.inst.SelfLink
	op.targetID = gi.inst.Id
	return op
}

func (s *Server) computeZoneOperationsGet(q *computeRequest, zone, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiCompute || op.regional || op.project != q.project || op.location != zone {
		return nil, computeNotFound(q, "zones/"+zone+"/operations/"+id)
	}
	// zoneOperations.wait may return "after zero seconds" and callers must
	// "be prepared to retry if the operation is not DONE"
	// (https://cloud.google.com/compute/docs/reference/rest/v1/zoneOperations/wait):
	// the emulator answers at once, with the operation as it is.
	return s.computeOpJSON(op, false), nil
}

// computeOpJSON renders a compute#operation. fresh is the answer of the
// call that started it (PENDING); later reads see RUNNING, then DONE. A
// failed operation carries error.errors[{code, message}]: the code is the
// Compute Engine one where the emulator knows it (for example
// ZONE_RESOURCE_POOL_EXHAUSTED), else the canonical status name of the
// injected failure, with httpErrorStatusCode and httpErrorMessage.
func (s *Server) computeOpJSON(op *operation, fresh bool) *compute.Operation {
	h := fnv.New64a()
	_, _ = h.Write([]byte(op.id))
	scope := "/zones/"
	if op.regional {
		scope = "/regions/"
	}
	scopeURL := s.ComputeEndpoint() + "projects/" + op.project + scope + op.location
	out := &compute.Operation{
		Kind: "compute#operation", Id: h.Sum64() >> 1, Name: op.id,
		OperationType: op.opType, TargetLink: op.targetLink, TargetId: op.targetID,
		Status: opRunning, InsertTime: rfc3339(op.created), StartTime: rfc3339(op.created),
		SelfLink: scopeURL + "/operations/" + op.id,
	}
	if op.regional {
		out.Region = scopeURL
	} else {
		out.Zone = scopeURL
	}
	switch {
	case op.done:
		out.Status, out.Progress, out.EndTime = opDone, 100, rfc3339(op.ended)
	case fresh:
		out.Status = opPending
	}
	if op.done && op.err != nil {
		code := op.errCode
		status := statusForRPC(op.err.Code)
		if code == "" {
			code = status
		}
		out.Error = &compute.OperationError{Errors: []*compute.OperationErrorErrors{{Code: code, Message: op.err.Message}}}
		out.HttpErrorStatusCode = int64(rpcCodes[status].http)
		out.HttpErrorMessage = strings.ToUpper(http.StatusText(rpcCodes[status].http))
	}
	return out
}

// computeState is the Compute Engine API's part of the server's state.
type computeState struct {
	instances map[string]*gceInstance // by projects/P/zones/Z/instances/N
	policies  map[string]*gcePolicy   // by projects/P/regions/R/resourcePolicies/N
}

func newComputeState() computeState {
	return computeState{instances: map[string]*gceInstance{}, policies: map[string]*gcePolicy{}}
}

// computeOperationMethods are the Compute Engine methods that start an
// operation (operationMethods).
var computeOperationMethods = []string{
	MethodComputeInstancesInsert, MethodComputeInstancesDelete, MethodComputeInstancesSetLabels,
	MethodComputeInstancesSetMetadata, MethodComputeInstancesSetTags,
}

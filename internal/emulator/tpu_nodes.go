// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"sort"
	"strings"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

func (s *Server) tpuNodesList(q *tpuRequest) (any, *apiError) {
	prefix := q.parent() + "/nodes/"
	var names []string
	for name, n := range s.tpu.nodes {
		if strings.HasPrefix(name, prefix) || (q.location == "-" && n.project == q.project) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	page, next, err := s.paginate(len(names), q.request)
	if err != nil {
		return nil, err
	}
	out := make([]*tpu.Node, 0, page.hi-page.lo)
	for _, name := range names[page.lo:page.hi] {
		out = append(out, s.tpu.nodes[name].node)
	}
	return &tpu.ListNodesResponse{Nodes: out, NextPageToken: next}, nil
}

func (s *Server) tpuNodesGet(_ *tpuRequest, name string) (any, *apiError) {
	n, ok := s.tpu.nodes[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	return n.node, nil
}

// resolveAccelerator returns the accelerator type and config a create asks
// for, applying the API's default of v2-8.
func (s *Server) resolveAccelerator(n *tpu.Node) (string, *tpu.AcceleratorConfig, *apiError) {
	switch {
	case n.AcceleratorType != "" && n.AcceleratorConfig != nil:
		return "", nil, newError(statusInvalidArgument,
			"Cloud TPU received an invalid argument. Only one of accelerator_type and accelerator_config may be set. %s", s.eid()).
			with(badRequest("accelerator_config", "conflicts with accelerator_type"))
	case n.AcceleratorConfig != nil:
		t, ok := typeForConfig(n.AcceleratorConfig)
		if !ok {
			return "", nil, newError(statusInvalidArgument,
				"Cloud TPU received a bad request. The requested accelerator configuration {type: %s, topology: %s} is not a valid TPU configuration. %s",
				n.AcceleratorConfig.Type, n.AcceleratorConfig.Topology, s.eid()).
				with(badRequest("accelerator_config", "unknown type or topology"))
		}
		return t, &tpu.AcceleratorConfig{Type: n.AcceleratorConfig.Type, Topology: n.AcceleratorConfig.Topology}, nil
	default:
		t := n.AcceleratorType
		if t == "" {
			t = defaultAcceleratorType
		}
		shape, ok := parseTPUType(t)
		if !ok {
			return t, nil, nil // reported as "not found in zone" by the caller
		}
		return t, &tpu.AcceleratorConfig{Type: tpuFamilies[shape.family].configType, Topology: shape.topology}, nil
	}
}

func (s *Server) tpuNodesCreate(q *tpuRequest) (any, *apiError) {
	var in tpu.Node
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	id := q.r.URL.Query().Get("nodeId")
	if !nodeIDRE.MatchString(id) {
		return nil, newError(statusInvalidArgument,
			"Cloud TPU received an invalid argument. The node id %q is not valid: it must be 1-63 characters long, start with a lowercase letter, contain only lowercase letters, digits and hyphens, and not end with a hyphen. %s", id, s.eid()).
			with(badRequest("node_id", "must match [a-z]([-a-z0-9]{0,61}[a-z0-9])?"))
	}
	accel, cfg, aerr := s.checkNodeOffer(&in, q.location)
	if aerr != nil {
		return nil, aerr
	}
	name := q.parent() + "/nodes/" + id
	if _, dup := s.tpu.nodes[name]; dup {
		return nil, newError(statusAlreadyExists, "Resource '%s' already exists", name).
			with(resourceInfo("tpu.googleapis.com", name))
	}
	tn := s.newNode(q, in, name, accel, cfg)

	op := s.newTPUOperation(q, MethodTPUNodesCreate, "create", name, s.sc.Durations.TPUCreate)
	failure := s.tpuClaim(tn, q.location, accel, s.takeOpFailure(MethodTPUNodesCreate))
	op.finish = func(op *operation, now time.Time) {
		cur, ok := s.tpu.nodes[name]
		switch {
		case !ok || cur != tn || tn.node.State != stateCreating:
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The node was deleted while it was being created. " + s.eid()}
		case failure != nil:
			// Assumption: a failed create leaves no node behind, as observed with
			// TPU VM stockouts (the node does not show up in nodes.list).
			s.releaseNode(tn)
			delete(s.tpu.nodes, name)
			op.err = failure
		default:
			tn.node.State = stateReady
			tn.node.Health = healthHealthy
			s.assignEndpoints(tn)
			op.response = copyNode(tn.node)
		}
	}
	return s.tpuOpJSON(op), nil
}

// checkNodeOffer checks that zone offers the accelerator and runtime
// version a node asks for, as nodes.create and queuedResources.create do.
func (s *Server) checkNodeOffer(in *tpu.Node, zone string) (string, *tpu.AcceleratorConfig, *apiError) {
	if aerr := s.checkTPUNodeSettings(in); aerr != nil {
		return "", nil, aerr
	}
	accel, cfg, aerr := s.resolveAccelerator(in)
	if aerr != nil {
		return "", nil, aerr
	}
	z := s.zone(zone)
	if z == nil || cfg == nil || !contains(z.TPUAcceleratorTypes, accel) {
		// Message seen from tpu-vm create (INVALID_ARGUMENT) for a type a zone does not offer.
		return "", nil, newError(statusInvalidArgument,
			"Cloud TPU received a bad request. The requested accelerator configuration for accelerator type, %q, could not be found in the zonal accelerator configurations for %q.; the accelerator %s was not found in zone %s %s",
			accel, zone, accel, zone, s.eid()).
			with(badRequest("accelerator_type", "not offered in "+zone))
	}
	if in.RuntimeVersion == "" || !contains(z.RuntimeVersions, in.RuntimeVersion) {
		// Modeled on the API's "The field \"TensorflowVersion\" cannot be \"2.4\"" answer.
		return "", nil, newError(statusInvalidArgument,
			"Cloud TPU received an invalid argument. The field \"runtime_version\" cannot be %q in zone %q. %s",
			in.RuntimeVersion, zone, s.eid()).
			with(badRequest("runtime_version", "not offered in "+zone))
	}
	return accel, cfg, nil
}

// checkTPUNodeSettings applies the v2 REST reference's rules on the node's
// settings (https://cloud.google.com/tpu/docs/reference/rest/v2/projects.locations.nodes):
// networkConfig and networkConfigs "are mutually exclusive ... If both are
// specified, an error will be returned"; the boot disk's
// customerEncryptionKey.kmsKeyName is a Cloud KMS key name (kmsKeyNameRE).
// Assumption: the wording of both messages, in the API's "Cloud TPU
// received an invalid argument" form.
func (s *Server) checkTPUNodeSettings(in *tpu.Node) *apiError {
	if aerr := s.checkTPULabels(in.Labels); aerr != nil {
		return aerr
	}
	if in.NetworkConfig != nil && len(in.NetworkConfigs) > 0 {
		return newError(statusInvalidArgument,
			"Cloud TPU received an invalid argument. network_config and network_configs are mutually exclusive: specify only one of them. %s", s.eid()).
			with(badRequest("network_configs", "conflicts with network_config"))
	}
	if b := in.BootDiskConfig; b != nil && b.CustomerEncryptionKey != nil {
		if k := b.CustomerEncryptionKey.KmsKeyName; k != "" && !kmsKeyNameRE.MatchString(k) {
			return newError(statusInvalidArgument,
				"Cloud TPU received an invalid argument. The field \"boot_disk_config.customer_encryption_key.kms_key_name\" cannot be %q: it must be a Cloud KMS key name, %s. %s",
				k, kmsKeyForm, s.eid()).
				with(badRequest("boot_disk_config.customer_encryption_key.kms_key_name", "must be "+kmsKeyForm))
		}
	}
	return nil
}

// checkTPULabels refuses labels Google Cloud refuses (labelsProblem), in
// the API's "Cloud TPU received an invalid argument" form.
func (s *Server) checkTPULabels(labels map[string]string) *apiError {
	if why := labelsProblem(labels); why != "" {
		return newError(statusInvalidArgument, "Cloud TPU received an invalid argument. %s %s", why, s.eid()).with(badRequest("labels", why))
	}
	return nil
}

// newNode registers a CREATING node named name from the request in, with
// the output-only fields the API sets.
func (s *Server) newNode(q *tpuRequest, in tpu.Node, name, accel string, cfg *tpu.AcceleratorConfig) *tpuNode {
	shape, _ := parseTPUType(accel)
	node := in
	node.Name = name
	node.AcceleratorType = accel
	node.AcceleratorConfig = cfg
	node.State = stateCreating
	node.Health = ""
	node.HealthDescription = ""
	node.NetworkEndpoints = nil
	node.Symptoms = nil
	node.QueuedResource = ""
	node.MultisliceNode = false
	node.CreateTime = rfc3339(q.now)
	node.Id = int64(s.rand.Uint64() >> 1)
	node.ApiVersion = "V2"
	if q.version == "v2alpha1" {
		node.ApiVersion = "V2_ALPHA1"
	}
	s.tpuDefaults(&node, q.project, q.location)
	if b := node.BootDiskConfig; b != nil && b.CustomerEncryptionKey != nil {
		node.BootDiskConfig = &tpu.BootDiskConfig{CustomerEncryptionKey: &tpu.CustomerEncryptionKey{
			KmsKeyName: reportedKMSKey(b.CustomerEncryptionKey.KmsKeyName),
		}}
	}
	tn := &tpuNode{node: &node, project: q.project, zone: q.location, workers: shape.workers}
	s.tpu.nodes[name] = tn
	return tn
}

// tpuClaim reserves one accelerator of type accel in zone for tn, and
// returns how its operation fails: failure (an injected one) when set, a
// stockout when the zone has no more.
func (s *Server) tpuClaim(tn *tpuNode, zone, accel string, failure *rpcStatus) *rpcStatus {
	if failure != nil {
		return failure
	}
	key := capKey(zone, accel)
	if s.available(key) == 0 {
		return s.tpuStockout(zone)
	}
	s.reserve(key, 1)
	tn.capKey = key
	return nil
}

// tpuStockout is the create error of a zone out of TPU capacity. The message
// is the API's own (error code 8, as gcloud prints it).
func (s *Server) tpuStockout(zone string) *rpcStatus {
	return &rpcStatus{
		Code: rpcCodes[statusResourceExhausted].rpc,
		Message: fmt.Sprintf("There is no more capacity in the zone %q; you can try in another zone where Cloud TPU Nodes are offered (see https://cloud.google.com/tpu/docs/regions) %s",
			zone, s.eid()),
	}
}

// tpuDefaults fills what the API fills when the request leaves it out.
// Assumption: the default network, subnetwork, service account and CIDR
// follow what the API reports for nodes created with defaults.
// A node created with networkConfigs reports them, each with the defaults
// filled in, and no networkConfig.
func (s *Server) tpuDefaults(n *tpu.Node, project, zone string) {
	configs := n.NetworkConfigs
	if len(configs) == 0 {
		if n.NetworkConfig == nil {
			n.NetworkConfig = &tpu.NetworkConfig{}
		}
		configs = []*tpu.NetworkConfig{n.NetworkConfig}
	}
	for i, nc := range configs {
		if nc == nil {
			nc = &tpu.NetworkConfig{}
			configs[i] = nc
		}
		if nc.Network == "" {
			nc.Network = "projects/" + project + "/global/networks/default"
		}
		if nc.Subnetwork == "" {
			nc.Subnetwork = "projects/" + project + "/regions/" + regionOf(zone) + "/subnetworks/default"
		}
	}
	if n.ServiceAccount == nil {
		n.ServiceAccount = &tpu.ServiceAccount{}
	}
	if n.ServiceAccount.Email == "" {
		n.ServiceAccount.Email = projectNumber(project) + "-compute@developer.gserviceaccount.com"
	}
	if len(n.ServiceAccount.Scope) == 0 {
		n.ServiceAccount.Scope = []string{"https://www.googleapis.com/auth/cloud-platform"}
	}
	if n.CidrBlock == "" {
		n.CidrBlock = "10.128.0.0/20"
	}
}

// assignEndpoints gives every worker an internal IP (10.x) and, with
// enableExternalIps, an external one.
func (s *Server) assignEndpoints(tn *tpuNode) {
	if len(tn.node.NetworkEndpoints) != tn.workers {
		tn.node.NetworkEndpoints = nil
		for range tn.workers {
			s.ipSeq++
			tn.node.NetworkEndpoints = append(tn.node.NetworkEndpoints, &tpu.NetworkEndpoint{
				IpAddress: fmt.Sprintf("10.128.%d.%d", s.ipSeq/250%256, s.ipSeq%250+2),
				Port:      8470,
			})
		}
	}
	external := firstNetworkConfig(tn.node).EnableExternalIps
	for _, ep := range tn.node.NetworkEndpoints {
		switch {
		case external && ep.AccessConfig == nil:
			s.ipSeq++
			ep.AccessConfig = &tpu.AccessConfig{ExternalIp: fmt.Sprintf("34.%d.%d.%d", 60+s.ipSeq/62500%100, s.ipSeq/250%250, s.ipSeq%250+2)}
		case !external:
			ep.AccessConfig = nil
		}
	}
}

// firstNetworkConfig is the settings of a node's first network interface:
// its networkConfig, else the first of its networkConfigs (an empty one
// when it has neither).
func firstNetworkConfig(n *tpu.Node) *tpu.NetworkConfig {
	switch {
	case n.NetworkConfig != nil:
		return n.NetworkConfig
	case len(n.NetworkConfigs) > 0 && n.NetworkConfigs[0] != nil:
		return n.NetworkConfigs[0]
	}
	return &tpu.NetworkConfig{}
}

// releaseNode returns the capacity a node holds.
func (s *Server) releaseNode(tn *tpuNode) {
	if tn.capKey != "" {
		s.release(tn.capKey, 1)
		tn.capKey = ""
	}
}

func (s *Server) tpuNodesDelete(q *tpuRequest, name string) (any, *apiError) {
	tn, ok := s.tpu.nodes[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	if tn.node.State == stateDeleting {
		return nil, s.tpuBadState("delete", tn.node.State)
	}
	tn.node.State = stateDeleting
	tn.node.Health = ""
	op := s.newTPUOperation(q, MethodTPUNodesDelete, "delete", name, s.sc.Durations.TPUDelete)
	failure := s.takeOpFailure(MethodTPUNodesDelete)
	op.finish = func(op *operation, now time.Time) {
		if failure != nil {
			if cur, ok := s.tpu.nodes[name]; ok && cur == tn {
				tn.node.State = stateReady
			}
			op.err = failure
			return
		}
		if cur, ok := s.tpu.nodes[name]; ok && cur == tn {
			s.releaseNode(tn)
			delete(s.tpu.nodes, name)
		}
	}
	return s.tpuOpJSON(op), nil
}

// tpuPowerChange starts a stop or start of node name: from the state it
// must be in, to the state it has while the operation runs. The operation's
// finish checks that the node is still that one, in that state.
func (s *Server) tpuPowerChange(q *tpuRequest, name, verb, method, from, during string, d time.Duration) (*tpuNode, *operation, *rpcStatus, *apiError) {
	tn, ok := s.tpu.nodes[name]
	if !ok {
		return nil, nil, nil, s.tpuNotFound(name)
	}
	if tn.node.State != from {
		return nil, nil, nil, s.tpuBadState(verb, tn.node.State)
	}
	tn.node.State = during
	return tn, s.newTPUOperation(q, method, verb, name, d), s.takeOpFailure(method), nil
}

// tpuStillChanging is the error of a stop or start whose node changed
// meanwhile, nil when it is still tn in state during.
func (s *Server) tpuStillChanging(name string, tn *tpuNode, during, verbed string) *rpcStatus {
	if cur, ok := s.tpu.nodes[name]; !ok || cur != tn || tn.node.State != during {
		return &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The node changed state while it was being " + verbed + ". " + s.eid()}
	}
	return nil
}

func (s *Server) tpuNodesStop(q *tpuRequest, name string) (any, *apiError) {
	tn, op, failure, aerr := s.tpuPowerChange(q, name, "stop", MethodTPUNodesStop, stateReady, stateStopping, s.sc.Durations.TPUStop)
	if aerr != nil {
		return nil, aerr
	}
	op.finish = func(op *operation, now time.Time) {
		if err := s.tpuStillChanging(name, tn, stateStopping, "stopped"); err != nil {
			op.err = err
			return
		}
		if failure != nil {
			tn.node.State = stateReady
			op.err = failure
			return
		}
		// A stopped node gives its accelerators back; starting it again
		// needs capacity (stockouts are reported by tpu-vm start too).
		s.releaseNode(tn)
		tn.node.State = stateStopped
		tn.node.Health = ""
		op.response = copyNode(tn.node)
	}
	return s.tpuOpJSON(op), nil
}

func (s *Server) tpuNodesStart(q *tpuRequest, name string) (any, *apiError) {
	tn, op, failure, aerr := s.tpuPowerChange(q, name, "start", MethodTPUNodesStart, stateStopped, stateStarting, s.sc.Durations.TPUStart)
	if aerr != nil {
		return nil, aerr
	}
	failure = s.tpuClaim(tn, tn.zone, tn.node.AcceleratorType, failure)
	op.finish = func(op *operation, now time.Time) {
		if err := s.tpuStillChanging(name, tn, stateStarting, "started"); err != nil {
			op.err = err
			return
		}
		if failure != nil {
			s.releaseNode(tn)
			tn.node.State = stateStopped
			op.err = failure
			return
		}
		tn.node.State = stateReady
		tn.node.Health = healthHealthy
		s.assignEndpoints(tn)
		op.response = copyNode(tn.node)
	}
	return s.tpuOpJSON(op), nil
}

func (s *Server) tpuNodesPatch(q *tpuRequest, name string) (any, *apiError) {
	var in tpu.Node
	if err := decodeBody(q.body, &in); err != nil {
		return nil, err
	}
	tn, ok := s.tpu.nodes[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	mask := q.r.URL.Query().Get("updateMask")
	if mask == "" {
		return nil, newError(statusInvalidArgument, "Cloud TPU received an invalid argument. The field \"update_mask\" is required. %s", s.eid()).
			with(badRequest("update_mask", "required"))
	}
	var paths []string
	for _, p := range strings.Split(mask, ",") {
		p = snakeCase(strings.TrimSpace(p))
		if !contains(tpuPatchable, p) {
			return nil, newError(statusInvalidArgument,
				"Cloud TPU received an invalid argument. The update_mask path %q is not supported; supported fields: [%s]. %s",
				p, strings.Join(tpuPatchable, ", "), s.eid()).
				with(badRequest("update_mask", p+" is not updatable"))
		}
		paths = append(paths, p)
	}
	if tn.node.State != stateReady && tn.node.State != stateStopped {
		return nil, s.tpuBadState("update", tn.node.State)
	}
	if contains(paths, "labels") {
		if aerr := s.checkTPULabels(in.Labels); aerr != nil {
			return nil, aerr
		}
	}
	if contains(paths, "network_config.enable_external_ips") && tn.node.NetworkConfig == nil {
		// Assumption: a node of several interfaces (networkConfigs) has no
		// network_config to update; the reference says nothing of it.
		return nil, newError(statusInvalidArgument,
			"Cloud TPU received an invalid argument. The node has network_configs, not network_config: network_config.enable_external_ips cannot be updated. %s", s.eid()).
			with(badRequest("update_mask", "network_config.enable_external_ips of a node with network_configs"))
	}
	op := s.newTPUOperation(q, MethodTPUNodesPatch, "update", name, s.sc.Durations.TPUUpdate)
	failure := s.takeOpFailure(MethodTPUNodesPatch)
	op.finish = func(op *operation, now time.Time) {
		if cur, ok := s.tpu.nodes[name]; !ok || cur != tn {
			op.err = &rpcStatus{Code: rpcCodes[statusNotFound].rpc, Message: fmt.Sprintf("Resource '%s' was not found", name)}
			return
		}
		if failure != nil {
			op.err = failure
			return
		}
		for _, p := range paths {
			switch p {
			case "description":
				tn.node.Description = in.Description
			case "tags":
				tn.node.Tags = in.Tags
			case "labels":
				tn.node.Labels = in.Labels
			case "metadata":
				tn.node.Metadata = in.Metadata
			case "data_disks":
				tn.node.DataDisks = in.DataDisks
			case "network_config.enable_external_ips":
				tn.node.NetworkConfig.EnableExternalIps = in.NetworkConfig != nil && in.NetworkConfig.EnableExternalIps
				if tn.node.State == stateReady {
					s.assignEndpoints(tn)
				}
			}
		}
		op.response = copyNode(tn.node)
	}
	return s.tpuOpJSON(op), nil
}

// copyNode deep-copies a node.
func copyNode(n *tpu.Node) *tpu.Node { return deepCopy(n, &tpu.Node{Name: n.Name}) }

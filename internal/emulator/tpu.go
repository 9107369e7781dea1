// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	tpu "google.golang.org/api/tpu/v2"
)

// Cloud TPU node states, from the v2 REST reference (Node.State).
const (
	stateCreating = "CREATING"
	stateReady    = "READY"
	stateDeleting = "DELETING"
	stateStopping = "STOPPING"
	stateStopped  = "STOPPED"
	stateStarting = "STARTING"
	healthHealthy = "HEALTHY"
)

// tpuFamily describes one TPU generation as the Cloud TPU API names it.
type tpuFamily struct {
	configType    string // AcceleratorConfig.Type
	coresPerChip  int    // the N in "v4-N" counts TensorCores for these
	dims          int    // topology dimensions
	chipsPerHost  int    // chips per TPU VM (worker) in multi-host slices
	singleHostMax int    // largest slice served by one VM
}

// Source: TPU generation pages (https://cloud.google.com/tpu/docs/v2 … /v6e,
// /tpu7x): TensorCores per chip, chips per host. TPU7X is not a value of
// the v2 API's AcceleratorConfig.Type enum (the API does not support TPU7x,
// https://cloud.google.com/tpu/docs/runtimes); the emulator uses "TPU7X"
// only when a scenario offers tpu7x types.
var tpuFamilies = map[string]tpuFamily{
	"v2":        {"V2", 2, 2, 4, 4},
	"v3":        {"V3", 2, 2, 4, 4},
	"v4":        {"V4", 2, 3, 4, 4},
	"v5litepod": {"V5LITE_POD", 1, 2, 4, 8},
	"v5p":       {"V5P", 2, 3, 4, 4},
	"v6e":       {"V6E", 1, 2, 4, 8},
	"tpu7x":     {"TPU7X", 2, 3, 4, 4},
}

// tpuShape is a parsed TPU accelerator type.
type tpuShape struct {
	family   string
	chips    int
	topology string
	workers  int
}

// parseTPUType parses names like "v5litepod-16" or "v5p-128".
func parseTPUType(name string) (tpuShape, bool) {
	i := strings.LastIndex(name, "-")
	if i <= 0 {
		return tpuShape{}, false
	}
	fam, ok := tpuFamilies[name[:i]]
	if !ok {
		return tpuShape{}, false
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n <= 0 || n%fam.coresPerChip != 0 {
		return tpuShape{}, false
	}
	chips := n / fam.coresPerChip
	topo := canonicalTopology(chips, fam.dims)
	if topo == "" {
		return tpuShape{}, false
	}
	workers := 1
	if chips > fam.singleHostMax {
		workers = chips / fam.chipsPerHost
	}
	return tpuShape{family: name[:i], chips: chips, topology: topo, workers: workers}, true
}

// canonicalTopology returns the documented topology of a slice of chips
// chips, or "" when there is none: 2D AxB with A <= B <= 2A, 3D AxBxC with
// A <= B <= C <= 2A, 2x2x1 for a 4-chip 3D host, and v5p's 16x16x24.
func canonicalTopology(chips, dims int) string {
	if chips == 6144 && dims == 3 {
		return "16x16x24"
	}
	if chips <= 0 || chips&(chips-1) != 0 {
		return ""
	}
	e := bits.TrailingZeros(uint(chips))
	if dims == 2 {
		a := 1 << (e / 2)
		return fmt.Sprintf("%dx%d", a, chips/a)
	}
	switch chips {
	case 1:
		return "1x1x1"
	case 2:
		return "1x1x2"
	case 4:
		return "2x2x1"
	}
	return fmt.Sprintf("%dx%dx%d", 1<<(e/3), 1<<((e+1)/3), 1<<((e+2)/3))
}

// parseTopology parses "2x2" or "2x2x1" into its dimensions.
func parseTopology(t string) ([]int, bool) {
	parts := strings.Split(t, "x")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false
	}
	dims := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || strconv.Itoa(n) != p {
			return nil, false
		}
		dims[i] = n
	}
	return dims, true
}

func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

// typeForConfig maps an AcceleratorConfig to the accelerator type name with
// the same chip count, such as {V5LITE_POD, 2x2} to "v5litepod-4".
func typeForConfig(cfg *tpu.AcceleratorConfig) (string, bool) {
	for name, fam := range tpuFamilies {
		if fam.configType != cfg.Type {
			continue
		}
		dims, ok := parseTopology(cfg.Topology)
		if !ok || len(dims) != fam.dims {
			return "", false
		}
		t := fmt.Sprintf("%s-%d", name, product(dims)*fam.coresPerChip)
		if _, ok := parseTPUType(t); !ok {
			return "", false
		}
		return t, true
	}
	return "", false
}

// tpuNode is a Cloud TPU node and the emulator's bookkeeping for it.
type tpuNode struct {
	node    *tpu.Node
	project string
	zone    string
	workers int
	// capKey is the capacity the node holds while it runs ("" when none).
	capKey string
}

// nodeIDRE is the node-id rule: RFC 1035 labels, 1–63 characters. Assumption:
// the v2 REST reference only says "The unqualified resource name"; gcloud and
// Compute Engine apply this rule to TPU VM names.
var nodeIDRE = regexp.MustCompile(`^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Fields Nodes.Patch may change. Source: the updateMask parameter of
// projects.locations.nodes.patch in the TPU v2 discovery document ("Supported
// fields: [description, tags, labels, metadata,
// network_config.enable_external_ips]"). The sources disagree on data_disks:
// that list leaves it out, but the service accepts it (gcloud compute tpus
// tpu-vm attach-disk and detach-disk, and tpu-vm update --attach-disk, send
// updateMask=dataDisks: https://cloud.google.com/sdk/gcloud/reference/compute/tpus/tpu-vm/update),
// so the emulator accepts it too.
var tpuPatchable = []string{"description", "tags", "labels", "metadata", "network_config.enable_external_ips", "data_disks"}

// snakeCase turns a camelCase field-mask path into its proto field name.
func snakeCase(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			b.WriteRune(r - 'A' + 'a')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tpuRequest carries one parsed Cloud TPU API request.
type tpuRequest struct {
	*request
	version  string // "v2" or "v2alpha1"
	project  string
	location string
}

// routeTPU maps a /v2/ or /v2alpha1/ path to its method and handler.
func (s *Server) routeTPU(r *http.Request, version, rest string) (string, string, handler) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) < 3 || segs[0] != "projects" || segs[2] != "locations" {
		return "", "", nil
	}
	project := segs[1]
	tr := func(req *request) *tpuRequest {
		t := &tpuRequest{request: req, version: version, project: project}
		if len(segs) > 3 {
			t.location = segs[3]
		}
		return t
	}
	get := r.Method == http.MethodGet
	switch len(segs) {
	case 3:
		if get {
			return MethodTPULocationsList, project, func(q *request) (any, *apiError) { return s.tpuLocationsList(tr(q)) }
		}
	case 4:
		if get && !strings.Contains(segs[3], ":") {
			return MethodTPULocationsGet, project, func(q *request) (any, *apiError) { return s.tpuLocationsGet(tr(q)) }
		}
	case 5:
		switch {
		case segs[4] == "queuedResources":
			return s.routeQueued(r, project, tr, "")
		case segs[4] == "nodes" && get:
			return MethodTPUNodesList, project, func(q *request) (any, *apiError) { return s.tpuNodesList(tr(q)) }
		case segs[4] == "nodes" && r.Method == http.MethodPost:
			return MethodTPUNodesCreate, project, func(q *request) (any, *apiError) { return s.tpuNodesCreate(tr(q)) }
		case segs[4] == "acceleratorTypes" && get:
			return MethodTPUAcceleratorTypesList, project, func(q *request) (any, *apiError) { return s.tpuAcceleratorTypesList(tr(q)) }
		case segs[4] == "runtimeVersions" && get:
			return MethodTPURuntimeVersionsList, project, func(q *request) (any, *apiError) { return s.tpuRuntimeVersionsList(tr(q)) }
		case segs[4] == "operations" && get:
			return MethodTPUOperationsList, project, func(q *request) (any, *apiError) { return s.tpuOperationsList(tr(q)) }
		}
	case 6:
		id, verb, _ := strings.Cut(segs[5], ":")
		name := strings.Join(segs[:5], "/") + "/" + id
		switch {
		case segs[4] == "queuedResources":
			return s.routeQueued(r, project, tr, name+":"+verb)
		case segs[4] == "nodes" && verb == "" && get:
			return MethodTPUNodesGet, project, func(q *request) (any, *apiError) { return s.tpuNodesGet(tr(q), name) }
		case segs[4] == "nodes" && verb == "" && r.Method == http.MethodPatch:
			return MethodTPUNodesPatch, project, func(q *request) (any, *apiError) { return s.tpuNodesPatch(tr(q), name) }
		case segs[4] == "nodes" && verb == "" && r.Method == http.MethodDelete:
			return MethodTPUNodesDelete, project, func(q *request) (any, *apiError) { return s.tpuNodesDelete(tr(q), name) }
		case segs[4] == "nodes" && verb == "start" && r.Method == http.MethodPost:
			return MethodTPUNodesStart, project, func(q *request) (any, *apiError) { return s.tpuNodesStart(tr(q), name) }
		case segs[4] == "nodes" && verb == "stop" && r.Method == http.MethodPost:
			return MethodTPUNodesStop, project, func(q *request) (any, *apiError) { return s.tpuNodesStop(tr(q), name) }
		case segs[4] == "acceleratorTypes" && verb == "" && get:
			return MethodTPUAcceleratorTypesGet, project, func(q *request) (any, *apiError) { return s.tpuAcceleratorTypesGet(tr(q), name, id) }
		case segs[4] == "runtimeVersions" && verb == "" && get:
			return MethodTPURuntimeVersionsGet, project, func(q *request) (any, *apiError) { return s.tpuRuntimeVersionsGet(tr(q), name, id) }
		case segs[4] == "operations" && verb == "" && get:
			return MethodTPUOperationsGet, project, func(q *request) (any, *apiError) { return s.tpuOperationsGet(tr(q), name, id) }
		}
	}
	return "", "", nil
}

// eid is the "[EID: 0x…]" error id the Cloud TPU API appends to its messages.
func (s *Server) eid() string {
	return fmt.Sprintf("[EID: 0x%016x]", s.rand.Uint64())
}

func (s *Server) tpuNotFound(name string) *apiError {
	return newError(statusNotFound, "Resource '%s' was not found", name).
		with(resourceInfo("tpu.googleapis.com", name))
}

// tpuBadState is the answer to a method the node's state does not allow.
// The message follows the Cloud TPU form "Cloud TPU received a bad request.
// update is not supported while in state PREEMPTED [EID: …]" (seen in
// SkyPilot's GCP provisioner); the status is an assumption.
func (s *Server) tpuBadState(verb, state string) *apiError {
	return newError(statusFailedPrecondition, "Cloud TPU received a bad request. %s is not supported while in state %s %s", verb, state, s.eid())
}

func (s *Server) tpuLocationsList(q *tpuRequest) (any, *apiError) {
	var locs []*tpu.Location
	for _, z := range s.sc.Zones {
		if len(z.TPUAcceleratorTypes) == 0 {
			continue
		}
		locs = append(locs, tpuLocation(q.project, z.Name))
	}
	page, next, err := s.paginate(len(locs), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListLocationsResponse{Locations: locs[page.lo:page.hi], NextPageToken: next}, nil
}

func tpuLocation(project, zone string) *tpu.Location {
	return &tpu.Location{Name: "projects/" + project + "/locations/" + zone, LocationId: zone}
}

func (s *Server) tpuLocationsGet(q *tpuRequest) (any, *apiError) {
	z := s.zone(q.location)
	if z == nil || len(z.TPUAcceleratorTypes) == 0 {
		return nil, s.tpuNotFound("projects/" + q.project + "/locations/" + q.location)
	}
	return tpuLocation(q.project, z.Name), nil
}

func (s *Server) tpuAcceleratorTypesList(q *tpuRequest) (any, *apiError) {
	var out []*tpu.AcceleratorType
	if z := s.zone(q.location); z != nil {
		for _, t := range z.TPUAcceleratorTypes {
			out = append(out, acceleratorType(q.parent(), t))
		}
	}
	page, next, err := s.paginate(len(out), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListAcceleratorTypesResponse{AcceleratorTypes: out[page.lo:page.hi], NextPageToken: next}, nil
}

func acceleratorType(parent, t string) *tpu.AcceleratorType {
	at := &tpu.AcceleratorType{Name: parent + "/acceleratorTypes/" + t, Type: t}
	if shape, ok := parseTPUType(t); ok {
		at.AcceleratorConfigs = []*tpu.AcceleratorConfig{{Type: tpuFamilies[shape.family].configType, Topology: shape.topology}}
	}
	return at
}

func (s *Server) tpuAcceleratorTypesGet(q *tpuRequest, name, id string) (any, *apiError) {
	if z := s.zone(q.location); z != nil && contains(z.TPUAcceleratorTypes, id) {
		return acceleratorType(q.parent(), id), nil
	}
	return nil, s.tpuNotFound(name)
}

func (s *Server) tpuRuntimeVersionsList(q *tpuRequest) (any, *apiError) {
	var out []*tpu.RuntimeVersion
	if z := s.zone(q.location); z != nil {
		for _, v := range z.RuntimeVersions {
			out = append(out, &tpu.RuntimeVersion{Name: q.parent() + "/runtimeVersions/" + v, Version: v})
		}
	}
	page, next, err := s.paginate(len(out), q.request)
	if err != nil {
		return nil, err
	}
	return &tpu.ListRuntimeVersionsResponse{RuntimeVersions: out[page.lo:page.hi], NextPageToken: next}, nil
}

func (s *Server) tpuRuntimeVersionsGet(q *tpuRequest, name, id string) (any, *apiError) {
	if z := s.zone(q.location); z != nil && contains(z.RuntimeVersions, id) {
		return &tpu.RuntimeVersion{Name: name, Version: id}, nil
	}
	return nil, s.tpuNotFound(name)
}

func (q *tpuRequest) parent() string {
	return "projects/" + q.project + "/locations/" + q.location
}

func (s *Server) tpuNodesList(q *tpuRequest) (any, *apiError) {
	prefix := q.parent() + "/nodes/"
	var names []string
	for name, n := range s.nodes {
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
		out = append(out, s.nodes[name].node)
	}
	return &tpu.ListNodesResponse{Nodes: out, NextPageToken: next}, nil
}

func (s *Server) tpuNodesGet(_ *tpuRequest, name string) (any, *apiError) {
	n, ok := s.nodes[name]
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
			t = "v2-8" // the API default (magic-modules tpuv2/Vm.yaml: accelerator_type defaults to v2-8)
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
	if _, dup := s.nodes[name]; dup {
		return nil, newError(statusAlreadyExists, "Resource '%s' already exists", name).
			with(resourceInfo("tpu.googleapis.com", name))
	}
	tn := s.newNode(q, in, name, accel, cfg)

	op := s.newTPUOperation(q, MethodTPUNodesCreate, "create", name, s.sc.Durations.TPUCreate)
	failure := s.takeOpFailure(MethodTPUNodesCreate)
	key := capKey(q.location, accel)
	if failure == nil {
		if s.available(key) == 0 {
			failure = s.tpuStockout(q.location)
		} else {
			s.reserve(key, 1)
			tn.capKey = key
		}
	}
	op.finish = func(op *operation, now time.Time) {
		cur, ok := s.nodes[name]
		switch {
		case !ok || cur != tn || tn.node.State != stateCreating:
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The node was deleted while it was being created. " + s.eid()}
		case failure != nil:
			// Assumption: a failed create leaves no node behind, as observed with
			// TPU VM stockouts (the node does not show up in nodes.list).
			s.releaseNode(tn)
			delete(s.nodes, name)
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
	s.nodes[name] = tn
	return tn
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
	tn, ok := s.nodes[name]
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
			if cur, ok := s.nodes[name]; ok && cur == tn {
				tn.node.State = stateReady
			}
			op.err = failure
			return
		}
		if cur, ok := s.nodes[name]; ok && cur == tn {
			s.releaseNode(tn)
			delete(s.nodes, name)
		}
	}
	return s.tpuOpJSON(op), nil
}

func (s *Server) tpuNodesStop(q *tpuRequest, name string) (any, *apiError) {
	tn, ok := s.nodes[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	if tn.node.State != stateReady {
		return nil, s.tpuBadState("stop", tn.node.State)
	}
	tn.node.State = stateStopping
	op := s.newTPUOperation(q, MethodTPUNodesStop, "stop", name, s.sc.Durations.TPUStop)
	failure := s.takeOpFailure(MethodTPUNodesStop)
	op.finish = func(op *operation, now time.Time) {
		if cur, ok := s.nodes[name]; !ok || cur != tn || tn.node.State != stateStopping {
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The node changed state while it was being stopped. " + s.eid()}
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
	tn, ok := s.nodes[name]
	if !ok {
		return nil, s.tpuNotFound(name)
	}
	if tn.node.State != stateStopped {
		return nil, s.tpuBadState("start", tn.node.State)
	}
	tn.node.State = stateStarting
	op := s.newTPUOperation(q, MethodTPUNodesStart, "start", name, s.sc.Durations.TPUStart)
	failure := s.takeOpFailure(MethodTPUNodesStart)
	key := capKey(tn.zone, tn.node.AcceleratorType)
	if failure == nil {
		if s.available(key) == 0 {
			failure = s.tpuStockout(tn.zone)
		} else {
			s.reserve(key, 1)
			tn.capKey = key
		}
	}
	op.finish = func(op *operation, now time.Time) {
		if cur, ok := s.nodes[name]; !ok || cur != tn || tn.node.State != stateStarting {
			op.err = &rpcStatus{Code: rpcCodes[statusAborted].rpc, Message: "Cloud TPU received a bad request. The node changed state while it was being started. " + s.eid()}
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
	tn, ok := s.nodes[name]
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
		if cur, ok := s.nodes[name]; !ok || cur != tn {
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

// newTPUOperation starts a google.longrunning operation of the TPU API.
func (s *Server) newTPUOperation(q *tpuRequest, method, verb, target string, d time.Duration) *operation {
	op := s.newOperation(apiTPU, method, q.project, q.location, d, q.now)
	op.apiVersion = q.version
	op.verb = verb
	op.target = target
	return op
}

func (s *Server) tpuOperationsList(q *tpuRequest) (any, *apiError) {
	var list []*operation
	for _, op := range s.ops {
		if op.api == apiTPU && op.project == q.project && (q.location == "-" || op.location == q.location) {
			list = append(list, op)
		}
	}
	page, next, err := s.paginate(len(list), q.request)
	if err != nil {
		return nil, err
	}
	out := make([]*tpu.Operation, 0, page.hi-page.lo)
	for _, op := range list[page.lo:page.hi] {
		out = append(out, s.tpuOpJSON(op))
	}
	return &tpu.ListOperationsResponse{Operations: out, NextPageToken: next}, nil
}

func (s *Server) tpuOperationsGet(q *tpuRequest, name, id string) (any, *apiError) {
	op, ok := s.opsByID[id]
	if !ok || op.api != apiTPU || op.project != q.project || op.location != q.location {
		return nil, s.tpuNotFound(name)
	}
	return s.tpuOpJSON(op), nil
}

// tpuOpJSON renders a google.longrunning.Operation of the TPU API.
func (s *Server) tpuOpJSON(op *operation) *tpu.Operation {
	meta := map[string]any{
		"@type":      "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".OperationMetadata",
		"createTime": rfc3339(op.created),
		"target":     op.target,
		"verb":       op.verb,
		"apiVersion": op.apiVersion,
	}
	if op.done {
		meta["endTime"] = rfc3339(op.ended)
	}
	out := &tpu.Operation{Name: op.name(), Done: op.done}
	out.Metadata, _ = json.Marshal(meta)
	if !op.done {
		return out
	}
	if op.err != nil {
		out.Error = &tpu.Status{Code: int64(op.err.Code), Message: op.err.Message, Details: rawDetails(op.err.Details)}
		return out
	}
	var resp map[string]any
	if n, ok := op.response.(*tpu.Node); ok {
		b, _ := json.Marshal(n)
		_ = json.Unmarshal(b, &resp)
		resp["@type"] = "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".Node"
	} else if qr, ok := op.response.(*qrWire); ok {
		b, _ := json.Marshal(qr)
		_ = json.Unmarshal(b, &resp)
		resp["@type"] = "type.googleapis.com/google.cloud.tpu." + op.apiVersion + ".QueuedResource"
	} else {
		resp = map[string]any{"@type": "type.googleapis.com/google.protobuf.Empty"}
	}
	out.Response, _ = json.Marshal(resp)
	return out
}

// copyNode deep-copies a node.
func copyNode(n *tpu.Node) *tpu.Node { return deepCopy(n, &tpu.Node{Name: n.Name}) }

// deepCopy copies v through JSON, as the API sends it, so that what a caller
// is given shares nothing with the emulator's records. orElse, a record with
// only the name, stands in should the round trip ever fail.
func deepCopy[T any](v, orElse *T) *T {
	var out T
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return orElse
	}
	return &out
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures Start.
type Options struct {
	// Addr to listen on; default "127.0.0.1:0" (a free loopback port).
	Addr string
	// Scenario to start from; default Default().
	Scenario *Scenario
	// Clock drives operation progress; default the system clock.
	Clock Clock
	// Logger, if set, gets one line per request.
	Logger *log.Logger
	// SnapshotDir is the one directory the admin API's snapshot and
	// load-snapshot verbs may write and read, by file name; empty turns
	// those verbs off. (Snapshot and LoadSnapshot, for the command's own
	// -snapshot file, take any path: the operator chose it.)
	SnapshotDir string
}

// Server is a running emulator. All methods are safe for concurrent use.
type Server struct {
	mu     sync.Mutex
	clock  Clock
	logger *log.Logger
	ln     net.Listener
	srv    *http.Server
	url    string
	rand   *rand.Rand

	// latency is what SetLatency set, read without the lock.
	latency atomic.Pointer[latencies]
	// delayed counts the calls waiting out their latency.
	delayed atomic.Int64

	snapDir string    // Options.SnapshotDir
	initial *Scenario // as started, for Reset
	sc      *Scenario // current settings
	zones   map[string]*Zone

	seq      uint64
	ipSeq    int
	counters map[string]int64
	faults   faults
	capLimit map[string]int // zone/type → limit; absent = unlimited
	capUsed  map[string]int

	// The state of each API, kept in that API's files.
	tpu     tpuState
	gke     gkeState
	compute computeState

	ops     []*operation
	opsByID map[string]*operation
	pending []*operation
}

// Start validates the scenario, listens and serves until Close.
func Start(opts Options) (*Server, error) {
	sc := opts.Scenario
	if sc == nil {
		sc = Default()
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("emulator scenario: %w", err)
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	clock := opts.Clock
	if clock == nil {
		clock = systemClock{}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("emulator listen: %w", err)
	}
	s := &Server{
		clock:   clock,
		logger:  opts.Logger,
		ln:      ln,
		url:     "http://" + ln.Addr().String(),
		initial: sc.clone(),
		snapDir: opts.SnapshotDir,
	}
	s.resetLocked()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && s.logger != nil {
			s.logger.Printf("emulator: serve: %v", err)
		}
	}()
	return s, nil
}

// URL is the server's base URL, such as "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.url }

// TPUEndpoint is the endpoint to give the tpu/v2 client with
// option.WithEndpoint.
func (s *Server) TPUEndpoint() string { return s.url + "/" }

// ContainerEndpoint is the endpoint to give the container/v1 client with
// option.WithEndpoint.
func (s *Server) ContainerEndpoint() string { return s.url + "/" }

// Close stops the server at once.
func (s *Server) Close() error {
	if err := s.srv.Close(); err != nil {
		return fmt.Errorf("emulator close: %w", err)
	}
	return nil
}

// Reset returns the emulator to the scenario it started with: resources,
// operations, capacity, faults, counters and settings.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetLocked()
}

func (s *Server) resetLocked() {
	s.sc = s.initial.clone()
	s.rand = rand.New(rand.NewPCG(uint64(s.clock.Now().UnixNano()), 0x5eed))
	s.zones = map[string]*Zone{}
	for i := range s.sc.Zones {
		s.zones[s.sc.Zones[i].Name] = &s.sc.Zones[i]
	}
	s.counters = map[string]int64{}
	s.faults = newFaults()
	s.capLimit = map[string]int{}
	s.capUsed = map[string]int{}
	for _, c := range s.sc.Capacity {
		if c.Count >= 0 {
			s.capLimit[capKey(c.Zone, c.Type)] = c.Count
		}
	}
	s.tpu = newTPUState()
	s.gke = newGKEState()
	s.compute = newComputeState()
	s.ops = nil
	s.opsByID = map[string]*operation{}
	s.pending = nil
}

// request is one API call: the HTTP request, its body and the time it is
// served at.
type request struct {
	r    *http.Request
	body []byte
	now  time.Time
}

// handler serves one API method while Server.mu is held.
type handler func(q *request) (any, *apiError)

// ServeHTTP routes /v2/ and /v2alpha1/ to the Cloud TPU API, /v1/ to the
// GKE API, /compute/v1/ to the Compute Engine API and /admin/ to the admin API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if strings.HasPrefix(path, "/admin/") {
		s.serveAdmin(w, r)
		return
	}
	var method, project string
	var h handler
	switch {
	case strings.HasPrefix(path, "/v2/"):
		method, project, h = s.routeTPU(r, "v2", strings.TrimPrefix(path, "/v2/"))
	case strings.HasPrefix(path, "/v2alpha1/"):
		method, project, h = s.routeTPU(r, "v2alpha1", strings.TrimPrefix(path, "/v2alpha1/"))
	case strings.HasPrefix(path, "/v1/"):
		method, project, h = s.routeContainer(r, strings.TrimPrefix(path, "/v1/"))
	case strings.HasPrefix(path, "/compute/v1/"):
		method, project, h = s.routeCompute(r, strings.TrimPrefix(path, "/compute/v1/"))
	}
	if h == nil {
		// Not a 404: clients read a 404 as "the resource is gone", and the
		// real API may well serve this path.
		s.logf("%s %s -> 501 (method not served by the emulator)", r.Method, path)
		writeError(w, newError(statusUnimplemented, "Method not implemented by the emulator: %s %s", r.Method, path))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		writeError(w, newError(statusInvalidArgument, "Could not read the request body: %v", err))
		return
	}
	if !s.delay(r, method) {
		return // the client gave up while its answer was delayed
	}
	s.mu.Lock()
	q := &request{r: r, body: body, now: s.clock.Now()}
	s.settle(q.now)
	aerr := s.intercept(method, project)
	if aerr == nil {
		aerr = s.checkProject(method, project)
	}
	var out any
	if aerr == nil {
		out, aerr = h(q)
	}
	if aerr != nil && aerr.html {
		s.mu.Unlock()
		s.logf("%s %s -> %d HTML (%s)", r.Method, r.URL.RequestURI(), aerr.forceHTTP, method)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(aerr.forceHTTP)
		_, _ = io.WriteString(w, htmlPage)
		return
	}
	var b []byte
	code := http.StatusOK
	if aerr != nil {
		code = aerr.httpCode()
		b, err = json.Marshal(aerr.body())
	} else {
		// Marshal under the lock: out may point at live state.
		b, err = json.Marshal(out)
	}
	s.mu.Unlock()
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(newError(statusInternal, "Internal error encountered.").body())
	}
	s.logf("%s %s -> %d (%s)", r.Method, r.URL.RequestURI(), code, method)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (s *Server) logf(format string, args ...any) {
	if s.logger != nil {
		s.logger.Printf(format, args...)
	}
}

// checkProject answers like the APIs do for a project the caller cannot use.
func (s *Server) checkProject(method, project string) *apiError {
	if len(s.sc.Projects) == 0 || slices.Contains(s.sc.Projects, project) {
		return nil
	}
	service := "tpu.googleapis.com"
	if api, _, ok := strings.Cut(method, "."); ok && api != "tpu" {
		service = api + ".googleapis.com"
	}
	return newError(statusPermissionDenied, "Permission denied on resource project %s.", project).
		with(errorInfo("CONSUMER_INVALID", "googleapis.com", map[string]string{
			"service":  service,
			"consumer": "projects/" + project,
		}))
}

// decodeBody decodes a JSON request body strictly, as the APIs do.
func decodeBody(b []byte, v any) *apiError {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			return newError(statusInvalidArgument, "Invalid JSON payload received. Unknown name %s: Cannot find field.", name).
				with(badRequest("", "Invalid JSON payload received. Unknown name "+name+": Cannot find field."))
		}
		return newError(statusInvalidArgument, "Invalid JSON payload received. %s", strings.TrimPrefix(msg, "json: "))
	}
	return nil
}

// pageRange is the slice of a list one page covers.
type pageRange struct{ lo, hi int }

// paginate applies pageSize and pageToken to a list of total items.
// Page tokens are opaque offsets.
func (s *Server) paginate(total int, q *request) (pageRange, string, *apiError) {
	return s.paginateBy(total, q, "pageSize")
}

// paginateBy is paginate with the page size in query parameter sizeParam
// (Compute Engine calls it maxResults).
func (s *Server) paginateBy(total int, q *request, sizeParam string) (pageRange, string, *apiError) {
	v := q.r.URL.Query()
	size := s.sc.ListPageSize
	if ps := v.Get(sizeParam); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 0 {
			return pageRange{}, "", newError(statusInvalidArgument, "Invalid value at '%s' (TYPE_INT32), %q", snakeCase(sizeParam), ps)
		}
		if n > 0 {
			size = n
		}
	}
	lo := 0
	if tok := v.Get("pageToken"); tok != "" {
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		off, ok := strings.CutPrefix(string(raw), "offset:")
		n, aerr := strconv.Atoi(off)
		if err != nil || !ok || aerr != nil || n < 0 {
			return pageRange{}, "", newError(statusInvalidArgument, "Invalid page token.")
		}
		lo = min(n, total)
	}
	hi := total
	if size > 0 && lo+size < total {
		hi = lo + size
	}
	next := ""
	if hi < total {
		next = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(hi)))
	}
	return pageRange{lo, hi}, next, nil
}

func (s *Server) zone(name string) *Zone { return s.zones[name] }

// regionOf returns the region of a zone ("us-central1-a" → "us-central1");
// a region is its own region.
func regionOf(location string) string {
	if i := strings.LastIndex(location, "-"); i > 0 && len(location)-i == 2 {
		return location[:i]
	}
	return location
}

func contains(list []string, v string) bool { return slices.Contains(list, v) }

// projectNumber derives a stable 12-digit project number from a project ID.
func projectNumber(project string) string {
	if _, err := strconv.ParseUint(project, 10, 64); err == nil {
		return project
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(project))
	return strconv.FormatUint(100000000000+h.Sum64()%900000000000, 10)
}

// requestID is a RequestInfo id like GKE's "0x946efa1f93d34437".
func (s *Server) requestID() string {
	return fmt.Sprintf("0x%016x", s.rand.Uint64())
}

func capKey(zone, typ string) string { return zone + "/" + typ }

// available returns how many more units fit, or -1 when unlimited.
func (s *Server) available(key string) int {
	limit, ok := s.capLimit[key]
	if !ok {
		return -1
	}
	return max(0, limit-s.capUsed[key])
}

func (s *Server) reserve(key string, n int) { s.capUsed[key] += n }

func (s *Server) release(key string, n int) {
	s.capUsed[key] -= n
	if s.capUsed[key] <= 0 {
		delete(s.capUsed, key)
	}
}

// SetCapacity sets how many TPU nodes (Cloud TPU API accelerator type, such
// as "v5litepod-4") or GKE nodes (machine type, or GPU type for pools that
// list GPUs; a pool that lists GPUs counts against both) fit in zone at
// once, counting those already running.
// n = -1 is unlimited; n = 0 is a stockout.
func (s *Server) SetCapacity(zone, acceleratorOrMachineType string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := capKey(zone, acceleratorOrMachineType)
	if n < 0 {
		delete(s.capLimit, key)
		return
	}
	s.capLimit[key] = n
}

// SetDurations replaces the operation durations for operations started from
// now on.
func (s *Server) SetDurations(d Durations) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sc.Durations = d
}

// Durations returns the current operation durations.
func (s *Server) Durations() Durations {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sc.Durations
}

// SetSerializePoolCreates switches the SerializePoolCreates rule.
func (s *Server) SetSerializePoolCreates(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sc.SerializePoolCreates = on
}

// SetMaxConcurrentOperations sets the per-cluster concurrent operations
// quota; 0 is unlimited.
func (s *Server) SetMaxConcurrentOperations(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sc.MaxConcurrentOperationsPerCluster = max(0, n)
}

// SetGKEAdditions switches GKE's own additions for pools created or updated
// from now on.
func (s *Server) SetGKEAdditions(a GKEAdditions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sc.GKEAdditions = a
}

// Scenario returns a copy of the current settings: the starting scenario
// with the changes made through the setters, capacity limits included.
func (s *Server) Scenario() *Scenario {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scenarioLocked()
}

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

// SetCapacityAfterCalls leaves the capacity of type in zone as it is until
// the emulator has counted calls more calls of method, then sets it to n
// (see SetCapacity): capacity that arrives while a client waits, at a point
// of its wait that does not depend on the machine's speed.
func (s *Server) SetCapacityAfterCalls(zone, acceleratorOrMachineType string, n int, method string, calls int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if calls < 1 {
		return fmt.Errorf("SetCapacityAfterCalls: calls must be at least 1, not %d", calls)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := capKey(zone, acceleratorOrMachineType)
	s.faults.releases = append(s.faults.releases, &callRelease{method: method, left: calls, release: func(time.Time) {
		if n < 0 {
			delete(s.capLimit, key)
			return
		}
		s.capLimit[key] = n
	}})
	return nil
}

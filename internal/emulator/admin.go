// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

// The admin API: the Go controls as JSON over HTTP, for the command-line
// emulator. Every POST takes a JSON object and answers {"ok":true} or a
// result; failures answer 400 {"error":"..."}. Its verbs are declared in
// tables, the core's here and each API's in that API's files; GET
// /admin/help lists them all, from the same tables.

// adminVerb is one endpoint of the admin API, GET or POST /admin/{verb}.
type adminVerb struct {
	post bool
	verb string
	// usage is what /admin/help shows after the path: a GET's query, a
	// POST's body.
	usage string
	serve func(s *Server, q *adminCall) (any, error)
}

// adminCall is one admin request: the HTTP request and a POST's body
// ("{}" when it sends none).
type adminCall struct {
	r    *http.Request
	body []byte
}

// adminVerbs are the admin API's endpoints, in the order /admin/help lists
// them within GETs and POSTs.
var adminVerbs = slices.Concat(coreAdminVerbs, tpuAdminVerbs, gkeAdminVerbs, computeAdminVerbs)

// adminHelp is what GET /admin/help answers: the GET endpoints, then the
// POST ones.
var adminHelp = adminHelpLines(adminVerbs)

func adminHelpLines(verbs []adminVerb) []string {
	var gets, posts []string
	for _, v := range verbs {
		if v.post {
			posts = append(posts, fmt.Sprintf("POST /admin/%-20s %s", v.verb, v.usage))
		} else {
			gets = append(gets, "GET  /admin/"+v.verb+v.usage)
		}
	}
	return append(gets, posts...)
}

// coreAdminVerbs are the endpoints of the core: method names, counters,
// the scenario and its settings, capacity, faults, reset and snapshots.
var coreAdminVerbs = []adminVerb{
	{verb: "methods", serve: func(*Server, *adminCall) (any, error) { return Methods(), nil }},
	{verb: "counters", serve: func(s *Server, _ *adminCall) (any, error) { return s.Counters(), nil }},
	{verb: "scenario", serve: func(s *Server, _ *adminCall) (any, error) { return s.Scenario(), nil }},
	{post: true, verb: "reset", usage: "{}", serve: adminRequestVerb(func(s *Server, _ *adminRequest) error {
		s.Reset()
		return nil
	})},
	{post: true, verb: "capacity", usage: `{"zone":"us-central1-a","type":"v5litepod-4","count":0} (type: a TPU accelerator type or a machine type; with "untilMethod":"tpu.queuedResources.get","untilCalls":3: set once 3 more such calls were counted)`,
		serve: adminRequestVerb((*Server).adminCapacity)},
	{post: true, verb: "fail-next", usage: `{"method":"tpu.nodes.create","n":1,"httpCode":503}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.FailNext(a.Method, a.N, a.HTTPCode) })},
	{post: true, verb: "answer-html", usage: `{"method":"container.nodePools.list","n":3,"httpCode":502}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.AnswerHTML(a.Method, a.N, a.HTTPCode) })},
	{post: true, verb: "fail-next-operations", usage: `{"method":"tpu.nodes.create","n":1,"code":13}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.FailNextOperations(a.Method, a.N, a.Code) })},
	{post: true, verb: "rate-limit", usage: `{"method":"tpu.nodes.get","every":3}`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.SetRateLimit(a.Method, a.Every) })},
	{post: true, verb: "hang", usage: `{"method":"container.nodePools.create","hang":true} (or "untilMethod":"container.nodePools.create","untilCalls":4: until 4 more such calls)`,
		serve: adminRequestVerb((*Server).adminHang)},
	{verb: "latency", serve: func(s *Server, _ *adminCall) (any, error) { return latencyJSON(s.Latencies()), nil }},
	{post: true, verb: "latency", usage: `{"ms":100} (every API method; with "method":"tpu.nodes.list", that method only; "ms":0 removes it)`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error {
			return s.SetLatency(a.Method, time.Duration(a.MS)*time.Millisecond)
		})},
	{post: true, verb: "durations", usage: `{"tpuCreate":"2s","poolCreate":"5s"}`, serve: (*Server).adminDurations},
	{post: true, verb: "settings", usage: `{"serializePoolCreates":true,"maxConcurrentOperationsPerCluster":5,"gkeAdditions":{"skipGpuTaint":true}}`,
		serve: adminJSONVerb((*Server).adminSettings)},
	{post: true, verb: "snapshot", usage: `{"name":"state.json"} (a file of the -snapshot-dir directory)`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.adminSnapshot("snapshot", a.Name) })},
	{post: true, verb: "load-snapshot", usage: `{"name":"state.json"} (a file of the -snapshot-dir directory)`,
		serve: adminRequestVerb(func(s *Server, a *adminRequest) error { return s.adminSnapshot("load-snapshot", a.Name) })},
}

type adminRequest struct {
	Method   string `json:"method"`
	N        int    `json:"n"`
	HTTPCode int    `json:"httpCode"`
	Code     int    `json:"code"`
	Every    int    `json:"every"`
	Hang     bool   `json:"hang"`
	// UntilMethod and UntilCalls end a hang or a hold once that many more
	// calls of UntilMethod were counted.
	UntilMethod string `json:"untilMethod"`
	UntilCalls  int    `json:"untilCalls"`
	Zone        string `json:"zone"`
	Type        string `json:"type"`
	Count       *int   `json:"count"`
	Project     string `json:"project"`
	Location    string `json:"location"`
	Cluster     string `json:"cluster"`
	Duration    string `json:"duration"`
	Name        string `json:"name"`
	Status      string `json:"status"`
	MS          int    `json:"ms"`
}

// latencyJSON is GET /admin/latency's answer: milliseconds by method, ""
// for every method.
func latencyJSON(l map[string]time.Duration) map[string]int64 {
	out := make(map[string]int64, len(l))
	for m, d := range l {
		out[m] = d.Milliseconds()
	}
	return out
}

// adminSettingsRequest is the body of POST /admin/settings.
type adminSettingsRequest struct {
	SerializePoolCreates              *bool         `json:"serializePoolCreates"`
	MaxConcurrentOperationsPerCluster *int          `json:"maxConcurrentOperationsPerCluster"`
	GKEAdditions                      *GKEAdditions `json:"gkeAdditions"`
}

var okResult = map[string]bool{"ok": true}

// adminSnapshot writes or reads the snapshot file name in the snapshot
// directory (Options.SnapshotDir), and nowhere else: os.Root refuses a
// name that leaves it, by "..", an absolute path or a symbolic link.
func (s *Server) adminSnapshot(verb, name string) error {
	if s.snapDir == "" {
		return errors.New(verb + " is off: start the emulator with a snapshot directory (accel-emulator -snapshot-dir DIR)")
	}
	if name == "" {
		return errors.New(verb + " needs name, a file name in the snapshot directory")
	}
	root, err := os.OpenRoot(s.snapDir)
	if err != nil {
		return fmt.Errorf("%s: the snapshot directory: %w", verb, err)
	}
	defer func() { _ = root.Close() }()
	if verb == "snapshot" {
		b, err := s.snapshotJSON()
		if err != nil {
			return err
		}
		if err := root.WriteFile(name, b, 0o600); err != nil {
			return fmt.Errorf("snapshot %q: not a file name in the snapshot directory, or not writable", name)
		}
		return nil
	}
	b, err := root.ReadFile(name)
	if err != nil {
		return fmt.Errorf("load-snapshot %q: not a readable file of the snapshot directory", name)
	}
	return s.loadSnapshotJSON(b, name)
}

// adminCallerError refuses an admin request that a web page could have
// sent: one whose Host is not the emulator's own address (DNS rebinding)
// or that carries an Origin other than the emulator's (a page of another
// site). curl and the Go clients send neither.
func (s *Server) adminCallerError(r *http.Request) error {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	own := false
	for _, h := range []string{s.ln.Addr().String(), "127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port} {
		own = own || strings.EqualFold(r.Host, h)
	}
	if !own {
		return fmt.Errorf("refused: Host %q is not this emulator's address (%s)", r.Host, s.ln.Addr())
	}
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) {
		return fmt.Errorf("refused: a request from the web page of %q", o)
	}
	return nil
}

func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	if err := s.adminCallerError(r); err != nil {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": err.Error()})
		return
	}
	verb := strings.TrimPrefix(r.URL.Path, "/admin/")
	res, err := s.admin(r, verb)
	if errors.Is(err, errNoAdminVerb) {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": err.Error(), "endpoints": adminHelp})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

var errNoAdminVerb = errors.New("no such admin endpoint")

// admin serves one admin request: the help, or the verb of the tables.
// A POST to an unknown verb still has its body read as the common form
// first, so that a malformed body is reported as one.
func (s *Server) admin(r *http.Request, verb string) (any, error) {
	post := r.Method == http.MethodPost
	if !post && r.Method != http.MethodGet {
		return nil, errNoAdminVerb
	}
	if !post && (verb == "" || verb == "help") {
		return adminHelp, nil
	}
	q := &adminCall{r: r}
	if post {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("read body: %w", err)
		}
		if len(bytes.TrimSpace(body)) == 0 {
			body = []byte("{}")
		}
		q.body = body
	}
	i := slices.IndexFunc(adminVerbs, func(v adminVerb) bool { return v.post == post && v.verb == verb })
	if i < 0 {
		if post {
			if err := strictJSON(q.body, &adminRequest{}); err != nil {
				return nil, err
			}
		}
		return nil, errNoAdminVerb
	}
	return adminVerbs[i].serve(s, q)
}

// adminRequestVerb serves a POST whose body is the common adminRequest
// form and whose answer is {"ok":true}.
func adminRequestVerb(f func(s *Server, a *adminRequest) error) func(*Server, *adminCall) (any, error) {
	return adminJSONVerb(func(s *Server, a *adminRequest) (any, error) {
		if err := f(s, a); err != nil {
			return nil, err
		}
		return okResult, nil
	})
}

// adminJSONVerb serves a POST whose body is a T, read strictly.
func adminJSONVerb[T any](f func(s *Server, v *T) (any, error)) func(*Server, *adminCall) (any, error) {
	return func(s *Server, q *adminCall) (any, error) {
		var v T
		if err := strictJSON(q.body, &v); err != nil {
			return nil, err
		}
		return f(s, &v)
	}
}

// adminOK is {"ok":true}, or err.
func adminOK(err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return okResult, nil
}

func (s *Server) adminCapacity(a *adminRequest) error {
	if a.Zone == "" || a.Type == "" || a.Count == nil {
		return errors.New("capacity needs zone, type and count")
	}
	if a.UntilMethod != "" || a.UntilCalls > 0 {
		return s.SetCapacityAfterCalls(a.Zone, a.Type, *a.Count, a.UntilMethod, a.UntilCalls)
	}
	s.SetCapacity(a.Zone, a.Type, *a.Count)
	return nil
}

func (s *Server) adminHang(a *adminRequest) error {
	if a.UntilCalls > 0 || a.UntilMethod != "" {
		return s.HangOperationsUntilCalls(a.Method, a.UntilMethod, a.UntilCalls)
	}
	return s.HangOperations(a.Method, a.Hang)
}

// adminDurations changes the durations a body names and answers them all;
// durations it leaves out keep their value.
func (s *Server) adminDurations(q *adminCall) (any, error) {
	d := s.Durations()
	if err := json.Unmarshal(q.body, &d); err != nil {
		return nil, err
	}
	s.SetDurations(d)
	return d, nil
}

func (s *Server) adminSettings(st *adminSettingsRequest) (any, error) {
	if st.SerializePoolCreates != nil {
		s.SetSerializePoolCreates(*st.SerializePoolCreates)
	}
	if st.MaxConcurrentOperationsPerCluster != nil {
		s.SetMaxConcurrentOperations(*st.MaxConcurrentOperationsPerCluster)
	}
	if st.GKEAdditions != nil {
		s.SetGKEAdditions(*st.GKEAdditions)
	}
	return okResult, nil
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("admin request: %w", err)
	}
	return nil
}

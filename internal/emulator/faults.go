// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// methodNames are the methods of every API the emulator serves, one group
// per API, each declared beside its handlers. Method names follow the
// discovery method ids without the "projects.locations." part.
var methodNames = slices.Concat(tpuMethods, gkeMethods, computeCatalogMethods, computeCapacityMethods, computeIGMMethods,
	computeInstanceMethods, computeResourcePolicyMethods)

// operationMethods are the methods that start a long-running operation,
// those FailNextOperations and HangOperations take.
var operationMethods = slices.Concat(tpuOperationMethods, gkeOperationMethods, computeOperationMethods)

// Methods lists every method name the fault controls and counters accept.
func Methods() []string { return slices.Clone(methodNames) }

func checkMethod(method string) error {
	if !slices.Contains(methodNames, method) {
		return fmt.Errorf("unknown method %q; see Methods()", method)
	}
	return nil
}

// faults holds the injected misbehaviour. Guarded by Server.mu.
type faults struct {
	failNext  map[string]failSpec
	htmlNext  map[string]failSpec
	failOps   map[string]failSpec
	rateEvery map[string]int
	rateCalls map[string]int
	hang      map[string]bool
	// releases are holds that end once the emulator has counted a number
	// of calls of a method (HangOperationsUntilCalls, HoldClusterUntilCalls).
	releases []*callRelease
}

// callRelease ends a hold when left more calls of method have been counted.
type callRelease struct {
	method  string
	left    int
	release func(now time.Time)
}

type failSpec struct {
	n    int
	code int
}

func newFaults() faults {
	return faults{
		failNext:  map[string]failSpec{},
		htmlNext:  map[string]failSpec{},
		failOps:   map[string]failSpec{},
		rateEvery: map[string]int{},
		rateCalls: map[string]int{},
		hang:      map[string]bool{},
	}
}

// FailNext makes the next n calls of method fail with the HTTP status
// httpCode and the canonical status and stock message Google front ends use
// for it (for example 503 UNAVAILABLE "The service is currently
// unavailable."). n = 0 clears it.
func (s *Server) FailNext(method string, n, httpCode int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if n < 0 || httpCode < 400 || httpCode > 599 {
		return fmt.Errorf("FailNext(%s): need n >= 0 and an HTTP error status, got n=%d code=%d", method, n, httpCode)
	}
	s.setNext(func(f *faults) map[string]failSpec { return f.failNext }, method, n, httpCode)
	return nil
}

// AnswerHTML makes the next n calls of method answer an HTML page, with
// Content-Type text/html and the HTTP status httpCode, instead of the API's
// JSON: what a corporate proxy's sign-in page (often with 200), a load
// balancer's error page (502, 503, 504) or a web server at a wrong address
// sends. n = 0 clears it. The calls are counted.
func (s *Server) AnswerHTML(method string, n, httpCode int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if n < 0 || httpCode < 200 || httpCode > 599 {
		return fmt.Errorf("AnswerHTML(%s): need n >= 0 and an HTTP status 200..599, got n=%d code=%d", method, n, httpCode)
	}
	s.setNext(func(f *faults) map[string]failSpec { return f.htmlNext }, method, n, httpCode)
	return nil
}

// setNext records that the next n calls of method answer with code, in the
// per-method table of the faults that table picks (read under the lock, as
// Reset replaces the faults); n = 0 clears the entry.
func (s *Server) setNext(table func(*faults) map[string]failSpec, method string, n, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := table(&s.faults)
	if n == 0 {
		delete(t, method)
		return
	}
	t[method] = failSpec{n: n, code: code}
}

// FailNextOperations makes the operations started by the next n successful
// calls of method end with the google.rpc.Code rpcCode (for example 13
// INTERNAL) instead of their effect. n = 0 clears it.
func (s *Server) FailNextOperations(method string, n, rpcCode int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if !startsOperation(method) {
		return fmt.Errorf("FailNextOperations: %s does not start an operation", method)
	}
	if n < 0 || rpcCode <= 0 || rpcCode > 16 {
		return fmt.Errorf("FailNextOperations(%s): need n >= 0 and a google.rpc.Code 1..16, got n=%d code=%d", method, n, rpcCode)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n == 0 {
		delete(s.faults.failOps, method)
		return nil
	}
	s.faults.failOps[method] = failSpec{n: n, code: rpcCode}
	return nil
}

// SetRateLimit makes every k-th call of method (counted from now) answer 429
// RESOURCE_EXHAUSTED with an ErrorInfo of reason RATE_LIMIT_EXCEEDED, the
// shape of Service Control's per-minute quota errors. every = 0 turns it off.
func (s *Server) SetRateLimit(method string, every int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if every < 0 {
		return fmt.Errorf("SetRateLimit(%s): every must be >= 0, got %d", method, every)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.faults.rateCalls, method)
	if every == 0 {
		delete(s.faults.rateEvery, method)
		return nil
	}
	s.faults.rateEvery[method] = every
	return nil
}

// HangOperations makes operations started by method from now on never finish
// (they stay RUNNING / done=false), for timeout tests. Turning it off
// releases the hung operations of method: they finish one duration later.
func (s *Server) HangOperations(method string, hang bool) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if !startsOperation(method) {
		return fmt.Errorf("HangOperations: %s does not start an operation", method)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if hang {
		s.faults.hang[method] = true
		return nil
	}
	delete(s.faults.hang, method)
	now := s.clock.Now()
	s.settle(now)
	s.releaseHung(method, now)
	return nil
}

// HangOperationsUntilCalls makes operations started by method from now on
// hang, like HangOperations, until the emulator has counted calls more
// calls of callMethod (accepted or refused); the call that reaches the
// count releases them, before it is served, and is not held itself. A test
// that needs "the provider acted while these operations still ran" gets
// exactly that, whatever the machine's speed: with callMethod = method and
// calls = n, the n-th create of an apply releases the n-1 before it, so the
// n creates overlap, and a provider that waits for each create before the
// next one never gets there.
func (s *Server) HangOperationsUntilCalls(method, callMethod string, calls int) error {
	if err := checkMethod(method); err != nil {
		return err
	}
	if err := checkMethod(callMethod); err != nil {
		return err
	}
	if !startsOperation(method) {
		return fmt.Errorf("HangOperationsUntilCalls: %s does not start an operation", method)
	}
	if calls < 1 {
		return fmt.Errorf("HangOperationsUntilCalls: calls must be at least 1, not %d", calls)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.hang[method] = true
	s.faults.releases = append(s.faults.releases, &callRelease{method: callMethod, left: calls, release: func(now time.Time) {
		delete(s.faults.hang, method)
		s.releaseHung(method, now)
	}})
	return nil
}

// countCall counts one call of method towards the holds that end after a
// number of calls, and ends those whose count is reached. The caller holds
// s.mu.
func (s *Server) countCall(method string, now time.Time) {
	kept := s.faults.releases[:0]
	var due []*callRelease
	for _, r := range s.faults.releases {
		if r.method == method {
			r.left--
		}
		if r.left <= 0 {
			due = append(due, r)
		} else {
			kept = append(kept, r)
		}
	}
	s.faults.releases = kept
	for _, r := range due {
		r.release(now)
	}
}

// Counters returns the number of calls per method since start or Reset,
// including calls answered with injected errors.
func (s *Server) Counters() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.counters))
	for k, v := range s.counters {
		out[k] = v
	}
	return out
}

func startsOperation(method string) bool { return slices.Contains(operationMethods, method) }

// intercept counts a call and applies FailNext and SetRateLimit. The caller
// holds s.mu.
func (s *Server) intercept(method, project string) *apiError {
	s.counters[method]++
	s.countCall(method, s.clock.Now())
	if f, ok := s.faults.htmlNext[method]; ok {
		f.n--
		if f.n <= 0 {
			delete(s.faults.htmlNext, method)
		} else {
			s.faults.htmlNext[method] = f
		}
		return &apiError{status: statusUnavailable, message: "HTML page", forceHTTP: f.code, html: true}
	}
	if f, ok := s.faults.failNext[method]; ok {
		f.n--
		if f.n <= 0 {
			delete(s.faults.failNext, method)
		} else {
			s.faults.failNext[method] = f
		}
		status, msg := statusForHTTP(f.code)
		e := newError(status, "%s", msg).with(requestInfo(s.requestID()))
		e.forceHTTP = f.code // keep the asked-for status even where the canonical one maps elsewhere
		return e
	}
	if every, ok := s.faults.rateEvery[method]; ok {
		s.faults.rateCalls[method]++
		if s.faults.rateCalls[method]%every == 0 {
			return s.rateLimitError(method, project)
		}
	}
	return nil
}

// rateLimitError is Service Control's per-minute quota error.
func (s *Server) rateLimitError(method, project string) *apiError {
	api, _, _ := strings.Cut(method, ".")
	service := api + ".googleapis.com"
	kind := "Write"
	if strings.HasSuffix(method, ".get") || strings.HasSuffix(method, ".list") {
		kind = "Read"
	}
	number := projectNumber(project)
	metric := service + "/" + strings.ToLower(kind) + "_requests"
	limit := kind + "RequestsPerMinutePerProject"
	return newError(statusResourceExhausted,
		"Quota exceeded for quota metric '%s requests' and limit '%s requests per minute' of service '%s' for consumer 'project_number:%s'.",
		kind, kind, service, number).
		with(errorInfo("RATE_LIMIT_EXCEEDED", "googleapis.com", map[string]string{
			"service":      service,
			"consumer":     "projects/" + number,
			"quota_metric": metric,
			"quota_limit":  limit,
		}))
}

// takeOpFailure consumes one FailNextOperations entry for method. The
// caller holds s.mu.
func (s *Server) takeOpFailure(method string) *rpcStatus {
	f, ok := s.faults.failOps[method]
	if !ok {
		return nil
	}
	f.n--
	if f.n <= 0 {
		delete(s.faults.failOps, method)
	} else {
		s.faults.failOps[method] = f
	}
	status := statusForRPC(f.code)
	_, msg := statusForHTTP(rpcCodes[status].http)
	return &rpcStatus{Code: f.code, Message: msg}
}

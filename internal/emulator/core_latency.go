// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"maps"
	"net/http"
	"time"
)

// latencies are the delays before answers: one for every API method, and
// per method overrides.
type latencies struct {
	all    time.Duration
	method map[string]time.Duration
}

func (l *latencies) of(method string) time.Duration {
	if l == nil {
		return 0
	}
	if d, ok := l.method[method]; ok {
		return d
	}
	return l.all
}

// SetLatency delays every answer of method by d, or of every API method
// when method is "": the round trip of an API far away (Google's answer in
// tens to hundreds of milliseconds, where the emulator's takes
// microseconds). A method's own latency wins over the one of every method;
// d = 0 removes it. The delay runs on the real clock, before the call is
// counted and served and outside the server's lock, so that calls wait side
// by side as they do on a network; a client that gives up meanwhile ends
// its call unanswered and uncounted. The admin API's other controls are
// never delayed, and Reset keeps the latencies.
func (s *Server) SetLatency(method string, d time.Duration) error {
	if method != "" {
		if err := checkMethod(method); err != nil {
			return err
		}
	}
	if d < 0 {
		return fmt.Errorf("SetLatency(%s): the latency must not be negative, got %s", method, d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := &latencies{method: map[string]time.Duration{}}
	if cur := s.latency.Load(); cur != nil {
		next.all, next.method = cur.all, maps.Clone(cur.method)
	}
	switch {
	case method == "":
		next.all = d
	case d == 0:
		delete(next.method, method)
	default:
		next.method[method] = d
	}
	s.latency.Store(next)
	return nil
}

// Latencies returns the latencies SetLatency set: "" for every method, and
// each method's own.
func (s *Server) Latencies() map[string]time.Duration {
	out := map[string]time.Duration{}
	l := s.latency.Load()
	if l == nil {
		return out
	}
	if l.all > 0 {
		out[""] = l.all
	}
	maps.Copy(out, l.method)
	return out
}

// delay waits method's latency, or until the client gives up; it reports
// whether the call goes on.
func (s *Server) delay(r *http.Request, method string) bool {
	d := s.latency.Load().of(method)
	if d <= 0 {
		return true
	}
	s.delayed.Add(1)
	defer s.delayed.Add(-1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

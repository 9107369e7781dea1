// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Clock is the emulator's time source. Operations progress by comparing their
// start time plus duration with Now; nothing runs in the background.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves only when told to, for tests that step
// through operation states without sleeping.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a ManualClock that reads start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start}
}

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Which API an operation belongs to.
const (
	apiTPU       = "tpu"
	apiContainer = "container"
)

// operation is one long-running operation of either API. Its progress is
// computed lazily: settle finishes every operation whose time has come, in
// order of due time, before each request is served.
type operation struct {
	seq      uint64
	api      string
	method   string // the API method that started it, for faults and hangs
	id       string // "operation-…"
	project  string
	location string
	created  time.Time
	started  time.Time // created, or the release time of a hung operation
	dur      time.Duration
	hung     bool
	done     bool
	ended    time.Time

	// result, set by finish
	err *rpcStatus

	// finish applies the operation's effect at time now and sets err.
	finish func(op *operation, now time.Time)

	// Cloud TPU API (google.longrunning)
	apiVersion string // "v2" or "v2alpha1"
	verb       string
	target     string
	response   any // a node, or nil for google.protobuf.Empty

	// Compute Engine: regional is set for a region operation (location is
	// then a region), else location is a zone.
	regional bool

	// GKE
	opType        string
	clusterKey    string
	pool          string // node pool name for node-pool operations
	statusMessage string
	targetLink    string

	// Compute Engine (opType and targetLink above, too)
	targetID uint64
	errCode  string // the error code of a failed operation, such as ZONE_RESOURCE_POOL_EXHAUSTED
}

// name is the operation's resource name.
func (op *operation) name() string {
	return "projects/" + op.project + "/locations/" + op.location + "/operations/" + op.id
}

func (op *operation) due() time.Time { return op.started.Add(op.dur) }

// newOperation registers a running operation. The caller holds s.mu.
func (s *Server) newOperation(api, method, project, location string, dur time.Duration, now time.Time) *operation {
	s.seq++
	op := &operation{
		seq:      s.seq,
		api:      api,
		method:   method,
		project:  project,
		location: location,
		created:  now,
		started:  now,
		dur:      dur,
		hung:     s.faults.hang[method],
	}
	for {
		// Real ids look like operation-1596064640049-1b03e177.
		op.id = fmt.Sprintf("operation-%d-%08x", now.UnixMilli(), s.rand.Uint32())
		if _, dup := s.opsByID[op.id]; !dup {
			break
		}
	}
	s.opsByID[op.id] = op
	s.ops = append(s.ops, op)
	s.pending = append(s.pending, op)
	return op
}

// settled locks the server and brings every operation up to the clock's
// now, for a Go control that reads or changes state out of band; it
// returns the unlock: defer s.settled()().
func (s *Server) settled() func() {
	s.mu.Lock()
	s.settle(s.clock.Now())
	return s.mu.Unlock
}

// settle finishes, in order, every pending operation due at or before now.
// The caller holds s.mu.
func (s *Server) settle(now time.Time) {
	defer s.advanceQueued(now)
	var due, rest []*operation
	for _, op := range s.pending {
		if !op.hung && !op.due().After(now) {
			due = append(due, op)
		} else {
			rest = append(rest, op)
		}
	}
	if len(due) == 0 {
		return
	}
	s.pending = rest
	sort.Slice(due, func(i, j int) bool {
		if di, dj := due[i].due(), due[j].due(); !di.Equal(dj) {
			return di.Before(dj)
		}
		return due[i].seq < due[j].seq
	})
	for _, op := range due {
		s.complete(op, op.due())
	}
}

// complete marks op done at time at and applies its effect.
func (s *Server) complete(op *operation, at time.Time) {
	op.done = true
	op.ended = at
	if op.finish != nil {
		op.finish(op, at)
	}
}

// releaseHung restarts the clock of every hung operation of method.
func (s *Server) releaseHung(method string, now time.Time) {
	for _, op := range s.pending {
		if op.hung && op.method == method {
			op.hung = false
			op.started = now
		}
	}
}

// rfc3339 formats times the way Google APIs do.
func rfc3339(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

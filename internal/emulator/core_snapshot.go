// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// snapshot is the file form of the emulator's state.
type snapshot struct {
	Scenario *Scenario         `json:"scenario"`
	Nodes    []snapshotNode    `json:"nodes"`
	Clusters []snapshotCluster `json:"clusters"`
}

// Snapshot writes the current settings, capacity limits, TPU nodes and GKE
// clusters to a JSON file. Operations are not saved.
func (s *Server) Snapshot(path string) error {
	b, err := s.snapshotJSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}

// snapshotJSON is the snapshot Snapshot writes.
func (s *Server) snapshotJSON() ([]byte, error) {
	s.mu.Lock()
	s.settle(s.clock.Now())
	snap := snapshot{Scenario: s.scenarioLocked(), Nodes: s.tpuSnapshot(), Clusters: s.gkeSnapshot()}
	b, err := json.MarshalIndent(snap, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return b, nil
}

// LoadSnapshot replaces the emulator's state with a file written by
// Snapshot. The snapshot's scenario becomes the one Reset returns to.
// Resources caught mid-operation are settled: CREATING and STARTING nodes
// become READY, STOPPING ones STOPPED and DELETING ones are dropped;
// PROVISIONING and RECONCILING pools become RUNNING and STOPPING ones are
// dropped.
func (s *Server) LoadSnapshot(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("load snapshot: %w", err)
	}
	return s.loadSnapshotJSON(b, path)
}

// loadSnapshotJSON is LoadSnapshot of the file path's contents b.
func (s *Server) loadSnapshotJSON(b []byte, path string) error {
	var snap snapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&snap); err != nil {
		return fmt.Errorf("load snapshot %s: %w", path, err)
	}
	if snap.Scenario == nil {
		return fmt.Errorf("load snapshot %s: no scenario", path)
	}
	if err := snap.Scenario.Validate(); err != nil {
		return fmt.Errorf("load snapshot %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initial = snap.Scenario.clone()
	s.resetLocked()
	s.loadTPUSnapshot(snap.Nodes)
	s.loadGKESnapshot(snap.Clusters)
	return nil
}

// scenarioLocked is the current scenario including the capacity limits.
func (s *Server) scenarioLocked() *Scenario {
	sc := s.sc.clone()
	sc.Capacity = nil
	keys := make([]string, 0, len(s.capLimit))
	for k := range s.capLimit {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		zone, typ, _ := strings.Cut(k, "/")
		sc.Capacity = append(sc.Capacity, Capacity{Zone: zone, Type: typ, Count: s.capLimit[k]})
	}
	return sc
}

// Copyright (c) The terraform-provider-accel authors
// SPDX-License-Identifier: MPL-2.0

package benchmark

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// uiEvent is one line of `terraform apply -json` (Terraform's machine-readable
// UI, https://developer.hashicorp.com/terraform/internals/machine-readable-ui).
type uiEvent struct {
	Timestamp string `json:"@timestamp"`
	Type      string `json:"type"`
	Hook      struct {
		Resource struct {
			Addr string `json:"addr"`
		} `json:"resource"`
	} `json:"hook"`
}

// ApplySpan returns how long Terraform waited for the provider to apply the
// resource at addr: from its apply_start event to its apply_complete event
// in the output of `terraform apply -json`. It excludes Terraform's start-up,
// refresh and plan, so it is what the provider's apply itself took.
func ApplySpan(jsonLines []byte, addr string) (time.Duration, error) {
	var start, end time.Time
	sc := bufio.NewScanner(bytes.NewReader(jsonLines))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev uiEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Hook.Resource.Addr != addr {
			continue
		}
		switch ev.Type {
		case "apply_start", "apply_complete", "apply_errored":
		default:
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, ev.Timestamp)
		if err != nil {
			return 0, fmt.Errorf("event %s of %s: bad @timestamp %q: %w", ev.Type, addr, ev.Timestamp, err)
		}
		switch ev.Type {
		case "apply_start":
			start = ts
		case "apply_complete":
			end = ts
		case "apply_errored":
			return 0, fmt.Errorf("the apply of %s failed", addr)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("reading terraform apply -json output: %w", err)
	}
	if start.IsZero() || end.IsZero() {
		return 0, fmt.Errorf("no apply_start and apply_complete events for %s", addr)
	}
	return end.Sub(start), nil
}
